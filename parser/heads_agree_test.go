package parser

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// headLines are lines at the edges of the heads, beyond what the corpus
// files hold.
var headLines = []string{
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

// headsSummary is everything the hand-written heads make of text.
func headsSummary(text string) string {
	var b strings.Builder
	p := func(v ...any) { fmt.Fprintln(&b, v...) }
	l := newLine(text)
	p(l.ifHeader())
	p(l.malformedIf())
	p(l.assignment(true))
	p(l.assignment(false))
	if _, _, _, ok := l.assignment(false); ok {
		r := l.rhsLine()
		p(r.call("run"))
		p(r.call("ensure"))
		p(r.prompt())
		p(r.send())
	}
	p(l.prompt())
	p(l.log())
	p(l.isValueReturn())
	p(l.route())
	p(l.send())
	p(l.call("run"))
	p(l.call("ensure"))
	p(l.callTarget())
	if r, ok := l.keywordLine("ensure"); ok {
		fmt.Fprintln(&b, r.text, r.base)
	}
	p(returnsSchema(text))
	p(splitCall(text))
	p(isSend(text))
	p(parseDeclHeader(text, "rule"))
	p(parseDeclHeader(text, "workflow"))
	p(parseFuncHeader(text))
	return b.String()
}

// oracleSummary is the same from the participle grammars.
func oracleSummary(text string) string {
	var b strings.Builder
	p := func(v ...any) { fmt.Fprintln(&b, v...) }
	l := oNewLine(text)
	p(l.ifHeader())
	p(l.malformedIf())
	p(l.assignment(true))
	p(l.assignment(false))
	if _, _, _, ok := l.assignment(false); ok {
		r := l.rhsLine()
		p(r.call("run"))
		p(r.call("ensure"))
		p(r.prompt())
		p(r.send())
	}
	p(l.prompt())
	p(l.log())
	p(l.isValueReturn())
	p(l.route())
	p(l.send())
	p(l.call("run"))
	p(l.call("ensure"))
	p(l.callTarget())
	if r, ok := l.keywordLine("ensure"); ok {
		fmt.Fprintln(&b, r.text, r.base)
	}
	p(oReturnsSchema(text))
	p(oSplitCall(text))
	p(oIsSend(text))
	p(oParseDeclHeader(text, "rule"))
	p(oParseDeclHeader(text, "workflow"))
	p(oParseFuncHeader(text))
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
		if got, want := headsSummary(text), oracleSummary(text); got != want {
			t.Errorf("heads of %q:\n got  %s\n want %s", text, got, want)
		}
	})
}
