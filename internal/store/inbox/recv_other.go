//go:build !linux

package inbox

import (
	"context"
	"time"
)

// dirWatch without inotify: the documented fallback looks again every
// 100 ms (docs/inbox-files.md "Received channels").
type dirWatch struct{}

func newDirWatch(string) (*dirWatch, error) { return &dirWatch{}, nil }

func (w *dirWatch) wait(ctx context.Context, left time.Duration) error {
	d := 100 * time.Millisecond
	if left >= 0 && left < d {
		d = left
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (w *dirWatch) close() {}
