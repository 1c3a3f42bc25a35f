package validate

import (
	"reflect"
	"testing"

	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// Table tests for the keyword-first guard (docs/language.md#the-keyword-first-guard).

func TestSubstitutions(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []string
	}{
		{`echo hi`, nil},
		{`echo $(a)`, []string{"a"}},
		{`x=$(a; b)`, []string{"a; b"}},
		{`echo "$(a)"`, []string{"a"}}, // double quotes do not hide it
		{`echo '$(a)'`, nil},           // single quotes do
		{`echo "it's $(a)"`, []string{"a"}},
		{`echo $((1 + 2))`, nil},
		{`echo \$(a)`, nil},
		{`echo "$(a)" '$(b)' $(c)`, []string{"a", "c"}},
		{`echo "$(a "$(b)")"`, []string{`a "$(b)"`, "b"}}, // outermost first, recursively
		{`echo $(a $(b) $(c))`, []string{"a $(b) $(c)", "b", "c"}},
		{`echo $(a (b) c)`, []string{"a (b) c"}},
		{`echo $(a ")" b)`, []string{`a ")" b`}},
		{`echo $(unclosed`, []string{"unclosed"}},
	} {
		got := shellscan.Substitutions(tc.s)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("substitutions(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestFirstCommandWord(t *testing.T) {
	for _, tc := range []struct {
		s, want string
	}{
		{`build --x`, "build"},
		{`echo a | b`, "echo"},
		{`| b`, "b"},
		{`; build`, "build"},
		{`&& build`, "build"},
		{`VAR=1 build`, "build"},
		{`A="x y" B='z' lib.go arg`, "lib.go"},
		{`A=1 B=2`, "B"}, // the last assignment has no trailing space
		{`build=1`, "build"},
		{`x=1; build`, "x"},
		{`(cd x && ls)`, "cd"},
		{`{ build; }`, "build"},
		{`(( i++ ))`, "i"},
		{`a.b.c x`, "a.b.c"},
		{`2>/dev/null cmd`, ""},
		{`"quoted" cmd`, ""},
		{`$cmd arg`, ""},
		{``, ""},
		{"\n\nbuild", "build"},
		{`A= build`, "A"}, // an empty unquoted value is not an assignment prefix
		{`A="unterminated build`, "A"},
	} {
		if got := shellscan.FirstCommandWord(tc.s); got != tc.want {
			t.Errorf("FirstCommandWord(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestClassifyFragment(t *testing.T) {
	kinds := map[string]fragmentKind{
		"lint": fragRule, "build": fragWorkflow, "helper": fragFunction,
		"lib.build": fragWorkflow, "lib.nope": fragUnknown, "run": fragOK,
	}
	kindOf := func(w string) fragmentKind { return kinds[w] }
	for _, tc := range []struct {
		frag     string
		wantKind fragmentKind
		wantWord string
	}{
		{`run x`, fragKeyword, ""},
		{`  ensure x`, fragKeyword, ""},
		{"run\tx", fragKeyword, ""},
		{`run`, fragOK, "run"}, // no space after the keyword
		{`running x`, fragOK, "running"},
		{`ch <- x`, fragSend, ""},
		{`echo a | ch <- x`, fragSend, ""},
		{`echo "a <- b"`, fragOK, "echo"},
		{`echo build`, fragOK, "echo"},
		{`printf '%s' lint`, fragOK, "printf"},
		{`lint --fix`, fragRule, "lint"},
		{`X=1 build`, fragWorkflow, "build"},
		{`{ helper; }`, fragFunction, "helper"},
		{`lib.build`, fragWorkflow, "lib.build"},
		{`lib.nope x`, fragUnknown, "lib.nope"},
		{`other.thing`, fragOK, "other.thing"},
		{``, fragOK, ""},
	} {
		k, w := classifyFragment(tc.frag, kindOf)
		if k != tc.wantKind || w != tc.wantWord {
			t.Errorf("classifyFragment(%q) = %v, %q; want %v, %q", tc.frag, k, w, tc.wantKind, tc.wantWord)
		}
	}
}

func TestCheckShellOrder(t *testing.T) {
	kindOf := func(w string) fragmentKind {
		return map[string]fragmentKind{"r": fragRule, "w": fragWorkflow}[w]
	}
	// Substitutions are checked before lines.
	if got, want := checkShell(`w "$(r)"`, true, kindOf), `command substitution cannot invoke rule "r"; use ensure r ... in a workflow step`; got != want {
		t.Errorf("checkShell substitution first = %q, want %q", got, want)
	}
	// Rule/function bodies only get the substitution checks.
	if got := checkShell(`w --x`, false, kindOf); got != "" {
		t.Errorf("checkShell without lines = %q, want no message", got)
	}
	// Every non-empty, non-comment line of a block is checked.
	if got, want := checkShell("{\n  # w\n\n  w\n}", true, kindOf), `workflow "w" must be invoked with run, not as a shell command`; got != want {
		t.Errorf("checkShell block = %q, want %q", got, want)
	}
}
