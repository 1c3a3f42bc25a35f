package runtime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadContentMatchesTrimContent checks that the bounded reader of a
// step's artifact gives exactly the out_content/err_content rule applied to
// the whole file (docs/run-directory.md#step-events), including files larger than the
// 4 MiB prefix it reads, and that empty artifacts are removed.
func TestReadContentMatchesTrimContent(t *testing.T) {
	const n = contentMax
	big := strings.Repeat("y\n", n) // 2 MiB runes: truncated
	cases := map[string]string{
		"small":                    "hello\n\n\n",
		"exactly n":                strings.Repeat("a", n) + "\n",
		"n plus one":               strings.Repeat("a", n+1),
		"big lines":                big + big,
		"n then 4 MiB of newlines": strings.Repeat("a", n) + strings.Repeat("\n", 4*n),
		"then a last char":         strings.Repeat("a", n) + strings.Repeat("\n", 4*n) + "z",
		"cut after newlines":       strings.Repeat("a", n-2) + strings.Repeat("\n", 4*n) + "z",
		"3-byte runes":             strings.Repeat("€", 2*n),
		"4-byte runes":             strings.Repeat("😀", n+5) + "\n",
		"4-byte runes exactly":     strings.Repeat("😀", n) + "\n\n",
		"invalid bytes":            strings.Repeat("\xff", 5*n),
		"invalid mixed":            strings.Repeat("ab\xe2\x82", 2*n),
	}
	dir, rt := t.TempDir(), New(Options{})
	for name, data := range cases {
		path := filepath.Join(dir, "a.out")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		got, kept := rt.readContent(path)
		if want := trimContent(data); !kept || got != want {
			t.Errorf("%s: kept %v, content %d bytes %q…, want %d bytes %q…", name, kept,
				len(got), tail(got), len(want), tail(want))
		}
	}
	path := filepath.Join(dir, "empty.err")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, kept := rt.readContent(path); kept || got != "" {
		t.Errorf("empty: kept %v, content %q", kept, got)
	}
}

func tail(s string) string { return s[max(0, len(s)-20):] }
