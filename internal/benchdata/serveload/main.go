// Command serveload measures a running `jaiph serve` as its clients see
// it (docs/performance.md, "jaiph serve"): N runs of a workflow started
// with ?wait=true by C concurrent clients — runs/s and latency
// percentiles — and the time from a run's 202 to the first event of its
// live stream. It prints figures; it asserts nothing.
//
//	go run ./internal/benchdata/serveload -url http://127.0.0.1:5247 -token T -workflow hello -n 3000 -c 32
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:5247", "the server")
	token := flag.String("token", os.Getenv("JAIPH_SERVE_TOKEN"), "bearer token")
	workflow := flag.String("workflow", "hello", "the workflow to run")
	body := flag.String("body", "{}", "the request body")
	n := flag.Int("n", 1000, "runs")
	c := flag.Int("c", 32, "concurrent clients")
	sse := flag.Int("sse", 20, "runs whose first live event is timed (after the load)")
	flag.Parse()
	tr := &http.Transport{MaxIdleConnsPerHost: *c}
	client := &http.Client{Transport: tr}
	post := func(wait bool) (*http.Response, error) {
		u := *base + "/v1/workflows/" + *workflow + "/runs"
		if wait {
			u += "?wait=true"
		}
		req, _ := http.NewRequest("POST", u, strings.NewReader(*body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+*token)
		return client.Do(req)
	}
	var next, failed, refused atomic.Int64
	lat := make([]time.Duration, *n)
	var wg sync.WaitGroup
	start := time.Now()
	for range *c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(*n) {
					return
				}
				t0 := time.Now()
				res, err := post(true)
				if err != nil {
					failed.Add(1)
					continue
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				lat[i] = time.Since(t0)
				switch {
				case res.StatusCode == 429:
					refused.Add(1)
				case res.StatusCode != 200 || !bytes.Contains(b, []byte(`"status":"succeeded"`)):
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(float64(len(lat))*p))] }
	fmt.Printf("%d runs of %s, %d clients: %.0f runs/s, p50 %v, p99 %v, max %v; %d failed, %d refused (429)\n",
		*n, *workflow, *c, float64(*n)/elapsed.Seconds(), pct(.50).Round(100*time.Microsecond),
		pct(.99).Round(100*time.Microsecond), lat[len(lat)-1].Round(100*time.Microsecond), failed.Load(), refused.Load())
	var firsts []time.Duration
	for range *sse {
		res, err := post(false)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		t0 := time.Now()
		var run struct {
			RunID string `json:"run_id"`
		}
		json.NewDecoder(res.Body).Decode(&run)
		res.Body.Close()
		req, _ := http.NewRequest("GET", *base+"/v1/runs/"+run.RunID+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+*token)
		req.Header.Set("Accept", "text/event-stream")
		sres, err := client.Do(req)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		sc := bufio.NewScanner(sres.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") {
				firsts = append(firsts, time.Since(t0))
				break
			}
		}
		sres.Body.Close()
	}
	if len(firsts) > 0 {
		sort.Slice(firsts, func(i, j int) bool { return firsts[i] < firsts[j] })
		fmt.Printf("first live event after the 202: median %v, max %v (%d runs)\n",
			firsts[len(firsts)/2].Round(10*time.Microsecond), firsts[len(firsts)-1].Round(10*time.Microsecond), len(firsts))
	}
}
