package interp

import (
	"os"
)

// jaiph-go patch: as bash's sv_histsize, assigning HISTFILESIZE a number
// N >= 0 truncates the file HISTFILE names to its last N lines (readline's
// history_truncate_file), interactive or not. With HISTFILE unset or empty
// bash truncates ~/.history; a body does not: it names no such file.
func (r *Runner) histFileSize(val string) {
	n, ok := legalNumber(val)
	if !ok || n < 0 {
		return
	}
	name := r.envGet("HISTFILE")
	if name == "" {
		return
	}
	path := r.absPath(name)
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() == 0 {
		return
	}
	buf, err := os.ReadFile(path)
	if err != nil || len(buf) == 0 {
		return
	}
	// A line starting with '#' and a digit is a timestamp: it stays with
	// the line after it (HIST_TIMESTAMP_START).
	stamp := func(i int) bool {
		return i+1 < len(buf) && buf[i] == '#' && buf[i+1] >= '0' && buf[i+1] <= '9'
	}
	lines := n
	bp := len(buf) - 1
	bp1 := bp
	for ; lines > 0 && bp > 0; bp-- {
		if buf[bp] == '\n' && !stamp(bp1) {
			lines--
		}
		bp1 = bp
	}
	for ; bp > 0; bp-- {
		if buf[bp] == '\n' && !stamp(bp1) {
			bp++
			break
		}
		bp1 = bp
	}
	if bp <= 0 {
		return // no more lines than N: left alone
	}
	os.WriteFile(path, buf[bp:], info.Mode().Perm())
}
