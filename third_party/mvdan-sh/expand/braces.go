// Copyright (c) 2018, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// Braces performs brace expansion on a word, given that it contains any
// [syntax.BraceExp] parts. For example, the word with a brace expansion
// "foo{bar,baz}" will return two literal words, "foobar" and "foobaz".
//
// Note that the resulting words may share word parts.
//
// Deprecated: use [BracesSeq], which yields words lazily and reports an
// error rather than letting a large sequence allocate huge amounts.
func Braces(word *syntax.Word) []*syntax.Word {
	var all []*syntax.Word
	bracesSeqRec(word, func(w *syntax.Word) bool {
		w.Parts = joinBraceNames(w.Parts)
		all = append(all, w)
		return true
	})
	return all
}

// joinBraceNames makes a word brace expansion produced read as bash reads
// the text it produces (jaiph-go patch): a `$name` that the expansion put
// before letters, digits or underscores takes them into its name, so
// `{$v,w}_x` gives `$v_x` and `w_x`. Such a pair never comes from the
// parser, which reads the whole name.
func joinBraceNames(parts []syntax.WordPart) []syntax.WordPart {
	// adjacent literals as one, as in the text; empty ones (left by
	// the braces) dropped, so that `{$u,w}` of an unset u is no field
	var merged []syntax.WordPart
	for _, wp := range parts {
		if l, ok := wp.(*syntax.Lit); ok && l.Value == "" {
			continue
		}
		if l, ok := wp.(*syntax.Lit); ok && len(merged) > 0 {
			if prev, ok := merged[len(merged)-1].(*syntax.Lit); ok {
				merged[len(merged)-1] = &syntax.Lit{ValuePos: prev.ValuePos, ValueEnd: l.ValueEnd, Value: prev.Value + l.Value}
				continue
			}
		}
		merged = append(merged, wp)
	}
	var out []syntax.WordPart
	for i := 0; i < len(merged); i++ {
		pe, ok := merged[i].(*syntax.ParamExp)
		var l *syntax.Lit
		if ok && i+1 < len(merged) {
			l, _ = merged[i+1].(*syntax.Lit)
		}
		n := 0
		for l != nil && n < len(l.Value) && (l.Value[n] == '_' || l.Value[n] >= '0' && l.Value[n] <= '9' ||
			l.Value[n] >= 'a' && l.Value[n] <= 'z' || l.Value[n] >= 'A' && l.Value[n] <= 'Z') {
			n++
		}
		if n == 0 || !pe.Short || pe.Param == nil || !syntax.ValidName(pe.Param.Value) {
			out = append(out, merged[i])
			continue
		}
		joined := *pe
		joined.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: pe.Param.Value + l.Value[:n]}
		out = append(out, &joined)
		if n < len(l.Value) {
			out = append(out, &syntax.Lit{ValuePos: l.ValuePos, ValueEnd: l.ValueEnd, Value: l.Value[n:]})
		}
		i++
	}
	return out
}

// BraceLimit is the most words one brace expansion makes (jaiph-go
// patch: upstream's 16Ki made {1..20000} fail, where bash expands it).
// Bash has no limit but its memory: it takes 1.1 GB for four million
// words, so past this one it needs more than 4 GB and, short of it, ends
// with its xmalloc error; jaiph ends the run with [ErrBraceLimit].
const BraceLimit = 1 << 24

// ErrBraceLimit is the fatal error of a brace expansion of more than
// [BraceLimit] words (jaiph-go patch).
var ErrBraceLimit = fmt.Errorf("brace expansion would make more than %d words", BraceLimit)

// BracesSeq performs brace expansion on a word, given that it contains any
// [syntax.BraceExp] parts. For example, the word with a brace expansion
// "foo{bar,baz}" will return two literal words, "foobar" and "foobaz".
//
// The iteration yields only [ErrBraceLimit] if the total expansion is too
// large, including combinatorial blow-ups across multiple brace expansions
// like {1..100}{1..100}{1..100}; the cfg parameter is unused for now.
//
// Note that the resulting words may share word parts.
func BracesSeq(cfg *Config, word *syntax.Word) iter.Seq2[*syntax.Word, error] {
	return func(yield func(*syntax.Word, error) bool) {
		if braceCount(word.Parts) > BraceLimit {
			// counted first: nothing is made of an expansion that fails
			yield(nil, ErrBraceLimit)
			return
		}
		bracesSeqRec(word, func(w *syntax.Word) bool {
			w.Parts = joinBraceNames(w.Parts)
			return yield(w, nil)
		})
	}
}

// braceCount is how many words [bracesSeqRec] yields for parts: the
// product of each brace expansion's count (a sequence's length, or the sum
// of its elements' counts), saturating past the limit.
func braceCount(parts []syntax.WordPart) uint64 {
	total := uint64(1)
	for _, wp := range parts {
		br, ok := wp.(*syntax.BraceExp)
		if !ok {
			continue
		}
		var n uint64
		if br.Sequence {
			n = seqLen(br)
		} else {
			for _, elem := range br.Elems {
				n = min(n+braceCount(elem.Parts), braceCountCap)
			}
		}
		if n != 0 && total > braceCountCap/n {
			return braceCountCap
		}
		total *= n
	}
	return total
}

// braceCountCap is where braceCount stops counting: beyond any limit.
const braceCountCap = 1 << 62

// seqLen is how many words the sequence {from..to..incr} makes, read as
// bracesSeqRec reads it.
func seqLen(br *syntax.BraceExp) uint64 {
	fromLit, toLit := br.Elems[0].Lit(), br.Elems[1].Lit()
	from, err1 := strconv.ParseInt(fromLit, 10, 64)
	to, err2 := strconv.ParseInt(toLit, 10, 64)
	if err1 != nil || err2 != nil {
		from, to = int64(fromLit[0]), int64(toLit[0])
	}
	incr := uint64(1)
	if len(br.Elems) > 2 {
		n, _ := strconv.ParseInt(br.Elems[2].Lit(), 10, 64)
		if n < 0 {
			n = -n
		}
		if n != 0 {
			incr = uint64(n)
		}
	}
	span := uint64(to) - uint64(from) // two's complement: exact for to >= from
	if from > to {
		span = uint64(from) - uint64(to)
	}
	return min(span/incr+1, braceCountCap)
}

// bracesSeqRec yields each fully-expanded word descended from word.
// It returns false if iteration should stop.
func bracesSeqRec(word *syntax.Word, yield func(*syntax.Word) bool) bool {
	var left []syntax.WordPart
	for i, wp := range word.Parts {
		br, ok := wp.(*syntax.BraceExp)
		if !ok {
			left = append(left, wp)
			continue
		}
		rest := word.Parts[i+1:]
		// Yield each word produced by recursing on `next`,
		// after prepending `left` to its Parts.
		expand := func(next *syntax.Word) bool {
			return bracesSeqRec(next, func(w *syntax.Word) bool {
				w.Parts = slices.Concat(left, w.Parts)
				return yield(w)
			})
		}
		if br.Sequence {
			fromLit := br.Elems[0].Lit()
			toLit := br.Elems[1].Lit()

			chars := false
			// ParseInt with bit size 64 to ensure consistent behavior on 32-bit platforms.
			from, err1 := strconv.ParseInt(fromLit, 10, 64)
			to, err2 := strconv.ParseInt(toLit, 10, 64)
			if err1 != nil || err2 != nil {
				chars = true
				from = int64(fromLit[0])
				to = int64(toLit[0])
			}
			// Endpoints with leading zeros pad all results to the
			// widest endpoint, e.g. {01..10} gives 01 02 [...] 09 10.
			width := 0
			if !chars && (hasLeadingZeros(fromLit) || hasLeadingZeros(toLit)) {
				width = max(len(fromLit), len(toLit))
			}
			upward := from <= to
			incr := int64(1)
			if len(br.Elems) > 2 {
				// ParseInt with bit size 64 to ensure consistent behavior on 32-bit platforms.
				n, _ := strconv.ParseInt(br.Elems[2].Lit(), 10, 64)
				if n < 0 {
					n = -n // only the absolute value of the step matters
				}
				if n != 0 {
					incr = n
				}
			}
			if !upward {
				incr = -incr
			}
			for n := from; (upward && n <= to) || (!upward && n >= to); n += incr {
				next := *word
				lit := &syntax.Lit{}
				switch {
				case chars:
					lit.Value = string(rune(n))
				case width > 0:
					lit.Value = fmt.Sprintf("%0*d", width, n)
				default:
					lit.Value = strconv.FormatInt(n, 10)
				}
				var part syntax.WordPart = lit
				if chars && n == '\\' {
					// jaiph-go patch: as in bash, the backslash of
					// {Z..a} quotes nothing and is removed, leaving an
					// empty (quoted) word.
					part = &syntax.SglQuoted{}
				}
				next.Parts = append([]syntax.WordPart{part}, rest...)
				if !expand(&next) {
					return false
				}
			}
			return true
		}
		for _, elem := range br.Elems {
			next := *word
			next.Parts = slices.Concat(elem.Parts, rest)
			if !expand(&next) {
				return false
			}
		}
		return true
	}
	return yield(&syntax.Word{Parts: left})
}

func hasLeadingZeros(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}
