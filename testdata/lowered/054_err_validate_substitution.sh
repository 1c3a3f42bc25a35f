error: main.jh: E_VALIDATE command substitution cannot use Jaiph keywords "run" or "ensure"; use managed steps outside $(...)
