package serve

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkServeRuns: trivial runs started with ?wait=true by 32 clients
// (docs/performance.md, "jaiph serve").
func BenchmarkServeRuns(b *testing.B) {
	dir := b.TempDir()
	os.Mkdir(filepath.Join(dir, ".jaiph"), 0o755) // the workspace: not whatever holds the temporary directory
	os.WriteFile(filepath.Join(dir, "tools.jh"), []byte("export workflow hello {\n  echo hi\n}\n"), 0o644)
	t := &testing.T{}
	s, err := tryStart(t, Config{Host: "127.0.0.1", Paths: []string{"tools.jh"}, Dir: dir, Home: dir,
		Environ: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "JAIPH_KEY_DIR=" + filepath.Join(b.TempDir(), "k"),
			"JAIPH_SERVE_TOKEN=" + testToken, "JAIPH_SERVE_MAX_CONCURRENT=64"}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.stop()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}}
	var next atomic.Int64
	lat := make([]time.Duration, b.N)
	var wg sync.WaitGroup
	b.ResetTimer()
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
				t0 := time.Now()
				req, _ := http.NewRequest("POST", s.base+"/v1/workflows/hello/runs?wait=true", strings.NewReader("{}"))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+testToken)
				res, err := client.Do(req)
				if err != nil || res.StatusCode != 200 {
					b.Error(err, res.StatusCode)
					return
				}
				res.Body.Close()
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	// The clients' latency percentiles: the goal is on p99 (docs/performance.md).
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
