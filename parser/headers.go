package parser

import (
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The declaration header lines used once per file (`import "p" as a`,
// `channel c`, `test "…" {`, `mock …`) have a real little grammar, so they
// are parsed with participle; rule, workflow and function headers, one per
// declaration, are matched by hand (parseDeclHeader). White space
// is a token because the reference's patterns require it in some places
// (`rule\s+name`) and forbid it in others (`name()`). They read the step
// lexer's tokens (steplex.go), except the import line.
//
// headerLexer is the import line's: its unquoted path may hold any byte
// (`import #x as y`, `import "a as y` are imports of `#x` and `"a`, as before
// the step lexer), which the step lexer would read as a comment or an
// unclosed string. The token rules are the kit's rules written as regexps:
// String is a Jaiph "…" string (closes at a quote not escaped by an odd
// number of backslashes, shellscan.ClosingQuote) or a '…' string without
// escapes, and Ident is shellscan.IsIdent; TestHeaderLexerAgrees checks both.
//
// It is built on first use: compiling its patterns is most of what the
// package's initialisation would otherwise cost every command.
var headerLexer = sync.OnceValue(func() *lexer.StatefulDefinition {
	return lexer.MustSimple([]lexer.SimpleRule{
		{Name: "String", Pattern: `"(?:\\.|[^"\\])*"|'[^']*'`},
		{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
		{Name: "Space", Pattern: `[ \t]+`},
		{Name: "Punct", Pattern: `[{}().]`},
		{Name: "Other", Pattern: `[^ \t"'{}().A-Za-z_]+|["']`},
	})
})

// importHeader is `import "path" as alias` (quotes optional).
type importHeader struct {
	Path  string `parser:"'import' Space (@String | @(Ident | Punct | Other)+)"`
	Alias string `parser:"Space 'as' Space @Ident"`
}

// channelHeader is `channel name`.
type channelHeader struct {
	Name string `parser:"'channel' Space @Ident"`
}

// testHeader is `test "description" {`.
type testHeader struct {
	Description string `parser:"'test' Space @(DQ | SQ) Space? '{'"`
}

// mockHeader is `mock workflow|rule|function REF {`.
type mockHeader struct {
	Kind  string `parser:"'mock' Space @('workflow' | 'rule' | 'function') Space"`
	Alias string `parser:"@Ident"`
	Name  string `parser:"('.' @Ident)? Space? '{'"`
}

// headers holds the declaration header grammars, each built on its first
// use: a command pays only for the ones its files need (`--version` for
// none, a file of workflows for one).
var headers = struct {
	imp     func() *participle.Parser[importHeader]
	channel func() *participle.Parser[channelHeader]
	test    func() *participle.Parser[testHeader]
	mock    func() *participle.Parser[mockHeader]
}{
	imp: lazyGrammar[importHeader](func() []participle.Option {
		return []participle.Option{participle.Lexer(headerLexer()), participle.UseLookahead(2)}
	}),
	channel: lazyGrammar[channelHeader](stepLexerLookahead2),
	test:    lazyGrammar[testHeader](stepLexerLookahead2),
	mock:    lazyGrammar[mockHeader](stepLexerLookahead2),
}

func stepLexerLookahead2() []participle.Option {
	return []participle.Option{participle.Lexer(stepLexer{}), participle.UseLookahead(2)}
}

// lazyGrammar returns a function that builds G's grammar with opts() on its
// first call and returns the same parser on every call.
func lazyGrammar[G any](opts func() []participle.Option) func() *participle.Parser[G] {
	return sync.OnceValue(func() *participle.Parser[G] { return participle.MustBuild[G](opts()...) })
}

// parseWhole parses the whole text with g.
func parseWhole[G any](text string, g *participle.Parser[G]) (*G, bool) {
	pl, _ := lexer.Upgrade(&lineLexer{s: text})
	h, err := g.ParseFromLexer(pl)
	return h, err == nil
}

// parseDeclHeader matches `[export WS] KIND WS name [WS] {`, the whole
// line, for KIND rule or workflow, and returns the name and whether it is
// exported. It is matched by hand, like the step heads (heads.go): a
// module has one per declaration.
func parseDeclHeader(text, kind string) (name string, export, ok bool) {
	c := cursor{toks: lexTokens(text)}
	if c.lit("export") {
		if export = c.space(); !export {
			return "", false, false
		}
	}
	if !c.lit(kind) || !c.space() {
		return "", false, false
	}
	if name, ok = c.of(tokIdent); !ok {
		return "", false, false
	}
	c.space()
	if !c.lit("{") || !c.eof() {
		return "", false, false
	}
	return name, export, true
}

// parseFuncHeader matches `function WS name [()] [WS] {`, the whole line,
// and returns the name.
func parseFuncHeader(text string) (string, bool) {
	c := cursor{toks: lexTokens(text)}
	if !c.lit("function") || !c.space() {
		return "", false
	}
	name, ok := c.of(tokIdent)
	if !ok {
		return "", false
	}
	if c.toks[c.k].val == "(" && c.toks[c.k+1].val == ")" {
		c.k += 2
	}
	c.space()
	if !c.lit("{") || !c.eof() {
		return "", false
	}
	return name, true
}

func parseImportHeader(line string) (*importHeader, bool) {
	h, err := headers.imp().ParseString("", line)
	if err != nil {
		return nil, false
	}
	if n := len(h.Path); n >= 2 && (h.Path[0] == '"' || h.Path[0] == '\'') && h.Path[n-1] == h.Path[0] {
		h.Path = h.Path[1 : n-1]
	}
	return h, h.Path != ""
}

func parseChannelHeader(line string) (*channelHeader, bool) {
	return parseWhole(line, headers.channel())
}

func parseTestHeader(line string) (string, bool) {
	h, ok := parseWhole(line, headers.test())
	if !ok || !strings.HasPrefix(h.Description, `"`) {
		return "", false
	}
	return strings.ReplaceAll(h.Description[1:len(h.Description)-1], `\"`, `"`), true
}

func parseMockHeader(line string) (*mockHeader, bool) {
	return parseWhole(line, headers.mock())
}
