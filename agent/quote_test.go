package agent

import "testing"

// Expected values are what bash 5.2's `printf %q` prints in C.UTF-8.
func TestQuote(t *testing.T) {
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
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestQuoteCommand(t *testing.T) {
	got := QuoteCommand([]string{"cursor-agent", "--profile", "ci runner", ""})
	if want := `cursor-agent --profile ci\ runner ''`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
