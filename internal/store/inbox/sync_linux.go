package inbox

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncFiles makes the files durable. On Linux one syncfs(2) on the
// directory's file system flushes a whole batch at the cost of about one
// fsync; if that fails, each file is fsynced.
func syncFiles(dir string, paths []string) error {
	if d, err := os.Open(dir); err == nil {
		err = unix.Syncfs(int(d.Fd()))
		d.Close()
		if err == nil {
			return nil
		}
	}
	return fsyncEach(paths)
}
