package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// killFlow has four senders that send as fast as they can, each appending
// the message's id to acked.txt after its send returned 0. Every message
// is "<id> <pad>", so a complete file is recognisable.
const killFlow = `channel work

workflow target {
  :
}

workflow sender {
  pad=$(cat pad.txt)
  i=0
  while [ "$i" -lt 5000 ]; do
    i=$((i + 1))
    work <- echo "$1-m$i $pad"
    echo "$1-m$i" >> acked.txt
  done
}

workflow default {
  work -> target
  run sender s1 &
  run sender s2 &
  run sender s3 &
  run sender s4 &
  wait
}
`

// TestInboxKill runs the real binary sending many messages and kills it
// with SIGKILL at random moments. After each kill the inbox must be
// consistent: every journal line names a complete message file, every
// message file has a journal line (except, at most, the one message whose
// commit was cut between its rename and its journal line: numbered right
// after the last journalled one, and never acknowledged), no temporary
// file sits where a reader would take it for a message, and every send
// whose success the flow observed is in the journal.
//
// Every fourth run syncs each commit (JAIPH_INBOX_FSYNC=true).
// JAIPH_STRESS_KILL_LOOPS sets the number of kills (`make stress`: 200).
func TestInboxKill(t *testing.T) {
	loops := 20
	if n, err := strconv.Atoi(os.Getenv("JAIPH_STRESS_KILL_LOOPS")); err == nil && n > 0 {
		loops = n
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rnd := rand.New(rand.NewSource(seed))
	pad := strings.Repeat("0123456789", 30)
	acked, killedWithAcks := 0, 0
	for i := 0; i < loops; i++ {
		dir := workspace(t, map[string]string{"kill.jh": killFlow, "pad.txt": pad})
		cmd := exec.Command(os.Args[0], "run", "kill.jh")
		cmd.Dir = dir
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "JAIPH_") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, "JAIPH_TEST_AS_JAIPH=1", "NO_COLOR=1", "HOME="+dir, "JAIPH_INBOX_MAX_DISPATCH_DEPTH=1000000")
		if i%4 == 3 {
			cmd.Env = append(cmd.Env, "JAIPH_INBOX_FSYNC=true") // the syncing commit path too
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill once the flow acknowledged its first send (a kill before
		// that proves nothing), at a random moment after: waiting for a
		// fixed time from the start would kill before any send on a
		// loaded machine.
		waitAcked(t, dir, cmd)
		time.Sleep(time.Duration(rnd.Intn(300)) * time.Millisecond)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		n := checkKilledInbox(t, dir, pad)
		acked += n
		if n > 0 {
			killedWithAcks++
		}
		if t.Failed() {
			t.Fatalf("kill %d of %d (seed %d), workspace %s", i+1, loops, seed, dir)
		}
	}
	t.Logf("%d kills, %d acknowledged sends checked", loops, acked)
	if killedWithAcks < loops {
		t.Errorf("only %d of %d kills came after an acknowledged send", killedWithAcks, loops)
	}
}

// waitAcked waits until the flow in dir acknowledged a send (acked.txt is
// not empty), failing the test if nothing comes in a minute.
func waitAcked(t *testing.T, dir string, cmd *exec.Cmd) {
	t.Helper()
	for stop := time.Now().Add(time.Minute); time.Now().Before(stop); time.Sleep(5 * time.Millisecond) {
		if fi, err := os.Stat(filepath.Join(dir, "acked.txt")); err == nil && fi.Size() > 0 {
			return
		}
	}
	_ = cmd.Process.Kill()
	t.Fatalf("the flow in %s acknowledged no send", dir)
}

var messageFile = regexp.MustCompile(`^([0-9]{3,})-work\.txt$`)

// checkKilledInbox checks the inbox left by a killed run and returns the
// number of acknowledged sends.
func checkKilledInbox(t reporter, dir, pad string) int {
	t.Helper()
	runs, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*"))
	ackData, _ := os.ReadFile(filepath.Join(dir, "acked.txt"))
	ackedIDs := strings.Fields(string(ackData))
	if len(runs) != 1 {
		if len(ackedIDs) > 0 {
			t.Errorf("%d run directories after %d acknowledged sends", len(runs), len(ackedIDs))
		}
		return 0
	}
	inbox := filepath.Join(runs[0], "inbox")
	entries, err := os.ReadDir(inbox)
	if err != nil {
		if len(ackedIDs) > 0 {
			t.Errorf("no inbox after %d acknowledged sends: %v", len(ackedIDs), err)
		}
		return 0
	}

	// The journal: whole lines `work:NNN:sender`, numbered 1, 2, 3, …
	journal, err := os.ReadFile(filepath.Join(inbox, ".queue"))
	if err != nil {
		t.Errorf("journal: %v", err)
		return 0
	}
	if len(journal) > 0 && journal[len(journal)-1] != '\n' {
		t.Errorf("journal ends in a torn line: %q", journal[max(0, len(journal)-40):])
	}
	journalled := map[int]string{} // number → id of the message
	last := 0
	sc := bufio.NewScanner(strings.NewReader(string(journal)))
	for sc.Scan() {
		f := strings.Split(sc.Text(), ":")
		n := 0
		if len(f) == 3 {
			n, _ = strconv.Atoi(f[1])
		}
		if n != last+1 || f[0] != "work" || !strings.HasPrefix(f[2], "sender") {
			t.Errorf("journal line %q after number %d", sc.Text(), last)
			return 0
		}
		last = n
		data, err := os.ReadFile(filepath.Join(inbox, f[1]+"-work.txt"))
		id, rest, _ := strings.Cut(string(data), " ")
		switch {
		case err != nil:
			t.Errorf("journal line %q: %v", sc.Text(), err)
		case rest != pad || !regexp.MustCompile(`^s[1-4]-m[0-9]+$`).MatchString(id):
			t.Errorf("message %s is incomplete: %d bytes", f[1], len(data))
		}
		journalled[n] = id
	}
	journalledIDs := map[string]bool{}
	for _, id := range journalled {
		journalledIDs[id] = true
	}

	// Message files: each journalled, but for at most the one after the last.
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == ".queue" || name == ".seq" || (name == ".tmp" && e.IsDir()):
		case messageFile.MatchString(name):
			n, _ := strconv.Atoi(messageFile.FindStringSubmatch(name)[1])
			if _, ok := journalled[n]; ok {
				continue
			}
			data, _ := os.ReadFile(filepath.Join(inbox, name))
			id, _, _ := strings.Cut(string(data), " ")
			if n != last+1 || contains(ackedIDs, id) {
				t.Errorf("message file %s (%s) has no journal line (last journalled: %d)", name, id, last)
			}
		default:
			t.Errorf("unexpected file in the inbox: %s", name)
		}
	}

	// Every acknowledged send is in the journal.
	for _, id := range ackedIDs {
		if !journalledIDs[id] {
			t.Errorf("send %s returned 0 but is not in the journal", id)
		}
	}

	// The summary's INBOX_ENQUEUE events name journalled messages.
	if data, err := os.ReadFile(filepath.Join(runs[0], "run_summary.jsonl")); err == nil {
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			var e struct {
				Type string `json:"type"`
				Seq  string `json:"inbox_seq"`
			}
			if line == "" || json.Unmarshal([]byte(line), &e) != nil || e.Type != "INBOX_ENQUEUE" {
				continue
			}
			if n, _ := strconv.Atoi(e.Seq); journalled[n] == "" {
				t.Errorf("INBOX_ENQUEUE %s is not in the journal", e.Seq)
			}
		}
	}
	return len(ackedIDs)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestCheckKilledInboxCatchesOrphans feeds the check an inbox like the ones
// the old group commit left behind: it must report each problem.
func TestCheckKilledInboxCatchesOrphans(t *testing.T) {
	pad := "p"
	dir := t.TempDir()
	inbox := filepath.Join(dir, ".jaiph", "runs", "day", "run", "inbox")
	os.MkdirAll(inbox, 0o755)
	os.WriteFile(filepath.Join(inbox, ".queue"), []byte("work:001:sender1\n"), 0o644)
	os.WriteFile(filepath.Join(inbox, "001-work.txt"), []byte("s1-m1 p"), 0o644)
	os.WriteFile(filepath.Join(inbox, "003-work.txt"), []byte("s1-m3 p"), 0o644)
	os.WriteFile(filepath.Join(inbox, ".tmp-123"), []byte("s1-m4 p"), 0o644)
	os.WriteFile(filepath.Join(dir, "acked.txt"), []byte("s1-m1\ns1-m2\n"), 0o644)
	var r recorder
	checkKilledInbox(&r, dir, pad)
	want := []string{
		"unexpected file in the inbox: .tmp-123",
		"message file 003-work.txt (s1-m3) has no journal line (last journalled: 1)",
		"send s1-m2 returned 0 but is not in the journal",
	}
	if strings.Join(r.errors, "\n") != strings.Join(want, "\n") {
		t.Errorf("check reported\n%s\nwant\n%s", strings.Join(r.errors, "\n"), strings.Join(want, "\n"))
	}
}

type reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// recorder is a reporter that keeps the messages.
type recorder struct{ errors []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
