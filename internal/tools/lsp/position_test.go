package lsp

import "testing"

func TestPositionMapping(t *testing.T) {
	src := "a\tb\r\né😀x = 1\n\t\trun nope\n"
	tx := newText(src)
	for _, tc := range []struct {
		line, b int
		want    Position
	}{
		{0, 0, Position{0, 0}},
		{0, 2, Position{0, 2}}, // a tab is one unit
		{0, 3, Position{0, 3}}, // the \r is not part of the line
		{0, 9, Position{0, 3}}, // clamped to the line
		{1, 2, Position{1, 1}}, // é: two bytes, one unit
		{1, 6, Position{1, 3}}, // 😀: four bytes, a surrogate pair
		{1, 7, Position{1, 4}}, // x
		{2, 2, Position{2, 2}}, // after two tabs
		{5, 0, Position{5, 0}}, // past the end
	} {
		if got := tx.pos(tc.line, tc.b); got != tc.want {
			t.Errorf("pos(%d, %d) = %v, want %v", tc.line, tc.b, got, tc.want)
		}
		if tc.line < len(tx.lines) && tc.b <= len(tx.lines[tc.line]) {
			if back := tx.offset(tc.want); back != tc.b {
				t.Errorf("offset(%v) = %d, want %d", tc.want, back, tc.b)
			}
		}
	}
	// Inside a surrogate pair rounds down to the character's start.
	if got := tx.offset(Position{1, 2}); got != 2 {
		t.Errorf("offset inside a pair = %d, want 2", got)
	}
}

func TestPositionByteOrderMark(t *testing.T) {
	tx := newText("\xef\xbb\xbfworkflow x {\n}\n")
	if tx.lines[0] != "workflow x {" {
		t.Fatalf("line 1 = %q", tx.lines[0])
	}
	// Column 10 of line 1 (the parser's, after the mark) is unit 10 in the
	// editor, which counts the mark.
	if r := tx.diagRange(1, 10); r != (Range{Position{0, 10}, Position{0, 11}}) {
		t.Errorf("range = %v", r)
	}
	if p := tx.offset(Position{0, 10}); p != 9 {
		t.Errorf("offset = %d, want 9", p)
	}
}

func TestDiagRange(t *testing.T) {
	tx := newText("workflow default {\n\t\trun nope \"é\"\n  😀 ensure x\n}\n  ch -> analyst, lib.bad")
	for _, tc := range []struct {
		line, col int
		want      Range
	}{
		{1, 1, Range{Position{0, 0}, Position{0, 8}}},    // the keyword
		{2, 1, Range{Position{1, 0}, Position{1, 5}}},    // a blank takes the token after it
		{2, 3, Range{Position{1, 2}, Position{1, 5}}},    // run
		{2, 12, Range{Position{1, 11}, Position{1, 14}}}, // "é": three units
		{3, 8, Range{Position{2, 5}, Position{2, 11}}},   // after the surrogate pair
		{4, 5, Range{Position{3, 1}, Position{3, 1}}},    // past the end: empty
		{5, 9, Range{Position{4, 8}, Position{4, 15}}},   // a route target stops at its comma
		{5, 18, Range{Position{4, 17}, Position{4, 24}}}, // an alias.name is one name
	} {
		if got := tx.diagRange(tc.line, tc.col); got != tc.want {
			t.Errorf("diagRange(%d, %d) = %v, want %v", tc.line, tc.col, got, tc.want)
		}
	}
}
