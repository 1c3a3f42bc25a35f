// Package runtime executes lowered Jaiph bodies in-process with
// mvdan.cc/sh/v3/interp (the patched copy in third_party/mvdan-sh). Each
// managed call (rule, function, workflow, prompt) runs in its own
// interpreter runner whose Jaiph builtins are exec handlers;
// the runtime owns the run directory, step artifacts, run_summary.jsonl and
// the event stream that the progress tree and hooks observe. It never
// formats terminal output itself. Where an orchestrator's messages are kept
// and who delivers them is a transport's (transport.go): the file inbox and
// the broker implement runtime.Transport and import the runtime, never the
// reverse.
//
// It reads only lowered modules (package lowered): it must not import the
// AST, the parser or the validator, nor print to the terminal.
package runtime
