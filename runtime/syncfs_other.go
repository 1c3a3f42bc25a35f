//go:build !linux

package runtime

// syncFiles makes the files durable, one fsync each.
func syncFiles(dir string, paths []string) error { return fsyncEach(paths) }
