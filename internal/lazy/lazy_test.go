package lazy

import "testing"

func TestRegexp(t *testing.T) {
	re := Regexp(`^a+$`)
	if re() != re() {
		t.Fatal("compiled twice")
	}
	if !re().MatchString("aa") || re().MatchString("ab") {
		t.Fatal("wrong pattern")
	}
}

func TestRegexpInvalidPanicsOnUse(t *testing.T) {
	re := Regexp(`(`) // no panic here: nothing is compiled yet
	defer func() {
		if recover() == nil {
			t.Fatal("invalid expression did not panic")
		}
	}()
	re()
}
