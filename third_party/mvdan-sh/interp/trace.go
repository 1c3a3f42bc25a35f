package interp

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// tracer prints expressions like a shell would do if its
// options '-o' is set to either 'xtrace' or its shorthand, '-x'.
type tracer struct {
	buf       bytes.Buffer
	printer   *syntax.Printer
	output    io.Writer
	needsPlus bool
	r         *Runner // jaiph-go patch: PS4 is expanded when a line starts
	primed    *string // jaiph-go patch: a prefix expanded ahead, see prime
}

// prime expands the prefix of the next line now, for a line written after
// the command changed what PS4 shows, as an assignment (jaiph-go patch).
func (t *tracer) prime() {
	if t != nil && t.needsPlus && t.primed == nil {
		p := t.prefix()
		t.primed = &p
	}
}

// linePrefix is the primed prefix or a fresh one (jaiph-go patch).
func (t *tracer) linePrefix() string {
	if p := t.primed; p != nil {
		t.primed = nil
		return *p
	}
	return t.prefix()
}

func (r *Runner) tracer() *tracer {
	if !r.opts[optXTrace] {
		return nil
	}

	return &tracer{
		printer:   syntax.NewPrinter(),
		output:    r.stderr,
		needsPlus: true,
		r:         r,
	}
}

// prefix is the start of a trace line (jaiph-go patch; upstream always
// wrote "+ "): bash's PS4, expanded as a prompt string (backslash escapes,
// then parameter, arithmetic and command substitutions, with xtrace off)
// each time a line starts, its first character repeated once more per
// command substitution level. An unset or empty PS4 prints nothing. A
// failed expansion prints its error and leaves the decoded text.
func (t *tracer) prefix() string {
	r := t.r
	ps4 := r.lookupVar("PS4")
	s := ps4.String()
	if !ps4.IsSet() || s == "" {
		return ""
	}
	if s != "+ " {
		s = expand.PromptDecode(r.ecfg, s)
		if strings.ContainsAny(s, "$`\\") { // the decoded text keeps \\ and \$ for this expansion
			if w, err := syntax.NewParser().Document(strings.NewReader(s)); err == nil {
				r.opts[optXTrace] = false
				r.updateExpandOpts()
				last := r.lastExit
				if out, err := expand.Document(r.ecfg, w); err == nil {
					s = out
				} else if err != errReported {
					fmt.Fprintln(r.stderr, err.Error())
				}
				r.lastExit = last
				r.opts[optXTrace] = true
				r.updateExpandOpts()
			}
		}
		if s == "" {
			return ""
		}
	}
	_, size := utf8.DecodeRuneInString(s)
	return strings.Repeat(s[:size], r.traceDepth) + s
}

// string writes s to tracer.buf if tracer is non-nil,
// prepending "+" if tracer.needsPlus is true.
func (t *tracer) string(s string) {
	if t == nil {
		return
	}

	if t.needsPlus {
		t.buf.WriteString(t.linePrefix())
	}
	t.needsPlus = false
	t.buf.WriteString(s)
}

func (t *tracer) stringf(f string, a ...any) {
	if t == nil {
		return
	}

	t.string(fmt.Sprintf(f, a...))
}

// expr prints x to tracer.buf if tracer is non-nil,
// prepending "+" if tracer.isFirstPrint is true.
func (t *tracer) expr(x syntax.Node) {
	if t == nil {
		return
	}

	if t.needsPlus {
		t.buf.WriteString(t.linePrefix())
	}
	t.needsPlus = false
	if err := t.printer.Print(&t.buf, x); err != nil {
		panic(err)
	}
}

// flush writes the contents of tracer.buf to the tracer.stdout.
func (t *tracer) flush() {
	if t == nil {
		return
	}

	t.output.Write(t.buf.Bytes())
	t.buf.Reset()
}

// newLineFlush is like flush, but with extra new line before tracer.buf gets flushed.
func (t *tracer) newLineFlush() {
	if t == nil {
		return
	}

	t.buf.WriteString("\n")
	t.flush()
	// reset state
	t.needsPlus = true
}

// quoteBash quotes a string so that it can be traced as a single Bash word.
func quoteBash(s string) string {
	qs, err := syntax.Quote(s, syntax.LangBash)
	if err != nil { // should never happen
		panic(err)
	}
	return qs
}

// call prints a command and its arguments with varying formats depending on the cmd type,
// for example, built-in command's arguments are printed enclosed in single quotes,
// otherwise, call defaults to printing with double quotes.
func (t *tracer) call(cmd string, args ...string) {
	if t == nil {
		return
	}

	// jaiph-go patch: like bash, quote each word that needs it, whatever
	// the command (upstream quoted a builtin's joined arguments as one
	// word and left other commands' words unquoted).
	if len(args) == 0 {
		t.string(traceQuote(cmd))
		return
	}
	words := make([]string, 0, len(args)+1)
	words = append(words, traceQuote(cmd))
	for _, arg := range args {
		words = append(words, traceQuote(arg))
	}
	t.string(strings.Join(words, " "))
}

// traceQuote quotes a word as bash's xtrace does: in single quotes when it
// is empty or holds a shell metacharacter (jaiph-go patch).
//
// jaiph-go patch: as bash 5.2's xtrace_print_word_list, a word without
// shell metacharacters but with a control character or a byte that is no
// UTF-8 is written $'…' (ansiCQuote); a lone ' is \' (sh_single_quote).
func traceQuote(s string) string {
	if q := traceSingleQuote(s); q != s || !traceWantsANSIC(s) {
		return q
	}
	return ansiCQuote(s)
}

// traceSingleQuote is traceQuote without the $'…' form.
func traceSingleQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\|&;()<>!{}*[?]^$`") && s[0] != '~' && s[0] != '#' {
		return s
	}
	if s == "'" {
		return `\'`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// traceAssignQuote quotes an assignment's value as bash's xtrace does: as
// traceQuote, but an empty value is printed as nothing (`+ v=`).
func traceAssignQuote(s string) string {
	if s == "" {
		return ""
	}
	return traceQuote(s)
}

// traceWantsANSIC reports whether bash 5.2's xtrace writes s as $'…'
// (ansic_shouldquote; jaiph-go patch).
func traceWantsANSIC(s string) bool { return expand.ANSICShouldQuote(s) }

// ansiCQuote is bash's ansic_quote (jaiph-go patch).
func ansiCQuote(s string) string { return expand.ANSICQuote(s) }
