//go:build !unix

package report

import "io"

// openPlain: see open_unix.go; elsewhere every summary is looked at the
// careful way.
func openPlain(string) io.ReadCloser { return nil }
