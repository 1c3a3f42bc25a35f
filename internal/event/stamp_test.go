package event

import (
	"testing"
	"time"
)

// stamp formats as time.Format did, whatever the zone and year.
func TestStamp(t *testing.T) {
	zone := time.FixedZone("x", -7*3600-1800)
	for _, tm := range []time.Time{
		{}, time.Date(2026, 11, 23, 5, 2, 48, 999999999, time.UTC), time.Date(2024, 2, 29, 23, 59, 59, 0, zone),
		time.Date(9, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-5, 3, 1, 0, 0, 0, 0, time.UTC),
		time.Now(),
	} {
		if got, want := stamp(tm), tm.UTC().Format("2006-01-02T15:04:05Z"); got != want {
			t.Errorf("stamp(%v) = %s, want %s", tm, got, want)
		}
	}
}
