error: main.jh: E_PARSE unterminated workflow block: default
