package parser

import (
	"strings"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/internal/lazy"
	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// The test language's line patterns, compiled on first use (internal/lazy).
var (
	reExpect        = lazy.Regexp(`^(expectContain|expectNotContain|expectEqual)\s+([A-Za-z_][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*$`)
	reLegacyCapture = lazy.Regexp(`^([A-Za-z_][A-Za-z0-9_]*)=\$\(\{\s*([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)\s+2>&1;\s*\}\s*\|\|\s*true\s*\)\s*(#.*)?$`)
	reTestAssign    = lazy.Regexp(`^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)(?:\s+"((?:[^"\\]|\\.)*)")?(\s+allow_failure)?\s*$`)
	reTestRun       = lazy.Regexp(`^([A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*)(?:\s+"((?:[^"\\]|\\.)*)")?(\s+allow_failure)?\s*$`)
	reSingleQuoted  = lazy.Regexp(`^'(?:[^'\\]|\\.)*'$`)
	reAssignLike    = lazy.Regexp(`^[A-Za-z_][A-Za-z0-9_]*(?:\s+=\s*|\s*=\s+)[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?(?:\s|$)`)
	reRunLike       = lazy.Regexp(`^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*(?:\s|$)`)
	reMockIf        = lazy.Regexp(`^(if|elif)\s+\$1\s+contains\s+"((?:[^"\\]|\\.)*)"\s*;\s*then\s*$`)
	reRespond       = lazy.Regexp(`^respond\s+"((?:[^"\\]|\\.)*)"\s*$`)
)

// decodeTestString applies the test language's escapes: `\"` → `"`, `\n` →
// newline.
func decodeTestString(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, `\"`, `"`), `\n`, "\n")
}

// parseTest parses a `test "…" { … }` block (docs/language.md#test-blocks) starting at line i.
func (p *parser) parseTest(i int, t string) int {
	desc, ok := parseTestHeader(t)
	if !ok {
		p.errorAt(i+1, 1, `test block must match: test "description" {`)
		return p.skipToNextDecl(i + 1)
	}
	tb := &ast.Test{Pos: p.pos(i, indentCol(p.lines[i])), Description: desc}
	for j := i + 1; j < len(p.lines); j++ {
		raw := p.lines[j]
		inner := trim(raw)
		if inner == "" || strings.HasPrefix(inner, "#") {
			continue
		}
		if inner == "}" {
			tb.End = p.endOf(j)
			p.file.Tests = append(p.file.Tests, tb)
			p.item(tb)
			return j + 1
		}
		pos := p.pos(j, indentCol(raw))
		stmt, next := p.parseTestStmt(j, inner, pos)
		if stmt != nil {
			tb.Stmts = append(tb.Stmts, stmt)
		}
		j = next - 1
	}
	p.unterminated(i+1, "unterminated test block: "+desc)
	return len(p.lines)
}

// parseTestStmt classifies one test-block line; it returns the statement (nil
// after an error) and the index of the next line.
func (p *parser) parseTestStmt(j int, inner string, pos ast.Pos) (ast.TestStmt, int) {
	if strings.HasPrefix(inner, "mock prompt ") {
		arg := trim(inner[len("mock prompt "):])
		if arg == "{" {
			return p.parseMockDispatcher(j, pos)
		}
		switch {
		case strings.HasPrefix(arg, `"`) && shellscan.ClosingQuote(arg[1:], '"') >= 0:
		case reSingleQuoted().MatchString(arg):
		default:
			// Quirk: the reference reports the 0-based index of `mock`
			// (so one column to the left); we keep it but never go below 1.
			p.errorAt(j+1, max(1, strings.Index(p.lines[j], "mock")), `mock prompt must be: mock prompt "<response>" or mock prompt { if $1 contains "..." ; then respond "..." ; fi }`)
			return nil, j + 1
		}
		resp := arg
		if len(arg) >= 2 && arg[len(arg)-1] == arg[0] {
			resp = arg[1 : len(arg)-1]
		}
		return &ast.MockPrompt{Pos: pos, Response: resp}, j + 1
	}
	if shellscan.HasWordPrefix(inner, "mock") {
		kind, _ := firstWord(trim(inner[4:]))
		if kind == "workflow" || kind == "rule" || kind == "function" {
			h, ok := parseMockHeader(inner)
			if !ok || h.Kind != kind {
				if strings.HasSuffix(inner, "{") {
					msg := "mock " + kind + " ref must be <alias> or <alias>.<name>"
					if kind == "function" {
						msg = "mock function ref must be <name> or <alias>.<name>"
					}
					p.errorAt(j+1, pos.Col, msg)
					return nil, p.skipMockBody(j + 1)
				}
			} else {
				ref := ast.Ref{Name: h.Alias}
				if h.Name != "" {
					ref = ast.Ref{Alias: h.Alias, Name: h.Name}
				}
				var body []string
				for k := j + 1; k < len(p.lines); k++ {
					if trim(p.lines[k]) == "}" {
						return &ast.MockSymbol{Pos: pos, Kind: kind, Ref: ref, Body: strings.Join(body, "\n")}, k + 1
					}
					body = append(body, p.lines[k])
				}
				p.errorAtEOF(j+2, 1, "unterminated mock block")
				return nil, len(p.lines)
			}
		}
	}
	if m := reExpect().FindStringSubmatch(inner); m != nil {
		return &ast.Expect{Pos: pos, Kind: m[1], Var: m[2], Expected: decodeTestString(m[3])}, j + 1
	}
	if m := reLegacyCapture().FindStringSubmatch(inner); m != nil {
		return &ast.TestRun{Pos: pos, Capture: m[1], Ref: ast.Ref{Alias: m[2], Name: m[3]}, AllowFailure: true}, j + 1
	}
	if m := reTestAssign().FindStringSubmatchIndex(inner); m != nil {
		ref, _ := ast.ParseRef(inner[m[4]:m[5]])
		run := &ast.TestRun{Pos: pos, Capture: inner[m[2]:m[3]], Ref: ref, AllowFailure: m[8] >= 0}
		if m[6] >= 0 {
			run.Arg, run.HasArg = decodeTestString(inner[m[6]:m[7]]), true
		}
		return run, j + 1
	}
	if m := reTestRun().FindStringSubmatchIndex(inner); m != nil {
		ref, _ := ast.ParseRef(inner[m[2]:m[3]])
		run := &ast.TestRun{Pos: pos, Ref: ref, AllowFailure: m[6] >= 0}
		if m[4] >= 0 {
			run.Arg, run.HasArg = decodeTestString(inner[m[4]:m[5]]), true
		}
		return run, j + 1
	}
	// A line shaped like a capture or run whose tail does not fit the
	// grammar would run as a broken shell command; report it instead.
	if reAssignLike().MatchString(inner) {
		p.errorAt(j+1, pos.Col, `assignment in test must be: name = <workflow_ref> or name = <workflow_ref> "arg" or name = <workflow_ref> allow_failure`)
		return nil, j + 1
	}
	if reRunLike().MatchString(inner) {
		p.errorAt(j+1, pos.Col, "workflow run in test must be <alias>.<workflow>")
		return nil, j + 1
	}
	return &ast.TestShell{Pos: pos, Text: p.lines[j]}, j + 1
}

func (p *parser) skipMockBody(k int) int {
	for ; k < len(p.lines); k++ {
		if trim(p.lines[k]) == "}" {
			return k + 1
		}
	}
	p.eof = true
	return k
}

// parseMockDispatcher parses `mock prompt { if $1 contains "…" ; then respond
// "…" … fi }` (docs/language.md#mocks).
func (p *parser) parseMockDispatcher(j int, pos ast.Pos) (ast.TestStmt, int) {
	d := &ast.MockDispatcher{Pos: pos}
	var pending *string
	inElse, seenFi := false, false
	fail := func(k int, msg string) (ast.TestStmt, int) {
		p.errorAt(k+1, 1, msg)
		return nil, p.skipMockBody(k + 1)
	}
	for k := j + 1; k < len(p.lines); k++ {
		line := trim(p.lines[k])
		if line == "" {
			continue
		}
		if line == "}" {
			if !seenFi {
				p.errorAt(k+1, 1, "mock prompt block must end with fi then }")
				return nil, k + 1
			}
			return d, k + 1
		}
		if m := reMockIf().FindStringSubmatch(line); m != nil {
			if inElse {
				return fail(k, "elif after else not allowed in mock prompt block")
			}
			if m[1] == "elif" && pending != nil {
				return fail(k, `respond "..." required after if/elif ... then before next elif`)
			}
			pat := decodeTestString(m[2])
			pending = &pat
			continue
		}
		switch {
		case line == "else":
			if inElse {
				return fail(k, "duplicate else in mock prompt block")
			}
			if pending != nil {
				return fail(k, `respond "..." required after if/elif ... then before else`)
			}
			inElse = true
		case reRespond().MatchString(line):
			resp := decodeTestString(reRespond().FindStringSubmatch(line)[1])
			switch {
			case inElse:
				// A repeated respond in else replaces the response.
				if n := len(d.Branches); n > 0 && d.Branches[n-1].Else {
					d.Branches[n-1].Response = resp
				} else {
					d.Branches = append(d.Branches, ast.MockBranch{Else: true, Response: resp})
				}
			case pending != nil:
				d.Branches = append(d.Branches, ast.MockBranch{Pattern: *pending, Response: resp})
				pending = nil
			default:
				return fail(k, "respond must follow if/elif ... then or else in mock prompt block")
			}
		case line == "fi":
			if pending != nil {
				return fail(k, `respond "..." required after last elif ... then before fi`)
			}
			seenFi = true
		default:
			return fail(k, `mock prompt block allows only: if $1 contains "..." ; then, elif ..., else, respond "...", fi, }`)
		}
	}
	p.errorAtEOF(j+1, 1, "unterminated mock prompt block")
	return nil, len(p.lines)
}
