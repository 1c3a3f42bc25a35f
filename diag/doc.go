// Package diag defines the located diagnostics every compiler stage reports.
//
// A Diagnostic is a value, not a formatted string: the CLI decides whether to
// print it in the reference's run style, as a check line, as JSON or as a
// GitHub annotation.
//
// It must not read files or know any stage: stages produce diagnostics and
// callers render them (format.go holds the three check formats). locate.go
// finds the token a diagnostic is about in source lines it is given.
package diag
