// jaiph-go patch: bash's ${v#p} ${v%p} ${v/p/s} searches, over the
// matcher in gmatch.go, for the patterns UseGmatch gives it.

package internal

import (
	"strings"
	"unicode/utf8"
)

// UseGmatch reports whether pat is matched by [Gmatch], as bash does,
// rather than through a regular expression: when it holds an extended
// group's operator and '(' and ext is on (a regular expression cannot
// say bash's * before a group), or a character class, collating symbol
// or equivalence class (bash's classes know every Unicode character,
// Go's [[:alpha:]] only ASCII; [[.hyphen.]] names a character). An escaped
// character is skipped; a group or class inside a bracket expression
// counts too, which only costs speed.
func UseGmatch(pat string, ext bool) bool {
	if !utf8.ValidString(pat) {
		return true // matched byte by byte, as bash
	}
	for i := 0; i+1 < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '?', '*', '+', '@', '!':
			if ext && pat[i+1] == '(' {
				return true
			}
		case '[':
			if c := pat[i+1]; c == ':' || c == '.' || c == '=' {
				return true
			}
		}
	}
	return false
}

// UseGmatchSearch is [UseGmatch] for ${v/p/s}'s search, which bash
// starts by matching the pattern with a * around it: with ext on, a
// pattern starting with '(' makes that * a group's operator.
func UseGmatchSearch(pat string, ext bool) bool {
	return UseGmatch(pat, ext) || ext && strings.HasPrefix(pat, "(")
}

// subject is a string as bash's pattern searches see it: characters when
// the string and the pattern are valid UTF-8, bytes otherwise; offs maps
// a character index to its byte offset (len(offs) == len(s)+1).
type subject struct {
	m    sm
	offs []int
	wide bool // bash's wide-character search (match_wpattern)
}

func newSubject(pat, str string, ext, fold bool, done <-chan struct{}) subject {
	m := sm{ext: ext, fold: fold, done: done}
	m.p, m.s, m.bytes = chars(pat, str)
	offs := make([]int, 0, len(m.s)+1)
	if len(m.s) == len(str) {
		for i := range len(str) + 1 {
			offs = append(offs, i)
		}
	} else {
		for i := range str {
			offs = append(offs, i)
		}
		offs = append(offs, len(str))
	}
	return subject{m: m, offs: offs}
}

// matches is strmatch of the whole pattern against characters lo to hi.
func (x *subject) matches(lo, hi int) bool {
	return x.m.gmatch(lo, hi, 0, len(x.m.p), nil) == 0
}

// RemovePattern is bash's remove_pattern: str without the shortest or
// longest prefix (or suffix, fromEnd) that pat matches. Once done is
// closed it gives up (see [NewGmatch]).
func RemovePattern(str, pat string, fromEnd, shortest, ext bool, done <-chan struct{}) string {
	if str == "" || pat == "" {
		return str
	}
	x := newSubject(pat, str, ext, false, done)
	n := len(x.m.s)
	for i := 0; i <= n && !x.m.stopped; i++ {
		k := i // the prefix's or suffix's length, shortest first
		if !shortest {
			k = n - i
		}
		if fromEnd && x.matches(n-k, n) {
			return str[:x.offs[n-k]]
		}
		if !fromEnd && x.matches(0, k) {
			return str[x.offs[k]:]
		}
	}
	return str
}

// Where a search is anchored: bash's MATCH_ANY, MATCH_BEG, MATCH_END.
const (
	MatchAny = iota
	MatchBeg
	MatchEnd
)

// PatternMatch is bash's match_pattern: the byte offsets of the match of
// pat in str that ${v/p/s} (mtype MatchAny), ${v/#p/s} (MatchBeg) or
// ${v/%p/s} (MatchEnd) replaces: the leftmost start whose first character
// can begin a match, the longest match there. mlen is the number of
// characters bash takes the pattern to match, -1 when it varies.
//
// As bash, the search is first made with a * added around the pattern,
// and gives up when that does not match the whole string; a string of
// ASCII characters only adds the * on the side the anchor leaves open.
// Once done is closed it gives up (see [NewGmatch]).
func PatternMatch(str, pat string, mtype int, ext, fold bool, mlen int, done <-chan struct{}) (int, int, bool) {
	if pat == "" {
		return 0, 0, false
	}
	// bash's byte search for ASCII text or text that is no valid UTF-8
	wide := (!ascii(str) || !ascii(pat)) && utf8.ValidString(str) && utf8.ValidString(pat)
	npat := pat
	starGroup := ext && len(pat) > 1 && pat[0] == '*' && pat[1] == '('
	if pat[0] != '*' || starGroup || pat[len(pat)-1] != '*' {
		npat = ""
		if (wide || mtype != MatchBeg) && (pat[0] != '*' || starGroup) {
			npat = "*"
		}
		npat += pat
		if wide || mtype != MatchEnd {
			if pat[len(pat)-1] == '*' {
				// a trailing \* is an escaped one: another * goes after it
				odd := false
				for i := len(pat) - 2; i >= 0 && pat[i] == '\\'; i-- {
					odd = !odd
				}
				if odd {
					npat += "*"
				}
			} else {
				npat += "*"
			}
		}
	}
	if !NewGmatch(npat, ext, fold, false, done).Match(str) {
		return 0, 0, false
	}
	x := newSubject(pat, str, ext, fold, done)
	x.wide = wide
	n := len(x.m.s)
	if mlen > n {
		return 0, 0, false
	}
	switch mtype {
	case MatchAny:
		for i := 0; i <= n && !x.m.stopped; i++ {
			if !x.canStart(i) {
				continue
			}
			j := n
			if mlen >= 0 {
				j = i + mlen
			}
			if j > n {
				break
			}
			for ; j >= i; j-- {
				if x.matches(i, j) {
					return x.offs[i], x.offs[j], true
				}
				if mlen >= 0 {
					break
				}
			}
		}
	case MatchBeg:
		if !x.canStart(0) {
			return 0, 0, false
		}
		j := n
		if mlen >= 0 {
			j = mlen
		}
		for ; j >= 0; j-- {
			if x.matches(0, j) {
				return 0, x.offs[j], true
			}
			if mlen >= 0 {
				break
			}
		}
	case MatchEnd:
		i := 0
		if mlen >= 0 {
			i = n - mlen
		}
		for ; i <= n && !x.m.stopped; i++ {
			if x.matches(i, n) {
				return x.offs[i], x.offs[n], true
			}
			if mlen >= 0 {
				break
			}
		}
	}
	return 0, 0, false
}

// canStart is bash's match_pattern_char: whether a match could start at
// character i, judged by the pattern's first character.
func (x *subject) canStart(i int) bool {
	m := &x.m
	if i >= len(m.s) {
		return m.pc(0) == '*'
	}
	sc := m.foldc(m.s[i])
	switch c := m.pc(0); c {
	case '\\':
		return sc == m.foldc(m.pc(1))
	case '?', '*':
		return true
	case '+', '!', '@':
		// bash's wide search takes a group for one only with extglob on
		return m.pc(1) == '(' && (m.ext || !x.wide) || sc == m.foldc(c)
	case '[':
		return true
	default:
		return sc == m.foldc(c)
	}
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
