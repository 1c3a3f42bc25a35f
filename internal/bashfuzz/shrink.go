package bashfuzz

import (
	"fmt"
	"hash/fnv"
	"strings"
)

// Shrink reduces a program while keep still holds of it: delta debugging
// on the tree. It removes runs of statements (halves, then quarters …,
// then single ones), replaces compound statements by the statements under
// them, drops the extra parts of compound statements (else, elif, case
// arms), the words of simple commands (never the command itself) and
// here-document lines, and repeats until no edit keeps the property. Every
// edit gives valid shell, and a smaller program is never bigger in any
// loop, so the result terminates as the original did. keep is called on
// candidates only; p is not changed.
func Shrink(p *Prog, keep func(*Prog) bool) *Prog {
	inner := keep
	keep = func(c *Prog) bool {
		// An empty body is jaiph's `:` and bash's syntax error, not the
		// divergence being shrunk.
		return strings.TrimSpace(c.String()) != "" && inner(c)
	}
	cur := p.Clone()
	for changed := true; changed; {
		changed = false
		for _, try := range []func(*Prog) *Prog{
			func(c *Prog) *Prog { return shrinkChunks(c, keep) },
			func(c *Prog) *Prog { return shrinkEdits(c, keep) },
		} {
			if next := try(cur); next != nil {
				cur, changed = next, true
			}
		}
	}
	return cur
}

// lists are the statement lists of a program in a fixed order, so that the
// same index names the same list in a clone.
func lists(p *Prog) []*[]*Stmt {
	out := []*[]*Stmt{&p.Body}
	var walk func(l []*Stmt)
	walk = func(l []*Stmt) {
		for _, s := range l {
			for i := range s.Parts {
				out = append(out, &s.Parts[i].Body)
				walk(s.Parts[i].Body)
			}
		}
	}
	walk(p.Body)
	return out
}

// shrinkChunks removes runs of statements from each list (ddmin's
// complements), largest first; it returns the smaller program or nil.
func shrinkChunks(p *Prog, keep func(*Prog) bool) *Prog {
	var best *Prog
	for li := 0; li < len(lists(p)); li++ {
		for size := len(*lists(p)[li]) / 2; size >= 2; size /= 2 {
			for start := 0; start+size <= len(*lists(p)[li]); {
				c := p.Clone()
				l := lists(c)[li]
				*l = append((*l)[:start:start], (*l)[start+size:]...)
				if keep(c) {
					p, best = c, c
					continue
				}
				start += size
			}
		}
	}
	return best
}

// shrinkEdits tries every single edit once, keeping each that holds; it
// returns the smaller program or nil.
func shrinkEdits(p *Prog, keep func(*Prog) bool) *Prog {
	var best *Prog
	try := func(edit func(c *Prog) bool) {
		c := p.Clone()
		if edit(c) && keep(c) {
			p, best = c, c
		}
	}
	for li := 0; li < len(lists(p)); li++ {
		for si := len(*lists(p)[li]) - 1; si >= 0; si-- {
			// Remove the statement.
			try(func(c *Prog) bool {
				l := lists(c)[li]
				if si >= len(*l) {
					return false
				}
				*l = append((*l)[:si:si], (*l)[si+1:]...)
				return true
			})
			// Replace a compound statement by what is under it.
			try(func(c *Prog) bool {
				l := lists(c)[li]
				if si >= len(*l) || (*l)[si].Parts == nil {
					return false
				}
				var under []*Stmt
				for _, part := range (*l)[si].Parts {
					for _, c := range part.Body {
						if c.Parts == nil && c.Words[0] == ";;" {
							continue // a case arm's end is not a statement
						}
						under = append(under, c)
					}
				}
				*l = append((*l)[:si:si], append(under, (*l)[si+1:]...)...)
				return true
			})
			if si >= len(*lists(p)[li]) {
				continue
			}
			s := (*lists(p)[li])[si]
			// Drop an extra part (else, elif, a case arm).
			for pi := len(s.Parts) - 1; pi >= 1; pi-- {
				try(func(c *Prog) bool {
					l := lists(c)[li]
					if si >= len(*l) || pi >= len((*l)[si].Parts) {
						return false
					}
					st := (*l)[si]
					st.Parts = append(st.Parts[:pi:pi], st.Parts[pi+1:]...)
					return true
				})
			}
			// Drop a word of a simple command.
			if s.Parts == nil && !s.Fixed {
				for wi := len(s.Words) - 1; wi >= 1; wi-- {
					try(func(c *Prog) bool {
						l := lists(c)[li]
						if si >= len(*l) || wi >= len((*l)[si].Words) {
							return false
						}
						st := (*l)[si]
						st.Words = append(st.Words[:wi:wi], st.Words[wi+1:]...)
						return true
					})
				}
			}
			// Drop a here-document line (the terminator stays).
			if hl := strings.Split(strings.TrimSuffix(s.Heredoc, "\n"), "\n"); len(hl) > 1 {
				for hi := len(hl) - 2; hi >= 0; hi-- {
					try(func(c *Prog) bool {
						l := lists(c)[li]
						if si >= len(*l) {
							return false
						}
						st := (*l)[si]
						lines := strings.Split(strings.TrimSuffix(st.Heredoc, "\n"), "\n")
						if hi >= len(lines)-1 {
							return false
						}
						st.Heredoc = strings.Join(append(lines[:hi:hi], lines[hi+1:]...), "\n") + "\n"
						return true
					})
				}
			}
		}
	}
	return best
}

// Snippet prints a body as a bashcompat corpus entry, ready to paste into
// a testdata/bashcompat/*.txtar file: a name made from the body's hash, a
// comment-free body.
func Snippet(name, body string) string {
	if name == "" {
		h := fnv.New32a()
		h.Write([]byte(body))
		name = fmt.Sprintf("fuzz_%08x", h.Sum32())
	}
	return "-- " + name + ".sh --\n" + strings.TrimRight(body, "\n") + "\n"
}
