package shellscan

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// visible renders the bytes a scanner in mode m reports; bytes inside "…"
// (reported by ShellText only) are wrapped in ‹›.
func visible(s string, m Mode) string {
	var b strings.Builder
	sc := New(s, m)
	for {
		i, inDouble, ok := sc.Next()
		if !ok {
			return b.String()
		}
		if inDouble {
			b.WriteString("‹" + s[i:i+1] + "›")
		} else {
			b.WriteByte(s[i])
		}
	}
}

// result is what every variant makes of one input.
type result struct {
	in                         string
	body, shell, send, recover string   // the bytes each mode reports
	delta                      int      // BraceDelta
	heredocs                   []string // Heredocs: delimiters, "-" first for <<-
	subst                      []string // Substitutions
	sendAt                     int      // IndexSend(in)
	str                        string   // the Jaiph string opened by the first ", or "unterminated"
	stmts                      []string // SplitStatements
	word                       string   // FirstCommandWord
}

func run(in string) result {
	r := result{in: in, body: visible(in, BodyLine),
		shell: visible(in, ShellText), send: visible(in, Operators), recover: visible(in, RecoverBlock),
		delta: BraceDelta(in), subst: Substitutions(in),
		sendAt: IndexSend(in), stmts: SplitStatements(in), word: FirstCommandWord(in)}
	for _, h := range Heredocs(in) {
		if h.Dash {
			h.Delim = "-" + h.Delim
		}
		r.heredocs = append(r.heredocs, h.Delim)
	}
	if i := strings.IndexByte(in, '"'); i >= 0 {
		r.str = "unterminated"
		if end := ClosingQuote(in[i+1:], '"'); end >= 0 {
			r.str = in[i+1 : i+1+end]
		}
	}
	return r
}

// TestVariants runs every variant on the same tricky inputs, so that the
// rows show where the quoting rules differ: '…' escapes (send only), '…'
// not a string at all (recover only), $'…' (body only), comments (body), "…" contents (reported by shell only, where $( counts), quotes
// ignored (the guard's command word), backticks (tracked by none).
func TestVariants(t *testing.T) {
	for _, want := range variantTable {
		if got := run(want.in); !reflect.DeepEqual(got, want) {
			t.Errorf("%s\n got %+v\nwant %+v", want.in, got, want)
		}
	}
}

var tricky = []string{
	`echo "{"`,
	`echo 'a\'b' {`,
	`echo $'a\'{' }`,
	`# }`,
	`x=1 # }`,
	`echo a#{`,
	`r <- echo "a <- b"`,
	`echo "<-" '->' -> r`,
	`echo $(r <- b) -> x`,
	"echo `a && b` {",
	`echo $( "$(f)" ) && g`,
	`echo "unterminated {`,
	`echo 'unterminated {`,
	`cat <<EOF {`,
	`cat <<-'E x' <<<y "<<Q" # <<C`,
	`(( 1 << 2 )) <<A`,
	`run f "a && b" $(c || d) || true`,
	`x=$(( 1 + 2 )) $(g)`,
	`say "a\"b" \" {`,
	`say "a\\" {`,
	`a; b 'c;d' "e;f" \; g`,
	`X="a b" lib.run x | y`,
	`echo $'a\'b' <<EOF`,
	`run f $'a\'b' || true`,
}

// variantTable holds the expected result of every variant per input (one
// row per entry of tricky, in order).
var variantTable = []result{
	{in: "echo \"{\"",
		body:  "echo ",
		shell: "echo ‹{›",
		send:  "echo ", recover: "echo ",
		delta: 0, heredocs: nil, subst: nil, sendAt: -1, str: "{",
		stmts: []string{"echo \"{\""}, word: "echo"},
	{in: "echo 'a\\'b' {",
		body:  "echo b",
		shell: "echo b",
		send:  "echo  {", recover: "echo 'a\\'b' {",
		delta: 0, heredocs: nil, subst: nil, sendAt: -1, str: "",
		stmts: []string{"echo 'a\\'b' {"}, word: "echo"},
	{in: "echo $'a\\'{' }",
		body:  "echo $ }",
		shell: "echo $ }",
		send:  "echo $ }", recover: "echo $'a\\'{' }",
		delta: -1, heredocs: nil, subst: nil, sendAt: -1, str: "",
		stmts: []string{"echo $'a\\'{' }"}, word: "echo"},
	{in: "# }",
		body:  "",
		shell: "# }",
		send:  "# }", recover: "# }",
		delta: 0, heredocs: nil, subst: nil, sendAt: -1, str: "",
		stmts: []string{"# }"}, word: ""},
	{in: "x=1 # }",
		body:  "x=1 ",
		shell: "x=1 # }",
		send:  "x=1 # }", recover: "x=1 # }",
		delta: 0, heredocs: nil, subst: nil, sendAt: -1, str: "",
		stmts: []string{"x=1 # }"}, word: ""},
	{in: "echo a#{",
		body:  "echo a#{",
		shell: "echo a#{",
		send:  "echo a#{", recover: "echo a#{",
		delta: 1, heredocs: nil, subst: nil, sendAt: -1, str: "",
		stmts: []string{"echo a#{"}, word: "echo"},
	{in: "r <- echo \"a <- b\"",
		body:  "r <- echo ",
		shell: "r <- echo ‹a›‹ ›‹<›‹-›‹ ›‹b›",
		send:  "r <- echo ", recover: "r <- echo ",
		delta: 0, heredocs: nil, subst: nil, sendAt: 2, str: "a <- b",
		stmts: []string{"r <- echo \"a <- b\""}, word: "r"},
	{in: "echo \"<-\" '->' -> r",
		body:  "echo   -> r",
		shell: "echo ‹<›‹-›  -> r",
		send:  "echo   -> r", recover: "echo  '->' -> r",
		delta: 0, heredocs: nil, subst: nil, sendAt: -1, str: "<-",
		stmts: []string{"echo \"<-\" '->' -> r"}, word: "echo"},
	{in: "echo $(r <- b) -> x",
		body:  "echo $(r <- b) -> x",
		shell: "echo $(r <- b) -> x",
		send:  "echo $(r <- b) -> x", recover: "echo $(r <- b) -> x",
		delta: 0, heredocs: nil, subst: []string{"r <- b"}, sendAt: 9, str: "",
		stmts: []string{"echo $(r <- b) -> x"}, word: "echo"},
	{in: "echo `a && b` {",
		body:  "echo `a && b` {",
		shell: "echo `a && b` {",
		send:  "echo `a && b` {", recover: "echo `a && b` {",
		delta: 1, heredocs: nil, subst: nil, sendAt: -1, str: "",
		stmts: []string{"echo `a && b` {"}, word: "echo"},
	{in: "echo $( \"$(f)\" ) && g",
		body:  "echo $(  ) && g",
		shell: "echo $( ‹$›‹(›‹f›‹)› ) && g",
		send:  "echo $(  ) && g", recover: "echo $(  ) && g",
		delta: 0, heredocs: nil, subst: []string{" \"$(f)\" ", "f"}, sendAt: -1, str: "$(f)",
		stmts: []string{"echo $( \"$(f)\" ) && g"}, word: "echo"},
	{in: "echo \"unterminated {",
		body:  "echo ",
		shell: "echo ‹u›‹n›‹t›‹e›‹r›‹m›‹i›‹n›‹a›‹t›‹e›‹d›‹ ›‹{›",
		send:  "echo ", recover: "echo ",
		delta: 0, heredocs: nil, subst: nil, sendAt: -1, str: "unterminated",
		stmts: []string{"echo \"unterminated {"}, word: "echo"},
	{in: "echo 'unterminated {",
		body:  "echo ",
		shell: "echo ",
		send:  "echo ", recover: "echo 'unterminated {",
		delta: 0, heredocs: nil, subst: nil, sendAt: -1, str: "",
		stmts: []string{"echo 'unterminated {"}, word: "echo"},
	{in: "cat <<EOF {",
		body:  "cat <<EOF {",
		shell: "cat <<EOF {",
		send:  "cat <<EOF {", recover: "cat <<EOF {",
		delta: 1, heredocs: []string{"EOF"}, subst: nil, sendAt: -1, str: "",
		stmts: []string{"cat <<EOF {"}, word: "cat"},
	{in: "cat <<-'E x' <<<y \"<<Q\" # <<C",
		body:  "cat <<- <<<y  ",
		shell: "cat <<- <<<y ‹<›‹<›‹Q› # <<C",
		send:  "cat <<- <<<y  # <<C", recover: "cat <<-'E x' <<<y  # <<C",
		delta: 0, heredocs: []string{"-E x"}, subst: nil, sendAt: -1, str: "<<Q",
		stmts: []string{"cat <<-'E x' <<<y \"<<Q\" # <<C"}, word: "cat"},
	{in: "(( 1 << 2 )) <<A",
		body:  "(( 1 << 2 )) <<A",
		shell: "(( 1 << 2 )) <<A",
		send:  "(( 1 << 2 )) <<A", recover: "(( 1 << 2 )) <<A",
		delta: 0, heredocs: []string{"A"}, subst: nil, sendAt: -1, str: "",
		stmts: []string{"(( 1 << 2 )) <<A"}, word: ""},
	{in: "run f \"a && b\" $(c || d) || true",
		body:  "run f  $(c || d) || true",
		shell: "run f ‹a›‹ ›‹&›‹&›‹ ›‹b› $(c || d) || true",
		send:  "run f  $(c || d) || true", recover: "run f  $(c || d) || true",
		delta: 0, heredocs: nil, subst: []string{"c || d"}, sendAt: -1, str: "a && b",
		stmts: []string{"run f \"a && b\" $(c || d) || true"}, word: "run"},
	{in: "x=$(( 1 + 2 )) $(g)",
		body:  "x=$(( 1 + 2 )) $(g)",
		shell: "x=$(( 1 + 2 )) $(g)",
		send:  "x=$(( 1 + 2 )) $(g)", recover: "x=$(( 1 + 2 )) $(g)",
		delta: 0, heredocs: nil, subst: []string{"g"}, sendAt: -1, str: "",
		stmts: []string{"x=$(( 1 + 2 )) $(g)"}, word: ""},
	{in: "say \"a\\\"b\" \\\" {",
		body:  "say   {",
		shell: "say ‹a›‹b›  {",
		send:  "say  \\", recover: "say  \\",
		delta: 1, heredocs: nil, subst: nil, sendAt: -1, str: "a\\\"b",
		stmts: []string{"say \"a\\\"b\" \\\" {"}, word: "say"},
	{in: "say \"a\\\\\" {",
		body:  "say  {",
		shell: "say ‹a› {",
		send:  "say  {", recover: "say  {",
		delta: 1, heredocs: nil, subst: nil, sendAt: -1, str: "a\\\\",
		stmts: []string{"say \"a\\\\\" {"}, word: "say"},
	{in: "a; b 'c;d' \"e;f\" \\; g",
		body:  "a; b    g",
		shell: "a; b  ‹e›‹;›‹f›  g",
		send:  "a; b   \\; g", recover: "a; b 'c;d'  \\; g",
		delta: 0, heredocs: nil, subst: nil, sendAt: -1, str: "e;f",
		stmts: []string{"a", "b 'c", "d' \"e;f\" \\", "g"}, word: "a"},
	{in: "X=\"a b\" lib.run x | y",
		body:  "X= lib.run x | y",
		shell: "X=‹a›‹ ›‹b› lib.run x | y",
		send:  "X= lib.run x | y", recover: "X= lib.run x | y",
		delta: 0, heredocs: nil, subst: nil, sendAt: -1, str: "a b",
		stmts: []string{"X=\"a b\" lib.run x | y"}, word: "lib.run"},
	{in: "echo $'a\\'b' <<EOF",
		body:  "echo $ <<EOF",
		shell: "echo $ <<EOF",
		send:  "echo $ <<EOF", recover: "echo $'a\\'b' <<EOF",
		delta: 0, heredocs: []string{"EOF"}, subst: nil, sendAt: -1, str: "",
		stmts: []string{"echo $'a\\'b' <<EOF"}, word: "echo"},
	{in: "run f $'a\\'b' || true",
		body:  "run f $ || true",
		shell: "run f $ || true",
		send:  "run f $ || true", recover: "run f $'a\\'b' || true",
		delta: 0, heredocs: nil, subst: nil, sendAt: -1, str: "",
		stmts: []string{"run f $'a\\'b' || true"}, word: "run"},
}

// TestIndexSend: the shell's own `<-` (the here-document operator `<<-`,
// a here-string, `<` before a negative number in arithmetic and `[[ ]]`)
// is not a send; a send after such a context still is.
func TestIndexSend(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{`ch <- echo hi`, 3},
		{`ch<-echo`, 2},
		{`cat <<-EOF`, -1},
		{`cat <<-'EOF' >out`, -1},
		{`cat<<<-x`, -1},
		{`echo $((x<-y))`, -1},
		{`(( x<-y )) && echo neg`, -1},
		{`for (( i=0; i<-n; i-- )); do :; done`, -1},
		{`echo $(( (x)<-(y) ))`, -1},
		{`echo $[x<-1]`, -1},
		{`[[ $a <-1 ]] && echo lt`, -1},
		{`if [[ $a<-1 ]]; then :; fi`, -1},
		{`echo "$(( x<-y ))" '<-'`, -1},
		{`echo $((1)) ch <- x`, 15},
		{`[[ a ]] && ch <- x`, 14},
		{`echo a[[b <- c`, 10},
		{`x=$(ch <- echo)`, 7},
	} {
		if got := IndexSend(tc.in); got != tc.want {
			t.Errorf("IndexSend(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestTableCoversTricky(t *testing.T) {
	if len(variantTable) != len(tricky) {
		t.Fatalf("%d rows for %d inputs", len(variantTable), len(tricky))
	}
	for i, r := range variantTable {
		if r.in != tricky[i] {
			t.Errorf("row %d is %q, want %q", i, r.in, tricky[i])
		}
	}
}

func TestIdentifiers(t *testing.T) {
	for _, c := range []struct {
		s            string
		ident, ref   bool
		lead, remain string
	}{
		{"a", true, true, "a", ""},
		{"_x9", true, true, "_x9", ""},
		{"9x", false, false, "", "9x"},
		{"a.b", false, true, "a", ".b"},
		{"a.b.c", false, false, "a", ".b.c"},
		{".b", false, false, "", ".b"},
		{"a.", false, false, "a", "."},
		{"", false, false, "", ""},
		{"a-b", false, false, "a", "-b"},
	} {
		lead, remain := LeadingIdent(c.s)
		if IsIdent(c.s) != c.ident || IsRef(c.s) != c.ref || lead != c.lead || remain != c.remain {
			t.Errorf("%q: IsIdent %v IsRef %v LeadingIdent %q %q", c.s, IsIdent(c.s), IsRef(c.s), lead, remain)
		}
	}
	for _, c := range []struct {
		s    string
		want bool
	}{{"run x", true}, {"run\tx", true}, {"run", false}, {"runx y", false}, {"run\n", false}} {
		if HasWordPrefix(c.s, "run") != c.want {
			t.Errorf("HasWordPrefix(%q, run) = %v", c.s, !c.want)
		}
	}
	got := VarRefNames(`$a ${b_1} $9 ${c d} \$e $`)
	if want := []string{"a", "b_1", "e"}; !reflect.DeepEqual(got, want) {
		t.Errorf("VarRefNames = %q, want %q", got, want)
	}
}

// TestQuote checks the form of a quote inside (not a backslash, which
// mvdan.cc/sh keeps in assignment values) and that bash reads each quoted
// word back as the original.
func TestQuote(t *testing.T) {
	if got, want := Quote("it's\x00 $(x)"), `'it'"'"'s $(x)'`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	for _, s := range []string{"", "a b", "it's", "''", `a\'b`, "$(x) `y` \"z\"", "l1\nl2", "nul\x00byte"} {
		q := Quote(s)
		out, err := exec.Command("/usr/bin/bash", "-c", "printf %s "+q).Output()
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if want := strings.ReplaceAll(s, "\x00", ""); string(out) != want {
			t.Errorf("Quote(%q) = %s, bash reads %q", s, q, out)
		}
	}
}

// Expected values are what bash 5.2's `printf %q` prints in C.UTF-8.
func TestQuoteQ(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "''"},
		{"plain", "plain"},
		{"safe-chars_./:@=%+,", `safe-chars_./:@=%+\,`},
		{"two words", `two\ words`},
		{"tab\tsep", `$'tab\tsep'`},
		{`!"$&'()*,;<>?[\]^` + "`{|}", `\!\"\$\&\'\(\)\*\,\;\<\>\?\[\\\]\^\` + "`" + `\{\|\}`},
		{"#lead and mid#", `\#lead\ and\ mid#`},
		{"~home", `\~home`},
		{"a=~b:~c ~d", `a=\~b:\~c\ ~d`},
		{"line1\nline2", `$'line1\nline2'`},
		{"bell\a bs\b vt\v ff\f cr\r esc\x1b", `$'bell\a bs\b vt\v ff\f cr\r esc\E'`},
		{"it's \\ \"q\" $x\n", `$'it\'s \\ "q" $x\n'`},
		{"nul-ish \x01 and del \x7f", `$'nul-ish \001 and del \177'`},
		{"é ü", `é\ ü`},
		{"\u00a0\u200b\ufeff\ue000", "\u00a0\u200b\ufeff\ue000"},
		{"c1 \u0085", `$'c1 \302\205'`},
		{"sep \u2028", `$'sep \342\200\250'`},
		{"unassigned \u0378", `$'unassigned \315\270'`},
		{"bad \xff byte", `$'bad \377 byte'`},
		{"é\n", "$'é\\n'"},
	}
	for _, tt := range tests {
		if got := QuoteQ(tt.in); got != tt.want {
			t.Errorf("QuoteQ(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestIsDigits(t *testing.T) {
	for s, want := range map[string]bool{"": false, "0": true, "007": true, "12a": false, "-1": false, "١": false, " 1": false} {
		if got := IsDigits(s); got != want {
			t.Errorf("IsDigits(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestQuoteAfter: which string a line leaves open, and where a later line
// closes it (bash reads a multi-line string's lines verbatim).
func TestQuoteAfter(t *testing.T) {
	for _, c := range []struct {
		line string
		open byte
		want byte
	}{
		{`echo hi`, 0, 0},
		{`a='x `, 0, '\''},
		{`a="x`, 0, '"'},
		{`echo $'a\'b`, 0, '$'},
		{`echo $'a\'b'`, 0, 0},
		{`echo "a\"b`, 0, '"'},
		{`echo it\'s`, 0, 0},
		{`echo x # it's`, 0, 0},
		{`echo a#'b`, 0, '\''},
		{`echo "$(printf '%s' "a")"`, 0, 0},
		{`echo 'a' "b`, 0, '"'},
		{"\n  y  ", '\'', '\''},
		{"\nz' ; echo \"q", '\'', '"'},
		{"\nend\"", '"', 0},
		{"\n\\'", '$', '$'},
		{"\n'", '$', 0},
		{"\n# '", 0, 0},
	} {
		if got := QuoteAfter(c.line, c.open); got != c.want {
			t.Errorf("QuoteAfter(%q, %q) = %q, want %q", c.line, c.open, got, c.want)
		}
		if c.open == 0 && EndsInQuote(c.line) != (c.want != 0) {
			t.Errorf("EndsInQuote(%q) = %v", c.line, !(c.want != 0))
		}
	}
}
