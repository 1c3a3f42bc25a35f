// Package retention is the syntax of a retention window (168h, 90m, 7d)
// and its default: the broker's `--retention` and `jaiph broker prune
// --older-than` read it in every build (their help too), and the broker
// prints it back in what it prunes (jaiph-full only). It imports nothing of
// jaiph, so the default build links it without the broker.
package retention

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Default is how long the broker keeps the state of a run that did not
// complete (a failed or killed one, for jaiph resume) after its last
// activity: 7 days.
const Default = 7 * 24 * time.Hour

// Parse reads a retention window: a Go duration (168h, 90m, 1ns) or a
// number of days (7d); never negative.
func Parse(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseUint(days, 10, 32)
		if err != nil || n > 100000 {
			return 0, fmt.Errorf("want a duration such as 168h, 90m or 7d")
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("want a duration such as 168h, 90m or 7d")
	}
	if d < 0 {
		return 0, fmt.Errorf("a duration cannot be negative")
	}
	return d, nil
}

// Format shows a window as Parse reads it: 168h, 90m, 1ns.
func Format(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Flag is a command-line flag (a pflag.Value) holding a window in *d.
type Flag struct{ D *time.Duration }

func (v Flag) Set(s string) error {
	d, err := Parse(s)
	if err == nil {
		*v.D = d
	}
	return err
}

func (v Flag) String() string {
	if v.D == nil {
		return ""
	}
	return Format(*v.D)
}

func (v Flag) Type() string { return "duration" }
