// Command jaiph compiles and runs Jaiph workflows (.jh files).
//
// The command layer is thin: it parses arguments, calls package engine
// (which assembles the compiler stages), renders through package progress,
// and maps results to exit codes. It must not assemble stages itself, hold
// language or runtime logic, or change the working directory.
package main
