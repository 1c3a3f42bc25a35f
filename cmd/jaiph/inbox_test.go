package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// summaryEvents parses run_summary.jsonl, failing on any line that is not a
// whole JSON object.
func summaryEvents(t *testing.T, runDir string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(runDir, "run_summary.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var events []map[string]any
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("summary line %d is not JSON: %v", i+1, err)
		}
		events = append(events, e)
	}
	return events
}

func countTypes(events []map[string]any) map[string]int {
	n := map[string]int{}
	for _, e := range events {
		n[e["type"].(string)]++
	}
	return n
}

// TestInboxStress sends 1,000 messages from 10 concurrent senders to a
// channel with 3 targets in parallel mode: every message must reach every
// target exactly once, message numbers must be 001…1000 without gaps, and
// the summary must stay valid JSONL.
//
// JAIPH_STRESS_PER_SENDER scales it up (`make stress`: 1,000 per sender).
func TestInboxStress(t *testing.T) {
	const senders, targets = 10, 3
	perSender := 100
	if n, err := strconv.Atoi(os.Getenv("JAIPH_STRESS_PER_SENDER")); err == nil && n > 0 {
		perSender = n
	}
	var src strings.Builder
	src.WriteString("config {\n  run.inbox_parallel = true\n}\n\nchannel work\n\n")
	for s := 0; s < senders; s++ {
		fmt.Fprintf(&src, "workflow sender%d {\n  for i in $(seq 1 %d); do\n    work <- echo \"s%d-m$i\"\n  done\n}\n\n", s, perSender, s)
	}
	for k := 0; k < targets; k++ {
		// mkdir fails on a second delivery of the same message.
		fmt.Fprintf(&src, "workflow target%d {\n  mkdir \"got/t%d-$1\"\n  printf '%%s' \"$3\" > \"got/t%d-$1/sender\"\n}\n\n", k, k, k)
	}
	src.WriteString("workflow default {\n  work -> target0, target1, target2\n  mkdir got\n")
	for s := 0; s < senders; s++ {
		fmt.Fprintf(&src, "  run sender%d &\n", s)
	}
	src.WriteString("  wait\n}\n")
	dir := workspace(t, map[string]string{"stress.jh": src.String()})

	res := runProcess(t, dir, []string{"JAIPH_INBOX_MAX_DISPATCH_DEPTH=1000000"}, "run", "stress.jh")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	got, _ := os.ReadDir(filepath.Join(dir, "got"))
	if len(got) != senders*perSender*targets {
		t.Errorf("%d deliveries, want %d", len(got), senders*perSender*targets)
	}
	for s := 0; s < senders; s++ {
		for i := 1; i <= perSender; i++ {
			for k := 0; k < targets; k++ {
				sender, err := os.ReadFile(filepath.Join(dir, "got", fmt.Sprintf("t%d-s%d-m%d", k, s, i), "sender"))
				if want := fmt.Sprintf("sender%d", s); err != nil || string(sender) != want {
					t.Errorf("target%d, message s%d-m%d: sender %q (%v), want %q", k, s, i, sender, err, want)
				}
			}
		}
	}

	inbox := filepath.Join(res.runDir, "inbox")
	files, _ := filepath.Glob(filepath.Join(inbox, "*-work.txt"))
	if len(files) != senders*perSender {
		t.Errorf("%d message files, want %d", len(files), senders*perSender)
	}
	for i := 1; i <= senders*perSender; i++ {
		if _, err := os.Stat(filepath.Join(inbox, fmt.Sprintf("%03d-work.txt", i))); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	queue, _ := os.ReadFile(filepath.Join(inbox, ".queue"))
	if n := strings.Count(string(queue), "\n"); n != senders*perSender {
		t.Errorf(".queue has %d lines, want %d", n, senders*perSender)
	}
	n := countTypes(summaryEvents(t, res.runDir))
	total := senders * perSender
	if n["INBOX_ENQUEUE"] != total || n["INBOX_DISPATCH_START"] != total*targets || n["INBOX_DISPATCH_COMPLETE"] != total*targets {
		t.Errorf("summary counts: %v", n)
	}
}

// hostilePayloads are messages that would do harm if any part of the
// runtime evaluated them as shell code.
var hostilePayloads = []string{
	`$(touch pwned1)`,
	"`touch pwned2`",
	`"; touch pwned3; echo "`,
	`'; touch pwned4; echo '`,
	`$((6*7))`,
	`${HOME}`,
	`$HOME $1 $2 $@ $*`,
	`\$(touch pwned5)`,
	"line1\nline2\n$(touch pwned6)",
	`a; touch pwned7`,
	`| touch pwned8`,
	`&& touch pwned9 ||`,
	`> pwned10`,
	`<(touch pwned11)`,
	`$'\x41\n'`,
	`!! !-1`,
	`* ? [a-z]`,
	`~ ~root`,
	`{a,b} {1..3}`,
	`%s%n%x%d %q`,
	`\\\\ \n \t \\`,
	`héllo ✓ 日本語 🚀`,
	`-n -e --help`,
	"__JAIPH_PROMPT__\nEOF\n)\"",
	"tab\there\rcarriage",
	`eval touch pwned12`,
	"  leading and trailing spaces  ",
	"\nstarts with a newline",
	`{"json": "with \"escapes\"", "n": [1,2]}`,
	`)}]'"` + "`",
	strings.Repeat("0123456789abcdef", 400), // 6,400 bytes: preview truncated
}

// TestInboxHostilePayloads sends every hostile payload through a channel and
// checks that the target's $1 and the inbox file hold it byte for byte and
// that nothing was executed.
func TestInboxHostilePayloads(t *testing.T) {
	files := map[string]string{}
	var src strings.Builder
	src.WriteString("channel evil\n\nworkflow target {\n  n=$(ls got | wc -l)\n  printf '%s' \"$1\" > \"got/$n\"\n}\n\nworkflow default {\n  evil -> target\n  mkdir -p got\n")
	for i, p := range hostilePayloads {
		name := fmt.Sprintf("payloads/%02d", i)
		files[name] = p
		fmt.Fprintf(&src, "  evil <- cat %s\n", name)
	}
	src.WriteString("}\n")
	files["evil.jh"] = src.String()
	dir := workspace(t, files)

	res := runProcess(t, dir, nil, "run", "evil.jh")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	for i, p := range hostilePayloads {
		got, err := os.ReadFile(filepath.Join(dir, "got", fmt.Sprint(i)))
		if err != nil {
			t.Fatalf("payload %d not delivered: %v", i, err)
		}
		if string(got) != p {
			t.Errorf("payload %d arrived as %q, want %q", i, got, p)
		}
		msg, err := os.ReadFile(filepath.Join(res.runDir, "inbox", fmt.Sprintf("%03d-evil.txt", i+1)))
		if err != nil || string(msg) != p {
			t.Errorf("inbox file %d holds %q (%v), want %q", i+1, msg, err, p)
		}
	}
	if pwned, _ := filepath.Glob(filepath.Join(dir, "pwned*")); len(pwned) > 0 {
		t.Errorf("payloads were executed: %v", pwned)
	}
	var truncated map[string]any
	for _, e := range summaryEvents(t, res.runDir) {
		if e["type"] == "INBOX_ENQUEUE" && e["payload_ref"] != nil {
			truncated = e
		}
	}
	last := fmt.Sprintf("%03d", len(hostilePayloads))
	if truncated == nil || truncated["inbox_seq"] != last || truncated["payload_ref"] != "inbox/"+last+"-evil.txt" {
		t.Fatalf("want the long payload's ENQUEUE to carry payload_ref, got %v", truncated)
	}
	if prev := truncated["payload_preview"].(string); len(prev) != 4096+3 || !strings.HasSuffix(prev, "...") {
		t.Errorf("preview of the long payload has %d bytes", len(prev))
	}
}

// TestParallelEchoLinesStayWhole appends many multi-word lines to one file
// from parallel dispatch targets: like bash, echo writes each line at once,
// so no line is torn or interleaved with another.
func TestParallelEchoLinesStayWhole(t *testing.T) {
	var src strings.Builder
	src.WriteString("config {\n  run.inbox_parallel = true\n}\n\nchannel c\n\n")
	src.WriteString("workflow w {\n  for i in 1 2 3 4 5 6 7 8 9 10; do\n    echo begin \"$1\" a b c d e f g h i j k l m n o p end >> lines.txt\n  done\n}\n\n")
	src.WriteString("workflow default {\n  c -> w\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&src, "  c <- echo m%d\n", i)
	}
	src.WriteString("}\n")
	dir := workspace(t, map[string]string{"echo.jh": src.String()})
	if res := runProcess(t, dir, nil, "run", "echo.jh"); res.code != 0 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "lines.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 400 {
		t.Errorf("%d lines, want 400", len(lines))
	}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 19 || f[0] != "begin" || f[18] != "end" {
			t.Fatalf("torn line %q", l)
		}
	}
}
