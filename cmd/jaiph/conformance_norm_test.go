package main

// The conformance normaliser: a port of the python embedded in the shared
// corpus's run.sh (../shared/conformance/run.sh, CONF_NORMALISE_PY). The
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
