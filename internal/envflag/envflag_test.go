package envflag

import "testing"

func TestTrue(t *testing.T) {
	for v, want := range map[string]bool{
		"1": true, "true": true, "TRUE": true, "True": true, "yes": true, "YES": true,
		"on": true, "On": true, " true ": true, "true\n": true,
		"": false, "0": false, "false": false, "no": false, "off": false,
		"2": false, "y": false, "ture": false, "truee": false, "enabled": false,
	} {
		if got := True(v); got != want {
			t.Errorf("True(%q) = %v, want %v", v, got, want)
		}
	}
}
