package lsp

import (
	"sort"
	"strings"
)

// Semantic tokens (textDocument/semanticTokens/full): what a client that
// colours by meaning needs beyond the shell-ish grammar. Jaiph's keywords
// where they are Jaiph's (the head of a declaration or a step, `as` of an
// import, `recover`, `returns`), the `->` and `<-` operators, and every
// name the index knows (refs.go): workflows, rules and functions as
// functions, channels as events, locals and body variables as variables,
// import aliases as namespaces; a definition's name carries the
// declaration modifier. Nothing inside quotes or comments is a token.

// The legend: indexes into tokenTypes and bits of tokenModifiers.
var (
	tokenTypes     = []string{"keyword", "operator", "function", "variable", "namespace", "event"}
	tokenModifiers = []string{"declaration"}
)

const (
	tokKeyword = iota
	tokOperator
	tokFunction
	tokVariable
	tokNamespace
	tokEvent
)

// declKeyword and stepKeyword are switches, not package-level maps: a map
// is built at start-up by every command of the binary (docs/performance.md).
func declKeyword(w string) bool {
	switch w {
	case "workflow", "rule", "function", "channel", "import", "config", "export", "local", "test":
		return true
	}
	return false
}

func stepKeyword(w string) bool {
	switch w {
	case "run", "ensure", "prompt", "log", "logerr", "return", "mock":
		return true
	}
	return false
}

type semToken struct{ line, from, to, typ, mods int }

// SemanticTokensParams and SemanticTokens are LSP 3.17's.
type SemanticTokensParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

type SemanticTokens struct {
	Data []int `json:"data"`
}

func (s *server) semanticTokens(p SemanticTokensParams) SemanticTokens {
	ix := s.index(pathOf(p.TextDocument.URI))
	if ix == nil {
		return SemanticTokens{Data: []int{}}
	}
	return SemanticTokens{Data: encodeTokens(ix.text, ix.semTokens())}
}

// semTokens lists the module's tokens, sorted, without overlaps.
func (ix *index) semTokens() []semToken {
	var toks []semToken
	kindType := func(kind string) int {
		switch kind {
		case "channel":
			return tokEvent
		case "local", "variable":
			return tokVariable
		case "import":
			return tokNamespace
		}
		return tokFunction
	}
	for _, d := range ix.defs {
		if d.ns != nsNone && d.name.to > d.name.from {
			toks = append(toks, semToken{d.name.line, d.name.from, d.name.to, kindType(d.kind), 1})
		}
	}
	for _, r := range ix.refs {
		switch {
		case r.ns == nsAlias:
			toks = append(toks, semToken{r.line, r.from, r.to, tokNamespace, 0})
		case r.ns == nsSymbol || r.ns == nsVar:
			kind := "workflow"
			if t := ix.def(r.key); t != nil {
				kind = t.kind
			} else if r.ns == nsVar {
				kind = "variable"
			}
			toks = append(toks, semToken{r.line, r.from, r.to, kindType(kind), 0})
		}
	}
	for l, text := range ix.text.lines {
		if ix.inConfig(l) && !strings.HasPrefix(strings.TrimSpace(text), "config") {
			continue
		}
		toks = append(toks, lineKeywords(l, text)...)
	}
	sort.SliceStable(toks, func(i, j int) bool {
		a, b := toks[i], toks[j]
		return a.line < b.line || a.line == b.line && a.from < b.from
	})
	out := toks[:0]
	for _, t := range toks {
		if n := len(out); n > 0 && out[n-1].line == t.line && t.from < out[n-1].to {
			continue // a name the index found twice, or a keyword that is also a name
		}
		out = append(out, t)
	}
	return out
}

// lineKeywords finds the Jaiph keywords and operators of one line: its
// head word (after `name =`), a step after `if [!]` or `recover`, `as` of
// an import, `returns` after a prompt's string, and `->`/`<-`, all outside
// quotes.
func lineKeywords(line int, l string) []semToken {
	trimmed := strings.TrimSpace(l)
	if trimmed == "" || strings.HasPrefix(trimmed, "#") {
		return nil
	}
	quoted := quotes(l)
	var toks []semToken
	type word struct{ from, to int }
	var words []word
	for i := 0; i < len(l); {
		switch {
		case quoted[i] != 0 || l[i] == '"' || l[i] == '\'':
			i++
		case l[i] == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t'):
			i = len(l) // a comment to the end of the line
		case strings.HasPrefix(l[i:], "->") || strings.HasPrefix(l[i:], "<-"):
			toks = append(toks, semToken{line, i, i + 2, tokOperator, 0})
			i += 2
		case isIdentByte(l[i]):
			j := i
			for j < len(l) && (isIdentByte(l[j]) || l[j] == '.') {
				j++
			}
			words = append(words, word{i, j})
			i = j
		default:
			i++
		}
	}
	if len(words) == 0 {
		return toks
	}
	text := func(w word) string { return l[w.from:w.to] }
	kw := func(w word) { toks = append(toks, semToken{line, w.from, w.to, tokKeyword, 0}) }
	head := 0
	if len(words) > 1 && strings.HasPrefix(strings.TrimLeft(l[words[0].to:], " \t"), "=") {
		head = 1 // `name = run …`
	}
	first := text(words[head])
	switch {
	case head == 0 && declKeyword(first):
		kw(words[0])
		if first == "export" && len(words) > 1 && declKeyword(text(words[1])) {
			kw(words[1])
		}
		if first == "import" {
			for _, w := range words[1:] {
				if text(w) == "as" {
					kw(w)
				}
			}
		}
	case stepKeyword(first):
		kw(words[head])
	case first == "if" && len(words) > head+1 && (text(words[head+1]) == "run" || text(words[head+1]) == "ensure"):
		kw(words[head+1])
	}
	for i, w := range words {
		switch text(w) {
		case "recover":
			if i > 0 && strings.Contains(l[:w.from], "ensure") {
				kw(w)
				if i+1 < len(words) && stepKeyword(text(words[i+1])) {
					kw(words[i+1])
				}
			}
		case "returns":
			if strings.Contains(l[:w.from], "prompt") {
				kw(w)
			}
		}
	}
	return toks
}

// encodeTokens writes tokens as LSP's relative integers, in UTF-16 units.
func encodeTokens(t *text, toks []semToken) []int {
	data := make([]int, 0, 5*len(toks))
	prevLine, prevChar := 0, 0
	for _, tk := range toks {
		start, end := t.pos(tk.line, tk.from), t.pos(tk.line, tk.to)
		if start.Line != prevLine {
			prevChar = 0
		}
		data = append(data, start.Line-prevLine, start.Character-prevChar, end.Character-start.Character, tk.typ, tk.mods)
		prevLine, prevChar = start.Line, start.Character
	}
	return data
}
