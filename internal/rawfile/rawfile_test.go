package rawfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteTempReadFile writes files of several sizes and reads them back
// with both this package and os.
func TestWriteTempReadFile(t *testing.T) {
	dir := t.TempDir()
	seen := map[string]bool{}
	for _, data := range []string{"", "message 1", strings.Repeat("x", 511), strings.Repeat("y", 512), strings.Repeat("z\n", 1<<20)} {
		path, err := WriteTemp(dir, data)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(path) != dir || seen[path] {
			t.Fatalf("path %s: not a new file in %s", path, dir)
		}
		seen[path] = true
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", path, st.Mode().Perm())
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != data {
			t.Errorf("os.ReadFile(%s) = %d bytes, %v; want the %d written", path, len(b), err, len(data))
		}
		if b, err := ReadFile(path); err != nil || string(b) != data {
			t.Errorf("ReadFile(%s) = %d bytes, %v; want the %d written", path, len(b), err, len(data))
		}
	}
}

// TestErrors: a missing file or directory gives an *os.PathError that
// errors.Is recognises, and a failed WriteTemp leaves nothing.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadFile(filepath.Join(dir, "missing"))
	var pe *os.PathError
	if !errors.Is(err, os.ErrNotExist) || !errors.As(err, &pe) || pe.Op != "open" {
		t.Errorf("ReadFile of a missing file: %v", err)
	}
	if _, err := WriteTemp(filepath.Join(dir, "no-such-dir"), "x"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("WriteTemp into a missing directory: %v", err)
	}
	if _, err := ReadFile(dir); err == nil {
		t.Errorf("ReadFile of a directory succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %d entries behind", len(entries))
	}
}

// TestWriteNew creates a file with its mode and content, and refuses one
// that exists with an error os.ErrExist matches, leaving it as it was.
func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "001-jobs.txt")
	if err := WriteNew(path, "first", 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := os.FileMode(0o644) &^ umask(); st.Mode().Perm() != want {
		t.Errorf("mode %v, want %v", st.Mode().Perm(), want)
	}
	err = WriteNew(path, "second", 0o644)
	if !errors.Is(err, os.ErrExist) {
		t.Fatalf("second WriteNew: %v, want an error matching os.ErrExist", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "first" {
		t.Errorf("the file holds %q after a refused WriteNew, want %q", b, "first")
	}
	if err := WriteNew(filepath.Join(dir, "no", "such"), "x", 0o644); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("WriteNew in a missing directory: %v, want os.ErrNotExist", err)
	}
}

// umask is the process's umask (read by setting it back).
func umask() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}
