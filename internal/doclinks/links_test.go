package doclinks

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// slug is the anchor GitHub gives a heading: lower case, letters, digits,
// `_` and `-` kept, spaces turned into `-`, everything else dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the heading anchors of a Markdown file (headings inside
// ``` fences are not headings; a repeated heading gets -1, -2, …).
func anchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		s := slug(text)
		if n := seen[s]; n > 0 {
			out[s+"-"+itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// What no file may contain, spelled so that this file does not.
const (
	sectionSign = "\u00a7"
	outside     = ".." + "/shared"
)

var (
	// docs/NAME.md#ANCHOR anywhere (comments, Markdown, scripts).
	repoRef = regexp.MustCompile(`docs/([a-z-]+\.md)(?:#([A-Za-z0-9_-]+))?`)
	// A Markdown link between files of docs/: ](NAME.md#ANCHOR) or ](#ANCHOR).
	localRef = regexp.MustCompile(`\]\(([a-z-]+\.md)?(?:#([A-Za-z0-9_-]+))?\)`)
)

// TestReferencesResolve checks every `docs/NAME.md#anchor` written in the
// repository (Go comments, Markdown, test scripts, the Makefile) and every
// link between the files of docs/: the file must exist and the anchor must
// be one of its headings. It also checks that no Go file cites a section
// sign (the upstream specification's numbering) and that no Go or Markdown
// file points at the shared folder outside the repository.
func TestReferencesResolve(t *testing.T) {
	cache := map[string]map[string]bool{}
	check := func(where, file, anchor string) {
		path := filepath.Join("../../docs", file)
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s: docs/%s does not exist", where, file)
			return
		}
		if anchor == "" {
			return
		}
		if cache[file] == nil {
			cache[file] = anchors(t, path)
		}
		if !cache[file][anchor] {
			t.Errorf("%s: docs/%s has no heading for #%s", where, file, anchor)
		}
	}
	root := "../.."
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			switch name {
			case ".git", "third_party", "node_modules", ".jaiph", "bin", "dist", ".bench":
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(name)
		if ext != ".go" && ext != ".md" && ext != ".txtar" && name != "Makefile" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(data)
		rel, _ := filepath.Rel(root, path)
		for i, line := range strings.Split(text, "\n") {
			where := rel + ":" + itoa(i+1)
			// In a test script only the comments are prose; the rest
			// may name files of a test workspace.
			if ext == ".txtar" && !strings.HasPrefix(line, "#") {
				continue
			}
			for _, m := range repoRef.FindAllStringSubmatch(line, -1) {
				check(where, m[1], m[2])
			}
			if ext == ".go" && strings.Contains(line, sectionSign) {
				t.Errorf("%s: a section reference to the upstream specification: %s", where, strings.TrimSpace(line))
			}
			if (ext == ".go" || ext == ".md") && strings.Contains(line, outside) {
				t.Errorf("%s: a path outside the repository: %s", where, strings.TrimSpace(line))
			}
			if filepath.Dir(rel) == "docs" && ext == ".md" {
				for _, m := range localRef.FindAllStringSubmatch(line, -1) {
					file := m[1]
					if file == "" {
						file = name
					}
					check(where, file, m[2])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"The keyword-first guard":      "the-keyword-first-guard",
		"run_summary.jsonl":            "run_summaryjsonl",
		"Outside the JAIPH_ namespace": "outside-the-jaiph_-namespace",
		"jaiph run":                    "jaiph-run",
		"log and logerr":               "log-and-logerr",
		"1. Build jaiph":               "1-build-jaiph",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}
