package parser

import (
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// Table tests for the line-level scanners. D13 (quote-aware brace depth and
// string ends) and D17 (recover split outside quotes) are deliberate
// deviations from the reference, so their edge cases are pinned here.

func TestBraceDelta(t *testing.T) {
	for _, tc := range []struct {
		line string
		want int
	}{
		{"{", 1},
		{"}", -1},
		{"}}", -2},
		{"cleanup() {", 1},
		{"{ echo a; }", 0},
		{"for f in a b; do { echo $f; }; done", 0},
		{"echo ${HOME}", 0},
		// D13: braces inside quotes, $'…', after a backslash or in a
		// comment do not count.
		{`echo "{"`, 0},
		{`echo "}" '{'`, 0},
		{`echo "a\"{"`, 0},
		{`echo $'\'{'`, 0},
		{`echo \{`, 0},
		{`echo x # a comment {`, 0},
		{`# {`, 0},
		{`echo x;# {`, 0},
		{`echo x#{`, 1}, // `#` inside a word is not a comment
		{`json='{"a": {"b": 1}}'`, 0},
		{`echo "${x}" {`, 1},
		// Quote state does not carry over to the next line.
		{`echo "unterminated {`, 0},
		{`echo 'unterminated {`, 0},
	} {
		if got := shellscan.BraceDelta(tc.line); got != tc.want {
			t.Errorf("shellscan.BraceDelta(%q) = %d, want %d", tc.line, got, tc.want)
		}
	}
}

func TestClosingDQ(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{``, -1},
		{`"`, 0},
		{`abc"`, 3},
		{`abc`, -1},
		{`a\"b"`, 4},
		{`a\\"`, 3},     // D13: an even run of backslashes does not escape
		{`a\\\"`, -1},   // an odd run does
		{`a\\\\"x"`, 5}, // four backslashes, then the closing quote
		{`\"\"`, -1},
		{`say \"hi\" now" rest`, 14},
	} {
		if got := shellscan.ClosingQuote(tc.s, '"'); got != tc.want {
			t.Errorf("ClosingQuote(%q, '\"') = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func TestIndexOutsideQuotes(t *testing.T) {
	for _, tc := range []struct {
		s, op string
		want  int
	}{
		{`a <- b`, "<-", 2},
		{`"a <- b"`, "<-", -1},
		{`'a <- b'`, "<-", -1},
		{`'a <- b' <- c`, "<-", 9},
		{`"a \" <- " <- x`, "<-", 11},
		{`a\<- b`, "<-", 2},     // backslashes count only inside quotes
		{`'a\' <- b`, "<-", -1}, // the reference honours \ inside '…' too
		{`echo "x" -> y`, "->", 9},
		{`x " recover " recover y`, " recover ", 13},
		{``, "<-", -1},
	} {
		if got := shellscan.IndexOperator(tc.s, tc.op); got != tc.want {
			t.Errorf("shellscan.IndexOperator(%q, %q) = %d, want %d", tc.s, tc.op, got, tc.want)
		}
	}
}

func TestIsSend(t *testing.T) {
	for _, tc := range []struct {
		s        string
		ref, cmd string
		ok       bool
	}{
		{`ch <- echo hi`, "ch", "echo hi", true},
		{`ch <-`, "ch", "", true},
		{`ch<-x`, "ch", "x", true},
		{`  ch   <-   x y`, "ch", "x y", true},
		{`lib.ch <- cat`, "lib.ch", "cat", true},
		{`ch <- echo "<- inner"`, "ch", `echo "<- inner"`, true},
		{"ch <- {\n  echo a\n}", "ch", "{\n  echo a\n}", true},
		{`echo "a <- b"`, "", "", false},
		{`x = ch <- a`, "", "", false},
		{`a.b.c <- x`, "", "", false},
		{`1ch <- x`, "", "", false},
		{`echo a | ch <- x`, "", "", false},
		{`echo hi`, "", "", false},
	} {
		r, cmd, ok := isSend(tc.s)
		ref := ""
		if ok {
			ref = r.String()
		}
		if ref != tc.ref || cmd != tc.cmd || ok != tc.ok {
			t.Errorf("isSend(%q) = %q, %q, %v; want %q, %q, %v", tc.s, ref, cmd, ok, tc.ref, tc.cmd, tc.ok)
		}
	}
}

func TestSplitRecover(t *testing.T) {
	for _, tc := range []struct {
		s           string
		left, right string
		ok          bool
	}{
		{`dep recover run x`, "dep", "run x", true},
		{`dep arg recover { a; b }`, "dep arg", "{ a; b }", true},
		// D17: the first " recover " outside quotes.
		{`dep "a recover b" recover run x`, `dep "a recover b"`, "run x", true},
		{`dep 'a recover b' recover run x`, `dep 'a recover b'`, "run x", true},
		{`dep "a \" recover \" b" recover y`, `dep "a \" recover \" b"`, "y", true},
		{`dep "a recover b"`, `dep "a recover b"`, "", false},
		{`dep recovery`, "dep recovery", "", false},
		{`dep recover`, "dep recover", "", false},
		{`dep recover a recover b`, "dep", "a recover b", true},
		{`dep  recover  run`, "dep ", " run", true},
	} {
		left, right, ok := splitRecover(tc.s)
		if left != tc.left || right != tc.right || ok != tc.ok {
			t.Errorf("splitRecover(%q) = %q, %q, %v; want %q, %q, %v", tc.s, left, right, ok, tc.left, tc.right, tc.ok)
		}
	}
}

func TestIfHeader(t *testing.T) {
	for _, tc := range []struct {
		t       string
		negated bool
		kw      string
		want    string
		ok      bool
	}{
		{`if ensure r; then`, false, "ensure", "r", true},
		{`if ensure r "a b" 2>/dev/null; then`, false, "ensure", `r "a b" 2>/dev/null`, true},
		{`if ensure r "a;b" ;then`, false, "ensure", `r "a;b"`, true},
		{`if ! ensure r; then`, true, "ensure", "r", true},
		{`if !ensure r;then`, true, "ensure", "r", true},
		{`if   !   ensure   r   ;   then`, true, "ensure", "r", true},
		{`if ensure r; then`, true, "ensure", "", false},
		{`if ! ensure r; then`, false, "ensure", "", false},
		{`if ensure r then`, false, "ensure", "", false},
		{`if ensure ; then`, false, "ensure", "", false},
		{`if ensurex r; then`, false, "ensure", "", false},
		{`if ensure r; then # comment`, false, "ensure", "", false},
		{`if run w; then`, false, "run", "w", true},
		{`if ! run lib.w "$1"; then`, true, "run", `lib.w "$1"`, true},
		{`if runner; then`, false, "run", "", false},
		// The shell form needs white space after `!`.
		{`if ! test -f x; then`, true, "", "test -f x", true},
		{`if ! [ -f x ]  ;  then`, true, "", "[ -f x ]", true},
		{`if !test; then`, true, "", "", false},
		{`if test -f x; then`, true, "", "", false},
	} {
		kind, negated, got, _, ok := newLine(tc.t).ifHeader()
		kw := map[ast.IfKind]string{ast.IfEnsure: "ensure", ast.IfRun: "run", ast.IfNotShell: ""}[kind]
		if ok && (negated != tc.negated || kw != tc.kw) {
			got, ok = "", false // another form of the header
		}
		if got != tc.want || ok != tc.ok {
			t.Errorf("ifHeader(%q, %v, %q) = %q, %v; want %q, %v", tc.t, tc.negated, tc.kw, got, ok, tc.want, tc.ok)
		}
	}
}

func TestAssignment(t *testing.T) {
	for _, tc := range []struct {
		s           string
		spaceBefore bool
		name, rhs   string
		off         int
		ok          bool
	}{
		{`x = y`, true, "x", "y", 4, true},
		{`x = y`, false, "x", "y", 4, true},
		{`x=y`, false, "x", "y", 2, true},
		{`x=y`, true, "", "", 0, false},
		{`x =y`, true, "x", "y", 3, true},
		{"x\t=\ty z", true, "x", "y z", 4, true},
		{`files =   git diff`, true, "files", "git diff", 10, true},
		{`x = `, true, "", "", 0, false},
		{`x =`, false, "", "", 0, false},
		{`1x = y`, true, "", "", 0, false},
		{`x.y = z`, true, "", "", 0, false},
		{`x == y`, true, "x", "= y", 3, true},
		{`x = run w "a"`, true, "x", `run w "a"`, 4, true},
		{`echo x = y`, true, "", "", 0, false},
	} {
		name, rhs, off, ok := newLine(tc.s).assignment(tc.spaceBefore)
		if name != tc.name || rhs != tc.rhs || off != tc.off || ok != tc.ok {
			t.Errorf("assignment(%q, %v) = %q, %q, %d, %v; want %q, %q, %d, %v",
				tc.s, tc.spaceBefore, name, rhs, off, ok, tc.name, tc.rhs, tc.off, tc.ok)
		}
	}
}

func TestHeredocs(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []shellscan.Heredoc
	}{
		{"cat <<END", []shellscan.Heredoc{{Delim: "END", Dash: false}}},
		{"cat <<-'E O'", []shellscan.Heredoc{{Delim: "E O", Dash: true, Quoted: true}}},
		{`cat <<"X" >f; cat << \Y`, []shellscan.Heredoc{{Delim: "X", Dash: false, Quoted: true}, {Delim: "Y", Dash: false, Quoted: true}}},
		{`cat <<E\OF <<"" <<'EOF'x`, []shellscan.Heredoc{{Delim: "EOF", Quoted: true}, {Delim: "", Quoted: true}, {Delim: "EOFx", Quoted: true}}},
		{`cat <<- ''`, []shellscan.Heredoc{{Delim: "", Dash: true, Quoted: true}}},
		{"cat <<<word", nil},
		{"echo $((1<<2))", nil},
		{"echo '<<A' \"<<B\" # <<C", nil},
	} {
		got := shellscan.Heredocs(tc.line)
		if len(got) != len(tc.want) {
			t.Errorf("heredocs(%q) = %v, want %v", tc.line, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("heredocs(%q) = %v, want %v", tc.line, got, tc.want)
			}
		}
	}
}

// A here-document body keeps its lines exactly (indentation, blank lines,
// a lone "}"), inside the command that opens it.
func TestHeredocBodyVerbatim(t *testing.T) {
	src := "function f() {\n  cat <<EOF\n    indented\n\n}\n  EOF\n  echo after\n}\n"
	file, diags := Parse("main.jh", []byte(src))
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags[0])
	}
	body := file.Functions[0].Body
	if len(body) != 2 || body[0].Text != "cat <<EOF\n    indented\n\n}\nEOF" || body[1].Text != "echo after" {
		for _, c := range body {
			t.Logf("%q", c.Text)
		}
		t.Fatalf("body not kept verbatim")
	}
}

// The same holds for a shell step of a workflow, alone or in a brace block.
func TestHeredocBodyVerbatimInWorkflow(t *testing.T) {
	src := "workflow default {\n  cat <<EOF\n    a\n  }\nEOF\n  {\n    cat <<-X\n  b\n\tX\n  }\n  echo after\n}\n"
	file, diags := Parse("main.jh", []byte(src))
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags[0])
	}
	var texts []string
	for _, s := range file.Workflows[0].Steps {
		if sh, ok := s.(*ast.Shell); ok {
			texts = append(texts, sh.Text)
		}
	}
	want := []string{"cat <<EOF\n    a\n  }\nEOF", "{\ncat <<-X\n  b\nX\n}", "echo after"}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Fatalf("shell steps %q, want %q", texts, want)
	}
}

// TestHeaderLexerAgrees checks that the header lexer's String and Ident
// tokens follow the scanning kit's rules.
func TestHeaderLexerAgrees(t *testing.T) {
	sym := headerLexer().Symbols()
	for _, in := range []string{`"a"x`, `"a\"b" x`, `"a\\" x`, `"a\\\"" x`, `"\\\\"`, `'a\'b'`, `'x' y`, `"unterminated`, `abc_1.x`, `_a b`, `9a`} {
		lx, err := headerLexer().LexString("", in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		tok, err := lx.Next()
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		var want string
		switch in[0] {
		case '"':
			if end := shellscan.ClosingQuote(in[1:], '"'); end >= 0 {
				want = in[:end+2]
			}
		case '\'':
			if end := strings.IndexByte(in[1:], '\''); end >= 0 {
				want = in[:end+2]
			}
		}
		if id, _ := shellscan.LeadingIdent(in); id != "" {
			if tok.Type != sym["Ident"] || tok.Value != id {
				t.Errorf("%q: first token %q, want the identifier %q", in, tok.Value, id)
			}
			continue
		}
		if isString := tok.Type == sym["String"]; isString != (want != "") || isString && tok.Value != want {
			t.Errorf("%q: first token %q (String: %v), kit says the string is %q", in, tok.Value, isString, want)
		}
	}
}
