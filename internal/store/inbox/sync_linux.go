package inbox

import (
	"os"

	"golang.org/x/sys/unix"
)

// sameFS tells whether a and b are on one file system, so that
// syncFiles of a's makes b's files durable too.
func sameFS(a, b string) bool {
	var sa, sb unix.Stat_t
	return unix.Stat(a, &sa) == nil && unix.Stat(b, &sb) == nil && sa.Dev == sb.Dev
}

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
