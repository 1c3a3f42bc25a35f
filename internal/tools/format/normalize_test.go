package format_test

import (
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// normalizeShell removes from shell text what bash ignores and the
// formatter may change, and nothing else, so that the lowered shell of a
// file and of its formatted text can be compared. Which lines lie inside
// strings, words and here-documents comes from bash's grammar (the
// mvdan.cc/sh parser), not from the formatter's own scanner. Outside them:
//
//   - leading blanks go: bash skips blanks before a word. After a
//     backslash-newline that follows a non-blank they separate two words,
//     so a non-empty run becomes one blank (its length does not matter);
//   - trailing blanks go unless a backslash escapes the last one: they
//     only end the last word;
//   - empty lines go, except one after a backslash-newline, which ends the
//     command: an empty line is a newline token, and one between already
//     separated commands or list parts adds nothing.
//
// Text bash cannot parse comes back as it is.
func normalizeShell(src string) string {
	f, err := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return src
	}
	var strs, words, comments []span // byte ranges of strings and here-documents, words, comments
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			strs = append(strs, span{n.Pos().Offset(), n.End().Offset()})
		case *syntax.Lit:
			words = append(words, span{n.Pos().Offset(), n.End().Offset()})
		case *syntax.Redirect:
			if n.Hdoc != nil { // the body and the delimiter line after it
				end := n.Hdoc.End().Offset()
				if i := strings.IndexByte(src[end:], '\n'); i >= 0 {
					end += uint(i)
				} else {
					end = uint(len(src))
				}
				strs = append(strs, span{n.Hdoc.Pos().Offset(), end + 1})
			}
		case *syntax.Comment:
			comments = append(comments, span{n.Pos().Offset(), n.End().Offset()})
		}
		return true
	})
	var out []string
	off := uint(0)
	cont, glued := false, false
	for _, line := range strings.Split(src, "\n") {
		start := off
		off += uint(len(line)) + 1
		wasCont, wasGlued := cont, glued
		t := strings.TrimRight(line, " \t")
		last := start + uint(len(t)) - 1 // the last non-blank byte
		cont = t == line && oddBackslashes(t) && !within(strs, last) && !within(comments, last)
		glued = cont && len(t) > 1 && t[len(t)-2] != ' ' && t[len(t)-2] != '\t'
		// Trailing blanks outside strings and not escaped only end a word.
		if !oddBackslashes(t) && !within(strs, last+1) {
			line = t
		}
		if line != "" && (within(strs, start) || within(words, start)) && !startsAt(strs, words, start) {
			out = append(out, line) // starts inside a string, here-document or word
			continue
		}
		body := strings.TrimLeft(line, " \t")
		switch {
		case wasCont && wasGlued && body != line && body != "":
			body = " " + body
		case body == "" && !wasCont:
			continue
		}
		out = append(out, body)
	}
	return strings.Join(out, "\n")
}

type span struct{ from, to uint }

// within reports whether offset off lies in one of the spans.
func within(spans []span, off uint) bool {
	for _, s := range spans {
		if s.from <= off && off < s.to {
			return true
		}
	}
	return false
}

// startsAt reports whether a string or word starts exactly at off (the
// line has no leading blank to remove then, and its text is kept).
func startsAt(strs, words []span, off uint) bool {
	for _, s := range append(strs, words...) {
		if s.from == off {
			return true
		}
	}
	return false
}

func oddBackslashes(s string) bool {
	n := 0
	for n < len(s) && s[len(s)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}
