package lsp

import (
	"fmt"
	"strings"
	"testing"
)

// Semantic tokens, decoded back to "line:col text type[+declaration]":
// Jaiph's keywords where they are Jaiph's (not in strings, comments or
// shell arguments), the operators, and the names the index knows.
func TestSemanticTokens(t *testing.T) {
	src := `import "lib.jh" as lib
channel events
local who = "me"

# run in a comment
workflow default {
  log "run in a string, $who"
  out = run lib.build "x"
  ensure ready recover run fix
  events <- echo "é ->"
  events -> fix
  echo run
  if ! ensure ready; then
    answer = prompt "hi" returns '{ a: string }'
  fi
}

rule ready {
  true
}

export workflow fix {
  reply = <- events
}
`
	s := started(Options{})
	s.notify = func(string, any) {}
	uri := "file:///nowhere/t.jh"
	request(t, s, "textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, Text: src}})
	got, err := request(t, s, "textDocument/semanticTokens/full", SemanticTokensParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	if err != nil {
		t.Fatal(err)
	}
	data := got.(SemanticTokens).Data
	lines := strings.Split(src, "\n")
	var out []string
	line, char := 0, 0
	for i := 0; i+5 <= len(data); i += 5 {
		if data[i] > 0 {
			char = 0
		}
		line += data[i]
		char += data[i+1]
		u := []rune(lines[line]) // the test's text has no surrogate pairs: a rune is a unit
		name := tokenTypes[data[i+3]]
		if data[i+4]&1 != 0 {
			name += "+declaration"
		}
		out = append(out, fmt.Sprintf("%d:%d %s %s", line+1, char+1, string(u[char:char+data[i+2]]), name))
	}
	want := `1:1 import keyword
1:17 as keyword
1:20 lib namespace+declaration
2:1 channel keyword
2:9 events event+declaration
3:1 local keyword
3:7 who variable+declaration
6:1 workflow keyword
6:10 default function+declaration
7:3 log keyword
7:26 who variable
8:3 out variable+declaration
8:9 run keyword
8:13 lib namespace
8:17 build function
9:3 ensure keyword
9:10 ready function
9:16 recover keyword
9:24 run keyword
9:28 fix function
10:3 events event
10:10 <- operator
11:3 events event
11:10 -> operator
11:13 fix function
13:8 ensure keyword
13:15 ready function
14:5 answer variable+declaration
14:14 prompt keyword
14:26 returns keyword
18:1 rule keyword
18:6 ready function+declaration
22:1 export keyword
22:8 workflow keyword
22:17 fix function+declaration
23:3 reply variable+declaration
23:11 <- operator
23:14 events event`
	if g := strings.Join(out, "\n"); g != want {
		t.Errorf("semantic tokens:\n%s\nwant:\n%s", g, want)
	}
}
