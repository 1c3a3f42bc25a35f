package lsp_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/jaiph-go/jaiph/validate"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/*.txtar")

// jaiph is the real binary, built once.
var jaiph string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "jaiph-lsp-test")
	if err != nil {
		panic(err)
	}
	jaiph = filepath.Join(dir, "jaiph")
	if out, err := exec.Command("go", "build", "-o", jaiph, "github.com/jaiph-go/jaiph/cmd/jaiph").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// frame encodes one message with LSP's base protocol header.
func frame(msg []byte) []byte {
	return append([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n", len(msg))), msg...)
}

// readFrames splits the server's output into its messages.
func readFrames(t *testing.T, out []byte) []json.RawMessage {
	var msgs []json.RawMessage
	r := bufio.NewReader(bytes.NewReader(out))
	for {
		hdr, err := textproto.NewReader(r).ReadMIMEHeader()
		if err == io.EOF && len(hdr) == 0 {
			return msgs
		}
		if err != nil {
			t.Fatalf("reading a header: %v (output %q)", err, out)
		}
		n, err := strconv.Atoi(hdr.Get("Content-Length"))
		if err != nil {
			t.Fatalf("bad Content-Length in %v", hdr)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatalf("short body: %v", err)
		}
		msgs = append(msgs, body)
	}
}

// serve runs `jaiph lsp` in dir with the messages as its input and returns
// its output messages, its stderr and its exit code.
func serve(t *testing.T, dir string, msgs [][]byte) ([]json.RawMessage, string, int) {
	t.Helper()
	var in bytes.Buffer
	for _, m := range msgs {
		in.Write(frame(m))
	}
	cmd := exec.Command(jaiph, "lsp")
	cmd.Dir = dir
	cmd.Stdin = &in
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return readFrames(t, out.Bytes()), errb.String(), code
}

var fileRef = regexp.MustCompile(`\$FILE\(([^)]+)\)`)

// TestScripts runs each testdata/*.txtar: the ws/ files are the workspace
// on disk, other files are buffers a script may send ($FILE(name) is the
// file's text as a JSON string, $WS the workspace's URI), the script
// section holds one client message per line, and want is every message
// the server wrote, with the workspace shown as /WS.
func TestScripts(t *testing.T) {
	archives, _ := filepath.Glob("testdata/*.txtar")
	if len(archives) == 0 {
		t.Fatal("no testdata/*.txtar")
	}
	for _, name := range archives {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(name)
			if err != nil {
				t.Fatal(err)
			}
			dir, _ := filepath.EvalSymlinks(t.TempDir())
			files := map[string]string{}
			var script string
			wantAt := -1
			for i, f := range ar.Files {
				files[f.Name] = string(f.Data)
				switch {
				case f.Name == "script":
					script = string(f.Data)
				case f.Name == "want":
					wantAt = i
				case strings.HasPrefix(f.Name, "ws/"):
					p := filepath.Join(dir, strings.TrimPrefix(f.Name, "ws/"))
					os.MkdirAll(filepath.Dir(p), 0o755)
					if err := os.WriteFile(p, f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			var msgs [][]byte
			for _, line := range strings.Split(script, "\n") {
				if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				line = strings.ReplaceAll(line, "$WS", "file://"+dir)
				line = fileRef.ReplaceAllStringFunc(line, func(m string) string {
					text, ok := files[fileRef.FindStringSubmatch(m)[1]]
					if !ok {
						t.Fatalf("script names a file the archive lacks: %s", m)
					}
					q, _ := json.Marshal(text)
					return string(q)
				})
				if !json.Valid([]byte(line)) {
					t.Fatalf("script line is not JSON: %s", line)
				}
				msgs = append(msgs, []byte(line))
			}
			out, stderr, code := serve(t, dir, msgs)
			if code != 0 || stderr != "" {
				t.Fatalf("exit code %d, want 0; stderr (want none):\n%s", code, stderr)
			}
			var got strings.Builder
			for _, m := range out {
				var b bytes.Buffer
				json.Indent(&b, m, "", "  ")
				got.WriteString(strings.ReplaceAll(b.String(), dir, "/WS") + "\n")
			}
			if *update {
				if wantAt < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					wantAt = len(ar.Files) - 1
				}
				ar.Files[wantAt].Data = []byte(got.String())
				if err := os.WriteFile(name, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if wantAt < 0 {
				t.Fatal("no want section (run with -update)")
			}
			if want := string(ar.Files[wantAt].Data); got.String() != want {
				t.Errorf("server output differs from the want section\n%s", diffLines(want, got.String()))
			}
		})
	}
}

// diffLines shows the first line where want and got differ, with context.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			from := max(0, i-5)
			return fmt.Sprintf("line %d:\nwant: %q\ngot:  %q\ngot context:\n%s", i+1, wl, gl, strings.Join(g[from:min(len(g), i+5)], "\n"))
		}
	}
	return ""
}

// LSP: exit after shutdown is exit code 0, exit without shutdown (or the
// client going away) is 1; a request after shutdown is refused.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	init := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":null}}`)
	shutdown := []byte(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	exit := []byte(`{"jsonrpc":"2.0","method":"exit"}`)
	late := []byte(`{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{}}`)
	for _, tc := range []struct {
		name string
		msgs [][]byte
		code int
	}{
		{"shutdown then exit", [][]byte{init, shutdown, late, exit}, 0},
		{"exit without shutdown", [][]byte{init, exit}, 1},
		{"end of input without exit", [][]byte{init}, 1},
	} {
		out, stderr, code := serve(t, dir, tc.msgs)
		if code != tc.code {
			t.Errorf("%s: exit code %d, want %d (stderr %s)", tc.name, code, tc.code, stderr)
		}
		if tc.code == 0 {
			if len(out) != 3 || !bytes.Contains(out[2], []byte(`"code":-32600`)) {
				t.Errorf("%s: want initialize, shutdown and a refused request, got %s", tc.name, out)
			}
		}
	}
}

// The diagnostics published for every module of the golden and conformance
// corpora (all open at once) are
// `jaiph check`'s: same lines, columns (as UTF-16 units), codes and texts;
// besides them, only the import lines of modules with problems are marked
// (relatedInformation names the problem, which check reports in the module).
func TestDiagnosticsMatchCheck(t *testing.T) {
	dir, _ := filepath.Abs("../../../testdata")
	var files []string
	for _, corpus := range []string{"golden", "conformance"} {
		found, err := validate.FindSources(filepath.Join(dir, corpus), true)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, found...)
	}
	if len(files) < 400 {
		t.Fatalf("corpus: %d files", len(files))
	}
	args := []string{"check", "--format", "json"}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		args = append(args, rel)
	}
	cmd := exec.Command(jaiph, args...)
	cmd.Dir = dir
	out, _ := cmd.Output()
	var report struct {
		Diagnostics []struct {
			File          string
			Line, Col     int
			Code, Message string
		}
	}
	if err := json.Unmarshal(out, &report); err != nil || len(report.Diagnostics) < 100 {
		t.Fatalf("jaiph check: %v, %d diagnostics\n%s", err, len(report.Diagnostics), out)
	}
	want := map[string][]string{}
	for _, d := range report.Diagnostics {
		src, _ := os.ReadFile(filepath.Join(dir, d.File))
		lines := strings.Split(strings.TrimPrefix(string(src), "\xef\xbb\xbf"), "\n")
		char := len(utf16.Encode([]rune(lines[d.Line-1][:d.Col-1])))
		uri := "file://" + filepath.Join(dir, d.File)
		want[uri] = append(want[uri], fmt.Sprintf("%d:%d %s %s", d.Line-1, char, d.Code, d.Message))
	}
	msgs := [][]byte{[]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)}
	for i, f := range files {
		src, _ := os.ReadFile(f)
		text, _ := json.Marshal(string(src))
		msgs = append(msgs, []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file://%s","languageId":"jaiph","version":%d,"text":%s}}}`, f, i, text)))
	}
	msgs = append(msgs, []byte(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`), []byte(`{"jsonrpc":"2.0","method":"exit"}`))
	replies, stderr, code := serve(t, dir, msgs)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	got := map[string][]string{}
	imports := 0
	for _, m := range replies {
		var n struct {
			Method string
			Params struct {
				URI         string
				Diagnostics []struct {
					Range              Range
					Code, Message      string
					RelatedInformation []json.RawMessage
				}
			}
		}
		json.Unmarshal(m, &n)
		if n.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var ds []string
		for _, d := range n.Params.Diagnostics {
			if len(d.RelatedInformation) > 0 && strings.HasPrefix(d.Message, "imported module has errors: ") {
				imports++
				continue
			}
			ds = append(ds, fmt.Sprintf("%d:%d %s %s", d.Range.Start.Line, d.Range.Start.Character, d.Code, d.Message))
		}
		got[n.Params.URI] = ds
	}
	if len(got) != len(files) {
		t.Errorf("diagnostics published for %d files, want %d (every file is open)", len(got), len(files))
	}
	if imports < 5 {
		t.Errorf("%d import lines marked for modules with problems, want at least 5 (the corpora import broken modules)", imports)
	}
	for _, f := range files {
		uri := "file://" + f
		if g, w := strings.Join(got[uri], "\n"), strings.Join(want[uri], "\n"); g != w {
			t.Errorf("%s:\nlsp:   %s\ncheck: %s", filepath.Base(f), g, w)
		}
	}
}

type Range struct{ Start, End struct{ Line, Character int } }

// An open buffer's shell diagnostics are placed in the buffer's text, not
// in what is on disk under its name (issue 33): the column is the one
// `jaiph check` reports for the buffer saved as the file, whatever the disk
// holds (other indentation, other text, no file at all).
func TestDiagnosticsFromBufferNotDisk(t *testing.T) {
	const buffer = "workflow default {\n  echo hi; if then fi\n}\n"
	saved := t.TempDir()
	if err := os.WriteFile(filepath.Join(saved, "main.jh"), []byte(buffer), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(jaiph, "check", "main.jh")
	cmd.Dir = saved
	out, _ := cmd.Output()
	// Pinned, so that check and lsp cannot agree on a wrong column.
	if want := "main.jh:2:12: E_PARSE `if` must be followed by a statement list\n"; string(out) != want {
		t.Fatalf("jaiph check of the buffer:\n%s\nwant\n%s", out, want)
	}
	for _, tc := range []struct{ name, disk string }{
		{"indented otherwise on disk", "workflow default {\n      echo hi; if then fi\n}\n"},
		{"other text on disk", "workflow default {\n  echo bye; echo hi; if then fi\n}\n"},
		{"not on disk", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, _ := filepath.EvalSymlinks(t.TempDir())
			path := filepath.Join(dir, "main.jh")
			if tc.disk != "" {
				if err := os.WriteFile(path, []byte(tc.disk), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			text, _ := json.Marshal(buffer)
			replies, stderr, code := serve(t, dir, [][]byte{
				[]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`),
				[]byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file://%s","languageId":"jaiph","version":1,"text":%s}}}`, path, text)),
				[]byte(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`),
				[]byte(`{"jsonrpc":"2.0","method":"exit"}`),
			})
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %s", code, stderr)
			}
			var got []string
			for _, m := range replies {
				var n struct {
					Method string
					Params struct {
						Diagnostics []struct {
							Range Range
							Code  string
						}
					}
				}
				json.Unmarshal(m, &n)
				if n.Method != "textDocument/publishDiagnostics" {
					continue
				}
				for _, d := range n.Params.Diagnostics {
					got = append(got, fmt.Sprintf("%d:%d %s", d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code))
				}
			}
			if g := strings.Join(got, "\n"); g != "2:12 E_PARSE" {
				t.Errorf("lsp: %q, want 2:12 E_PARSE as jaiph check reports", g)
			}
		})
	}
}
