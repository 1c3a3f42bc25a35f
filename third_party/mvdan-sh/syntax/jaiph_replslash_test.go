package syntax

import (
	"strings"
	"testing"
)

// A '/' right after the operator of ${x/pattern/repl} or ${x//pattern/repl}
// is the pattern's first character, as in bash (jaiph patch): ${v////-}
// replaces every '/' with '-'. The printer's form of such a tree parses
// back to the same tree (it always writes the replacement's '/').
func TestJaiphReplLeadingSlash(t *testing.T) {
	for _, tc := range []struct {
		src, orig, with string
		all, hasWith    bool
	}{
		{`${v////-}`, "/", "-", true, true},
		{`${v///-}`, "/-", "", true, false},
		{`${v////}`, "/", "", true, false},
		{`${v///}`, "/", "", true, false},
		{`${v////d/X}`, "/", "d/X", true, true},
		{`${v///d/X}`, "/d", "X", true, true},
		{`${v//\//-}`, `\/`, "-", true, true},
		{`${v/#//-}`, "#", "/-", false, true},
		{`${v/%//-}`, "%", "/-", false, true},
		{`${v//$s/-}`, "$s", "-", true, true},
		{`${v//}`, "", "", true, false},
	} {
		pe, err := parseRepl(tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		orig, with := replParts(pe)
		if pe.Repl.All != tc.all || orig != tc.orig || with != tc.with || (pe.Repl.With != nil) != tc.hasWith {
			t.Errorf("%s: all=%v pattern %q replacement %q (set %v), want all=%v %q %q (set %v)",
				tc.src, pe.Repl.All, orig, with, pe.Repl.With != nil, tc.all, tc.orig, tc.with, tc.hasWith)
		}
		var back strings.Builder
		NewPrinter().Print(&back, pe)
		pe2, err := parseRepl(back.String())
		if err != nil {
			t.Errorf("%s printed as %s: %v", tc.src, back.String(), err)
			continue
		}
		if orig2, with2 := replParts(pe2); pe2.Repl.All != tc.all || orig2 != orig || with2 != with {
			t.Errorf("%s printed as %s, which parses as all=%v %q %q", tc.src, back.String(), pe2.Repl.All, orig2, with2)
		}
	}
}

func parseRepl(src string) (*ParamExp, error) {
	f, err := NewParser().Parse(strings.NewReader("echo "+src), "")
	if err != nil {
		return nil, err
	}
	return f.Stmts[0].Cmd.(*CallExpr).Args[1].Parts[0].(*ParamExp), nil
}

func replParts(pe *ParamExp) (orig, with string) {
	var o, w strings.Builder
	if pe.Repl.Orig != nil {
		NewPrinter().Print(&o, pe.Repl.Orig)
	}
	if pe.Repl.With != nil {
		NewPrinter().Print(&w, pe.Repl.With)
	}
	return o.String(), w.String()
}
