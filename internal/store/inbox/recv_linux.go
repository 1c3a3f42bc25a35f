package inbox

import (
	"context"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// dirWatch wakes a receive when a file appears in a channel's directory:
// an inotify watch (IN_CREATE for the link of a message, IN_MOVED_TO).
type dirWatch struct {
	fd   int
	wake [2]int // a pipe: ctx's end wakes the poll
}

func newDirWatch(dir string) (*dirWatch, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, os.NewSyscallError("inotify_init1", err)
	}
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_CREATE|unix.IN_MOVED_TO); err != nil {
		unix.Close(fd)
		return nil, os.NewSyscallError("inotify_add_watch", err)
	}
	w := &dirWatch{fd: fd}
	if err := unix.Pipe2(w.wake[:], unix.O_CLOEXEC|unix.O_NONBLOCK); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return w, nil
}

// wait returns when the directory changed, left passed (left < 0: no
// limit) or ctx ended (its error).
func (w *dirWatch) wait(ctx context.Context, left time.Duration) error {
	stop := context.AfterFunc(ctx, func() { unix.Write(w.wake[1], []byte{1}) })
	defer stop()
	ms := -1
	if left >= 0 {
		ms = int((left + time.Millisecond - 1) / time.Millisecond)
	}
	fds := []unix.PollFd{{Fd: int32(w.fd), Events: unix.POLLIN}, {Fd: int32(w.wake[0]), Events: unix.POLLIN}}
	for {
		_, err := unix.Poll(fds, ms)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return os.NewSyscallError("poll", err)
		}
		break
	}
	var buf [4096]byte
	for {
		if n, _ := unix.Read(w.fd, buf[:]); n <= 0 {
			break
		}
	}
	return ctx.Err()
}

func (w *dirWatch) close() {
	unix.Close(w.fd)
	unix.Close(w.wake[0])
	unix.Close(w.wake[1])
}
