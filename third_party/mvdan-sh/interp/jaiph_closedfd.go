// jaiph-go: a program run with one of the shell's standard descriptors
// closed (`cmd <&-`, `cmd >&-`) has that descriptor closed, as bash's
// child does: reading or writing it fails with EBADF (`cat: -: Bad file
// descriptor`, `ls: write error`); it used to get /dev/null or a pipe
// whose writes vanished.

package interp

import (
	"io"
	"os"
	"os/exec"
)

// ClosedFile stands for a closed descriptor in an [exec.Cmd]'s Stdin,
// Stdout or Stderr: os/exec passes an *os.File on as it is, and
// os.StartProcess closes the child's descriptor for a nil one.
var ClosedFile *os.File

// ChildStdio makes the standard descriptors the shell has closed closed
// in cmd too.
func ChildStdio(hc HandlerContext, cmd *exec.Cmd) {
	if hc.StdinClosed {
		cmd.Stdin = ClosedFile
	}
	if isClosedWriter(hc.Stdout) {
		cmd.Stdout = ClosedFile
	}
	if isClosedWriter(hc.Stderr) {
		cmd.Stderr = ClosedFile
	}
}

func isClosedWriter(w io.Writer) bool {
	_, closed := w.(closedWriter)
	return closed
}
