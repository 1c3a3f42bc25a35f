package diag

import (
	"bytes"
	"testing"
)

func TestShown(t *testing.T) {
	for _, c := range []struct{ cwd, path, want string }{
		{"/w", "/w/a.jh", "a.jh"},
		{"/w", "/w/sub/b.jh", "sub/b.jh"},
		{"/w", "/other/c.jh", "/other/c.jh"},
		{"/w", "/w", "."},
		{"/w", "/w2/d.jh", "/w2/d.jh"},
		{"", "/w/a.jh", "/w/a.jh"},
	} {
		if got := Shown(c.cwd, c.path); got != c.want {
			t.Errorf("Shown(%q, %q) = %q, want %q", c.cwd, c.path, got, c.want)
		}
	}
}

func TestReportFormats(t *testing.T) {
	ds := func() []*Diagnostic {
		return []*Diagnostic{New("/w/b.jh", 2, 1, "E_PARSE", "second"), New("/w/a.jh", 1, 3, "E_VALIDATE", "first"),
			New("/w/a.jh", 1, 3, "E_VALIDATE", "first")}
	}
	for _, c := range []struct{ format, want string }{
		{"text", "a.jh:1:3: E_VALIDATE first\nb.jh:2:1: E_PARSE second\n"},
		{"github", "::error file=a.jh,line=1,col=3,title=E_VALIDATE::E_VALIDATE first\n" +
			"::error file=b.jh,line=2,col=1,title=E_PARSE::E_PARSE second\n"},
	} {
		var b bytes.Buffer
		if got := Report(&b, c.format, "/w", []string{"/w/a.jh", "/w/b.jh"}, ds()); len(got) != 2 {
			t.Errorf("%s: %d diagnostics shown, want 2 (repeats removed)", c.format, len(got))
		}
		if b.String() != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.format, b.String(), c.want)
		}
	}
	var b bytes.Buffer
	Report(&b, "json", "/w", []string{"/w/a.jh", "/x/b.jh"}, nil)
	if want := `{"version":1,"files":["a.jh","/x/b.jh"],"diagnostics":[]}` + "\n"; b.String() != want {
		t.Errorf("json: %s want %s", b.String(), want)
	}
	for f, want := range map[string]bool{"text": true, "json": true, "github": true, "xml": false, "": false} {
		if KnownFormat(f) != want {
			t.Errorf("KnownFormat(%q) = %v", f, !want)
		}
	}
}
