// jaiph-go patch: bash's character classes in a UTF-8 locale.

package internal

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// isCClass is bash's character class test in jaiph's locale, C.UTF-8
// (glibc's classes, from Unicode's properties); a name that is no class
// matches nothing.
func isCClass(c rune, name string) bool {
	switch name {
	case "alpha":
		return isAlpha(c)
	case "upper":
		return unicode.ToLower(c) != c || unicode.IsUpper(c) || unicode.Is(unicode.Other_Uppercase, c)
	case "lower":
		return unicode.ToUpper(c) != c || unicode.IsLower(c) || unicode.Is(unicode.Other_Lowercase, c)
	case "digit":
		return isDigit(c)
	case "xdigit":
		return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	case "alnum":
		return isAlpha(c) || isDigit(c)
	case "word":
		return isAlpha(c) || isDigit(c) || c == '_'
	case "space":
		return isSpace(c)
	case "blank":
		return c == '\t' || unicode.Is(unicode.Zs, c) && !noBreak(c)
	case "punct":
		return isPrint(c) && !isSpace(c) && !isAlpha(c) && !isDigit(c)
	case "print":
		return isPrint(c)
	case "graph":
		return isPrint(c) && !isSpace(c)
	case "cntrl":
		return unicode.IsControl(c) || unicode.In(c, unicode.Zl, unicode.Zp)
	case "ascii":
		return c < utf8.RuneSelf
	}
	return false
}

func isDigit(c rune) bool { return c >= '0' && c <= '9' }

// isAlpha is Unicode's Alphabetic property, and the digits beyond ASCII
// (glibc counts them as letters so that alnum holds them).
func isAlpha(c rune) bool {
	return unicode.IsLetter(c) || unicode.In(c, unicode.Nl, unicode.Other_Alphabetic) ||
		unicode.Is(unicode.Nd, c) && !isDigit(c)
}

// isSpace: ASCII's, and Unicode's separators but the no-break ones.
func isSpace(c rune) bool {
	return c == ' ' || c >= '\t' && c <= '\r' || unicode.In(c, unicode.Zs, unicode.Zl, unicode.Zp) && !noBreak(c)
}

func noBreak(c rune) bool { return c == 0xa0 || c == 0x2007 || c == 0x202f }

// isPrint: an assigned character (private use included) that is no
// control and no line or paragraph separator.
func isPrint(c rune) bool {
	return unicode.In(c, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs, unicode.Co, unicode.Cf)
}

// classRanges holds, by class name, the text nonASCIIRanges made.
var classRanges sync.Map

// nonASCIIRanges is the bracket-expression text of the characters beyond
// ASCII in bash's class name, made once per class (a scan of every
// character, a few tens of milliseconds).
func nonASCIIRanges(name string) string {
	if s, ok := classRanges.Load(name); ok {
		return s.(string)
	}
	var sb strings.Builder
	start, in := rune(0), false
	for c := rune(utf8.RuneSelf); c <= unicode.MaxRune+1; c++ {
		ok := c <= unicode.MaxRune && isCClass(c, name)
		if ok && !in {
			start, in = c, true
		} else if !ok && in {
			in = false
			if start == c-1 {
				fmt.Fprintf(&sb, `\x{%x}`, start)
			} else {
				fmt.Fprintf(&sb, `\x{%x}-\x{%x}`, start, c-1)
			}
		}
	}
	classRanges.Store(name, sb.String())
	return sb.String()
}
