package progress

import (
	"strings"
	"testing"
)

// TestStrayLogLastLine: the FAIL summary's last non-blank stray line is
// found however the text arrives in writes, without keeping the text.
func TestStrayLogLastLine(t *testing.T) {
	long := strings.Repeat("x", strayLineMax+10)
	for _, c := range []struct {
		writes []string
		want   string
	}{
		{nil, ""},
		{[]string{"one\n", "  two  \n", "\n \t\n"}, "two"},
		{[]string{"fir", "st\nsec", "ond"}, "second"},
		{[]string{"a\n", "b\n   "}, "b"},
		{[]string{"a\r\n"}, "a"},
		{[]string{long[:100], long[100:] + "\n"}, long[:strayLineMax]},
	} {
		var out strings.Builder
		s := NewStrayLog(&out)
		n := 0
		for _, w := range c.writes {
			s.Write([]byte(w))
			n += len(w)
		}
		if got := s.LastLine(); got != c.want || s.Len() != int64(n) || out.Len() != n {
			t.Errorf("%q: last line %.20q (%d bytes), len %d, passed on %d; want %.20q, %d", c.writes, got, len(got), s.Len(), out.Len(), c.want, n)
		}
	}
}
