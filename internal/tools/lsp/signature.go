package lsp

import (
	"fmt"
	"strings"

	"github.com/jaiph-go/jaiph/ast"
)

type SignatureHelp struct {
	Signatures      []SignatureInformation `json:"signatures"`
	ActiveSignature int                    `json:"activeSignature"`
	ActiveParameter int                    `json:"activeParameter"`
}

type SignatureInformation struct {
	Label         string                 `json:"label"`
	Documentation *MarkupContent         `json:"documentation,omitempty"`
	Parameters    []ParameterInformation `json:"parameters"`
}

type ParameterInformation struct {
	Label [2]int `json:"label"` // UTF-16 offsets in the signature's label
}

// signatureHelp shows, inside `run NAME …`, `ensure NAME …` or a shell
// call of a function (`slug a b`), the target's signature: Jaiph
// workflows, rules and functions take positional arguments, so the label
// is the declaration with the parameters its body reads (`$1`, `${2}`, and
// `$@` for the rest), the documentation its comment, and the active
// parameter the argument the cursor is in (or about to start).
func (s *server) signatureHelp(p TextDocumentPositionParams) *SignatureHelp {
	ix := s.index(pathOf(p.TextDocument.URI))
	if ix == nil {
		return nil
	}
	before := ix.text.line(p.Position.Line)[:ix.text.offset(p.Position)]
	words, open := commandWords(before)
	// What precedes the command itself: a capture, `if !`, `then`, …
	for len(words) > 0 {
		switch w := words[0]; {
		case len(words) > 1 && words[1] == "=" && ast.IsIdent(w):
			words = words[2:]
			continue
		case w == "if" || w == "!" || w == "then" || w == "else" || w == "do" || w == "while" || w == "until" || w == "elif":
			words = words[1:]
			continue
		}
		break
	}
	var target string
	var args []string
	switch {
	case len(words) >= 2 && (words[0] == "run" || words[0] == "ensure"):
		target, args = words[1], words[2:]
	case len(words) >= 1:
		target, args = words[0], words[1:]
	default:
		return nil
	}
	if len(args) == 0 && !open {
		return nil // still typing the target
	}
	tix, d := ix, (*def)(nil)
	if alias, name, dotted := strings.Cut(target, "."); dotted {
		if t, ok := ix.aliases[alias]; ok {
			if tix = s.index(t); tix != nil {
				d = tix.byName[name]
			}
		}
	} else {
		d = ix.byName[target]
	}
	if d == nil || d.kind != "workflow" && d.kind != "rule" && d.kind != "function" {
		return nil
	}
	if d.kind != "function" && words[0] != "run" && words[0] != "ensure" {
		return nil // a bare workflow name is no call
	}
	n, rest := positionals(tix, d)
	label := d.kind + " " + target
	var params []ParameterInformation
	add := func(p string) {
		label += " "
		start := utf16Len(label)
		label += p
		params = append(params, ParameterInformation{Label: [2]int{start, utf16Len(label)}})
	}
	for i := 1; i <= n; i++ {
		add(fmt.Sprintf("$%d", i))
	}
	if rest {
		add("$@")
	}
	active := len(args)
	if !open {
		active-- // the cursor is in the last argument
	}
	if active >= len(params) && rest {
		active = len(params) - 1
	}
	sig := SignatureInformation{Label: label, Parameters: params}
	if sig.Parameters == nil {
		sig.Parameters = []ParameterInformation{}
	}
	if len(d.doc) > 0 {
		var doc []string
		for _, c := range d.doc {
			doc = append(doc, strings.TrimSpace(strings.TrimPrefix(c, "#")))
		}
		sig.Documentation = &MarkupContent{Kind: "plaintext", Value: strings.Join(doc, "\n")}
	}
	return &SignatureHelp{Signatures: []SignatureInformation{sig}, ActiveParameter: active}
}

func utf16Len(s string) int { return newText(s).pos(0, len(s)).Character }

// positionals returns the highest positional parameter the body of d
// reads ($1 … $9, ${N}) and whether it reads them all ($@, $*, ${@}).
func positionals(ix *index, d *def) (n int, rest bool) {
	for l := d.first + 1; l < d.last; l++ {
		line := ix.text.line(l)
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		q := quotes(line)
		for i := 0; i+1 < len(line); i++ {
			if line[i] != '$' || q[i] == '\'' || i > 0 && line[i-1] == '\\' {
				continue
			}
			c := line[i+1]
			if c == '{' && i+2 < len(line) {
				c = line[i+2]
				if c >= '1' && c <= '9' {
					j := i + 2
					v := 0
					for j < len(line) && line[j] >= '0' && line[j] <= '9' {
						v = v*10 + int(line[j]-'0')
						j++
					}
					n = max(n, v)
					continue
				}
			}
			switch {
			case c >= '1' && c <= '9':
				n = max(n, int(c-'0'))
			case c == '@' || c == '*':
				rest = true
			}
		}
	}
	return n, rest
}

// commandWords splits the command the line ends in into its words (a
// quoted word whole, quotes kept) and tells whether the cursor is past
// the last word (after a blank). A command starts after an unquoted `;`,
// `|`, `&`, `(`, a backquote or `$(` (also inside double quotes), and
// after `recover`.
func commandWords(l string) (words []string, open bool) {
	var cur strings.Builder
	inWord := false
	var in byte
	end := func() {
		if inWord {
			if cur.String() == "recover" {
				words = nil // `ensure rule args recover run fix args`
			} else {
				words = append(words, cur.String())
			}
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case in != '\'' && c == '\\' && i+1 < len(l):
			cur.WriteByte(c)
			cur.WriteByte(l[i+1])
			inWord = true
			i++
			continue
		case in != '\'' && c == '$' && i+1 < len(l) && l[i+1] == '(':
			words, in, inWord = nil, 0, false
			cur.Reset()
			i++
			continue
		case in != 0:
			cur.WriteByte(c)
			if c == in {
				in = 0
			}
			continue
		case c == '\'' || c == '"':
			in = c
			cur.WriteByte(c)
			inWord = true
			continue
		case c == ' ' || c == '\t':
			end()
			continue
		case c == ';' || c == '|' || c == '&' || c == '(' || c == '`' || c == ')' || c == '{' || c == '}':
			end()
			words = nil
			continue
		}
		cur.WriteByte(c)
		inWord = true
	}
	open = !inWord && in == 0
	end()
	return words, open
}
