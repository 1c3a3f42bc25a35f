// Package engine assembles the compiler pipeline for every command: it
// loads and validates an entry (or a test file), lowers its modules,
// checks their shell, and prepares a runtime ready to call, or plans the
// files `jaiph build` writes. Commands call engine; nothing else assembles
// the stages.
//
// It must not print, read flags, exit, or change the process's working
// directory: the workspace is a value, errors are returned (a compile
// problem as its *diag.Diagnostic), and rendering belongs to the caller.
package engine
