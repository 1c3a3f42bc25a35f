error: main.jh: E_PARSE `run` is not allowed inside a `rule` block.
Use `ensure` to call another rule, or move this call to a `workflow`.
