package shellbuiltin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"

	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// This file implements the printf builtin of GNU bash 5.2 as it behaves on
// x86-64 glibc under LANG=C.UTF-8: bytes for %s widths and precisions, UTF-8
// for \u escapes, 'c character codes and %q, 80-bit long doubles for the
// floating conversions. mvdan.cc/sh's own printf lacks most of this, so
// every runner replaces the printf builtin with Printf, which calls bashPrintf.

const printfUsage = "printf: usage: printf [-v var] format [arguments]"

// bashPrintf runs `printf FORMAT [ARGS...]` and returns its exit status.
func bashPrintf(stdout, stderr io.Writer, args []string) int {
	return runPrintf(stdout, stderr, args, time.Local)
}

// runPrintf is bashPrintf with the time zone used by %(fmt)T.
func runPrintf(stdout, stderr io.Writer, args []string, loc *time.Location) int {
	return runPrintfZone(stdout, stderr, args, func() *time.Location { return loc }, nil, nil)
}

// runPrintfZone is runPrintf with the zone looked up on the first %(fmt)T.
// killed, when not nil, reports whether a write error kills the shell
// (SIGPIPE: interp.HandlerContext.BrokenPipe): then printf ends silently.
func runPrintfZone(stdout, stderr io.Writer, args []string, zone func() *time.Location, killed func(error) bool, assign func(name, value string) error) int {
	w := &lineWriter{w: stdout}
	p := &printer{out: w, stderr: stderr, zone: zone, assign: assign}
	status := p.run(args)
	if err := w.Flush(); err != nil {
		if killed != nil && killed(err) {
			return 1 // the shell dies of SIGPIPE as the builtin returns
		}
		p.errorf("write error: %s", errnoText(err))
		return 1
	}
	return status
}

// lineWriter buffers printf's output as bash's line-buffered stdout does:
// what was written up to a newline is out, the rest waits (for the next
// newline, a full buffer or the end), so that the messages printf writes
// to stderr on the way (`invalid number`) come between the lines they
// came between in bash when both streams go to one place
// (`printf '%d\n' x y 2>&1`). The first write error sticks and ends the
// output.
type lineWriter struct {
	w       io.Writer
	buf     []byte
	err     error
	written int // bytes given to it so far (printf's %n)
}

// lineBufSize is glibc's buffer for a pipe or a file (st_blksize).
const lineBufSize = 4096

func (l *lineWriter) WriteString(s string) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	l.buf = append(l.buf, s...)
	l.written += len(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		l.flush(len(l.buf) - len(s) + i + 1)
	} else if len(l.buf) >= lineBufSize {
		l.flush(len(l.buf))
	}
	return len(s), l.err
}

func (l *lineWriter) WriteByte(c byte) error {
	// the byte itself: string(c) would be the UTF-8 of the rune c (a
	// format's é, bytes 0xc3 0xa9, came out as Ã©)
	_, err := l.WriteString(string([]byte{c}))
	return err
}

func (l *lineWriter) flush(n int) {
	if l.err != nil || n == 0 {
		return
	}
	_, l.err = l.w.Write(l.buf[:n])
	l.buf = l.buf[:copy(l.buf, l.buf[n:])]
}

// Flush writes what waits and returns the first write error.
func (l *lineWriter) Flush() error {
	l.flush(len(l.buf))
	return l.err
}

type printer struct {
	out     *lineWriter
	stderr  io.Writer
	zone    func() *time.Location // %(fmt)T's zone, looked up once into loc
	loc     *time.Location
	args    []string // arguments not consumed yet
	convErr bool     // an argument was not a valid number
	// assign sets a shell variable (%n); passStart is the output's
	// length when the format's current pass began.
	assign    func(name, value string) error
	passStart int
}

func (p *printer) errorf(format string, a ...any) {
	fmt.Fprintf(p.stderr, "printf: "+format+"\n", a...)
}

func (p *printer) run(args []string) int {
	// Arguments are C strings in bash: nothing after a NUL byte exists.
	args = append([]string(nil), args...)
	for i, a := range args {
		if j := strings.IndexByte(a, 0); j >= 0 {
			args[i] = a[:j]
		}
	}
	if len(args) > 0 && args[0] == "--help" {
		_, _ = p.out.WriteString(printfHelp)
		return 2
	}
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		switch {
		case args[0] == "--":
			args = args[1:]
		case args[0][1] == 'v':
			p.errorf("-v: not supported here (the shell's own printf handles printf -v)")
			return 2
		default:
			p.errorf("%s: invalid option", args[0][:2])
			fmt.Fprintln(p.stderr, printfUsage)
			return 2
		}
	}
	if len(args) == 0 {
		fmt.Fprintln(p.stderr, printfUsage)
		return 2
	}
	format := args[0]
	p.args = args[1:]
	if format == "" {
		return 0
	}
	// The format is reused while arguments remain, as long as it consumes any.
	total := len(p.args)
	for {
		p.passStart = p.out.written
		if stop, status := p.pass(format); stop {
			return status
		}
		if len(p.args) == 0 || len(p.args) == total || p.out.err != nil {
			break
		}
	}
	if p.convErr {
		return 1
	}
	return 0
}

// spec is one parsed conversion specification.
type spec struct {
	minus, plus, space, hash, zero, group bool

	starWidth bool   // width given as *
	width     int    // the * width argument
	widthLit  string // literal width digits

	dot      bool   // a precision is present
	starPrec bool   // precision given as *
	prec     int    // the * precision argument
	negPrec  bool   // literal precision starting with '-' (".-3")
	precLit  string // literal precision digits
}

func (sp *spec) setFlag(c byte) {
	switch c {
	case '-':
		sp.minus = true
	case '+':
		sp.plus = true
	case ' ':
		sp.space = true
	case '#':
		sp.hash = true
	case '0':
		sp.zero = true
	case '\'':
		sp.group = true
	}
}

// pass makes one pass over the format. stop reports that printf must end
// now with the given status (an error, or \c in a %b argument).
func (p *printer) pass(f string) (stop bool, status int) {
	for i := 0; i < len(f); {
		c := f[i]
		if c == '\\' {
			out, n, _ := p.escape(f[i+1:], false)
			_, _ = p.out.WriteString(out)
			i += 1 + n
			continue
		}
		if c != '%' {
			_ = p.out.WriteByte(c)
			i++
			continue
		}
		start := i
		i++
		if i < len(f) && f[i] == '%' {
			_ = p.out.WriteByte('%')
			i++
			continue
		}
		var sp spec
		for i < len(f) && strings.IndexByte("#'-+ 0", f[i]) >= 0 {
			sp.setFlag(f[i])
			i++
		}
		if i < len(f) && f[i] == '*' {
			i++
			sp.starWidth = true
			sp.width = p.getint()
		} else {
			j := i
			for i < len(f) && isDigit(f[i]) {
				i++
			}
			sp.widthLit = f[j:i]
		}
		if i < len(f) && f[i] == '.' {
			sp.dot = true
			i++
			if i < len(f) && f[i] == '*' {
				i++
				sp.starPrec = true
				sp.prec = p.getint()
			} else {
				if i < len(f) && f[i] == '-' {
					sp.negPrec = true
					i++
				}
				j := i
				for i < len(f) && isDigit(f[i]) {
					i++
				}
				sp.precLit = f[j:i]
			}
		}
		for i < len(f) && strings.IndexByte("hjlLtz", f[i]) >= 0 {
			i++
		}
		if i >= len(f) {
			p.errorf("`%s': missing format character", f[start:])
			return true, 1
		}
		conv := f[i]
		i++
		switch conv {
		case 'c':
			p.cString(&sp, conv, string([]byte{p.getchr()}))
		case 's':
			p.cString(&sp, conv, p.getstr())
		case 'b':
			s, sawC := p.bexpand(p.getstr())
			p.printstr(&sp, s, false)
			if sawC {
				return true, 0
			}
		case 'q', 'Q':
			s := p.getstr()
			full := false
			if conv == 'Q' && sp.dot && (sp.starPrec || (sp.precLit != "" && !sp.negPrec)) {
				// %Q applies a literal precision to the unquoted
				// argument; a * precision is consumed but unused.
				if !sp.starPrec {
					if n := clampInt(sp.precLit); n < len(s) {
						s = s[:n]
					}
				}
				full = true
			}
			p.printstr(&sp, shellscan.QuoteQ(s), full)
		case 'd', 'i':
			v := p.getintmax()
			neg, mag := v < 0, uint64(v)
			if neg {
				mag = -mag
			}
			p.cInt(&sp, conv, neg, mag)
		case 'o', 'u', 'x', 'X':
			p.cInt(&sp, conv, false, p.getuintmax())
		case 'e', 'E', 'f', 'F', 'g', 'G', 'a', 'A':
			p.cFloat(&sp, conv, p.getfloat())
		case 'n':
			// bash assigns the number of bytes this pass of the format
			// wrote so far to the named variable (a readonly one is
			// reported and printf goes on).
			name := p.getstr()
			if name != "" && !isIdentifier(name) {
				p.errorf("`%s': not a valid identifier", name)
				return true, 1
			}
			if name != "" && p.assign != nil {
				if err := p.assign(name, strconv.Itoa(p.out.written-p.passStart)); err != nil {
					var stop printfStop
					if errors.As(err, &stop) {
						return true, 1 // the shell ends here (Printf)
					}
					fmt.Fprintln(p.stderr, err)
				}
			}
		case '(':
			depth, j := 1, i
			for ; j < len(f); j++ {
				if f[j] == '(' {
					depth++
				} else if f[j] == ')' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			var next byte
			if j+1 < len(f) {
				next = f[j+1]
			}
			if next != 'T' {
				fmt.Fprintf(p.stderr, "printf: warning: `%s': invalid time format specification\n", []byte{next})
				_ = p.out.WriteByte('%')
				i = start + 1
				continue
			}
			tf := f[i:j]
			i = j + 2
			if tf == "" {
				tf = "%X"
			}
			secs := int64(-1)
			if len(p.args) > 0 {
				secs = p.getintmax()
			}
			s := strftime(tf, p.timeAt(secs))
			if len(s) >= 128 { // bash's buffer; strftime fails on overflow
				s = ""
			}
			p.printstr(&sp, s, false)
		default:
			p.errorf("`%s': invalid format character", []byte{conv})
			return true, 1
		}
	}
	return false, 0
}

// Arguments.

func (p *printer) next() (string, bool) {
	if len(p.args) == 0 {
		return "", false
	}
	a := p.args[0]
	p.args = p.args[1:]
	return a, true
}

func (p *printer) getstr() string {
	a, _ := p.next()
	return a
}

func (p *printer) getchr() byte {
	if a, _ := p.next(); a != "" {
		return a[0]
	}
	return 0
}

func (p *printer) invalidNumber(a string) {
	msg := "invalid number"
	if len(a) > 1 && a[0] == '0' && isDigit(a[1]) {
		msg = "invalid octal number"
	} else if len(a) > 1 && a[0] == '0' && a[1] == 'x' {
		msg = "invalid hex number"
	}
	p.errorf("%s: %s", a, msg)
	p.convErr = true
}

func (p *printer) rangeWarning(a string) {
	p.errorf("warning: %s: Numerical result out of range", a)
}

func isCharCode(a string) bool { return a != "" && (a[0] == '\'' || a[0] == '"') }

// charCode is the value of a 'c or "c argument: the code of the character
// after the quote (its first byte if that is not valid UTF-8).
func charCode(a string) int64 {
	s := a[1:]
	if s == "" {
		return 0
	}
	if r, size := utf8.DecodeRuneInString(s); r != utf8.RuneError || size > 1 {
		return int64(r)
	}
	if c, ok := glibcLongSequence(s); ok {
		return c
	}
	return int64(s[0])
}

// glibcLongSequence decodes what glibc's mbrtowc accepts in C.UTF-8 beyond
// Go's UTF-8: a four-byte sequence above U+10FFFF (lead F4-F7) and a
// five-byte one (lead F8-FB), not overlong; bash's 'c gives their value
// ('\xf4\x91\x84\x91' is 0x111111).
func glibcLongSequence(s string) (int64, bool) {
	n, min := 0, int64(0)
	switch {
	case s[0] >= 0xf0 && s[0] <= 0xf7:
		n, min = 4, 0x10000
	case s[0] >= 0xf8 && s[0] <= 0xfb:
		n, min = 5, 0x200000
	default:
		return 0, false
	}
	if len(s) < n {
		return 0, false
	}
	c := int64(s[0]) & (0x7f >> n)
	for i := 1; i < n; i++ {
		if s[i]&0xc0 != 0x80 {
			return 0, false
		}
		c = c<<6 | int64(s[i]&0x3f)
	}
	return c, c >= min
}

func (p *printer) getintmax() int64 {
	a, ok := p.next()
	if !ok {
		return 0
	}
	if isCharCode(a) {
		return charCode(a)
	}
	v, rest, erange := strtoimax(a)
	if rest != "" {
		p.invalidNumber(a)
	} else if erange {
		p.rangeWarning(a)
	}
	return v
}

func (p *printer) getuintmax() uint64 {
	a, ok := p.next()
	if !ok {
		return 0
	}
	if isCharCode(a) {
		return uint64(charCode(a))
	}
	v, rest, erange := strtoumax(a)
	if rest != "" {
		p.invalidNumber(a)
	} else if erange {
		p.rangeWarning(a)
	}
	return v
}

func (p *printer) getfloat() ldouble {
	a, ok := p.next()
	if !ok {
		return ldouble{x: new(big.Float)}
	}
	if isCharCode(a) {
		return ldouble{x: new(big.Float).SetInt64(charCode(a))}
	}
	v, rest, erange := strtold(a)
	if rest != "" {
		p.invalidNumber(a)
	} else if erange {
		p.rangeWarning(a)
	}
	return v
}

// getint reads a * width or precision. Like bash it clamps to the int range
// and names the following argument in the warning, and it does neither when
// no argument follows.
func (p *printer) getint() int {
	v := p.getintmax()
	if len(p.args) == 0 {
		return int(int32(v))
	}
	if v > math.MaxInt32 {
		p.rangeWarning(p.args[0])
		v = math.MaxInt32
	} else if v < math.MinInt32 {
		p.rangeWarning(p.args[0])
		v = math.MinInt32
	}
	return int(v)
}

// Escapes.

// escape decodes the backslash escape at the start of s (the text after the
// backslash) like bash's tescape; inB selects the rules for %b arguments.
// It returns the bytes to write and how many bytes of s they replace; an
// unknown escape yields a backslash and consumes nothing. sawC reports \c in
// a %b argument.
func (p *printer) escape(s string, inB bool) (out string, n int, sawC bool) {
	if s == "" {
		return `\`, 0, false
	}
	switch c := s[0]; c {
	case 'a':
		return "\a", 1, false
	case 'b':
		return "\b", 1, false
	case 'e', 'E':
		return "\x1b", 1, false
	case 'f':
		return "\f", 1, false
	case 'n':
		return "\n", 1, false
	case 'r':
		return "\r", 1, false
	case 't':
		return "\t", 1, false
	case 'v':
		return "\v", 1, false
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v, more := int(c-'0'), 2
		if inB && v == 0 { // %b takes \0NNN as well as \NNN
			more = 3
		}
		n = 1
		for ; n < len(s) && more > 0 && s[n] >= '0' && s[n] <= '7'; n++ {
			v = v*8 + int(s[n]-'0')
			more--
		}
		return string([]byte{byte(v)}), n, false
	case 'x':
		v := 0
		for n = 1; n < len(s) && n < 3 && isHexDigit(s[n]); n++ {
			v = v*16 + hexValue(s[n])
		}
		if n == 1 {
			p.errorf(`missing hex digit for \x`)
			return `\`, 0, false
		}
		return string([]byte{byte(v)}), n, false
	case 'u', 'U':
		maxDigits := 4
		if c == 'U' {
			maxDigits = 8
		}
		var v uint32
		for n = 1; n < len(s) && n <= maxDigits && isHexDigit(s[n]); n++ {
			v = v*16 + uint32(hexValue(s[n]))
		}
		if n == 1 {
			p.errorf(`missing unicode digit for \%c`, c)
			return `\`, 0, false
		}
		return u32ToUTF8(v), n, false
	case '\\':
		return `\`, 1, false
	case '\'', '"', '?':
		if inB {
			return `\`, 0, false
		}
		return string(c), 1, false
	case 'c':
		if inB {
			return "", 1, true
		}
	}
	return `\`, 0, false
}

// u32ToUTF8 encodes a \u or \U value like bash: the original UTF-8 scheme
// of up to six bytes, surrogates included; nothing above 0x7fffffff.
func u32ToUTF8(v uint32) string {
	switch {
	case v < 0x80:
		return string([]byte{byte(v)})
	case v < 0x800:
		return string([]byte{byte(v>>6) | 0xc0, byte(v&0x3f) | 0x80})
	case v < 0x10000:
		return string([]byte{byte(v>>12) | 0xe0, byte(v>>6&0x3f) | 0x80, byte(v&0x3f) | 0x80})
	case v < 0x200000:
		return string([]byte{byte(v>>18) | 0xf0, byte(v>>12&0x3f) | 0x80, byte(v>>6&0x3f) | 0x80, byte(v&0x3f) | 0x80})
	case v < 0x4000000:
		return string([]byte{byte(v>>24) | 0xf8, byte(v>>18&0x3f) | 0x80, byte(v>>12&0x3f) | 0x80,
			byte(v>>6&0x3f) | 0x80, byte(v&0x3f) | 0x80})
	case v < 0x80000000:
		return string([]byte{byte(v>>30) | 0xfc, byte(v>>24&0x3f) | 0x80, byte(v>>18&0x3f) | 0x80,
			byte(v>>12&0x3f) | 0x80, byte(v>>6&0x3f) | 0x80, byte(v&0x3f) | 0x80})
	}
	return ""
}

// bexpand expands the escapes of a %b argument; sawC reports a \c, which
// ends the argument and all output.
func (p *printer) bexpand(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		i++
		if c != '\\' || i == len(s) {
			b.WriteByte(c)
			continue
		}
		out, n, sawC := p.escape(s[i:], true)
		if sawC {
			return b.String(), true
		}
		b.WriteString(out)
		i += n
	}
	return b.String(), false
}

// Output.

// pad writes n copies of c.
func (p *printer) pad(c byte, n int) {
	chunk := strings.Repeat(string(c), min(n, 4096))
	for ; n > 0; n -= len(chunk) {
		_, _ = p.out.WriteString(chunk[:min(n, len(chunk))])
	}
}

// field writes prefix+body padded to width: on the right when left, with
// zeros between prefix and body when zero, else with leading spaces.
func (p *printer) field(width int, left, zero bool, prefix, body string) {
	n := width - len(prefix) - len(body)
	switch {
	case n <= 0:
		_, _ = p.out.WriteString(prefix)
		_, _ = p.out.WriteString(body)
	case left:
		_, _ = p.out.WriteString(prefix)
		_, _ = p.out.WriteString(body)
		p.pad(' ', n)
	case zero:
		_, _ = p.out.WriteString(prefix)
		p.pad('0', n)
		_, _ = p.out.WriteString(body)
	default:
		p.pad(' ', n)
		_, _ = p.out.WriteString(prefix)
		_, _ = p.out.WriteString(body)
	}
}

// printstr writes s for %b, %q, %Q and %(fmt)T the way bash's printstr
// does: only '-', the width and the precision (in bytes) matter. full
// ignores a precision (%Q has already applied it).
func (p *printer) printstr(sp *spec, s string, full bool) {
	left, width := sp.minus, 0
	if sp.starWidth {
		width = sp.width
		if width < 0 {
			left, width = true, -width
		}
	} else if sp.widthLit != "" {
		width = clampInt(sp.widthLit)
	}
	prec := -1
	if sp.dot && !full {
		switch {
		case sp.starPrec:
			prec = sp.prec
		case sp.precLit != "" && !sp.negPrec:
			prec = clampInt(sp.precLit)
		default: // "%.b" is "%.0b"; bash does not parse "%.-1b" either
			prec = 0
		}
	}
	if prec >= 0 && prec < len(s) {
		s = s[:prec]
	}
	p.field(width, left, false, "", s)
}

// cParams resolves the width and precision glibc printf sees. ok is false
// when glibc rejects a number above INT_MAX and prints nothing.
func (sp *spec) cParams() (width int, left bool, prec int, ok bool) {
	left = sp.minus
	if sp.starWidth {
		width = sp.width
		if width < 0 {
			left, width = true, -width
		}
	} else if sp.widthLit != "" {
		if width, ok = atoiInt32(sp.widthLit); !ok {
			return 0, false, 0, false
		}
	}
	prec = -1
	if sp.dot {
		if sp.starPrec {
			if sp.prec >= 0 {
				prec = sp.prec
			}
		} else if prec, ok = atoiInt32(sp.precLit); !ok {
			return 0, false, 0, false
		}
	}
	return width, left, prec, true
}

// unknownSpec handles a literal precision starting with '-': bash passes
// it on, glibc sees '-' as an unknown conversion and echoes the
// specification, then prints the rest of it as plain text. mod is the length
// modifier bash substitutes.
func (p *printer) unknownSpec(sp *spec, conv byte, mod string) {
	var b strings.Builder
	b.WriteByte('%')
	if sp.hash {
		b.WriteByte('#')
	}
	if sp.group {
		b.WriteByte('\'')
	}
	if sp.plus {
		b.WriteByte('+')
	} else if sp.space {
		b.WriteByte(' ')
	}
	width, left := 0, sp.minus
	if sp.starWidth {
		width = sp.width
		if width < 0 {
			left, width = true, -width
		}
	} else {
		width, _ = atoiInt32(sp.widthLit)
	}
	if left {
		b.WriteByte('-')
	}
	if sp.zero && !sp.minus { // a negative * width leaves the '0' flag set
		b.WriteByte('0')
	}
	if width != 0 {
		b.WriteString(strconv.Itoa(width))
	}
	b.WriteString(".0-")
	b.WriteString(sp.precLit)
	b.WriteString(mod)
	b.WriteByte(conv)
	_, _ = p.out.WriteString(b.String())
}

// cString is glibc's %s and %c: bytes, spaces for padding.
func (p *printer) cString(sp *spec, conv byte, s string) {
	if sp.negPrec {
		p.unknownSpec(sp, conv, "")
		return
	}
	width, left, prec, ok := sp.cParams()
	if !ok {
		return
	}
	if conv == 's' && prec >= 0 && prec < len(s) {
		s = s[:prec]
	}
	p.field(width, left, false, "", s)
}

// cInt is glibc's %d %i %o %u %x %X on a sign and magnitude.
func (p *printer) cInt(sp *spec, conv byte, neg bool, mag uint64) {
	if sp.negPrec {
		p.unknownSpec(sp, conv, "l")
		return
	}
	width, left, prec, ok := sp.cParams()
	if !ok {
		return
	}
	base := 10
	switch conv {
	case 'o':
		base = 8
	case 'x', 'X':
		base = 16
	}
	digits := strconv.FormatUint(mag, base)
	if conv == 'X' {
		digits = strings.ToUpper(digits)
	}
	if prec == 0 && mag == 0 {
		digits = ""
	}
	if prec > len(digits) {
		digits = strings.Repeat("0", prec-len(digits)) + digits
	}
	prefix := ""
	switch conv {
	case 'd', 'i':
		if neg {
			prefix = "-"
		} else if sp.plus {
			prefix = "+"
		} else if sp.space {
			prefix = " "
		}
	case 'o':
		if sp.hash && (digits == "" || digits[0] != '0') {
			digits = "0" + digits
		}
	case 'x', 'X':
		if sp.hash && mag != 0 {
			prefix = "0" + string(conv)
		}
	}
	p.field(width, left, sp.zero && prec < 0, prefix, digits)
}

// cFloat is glibc's floating conversions on an x86-64 long double.
func (p *printer) cFloat(sp *spec, conv byte, v ldouble) {
	if sp.negPrec {
		p.unknownSpec(sp, conv, "L")
		return
	}
	width, left, prec, ok := sp.cParams()
	if !ok {
		return
	}
	upper := conv >= 'A' && conv <= 'Z'
	prefix := ""
	if v.neg {
		prefix = "-"
	} else if sp.plus {
		prefix = "+"
	} else if sp.space {
		prefix = " "
	}
	var body string
	zero := sp.zero
	switch {
	case v.nan || v.inf:
		body, zero = "inf", false
		if v.nan {
			body = "nan"
		}
	case conv == 'f' || conv == 'F':
		if prec < 0 {
			prec = 6
		}
		body = v.x.Text('f', prec)
		if sp.hash && prec == 0 {
			body += "."
		}
	case conv == 'e' || conv == 'E':
		if prec < 0 {
			prec = 6
		}
		body = expForm(v.x, prec, sp.hash)
	case conv == 'g' || conv == 'G':
		body = gForm(v.x, prec, sp.hash)
	default: // a, A
		prefix += "0x"
		body = hexForm(v.x, prec, sp.hash)
	}
	if upper {
		prefix, body = strings.ToUpper(prefix), strings.ToUpper(body)
	}
	p.field(width, left, zero, prefix, body)
}

// expForm is %e of x ≥ 0.
func expForm(x *big.Float, prec int, hash bool) string {
	s := x.Text('e', prec)
	if hash && !strings.Contains(s, ".") {
		i := strings.IndexByte(s, 'e')
		s = s[:i] + "." + s[i:]
	}
	return s
}

// gForm is %g of x ≥ 0.
func gForm(x *big.Float, prec int, hash bool) string {
	if prec < 0 {
		prec = 6
	} else if prec == 0 {
		prec = 1
	}
	exp := 0
	if x.Sign() != 0 {
		s := x.Text('e', prec-1)
		exp, _ = strconv.Atoi(s[strings.IndexByte(s, 'e')+1:])
	}
	var s string
	switch {
	case exp < prec && exp >= -4:
		s = x.Text('f', prec-1-exp)
		if hash && !strings.Contains(s, ".") {
			s += "."
		}
	case hash && exp == prec && exponent10(x) < prec:
		// glibc picks the f style before rounding; when rounding
		// carries into one more digit it switches to e with no
		// fraction digits left: %#.2g of 99.5 is "1.e+02".
		s = expForm(x, 0, true)
	default:
		s = expForm(x, prec-1, hash)
	}
	if hash {
		return s
	}
	mant, rest := s, ""
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		mant, rest = s[:i], s[i:]
	}
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	return mant + rest
}

// exponent10 is the decimal exponent of x > 0 before any rounding (25
// digits are more than a 64-bit mantissa can round up through).
func exponent10(x *big.Float) int {
	s := x.Text('e', 25)
	exp, _ := strconv.Atoi(s[strings.IndexByte(s, 'e')+1:])
	return exp
}

// hexForm is %a of x ≥ 0 after the "0x", in glibc's long double layout: the
// first hex digit holds the integer bit and three fraction bits.
func hexForm(x *big.Float, prec int, hash bool) string {
	var m uint64
	e := 0
	if x.Sign() != 0 {
		e = x.MantExp(nil) - 1
		if e < ldMinExp {
			e = ldMinExp
		}
		m, _ = new(big.Float).SetMantExp(x, 63-e).Uint64()
		e -= 3
	}
	lead := m >> 60
	const fracBits = 60
	frac := m & (1<<fracBits - 1)
	var digits string
	switch {
	case prec < 0:
		digits = strings.TrimRight(fmt.Sprintf("%015x", frac), "0")
	case prec < 15:
		shift := uint(fracBits - 4*prec)
		q, r, half := m>>shift, m&(1<<shift-1), uint64(1)<<(shift-1)
		if r > half || (r == half && q&1 == 1) {
			q++
		}
		lead = q >> (4 * uint(prec))
		if lead == 16 {
			lead, q, e = 1, 0, e+4
		}
		if prec > 0 {
			digits = fmt.Sprintf("%0*x", prec, q&(1<<(4*uint(prec))-1))
		}
	default:
		digits = fmt.Sprintf("%015x", frac) + strings.Repeat("0", prec-15)
	}
	s := strconv.FormatUint(lead, 16)
	if digits != "" || hash {
		s += "." + digits
	}
	if e >= 0 {
		return s + "p+" + strconv.Itoa(e)
	}
	return s + "p" + strconv.Itoa(e)
}

// Numbers.

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isHexDigit(c byte) bool { return isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'f' }
func isCSpace(c byte) bool   { return c == ' ' || c >= '\t' && c <= '\r' }

func hexValue(c byte) int {
	if isDigit(c) {
		return int(c - '0')
	}
	return int(c|0x20-'a') + 10
}

// atoiInt32 parses decimal digits ("" is 0); ok is false above INT_MAX.
func atoiInt32(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
		if n > math.MaxInt32 {
			return 0, false
		}
	}
	return n, true
}

// clampInt parses decimal digits, saturating at INT_MAX.
func clampInt(s string) int {
	if n, ok := atoiInt32(s); ok {
		return n
	}
	return math.MaxInt32
}

// scanInt is the common part of C strtoimax and strtoumax with base 0.
// rest is the unparsed tail (the whole input when no digits were found).
func scanInt(s string) (neg bool, mag uint64, overflow bool, rest string) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := uint64(10)
	if i+2 < len(s) && s[i] == '0' && (s[i+1]|0x20) == 'x' && isHexDigit(s[i+2]) {
		base, i = 16, i+2
	} else if i < len(s) && s[i] == '0' {
		base = 8
	}
	j := i
	for ; i < len(s); i++ {
		var d uint64
		switch c := s[i]; {
		case isDigit(c) && uint64(c-'0') < base:
			d = uint64(c - '0')
		case base == 16 && isHexDigit(c):
			d = uint64(hexValue(c))
		default:
			goto done
		}
		if mag > (math.MaxUint64-d)/base {
			overflow = true
		}
		mag = mag*base + d
	}
done:
	if i == j {
		return false, 0, false, s
	}
	return neg, mag, overflow, s[i:]
}

// strtoimax is C strtoimax(s, &end, 0); erange reports saturation.
func strtoimax(s string) (v int64, rest string, erange bool) {
	neg, mag, overflow, rest := scanInt(s)
	switch {
	case neg && (overflow || mag > 1<<63):
		return math.MinInt64, rest, true
	case !neg && (overflow || mag > math.MaxInt64):
		return math.MaxInt64, rest, true
	case neg:
		return -int64(mag), rest, false
	}
	return int64(mag), rest, false
}

// strtoumax is C strtoumax(s, &end, 0): negative values wrap around.
func strtoumax(s string) (v uint64, rest string, erange bool) {
	neg, mag, overflow, rest := scanInt(s)
	if overflow {
		return math.MaxUint64, rest, true
	}
	if neg {
		mag = -mag
	}
	return mag, rest, false
}

// ldouble is an x86-64 long double: x holds the magnitude of a finite
// value, rounded to 64 significant bits (fewer when subnormal).
type ldouble struct {
	neg, inf, nan bool
	x             *big.Float
}

const (
	ldMinExp    = -16382 // exponent of the smallest normal, 1.0×2^ldMinExp
	ldMaxExp    = 16383
	ldMinSubExp = -16445 // the smallest subnormal is 2^ldMinSubExp
)

// strtold is glibc strtold(s, &end) in the C.UTF-8 locale: decimal and
// hex floats, inf, infinity and nan(chars). rest is the unparsed tail;
// erange reports overflow, or an inexact result below the normal range.
func strtold(s string) (v ldouble, rest string, erange bool) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		v.neg = s[i] == '-'
		i++
	}
	hasPrefixFold := func(p string) bool { return len(s)-i >= len(p) && strings.EqualFold(s[i:i+len(p)], p) }
	switch {
	case hasPrefixFold("inf"):
		i += 3
		if hasPrefixFold("inity") {
			i += 5
		}
		v.inf = true
		return v, s[i:], false
	case hasPrefixFold("nan"):
		i += 3
		if i < len(s) && s[i] == '(' {
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || (s[j]|0x20) >= 'a' && (s[j]|0x20) <= 'z' || s[j] == '_') {
				j++
			}
			if j < len(s) && s[j] == ')' {
				i = j + 1
			}
		}
		v.nan = true
		return v, s[i:], false
	}
	hex := i+2 < len(s) && s[i] == '0' && (s[i+1]|0x20) == 'x' &&
		(isHexDigit(s[i+2]) || s[i+2] == '.' && i+3 < len(s) && isHexDigit(s[i+3]))
	base, digitOK, expChar := 10, isDigit, byte('e')
	if hex {
		base, digitOK, expChar, i = 16, isHexDigit, 'p', i+2
	}
	var mant []byte
	ndigits, fracDigits := 0, 0
	for ; i < len(s) && digitOK(s[i]); i++ {
		mant, ndigits = append(mant, s[i]), ndigits+1
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && digitOK(s[i]); i++ {
			mant, ndigits, fracDigits = append(mant, s[i]), ndigits+1, fracDigits+1
		}
	}
	if ndigits == 0 {
		return ldouble{x: new(big.Float)}, s, false
	}
	exp := int64(0)
	if i < len(s) && (s[i]|0x20) == expChar {
		j := i + 1
		eneg := false
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			eneg = s[j] == '-'
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for ; j < len(s) && isDigit(s[j]); j++ {
				if exp < 1e9 {
					exp = exp*10 + int64(s[j]-'0')
				}
			}
			if eneg {
				exp = -exp
			}
			i = j
		}
	}
	m, _ := new(big.Int).SetString(string(mant), base)
	if hex {
		exp -= 4 * int64(fracDigits)
	} else {
		exp -= int64(fracDigits)
	}
	v.x, v.inf, erange = roundLongDouble(m, exp, hex)
	return v, s[i:], erange
}

// roundLongDouble rounds m×10^exp (m×2^exp when bin) to a long double.
func roundLongDouble(m *big.Int, exp int64, bin bool) (x *big.Float, inf, erange bool) {
	x = new(big.Float).SetPrec(64)
	if m.Sign() == 0 {
		return x, false, false
	}
	log2 := float64(m.BitLen()) + float64(exp)
	if !bin {
		log2 = float64(m.BitLen()) + float64(exp)*math.Log2(10)
	}
	switch {
	case log2 > ldMaxExp+3:
		return x, true, true
	case log2 < ldMinSubExp-3:
		return x, false, true
	}
	num, den := new(big.Int).Set(m), big.NewInt(1)
	scale := new(big.Int)
	if bin {
		scale.Lsh(big.NewInt(1), uint(abs64(exp)))
	} else {
		scale.Exp(big.NewInt(10), big.NewInt(abs64(exp)), nil)
	}
	if exp >= 0 {
		num.Mul(num, scale)
	} else {
		den = scale
	}
	r := new(big.Rat).SetFrac(num, den)
	minNormal := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), -ldMinExp))
	if r.Cmp(minNormal) < 0 {
		// Subnormal: a fixed step of 2^ldMinSubExp, rounded half to even.
		q := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), -ldMinSubExp)))
		n, rem := new(big.Int).QuoRem(q.Num(), q.Denom(), new(big.Int))
		if rem.Sign() != 0 {
			erange = true
			switch c := new(big.Int).Lsh(rem, 1).Cmp(q.Denom()); {
			case c > 0, c == 0 && n.Bit(0) == 1:
				n.Add(n, big.NewInt(1))
			}
		}
		x.SetInt(n)
		return x.SetMantExp(x, ldMinSubExp), false, erange
	}
	x.SetRat(r)
	if x.MantExp(nil)-1 > ldMaxExp {
		return new(big.Float), true, true
	}
	return x, false, false
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// Quoting.

// isIdentifier reports whether s is a valid shell variable name.
func isIdentifier(s string) bool { return shellscan.IsIdent(s) }

// errnoText is strerror's text for a write error.
func errnoText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		s := errno.Error()
		if s != "" {
			return strings.ToUpper(s[:1]) + s[1:]
		}
	}
	return err.Error()
}

// Time.

var shellStart = time.Now()

// timeAt is the time of a %(fmt)T argument: -1 now, -2 the shell's start,
// else seconds since the epoch (the epoch when localtime would fail).
func (p *printer) timeAt(secs int64) time.Time {
	var t time.Time
	switch {
	case secs == -1:
		t = time.Now()
	case secs == -2:
		t = shellStart
	case secs > 1<<58 || secs < -(1<<58):
		t = time.Unix(0, 0)
	default:
		t = time.Unix(secs, 0)
	}
	if p.loc == nil {
		p.loc = p.zone()
	}
	t = t.In(p.loc)
	if y := int64(t.Year()) - 1900; y > math.MaxInt32 || y < math.MinInt32 {
		t = time.Unix(0, 0).In(p.loc)
	}
	return t
}

var (
	weekdays = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	months   = []string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
)

// strftime formats t like glibc strftime in the C locale: the POSIX
// conversions plus %k %l %P %s, the flags _ - 0 ^ # and a field width, and
// E/O modifiers ignored. Unknown conversions are copied.
func strftime(f string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		start := i
		i++
		var padFlag byte
		upper, swap := false, false
	flags:
		for ; i < len(f); i++ {
			switch f[i] {
			case '_', '-', '0':
				padFlag = f[i]
			case '^':
				upper = true
			case '#':
				swap = true
			default:
				break flags
			}
		}
		width := 0
		for ; i < len(f) && isDigit(f[i]); i++ {
			width = min(width*10+int(f[i]-'0'), 1024)
		}
		for i < len(f) && (f[i] == 'E' || f[i] == 'O') {
			i++
		}
		if i >= len(f) {
			b.WriteString(f[start:])
			break
		}
		num := func(v int64, digits int, pad byte) {
			switch padFlag {
			case '-': // no padding, except to an explicit width
				pad, digits = ' ', 1
			case '_':
				pad = ' '
			case '0':
				pad = '0'
			}
			if width > 0 {
				digits = width
			}
			s := strconv.FormatInt(abs64(v), 10)
			if v < 0 {
				digits--
				if pad == '0' {
					b.WriteByte('-')
				} else {
					s = "-" + s
				}
			}
			if n := digits - len(s); n > 0 {
				b.WriteString(strings.Repeat(string(pad), n))
			}
			b.WriteString(s)
		}
		// str pads a text conversion; hashCase is what # does to it.
		str := func(s string, hashCase func(string) string) {
			switch {
			case upper:
				s = strings.ToUpper(s)
			case swap && hashCase != nil:
				s = hashCase(s)
			}
			if n := width - len(s); n > 0 {
				pad := " "
				if padFlag == '0' {
					pad = "0"
				}
				b.WriteString(strings.Repeat(pad, n))
			}
			b.WriteString(s)
		}
		sub := func(layout string) { str(strftime(layout, t), nil) }
		year, yday, wday := int64(t.Year()), t.YearDay()-1, int(t.Weekday())
		hour12 := t.Hour() % 12
		if hour12 == 0 {
			hour12 = 12
		}
		isoYear, isoWeek := t.ISOWeek()
		switch c := f[i]; c {
		case 'a':
			str(weekdays[wday][:3], strings.ToUpper)
		case 'A':
			str(weekdays[wday], strings.ToUpper)
		case 'b', 'h':
			str(months[t.Month()-1][:3], strings.ToUpper)
		case 'B':
			str(months[t.Month()-1], strings.ToUpper)
		case 'c':
			sub("%a %b %e %H:%M:%S %Y")
		case 'C':
			num(floorDiv(year, 100), 2, '0')
		case 'd':
			num(int64(t.Day()), 2, '0')
		case 'D', 'x':
			sub("%m/%d/%y")
		case 'e':
			num(int64(t.Day()), 2, ' ')
		case 'F':
			sub("%Y-%m-%d")
		case 'g':
			num(floorMod(int64(isoYear), 100), 2, '0')
		case 'G':
			num(int64(isoYear), 1, '0')
		case 'H':
			num(int64(t.Hour()), 2, '0')
		case 'I':
			num(int64(hour12), 2, '0')
		case 'j':
			num(int64(yday+1), 3, '0')
		case 'k':
			num(int64(t.Hour()), 2, ' ')
		case 'l':
			num(int64(hour12), 2, ' ')
		case 'm':
			num(int64(t.Month()), 2, '0')
		case 'M':
			num(int64(t.Minute()), 2, '0')
		case 'n':
			b.WriteByte('\n')
		case 'p', 'P':
			s := "AM"
			if t.Hour() >= 12 {
				s = "PM"
			}
			if c == 'P' {
				s = strings.ToLower(s)
			}
			str(s, strings.ToLower)
		case 'r':
			sub("%I:%M:%S %p")
		case 'R':
			sub("%H:%M")
		case 's':
			num(t.Unix(), 1, '0')
		case 'S':
			num(int64(t.Second()), 2, '0')
		case 't':
			b.WriteByte('\t')
		case 'T', 'X':
			sub("%H:%M:%S")
		case 'u':
			num(int64((wday+6)%7+1), 1, '0')
		case 'U':
			num(int64((yday+7-wday)/7), 2, '0')
		case 'V':
			num(int64(isoWeek), 2, '0')
		case 'w':
			num(int64(wday), 1, '0')
		case 'W':
			num(int64((yday+7-(wday+6)%7)/7), 2, '0')
		case 'y':
			num(floorMod(year, 100), 2, '0')
		case 'Y':
			digits := 1
			if padFlag == '0' {
				digits = 4
			}
			num(year, digits, '0')
		case 'z':
			_, off := t.Zone()
			sign := byte('+')
			if off < 0 {
				sign, off = '-', -off
			}
			b.WriteByte(sign)
			fmt.Fprintf(&b, "%02d%02d", off/3600, off/60%60)
		case 'Z':
			name, _ := t.Zone()
			str(name, strings.ToLower)
		case '%':
			b.WriteByte('%')
		default:
			b.WriteString(f[start : i+1])
		}
	}
	return b.String()
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

const printfHelp = `printf: printf [-v var] format [arguments]
    Formats and prints ARGUMENTS under control of the FORMAT.
    
    Options:
      -v var	assign the output to shell variable VAR rather than
    		display it on the standard output
    
    FORMAT is a character string which contains three types of objects: plain
    characters, which are simply copied to standard output; character escape
    sequences, which are converted and copied to the standard output; and
    format specifications, each of which causes printing of the next successive
    argument.
    
    In addition to the standard format specifications described in printf(1),
    printf interprets:
    
      %b	expand backslash escape sequences in the corresponding argument
      %q	quote the argument in a way that can be reused as shell input
      %Q	like %q, but apply any precision to the unquoted argument before
    		quoting
      %(fmt)T	output the date-time string resulting from using FMT as a format
    	        string for strftime(3)
    
    The format is re-used as necessary to consume all of the arguments.  If
    there are fewer arguments than the format requires,  extra format
    specifications behave as if a zero value or null string, as appropriate,
    had been supplied.
    
    Exit Status:
    Returns success unless an invalid option is given or a write or assignment
    error occurs.
`

// Echo and Printf implement bash's echo and printf builtins; runners install
// them with interp.BuiltinHandler, so a shell function named echo or printf
// still wins, and `builtin printf`/`command echo` reach them too. The
// interpreter's printf lacks most of bash's formats, and its echo writes each
// argument separately, so lines that parallel steps append to one file
// (`echo "$1" >> log`) could interleave where bash writes each line at once.

// Echo is bash's echo; `shopt -s xpg_echo` makes -e the default.
func Echo(ctx context.Context, args []string) error {
	hc := interp.HandlerCtx(ctx)
	if _, err := io.WriteString(hc.Stdout, bashEcho(args[1:], hc.BashOpt("xpg_echo"))); err != nil {
		if hc.BrokenPipe(err) {
			// bash's echo dies of SIGPIPE here, silently: the shell
			// ends with status 141 as the builtin returns.
			return interp.ExitStatus(1)
		}
		fmt.Fprintf(hc.Stderr, "echo: write error: %s\n", errnoText(err))
		return interp.ExitStatus(1)
	}
	return nil
}

// shellLocation is the time zone of the shell's %(fmt)T: bash calls tzset
// with its exported variables, so TZ counts only when exported (an empty
// or unknown zone is UTC), and without it the zone is /etc/localtime's,
// not that of jaiph's own environment.
func shellLocation(env expand.Environ) *time.Location {
	key := ""
	if env != nil {
		if v := env.Get("TZ"); v.Exported && v.IsSet() {
			key = "=" + v.String()
		}
	}
	zoneMu.Lock()
	defer zoneMu.Unlock()
	if loc, ok := zoneCache[key]; ok {
		return loc
	}
	var loc *time.Location
	if name, ok := strings.CutPrefix(key, "="); ok {
		name = strings.TrimPrefix(name, ":")
		var err error
		if loc, err = time.LoadLocation(name); err != nil || name == "" {
			loc = time.UTC
		}
	} else if data, err := os.ReadFile("/etc/localtime"); err == nil {
		if loc, err = time.LoadLocationFromTZData("Local", data); err != nil {
			loc = time.UTC
		}
	} else {
		loc = time.UTC
	}
	if len(zoneCache) > 64 {
		clear(zoneCache)
	}
	zoneCache[key] = loc
	return loc
}

var (
	zoneMu    sync.Mutex
	zoneCache = map[string]*time.Location{}
)

// printfStop is %n's assignment error that ends the shell (a readonly
// variable under errexit, a declare -i value's arithmetic error): the
// printer stops there and Printf reports it.
type printfStop struct{ err error }

func (e printfStop) Error() string { return e.err.Error() }

// percentN is the %n assignment of Printf's shell: an error that ends the
// shell is kept in *stop and stops the printer.
func percentN(hc interp.HandlerContext, stop *error) func(name, value string) error {
	return func(name, value string) error {
		err := hc.SetVar(name, value)
		if _, fatal := errors.AsType[interp.FatalAssignError](err); fatal || err != nil && hc.BashOpt("errexit") {
			*stop = err
			return printfStop{err}
		}
		return err
	}
}

// assignFailed reports the error of an assignment printf made (-v, %n)
// and returns what the builtin returns.
func assignFailed(hc interp.HandlerContext, err error) error {
	if fe, fatal := errors.AsType[interp.FatalAssignError](err); fatal {
		// bash: an arithmetic error for a declare -i variable,
		// named after printf, ends the shell; a subscript's or set -u's is
		// named after no builtin.
		if fe.Unnamed {
			fmt.Fprintf(hc.Stderr, "%v\n", err)
		} else {
			fmt.Fprintf(hc.Stderr, "printf: %v\n", err)
		}
		return err
	}
	if errors.Is(err, expand.ErrRefValue) {
		fmt.Fprintf(hc.Stderr, "printf: %v\n", err)
		return interp.ExitStatus(1)
	}
	fmt.Fprintln(hc.Stderr, err)
	// A readonly variable ends the shell under errexit, as bash's
	// err_readonly does.
	return hc.AssignFailed(err)
}

// Printf is bash's printf. `printf -v NAME FORMAT [ARGS…]` (also `-vNAME`)
// assigns the output to NAME, which may be an array element (`a[1]`), as
// an assignment at the call would (local or global, as bash does).
func Printf(ctx context.Context, args []string) error {
	hc := interp.HandlerCtx(ctx)
	args = args[1:]
	if len(args) == 0 || !strings.HasPrefix(args[0], "-v") {
		var stop error
		status := runPrintfZone(hc.Stdout, hc.Stderr, args, func() *time.Location { return shellLocation(hc.Env) }, hc.BrokenPipe, percentN(hc, &stop))
		if stop != nil {
			return assignFailed(hc, stop)
		}
		return Status(status)
	}
	name, rest := strings.TrimPrefix(args[0], "-v"), args[1:]
	if name == "" {
		if len(rest) == 0 {
			fmt.Fprintf(hc.Stderr, "printf: -v: option requires an argument\n%s\n", printfUsage)
			return interp.ExitStatus(2)
		}
		name, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 && rest[0] == "--" {
		rest = rest[1:]
	}
	if !isVarRef(name) {
		fmt.Fprintf(hc.Stderr, "printf: `%s': not a valid identifier\n", name)
		return interp.ExitStatus(2)
	}
	var out strings.Builder
	var stop error
	status := runPrintfZone(&out, hc.Stderr, rest, func() *time.Location { return shellLocation(hc.Env) }, nil, percentN(hc, &stop))
	if stop != nil {
		return assignFailed(hc, stop)
	}
	if status == 2 {
		return interp.ExitStatus(2)
	}
	if err := hc.SetVar(name, out.String()); err != nil {
		return assignFailed(hc, err)
	}
	return Status(status)
}

// isVarRef reports whether s is a variable name or an array element
// reference NAME[SUBSCRIPT], as `printf -v` and `read` accept.
func isVarRef(s string) bool {
	if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") && len(s) > i+2 {
		return isIdentifier(s[:i])
	}
	return isIdentifier(s)
}

// handlerStderr is the interpreter's stderr for a call handler, or nowhere
// outside a runner.
func handlerStderr(ctx context.Context) (w io.Writer) {
	defer func() {
		if recover() != nil {
			w = io.Discard
		}
	}()
	if w = interp.HandlerCtx(ctx).Stderr; w == nil {
		w = io.Discard
	}
	return w
}
