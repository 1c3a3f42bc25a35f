package serve

// This file answers: how does a client read a run's events, at once or as
// they happen?

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/tools/serve/auth"
)

// keepAlive is how often an idle event stream sends a comment, so that
// proxies keep the connection.
var keepAlive = 15 * time.Second

// events is GET /v1/runs/{id}/events: the run's summary as NDJSON once its
// chain verified, or with Accept: text/event-stream a live stream of it.
func (s *Server) events(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	run, ok := s.visible(w, r, p)
	if !ok {
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		s.stream(w, r, run.RunID)
		return
	}
	if err := s.backend.Verify(r.Context(), run.RunID); err != nil {
		s.backendError(w, err)
		return
	}
	f, err := s.backend.Follow(r.Context(), run.RunID)
	if err != nil {
		s.backendError(w, err)
		return
	}
	defer f.Close()
	lines, err := f.Next(r.Context())
	if err != nil {
		s.backendError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	for _, l := range lines {
		w.Write(l)
	}
}

// copyLines copies r's complete lines to w, one Write each (a run still
// going may be writing the last one); it returns how many bytes.
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
func (s *Server) stream(w http.ResponseWriter, r *http.Request, id string) {
	ctx := r.Context()
	f, err := s.backend.Follow(ctx, id)
	if err != nil {
		s.backendError(w, err)
		return
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	rc.Flush()
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		changed := f.Changed() // before looking: a change after the look wakes us
		run, err := s.backend.Get(ctx, id)
		if err != nil {
			return
		}
		lines, err := f.Next(ctx)
		if err != nil {
			return
		}
		for _, l := range lines {
			if _, err := io.WriteString(w, "data: "+strings.TrimRight(string(l), "\n")+"\n\n"); err != nil {
				return
			}
		}
		if served.Terminal(run.Status) {
			if len(lines) > 0 {
				continue // the end's last lines may still come: read until none
			}
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
		case <-ctx.Done():
			return
		}
	}
}

// backendError answers for an error of the backend.
func (s *Server) backendError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, served.ErrNotFound):
		writeError(w, http.StatusNotFound, codeNotFound, err.Error())
	case errors.Is(err, served.ErrTampered):
		writeError(w, http.StatusConflict, codeTampered, err.Error())
	case errors.Is(err, served.ErrConflict):
		writeError(w, http.StatusConflict, codeIdempotency, err.Error())
	case errors.Is(err, served.ErrTooMany):
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, codeTooManyRuns, err.Error())
	default:
		writeError(w, http.StatusServiceUnavailable, codeUnavailable, err.Error())
	}
}
