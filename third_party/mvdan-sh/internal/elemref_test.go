// Copyright (c) 2026, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package internal

import "testing"

func TestValidElemRef(t *testing.T) {
	for name, want := range map[string]bool{
		"a[1]":     true,
		"a_1[x y]": true,
		"a[[1]]":   true,
		`a["]"]`:   true,
		`a[']']`:   true,
		`a[\]]`:    true,
		"a[@]":     true,
		"a":        false,
		"a[]":      false,
		"a[]]":     false,
		"a[x]y]":   false,
		"a[x]y":    false,
		"a[x":      false,
		"1a[x]":    false,
		"[x]":      false,
		`a["]`:     false,
		"a[x]]":    false,
		"a b[x]":   false,
		"a[x][y]":  false,
		"a[$(x)]":  true,
	} {
		if got := ValidElemRef(name); got != want {
			t.Errorf("ValidElemRef(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestValidNameOrElem(t *testing.T) {
	for s, want := range map[string]bool{"a": true, "_a1": true, "a[1]": true, "1a": false, "a b": false, "": false, "a[x]y]": false, "@": false} {
		if got := ValidNameOrElem(s); got != want {
			t.Errorf("ValidNameOrElem(%q) = %v, want %v", s, got, want)
		}
	}
}
