package bashcheck

import (
	"errors"
	"runtime"
	"strings"
	"sync"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/parser"
	"github.com/jaiph-go/jaiph/validate"
)

// Source checks one piece of lowered shell. file is the .jh path the
// diagnostics name; lines maps lowered lines back to it (nil: the source is
// already line- and column-aligned with the file).
func Source(file, src string, lines []lowered.Origin) []*diag.Diagnostic {
	return source(file, src, 1, lines)
}

// source is Source for a source whose first line is numbered first (a
// lowered body's StartLine); lines[i] is the origin of line first+i.
func source(file, src string, first int, lines []lowered.Origin) []*diag.Diagnostic {
	at := func(p syntax.Pos) (int, int) {
		return codegen.MapPosition(first, lines, int(p.Line()), int(p.Col()))
	}
	f, perr := parse(src, first)
	return report(file, f, perr, at)
}

// report turns the result of parsing a source into diagnostics: its syntax
// error, or the refused features it uses. at maps a position to the file.
func report(file string, f *syntax.File, perr *parseError, at func(syntax.Pos) (int, int)) []*diag.Diagnostic {
	if perr != nil {
		line, col := 1, 1
		if perr.pos.IsValid() {
			line, col = at(perr.pos)
		}
		return []*diag.Diagnostic{diag.New(file, line, col, diag.Parse, perr.msg)}
	}
	return diagnose(file, refusals(f), at)
}

// diagnose turns refused constructs into diagnostics.
func diagnose(file string, refused []found, at func(syntax.Pos) (int, int)) []*diag.Diagnostic {
	var out []*diag.Diagnostic
	for _, r := range refused {
		line, col := at(r.pos)
		out = append(out, diag.New(file, line, col, diag.Validate, "unsupported shell feature: "+r.name))
	}
	return out
}

// parseError is a syntax error at a position of the lowered source.
type parseError struct {
	pos syntax.Pos
	msg string
}

// parsers are reused by parse: a new mvdan parser per body costs more than
// parsing a small body.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// recyclers are parsers that reuse the memory of their nodes from one
// parse to the next (syntax.RecycleNodes, a patch of ours): a tree is valid
// until its parser parses again, so a caller keeps the parser until it is
// done with the tree. Body, which checks every body of a module, does: a
// fresh tree per body was 2.7 MB of checking the 4,500-line benchmark
// module, each page of it a fault in a new process.
var recyclers = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.RecycleNodes())
}}

// parse parses src, numbering its first line first.
func parse(src string, first int) (*syntax.File, *parseError) {
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	return parseWith(p, src, first)
}

// parseWith is parse with parser p.
func parseWith(p *syntax.Parser, src string, first int) (*syntax.File, *parseError) {
	syntax.StartLine(uint(first))(p)
	f, err := p.Parse(strings.NewReader(src), "")
	if err == nil {
		return f, nil
	}
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &pe):
		return nil, &parseError{pe.Pos, pe.Text}
	case errors.As(err, &le):
		return nil, &parseError{le.Pos, strings.TrimPrefix(err.Error(), le.Pos.String()+": ")}
	}
	return nil, &parseError{msg: err.Error()}
}

// Body checks one lowered rule, function or workflow of a module in file.
func Body(file string, b *lowered.Body) []*diag.Diagnostic {
	if b.Script {
		return nil // test mocks are checked with their test file (TestFile)
	}
	first := b.First()
	p := recyclers.Get().(*syntax.Parser)
	defer recyclers.Put(p)
	f, perr := parseWith(p, b.Source, first)
	if perr == nil {
		refused, steps := scan(f)
		ds := diagnose(file, refused, func(p syntax.Pos) (int, int) { return b.Position(int(p.Line()), int(p.Col())) })
		return append(ds, stepDiagnostics(file, steps, b)...)
	}
	if !perr.pos.IsValid() {
		return report(file, f, perr, func(p syntax.Pos) (int, int) { return b.Position(int(p.Line()), int(p.Col())) })
	}
	errLine := int(perr.pos.Line())
	src := strings.Split(b.Source, "\n")
	// A construct left open in a recover body or an if branch runs into
	// the generated code after it. A block is broken when it does not
	// parse as the body of an `if` (an if-not-shell branch may hold its
	// `else`); the block alone then names the construct. Only blocks that
	// start before the error qualify, so the first error is reported.
	// Block lines are numbered from first, like the parser's.
	for _, blk := range b.Blocks {
		from, to := blk.From-first, blk.To-first // indexes into src
		if blk.From > errLine || from < 1 || to >= len(src) {
			continue
		}
		bare := make([]string, len(src))
		copy(bare[from:to], src[from:to])
		wrapped := append([]string(nil), bare...)
		wrapped[from-1], wrapped[to] = "if :; then", "fi"
		if _, e := parse(strings.Join(wrapped, "\n"), first); e == nil {
			continue
		}
		for _, try := range [][]string{bare, wrapped} {
			text := strings.Join(try, "\n")
			if _, e := parse(text, first); e != nil && e.pos.IsValid() && int(e.pos.Line()) >= blk.From && int(e.pos.Line()) < blk.To {
				return source(file, text, first, b.Lines)
			}
		}
	}
	if d := unclosedOpener(file, b, src, first, errLine); d != nil {
		return d
	}
	// An unclosed construct runs into the wrapper's closing brace; the body
	// alone names the construct itself.
	if inner, ok := unwrap(b); ok {
		if _, e := parse(inner, first); e != nil {
			return source(file, inner, first, b.Lines)
		}
	}
	return source(file, b.Source, first, b.Lines)
}

// unwrap returns a body's lowered source without the wrapper function
// (its lines kept as blank lines, so positions do not move).
func unwrap(b *lowered.Body) (string, bool) {
	impl := codegen.ImplName(b.Symbol)
	open := impl + "() {\n"
	i := strings.Index(b.Source, open)
	j := strings.LastIndex(b.Source, "\n}\n"+impl+` "$@"`)
	if i < 0 || j < i+len(open)-1 {
		return "", false
	}
	return b.Source[:i] + "\n" + b.Source[i+len(open):j+1], true
}

// Module checks every body of a lowered module. Large modules are checked
// on all CPUs (bodies are independent); the result is in body order.
func Module(m *lowered.Module) []*diag.Diagnostic {
	if ds := fileName(m); ds != nil {
		return ds
	}
	return checkBodies(m.Path, len(m.Order), func(each func(*lowered.Body)) {
		for _, b := range m.Order {
			each(b)
		}
	})
}

// lowerAndCheck is Module(codegen.Lower(…)), except that a large module's
// bodies are checked on the other CPUs while the next ones are lowered:
// lowering the 4,500-line benchmark module is a quarter of its shell
// check, which otherwise ran on one CPU before the rest could start.
func lowerAndCheck(f *ast.File, symbol string, symbolOf func(*ast.Import) string) []*diag.Diagnostic {
	var m *lowered.Module
	// Lowering makes one body per rule, function and workflow.
	ds := checkBodies(f.Path, len(f.Rules)+len(f.Functions)+len(f.Workflows), func(each func(*lowered.Body)) {
		m = codegen.LowerEach(f, symbol, symbolOf, each)
	})
	if bad := fileName(m); bad != nil {
		return bad
	}
	return ds
}

// bodiesPerWorker is the least number of bodies worth a goroutine.
const bodiesPerWorker = 50

// checkBodies checks the n bodies of the module at path that produce hands
// to each, and returns their diagnostics in that order. With
// bodiesPerWorker bodies per CPU or more, the other CPUs check bodies while
// produce runs, and all of them once it has returned.
func checkBodies(path string, n int, produce func(each func(*lowered.Body))) []*diag.Diagnostic {
	res := make([][]*diag.Diagnostic, n)
	i := 0
	if workers := min(runtime.GOMAXPROCS(0), n/bodiesPerWorker); workers < 2 {
		produce(func(b *lowered.Body) {
			res[i] = Body(path, b)
			i++
		})
	} else {
		type job struct {
			i int
			b *lowered.Body
		}
		jobs := make(chan job, n)
		work := func() {
			for j := range jobs {
				res[j.i] = Body(path, j.b)
			}
		}
		var wg sync.WaitGroup
		for range workers - 1 {
			wg.Add(1)
			go func() { defer wg.Done(); work() }()
		}
		produce(func(b *lowered.Body) {
			jobs <- job{i, b}
			i++
		})
		close(jobs)
		work()
		wg.Wait()
	}
	var out []*diag.Diagnostic
	for _, ds := range res {
		out = append(out, ds...)
	}
	return out
}

// Modules checks every body of the lowered modules, sorted.
func Modules(ms []*lowered.Module) []*diag.Diagnostic {
	var out []*diag.Diagnostic
	for _, m := range ms {
		out = append(out, Module(m)...)
	}
	return diag.SortAndDedupe(out)
}

// TestFile checks the test blocks of a test file as the test runner lowers
// them (codegen.LowerTest; each statement on its own line) and the bodies of
// its `mock workflow|rule|function` statements.
func TestFile(f *ast.File) []*diag.Diagnostic {
	var out []*diag.Diagnostic
	for _, t := range f.Tests {
		out = append(out, Source(f.Path, codegen.LowerTest(t), nil)...)
		for _, s := range t.Stmts {
			m, ok := s.(*ast.MockSymbol)
			if !ok {
				continue
			}
			b := codegen.MockBody(lowered.Kind(m.Kind), "mock", m.Body)
			// MockBody puts two lines before the body's, which start on
			// the line after `mock … {`.
			n := strings.Count(b.Source, "\n") + 1
			lines := make([]lowered.Origin, n)
			for i := range lines {
				lines[i] = lowered.Origin{Line: max(m.Line, m.Line+i-1)}
			}
			out = append(out, Source(f.Path, b.Source, lines)...)
		}
	}
	return out
}

// Program checks a loaded program as `jaiph run`, `jaiph build` and `jaiph
// test` lower it: every module (module symbols relative to root) and, for a
// test file entry, its test blocks. The result is sorted.
func Program(prog *validate.Program, root string) []*diag.Diagnostic {
	return Lowered(prog, codegen.LowerProgram(prog.Modules, root, prog.Loader.Resolved))
}

// Lowered is Program for modules already lowered.
func Lowered(prog *validate.Program, mods []*lowered.Module) []*diag.Diagnostic {
	out := Modules(mods)
	if prog.Entry != nil && prog.Entry.IsTest {
		out = append(out, TestFile(prog.Entry)...)
	}
	return diag.SortAndDedupe(out)
}

// Files checks the given .jh/.jph/test files and the modules they import, the
// way `jaiph check` walks them. Files in skip (with other diagnostics) are
// not lowered; their imports still are checked.
// l is the loader validation used, so no file is parsed twice.
func Files(l *validate.Loader, files []string, skip map[string]bool) []*diag.Diagnostic {
	seen := map[string]bool{}
	queue := append([]string(nil), files...)
	var out []*diag.Diagnostic
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		if seen[path] {
			continue
		}
		seen[path] = true
		l.Load(path)
		f := l.File(path)
		if f == nil {
			continue
		}
		for _, im := range f.Imports {
			if p := l.ResolveImport(path, im); p != "" {
				queue = append(queue, p)
			}
		}
		if skip[path] {
			continue
		}
		if parser.IsTestFile(path) {
			out = append(out, TestFile(f)...)
			continue
		}
		root := dirOf(path)
		out = append(out, lowerAndCheck(f, codegen.ModuleSymbol(root, path), func(im *ast.Import) string {
			return codegen.ModuleSymbol(root, l.Resolved(im))
		})...)
	}
	return diag.SortAndDedupe(out)
}

func dirOf(path string) string {
	if i := strings.LastIndexAny(path, "/\\"); i >= 0 {
		return path[:i]
	}
	return "."
}
