//go:build unix

package report

import (
	"io"
	"syscall"
)

// openPlain opens p for reading when it is a regular file and no symlink,
// else is nil (the caller then looks the careful way). Bare system calls:
// the index opens thousands of summaries, and an os.File costs a stat
// beforehand (to see a symlink), a poller registration attempt and
// allocations each.
func openPlain(p string) io.ReadCloser {
	fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nil
	}
	return rawFile(fd)
}

type rawFile int

func (f rawFile) Read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f rawFile) Close() error { return syscall.Close(int(f)) }
