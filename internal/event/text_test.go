package event

import "testing"

// TestCutRunes: CutRunes agrees with string([]rune(s)[:n]) (invalid bytes
// one character each, shown as U+FFFD) and reports whether it cut.
func TestCutRunes(t *testing.T) {
	for _, s := range []string{"", "abc", "abcd", "é€😀x", "a\xffb\xfe", "\xff\xff\xff\xff", "😀😀😀😀😀"} {
		for n := 0; n <= 5; n++ {
			got, cut := CutRunes(s, n)
			r := []rune(s)
			want, wantCut := s, false
			if len(r) > n {
				want, wantCut = string(r[:n]), true
			}
			if got != want || cut != wantCut {
				t.Errorf("CutRunes(%q, %d) = %q, %v; want %q, %v", s, n, got, cut, want, wantCut)
			}
		}
	}
}
