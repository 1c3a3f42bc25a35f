// Package codegen lowers each rule, function and workflow body of a validated
// module to shell source in which every Jaiph step is a call to a runtime
// builtin (`jaiph::run`, `jaiph::ensure`, `jaiph::log`, …). Arguments stay
// shell words written by the user; nothing the program reads at run time is
// ever spliced into the source. The runtime parses the result once with
// mvdan.cc/sh and runs it; `jaiph build` writes it out for inspection.
//
// Its output types live in package lowered (with each body's typed step
// records, so the runtime never parses flags back). It must not import
// validate or run anything.
package codegen
