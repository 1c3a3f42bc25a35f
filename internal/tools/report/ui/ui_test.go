package ui

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// The pages load only files the FS holds, and nothing from the network
// (the UI must work offline, with no CDN).
func TestFSIsSelfContained(t *testing.T) {
	for _, page := range []string{"index.html", "run.html"} {
		b, err := fs.ReadFile(FS, page)
		if err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		refs := regexp.MustCompile(`(?:src|href)="(/[^"?]*)`).FindAllStringSubmatch(string(b), -1)
		if len(refs) < 2 {
			t.Fatalf("%s: expected stylesheet and scripts, found %v", page, refs)
		}
		for _, m := range refs {
			p := strings.TrimPrefix(m[1], "/")
			if p == "" {
				continue // the link back to the list
			}
			if _, err := fs.Stat(FS, p); err != nil {
				t.Errorf("%s refers to %s, which the FS lacks", page, m[1])
			}
		}
	}
	remote := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/`)
	err := fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(FS, p)
		if err != nil {
			return err
		}
		if m := remote.Find(b); m != nil {
			t.Errorf("%s loads %s from the network", p, m)
		}
		if strings.HasSuffix(p, ".js") && strings.Contains(string(b), ".innerHTML") {
			t.Errorf("%s sets innerHTML: run data must go in as text", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
