// jaiph-go: bash's matcher gives up once its done channel is closed.

package internal

import (
	"strings"
	"testing"
)

// TestJaiphMatcherGivesUp: with done closed, a match that takes more than
// the steps between two looks at done reports no match (the caller looks
// at done and discards it), where the same match without done matches;
// a short match finishes before the first look. No timing: the matcher
// counts its steps.
func TestJaiphMatcherGivesUp(t *testing.T) {
	closed := make(chan struct{})
	close(closed)
	long := strings.Repeat("a", 2000)
	for _, tc := range []struct {
		name string
		run  func(done <-chan struct{}) bool // whether it matched
	}{
		{"gmatch", func(done <-chan struct{}) bool {
			return NewGmatch("*@(|z)a", true, false, false, done).Match(long)
		}},
		{"remove", func(done <-chan struct{}) bool {
			return RemovePattern(long, "*@(|z)a", false, false, true, done) != long
		}},
		{"search", func(done <-chan struct{}) bool {
			_, _, ok := PatternMatch(long+"b", "*@(|z)b", MatchEnd, true, false, -1, done)
			return ok
		}},
	} {
		if !tc.run(nil) {
			t.Errorf("%s: no match without done", tc.name)
		}
		if tc.run(closed) {
			t.Errorf("%s: matched with done closed: it did not give up", tc.name)
		}
	}
	if !NewGmatch("*@(|z)a", true, false, false, closed).Match("aa") {
		t.Errorf("a short match gave up before its first look at done")
	}
}
