package interp

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// tracer prints expressions like a shell would do if its
// options '-o' is set to either 'xtrace' or its shorthand, '-x'.
type tracer struct {
	buf       bytes.Buffer
	printer   *syntax.Printer
	output    io.Writer
	needsPlus bool
	plus      string
}

func (r *Runner) tracer() *tracer {
	if !r.opts[optXTrace] {
		return nil
	}

	return &tracer{
		printer:   syntax.NewPrinter(),
		output:    r.stderr,
		needsPlus: true,
		// jaiph-go patch: one more "+" per command substitution level.
		plus: strings.Repeat("+", 1+r.traceDepth) + " ",
	}
}

// string writes s to tracer.buf if tracer is non-nil,
// prepending "+" if tracer.needsPlus is true.
func (t *tracer) string(s string) {
	if t == nil {
		return
	}

	if t.needsPlus {
		t.buf.WriteString(t.plus)
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
		t.buf.WriteString(t.plus)
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
func traceQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\|&;()<>!{}*[?]^$`") && s[0] != '~' && s[0] != '#' {
		return s
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
