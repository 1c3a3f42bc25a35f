// Command waitload measures runs that wait on the broker
// (docs/performance.md, "Runs that wait"): against a running `jaiph serve
// --inbox` with workers, it starts N runs that wait in a receive and T
// that wait with a timeout, waits until every one waits with no worker,
// prints the resident memory of the processes -pids names, then answers S
// of them and times each from the send to the run's end (its next step is
// its last), then starts the T and times their timeouts against their due
// time (-n 0 against a server whose askers already wait starts none and
// answers S of those, so one setup serves several rounds; -tspread paces
// the T runs' starts, so their timeouts fall due steadily instead of in
// the same second). It prints figures; it asserts nothing.
//
// The served file:
//
//	channel answers
//	channel pings
//	export workflow asker {
//	  x = <- answers
//	  return "got $x"
//	}
//	export workflow sleeper {
//	  x = <- pings timeout "30s"
//	}
//
//	go run ./internal/benchdata/waitload -url http://127.0.0.1:5247 -token T -n 10000 -t 200 -s 500 -sc 1 -pids 123,456,789
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type run struct {
	RunID   string     `json:"run_id"`
	Status  string     `json:"status"`
	Worker  string     `json:"worker"`
	EndedAt *time.Time `json:"ended_at"`
	Waiting *struct {
		Channel   string     `json:"channel"`
		TimeoutAt *time.Time `json:"timeout_at"`
	} `json:"waiting"`
}

// waitingAskers lists the runs waiting on channel answers, page by page.
func waitingAskers(do func(method, path, body string) (int, []byte, error)) []string {
	var ids []string
	for offset := 0; ; offset += 1000 {
		code, b, err := do("GET", "/v1/runs?limit=1000&offset="+strconv.Itoa(offset), "")
		var page struct {
			Runs []run `json:"runs"`
		}
		if err != nil || code != http.StatusOK || json.Unmarshal(b, &page) != nil {
			fmt.Fprintf(os.Stderr, "list: %d %s %v\n", code, b, err)
			os.Exit(1)
		}
		for _, r := range page.Runs {
			if r.Waiting != nil && r.Waiting.Channel == "answers" && r.Worker == "" {
				ids = append(ids, r.RunID)
			}
		}
		if len(page.Runs) < 1000 {
			return ids
		}
	}
}

func main() {
	base := flag.String("url", "http://127.0.0.1:5247", "the server")
	token := flag.String("token", os.Getenv("JAIPH_SERVE_TOKEN"), "bearer token")
	n := flag.Int("n", 10000, "runs waiting without a timeout")
	t := flag.Int("t", 200, "runs waiting with a timeout (workflow sleeper)")
	s := flag.Int("s", 500, "of the n, the runs answered and timed")
	c := flag.Int("c", 16, "concurrent clients starting runs")
	sc := flag.Int("sc", 1, "concurrent clients answering runs")
	pids := flag.String("pids", "", "comma-separated pids whose memory is read")
	spread := flag.Duration("tspread", 0, "start the T timed runs evenly over this long (0: all at once, so their timeouts fall due together)")
	flag.Parse()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *c}}
	do := func(method, path, body string) (int, []byte, error) {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, _ := http.NewRequest(method, *base+path, rd)
		req.Header.Set("Authorization", "Bearer "+*token)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return res.StatusCode, b, err
	}
	get := func(id string) run {
		for {
			_, b, err := do("GET", "/v1/runs/"+id, "")
			var r run
			if err == nil && json.Unmarshal(b, &r) == nil {
				return r
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	clients := *c
	parallel := func(count int, f func(i int)) {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := int(next.Add(1) - 1); i < count; i = int(next.Add(1) - 1) {
					f(i)
				}
			}()
		}
		wg.Wait()
	}

	ids := make([]string, *n+*t)
	start := time.Now()
	startRuns := func(from, to int) {
		parallel(to-from, func(j int) {
			i := from + j
			wf := "asker"
			if i >= *n {
				wf = "sleeper"
			}
			code, b, err := do("POST", "/v1/workflows/"+wf+"/runs", "{}")
			var r run
			if err != nil || code != http.StatusAccepted || json.Unmarshal(b, &r) != nil {
				fmt.Fprintf(os.Stderr, "start: %d %s %v\n", code, b, err)
				os.Exit(1)
			}
			ids[i] = r.RunID
		})
	}
	startRuns(0, *n)
	fmt.Printf("started %d runs in %.1f s\n", *n, time.Since(start).Seconds())
	if *n == 0 && *s > 0 {
		// Against a server whose askers already wait: answer those.
		ids = waitingAskers(do)
		*n = len(ids)
		fmt.Printf("%d askers already waiting\n", *n)
		*s = min(*s, *n)
		ids = append(ids, make([]string, *t)...)
	}
	// Until every asker waits with no worker.
	parallel(*n, func(i int) {
		for {
			r := get(ids[i])
			if r.Waiting != nil && r.Worker == "" {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	fmt.Printf("all %d waiting without a worker %.1f s after the first start\n", *n, time.Since(start).Seconds())
	for _, p := range strings.Split(*pids, ",") {
		if p == "" {
			continue
		}
		b, _ := os.ReadFile("/proc/" + p + "/status")
		cmd, _ := os.ReadFile("/proc/" + p + "/cmdline")
		var rss, hwm string
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				rss = strings.TrimSpace(v)
			}
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				hwm = strings.TrimSpace(v)
			}
		}
		fmt.Printf("pid %s (%s): RSS %s, peak %s\n", p, strings.ReplaceAll(string(cmd), "\x00", " "), rss, hwm)
	}

	// Answer S of them, each timed from its send to its end.
	clients = *sc
	lat := make([]time.Duration, *s)
	parallel(*s, func(i int) {
		id := ids[i*(*n / *s)]
		t0 := time.Now()
		if code, b, err := do("POST", "/v1/runs/"+id+"/channels/answers", `{"payload":"`+strconv.Itoa(i)+`"}`); err != nil || code != http.StatusAccepted {
			fmt.Fprintf(os.Stderr, "send: %d %s %v\n", code, b, err)
			os.Exit(1)
		}
		for {
			if r := get(id); r.Status == "succeeded" {
				break
			} else if r.Status != "running" && r.Status != "queued" {
				fmt.Fprintf(os.Stderr, "run %s: %s\n", id, r.Status)
				os.Exit(1)
			}
			time.Sleep(2 * time.Millisecond)
		}
		lat[i] = time.Since(t0)
	})
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(d []time.Duration, p float64) time.Duration { return d[min(len(d)-1, int(float64(len(d))*p))] }
	if *s > 0 {
		fmt.Printf("send → end of %d runs (%d at a time): p50 %v, p99 %v, max %v\n", *s, *sc, pct(lat, .5), pct(lat, .99), lat[len(lat)-1])
	}

	// The timeouts, with n runs waiting: when each sleeper ended against
	// its due time.
	clients = *c
	if *spread > 0 && *t > 0 {
		// One at a time, paced: their timeouts fall due as steadily.
		gap := *spread / time.Duration(*t)
		for i := *n; i < *n+*t; i++ {
			startRuns(i, i+1)
			time.Sleep(gap)
		}
	} else {
		startRuns(*n, *n+*t)
	}
	clients = max(*t, 1) // each watched from its start
	var late []time.Duration
	var mu sync.Mutex
	parallel(*t, func(i int) {
		id := ids[*n+i]
		var due time.Time
		for {
			r := get(id)
			if r.Waiting != nil && r.Waiting.TimeoutAt != nil {
				due = *r.Waiting.TimeoutAt
			}
			if r.Status != "running" && r.Status != "queued" {
				if due.IsZero() || r.EndedAt == nil {
					fmt.Fprintf(os.Stderr, "run %s ended (%s) before it was seen waiting\n", id, r.Status)
					os.Exit(1)
				}
				mu.Lock()
				late = append(late, r.EndedAt.Sub(due))
				mu.Unlock()
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
	if len(late) > 0 {
		fmt.Printf("timeouts: %d ended after their due time by p50 %v, p99 %v, max %v\n", len(late), pct(late, .5), pct(late, .99), late[len(late)-1])
	}
}
