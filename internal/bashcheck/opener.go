package bashcheck

import (
	"strings"

	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/lowered"
)

// unclosedOpener names the cause of a syntax error that a `$(`, a
// backtick, `${` or a quote left open on an earlier line makes the shell
// report further down (an unclosed `$(` on line 24 reads as "`fi` can only
// be used to end an `if`" on line 25; a log line's unclosed substitution
// as an unclosed quote on a later log line): when the body parsed up to
// the error line ends inside such an opener, and the body still does not
// parse without the error line (so the error line is not itself the
// mistake), the opener's own diagnostic is the one reported. nil when not
// so. src are the body's lines, numbered from first; errLine is the
// error's line.
func unclosedOpener(file string, b *lowered.Body, src []string, first, errLine int) []*diag.Diagnostic {
	cut := errLine - first
	if cut < 1 || cut >= len(src) {
		return nil
	}
	// A log line is one line of the source: an opener it leaves open is
	// the cause, wherever the shell noticed.
	for k := 1; k < cut; k++ {
		t := strings.TrimSpace(src[k])
		if !strings.HasPrefix(t, "jaiph::log ") && !strings.HasPrefix(t, "jaiph::logerr ") {
			continue
		}
		lines := make([]string, k+1)
		lines[k] = src[k]
		if _, e := parse(strings.Join(lines, "\n"), first); e != nil && e.pos.IsValid() && opensSomething(e.msg) {
			return source(file, strings.Join(lines, "\n"), first, b.Lines)
		}
	}
	before := strings.Join(src[:cut], "\n")
	_, e := parse(before, first)
	if e == nil || !e.pos.IsValid() || int(e.pos.Line()) >= errLine || !opensSomething(e.msg) {
		return nil
	}
	without := append([]string(nil), src...)
	without[cut] = ""
	if _, e2 := parse(strings.Join(without, "\n"), first); e2 == nil {
		return nil
	}
	return source(file, before, first, b.Lines)
}

// opensSomething reports whether a parse error says the text ended
// inside a substitution, an expansion or a quote.
func opensSomething(msg string) bool {
	for _, p := range []string{"reached EOF without matching `$(`", "reached EOF without matching `${`",
		"reached EOF without matching `$((`", "reached EOF without closing quote", "reached EOF without matching `(` with `)`"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return strings.HasPrefix(msg, "reached EOF without matching ``` with `")
}
