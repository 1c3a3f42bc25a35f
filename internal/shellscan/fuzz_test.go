package shellscan

import (
	"strings"
	"testing"
)

// FuzzScan checks, for any text, that every mode reports strictly
// increasing in-range indices, that a byte inside "…" is reported only by
// a ReportDouble mode, and that the helpers return pieces of their input.
func FuzzScan(f *testing.F) {
	for _, in := range tricky {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range []Mode{BodyLine, ShellText, Operators, RecoverBlock} {
			sc := New(s, m)
			last := -1
			for {
				i, inDouble, ok := sc.Next()
				if !ok {
					break
				}
				if i <= last || i >= len(s) {
					t.Fatalf("mode %b: index %d after %d in %q", m, i, last, s)
				}
				if inDouble && m&ReportDouble == 0 {
					t.Fatalf("mode %b reported a byte inside \"…\" in %q", m, s)
				}
				last = i
			}
		}
		for _, sub := range Substitutions(s) {
			if !strings.Contains(s, sub) {
				t.Fatalf("substitution %q is not in %q", sub, s)
			}
		}
		for _, st := range SplitStatements(s) {
			if !strings.Contains(s, st) {
				t.Fatalf("statement %q is not in %q", st, s)
			}
		}
		if i := IndexOperator(s, "<-"); i >= 0 && !strings.HasPrefix(s[i:], "<-") {
			t.Fatalf("IndexOperator = %d in %q", i, s)
		}
		if i := IndexSend(s); i >= 0 && (!strings.HasPrefix(s[i:], "<-") || i < IndexOperator(s, "<-")) {
			t.Fatalf("IndexSend = %d in %q (IndexOperator %d)", i, s, IndexOperator(s, "<-"))
		}
		if i := ClosingQuote(s, '"'); i >= 0 && s[i] != '"' {
			t.Fatalf("ClosingQuote = %d in %q", i, s)
		}
		_ = BraceDelta(s)
		_ = Heredocs(s)
		if w := FirstCommandWord(s); !strings.Contains(s, w) {
			t.Fatalf("command word %q is not in %q", w, s)
		}
	})
}
