package ui

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// FS is the UI's files rooted at the site root: index.html, run.html and
// assets/….
var FS fs.FS = mustSub(static, "static")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		// fs.Sub fails only on an invalid path name, a constant here.
		panic(err)
	}
	return sub
}
