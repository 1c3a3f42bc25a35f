error: main.jh: E_VALIDATE rule "lint_clean" must be called with ensure, not run
