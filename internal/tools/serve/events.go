package serve

// This file answers: how does a client read a run's events, at once or as
// they happen?

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/internal/tools/serve/auth"
)

// keepAlive is how often an idle event stream sends a comment, so that
// proxies keep the connection.
var keepAlive = 15 * time.Second

// events is GET /v1/runs/{id}/events: the run's summary as NDJSON once its
// chain verified, or with Accept: text/event-stream a live stream of it.
func (s *Server) events(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	e := s.visible(w, r, p)
	if e == nil {
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		s.stream(w, r, e)
		return
	}
	dir := e.snapshot().RunDir
	w.Header().Set("Content-Type", "application/x-ndjson")
	if dir == "" {
		w.WriteHeader(http.StatusOK) // no step ran yet
		return
	}
	if v := runs.Verify(dir, chainStore(s.exec.keys)); v.Status == chain.Tampered {
		writeError(w, http.StatusConflict, codeTampered, "the run's records do not verify: "+v.String())
		return
	}
	f, err := os.Open(summaryPath(dir))
	if os.IsNotExist(err) {
		w.WriteHeader(http.StatusOK)
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, codeInternal, "cannot read the run's summary: "+err.Error())
		return
	}
	defer f.Close()
	// Complete lines only: a run still going may be writing the last one.
	copyLines(w, f)
}

// copyLines copies r's complete lines to w; it returns how many bytes.
func copyLines(w io.Writer, r io.Reader) int64 {
	br := bufio.NewReaderSize(r, 64<<10)
	var n int64
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: gather it whole.
			rest, err2 := br.ReadBytes('\n')
			line = append(append([]byte{}, line...), rest...)
			err = err2
		}
		if err != nil {
			return n
		}
		w.Write(line)
		n += int64(len(line))
	}
}

// stream sends the run's summary lines as Server-Sent Events: what exists,
// then each new line, a keep-alive comment every keepAlive, and `event:
// end` (data: the run's object) when the run is terminal.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, e *entry) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	rc.Flush()
	var offset int64
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	var f *os.File
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	for {
		changed := e.watch() // before reading: a change after the read wakes us
		terminal := e.isTerminal()
		run := e.snapshot()
		if f == nil && run.RunDir != "" {
			f, _ = os.Open(summaryPath(run.RunDir))
		}
		if f != nil {
			n, err := sendLines(w, f, offset)
			offset += n
			if err != nil {
				return
			}
		}
		if terminal {
			b, _ := json.Marshal(run)
			if _, err := io.WriteString(w, "event: end\ndata: "+string(b)+"\n\n"); err == nil {
				rc.Flush()
			}
			return
		}
		rc.Flush()
		select {
		case <-changed:
		case <-tick.C:
			if _, err := io.WriteString(w, ": ka\n\n"); err != nil {
				return
			}
			rc.Flush()
		case <-r.Context().Done():
			return
		}
	}
}

// sendLines sends f's complete lines from offset as data events; it
// returns the bytes it consumed.
func sendLines(w io.Writer, f *os.File, offset int64) (int64, error) {
	var n int64
	var buf bytes.Buffer
	copyLines(&buf, io.NewSectionReader(f, offset, 1<<62))
	for _, line := range bytes.SplitAfter(buf.Bytes(), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		n += int64(len(line))
		if _, err := w.Write(append(append([]byte("data: "), bytes.TrimRight(line, "\n")...), '\n', '\n')); err != nil {
			return n, err
		}
	}
	return n, nil
}
