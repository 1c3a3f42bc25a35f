// jaiph-go: an expansion whose pattern match gave up fails.

package expand

import (
	"errors"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// TestJaiphInterruptedExpansion: with Config.Done closed, each pattern
// operation fails with ErrInterrupted (its matcher gave up, see the
// internal package's test), where the same expansion has its value while
// Done is open; once the run is cancelled no parameter expansion gives a
// value (the EXIT trap's commands expand with a Done of their own).
func TestJaiphInterruptedExpansion(t *testing.T) {
	closed := make(chan struct{})
	close(closed)
	env := ListEnviron("v="+strings.Repeat("a", 2000), "b="+strings.Repeat("a", 2000)+"b")
	for _, src := range []string{
		`${v//@(a)/b}`,
		`${v##*@(|z)a}`,
		`${v%%@(|z)*a}`,
		`${b/%*@(|z)b/c}`,
		`${v//*b/c}`, // the regular-expression search: no match at any of 2,000 starts
	} {
		word, err := syntax.NewParser().Document(strings.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Literal(&Config{Env: env, ExtGlob: true, Done: make(chan struct{})}, word); err != nil {
			t.Errorf("%s: %v with Done open", src, err)
		}
		if _, err := Literal(&Config{Env: env, ExtGlob: true, Done: closed}, word); !errors.Is(err, ErrInterrupted) {
			t.Errorf("%s with Done closed: error %v, want %v", src, err, ErrInterrupted)
		}
	}
	word, _ := syntax.NewParser().Document(strings.NewReader(`${v:0:3}`))
	if got, err := Literal(&Config{Env: env, Done: make(chan struct{})}, word); got != "aaa" || err != nil {
		t.Errorf("${v:0:3} with Done open: %q, %v", got, err)
	}
	if _, err := Literal(&Config{Env: env, Done: closed}, word); !errors.Is(err, ErrInterrupted) {
		t.Errorf("${v:0:3} with Done closed: error %v, want %v", err, ErrInterrupted)
	}
}

// TestJaiphInterruptedBraceExpansion: a brace expansion of millions of
// words gives up once Done is closed (looked at every 4,096 words).
func TestJaiphInterruptedBraceExpansion(t *testing.T) {
	closed := make(chan struct{})
	close(closed)
	word, err := syntax.NewParser().Document(strings.NewReader("{1..5000}{1..1000}"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Fields(&Config{Done: closed}, word); !errors.Is(err, ErrInterrupted) {
		t.Errorf("with Done closed: error %v, want %v", err, ErrInterrupted)
	}
	small, _ := syntax.NewParser().Document(strings.NewReader("{1..3}"))
	if f, err := Fields(&Config{Done: closed}, small); err != nil || len(f) != 3 {
		t.Errorf("{1..3} with Done closed: %q, %v", f, err)
	}
}
