package format_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/internal/tools/format"
)

// TestGeneratedFiles checks the properties on modules built at random
// (fixed seeds) from nested shell constructs, strings, here-documents and
// continuations, every line at a random indentation with random trailing
// blanks: byte mutations (FuzzFormat) rarely produce such files that still
// pass check. JAIPH_FMT_GENERATED sets the count (make stress: 20,000).
func TestGeneratedFiles(t *testing.T) {
	n := 200
	if s := os.Getenv("JAIPH_FMT_GENERATED"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	path := filepath.Join(t.TempDir(), "gen.jh")
	clean := 0
	for seed := range n {
		g := &gen{r: rand.New(rand.NewPCG(uint64(seed), 7))}
		src := g.module()
		out, err := format.Source(path, []byte(src))
		if err != nil {
			continue
		}
		clean++
		checkProperties(t, path, []byte(src), out)
		if t.Failed() {
			t.Fatalf("seed %d:\n%s", seed, src)
		}
	}
	t.Logf("%d of %d generated modules pass check", clean, n)
	if clean < n/2 {
		t.Errorf("only %d of %d generated modules pass check", clean, n)
	}
}

// TestGeneratedTestFiles does the same for test files: test blocks with
// shell lines, mocked prompts and mocked bodies, importing a generated
// module.
func TestGeneratedTestFiles(t *testing.T) {
	n := 100
	if s := os.Getenv("JAIPH_FMT_GENERATED"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	dir := t.TempDir()
	lib := "workflow default {\n  echo hi\n}\n\nfunction f() {\n  echo f\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "lib.jh"), []byte(lib), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "gen.test.jh")
	clean := 0
	for seed := range n {
		g := &gen{r: rand.New(rand.NewPCG(uint64(seed), 9)), inMock: true}
		src := g.testFile()
		out, err := format.Source(path, []byte(src))
		if err != nil {
			continue
		}
		clean++
		checkProperties(t, path, []byte(src), out)
		if t.Failed() {
			t.Fatalf("seed %d:\n%s", seed, src)
		}
	}
	t.Logf("%d of %d generated test files pass check", clean, n)
	if clean < n/2 {
		t.Errorf("only %d of %d generated test files pass check", clean, n)
	}
}

func (g *gen) testFile() string {
	g.put(`import "lib.jh" as lib`)
	for range 1 + g.r.IntN(3) {
		g.raw(g.pick("", "  "))
		g.put(`test "case" {`)
		for range 1 + g.r.IntN(4) {
			switch g.r.IntN(6) {
			case 0:
				g.put(`mock prompt "canned"`)
			case 1:
				g.put("mock workflow lib.default {")
				g.stmts(1)
				g.put("}")
			case 2:
				g.put("mock function lib.f {")
				g.stmts(1)
				g.put("}")
			case 3:
				g.put("out = lib.default")
				g.put(`expectContain out "hi"`)
			default:
				g.stmt(1)
			}
		}
		g.put("}")
	}
	return strings.Join(g.lines, "\n") + "\n"
}

type gen struct {
	r          *rand.Rand
	lines      []string
	inWorkflow bool
	inMock     bool // no line may be `}` alone: it would end a mock body
}

// put adds a line at a random indentation with random trailing blanks.
func (g *gen) put(s string) {
	g.lines = append(g.lines, g.pick("", " ", "    ", "\t", "      ", "  \t")+s+g.pick("", "", "", " ", "\t  "))
}

// raw adds a line as it is (string and here-document text).
func (g *gen) raw(s string) { g.lines = append(g.lines, s) }

func (g *gen) pick(opts ...string) string { return opts[g.r.IntN(len(opts))] }

func (g *gen) module() string {
	if g.r.IntN(2) == 0 {
		g.put(`local m = "multi`)
		g.raw(g.pick("  line  \"", "line\""))
	}
	if g.r.IntN(2) == 0 {
		g.put("config {")
		g.put(`agent.backend = "claude"`)
		g.put("runtime.workspace = [")
		g.put(`".:/w:rw",  # a comment ]`)
		g.put(`"/tmp:/tmp:ro"`)
		g.put("]")
		g.put("}")
	}
	g.put("channel ch")
	g.put("rule r {")
	g.put(`test -n "$1"`)
	g.raw("}")
	g.put("workflow t {")
	g.put(`echo "$1"`)
	g.raw("}")
	g.put("function f() {")
	g.stmts(0)
	g.raw("}")
	if g.r.IntN(2) == 0 {
		g.raw("")
	}
	g.put("workflow default {")
	g.inWorkflow = true
	g.put("run f")
	g.put("ch -> t")
	g.stmts(1)
	g.raw("}")
	sep := "\n"
	if g.r.IntN(4) == 0 {
		sep = "\r\n"
	}
	return strings.Join(g.lines, sep) + g.pick(sep, "")
}

func (g *gen) stmts(depth int) {
	for range 1 + g.r.IntN(4) {
		if g.r.IntN(5) == 0 {
			g.raw(g.pick("", "  ", "\t"))
		}
		g.stmt(depth)
	}
}

func (g *gen) stmt(depth int) {
	if g.inWorkflow && depth == 1 && g.r.IntN(3) == 0 {
		g.step()
		return
	}
	k := g.r.IntN(20)
	if depth > 3 {
		k = g.r.IntN(12)
	}
	if g.inMock && (k == 6 || k == 16) {
		k = 11
	}
	switch k {
	case 0:
		g.put(`echo "{" '}' "${HOME}" # }`)
	case 1:
		g.put(`x=$(echo a) && echo "$x"`)
	case 2:
		g.put(`printf '%s\n' a\`)
		g.raw(g.pick("b", "  b", "b  "))
	case 3:
		g.put(`echo a \`)
		g.raw(g.pick("b", "   b"))
	case 4:
		g.put(`echo "multi`)
		g.raw(g.pick("  line", "line  ", "\tline ;") + `"` + g.pick("", "  "))
	case 5:
		g.put(`echo 'single`)
		g.raw(g.pick("  x'", "x  '", "'"))
	case 6:
		g.put("cat <<EOF")
		g.raw(g.pick("  body  ", "}", "\tfi"))
		g.raw("EOF")
	case 7:
		if g.inWorkflow { // `<-` in `<<-` reads as a send there
			g.put("cat <<X")
			g.raw("X")
			break
		}
		g.put("cat <<-'X'")
		g.raw("\t  tabbed " + g.pick("", "{"))
		g.raw("\tX")
	case 8:
		g.put(`: $(( 1 << 2 )) "$'a\'b'"`)
	case 9:
		g.put("# a comment { " + g.pick("", "'", `"`))
	case 10:
		g.put(`echo 'a' \ `)
		g.raw(g.pick("echo next", "  echo next"))
	case 11:
		switch g.r.IntN(3) {
		case 0:
			g.put("true")
		case 1:
			g.put(`echo $'multi\'`)
			g.raw(g.pick("  ansi'", "'"))
		default:
			g.put("x=`echo")
			g.raw(g.pick("  tick`", "`"))
		}
	case 12:
		g.put("if [ -n \"$1\" ]; then")
		g.stmts(depth + 1)
		if g.r.IntN(2) == 0 {
			g.put("else")
			g.stmts(depth + 1)
		}
		g.put("fi")
	case 13:
		g.put("for i in 1 2; do")
		g.stmts(depth + 1)
		g.put("done")
	case 14:
		g.put("while false")
		g.put("do")
		g.stmts(depth + 1)
		g.put("done")
	case 15:
		g.put(`case "$1" in`)
		g.put("a|b)")
		g.stmts(depth + 1)
		g.put(";;")
		g.put("*) echo other;;")
		g.put("esac")
	case 16:
		g.put("{")
		g.stmts(depth + 1)
		g.put("} > /dev/null")
	case 17:
		g.put("(")
		g.stmts(depth + 1)
		g.put(") || true")
	case 18:
		g.put("arr=(")
		g.put("one")
		g.put(")")
	case 19:
		g.put("y=$(")
		g.stmts(depth + 1)
		g.put(")")
	}
}

// step adds a Jaiph step of a workflow body.
func (g *gen) step() {
	switch g.r.IntN(7) {
	case 0:
		g.put(`x = prompt "a`)
		g.raw(g.pick("  b  \"", "b\"", "\t{ b }\""))
	case 1:
		g.put(`y = prompt "q" \`)
		g.put(`returns '{ a: string }'`)
	case 2:
		g.put(`ensure r "a" recover {`)
		g.put("echo retry")
		g.put("}")
	case 3:
		g.put(`if ensure r "a"; then`)
		g.put(`log "ok"`)
		g.put("else")
		g.put("echo no")
		g.put("fi")
	case 4:
		g.put(`ch <- echo "x"`)
	case 5:
		g.put(`z = run f "a"`)
	case 6:
		g.put(`log "a {"`)
	}
}
