package bashcheck

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/runtime"
)

// runInterp runs src the way the runtime runs shell: its interpreter with
// jaiph's builtins (echo, printf, …) routed in.
func runInterp(t *testing.T, src string) string {
	t.Helper()
	// One buffer for stdout and stderr, written by the shell and by
	// programs it started in the background at once.
	var out lockedBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := runtime.RunTestShell(ctx, src, runtime.ShellOptions{
		Env: os.Environ(), Dir: t.TempDir(), Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out,
	})
	if err != nil {
		out.WriteString("[" + err.Error() + "]")
	}
	return strings.TrimSpace(out.String())
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) WriteString(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(s)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// runBash runs src with bash 5.2, its `bash: line N: ` prefixes removed.
func runBash(t *testing.T, src string) string {
	t.Helper()
	cmd := exec.Command("/usr/bin/bash", "-c", src)
	cmd.Dir = t.TempDir()
	cmd.Stdin = strings.NewReader("")
	out, _ := cmd.CombinedOutput()
	// bash -c names itself by the path it was run as: "/usr/bin/bash: line 1: ".
	s := strings.ReplaceAll(string(out), "/usr/bin/bash: line 1: ", "")
	s = strings.ReplaceAll(s, "bash: line 1: ", "")
	return strings.TrimSpace(s)
}

// TestRefusalsReallyDiffer keeps the table honest: every refused construct
// runs differently in the interpreter and in bash, and is refused at its
// position. When the interpreter learns a construct, this test fails and the
// entry is to be removed.
func TestRefusalsReallyDiffer(t *testing.T) {
	if _, err := exec.LookPath("/usr/bin/bash"); err != nil {
		t.Fatalf("bash is needed to compare: %v", err)
	}
	for _, r := range table {
		t.Run(r.name, func(t *testing.T) {
			got, want := runInterp(t, r.example), runBash(t, r.example)
			if got == want {
				t.Errorf("%q runs the same in the interpreter and bash (%q): drop the refusal", r.example, got)
			}
			diags := Source("x.jh", r.example, nil)
			ok := false
			for _, d := range diags {
				if d.Code == "E_VALIDATE" && d.Message == "unsupported shell feature: "+r.name {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%q not refused as %s: %v", r.example, r.name, diags)
			}
		})
	}
}

// TestAllowed are constructs that run as in bash and must not be refused,
// including the ones other work makes the interpreter run.
func TestAllowed(t *testing.T) {
	for _, src := range []string{
		"set -euo pipefail; set +x; set -- a b",
		`IFS=:; set -- ${1+"$@"}; echo "${v+${a[@]}}" ${v:-$u} ${a[@]^}; f() { echo ${1:+"${a[@]}"}; }`,
		`a=(1 2); echo ${v+${a[@]}} ${u:-$@}`,
		"set -o errexit -o nounset; set +o pipefail",
		"shopt -s extglob nullglob globstar",
		"shopt -s autocd histappend; shopt -u cmdhist progcomp",
		"echo ${!SHELL*} ${!v*} ${!a@} ${!EPOCH*} ${!BASHO*} ${!BASH_V*}",
		"printf -v v '%q' x; printf '%(%Y)T' 0",
		"printf -- '%d\\n' 3",
		"echo ${x@U} ${x/a/b} ${x//a/b} ${x:-d} $1 $@ $#",
		"cat <(echo hi)",
		"trap 'echo bye' EXIT; kill -0 $$; wait -n 2>/dev/null; disown 2>/dev/null",
		"exec 3>file; read -t 1 x <<< a; let x=1",
		"declare -a a=(1); declare -A m; local -r R=1; export X=1; readonly Y=2",
		"declare -p a m; declare -f; declare -F; typeset -f; set --; set -e; declare -- d=1; export -- E=1",
		"read -r -p 'x' -a arr <<< 'a b'",
		"cd /tmp; type echo; command -v echo",
		"select x in a; do break; done",
		"LC_ALL=C sort f; LANG=C.UTF-8; export LC_ALL=C.utf8 LANG; echo $LANG; f() { LC_CTYPE=C grep x; }",
		"x=6 declare -p x; y=1 typeset -fp y; z=2 declare -xp z",
	} {
		if d := Source("x.jh", src, nil); len(d) > 0 {
			t.Errorf("%q refused: %v", src, d)
		}
	}
}

// TestArithNameRefused: a refused parameter read as a bare name in
// arithmetic is refused as ${NAME} is ($((BASH_LINENO)) is 0 in the
// interpreter, the caller's line in bash); names that are no refused
// parameter are not.
func TestArithNameRefused(t *testing.T) {
	for _, src := range []string{
		"f() { echo $((BASH_LINENO)); }; f",
		"f() { (( BASH_LINENO > 0 )) && echo yes; }; f",
		"f() { let 'x = BASH_LINENO + 1'; for (( i = BASH_LINENO; i < 0; i++ )); do :; done; }; f",
		"echo $(( 1 + (BASH_SOURCE) ))",
	} {
		diags := Source("x.jh", src, nil)
		if len(diags) == 0 || !strings.Contains(diags[0].Message, "BASH_") {
			t.Errorf("%q not refused: %v", src, diags)
		}
	}
	if d := Source("x.jh", "x=1; echo $((x + LINENO)); (( x )); let x++; echo BASH_LINENO", nil); len(d) > 0 {
		t.Errorf("refused: %v", d)
	}
}

// TestNamesPrefixRefused: ${!prefix*} and ${!prefix@} are refused when the
// prefix begins a variable only bash has (bash lists it, the interpreter
// has none), also a one-letter prefix of it.
func TestNamesPrefixRefused(t *testing.T) {
	for _, src := range []string{"echo ${!B*}", "echo ${!BASH_*}", "for v in \"${!L@}\"; do :; done", "echo ${!GR*}", "echo ${!HIS@}"} {
		diags := Source("x.jh", src, nil)
		if len(diags) == 0 || !strings.Contains(diags[0].Message, "${!prefix*} matching a variable only bash has") {
			t.Errorf("%q not refused: %v", src, diags)
		}
	}
}

// TestHashListingRefused: `hash --` lists the table as `hash` does, and is
// refused with it (it listed nothing); names after `--` are commands to
// remember.
func TestHashListingRefused(t *testing.T) {
	for src, refused := range map[string]bool{
		"hash":          true,
		"hash --":       true,
		"hash -r":       false,
		"hash -- ls":    false,
		"hash ls cat":   false,
		"hash -r -- ls": false,
	} {
		if d := Source("x.jh", src, nil); (len(d) > 0) != refused {
			t.Errorf("%q: refused %v, want %v (%v)", src, len(d) > 0, refused, d)
		}
	}
}

// TestShoptSetOptions: shopt -s/-u -o NAME is set -o NAME, refused as it
// is for the options the interpreter does not run; a query (shopt -o NAME,
// shopt -p -o NAME) shows bash's value and is not refused.
func TestShoptSetOptions(t *testing.T) {
	for src, refused := range map[string]bool{
		"shopt -s -o history":            true,
		"shopt -so physical":             true,
		"shopt -u -o verbose":            true,
		"shopt -s -o errexit":            false,
		"shopt -p -o history":            false,
		"shopt -o physical verbose":      false,
		"shopt -s extglob; shopt -po vi": false,
	} {
		if d := Source("x.jh", src, nil); (len(d) > 0) != refused {
			t.Errorf("%q: refused %v, want %v (%v)", src, len(d) > 0, refused, d)
		}
	}
}

// TestLaterCodeRefused: a literal trap action or eval string is scanned as
// the shell it runs later ($BASH_COMMAND in an ERR trap read as empty), at
// the word's position; a valid action without refused constructs passes.
func TestLaterCodeRefused(t *testing.T) {
	for src, want := range map[string]string{
		`trap 'echo "$BASH_COMMAND"' ERR`:  "BASH_COMMAND",
		`trap -- 'echo ${GROUPS[@]}' EXIT`: "GROUPS",
		`eval 'echo $BASH_SOURCE'`:         "BASH_SOURCE",
		`trap 'echo bye' EXIT`:             "",
		`eval "echo $x"`:                   "",
	} {
		d := Source("x.jh", src, nil)
		if got := fmt.Sprint(d); want == "" && len(d) > 0 || want != "" && !strings.Contains(got, want) {
			t.Errorf("%s: got %v, want %q", src, d, want)
		}
	}
}

// TestExtglobOnlyInTestPatterns: inside [[ ]] an extended group is bash's
// syntax only right of ==, = and != and in =~'s expression.
func TestExtglobOnlyInTestPatterns(t *testing.T) {
	for src, refused := range map[string]bool{
		`[[ $v == *@(|d) ]]`:   false,
		`[[ $v != @(a|b) ]]`:   false,
		`[[ $v = +(x) ]]`:      false,
		`[[ $v =~ @(a) ]]`:     false,
		`[[ $v < *@(|d) ]]`:    true,
		`[[ @(a) == $v ]]`:     true,
		`[[ -n @(a) ]]`:        true,
		`echo "${v/@(a|b)/x}"`: false,
		`[[ ( $v == @(a) ) ]]`: false,
	} {
		if d := Source("x.jh", src, nil); (len(d) > 0) != refused {
			t.Errorf("%q: refused %v, want %v (%v)", src, len(d) > 0, refused, d)
		}
	}
}

// TestLiteralRegexpGoCannotRun: a [[ =~ ]] expression written in the word
// (quoted parts literal) that glibc reads in a way Go's regular
// expressions cannot follow is refused where it is; one held in a
// variable, or one jaiph runs as bash, is not.
func TestLiteralRegexpGoCannotRun(t *testing.T) {
	for src, refused := range map[string]bool{
		`[[ a =~ a{1001} ]]`:     true,
		`[[ a =~ "a"{1001} ]]`:   true,
		`[[ a =~ (a|){1,2} ]]`:   true,
		`[[ ba =~ b(^a){0,2} ]]`: true,
		`[[ a =~ (x)|a$.b ]]`:    true,
		`[[ a =~ 'a{1001}' ]]`:   false, // quoted: the text a{1001}
		`[[ a =~ $r ]]`:          false,
		`[[ a =~ a{$n} ]]`:       false,
		`[[ a =~ ^(a|b)$ ]]`:     false,
		`[[ a =~ (^|,)x($|,) ]]`: false,
		`[[ a =~ \(a\)\\1 ]]`:    false, // the shell's quotes: \( ( \\ \ and 1
		`[[ $'x\nb' =~ $.b ]]`:   false, // no groups: glibc's line ends, as jaiph
		`[[ a == a{1001} ]]`:     false,
	} {
		if d := Source("x.jh", src, nil); (len(d) > 0) != refused {
			t.Errorf("%q: refused %v, want %v (%v)", src, len(d) > 0, refused, d)
		}
	}
}

// TestNamerefCycleRefused: a cycle of namerefs with literal targets, in one
// declaration or across several, is refused at the declaration closing it;
// a chain without a cycle, a target held in a word that expands, export
// -n and a list are not.
func TestNamerefCycleRefused(t *testing.T) {
	for src, refused := range map[string]bool{
		"f() { local -n r=r; }":                            true,
		"f() { local -n a=b b=a; }":                        true,
		"declare -n a=b; f() { declare -n b='a'; }":        true,
		"f() { local -rn v1=v2 v2=v3 v3=v2; }":             true,
		"typeset -n x=\"x\"":                               true,
		"f() { local -n a=b b=c; c=1; }":                   false,
		"f() { local -n a=$1 b=a; }":                       false,
		"f() { local -n r; r=r; }":                         false,
		"export -n a=b b=a":                                false,
		"declare a=b b=a":                                  false,
		"f() { local -n a='b[1]' b=a; }":                   false,
		"declare -n a=b; f() { local b=a; }":               false,
		"f() { local -n a=b; }; g() { local -n c=d d=e; }": false,
	} {
		diags := Source("x.jh", src, nil)
		got := len(diags) > 0 && strings.Contains(diags[0].Message, "a cycle of namerefs")
		if got != refused || !refused && len(diags) > 0 {
			t.Errorf("%q: refused %v, want %v: %v", src, got, refused, diags)
		}
	}
}
