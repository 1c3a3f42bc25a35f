package main

// The conformance normaliser: a port of the python embedded in the upstream
// corpus's run.sh (CONF_NORMALISE_PY; run.sh is not in this repository). The
// expected/ files were produced by that python, so every rule here follows
// python's semantics, not Go's: bytes are decoded like
// bytes.decode('utf-8', 'replace'), \d is any Unicode decimal digit, \b and
// \s use Unicode word and space classes, JSON values are printed like
// python's '%s' and json.dumps.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

var (
	confANSI     = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)
	confDuration = regexp.MustCompile(`\((?:\p{Nd}+(?:\.\p{Nd}+)?s|\p{Nd}+m \p{Nd}+s)\)`)
	confRunDir   = regexp.MustCompile(`/\p{Nd}{4}-\p{Nd}{2}-\p{Nd}{2}/\p{Nd}{2}-\p{Nd}{2}-\p{Nd}{2}-`)
	confSeqName  = regexp.MustCompile(`^\p{Nd}{6}-`)
	confInbox    = regexp.MustCompile(`^inbox/\p{Nd}{3}-`)
	confSeqField = regexp.MustCompile(`seq=\p{Nd}+`)
)

// confNormaliser normalises the texts of one observed run: ws is the
// scratch workspace, scratch the folder holding it.
type confNormaliser struct {
	subst [][2]string // path, tag; longest path first
}

func newConfNormaliser(ws, scratch string) *confNormaliser {
	n := &confNormaliser{}
	seen := map[string]bool{}
	for _, pt := range [][2]string{{ws, "<dir>"}, {scratch, "<scratch>"}} {
		real, err := filepath.EvalSymlinks(pt[0])
		if err != nil {
			real = pt[0]
		}
		for _, p := range []string{pt[0], real} {
			if !seen[p] {
				seen[p] = true
				n.subst = append(n.subst, [2]string{p, pt[1]})
			}
		}
	}
	sort.SliceStable(n.subst, func(i, j int) bool { return len(n.subst[i][0]) > len(n.subst[j][0]) })
	return n
}

// text is run.sh's norm(): ANSI codes, paths, run dir dates, durations,
// UUIDs, trailing blanks; in test mode also the time ending a result line.
func (n *confNormaliser) text(s string, testMode bool) string {
	s = confANSI.ReplaceAllString(s, "")
	for _, pt := range n.subst {
		s = strings.ReplaceAll(s, pt[0], pt[1])
	}
	s = confRunDir.ReplaceAllString(s, "/<date>/<time>-")
	s = confDuration.ReplaceAllString(s, "(<time>)")
	s = replaceUUIDs(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, " \t")
		if testMode && (strings.HasPrefix(l, "  \u2713 ") || strings.HasPrefix(l, "  \u2717 ")) {
			l = maskTestTime(l)
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// pyWord is python's \w for str patterns (alphanumeric or underscore).
func pyWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

// pySpace is python's str.isspace (Go's White_Space plus \x1c-\x1f).
func pySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// replaceUUIDs is re.sub(r'\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b', '<uuid>'),
// written out because Go's \b only knows ASCII word characters.
func replaceUUIDs(s string) string {
	isUUID := func(u string) bool {
		for i := 0; i < len(u); i++ {
			c := u[i]
			if i == 8 || i == 13 || i == 18 || i == 23 {
				if c != '-' {
					return false
				}
			} else if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
		return true
	}
	var b strings.Builder
	prev := rune(-1)
	for i := 0; i < len(s); {
		if i+36 <= len(s) && (prev < 0 || !pyWord(prev)) && isUUID(s[i:i+36]) {
			next, _ := utf8.DecodeRuneInString(s[i+36:])
			if i+36 == len(s) || !pyWord(next) {
				b.WriteString("<uuid>")
				i += 36
				prev = 'f' // any word character: the next match needs a boundary again
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+size])
		prev = r
		i += size
	}
	return b.String()
}

// maskTestTime is re.sub(r'(?<=\s)\d+(?:\.\d+)?s$', '<time>') on one line
// (Go's regexp has no look-behind): the digits must follow a space.
func maskTestTime(l string) string {
	if !strings.HasSuffix(l, "s") {
		return l
	}
	digitsBefore := func(end int) int { // start of the run of digits ending at end
		for end > 0 {
			r, size := utf8.DecodeLastRuneInString(l[:end])
			if !unicode.IsDigit(r) {
				break
			}
			end -= size
		}
		return end
	}
	spaceBefore := func(i int) bool {
		r, _ := utf8.DecodeLastRuneInString(l[:i])
		return i > 0 && pySpace(r)
	}
	end := len(l) - 1
	start := digitsBefore(end)
	if start == end {
		return l
	}
	if !spaceBefore(start) {
		if start == 0 || l[start-1] != '.' {
			return l
		}
		s2 := digitsBefore(start - 1)
		if s2 == start-1 || !spaceBefore(s2) {
			return l
		}
		start = s2
	}
	return l[:start] + "<time>"
}

// pyDecode is bytes.decode('utf-8', 'replace'): each maximal ill-formed
// subpart becomes one U+FFFD (Go's conversions would emit one per byte).
func pyDecode(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r != utf8.RuneError || size > 1 {
			sb.Write(b[:size])
			b = b[size:]
			continue
		}
		sb.WriteRune(utf8.RuneError)
		b = b[illFormedLen(b):]
	}
	return sb.String()
}

// illFormedLen is the length of the maximal subpart of the ill-formed
// sequence starting b: a lead byte and the continuation bytes that still fit it.
func illFormedLen(b []byte) int {
	need, lo, hi := 0, byte(0x80), byte(0xbf)
	switch c := b[0]; {
	case c >= 0xc2 && c <= 0xdf:
		need = 1
	case c == 0xe0:
		need, lo = 2, 0xa0
	case c == 0xed:
		need, hi = 2, 0x9f
	case c >= 0xe1 && c <= 0xef:
		need = 2
	case c == 0xf0:
		need, lo = 3, 0x90
	case c == 0xf4:
		need, hi = 3, 0x8f
	case c >= 0xf1 && c <= 0xf3:
		need = 3
	default:
		return 1
	}
	i := 1
	for ; i <= need && i < len(b) && b[i] >= lo && b[i] <= hi; i++ {
		lo, hi = 0x80, 0xbf
	}
	return i
}

func confReadText(path string) (string, error) {
	b, err := os.ReadFile(path)
	return pyDecode(b), err
}

// sortLines sorts the lines of text, keeping whether it ends in a newline.
func sortLines(text string) string {
	body := strings.TrimSuffix(text, "\n")
	if body == "" {
		return text
	}
	lines := strings.Split(body, "\n")
	sort.Strings(lines)
	return strings.Join(lines, "\n") + text[len(body):]
}

// confBlock is one "== name" header and the content; "[noeol]" marks
// content without a final newline.
func confBlock(name, content string) string {
	switch {
	case content == "":
		return "== " + name + " [empty]\n"
	case strings.HasSuffix(content, "\n"):
		return "== " + name + "\n" + content
	}
	return "== " + name + " [noeol]\n" + content + "\n"
}

// pyWalk calls fn for every folder under root like python's os.walk
// (top-down, folders in name order, symlinked folders listed but not
// entered, unreadable folders skipped), with the names of its non-folders.
// skip leaves out a folder entirely.
func pyWalk(root string, skip func(dir, name string) bool, fn func(dir string, files []string)) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	var dirs, files []string
	for _, e := range entries {
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			st, err := os.Stat(filepath.Join(root, e.Name()))
			isDir = err == nil && st.IsDir()
			if isDir {
				continue // listed by os.walk but never entered
			}
		}
		if isDir {
			if skip == nil || !skip(root, e.Name()) {
				dirs = append(dirs, e.Name())
			}
		} else {
			files = append(files, e.Name())
		}
	}
	fn(root, files)
	for _, d := range dirs {
		pyWalk(filepath.Join(root, d), skip, fn)
	}
}

// confFacets turns one observed run into the facets compared with
// expected/: exit, stdout, stderr, files, artifacts, artifact_text, summary.
// gitStatus is the workspace's `git status --porcelain=v1 -z
// --untracked-files=all --no-renames` output.
func confFacets(ws, scratch string, testMode, unordered bool, exit int, stdout, stderr, gitStatus []byte) (map[string]string, error) {
	n := newConfNormaliser(ws, scratch)
	f := map[string]string{"exit": strconv.Itoa(exit) + "\n"}
	for name, raw := range map[string][]byte{"stdout": stdout, "stderr": stderr} {
		t := n.text(pyDecode(raw), testMode)
		if unordered {
			t = sortLines(t)
		}
		f[name] = t
	}

	// run dirs = folders holding run_summary.jsonl (anywhere in the workspace but .git)
	var runDirs []string
	pyWalk(ws, func(dir, name string) bool { return dir == ws && name == ".git" }, func(dir string, files []string) {
		for _, name := range files {
			if name == "run_summary.jsonl" {
				runDirs = append(runDirs, dir)
				break
			}
		}
	})
	sort.Strings(runDirs)
	var relRuns []string
	for _, d := range runDirs {
		rel, _ := filepath.Rel(ws, d)
		relRuns = append(relRuns, rel+"/")
	}

	// files: everything created/changed/deleted outside .jaiph/, .git and run dirs
	pathSet := map[string]bool{}
	for _, e := range strings.Split(pyDecode(gitStatus), "\x00") {
		if len(e) > 3 {
			pathSet[e[3:]] = true
		}
	}
	paths := make([]string, 0, len(pathSet))
	for p := range pathSet {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var blocks strings.Builder
outer:
	for _, p := range paths {
		if strings.HasPrefix(p, ".jaiph/") || p == ".jaiph" {
			continue
		}
		for _, r := range relRuns {
			if strings.HasPrefix(p, r) {
				continue outer
			}
		}
		full := filepath.Join(ws, p)
		st, err := os.Stat(full)
		switch {
		case err == nil && st.Mode().IsRegular():
			c, err := confReadText(full)
			if err != nil {
				return nil, err
			}
			c = n.text(c, false)
			if unordered {
				c = sortLines(c)
			}
			blocks.WriteString(confBlock(p, c))
		case err != nil:
			blocks.WriteString("== " + p + " [deleted]\n")
		default:
			blocks.WriteString("== " + p + " [not a regular file]\n")
		}
	}
	f["files"] = blocks.String()

	// artifacts, artifact_text, summary
	var art, texts, summ strings.Builder
	for _, d := range runDirs {
		rel, _ := filepath.Rel(ws, d)
		art.WriteString("run_dir " + n.text(rel, false) + "\n")
		type shownName struct{ m, n string }
		var shown []shownName
		pyWalk(d, nil, func(dir string, files []string) {
			for _, name := range files {
				r, _ := filepath.Rel(d, filepath.Join(dir, name))
				m := r
				if unordered {
					m = confInbox.ReplaceAllString(confSeqName.ReplaceAllString(m, "NNNNNN-"), "inbox/NNN-")
				}
				shown = append(shown, shownName{m, r})
			}
		})
		sort.Slice(shown, func(i, j int) bool {
			if shown[i].m != shown[j].m {
				return shown[i].m < shown[j].m
			}
			return shown[i].n < shown[j].n
		})
		var tb []string
		for _, s := range shown {
			art.WriteString(s.m + "\n")
			if strings.HasSuffix(s.n, ".out") || strings.HasSuffix(s.n, ".err") ||
				(strings.HasPrefix(s.n, "inbox/") && strings.HasSuffix(s.n, ".txt")) {
				c, err := confReadText(filepath.Join(d, s.n))
				if err != nil {
					return nil, err
				}
				c = n.text(c, false)
				if unordered {
					c = sortLines(c)
				}
				tb = append(tb, confBlock(s.m, c))
			}
		}
		if unordered {
			sort.Strings(tb)
		}
		texts.WriteString(strings.Join(tb, ""))
		jsonl, err := confReadText(filepath.Join(d, "run_summary.jsonl"))
		if err != nil {
			return nil, err
		}
		var lines []string
		for _, l := range strings.Split(jsonl, "\n") {
			if strings.TrimFunc(l, pySpace) == "" {
				continue
			}
			s, err := summaryLine(l)
			if err != nil {
				return nil, err
			}
			if s == "" {
				continue
			}
			s = n.text(s, false)
			if unordered {
				s = maskSeqFields(s)
			}
			lines = append(lines, s)
		}
		if unordered {
			sort.Strings(lines)
		}
		for _, l := range lines {
			summ.WriteString(l + "\n")
		}
	}
	f["artifacts"], f["artifact_text"], f["summary"] = art.String(), texts.String(), summ.String()
	return f, nil
}

// maskSeqFields is re.sub(r'\bseq=\d+', 'seq=N').
func maskSeqFields(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range confSeqField.FindAllStringIndex(s, -1) {
		if r, _ := utf8.DecodeLastRuneInString(s[:m[0]]); m[0] > 0 && pyWord(r) {
			continue
		}
		b.WriteString(s[last:m[0]] + "seq=N")
		last = m[1]
	}
	return b.String() + s[last:]
}

// summaryLine is the compact view of one run_summary.jsonl event ("" for
// the left-out WORKFLOW_END). A line that is JSON but not an object made
// run.sh's python crash (no summary facet at all); here it is an error.
func summaryLine(l string) (string, error) {
	v, err := pyJSONLoads(l)
	if err != nil {
		r := []rune(l)
		if len(r) > 80 {
			r = r[:80]
		}
		return "INVALID-JSON " + string(r), nil
	}
	e, ok := v.(*pyDict)
	if !ok {
		return "", fmt.Errorf("run_summary.jsonl line is not an object: %s", l)
	}
	get := func(k string) any { return e.get(k) }
	str := func(k string) string { return pyStr(e.get(k)) }
	t := "?"
	if _, ok := e.vals["type"]; ok {
		t = str("type")
	}
	var s string
	switch t {
	case "WORKFLOW_END":
		return "", nil // D11: ours writes it in more places and with an extra field
	case "STEP_START", "STEP_END":
		s = fmt.Sprintf("%s %s %s depth=%s", t, str("kind"), str("name"), str("depth"))
		if t == "STEP_END" {
			s += " status=" + str("status")
		}
		if pyTruthy(get("dispatched")) {
			sender := ""
			if _, ok := e.vals["sender"]; ok {
				sender = str("sender")
			}
			s += fmt.Sprintf(" dispatched channel=%s sender=%s", str("channel"), sender)
		}
	case "WORKFLOW_START":
		s = t + " " + str("workflow")
	case "LOG", "LOGERR":
		s = fmt.Sprintf("%s depth=%s %s", t, str("depth"), pyDumps(get("message"), false))
	case "INBOX_ENQUEUE":
		s = fmt.Sprintf("%s %s seq=%s sender=%s preview=%s ref=%s", t, str("channel"), str("inbox_seq"),
			str("sender"), pyDumps(get("payload_preview"), false), pyDumps(get("payload_ref"), true))
	case "INBOX_DISPATCH_START", "INBOX_DISPATCH_COMPLETE":
		s = fmt.Sprintf("%s %s seq=%s target=%s sender=%s", t, str("channel"), str("inbox_seq"),
			str("target"), str("sender"))
		if t == "INBOX_DISPATCH_COMPLETE" {
			s += " status=" + str("status")
		}
	default:
		s = t
	}
	return s, nil
}

// pyDict is a JSON object that keeps python's key order (first insertion,
// last value wins).
type pyDict struct {
	keys []string
	vals map[string]any
}

func (d *pyDict) get(k string) any { return d.vals[k] }

// pyJSONLoads decodes one JSON text into nil, bool, json.Number, string,
// []any and *pyDict. (Python also accepts NaN/Infinity, which no event holds.)
func pyJSONLoads(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := pyJSONValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("extra data")
	}
	return v, nil
}

func pyJSONValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('['):
		list := []any{}
		for dec.More() {
			v, err := pyJSONValue(dec)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token()
		return list, err
	case json.Delim('{'):
		d := &pyDict{vals: map[string]any{}}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := pyJSONValue(dec)
			if err != nil {
				return nil, err
			}
			key := k.(string)
			if _, ok := d.vals[key]; !ok {
				d.keys = append(d.keys, key)
			}
			d.vals[key] = v
		}
		_, err := dec.Token()
		return d, err
	}
	return tok, nil
}

func pyTruthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case json.Number:
		f, _ := strconv.ParseFloat(string(v), 64)
		return f != 0
	case []any:
		return len(v) > 0
	case *pyDict:
		return len(v.keys) > 0
	}
	return true
}

// pyNumber is str() of the int or float python's json makes of a number.
func pyNumber(n json.Number, dumps bool) string {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if s == "-0" {
			return "0"
		}
		return s // an int (JSON has no leading zeros)
	}
	f, _ := strconv.ParseFloat(s, 64)
	switch {
	case math.IsInf(f, 1) && dumps:
		return "Infinity"
	case math.IsInf(f, -1) && dumps:
		return "-Infinity"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= 16 {
		return e // repr's exponent form: 1e+16, 1.5e-05
	}
	s = strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// pyStr is python's '%s' % v. Lists and objects print as JSON here (python
// would print its repr); no event field the summary shows holds one.
func pyStr(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "True"
		}
		return "False"
	case string:
		return v
	case json.Number:
		return pyNumber(v, false)
	}
	return pyDumps(v, false)
}

// pyDumps is python's json.dumps(v, ensure_ascii=ascii).
func pyDumps(v any, ascii bool) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return pyNumber(v, true)
	case string:
		var b bytes.Buffer
		b.WriteByte('"')
		for _, r := range v {
			switch {
			case r == '"':
				b.WriteString(`\"`)
			case r == '\\':
				b.WriteString(`\\`)
			case r == '\n':
				b.WriteString(`\n`)
			case r == '\r':
				b.WriteString(`\r`)
			case r == '\t':
				b.WriteString(`\t`)
			case r == '\b':
				b.WriteString(`\b`)
			case r == '\f':
				b.WriteString(`\f`)
			case r < 0x20 || (ascii && r > 0x7e && r < 0x10000):
				fmt.Fprintf(&b, `\u%04x`, r)
			case ascii && r >= 0x10000:
				r -= 0x10000
				fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte('"')
		return b.String()
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = pyDumps(x, ascii)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *pyDict:
		parts := make([]string, len(v.keys))
		for i, k := range v.keys {
			parts[i] = pyDumps(k, ascii) + ": " + pyDumps(v.vals[k], ascii)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	panic(fmt.Sprintf("pyDumps: unexpected %T", v))
}

// The expectations below are what run.sh's python printed for the same
// inputs (checked once with python3; the test itself needs no python).

func TestConformanceNormaliseText(t *testing.T) {
	n := &confNormaliser{subst: [][2]string{{"/s/ws", "<dir>"}, {"/s", "<scratch>"}}}
	uuid := "123e4567-e89b-12d3-a456-426614174000"
	for _, c := range []struct {
		name, in string
		testMode bool
		want     string
	}{
		{"ansi", "\x1b[1;32mok\x1b[0m \x1b[?25l\x1b[2K done", false, "ok  done"},
		{"paths", "at /s/ws/main.jh and /s/home and /s/wsx", false, "at <dir>/main.jh and <scratch>/home and <dir>x"},
		{"run dir", ".jaiph/runs/2026-11-23/02-18-31-main.jh/000001-x.out", false, ".jaiph/runs/<date>/<time>-main.jh/000001-x.out"},
		{"run dir, unicode digit", "/\u0662026-11-23/02-18-31-x", false, "/<date>/<time>-x"},
		{"durations", "(1.5s) (12s) (2m 3s) (1.s) (s) (\u0661\u0662s)", false, "(<time>) (<time>) (<time>) (1.s) (s) (<time>)"},
		{"uuids and word boundaries",
			"id " + uuid + ", \u00e9" + uuid + " " + uuid + "_ -" + uuid + "-a23e4567-e89b-12d3-a456-426614174000 " + strings.ToUpper(uuid), false,
			"id <uuid>, \u00e9" + uuid + " " + uuid + "_ -<uuid>-<uuid> " + strings.ToUpper(uuid)},
		{"trailing blanks", "a  \t\nb\t \n  \n", false, "a\nb\n\n"},
		{"test result times",
			"  \u2713 ok 0.5s\n  \u2717 bad 12s\n  \u2713 nb\u00a01.2s\n  \u2713 y .5s\n  \u2713 z a1.5s\n  \u2713 w 1.2.3s\n   \u2713 indented 3s\n  \u2713 fs\x1c3s", true,
			"  \u2713 ok <time>\n  \u2717 bad <time>\n  \u2713 nb\u00a0<time>\n  \u2713 y .5s\n  \u2713 z a1.5s\n  \u2713 w 1.2.3s\n   \u2713 indented 3s\n  \u2713 fs\x1c<time>"},
		{"test times only in test mode", "  \u2713 ok 0.5s", false, "  \u2713 ok 0.5s"},
	} {
		if got := n.text(c.in, c.testMode); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestConformanceNormaliseHelpers(t *testing.T) {
	for _, c := range [][2]string{{"", ""}, {"\n", "\n"}, {"b\na\n", "a\nb\n"}, {"b\na", "a\nb"},
		{"b\n\na\n", "\na\nb\n"}, {"\u00e9\nz\nA", "A\nz\n\u00e9"}} {
		if got := sortLines(c[0]); got != c[1] {
			t.Errorf("sortLines(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	for _, c := range [][2]string{{"", "== f [empty]\n"}, {"x\n", "== f\nx\n"}, {"x", "== f [noeol]\nx\n"}, {"a\n\n", "== f\na\n\n"}} {
		if got := confBlock("f", c[0]); got != c[1] {
			t.Errorf("confBlock(%q) = %q, want %q", c[0], got, c[1])
		}
	}
	for _, c := range []struct {
		in   []byte
		want string
	}{
		{[]byte("ok"), "ok"}, {[]byte("\xe2\x82 x"), "\ufffd x"}, {[]byte("\xff\xfe"), "\ufffd\ufffd"},
		{[]byte("\xf0\x9f\x98"), "\ufffd"}, {[]byte("\xed\xa0\x80"), "\ufffd\ufffd\ufffd"}, {[]byte("\xc0\xaf"), "\ufffd\ufffd"},
		{[]byte("\xe0\x80\x80"), "\ufffd\ufffd\ufffd"}, {[]byte("\xf4\x90\x80\x80"), "\ufffd\ufffd\ufffd\ufffd"},
		{[]byte("\xef\xbf\xbd"), "\ufffd"}, {[]byte("\xe2\x82\xac\xe2"), "\u20ac\ufffd"},
	} {
		if got := pyDecode(c.in); got != c.want {
			t.Errorf("pyDecode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestConformanceSummaryLines(t *testing.T) {
	for _, c := range [][2]string{
		{`{"type":"WORKFLOW_END"}`, ""},
		{`{"type":"LOG","depth":1.0,"message":"a\u0001b\u00e9\u2028 \"q\" \\ /<>& \t\u007f"}`, "LOG depth=1.0 \"a\\u0001b\u00e9\u2028 \\\"q\\\" \\\\ /<>& \\t\u007f\""},
		{`{"type":"INBOX_ENQUEUE","channel":"c","inbox_seq":7,"sender":null,"payload_preview":"π","payload_ref":"é😀\u007f"}`,
			`INBOX_ENQUEUE c seq=7 sender=None preview="π" ref="\u00e9\ud83d\ude00\u007f"`},
		{`{"type":"STEP_END","kind":"k","name":"n","depth":-0,"status":1e20,"dispatched":"yes","channel":"c"}`,
			"STEP_END k n depth=0 status=1e+20 dispatched channel=c sender="},
		{`{"type":"STEP_START","kind":"k","name":"n","depth":1.5e-7,"dispatched":0,"sender":"s"}`, "STEP_START k n depth=1.5e-07"},
		{`{"type":"STEP_START","kind":"k","name":"n","depth":123456789012345678,"dispatched":[1],"sender":"s"}`,
			"STEP_START k n depth=123456789012345678 dispatched channel=None sender=s"},
		{"this is not json at all and it is long: " + strings.Repeat("é", 60), "INVALID-JSON this is not json at all and it is long: " + strings.Repeat("é", 40)},
		{`{"type":"X"} trailing`, `INVALID-JSON {"type":"X"} trailing`},
		{`{"kind":"no type"}`, "?"},
		{`{"type":"LOG","depth":true,"message":{"b":1,"a":[1,2.50,null,1E400,0.1,100.0,1e16,1e-5]}}`,
			`LOG depth=True {"b": 1, "a": [1, 2.5, null, Infinity, 0.1, 100.0, 1e+16, 1e-05]}`},
		{`{"type":"LOG","depth":1,"message":"x","type":"LOGERR"}`, `LOGERR depth=1 "x"`},
		{`{"type":"INBOX_DISPATCH_COMPLETE","channel":"c","inbox_seq":"003","target":"t","sender":"s","status":0}`,
			"INBOX_DISPATCH_COMPLETE c seq=003 target=t sender=s status=0"},
	} {
		got, err := summaryLine(c[0])
		if err != nil || got != c[1] {
			t.Errorf("summaryLine(%s):\n got %q (%v)\nwant %q", c[0], got, err, c[1])
		}
	}
	if _, err := summaryLine(`[1]`); err == nil {
		t.Error("summaryLine([1]) gave no error; python crashed on it")
	}
	if got, want := maskSeqFields("w seq=12 xseq=3 (seq=4) seq=\u0661"), "w seq=N xseq=3 (seq=N) seq=N"; got != want {
		t.Errorf("maskSeqFields = %q, want %q", got, want)
	}
}

// TestConformanceFacets builds a workspace with a run directory by hand and
// checks every facet, in order-sensitive and unordered mode.
func TestConformanceFacets(t *testing.T) {
	scratch := t.TempDir()
	ws := filepath.Join(scratch, "ws")
	run := filepath.Join(ws, ".jaiph", "runs", "2026-01-02", "03-04-05-main.jh")
	files := map[string]string{
		"changed.txt": "x  \nb\na\n", "new.txt": "b\na", "sub/dir/f": "s\n", "empty.txt": "",
		run + "/.seq": "2\n", run + "/000002-main__b.out": "two  \n", run + "/000001-main__a.err": "",
		run + "/inbox/002-ch.txt": "zz\nm2", run + "/inbox/001-ch.txt": "m1\n", run + "/inbox/.queue": "q\n",
		run + "/run_summary.jsonl": `{"type":"WORKFLOW_START","workflow":"default","ts":"x"}
{"type":"STEP_START","kind":"workflow","name":"default","depth":0}
{"type":"INBOX_ENQUEUE","channel":"ch","inbox_seq":"002","sender":"b","payload_preview":"m2","payload_ref":null}
{"type":"INBOX_ENQUEUE","channel":"ch","inbox_seq":"001","sender":"a","payload_preview":"m1 \"q\"","payload_ref":"inbox/001-ch.txt"}
{"type":"INBOX_DISPATCH_COMPLETE","channel":"ch","inbox_seq":"001","target":"main::t","sender":"a","status":0}
{"type":"STEP_END","kind":"workflow","name":"t","depth":1,"status":0,"dispatched":true,"channel":"ch","sender":"a"}
{"type":"LOG","depth":1,"message":"done in (1.2s) at ` + ws + `/x"}

{"type":"WORKFLOW_END","workflow":"default"}
{"type":"STEP_END","kind":"workflow","name":"default","depth":0,"status":0}
`,
	}
	for name, content := range files {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(ws, name)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	status := " M changed.txt\x00 D gone.txt\x00?? .jaiph/runs/2026-01-02/03-04-05-main.jh/.seq\x00?? empty.txt\x00?? new.txt\x00?? sub/dir/f\x00?? sub\x00"
	want := map[bool]map[string]string{
		false: {
			"exit": "3\n", "stdout": "b\na\n", "stderr": "",
			"files":         "== changed.txt\nx\nb\na\n== empty.txt [empty]\n== gone.txt [deleted]\n== new.txt [noeol]\nb\na\n== sub [not a regular file]\n== sub/dir/f\ns\n",
			"artifacts":     "run_dir .jaiph/runs/<date>/<time>-main.jh\n.seq\n000001-main__a.err\n000002-main__b.out\ninbox/.queue\ninbox/001-ch.txt\ninbox/002-ch.txt\nrun_summary.jsonl\n",
			"artifact_text": "== 000001-main__a.err [empty]\n== 000002-main__b.out\ntwo\n== inbox/001-ch.txt\nm1\n== inbox/002-ch.txt [noeol]\nzz\nm2\n",
			"summary":       "WORKFLOW_START default\nSTEP_START workflow default depth=0\nINBOX_ENQUEUE ch seq=002 sender=b preview=\"m2\" ref=null\nINBOX_ENQUEUE ch seq=001 sender=a preview=\"m1 \\\"q\\\"\" ref=\"inbox/001-ch.txt\"\nINBOX_DISPATCH_COMPLETE ch seq=001 target=main::t sender=a status=0\nSTEP_END workflow t depth=1 status=0 dispatched channel=ch sender=a\nLOG depth=1 \"done in (<time>) at <dir>/x\"\nSTEP_END workflow default depth=0 status=0\n",
		},
		true: {
			"exit": "3\n", "stdout": "a\nb\n", "stderr": "",
			"files":         "== changed.txt\na\nb\nx\n== empty.txt [empty]\n== gone.txt [deleted]\n== new.txt [noeol]\na\nb\n== sub [not a regular file]\n== sub/dir/f\ns\n",
			"artifacts":     "run_dir .jaiph/runs/<date>/<time>-main.jh\n.seq\nNNNNNN-main__a.err\nNNNNNN-main__b.out\ninbox/.queue\ninbox/NNN-ch.txt\ninbox/NNN-ch.txt\nrun_summary.jsonl\n",
			"artifact_text": "== NNNNNN-main__a.err [empty]\n== NNNNNN-main__b.out\ntwo\n== inbox/NNN-ch.txt\nm1\n== inbox/NNN-ch.txt [noeol]\nm2\nzz\n",
			"summary":       "INBOX_DISPATCH_COMPLETE ch seq=N target=main::t sender=a status=0\nINBOX_ENQUEUE ch seq=N sender=a preview=\"m1 \\\"q\\\"\" ref=\"inbox/001-ch.txt\"\nINBOX_ENQUEUE ch seq=N sender=b preview=\"m2\" ref=null\nLOG depth=1 \"done in (<time>) at <dir>/x\"\nSTEP_END workflow default depth=0 status=0\nSTEP_END workflow t depth=1 status=0 dispatched channel=ch sender=a\nSTEP_START workflow default depth=0\nWORKFLOW_START default\n",
		},
	}
	for _, unordered := range []bool{false, true} {
		got, err := confFacets(ws, scratch, false, unordered, 3, []byte("b\na\n"), nil, []byte(status))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range confFacetNames {
			if got[f] != want[unordered][f] {
				t.Errorf("unordered=%v, facet %s:\n%s", unordered, f, unifiedDiff("want", "got", want[unordered][f], got[f], 40))
			}
		}
	}
}

// TestConformanceTimeLimit checks the exit statuses `timeout -k` gives bash.
func TestConformanceTimeLimit(t *testing.T) {
	// No status may depend on how fast the machine starts a shell: the
	// scripts that end by themselves get a limit no loaded machine reaches
	// (with 200 ms, a shell slow to start would end on the TERM, 124); the
	// trap must be set before the TERM comes, so that one gets 2 s; only
	// `exec sleep` ends on the TERM whenever it comes.
	const quick, trapSet, long = 200 * time.Millisecond, 2 * time.Second, time.Minute
	for _, c := range []struct {
		script string
		limit  time.Duration
		want   int
	}{
		{"exit 3", long, 3},
		{"kill -SEGV $$", long, 128 + 11},
		{"exec sleep 30", quick, 124},                    // ends on the TERM
		{"trap '' TERM; sleep 30; exit 0", trapSet, 137}, // needs the KILL (sleep ignores TERM too)
	} {
		dir := t.TempDir()
		got, _, _ := runLimited(t, "/bin/sh", []string{"-c", c.script}, dir, os.Environ(), filepath.Join(dir, "raw"),
			c.limit, quick)
		if got != c.want {
			t.Errorf("%q: exit %d, want %d", c.script, got, c.want)
		}
	}
}

// TestConformanceDiff checks the unified diff against what diff -u prints.
func TestConformanceDiff(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n"
	b := "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\nsixteen"
	want := `--- expected/x
+++ actual/x
@@ -1,6 +1,6 @@
 1
 2
-3
+three
 4
 5
 6
@@ -13,3 +13,4 @@
 13
 14
 15
+sixteen
\ No newline at end of file
`
	if got := unifiedDiff("expected/x", "actual/x", a, b, 40); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := unifiedDiff("a", "b", "", "x\n", 40); got != "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n" {
		t.Errorf("diff from empty: %q", got)
	}
}
