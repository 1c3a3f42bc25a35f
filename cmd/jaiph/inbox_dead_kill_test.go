package main

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// deliveryKillFlow sends 100 messages and drains them with retries: every
// fifth message fails its first attempt. The target appends the message to
// delivered.txt only when it succeeds.
const deliveryKillFlow = `config {
  run.inbox_retries = 1
  run.inbox_retry_backoff = "1ms"
}

channel work

workflow target {
  case "$1" in
    *0|*5) [ -e "failed-$1" ] || { echo x > "failed-$1"; exit 3; } ;;
  esac
  echo "$1" >> delivered.txt
}

workflow default {
  work -> target
  i=0
  while [ "$i" -lt 100 ]; do
    i=$((i + 1))
    work <- echo "m$i"
  done
}
`

// TestInboxDeliveriesKill kills the real binary with SIGKILL once the drain
// has delivered a random number of messages, then reads the inbox with
// `jaiph inbox --json`: the states must agree with what the target did.
// A queued message was never delivered; a delivered one was delivered
// exactly once; a message the target delivered is delivered or (killed
// between its effect and its end line) delivering; at most one is
// delivering (the drain is sequential). JAIPH_STRESS_KILL_LOOPS sets the
// number of kills.
func TestInboxDeliveriesKill(t *testing.T) {
	loops := 8
	if n, err := strconv.Atoi(os.Getenv("JAIPH_STRESS_KILL_LOOPS")); err == nil && n > 0 {
		loops = n
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rnd := rand.New(rand.NewSource(seed))
	env := []string{"JAIPH_TEST_AS_JAIPH=1", "NO_COLOR=1"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JAIPH_") {
			env = append(env, kv)
		}
	}
	for i := 0; i < loops; i++ {
		dir := workspace(t, map[string]string{"flow.jh": deliveryKillFlow})
		cmd := exec.Command(os.Args[0], "run", "flow.jh")
		cmd.Dir, cmd.Env = dir, append(env, "HOME="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		want := 1 + rnd.Intn(70) // deliveries before the kill
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			data, _ := os.ReadFile(filepath.Join(dir, "delivered.txt"))
			if bytes.Count(data, []byte("\n")) >= want {
				break
			}
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()

		ls := exec.Command(os.Args[0], "inbox", "--json")
		ls.Dir, ls.Env = dir, cmd.Env
		out, err := ls.Output()
		if err != nil {
			t.Fatalf("kill %d: jaiph inbox: %v", i+1, err)
		}
		var in struct {
			Messages []struct {
				Seq, State, Preview string
				Attempts            int
			}
		}
		if err := json.Unmarshal(out, &in); err != nil {
			t.Fatalf("kill %d: %v\n%s", i+1, err, out)
		}
		data, _ := os.ReadFile(filepath.Join(dir, "delivered.txt"))
		effects := map[string]int{}
		for _, m := range strings.Fields(string(data)) {
			effects[m]++
		}
		count := map[string]int{}
		for _, m := range in.Messages {
			count[m.State]++
			n := effects[m.Preview]
			switch {
			case m.State == "queued" && (n > 0 || m.Attempts > 0):
				t.Errorf("kill %d: queued message %s (%s) was delivered %d times", i+1, m.Seq, m.Preview, n)
			case m.State == "delivered" && n != 1:
				t.Errorf("kill %d: delivered message %s (%s) has %d effects", i+1, m.Seq, m.Preview, n)
			case m.State != "delivered" && m.State != "delivering" && n > 0:
				t.Errorf("kill %d: message %s (%s) is %s but was delivered", i+1, m.Seq, m.Preview, m.State)
			case m.State == "dead":
				t.Errorf("kill %d: message %s is dead", i+1, m.Seq)
			}
		}
		if count["delivering"] > 1 || count["delivered"] < want-1 || count["delivered"] > len(effects) {
			t.Errorf("kill %d after %d deliveries: states %v, %d messages delivered by the target", i+1, want, count, len(effects))
		}
		if t.Failed() {
			t.Fatalf("kill %d of %d (seed %d), workspace %s", i+1, loops, seed, dir)
		}
	}
}
