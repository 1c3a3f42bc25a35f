package rawfile

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// WriteTemp creates a new file (mode 0600) with a random name in dir, as
// os.CreateTemp(dir, "*") does, writes data to it and closes it, and
// returns its path. On error nothing is left behind.
func WriteTemp(dir, data string) (string, error) {
	for try := 0; ; try++ {
		path := filepath.Join(dir, strconv.FormatUint(uint64(rand.Uint32()), 10))
		err := WriteNew(path, data, 0o600)
		if errors.Is(err, os.ErrExist) && try < 10000 {
			continue
		}
		if err != nil {
			return "", err
		}
		return path, nil
	}
}

// WriteNew creates the file at path, which must not exist (O_EXCL), with
// mode perm, and writes data to it. When it exists the error is an
// *os.PathError that errors.Is(err, os.ErrExist) recognises; on any
// other error nothing is left behind.
func WriteNew(path, data string, perm os.FileMode) error {
	fd, err := retry(func() (int, error) {
		return syscall.Open(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, uint32(perm.Perm()))
	})
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	err = writeAll(fd, path, data)
	if cerr := syscall.Close(fd); err == nil && cerr != nil {
		err = &os.PathError{Op: "close", Path: path, Err: cerr}
	}
	if err != nil {
		syscall.Unlink(path)
	}
	return err
}

func writeAll(fd int, path, data string) error {
	b := []byte(data)
	for len(b) > 0 {
		n, err := retry(func() (int, error) { return syscall.Write(fd, b) })
		if err != nil {
			return &os.PathError{Op: "write", Path: path, Err: err}
		}
		b = b[n:]
	}
	return nil
}

// ReadFile reads the whole file at path, as os.ReadFile does; its errors
// are *os.PathError too (errors.Is(err, os.ErrNotExist) works).
func ReadFile(path string) ([]byte, error) {
	fd, err := retry(func() (int, error) { return syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0) })
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf := make([]byte, 0, 512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := retry(func() (int, error) { return syscall.Read(fd, buf[len(buf):cap(buf)]) })
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// retry repeats a system call interrupted by a signal.
func retry(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if err != syscall.EINTR {
			return n, err
		}
	}
}
