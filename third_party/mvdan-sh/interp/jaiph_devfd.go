// jaiph-go: the paths that name a descriptor of the shell (/dev/stdout,
// /dev/fd/N, /proc/self/fd/N), opened by a redirection as bash on Linux
// opens them.

package interp

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// devFdNumber is the descriptor path names through the kernel's
// /proc/self/fd links (/dev/fd and /dev/std* are links to them).
func devFdNumber(path string) (int, bool) {
	switch path {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"} {
		if rest, ok := strings.CutPrefix(path, dir); ok {
			n, err := strconv.Atoi(rest)
			if err != nil || n < 0 || rest[0] == '+' {
				return 0, false
			}
			return n, true
		}
	}
	return 0, false
}

// devFdOpen handles a redirection to such a path, to descriptor n of the
// shell. bash on Linux has /dev/fd, so it opens the path as any file and
// the kernel reopens what descriptor n refers to: a regular file afresh
// (`>/dev/stdout` truncates the file that stdout is, `<` reads it from
// its start), the same pipe or terminal. A descriptor backed by an
// *os.File is reopened the same way, through the Go process's descriptor
// (open is that path); one the interpreter keeps in memory (a command
// substitution's output) stands for a pipe, which reopening shares, so it
// is shared (done). A closed descriptor has no link: "No such file or
// directory".
func (r *Runner) devFdOpen(rd *syntax.Redirect, n, fd int, arg string) (open string, done bool, err error) {
	e := r.getFd(fd)
	if e == nil {
		return "", true, fmt.Errorf("%s: No such file or directory", arg)
	}
	reading := rd.Op == syntax.RdrIn
	if runtime.GOOS == "linux" {
		w, wok := e.w.(*os.File)
		rf, rok := any(e.r).(*os.File)
		var f *os.File
		switch {
		case rok && (reading || !wok):
			f = rf
		case wok:
			f = w
		}
		if f != nil {
			// the descriptor through SyscallConn: Fd would put a pipe
			// in blocking mode, out of the poller's reach (read -t)
			fdNum := -1
			if rc, err := f.SyscallConn(); err == nil {
				rc.Control(func(u uintptr) { fdNum = int(u) })
			}
			if fdNum >= 0 {
				return "/proc/self/fd/" + strconv.Itoa(fdNum), false, nil
			}
		}
	}
	switch rd.Op {
	case syntax.RdrIn:
		if e.r == nil {
			return "", true, fmt.Errorf("%s: Permission denied", arg)
		}
		r.setFd(n, &fdEntry{r: e.r})
	case syntax.RdrOut, syntax.AppOut, syntax.ClbOut:
		if e.w == nil {
			return "", true, fmt.Errorf("%s: Permission denied", arg)
		}
		r.setFd(n, &fdEntry{w: e.w})
	case syntax.RdrAll, syntax.AppAll:
		if e.w == nil {
			return "", true, fmt.Errorf("%s: Permission denied", arg)
		}
		r.stdout, r.stderr = e.w, e.w
	default: // <>: both ways
		r.setFd(n, &fdEntry{r: e.r, w: e.w})
	}
	return "", true, nil
}

// opensFile reports whether a redirection operator opens its word as a
// file.
func opensFile(op syntax.RedirOperator) bool {
	switch op {
	case syntax.RdrIn, syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrInOut, syntax.RdrAll, syntax.AppAll:
		return true
	}
	return false
}
