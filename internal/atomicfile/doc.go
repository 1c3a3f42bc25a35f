// Package atomicfile writes files so that readers see either the old
// content or the whole new content, never a partial file.
//
// It must not know what the files hold.
package atomicfile
