package engine

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/jaiph-go/jaiph/parser"
	"github.com/jaiph-go/jaiph/runtime"
	"github.com/jaiph-go/jaiph/validate"
)

// TestFiles resolves `jaiph test`'s path argument ("" for none: the
// workspace of the working directory) to the test files to run, sorted, and
// the workspace root they run in; the error is the message to show.
func TestFiles(path string) (files []string, workspace string, err error) {
	fail := func(msg string) ([]string, string, error) { return nil, "", errors.New(msg) }
	if path == "" {
		cwd, err := os.Getwd()
		if err != nil {
			return fail("jaiph test: " + err.Error())
		}
		workspace = runtime.WorkspaceRoot(cwd)
		files, err = findTestFiles(workspace)
		if err != nil {
			return fail("jaiph test: " + err.Error())
		}
		if len(files) == 0 {
			return fail("jaiph test: no *.test.jh or *.test.jph files found")
		}
		return files, workspace, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fail("jaiph test: " + err.Error())
	}
	st, err := os.Stat(abs)
	switch {
	case err == nil && st.IsDir():
		files, err = findTestFiles(abs)
		if err != nil {
			return fail("jaiph test: " + err.Error())
		}
		if len(files) == 0 {
			return fail("jaiph test: no *.test.jh or *.test.jph files in " + path)
		}
		return files, runtime.WorkspaceRoot(abs), nil
	case !parser.IsSourceFile(abs):
		return fail("jaiph test expects a .jh, .jph, *.test.jh, *.test.jph file or directory")
	case err != nil:
		return fail("jaiph test: no such file: " + path)
	case !st.Mode().IsRegular():
		return fail("jaiph test expects a .jh, .jph, *.test.jh, *.test.jph file or directory")
	case !parser.IsTestFile(abs):
		return fail("jaiph test requires a *.test.jh or *.test.jph file with inline mock prompt steps. Example:\n" +
			`  test "..." { mock prompt "response"; response = w.default; expectContain response "..."; }`)
	}
	return []string{abs}, runtime.WorkspaceRoot(filepath.Dir(abs)), nil
}

// findTestFiles returns the test files below dir, sorted.
func findTestFiles(dir string) ([]string, error) {
	all, err := validate.FindSources(dir, true)
	var out []string
	for _, p := range all {
		if parser.IsTestFile(p) {
			out = append(out, p)
		}
	}
	return out, err
}
