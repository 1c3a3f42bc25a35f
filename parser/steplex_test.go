package parser

import (
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/jaiph-go/jaiph/ast"
)

// TestStepLexerTokens pins the token stream of the step lexer: quoted text,
// $'…', nested $(…), backticks and comments are single tokens, so the
// operators inside them are text; unclosed ones run to the end of the line.
func TestStepLexerTokens(t *testing.T) {
	names := map[int]string{}
	for name, typ := range stepSymbols {
		names[int(typ)] = name
	}
	for _, tc := range []struct{ in, want string }{
		{`ch <- echo hi`, `Ident(ch) Space Op(<-) Space Ident(echo) Space Ident(hi)`},
		{`a.b -> c, d`, `Ident(a) Punct(.) Ident(b) Space Op(->) Space Ident(c) Punct(,) Space Ident(d)`},
		{`x = "a <- b" 'c -> d'`, `Ident(x) Space Punct(=) Space DQ("a <- b") Space SQ('c -> d')`},
		{`echo "a \" <- b"`, `Ident(echo) Space DQ("a \" <- b")`},
		{`echo $'a \' <- b'`, `Ident(echo) Space ANSI($'a \' <- b')`},
		{`echo $(a $(b <- c) ")" {)`, `Ident(echo) Space Subst($(a $(b <- c) ")" {))`},
		{"echo `a <- b` x", "Ident(echo) Space Backtick(`a <- b`) Space Ident(x)"},
		{`echo a # b <- c`, `Ident(echo) Space Ident(a) Space Comment(# b <- c)`},
		{`echo a#b`, `Ident(echo) Space Ident(a) Other(#) Ident(b)`},
		{`prompt "unclosed <- {`, `Ident(prompt) Space DQ("unclosed <- {)`},
		{`cat <<- EOF`, `Ident(cat) Space Other(<) Op(<-) Space Ident(EOF)`},
		{`if ! run w 1; then`, `Ident(if) Space Punct(!) Space Ident(run) Space Ident(w) Space Other(1) Punct(;) Space Ident(then)`},
		{`a\ b`, `Ident(a) Other(\ ) Ident(b)`},
	} {
		var got []string
		for _, tok := range newLine(tc.in).toks {
			if tok.typ == lexer.EOF {
				break
			}
			s := names[int(tok.typ)]
			if tok.typ != tokSpace {
				s += "(" + tok.val + ")"
			}
			got = append(got, s)
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("lex %q:\n got  %s\n want %s", tc.in, g, tc.want)
		}
	}
}

// TestStepFormsOrder checks the table against docs/language.md#steps: one entry per
// item group, in the normative order, the shell step last.
func TestStepFormsOrder(t *testing.T) {
	want := []string{"1–3", "4", "5", "5a", "5b", "5c", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15"}
	if len(stepForms) != len(want) {
		t.Fatalf("%d forms, want %d", len(stepForms), len(want))
	}
	for i, f := range stepForms {
		if !strings.HasPrefix(f.name, want[i]+" ") {
			t.Errorf("form %d is %q, want item %s", i, f.name, want[i])
		}
	}
}

// TestStepClassification runs whole lines through the table.
func TestStepClassification(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`if ! ensure ok; then`, "1–3"},
		{`if run w "a"; then`, "1–3"},
		{`if ! test -f x; then`, "1–3"},
		{`x = prompt "hi"`, "4"},
		{`x=prompt "hi"`, "4"},
		{`prompt "hi"`, "5"},
		{`x = run w`, "6"},
		{`x = <- ch`, "5a"},
		{`x = <- lib.ch key "$k" timeout "5m"`, "5a"},
		{`<- ch timeout "1h"`, "5b"},
		{`<-ch`, "5b"},
		{`x = prompt`, "5c"},
		{`prompt`, "5c"},
		{`x = ensure`, "5c"},
		{`run`, "5c"},
		{`x=prompt`, "15"}, // a shell assignment of the word
		{`x = prompt_y`, "6"},
		{`<- "ch"`, "15"},
		{`x = "s"`, "15"}, // quirk: a shell line running x
		{`x = $y`, "15"},
		{`ensure r`, "7"},
		{`run w a b`, "8"},
		{`log "a"`, "9"},
		{`logerr`, "9"},
		{"log\t\"a\"", "9"},
		{`log"a"`, "15"},
		{`logx "a"`, "15"},
		{`prompt"hi"`, "15"},
		{`return "$x"`, "10"},
		{"return\t$y", "10"},
		{`return ${x}`, "10"},
		{`return $? # c`, "10"}, // quirk: only the whole argument `$?` is a status return
		{`return $?`, "15"},
		{`return x"y"`, "15"},
		{`return 0`, "15"},
		{`if ensure r`, "11"},
		{`ch -> a, b`, "12"},
		{`echo "a -> b"`, "15"},
		{`ch <- echo "<- x"`, "13"},
		{`echo "ch <- x"`, "15"},
		{`for x in a; do {`, "14"},
		{`echo "{"`, "15"},
	} {
		p := &parser{path: "/t.jh", lines: []string{tc.line, "fi", "}"}, file: nil}
		s := &stepLine{line: newLine(tc.line), i: 0, raw: tc.line, w: &ast.Workflow{}}
		got := ""
		for _, f := range stepForms {
			if _, ok := f.parse(p, s); ok {
				got = strings.Fields(f.name)[0]
				break
			}
		}
		if got != tc.want {
			t.Errorf("%q classified as item %s, want %s", tc.line, got, tc.want)
		}
	}
}
