error: main.jh: E_PARSE unsupported top-level statement: echo "stray top-level command"
