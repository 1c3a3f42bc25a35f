// Package engine assembles the compiler pipeline for every command: it
// loads and validates an entry (or a test file), lowers its modules,
// checks their shell, places a program (Plan: in the Docker sandbox or in
// this process) and runs it, or plans the files `jaiph build` writes.
// Commands call engine; nothing else assembles the stages.
//
// It does not read flags, exit, or change the process's working
// directory: options come as typed fields (Inbox, FileRun, ResumeOptions,
// RedriveOptions), the workspace is a value, a compile problem comes back
// as its *diag.Diagnostic.
//
// It writes only to writers its caller hands it, never to the process's
// streams on its own. The commands that show a run in a terminal print
// there because one place renders a run for every front end that shows
// one: RunFile, Resume and Run.RunInTerminal write the header, progress
// tree and PASS line to Terminal.Stdout and the FAIL block, the run's
// stray stderr and a run that could not start (as the reference prints
// it) to Terminal.Stderr. Redrive writes a line per letter to
// RedriveOptions.Stdout, Build `built <path>` to its report writer,
// RunTests through the report it is given. ProcessTerminal is the one
// place that reads this process's stdin, environment and home, for the
// caller to pass back in a Terminal.
package engine
