package lsp

import (
	"fmt"
	"strings"
	"testing"
)

// Which words of a module are references, and to what.
func TestRefs(t *testing.T) {
	src := `import "lib" as agent
channel ch
local who = "me"
local greeting = "hi $who"

function slug() {
  printf '%s $who' "$who"
}

workflow w {
  config {
    agent.backend = "claude"
  }
  # run w is a comment
  log "run w inside a string, $who"
  x = run slug "$(slug a)"
  if ! ensure agent.ok; then
    run w
  fi
  ch <- echo hi
  ch -> w, agent.other
  echo w slug
}
`
	ix := newIndex("/m.jh", []byte(src), func(_, p string) string { return "/" + p + ".jh" })
	var got []string
	for _, r := range ix.refs {
		l := ix.text.line(r.line)
		got = append(got, fmt.Sprintf("%d:%s→%s:%s", r.line+1, l[r.from:r.to], r.key.path, r.key.name))
	}
	want := []string{
		"1:lib→/lib.jh:",
		"4:who→/m.jh:who",
		"7:who→/m.jh:who", // in double quotes; the one in single quotes is not
		"15:who→/m.jh:who",
		"16:slug→/m.jh:slug",
		"16:slug→/m.jh:slug", // first word of a command substitution
		"17:agent→/m.jh:agent",
		"17:ok→/lib.jh:ok",
		"18:w→/m.jh:w",
		"20:ch→/m.jh:ch",
		"21:ch→/m.jh:ch",
		"21:w→/m.jh:w",
		"21:agent→/m.jh:agent",
		"21:other→/lib.jh:other",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("refs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// In a test file, a single-segment mock names a symbol of the first import.
func TestRefsMock(t *testing.T) {
	src := "import \"lib\" as lib\nimport \"other\" as other\n\ntest \"t\" {\n  mock workflow greet {\n    echo mocked\n  }\n  mock rule other.ok {\n    true\n  }\n  out = lib.greet\n}\n"
	ix := newIndex("/m.test.jh", []byte(src), func(_, p string) string { return "/" + p + ".jh" })
	var got []string
	for _, r := range ix.refs {
		if r.key.ns == nsSymbol {
			got = append(got, fmt.Sprintf("%d:%d-%d→%s:%s", r.line+1, r.from, r.to, r.key.path, r.key.name))
		}
	}
	want := "5:16-21→/lib.jh:greet 8:18-20→/other.jh:ok 11:12-17→/lib.jh:greet"
	if strings.Join(got, " ") != want {
		t.Errorf("refs = %v, want %s", got, want)
	}
}

// Extents and reference positions come from the syntax tree, so text that
// merely looks like the end of a body or like a path does not mislead them.
func TestRefsFromTree(t *testing.T) {
	src := `import "port" as p
channel ch

function f() {
  cat <<EOF
}
workflow ghost {
EOF
  g
}

function g() {
  true
}

workflow w {
  ensure p.ok recover {
    ch <- echo retry
    run g
  }
}
`
	ix := newIndex("/m.jh", []byte(src), func(_, p string) string { return "/" + p + ".jh" })
	var got []string
	for _, r := range ix.refs {
		got = append(got, fmt.Sprintf("%d:%d-%d→%s:%s", r.line+1, r.from, r.to, r.key.path, r.key.name))
	}
	// The import's path is the string, not the "port" of "import"; f's body
	// runs past the here-document's `}`, so g is called from it; a recover
	// body's statements (no tree positions yet) are still read; a
	// here-document line is not a declaration.
	want := "1:8-12→/port.jh: 9:2-3→/m.jh:g 17:9-10→/m.jh:p 17:11-13→/port.jh:ok 18:4-6→/m.jh:ch 19:8-9→/m.jh:g"
	if strings.Join(got, " ") != want {
		t.Errorf("refs = %v\nwant %s", got, want)
	}
	if f := ix.byName["f"]; f.first != 3 || f.last != 9 {
		t.Errorf("f spans lines %d-%d, want 3-9", f.first, f.last)
	}
	if ix.byName["ghost"] != nil {
		t.Error("a here-document line declares ghost")
	}
}

// A declaration's documentation is the run of comment lines right above it;
// a shebang or a blank line ends the run.
func TestLeadingComments(t *testing.T) {
	src := "#!/usr/bin/env jaiph\nchannel a\n# far\n\n# near\n  # indented\nworkflow w {\n  # inside\n}\n# after\nrule r {\n  true\n}\n"
	ix := newIndex("/m.jh", []byte(src), func(_, p string) string { return p })
	var got []string
	for _, d := range ix.defs {
		got = append(got, fmt.Sprintf("%s=%q", d.name.name(ix), d.doc))
	}
	want := `a=[] w=["# near" "# indented"] r=["# after"]`
	if strings.Join(got, " ") != want {
		t.Errorf("docs = %s, want %s", strings.Join(got, " "), want)
	}
}
