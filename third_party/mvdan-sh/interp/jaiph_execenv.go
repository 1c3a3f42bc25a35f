package interp

import "github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"

// ExecEnv is a command's environment as the interpreter's own exec
// handler builds it from env (jaiph-go patch): an embedder's exec handler
// passes programs the same variables, by the same scope rules.
func ExecEnv(env expand.Environ) []string { return execEnv(env) }
