// Copyright (c) 2018, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package syntax

import (
	"slices"
	"strconv"
	"strings"
)

var (
	litLeftBrace  = &Lit{Value: "{"}
	litComma      = &Lit{Value: ","}
	litDots       = &Lit{Value: ".."}
	litRightBrace = &Lit{Value: "}"}
)

// SplitBraces parses brace expansions within a word's literal parts.
// If any valid brace expansions are found, they are replaced with BraceExp nodes,
// and the function returns true.
// Otherwise, the word is left untouched and the function returns false.
//
// For example, a literal word "foo{bar,baz}" will result in a word containing
// the literal "foo", and a brace expansion with the elements "bar" and "baz".
//
// It does not return an error; malformed brace expansions are simply skipped.
// For example, the literal word "a{b" is left unchanged.
func SplitBraces(word *Word) bool {
	if !slices.ContainsFunc(word.Parts, func(part WordPart) bool {
		lit, ok := part.(*Lit)
		return ok && strings.Contains(lit.Value, "{")
	}) {
		// In the common case where a word has no braces, skip any allocs.
		return false
	}
	top := &Word{}
	acc := top
	var cur *BraceExp
	var open []*BraceExp

	pop := func() *BraceExp {
		old := cur
		open = open[:len(open)-1]
		if len(open) == 0 {
			cur = nil
			acc = top
		} else {
			cur = open[len(open)-1]
			acc = cur.Elems[len(cur.Elems)-1]
		}
		return old
	}
	addLit := func(lit *Lit) {
		acc.Parts = append(acc.Parts, lit)
	}

	for _, wp := range word.Parts {
		lit, ok := wp.(*Lit)
		if !ok {
			acc.Parts = append(acc.Parts, wp)
			continue
		}
		last := 0
		for j := 0; j < len(lit.Value); j++ {
			addlitidx := func() {
				if last == j {
					return // empty lit
				}
				l2 := *lit
				l2.Value = l2.Value[last:j]
				addLit(&l2)
			}
			switch lit.Value[j] {
			case '\\':
				j++
				continue
			case '{':
				addlitidx()
				acc = &Word{}
				cur = &BraceExp{Elems: []*Word{acc}}
				open = append(open, cur)
			case ',':
				if cur == nil {
					continue
				}
				addlitidx()
				if cur.Sequence {
					// A comma inside a sequence like {1..2,3} makes it
					// a list expansion where the ".." are literal.
					merged := cur.Elems[0]
					for _, elem := range cur.Elems[1:] {
						merged.Parts = append(merged.Parts, litDots)
						merged.Parts = append(merged.Parts, elem.Parts...)
					}
					cur.Sequence = false
					cur.Elems = cur.Elems[:1]
					cur.Elems[0] = merged
				}
				acc = &Word{}
				cur.Elems = append(cur.Elems, acc)
			case '.':
				if cur == nil {
					continue
				}
				if j+1 >= len(lit.Value) || lit.Value[j+1] != '.' {
					continue
				}
				if !cur.Sequence && len(cur.Elems) > 1 {
					// ".." inside a list expansion like {1,2..3} is literal.
					continue
				}
				addlitidx()
				cur.Sequence = true
				acc = &Word{}
				cur.Elems = append(cur.Elems, acc)
				j++
			case '}':
				if cur == nil {
					continue
				}
				addlitidx()
				br := pop()
				if len(br.Elems) == 1 {
					// return {x} to a non-brace
					addLit(litLeftBrace)
					acc.Parts = append(acc.Parts, br.Elems[0].Parts...)
					addLit(litRightBrace)
					break
				}
				if !br.Sequence {
					acc.Parts = append(acc.Parts, br)
					break
				}
				var chars [2]bool
				broken := false
				for i, elem := range br.Elems[:2] {
					val := elem.Lit()
					// ParseInt with bit size 64 to ensure consistent behavior on 32-bit platforms.
					if _, err := strconv.ParseInt(val, 10, 64); err == nil {
					} else if len(val) == 1 && asciiLetter(val[0]) {
						chars[i] = true
					} else {
						broken = true
					}
				}
				if len(br.Elems) == 3 {
					// increment must be a number
					val := br.Elems[2].Lit()
					// ParseInt with bit size 64 to ensure consistent behavior on 32-bit platforms.
					if _, err := strconv.ParseInt(val, 10, 64); err != nil {
						broken = true
					}
				} else if len(br.Elems) > 3 {
					// sequences like {1..2..3..4} are literal in bash
					broken = true
				}
				// are start and end both chars or
				// non-chars?
				if chars[0] != chars[1] {
					broken = true
				}
				if !broken {
					acc.Parts = append(acc.Parts, br)
					break
				}
				if brokenSeqCandidate(br) {
					// Bash 5.2 chose this brace as an expansion (a ".." not
					// right before its "}"), failed to read a sequence, and
					// then looked for a comma anywhere in the text between
					// the braces, nested braces and expansions included. With
					// one, the text is a list of one element: the braces go
					// and what is inside expands. Without, the whole text
					// stays as written, nested braces unexpanded:
					// {1..{a,b}} is "1..a 1..b", {{1..2}..3} is itself.
					if slices.ContainsFunc(br.Elems, func(w *Word) bool { return partsHaveComma(w.Parts) }) {
						for i, elem := range br.Elems {
							if i > 0 {
								addLit(litDots)
							}
							acc.Parts = append(acc.Parts, elem.Parts...)
						}
						break
					}
					acc.Parts = append(acc.Parts, unbrace(br)...)
					break
				}
				// return broken {x..y[..incr]} to a non-brace
				addLit(litLeftBrace)
				for i, elem := range br.Elems {
					if i > 0 {
						addLit(litDots)
					}
					acc.Parts = append(acc.Parts, elem.Parts...)
				}
				addLit(litRightBrace)
			default:
				continue
			}
			last = j + 1
		}
		if last == 0 {
			addLit(lit)
		} else {
			left := *lit
			left.Value = left.Value[last:]
			addLit(&left)
		}
	}
	// open braces that were never closed fall back to non-braces
	for acc != top {
		br := pop()
		addLit(litLeftBrace)
		for i, elem := range br.Elems {
			if i > 0 {
				if br.Sequence {
					addLit(litDots)
				} else {
					addLit(litComma)
				}
			}
			acc.Parts = append(acc.Parts, elem.Parts...)
		}
	}
	*word = *top
	return true
}

// brokenSeqCandidate reports whether bash 5.2 would have taken the braces of
// a sequence that failed to parse as an expansion at all: it does when some
// ".." between them is not directly before the closing brace, so {{a,b}..}
// is not one and its inner list still expands.
func brokenSeqCandidate(br *BraceExp) bool {
	if len(br.Elems) > 2 {
		return true
	}
	last := br.Elems[len(br.Elems)-1]
	if len(last.Parts) > 0 {
		return true
	}
	return false
}

// partsHaveComma reports whether the source text of parts holds a comma not
// escaped by a backslash, inside quotes and expansions too: bash 5.2's scan of
// a failed sequence's text looks at the characters alone.
func partsHaveComma(parts []WordPart) bool {
	for _, part := range parts {
		switch part := part.(type) {
		case *Lit:
			if textHasComma(part.Value) {
				return true
			}
		case *SglQuoted:
			if textHasComma(part.Value) {
				return true
			}
		case *DblQuoted:
			if partsHaveComma(part.Parts) {
				return true
			}
		case *BraceExp:
			if !part.Sequence && len(part.Elems) > 1 {
				return true
			}
			if slices.ContainsFunc(part.Elems, func(w *Word) bool { return partsHaveComma(w.Parts) }) {
				return true
			}
		default:
			var sb strings.Builder
			if err := NewPrinter().Print(&sb, part); err == nil && textHasComma(sb.String()) {
				return true
			}
		}
	}
	return false
}

func textHasComma(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case ',':
			return true
		}
	}
	return false
}

// unbrace returns a brace expansion to the literal text it was read from.
func unbrace(br *BraceExp) []WordPart {
	sep := litComma
	if br.Sequence {
		sep = litDots
	}
	parts := []WordPart{litLeftBrace}
	for i, elem := range br.Elems {
		if i > 0 {
			parts = append(parts, sep)
		}
		for _, p := range elem.Parts {
			if inner, ok := p.(*BraceExp); ok {
				parts = append(parts, unbrace(inner)...)
				continue
			}
			parts = append(parts, p)
		}
	}
	return append(parts, litRightBrace)
}
