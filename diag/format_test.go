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
		located := New("/w/a.jh", 1, 3, "E_VALIDATE", "first")
		located.Span = Span{1, 7, 14}
		return []*Diagnostic{New("/w/b.jh", 2, 1, "E_PARSE", "second"), located,
			New("/w/a.jh", 1, 3, "E_VALIDATE", "first"), New("/w/a.jh", 1, 3, "E_VALIDATE", "first")}
	}
	for _, c := range []struct{ format, want string }{
		// Each at its token when located (a.jh's first), else at the column.
		{"text", "a.jh:1:3: E_VALIDATE first\na.jh:1:7: E_VALIDATE first\nb.jh:2:1: E_PARSE second\n"},
		// The code once, as the title; endColumn is inclusive.
		{"github", "::error file=a.jh,line=1,endLine=1,col=3,endColumn=3,title=E_VALIDATE::first\n" +
			"::error file=a.jh,line=1,endLine=1,col=7,endColumn=13,title=E_VALIDATE::first\n" +
			"::error file=b.jh,line=2,endLine=2,col=1,endColumn=1,title=E_PARSE::second\n"},
		{"json", `{"version":1,"files":["a.jh","b.jh"],"diagnostics":[` +
			`{"file":"a.jh","line":1,"col":3,"endLine":1,"endCol":3,"code":"E_VALIDATE","message":"first"},` +
			`{"file":"a.jh","line":1,"col":7,"endLine":1,"endCol":14,"code":"E_VALIDATE","message":"first"},` +
			`{"file":"b.jh","line":2,"col":1,"endLine":2,"endCol":1,"code":"E_PARSE","message":"second"}]}` + "\n"},
	} {
		var b bytes.Buffer
		if got := Report(&b, c.format, "/w", []string{"/w/a.jh", "/w/b.jh"}, ds()); len(got) != 3 {
			t.Errorf("%s: %d diagnostics shown, want 3 (repeats removed)", c.format, len(got))
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

// Locate: the quoted name on the line at or after the column, else the
// token at the column (blanks skipped, a string whole), else an empty span
// at the line's end; a span a stage set whole is kept.
func TestLocate(t *testing.T) {
	lines := []string{
		`  run checks.missing "arg"`,
		`  unknown_channel <- echo "lost"`,
		`    x = prompt "say \"hi\"" returns '{}'`,
		`workflow w {`,
		`  checks.ok`,
	}
	for _, c := range []struct {
		line, col int
		msg       string
		set       Span
		want      Span
	}{
		{1, 3, `imported workflow or function "checks.missing" does not exist`, Span{}, Span{1, 7, 21}},
		{2, 1, `Channel "unknown_channel" is not defined`, Span{}, Span{2, 3, 18}},
		{2, 1, `no name quoted here`, Span{}, Span{2, 3, 18}},
		{2, 1, `statement: unknown_channel <- echo "lost"`, Span{}, Span{2, 3, 18}}, // quoted source, not a name
		{3, 9, `prompt cannot contain "$(" here`, Span{}, Span{3, 9, 15}},
		{3, 9, `text`, Span{3, 16, 0}, Span{3, 16, 28}},
		{4, 99, `past the end`, Span{}, Span{4, 13, 13}},
		{4, 1, `unknown alias "checks" of "checks.ok"`, Span{5, 3, 0}, Span{5, 3, 9}}, // the alias of alias.name
		{4, 1, `workflow "ok" here`, Span{5, 3, 0}, Span{5, 3, 12}},                   // not on the line: the token
		{1, 3, `kept`, Span{1, 1, 2}, Span{1, 1, 2}},
	} {
		d := New("f.jh", c.line, c.col, Validate, c.msg)
		d.Span = c.set
		Locate([]*Diagnostic{d}, lines)
		if d.Span != c.want {
			t.Errorf("%d:%d %q: span %+v, want %+v", c.line, c.col, c.msg, d.Span, c.want)
		}
	}
}
