package engine

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/jaiph-go/jaiph/parser"
	"github.com/jaiph-go/jaiph/validate"
)

// SourceFiles resolves `jaiph check`'s paths to the files to check,
// absolute and without repeats: a file must be a .jh/.jph file; a directory
// stands for every source and test file below it.
func SourceFiles(paths []string) ([]string, error) {
	var files []string
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for _, a := range paths {
		abs, err := filepath.Abs(a)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", a, err)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("no such file or directory: %s", a)
		}
		if st.IsDir() {
			found, err := validate.FindSources(abs, true)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", a, err)
			}
			for _, f := range found {
				add(f)
			}
			continue
		}
		if !parser.IsSourceFile(abs) {
			return nil, fmt.Errorf("not a .jh or .jph file: %s", a)
		}
		add(abs)
	}
	return files, nil
}
