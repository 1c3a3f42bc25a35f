package serve

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkServeRuns: trivial runs started with ?wait=true by 32 clients
// (docs/performance.md, "jaiph serve").
func BenchmarkServeRuns(b *testing.B) {
	dir := b.TempDir()
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
	var wg sync.WaitGroup
	b.ResetTimer()
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				req, _ := http.NewRequest("POST", s.base+"/v1/workflows/hello/runs?wait=true", strings.NewReader("{}"))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+testToken)
				res, err := client.Do(req)
				if err != nil || res.StatusCode != 200 {
					b.Error(err, res.StatusCode)
					return
				}
				res.Body.Close()
			}
		}()
	}
	wg.Wait()
}
