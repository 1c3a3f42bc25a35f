// Package runtime executes lowered Jaiph bodies in-process with
// mvdan.cc/sh/v3/interp. Each managed call (rule, function, workflow, prompt)
// runs in its own interpreter runner whose Jaiph builtins are exec handlers;
// the runtime owns the run directory, step artifacts, run_summary.jsonl and
// the event stream that the progress tree and hooks observe. It never
// formats terminal output itself.
//
// It reads only lowered modules (package lowered): it must not import the
// AST, the parser or the validator, nor print to the terminal.
package runtime
