package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/ast"
)

// TestKeywordHeads pins what the keyword heads (prompt, returns, config
// entries, local) make of the lines at their edges: the first diagnostic,
// or a summary of the node. The values are read as trimmed raw text after
// the head, so white space the Space token does not cover (a vertical tab)
// is skipped there as before the grammar.
func TestKeywordHeads(t *testing.T) {
	wf := func(lines ...string) string {
		return "workflow default {\n  " + strings.Join(lines, "\n") + "\n}\n"
	}
	cfg := func(line string) string { return "config {\n  " + line + "\n}\n" + wf("true") }
	for _, tc := range []struct{ src, want string }{
		{wf(`prompt "hi" returns '{ a: string }'`), `prompt "hi" returns "{ a: string }"`},
		{wf(`prompt "hi" returns` + "\t" + `"{ a: string }"`), `prompt "hi" returns "{ a: string }"`},
		{wf(`prompt "hi" returns \`, `  '{ a: string }'`), `prompt "hi" returns "{ a: string }"`},
		{wf(`prompt "hi" returns\`, `  '{ a: string }'`), `2:3 after prompt string expected keyword "returns"`},
		{wf(`prompt "hi" returns_x '{ a: string }'`), `2:3 after prompt string expected keyword "returns"`},
		{wf(`prompt "hi" returns`), `2:3 after prompt string expected keyword "returns"`},
		{wf(`prompt` + "\t" + `"hi"`), `prompt "hi"`},
		{wf(`x=prompt "hi"`), `prompt "hi"`},
		{cfg(`agent.command = "x"`), `config agent.command "x"`},
		{cfg(`agent.command` + "\t=\t" + `"x"`), `config agent.command "x"`},
		{cfg("agent.command\v= \"x\""), `config agent.command "x"`},
		{cfg(`run.debug==true`), `2:3 run.debug must be true or false: =true`},
		{cfg(`agent.command==x`), `2:3 config value must be a quoted string or true/false: =x`},
		{cfg(`agent . command = "x"`), `2:3 unknown config key: agent . command.`},
		{cfg(`"agent.command" = "x"`), `2:3 unknown config key: "agent.command".`},
		{cfg(`agent.command "x"`), `2:3 config line must be key = value: agent.command "x"`},
		{"local x = 1\n" + wf("true"), `local x "1"`},
		{"local\tx\t=\t'y'\n" + wf("true"), `local x "y"`},
		{"local x = \v\"v\"\n" + wf("true"), `local x "v"`},
		{"local x == 1\n" + wf("true"), `local x "= 1"`},
		{"local \vx = 1\n" + wf("true"), `local x "1"`},
		{"local x =\n" + wf("true"), `1:1 invalid local declaration`},
		{"local x.y = 1\n" + wf("true"), `1:1 invalid local declaration`},
	} {
		f, ds := Parse("/m.jh", []byte(tc.src))
		got := ""
		switch {
		case len(ds) > 0:
			got = fmt.Sprintf("%d:%d %s", ds[0].Line, ds[0].Col, ds[0].Message)
		case len(f.Locals) > 0:
			got = fmt.Sprintf("local %s %q", f.Locals[0].Name, f.Locals[0].Value)
		case f.Config != nil:
			got = fmt.Sprintf("config %s %q", f.Config.Entries[0].Key, f.Config.Entries[0].Str)
		default:
			pr := f.Workflows[0].Steps[0].(*ast.Prompt)
			got = fmt.Sprintf("prompt %q", pr.Raw)
			if pr.HasReturns {
				got += fmt.Sprintf(" returns %q", pr.Returns)
			}
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q:\n got  %s\n want %s…", tc.src, got, tc.want)
		}
	}
}
