// Package doclinks has no code: its test checks that the references into
// docs/ (docs/NAME.md#anchor in comments, Markdown, test scripts and the
// Makefile, and links between the docs) resolve to a file and a heading,
// and that nothing cites the upstream specification's sections or a path
// outside the repository. docs/ itself holds no Go, so that the
// repository's root shows only the design card's stages.
package doclinks
