package shellbuiltin

import (
	"strconv"
	"strings"
)

// bashEcho formats like bash's echo builtin: leading options made only of
// n, e and E; -e (the default when xpg is set, as by `shopt -s xpg_echo`)
// expands backslash escapes, where \c ends the output.
func bashEcho(args []string, xpg bool) string {
	newline, escapes := true, xpg
	for len(args) > 0 && isEchoOptions(args[0]) {
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !escapes {
			b.WriteString(a)
			continue
		}
		if stop := echoEscapes(&b, a); stop {
			return b.String()
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	return b.String()
}

func isEchoOptions(a string) bool {
	if len(a) < 2 || a[0] != '-' {
		return false
	}
	for _, c := range a[1:] {
		if c != 'n' && c != 'e' && c != 'E' {
			return false
		}
	}
	return true
}

// echoEscapes writes s with echo -e escapes expanded; it reports \c.
func echoEscapes(b *strings.Builder, s string) (stop bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'c':
			return true
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\':
			b.WriteByte('\\')
		case '0':
			n, j := digits(s, i+1, 3, 8)
			b.WriteByte(byte(n))
			i = j - 1
		case 'x':
			n, j := digits(s, i+1, 2, 16)
			if j == i+1 {
				b.WriteString(`\x`)
				continue
			}
			b.WriteByte(byte(n))
			i = j - 1
		case 'u', 'U':
			max := 4
			if s[i] == 'U' {
				max = 8
			}
			n, j := digits(s, i+1, max, 16)
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(s[i])
				continue
			}
			// As printf's \u/\U: bash's encoding, surrogates and values
			// past U+10FFFF included (WriteRune made them U+FFFD).
			b.WriteString(u32ToUTF8(uint32(n)))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return false
}

// digits reads up to max digits of base from s[i:]; it returns the value
// and the index after them.
func digits(s string, i, max, base int) (int, int) {
	j := i
	for j < len(s) && j-i < max {
		if _, err := strconv.ParseUint(s[j:j+1], base, 8); err != nil {
			break
		}
		j++
	}
	if j == i {
		return 0, i
	}
	n, _ := strconv.ParseUint(s[i:j], base, 32)
	return int(n), j
}
