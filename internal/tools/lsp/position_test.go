package lsp

import (
	"testing"

	"github.com/jaiph-go/jaiph/diag"
)

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
	if r := tx.spanRange(diag.Span{Line: 1, Col: 10, EndCol: 11}); r != (Range{Position{0, 10}, Position{0, 11}}) {
		t.Errorf("range = %v", r)
	}
	if p := tx.offset(Position{0, 10}); p != 9 {
		t.Errorf("offset = %d, want 9", p)
	}
}

// A diagnostic's span (byte columns) in UTF-16 units.
func TestSpanRange(t *testing.T) {
	tx := newText("workflow default {\n\t\trun nope \"é\"\n  😀 ensure x\n}\n")
	for _, tc := range []struct {
		sp   diag.Span
		want Range
	}{
		{diag.Span{Line: 1, Col: 1, EndCol: 9}, Range{Position{0, 0}, Position{0, 8}}},
		{diag.Span{Line: 2, Col: 12, EndCol: 16}, Range{Position{1, 11}, Position{1, 14}}}, // "é": three units
		{diag.Span{Line: 3, Col: 8, EndCol: 14}, Range{Position{2, 5}, Position{2, 11}}},   // after the surrogate pair
		{diag.Span{Line: 4, Col: 5, EndCol: 5}, Range{Position{3, 1}, Position{3, 1}}},     // past the end: empty
		{diag.Span{Line: 2, Col: 3}, Range{Position{1, 2}, Position{1, 2}}},                // no end: empty
	} {
		if got := tx.spanRange(tc.sp); got != tc.want {
			t.Errorf("spanRange(%+v) = %v, want %v", tc.sp, got, tc.want)
		}
	}
}
