package retention

import (
	"testing"
	"time"
)

// A window reads as a Go duration or whole days and shows as it reads.
func TestParseFormat(t *testing.T) {
	for in, want := range map[string]string{"7d": "168h", "168h": "168h", "90m": "1h30m", "1ns": "1ns", "0": "0s", " 2d ": "48h"} {
		d, err := Parse(in)
		if err != nil || Format(d) != want {
			t.Errorf("Parse(%q) = %v, %v; shown %q, want %q", in, d, err, Format(d), want)
		}
	}
	for _, in := range []string{"soon", "-1h", "1.5d", "d"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) took it", in)
		}
	}
	if Format(Default) != "168h" || Format(30*time.Minute) != "30m" {
		t.Errorf("Format: %s, %s", Format(Default), Format(30*time.Minute))
	}
}
