package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/jaiph-go/jaiph/internal/observe/progress"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/internal/testrun"
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
		workspace = runs.WorkspaceRoot(cwd)
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
		return files, runs.WorkspaceRoot(abs), nil
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
	return []string{abs}, runs.WorkspaceRoot(filepath.Dir(abs)), nil
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

// RunTests is `jaiph test` over files (TestFiles): each file is compiled
// on its own (D19: the test file and what it imports), then its blocks run
// in order and are reported. opts.Program is set per file. The status is 0
// when every test passed, 1 otherwise, 128+signal after an interruption;
// the error is a compile or preparation problem, after which nothing more
// ran.
func RunTests(ctx context.Context, files []string, opts testrun.Options, report *progress.TestReport) (int, error) {
	status := 0
	for _, file := range files {
		prog, err := LoadTest(file, opts.Workspace)
		if err != nil {
			return 1, err
		}
		opts.Program = prog
		tf, err := PrepareTest(ctx, opts)
		if err != nil {
			return 1, fmt.Errorf("jaiph: %v", err)
		}
		report.StartFile(filepath.Base(file))
		for _, t := range tf.Tests() {
			res := tf.Run(ctx, t)
			if in := runtime.Interruption(ctx); in != nil {
				// The interrupted test counts as failed; the file's summary
				// still shows what ran.
				report.Test(res.Description, true, "Process terminated by signal "+in.SignalName(), res.Elapsed)
				report.EndFile()
				return in.Status(), nil
			}
			report.Test(res.Description, res.Failed, res.Stderr, res.Elapsed)
		}
		if report.EndFile() {
			status = 1
		}
	}
	return status, nil
}
