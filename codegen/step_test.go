package codegen_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/internal/exec/agent"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/validate"
)

// checkSteps parses a lowered body and checks that every
// `jaiph::run|ensure|prompt <id>` call names a record of its kind and that
// every record is called exactly once.
func checkSteps(t *testing.T, b *lowered.Body) {
	t.Helper()
	f, err := b.Parser().Parse(strings.NewReader(b.Source), b.Symbol)
	if err != nil {
		// A body with a shell syntax error is bashcheck's diagnostic (the
		// module validates but does not build): nothing to walk.
		return
	}
	calls := make([]int, len(b.Steps)+1)
	syntax.Walk(f, func(n syntax.Node) bool {
		ce, ok := n.(*syntax.CallExpr)
		if !ok || len(ce.Args) == 0 {
			return true
		}
		kind, ok := strings.CutPrefix(ce.Args[0].Lit(), "jaiph::")
		if !ok || kind != "run" && kind != "ensure" && kind != "prompt" && kind != "receive" {
			return true
		}
		id := -1
		if len(ce.Args) > 1 {
			id, _ = strconv.Atoi(ce.Args[1].Lit())
		}
		st := b.Step(id)
		if st == nil || string(st.Kind) != kind {
			t.Errorf("%s: jaiph::%s %d has no %s record (%d records)", b.Symbol, kind, id, kind, len(b.Steps))
			return true
		}
		if kind == "prompt" && len(ce.Args)-2 != len(st.Vars) {
			t.Errorf("%s: jaiph::prompt %d passes %d values for vars %v", b.Symbol, id, len(ce.Args)-2, st.Vars)
		}
		calls[id]++
		return true
	})
	for id := 1; id < len(calls); id++ {
		if calls[id] != 1 {
			t.Errorf("%s: step %d (%s) is called %d times", b.Symbol, id, b.Step(id), calls[id])
		}
		if b.Steps[id-1].ID != id {
			t.Errorf("%s: record %d has id %d", b.Symbol, id, b.Steps[id-1].ID)
		}
	}
}

// TestStepRecords lowers a workflow with every kind of recorded step and
// checks the records: what the shell flags carried before is typed data.
func TestStepRecords(t *testing.T) {
	dir := t.TempDir()
	lib := "channel ch\nrule chk {\n  test -n \"$1\"\n}\nworkflow w {\n  echo w\n}\n"
	src := `import "lib.jh" as lib
rule ok {
  ensure lib.chk "a"
}
workflow default {
  x = run lib.w "$1"
  run lib.w || true
  ensure ok recover {
    echo fix
  }
  ensure ok recover echo one
  if ! run lib.w; then
    echo n
  fi
  name="bob"
  r = prompt "hi $name and $1" returns '{ a: string, b: number }'
  prompt "plain"
}
workflow waits {
  a = <- lib.ch key "$pr" timeout "5m"
  <- lib.ch
}
`
	for name, text := range map[string]string{"lib.jh": lib, "main.jh": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prog, err := validate.LoadEntry(filepath.Join(dir, "main.jh"))
	if err != nil {
		t.Fatal(err)
	}
	var main *lowered.Module
	for _, m := range codegen.LowerProgram(prog.Modules, dir, prog.Loader.Resolved) {
		for _, b := range m.Order {
			checkSteps(t, b)
		}
		if m.Symbol == "main" {
			main = m
		}
	}
	if got := main.Bodies["ok"].Steps; !reflect.DeepEqual(got, []lowered.Step{{ID: 1, Kind: lowered.StepEnsure, Target: "lib::chk"}}) {
		t.Errorf("rule ok steps = %+v", got)
	}
	want := []lowered.Step{
		{ID: 1, Kind: lowered.StepRun, Target: "lib::w", Capture: true},
		{ID: 2, Kind: lowered.StepRun, Target: "lib::w"},
		{ID: 3, Kind: lowered.StepEnsure, Target: "main::ok", Capture: true, Always: true},
		{ID: 4, Kind: lowered.StepEnsure, Target: "main::ok", Capture: true, Always: true},
		{ID: 5, Kind: lowered.StepRun, Target: "lib::w"},
		{ID: 6, Kind: lowered.StepPrompt, Capture: true, Typed: true, Name: "r", Returns: "{ a: string, b: number }",
			Fields:  []agent.Field{{Name: "a", Type: "string"}, {Name: "b", Type: "number"}},
			Preview: "hi $name and $1\n\nRespond", Vars: []string{"name", "1"}},
		{ID: 7, Kind: lowered.StepPrompt, Preview: "plain"},
	}
	got := main.Bodies["default"].Steps
	if len(got) != len(want) {
		t.Fatalf("default has %d steps, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("step %d = %+v, want %+v", i+1, got[i], want[i])
		}
	}
	recv := []lowered.Step{
		{ID: 1, Kind: lowered.StepReceive, Capture: true, Channel: "lib::ch", HasKey: true, Timeout: "5m"},
		{ID: 2, Kind: lowered.StepReceive, Channel: "lib::ch"},
	}
	if got := main.Bodies["waits"].Steps; !reflect.DeepEqual(got, recv) {
		t.Errorf("waits steps = %+v, want %+v", got, recv)
	}
	if s := codegen.Annotated(main.Bodies["waits"]); !strings.Contains(s, `a=$(jaiph::receive 1 "$pr") || return $?  # receive capture lib::ch key timeout 5m`+"\n") ||
		!strings.Contains(s, "jaiph::receive 2 || return $?  # receive lib::ch\n") {
		t.Errorf("annotated receives:\n%s", s)
	}
	// For reading, comments beside the calls say what each id is; steps on
	// one line are numbered.
	s := codegen.Annotated(main.Bodies["default"])
	for _, want := range []string{
		"x=$(jaiph::run 1 \"$1\")  # run lib::w capture\n",
		"; set -- \"${__jaiph_args2[@]}\"; done; [ \"$__jaiph_ok2\" = 1 ] || jaiph::ensure_failed  # ensure main::ok capture always\n",
		"if ! jaiph::run 5; then  # run lib::w\n",
		"jaiph::prompt 6 \"${name}\" \"${1}\" <<__JAIPH_PROMPT__  # prompt capture returns { a: string, b: number } into r vars name 1\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("annotated source lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(main.Bodies["default"].Source, "#") {
		t.Errorf("the source the runtime runs has comments:\n%s", main.Bodies["default"].Source)
	}
}
