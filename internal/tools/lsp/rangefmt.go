package lsp

import "strings"

type DocumentRangeFormattingParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
}

// formatRange formats the lines of the range. A fragment cannot be
// formatted alone (the formatter reads the whole module: it moves imports,
// config, channels and locals to the head and indents a line by the body
// it is in), so this formats the whole document, compares it line by line
// with the buffer and returns the changed runs of lines that lie wholly
// within the range's lines (a run changed line for line, one line at a
// time); a change reaching outside them (a declaration moved to the head,
// say) is left out, so no edit touches a line outside the range.
func (s *server) formatRange(p DocumentRangeFormattingParams) (any, error) {
	src, out, err := s.formatted(pathOf(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	first, last := p.Range.Start.Line, p.Range.End.Line
	if last > first && p.Range.End.Character == 0 {
		last-- // a selection of whole lines ends at the start of the next
	}
	old, new := lines(string(src)), lines(string(out))
	t := newText(string(src))
	edits := []TextEdit{}
	var hunks []hunk
	for _, h := range lineDiff(old, new) {
		// A run of lines changed one for one (reindented) is one edit a
		// line, so that a range holding some of them formats those.
		if h.a2-h.a1 == h.b2-h.b1 {
			for i := 0; i < h.a2-h.a1; i++ {
				hunks = append(hunks, hunk{h.a1 + i, h.a1 + i + 1, h.b1 + i, h.b1 + i + 1})
			}
			continue
		}
		hunks = append(hunks, h)
	}
	for _, h := range hunks {
		// A hunk replaces the old lines [a1, a2); an insertion (a1 == a2)
		// goes before line a1, which must be in the range too.
		if h.a1 < first || h.a1 > last || h.a2 > last+1 {
			continue
		}
		// The old lines end at a2's start, or at the end of the last line
		// when it has no newline.
		end := Position{Line: h.a2}
		if h.a2 == len(old) && !strings.HasSuffix(old[len(old)-1], "\n") {
			end = t.pos(h.a2-1, len(t.line(h.a2-1)))
		}
		start := Position{Line: h.a1}
		if h.a1 == len(old) && h.a1 > 0 && !strings.HasSuffix(old[h.a1-1], "\n") {
			start = end // after a last line without a newline
		}
		edits = append(edits, TextEdit{Range: Range{Start: start, End: end}, NewText: strings.Join(new[h.b1:h.b2], "")})
	}
	return edits, nil
}

// hunk replaces the old lines [a1, a2) with the new lines [b1, b2).
type hunk struct{ a1, a2, b1, b2 int }

// lineDiff returns the hunks that turn a into b: their longest common
// subsequence of lines is kept (past the common head and tail, a middle
// too large for it is one hunk).
func lineDiff(a, b []string) []hunk {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma) == 0 && len(mb) == 0 {
		return nil
	}
	if len(ma)*len(mb) > 4_000_000 {
		return []hunk{{pre, len(a) - suf, pre, len(b) - suf}}
	}
	// lcs[i][j]: the longest common subsequence of ma[i:] and mb[j:].
	lcs := make([][]int32, len(ma)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(mb)+1)
	}
	for i := len(ma) - 1; i >= 0; i-- {
		for j := len(mb) - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []hunk
	i, j := 0, 0
	cur := hunk{-1, 0, 0, 0}
	flush := func() {
		if cur.a1 >= 0 {
			cur.a2, cur.b2 = pre+i, pre+j
			out = append(out, cur)
			cur.a1 = -1
		}
	}
	open := func() {
		if cur.a1 < 0 {
			cur = hunk{a1: pre + i, b1: pre + j}
		}
	}
	for i < len(ma) || j < len(mb) {
		switch {
		case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
			flush()
			i++
			j++
		case j < len(mb) && (i == len(ma) || lcs[i][j+1] >= lcs[i+1][j]):
			open()
			j++
		default:
			open()
			i++
		}
	}
	flush()
	return out
}

// lines splits s after each newline (no empty last line after the final
// newline).
func lines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}
