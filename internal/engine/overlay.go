package engine

import (
	"runtime/debug"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/internal/bashcheck"
	"github.com/jaiph-go/jaiph/parser"
	"github.com/jaiph-go/jaiph/validate"
)

// CheckOverlay is Check with the files read through read instead of the
// file system, so that an editor's unsaved buffers win over what is on
// disk (`jaiph lsp`). The diagnostics are the ones `jaiph check` reports
// for the same contents: same codes, texts and positions. Not sorted.
func CheckOverlay(files []string, read func(string) ([]byte, error)) []*diag.Diagnostic {
	diags, _ := check(files, read)
	return diags
}

// check validates files read through read, then checks the lowered shell
// of those without other problems, as run, build and test check it.
func check(files []string, read func(string) ([]byte, error)) ([]*diag.Diagnostic, *validate.Loader) {
	// Checking allocates many short-lived parse trees and keeps little; a
	// lazier collector saves about a sixth of the time on large modules.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	loader := validate.NewLoader()
	loader.ReadFile = read
	diags := validate.CheckWith(loader, files)
	// The shell check needs a whole syntax tree: a file the parser failed
	// on is left out; one with only validation errors or config-entry
	// errors is checked too, so every diagnostic shows in one pass.
	withProblems := map[string]bool{}
	type fileLine struct {
		file string
		line int
	}
	refused := map[fileLine]bool{} // lines validation already refused
	for _, d := range diags {
		// Validation's E_PARSE refusals (`run` in a rule) count too: the
		// shell check runs on such a file when it also has a config-entry
		// error, and would call the same `run` a misplaced step.
		refused[fileLine{d.File, d.Line}] = true
		if d.Code == diag.Validate || d.Code == diag.Schema {
			continue
		}
		if f := loader.File(d.File); d.Code == diag.Parse && f != nil && f.EntryErrorsOnly {
			continue
		}
		withProblems[d.File] = true
	}
	// The lowered shell of a refused line is no shell its author wrote: a
	// shell diagnostic there would repeat the refusal, at a column of the
	// generated code.
	for _, d := range bashcheck.Files(loader, files, withProblems) {
		if !refused[fileLine{d.File, d.Line}] {
			diags = append(diags, d)
		}
	}
	// Each diagnostic's span: the token it is about, in its file's text.
	byFile := map[string][]*diag.Diagnostic{}
	for _, d := range diags {
		byFile[d.File] = append(byFile[d.File], d)
	}
	for path, ds := range byFile {
		if f := loader.File(path); f != nil {
			diag.Locate(ds, f.Lines)
		}
	}
	return diags, loader
}

// ParseSource parses src as the file at path from its text alone: path
// names positions and decides a module or a test file, and nothing is
// read from disk (the module's imports are not looked at). The diagnostics are
// those that mean the file does not parse: the parser's and the shell
// syntax errors of its bodies (E_PARSE), sorted. `jaiph fmt` formats
// whatever passes.
func ParseSource(path string, src []byte) (*ast.File, []*diag.Diagnostic) {
	f, ds := parser.Parse(path, src)
	if len(ds) > 0 {
		return f, diag.SortAndDedupe(ds)
	}
	var shell []*diag.Diagnostic
	if f.IsTest {
		shell = bashcheck.TestFile(f)
	} else {
		// The module's symbol names only its shell functions: a fixed one
		// keeps a file name that could not be a module's (a `check`
		// diagnostic) from refusing the text.
		m := codegen.Lower(f, "main", func(im *ast.Import) string { return "imported::" + im.Alias })
		shell = bashcheck.Module(m)
	}
	for _, d := range shell {
		if d.Code == diag.Parse {
			ds = append(ds, d)
		}
	}
	return f, diag.SortAndDedupe(ds)
}
