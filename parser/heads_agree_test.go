package parser

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/ast"
)

// headLines are lines at the edges of the heads, beyond what the corpus
// files hold.
var headLines = []string{
	"<-", "<- ", "<-ch", "<- ch", "<- a.b", "<- a.", "<- ch ", "<- ch key", "<- ch key \"k\"", "<- ch key 'k' ",
	"<- ch key \"$k\" timeout \"5m\"", "<- ch timeout \"1h\"", "<- ch timeout '1h'", "<- ch key \"k", "<- ch key \"k\\\"",
	"<- ch extra", "<- ch key \"k\"x", "<- ch timeout \"1h\" x", "x = <- ch", "x=<-ch key \"a\"", "<- \"ch\"", "<-  ch  key  \"k\"  timeout  \"1s\"",
	"", " ", "if", "if ", "if !", "if ! ", "if !ensure r; then", "if ! ensure r; then", "if !  run a.b x; then",
	"if ensure r; then", "if run w; then", "if ensure; then", "if ! echo x; then", "if !echo x; then",
	"if ensure", "if ! ensure", "if ensurex", "if\tensure r ;then", "if ensure a. x; then", "if ensure .a; then",
	"x = run f", "x=run f", "x =run f", "x= run f", "x =", "x = ", "x=", "x == y", "x = prompt \"a\"",
	"x = prompt", "x = ensure a.b c", "x = ch <- y", "x = a -> b", "x=#c", "x = $(run f)", "1x = run f",
	"run", "run ", "run f", "run f x y", "run a.b", "run a.", "run a.b.c", "run .a", "run a.b(", "run f\tx",
	"run  f", "run\tf", "run \"f\"", "run f#x", "run f # x", "ensure r recover { echo x }", "ensure r x recover echo",
	"log", "log ", "log \"x\"", "logerr \"x\"", "logx \"x\"", "log\"x\"", "logerr", "log\t\"a\"",
	"prompt", "prompt ", "prompt \"x\" returns '{}'", "prompt\"x\"", "returns '{}'", "returns", "returns\t\"x\"",
	"return", "return ", "return \"x\"", "return $?", "return $? # c", "return 'a'", "return $x", "return 0",
	"ch -> a", "ch -> a, b", "ch ->a", "ch->a", "a.b -> c", "ch -> ", "ch <- x", "ch<-x", "ch <-", "a.b <- x",
	"a. <- x", "a.b.c <- x", "ch < - x", "echo \"ch <- x\"", "rule r {", "rule r{", "export rule r {",
	"export  rule r {", "exportrule r {", "export\trule\tr\t{", "rule r { x", "rule r", "rule {", "workflow w {",
	"export workflow w{", "workflow a.b {", "function f {", "function f() {", "function f(){", "function f( ) {",
	"function f( {", "function f ( ) {", "function f() { }", "function {", "function f()", "\\ run f", "run\\ f",
}

// corpusLines returns every line of the Jaiph files under the golden
// cases, the examples and the conformance corpus, trimmed as the parser
// trims step lines.
func corpusLines(t testing.TB) []string {
	var lines []string
	for _, dir := range []string{"../testdata", "../examples"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !IsSourceFile(p) && !strings.HasSuffix(p, ".txtar") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, l := range strings.Split(string(src), "\n") {
				lines = append(lines, trim(l))
			}
			return nil
		})
		if err != nil {
			t.Fatalf("reading %s: %v", dir, err)
		}
	}
	return lines
}

// heads is what both implementations of a line's heads answer: *line
// (heads.go) and *oLine (the participle grammars, heads_oracle_test.go).
type heads interface {
	ifHeader() (ast.IfKind, bool, string, int, bool)
	malformedIf() bool
	assignment(spaceBefore bool) (string, string, int, bool)
	prompt() (string, bool)
	log() (bool, string, bool)
	isValueReturn() (string, bool)
	route() (ast.Ref, string, int, bool)
	send() (ast.Ref, string, bool)
	receive() (receiveHead, bool)
	call(kw string) (ast.Ref, string, int, bool)
	callTarget() (ast.Ref, string, int, bool)
}

// implementation is one side of the comparison: its line type and the
// heads that work on text.
type implementation struct {
	line          func(text string) heads
	rhs           func(heads) heads                            // the assignment's right-hand side
	ensureRest    func(heads) (text string, base int, ok bool) // what follows `ensure `
	returnsSchema func(string) (string, bool)
	splitCall     func(string) (ast.Ref, string, int, bool)
	isSend        func(string) (ast.Ref, string, bool)
	declHeader    func(text, kind string) (string, bool, bool)
	funcHeader    func(string) (string, bool)
}

var handWritten = implementation{
	line: func(text string) heads { return newLine(text) },
	rhs:  func(h heads) heads { return h.(*line).rhsLine() },
	ensureRest: func(h heads) (string, int, bool) {
		r, ok := h.(*line).keywordLine("ensure")
		if !ok {
			return "", 0, false
		}
		return r.text, r.base, true
	},
	returnsSchema: returnsSchema, splitCall: splitCall, isSend: isSend,
	declHeader: parseDeclHeader, funcHeader: parseFuncHeader,
}

var oracle = implementation{
	line: func(text string) heads { return oNewLine(text) },
	rhs:  func(h heads) heads { return h.(*oLine).rhsLine() },
	ensureRest: func(h heads) (string, int, bool) {
		r, ok := h.(*oLine).keywordLine("ensure")
		if !ok {
			return "", 0, false
		}
		return r.text, r.base, true
	},
	returnsSchema: oReturnsSchema, splitCall: oSplitCall, isSend: oIsSend,
	declHeader: oParseDeclHeader, funcHeader: oParseFuncHeader,
}

// summary is everything an implementation's heads make of text.
func (im implementation) summary(text string) string {
	var b strings.Builder
	p := func(v ...any) { fmt.Fprintln(&b, v...) }
	l := im.line(text)
	p(l.ifHeader())
	p(l.malformedIf())
	p(l.assignment(true))
	p(l.assignment(false))
	if _, _, _, ok := l.assignment(false); ok {
		r := im.rhs(l)
		p(r.call("run"))
		p(r.call("ensure"))
		p(r.prompt())
		p(r.send())
		p(r.receive())
	}
	p(l.prompt())
	p(l.log())
	p(l.isValueReturn())
	p(l.route())
	p(l.send())
	p(l.receive())
	p(l.call("run"))
	p(l.call("ensure"))
	p(l.callTarget())
	p(im.ensureRest(l))
	p(im.returnsSchema(text))
	p(im.splitCall(text))
	p(im.isSend(text))
	p(im.declHeader(text, "rule"))
	p(im.declHeader(text, "workflow"))
	p(im.funcHeader(text))
	return b.String()
}

// FuzzHeadsAgree checks the hand-written heads (heads.go) against the
// participle grammars they replace (heads_oracle_test.go): on every line,
// every head gives the same result, the same names and the same offsets.
// The seeds (every line of the golden cases, the examples and the
// conformance corpus, and the edge lines above) run in `go test`.
func FuzzHeadsAgree(f *testing.F) {
	for _, l := range append(corpusLines(f), headLines...) {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if strings.ContainsAny(text, "\n\r") {
			return // a line never holds a line break
		}
		if got, want := handWritten.summary(text), oracle.summary(text); got != want {
			t.Errorf("heads of %q:\n got  %s\n want %s", text, got, want)
		}
	})
}
