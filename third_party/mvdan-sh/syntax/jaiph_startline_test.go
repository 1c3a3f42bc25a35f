package syntax

import (
	"strings"
	"testing"
)

// StartLine (jaiph patch) numbers the parsed source from a given line, for
// node positions and for errors; columns and offsets are unchanged.
func TestJaiphStartLine(t *testing.T) {
	src := "echo a\n\n  cat <<EOF\nx\nEOF\n  echo b\n"
	f, err := NewParser(StartLine(40)).Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range f.Stmts {
		got = append(got, s.Pos().String())
	}
	if want := "40:1 42:3 45:3"; strings.Join(got, " ") != want {
		t.Errorf("statement positions %v, want %s", got, want)
	}
	if f.Stmts[2].Pos().Offset() != uint(strings.Index(src, "echo b")) {
		t.Errorf("offset %d changed", f.Stmts[2].Pos().Offset())
	}
	_, err = NewParser(StartLine(7)).Parse(strings.NewReader("echo\nif true; then\n"), "")
	if err == nil || !strings.HasPrefix(err.Error(), "8:10: ") {
		t.Errorf("error %v, want at 8:10", err)
	}
	// The option holds for every Parse of the parser; the default is 1.
	p := NewParser(StartLine(3))
	for range 2 {
		f, _ := p.Parse(strings.NewReader("\necho"), "")
		if l := f.Stmts[0].Pos().Line(); l != 4 {
			t.Errorf("line %d, want 4", l)
		}
	}
	f, _ = NewParser().Parse(strings.NewReader("\necho"), "")
	if l := f.Stmts[0].Pos().Line(); l != 2 {
		t.Errorf("default: line %d, want 2", l)
	}
}
