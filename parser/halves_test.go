package parser

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/internal/benchdata"
)

// splitsAgree parses src line after line and then split at every stride-th
// line where a large file may be split (isSplitLine) and at the line Parse
// chooses, and reports the first split whose tree or diagnostics differ.
func splitsAgree(t *testing.T, path string, src []byte, stride int) {
	t.Helper()
	want, wantDiags := parse(path, src, func([]string) int { return 0 })
	lines := splitLines(string(src))
	n := 0
	for k := range lines {
		if !isSplitLine(lines, k) {
			continue
		}
		if n++; (n-1)%stride != 0 && k != splitLine(lines) {
			continue
		}
		got, gotDiags := parse(path, src, func([]string) int { return k })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s split at line %d: the tree differs from parsing line after line", path, k+1)
		}
		if g, w := fmt.Sprint(gotDiags), fmt.Sprint(wantDiags); g != w {
			t.Fatalf("%s split at line %d: diagnostics\n%s\nwant\n%s", path, k+1, g, w)
		}
	}
}

// FuzzParseHalves checks that parsing a file in two halves (parseHalves)
// gives exactly the tree and diagnostics of parsing it line after line,
// wherever it is split: the seeds are the golden cases, the examples and
// the conformance corpus (whole files), and edge cases of the join.
func FuzzParseHalves(f *testing.F) {
	for _, dir := range []string{"../testdata", "../examples"} {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !IsSourceFile(p) {
				return err
			}
			src, err := os.ReadFile(p)
			if err == nil {
				f.Add(IsTestFile(p), src)
			}
			return err
		})
		if err != nil {
			f.Fatal(err)
		}
	}
	for _, src := range []string{
		"rule a {\n  true\n}\nrule a {\n  true\n}\n",                                   // a duplicate across the halves
		"config {\n  agent.backend = \"x\"\n}\nrule a {\n}\nconfig {\n}\n",             // a config in each half
		"rule a {\n}\nconfig {\n  agent.backend = \"x\"\n}\n",                          // a config in the second half only
		"config {\n  nope = 1\n}\nrule a {\n}\nrule b {\n  echo $((\n}\n",              // an entry error, then a parse error
		"rule a {\n}\nrule b {\n}\nconfig {\n  nope = 1\n}\n",                          // an entry error in the second half
		"workflow w {\n  prompt \"open\n}\nrule b {\n  true\n}\nrule c {\n  true\n}\n", // the first half runs past the split
		"rule a {\n  x\n}\nworkflow b {\n  log \"unclosed\n}\nrule c {\n  true\n}\n",   // a parse error in the second half
		"rule a {\n}\n  \nbad line\n}\nrule c {\n}\n",                                  // error recovery up to the split
		"test \"a\" {\n  true\n}\nrule b {\n}\n",                                       // in a test file
	} {
		f.Add(false, []byte(src))
		f.Add(true, []byte(src))
	}
	f.Fuzz(func(t *testing.T, isTest bool, src []byte) {
		path := "/fuzz/main.jh"
		if isTest {
			path = "/fuzz/main.test.jh"
		}
		if strings.Count(string(src), "\n") > 400 {
			return // each split parses the file again
		}
		splitsAgree(t, path, src, 1)
	})
}

// TestParseHalvesBenchmarkModule checks the split on the module that
// `jaiph check` is timed on, at the line Parse chooses and at every 97th of the others.
func TestParseHalvesBenchmarkModule(t *testing.T) {
	src := []byte(benchdata.Module())
	lines := splitLines(string(src))
	if k := splitLine(lines); k == 0 {
		t.Fatalf("no split line in the %d-line benchmark module", len(lines))
	}
	splitsAgree(t, "/bench/big.jh", src, 97)
}
