package report

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWarmGolden: while warming, the unfiltered lists are answered from the
// index, reading only the page's runs, and give the goldens of the full
// pass.
func TestWarmGolden(t *testing.T) {
	for _, c := range []struct {
		name, url string
		page      int // runs on the page
	}{
		{"runs", "/api/runs", 7},
		{"runs_page2", "/api/runs?limit=3&page=2", 3},
		{"runs_offset", "/api/runs?limit=2&offset=5", 2},
		{"runs_huge", "/api/runs?page=9223372036854775807&limit=999999999999", 0},
		{"runs_junk", "/api/runs?page=-3&limit=x&offset=-9223372036854775808", 7},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := setup(t)
			f.srv.reg.warming.Store(true)
			got := f.answer(t, c.url)
			want, err := os.ReadFile(filepath.Join("testdata", "golden", c.name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("warming, GET %s differs from the golden:\n%s", c.url, got)
			}
			if f.srv.reg.reads != c.page {
				t.Errorf("warming, GET %s read %d summaries in full, want the page's %d", c.url, f.srv.reg.reads, c.page)
			}
		})
	}
}

// TestWarmSameAsFull: over runs whose directory names do not follow their
// start times, with ties, runs without a start, a garbage or unfinished
// first line, and summaries that are symlinks (in and out of the root) or
// no files, every page a warming server answers is the full pass's; the
// filters wait for the full pass; after Run's first pass the list is the
// full pass's.
func TestWarmSameAsFull(t *testing.T) {
	ws := t.TempDir()
	root := filepath.Join(ws, "runs")
	write := func(rel, data string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ev := func(ts string) string {
		return `{"type":"STEP_START","kind":"workflow","name":"default","ts":"` + ts + `","id":"s","parent_id":null,"seq":1,"depth":0,"run_id":"r"}` + "\n"
	}
	for i := range 30 {
		// Names run one way, start times (5 distinct: ties) another.
		ts := fmt.Sprintf("2026-11-2%dT10:00:0%dZ", 3+i%2, i*7%5)
		write(fmt.Sprintf("2026-11-%02d/%02d-00-00-r%d.jh/run_summary.jsonl", 1+i%3, 59-i, i), ev(ts))
	}
	write("2026-11-02/00-00-01-empty.jh/run_summary.jsonl", "")
	write("2026-11-02/00-00-02-garbage.jh/run_summary.jsonl", "not json\n{\"ts\":5}\n\n"+ev("2026-11-24T10:00:03Z"))
	write("2026-11-02/00-00-03-torn.jh/run_summary.jsonl", strings.TrimSuffix(ev("2026-11-25T00:00:00Z"), "\n"))
	write("2026-11-02/00-00-04-nosummary.jh/other.txt", "x")
	write("2026-11-02/stray-file", "x")
	write("2026-11-02/00-00-05-dir.jh/run_summary.jsonl/x", "x")
	outside := filepath.Join(ws, "outside.jsonl")
	if err := os.WriteFile(outside, []byte(ev("2026-11-30T00:00:00Z")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range []struct{ target, link string }{
		{outside, "2026-11-02/00-00-06-out.jh/run_summary.jsonl"},
		{filepath.Join(root, "2026-11-01/59-00-00-r0.jh/run_summary.jsonl"), "2026-11-02/00-00-07-in.jh/run_summary.jsonl"},
		{filepath.Join(root, "2026-11-01/59-00-00-r0.jh"), "2026-11-02/00-00-08-linkdir.jh"},
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, l.link)), 0o755)
		if err := os.Symlink(l.target, filepath.Join(root, l.link)); err != nil {
			t.Fatal(err)
		}
	}

	full := httptest.NewServer(Handler(Options{Root: root}))
	defer full.Close()
	get := func(base, url string) string {
		t.Helper()
		res, err := http.Get(base + url)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.Status + " " + string(b)
	}
	var urls []string
	for off := 0; off <= 36; off += 3 {
		urls = append(urls, fmt.Sprintf("/api/runs?limit=4&offset=%d", off))
	}
	if !strings.Contains(get(full.URL, urls[0]), `"total":34,`) {
		t.Fatalf("the fixture's total changed: %s", get(full.URL, urls[0]))
	}
	for _, u := range urls {
		h := Handler(Options{Root: root, Warm: true})
		warm := httptest.NewServer(h)
		if got, want := get(warm.URL, u), get(full.URL, u); got != want {
			t.Errorf("GET %s warming:\n%s\nfull pass:\n%s", u, got, want)
		}
		if h.reg.reads > 4 {
			t.Errorf("GET %s warming read %d summaries in full, want at most the page's 4", u, h.reg.reads)
		}
		warm.Close()
	}

	h := Handler(Options{Root: root, Warm: true})
	warm := httptest.NewServer(h)
	defer warm.Close()
	for _, u := range []string{"/api/runs?status=interrupted&limit=5", "/api/runs?q=R1&limit=5", "/api/runs?date=2026-11-02"} {
		if got, want := get(warm.URL, u), get(full.URL, u); got != want {
			t.Errorf("GET %s warming:\n%s\nfull pass:\n%s", u, got, want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.Run(ctx, time.Hour); close(done) }()
	for h.reg.warming.Load() {
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	if got, want := get(warm.URL, urls[1]), get(full.URL, urls[1]); got != want {
		t.Errorf("after the warm-up:\n%s\nfull pass:\n%s", got, want)
	}
}

// TestWarmStaleIndex: when a page run changed after the index was made
// (gone, or its summary replaced with another start), the warming list
// falls back to the full pass rather than answer from the stale index.
func TestWarmStaleIndex(t *testing.T) {
	f := setup(t)
	f.srv.reg.warming.Store(true)
	f.srv.reg.index()
	if err := os.RemoveAll(filepath.Join(f.root, failRun)); err != nil {
		t.Fatal(err)
	}
	var list struct {
		Runs  []Run `json:"runs"`
		Total int   `json:"total"`
	}
	f.getJSON(t, "/api/runs", &list)
	if list.Total != 6 || len(list.Runs) != 6 {
		t.Fatalf("a page run gone: total %d, %d runs, want 6", list.Total, len(list.Runs))
	}

	f = setup(t)
	f.srv.reg.warming.Store(true)
	f.srv.reg.index()
	sum := filepath.Join(f.root, passRun, "run_summary.jsonl")
	data, _ := os.ReadFile(sum)
	os.WriteFile(sum, bytes.ReplaceAll(data, []byte("2026-11-23T07:22:43Z"), []byte("2026-11-30T00:00:00Z")), 0o644)
	f.getJSON(t, "/api/runs", &list)
	if len(list.Runs) != 7 || list.Runs[0].Path != passRun {
		t.Fatalf("a page run's start moved to the newest: %+v", list.Runs)
	}

	// A run starting while the index was made: no complete line yet, then
	// its first event. It is the newest, off the page the index gave.
	f = setup(t)
	f.srv.reg.warming.Store(true)
	starting := filepath.Join(f.root, "2026-11-30", "00-00-00-new.jh", "run_summary.jsonl")
	os.MkdirAll(filepath.Dir(starting), 0o755)
	os.WriteFile(starting, []byte(`{"type":"STEP_START","ts":"2026-11-30T00:00:00Z","id":"n`), 0o644)
	f.srv.reg.index()
	appendFile(t, starting, []byte(`"}`+"\n"))
	f.getJSON(t, "/api/runs?limit=1", &list)
	if list.Total != 8 || len(list.Runs) != 1 || list.Runs[0].Path != "2026-11-30/00-00-00-new.jh" {
		t.Fatalf("a run that started while the index was made: total %d, %+v", list.Total, list.Runs)
	}
	if f.srv.reg.reads != 1 {
		t.Errorf("%d summaries read in full, want the page's 1", f.srv.reg.reads)
	}
}
