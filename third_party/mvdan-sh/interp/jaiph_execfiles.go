// jaiph-go: the files a shell's exec redirections opened are closed when
// no descriptor of the shell refers to them any more, and when the shell
// ends, as a process's descriptors are. A process reading the other end
// (`exec 2> >(tee log)`) then sees its end of file: it waited for ever.
// So are the files of {var} redirections that outlive their command
// (`echo x {fd}>f` keeps fd open, as bash does), and here-documents on a
// descriptor (`exec 3<<< x`): a subshell or a loop that opened and dropped
// them held them until Go's collector ran, and ran out of descriptors
// where bash, whose subshell is a process, did not.

package interp

import (
	"io"
	"slices"
)

// closeDroppedStd closes what the shell's standard descriptors referred to
// before an exec redirection replaced them, when an exec redirection of
// this shell opened it and no descriptor refers to it now.
func (r *Runner) closeDroppedStd(oldIn stdinFile, oldOut, oldErr io.Writer) {
	for _, old := range []any{oldIn, oldOut, oldErr} {
		c, ok := old.(io.Closer)
		if !ok || !slices.Contains(r.execFiles, c) || r.refersTo(c) || r.jobHolds(c) {
			continue // a job running writes to it: the shell's end closes it
		}
		c.Close()
		r.forgetExecFile(c)
	}
}

// keepVarFdFile makes the file a {var} redirection opened, which outlives
// its command, one of the shell's own: closed when dropped or at the
// shell's end.
func (r *Runner) keepVarFdFile(c io.Closer) {
	if c != nil && !slices.Contains(r.execFiles, c) {
		r.execFiles = append(r.execFiles, c)
	}
}

// closeDroppedExecFile closes c, a file a dropped descriptor referred to,
// when the shell's exec (or a lasting {var}) redirection opened it and no
// descriptor of the shell refers to it now. A background job still running
// that started with it uses its own copy in bash: the shell's end closes
// it then.
func (r *Runner) closeDroppedExecFile(c any) {
	cl, ok := c.(io.Closer)
	if !ok || cl == nil || !slices.Contains(r.execFiles, cl) || r.refersTo(cl) || r.jobHolds(cl) {
		return
	}
	cl.Close()
	r.forgetExecFile(cl)
}

// heldFiles are the files the shell's descriptors refer to: what a job
// started now holds.
func (r *Runner) heldFiles() []any {
	held := []any{r.stdin, r.stdout, r.stderr}
	for _, e := range r.fds {
		held = append(held, e.own, e.r, e.w)
	}
	return held
}

// jobHolds reports whether a background job of the shell still running
// started with a descriptor referring to c.
func (r *Runner) jobHolds(c io.Closer) bool {
	for _, bg := range r.bgProcs {
		if bg.job == 0 || !slices.Contains(bg.holds, any(c)) {
			continue
		}
		select {
		case <-bg.done:
		default:
			return true
		}
	}
	return false
}

// forgetExecFile drops c, closed, from the shell's files.
func (r *Runner) forgetExecFile(c io.Closer) {
	r.execFiles = slices.DeleteFunc(r.execFiles, func(f io.Closer) bool { return f == c })
}

// refersTo reports whether a descriptor of the shell refers to c.
func (r *Runner) refersTo(c io.Closer) bool {
	for _, e := range r.fds {
		if e.own == c || any(e.w) == any(c) || any(e.r) == any(c) {
			return true
		}
	}
	return any(r.stdin) == any(c) || any(r.stdout) == any(c) || any(r.stderr) == any(c)
}

// closeExecFiles closes the files the shell's exec redirections opened:
// the shell ends. Its background jobs still running share the files (in
// bash each has its own descriptors): they are closed once the jobs end.
// A process substitution is not waited for: it may be what reads them.
func (r *Runner) closeExecFiles() {
	files := r.execFiles
	r.execFiles = nil
	if len(files) == 0 {
		return
	}
	closeAll := func() {
		for _, c := range files {
			c.Close()
		}
	}
	jobs := r.runningJobs()
	if len(jobs) == 0 {
		closeAll()
		return
	}
	go func() {
		for _, done := range jobs {
			<-done
		}
		closeAll()
	}()
}

// runningJobs are the done channels of the shell's background jobs (not
// process substitutions) still running.
func (r *Runner) runningJobs() []chan struct{} {
	var out []chan struct{}
	for _, bg := range r.bgProcs {
		if bg.job == 0 {
			continue
		}
		select {
		case <-bg.done:
		default:
			out = append(out, bg.done)
		}
	}
	return out
}
