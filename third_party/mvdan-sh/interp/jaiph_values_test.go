// Differential tests for jaiph-go's patches to the interpreter: each snippet
// runs under interp and under /usr/bin/bash -c, and stdout, stderr (bash's
// "bash: line N: " / "bash: " prefix stripped) and the exit status must match.
package interp_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type shResult struct {
	stdout, stderr string
	status         int
}

func runBash(t *testing.T, dir, src string) shResult {
	t.Helper()
	// Run as a script file, as jaiph-go's bodies are (FUNCNAME ends in
	// "main"; expansion errors exit with 1, not -c's 127).
	script := filepath.Join(t.TempDir(), "s.sh")
	if err := os.WriteFile(script, []byte(src+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/usr/bin/bash", script)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "LC_ALL=C"}
	err := cmd.Run()
	status := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	// bash's location prefix goes; getopts' messages, which bash
	// prefixes with $0, get the interpreter's $0, gosh (no file name)
	getopts := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(script) + `: (illegal option|option requires an argument) -- `)
	prefix := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(script) + `: (line \d+: )?`)
	stderr := prefix.ReplaceAllString(getopts.ReplaceAllString(errb.String(), "gosh: $1 -- "), "")
	return shResult{out.String(), stderr, status}
}

func runInterp(t *testing.T, dir, src string) shResult {
	t.Helper()
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return shResult{"", err.Error() + "\n", 2}
	}
	// Commands run concurrently (a pipeline's elements, jobs) each copy
	// their output to these writers from a goroutine of their own.
	var out, errb syncBuffer
	r, err := interp.New(
		interp.StdIO(nil, &out, &errb),
		interp.Dir(dir),
		interp.Env(expand.ListEnviron("PATH="+os.Getenv("PATH"), "HOME="+os.Getenv("HOME"), "LC_ALL=C")),
	)
	if err != nil {
		t.Fatal(err)
	}
	err = r.Run(context.Background(), file)
	// A job the snippet never waited for (`<(sleep 0.5)`) may still write
	// to out and errb, as bash's own jobs do until its pipes close, which
	// runBash's cmd.Run waits for.
	r.WaitBackground()
	status := 0
	var es interp.ExitStatus
	if errors.As(err, &es) {
		status = int(es)
	} else if err != nil {
		errb.Write([]byte(err.Error() + "\n"))
		status = 1
	}
	return shResult{out.String(), errb.String(), status}
}

func compareWithBash(t *testing.T, src string) {
	t.Helper()
	dirB, dirI := t.TempDir(), t.TempDir()
	want := runBash(t, dirB, src)
	got := runInterp(t, dirI, src)
	if got != want {
		t.Errorf("snippet:\n%s\nbash:   %q %q %d\ninterp: %q %q %d", src, want.stdout, want.stderr, want.status, got.stdout, got.stderr, got.status)
	}
}

func runCases(t *testing.T, cases []string) {
	for _, src := range cases {
		t.Run("", func(t *testing.T) { compareWithBash(t, src) })
	}
}

func TestJaiphArrays(t *testing.T) {
	runCases(t, []string{
		`declare -A m=([a]=1 [b]=2); echo ${#m[@]} ${#m[*]}; echo ${!m[@]}; echo ${m[@]}; echo "${m[*]}"`,
		`declare -A m=([x1]=1 [hello]=2 [c]=3 [b]=4 [a]=5 [zz]=6); for k in "${!m[@]}"; do echo "$k=${m[$k]}"; done`,
		`declare -A m; m[x]=1; m[y]=2; m[z]=3; echo ${#m[@]}; unset 'm[y]'; echo ${#m[@]} ${!m[@]}`,
		`declare -A m=([a]=1); m+=([b]=2 [a]=3); echo ${#m[@]} ${m[a]} ${m[b]}; m[a]+=x; echo ${m[a]}`,
		`declare -A m=(["a b"]=1 [c]=$'x\ny' [d]='q"$'); declare -p m; declare -A e; declare -p e`,
		`a=(1 2 3); echo ${#a[@]}; unset 'a[1]'; echo ${#a[@]} ${!a[@]} ${a[@]}; declare -p a`,
		`a=(1 2 3); echo ${a[-1]} ${a[-2]}; a[-1]=9; echo ${a[@]}; a[1]+=x; echo ${a[@]}`,
		`a=(1 2); a+=(3 4); echo ${#a[@]} ${a[@]}; a[10]=x; echo ${#a[@]} ${!a[@]}; a+=(y); echo ${!a[@]}`,
		"x=$'a\\nb'; declare -p x; y='q\"$`'; declare -p y",
	})
}

func TestJaiphSpecialVars(t *testing.T) {
	runCases(t, []string{
		`f() { echo ${FUNCNAME[0]} ${#FUNCNAME[@]}; g; }; g() { echo ${FUNCNAME[@]} $FUNCNAME; ( echo ${FUNCNAME[1]} ); }; f; echo "[${FUNCNAME[@]}]" ${#FUNCNAME[@]}`,
		`main::f::impl() { set -eo pipefail; echo "$FUNCNAME"; }; main::f::impl`,
		`echo $BASH_VERSION; echo ${BASH_VERSINFO[@]}; echo ${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}`,
		`( [[ $BASHPID != $$ ]] && echo differs ); [[ $BASHPID == $$ ]] && echo same; p=$$; ( [[ $$ == $p ]] && echo parent ); a=$(echo $BASHPID); [[ $a != $$ ]] && echo cmdsubst`,
		`( echo $BASHPID ) > f; ( echo $BASHPID ) > g; cmp -s f g || echo two`,
	})
}

func TestJaiphArithmetic(t *testing.T) {
	runCases(t, []string{
		`let "n = 6 * 7"; echo $? $n; let n=0; echo $?; let a=1 b=2; echo $? $a $b; let 'c = a + b' 'd = c * 2'; echo $c $d`,
		`let 1/0; echo "after $?"`,
		`((1/0)); echo "after $?"`,
		`echo $((1/0)); echo after`,
		`f() { x=$((5%0)); echo in; }; f; echo after`,
		`x="1+2"; echo $((x*2)); y=x; echo $((y+1)); z=abc; abc=5; echo $((z+1)); ((z += 1)); echo $z`,
		`x=08; echo $((x)); echo after`,
		`echo $((08 + 1)); echo after`,
		`echo $((2**10)) $((0x1f)) $((0X1F)) $((8#17)) $((-7/2)) $((-7%2)) $((10#08)) $((2#101)) $((36#z)) $((64#_)) $((0x))`,
		`echo $(( 1 << 70 )) $((2**63)) $(( -9223372036854775807 - 1 ))`,
		`echo $((1e3)); echo after`,
		`v=7; ((v++)); ((v--)); ((v++)); echo $v; i=0; while ((i<3)); do ((i++)); done; echo $i; ((0)); echo $?`,
	})
}

func TestJaiphQuoting(t *testing.T) {
	runCases(t, []string{
		`x=a\'b; echo "$x"; y=a\$b; echo "$y"; z=a\"b; echo "$z"; w=a\\b; echo "$w"; v=a\ b; echo "$v"; u=a\b; echo "$u"`,
		`declare -A m; m[a\ b]=1; echo "${!m[@]}"; case a\*b in 'a*b') echo lit;; esac; case axb in a\*b) echo bad;; *) echo ok;; esac`,
		`[[ a.b =~ a\.b ]] && echo 1; [[ axb =~ a\.b ]] || echo 2; [[ axb =~ a.b ]] && echo 3; [[ a.b =~ "a.b" ]] && echo 4; [[ axb =~ "a.b" ]] || echo 5`,
		`[[ abc123 =~ ([a-z]+)([0-9]+) ]] && echo ${BASH_REMATCH[0]} ${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${#BASH_REMATCH[@]}; re='^(x+)$'; [[ xxx =~ $re ]] && echo ${BASH_REMATCH[1]}`,
		`cat <<< a\'b; echo a\'b > f\ g; cat 'f g'; x=${u:-a\'b}; echo "$x"`,
	})
}

func TestJaiphExtglob(t *testing.T) {
	runCases(t, []string{
		`[[ x == @(x|y) ]] && echo yes; [[ foo == +(f|o) ]] && echo plus; [[ foo == !(bar) ]] && echo neg; [[ bar == !(bar) ]] || echo neg2; [[ "" == ?(a) ]] && echo opt; [[ aaa == *(a) ]] && echo star`,
		"shopt -s extglob\n[[ foo == +(f|o) ]] && echo yes; [[ foo == !(bar) ]] && echo no",
		"shopt -s extglob\ncase foo.c in *.@(c|h)) echo src;; esac; case foo.o in !(*.c)) echo notc;; esac",
		"shopt -s extglob\nx=aaabbb; echo ${x##+(a)} ${x//@(a|b)/-} ${x%%*(b)} ${x#?(a)}",
		"shopt -s extglob\ntouch a.c b.h c.o; echo *.@(c|h); echo !(*.o); echo +([a-c]).?",
		"shopt -s extglob\nx=' hi '; echo \"[${x##*( )}]\" \"[${x%%+( )}]\"",
		"shopt -s extglob\np='@(a|b)'; [[ a == $p ]] && echo var; [[ a == \"$p\" ]] || echo quoted",
	})
}

func TestJaiphParamOps(t *testing.T) {
	runCases(t, []string{
		`x=abc; echo ${x/#/X} ${x/%/Y} ${x/#a/-} ${x/%c/-} ${x/#b/-} ${x/b/} ${x//[ac]/-} ${x/#*/all}`,
		`a=(ab cb); echo ${a[@]/#?/Z} ${a[@]/%b/Z}`,
		`x='a*b'; echo ${x#"a*"} ${x#a\*} ${x%\*b} ${x/\*/-}; y=aXXb; echo ${y#a*}`,
		`x=path/to/file.txt; echo ${x%.*} ${x%%/*} ${x#*/} ${x##*/}`,
		`echo ${u:-def} ${u:=set}; echo $u; unset x; echo ${x-unset} ${x+set}; x=; echo ${x-unset} ${x+set} ${x:-empty}`,
		`x=abcdef; echo ${x:1:2} ${x: -2} ${x:1:-1} ${x: -3:2} ${x:10}; a=(x y z); echo "${a[@]:1}" "${a[@]: -1}"`,
		`x=hello; echo ${x^^} ${x,,} ${x^}; pa=1 pb=2; echo ${!p*}; echo ${!p@}`,
	})
}

func TestJaiphReadAndFds(t *testing.T) {
	runCases(t, []string{
		`read -t 0.2 x < <(sleep 1); echo $? "[$x]"; read -t 0.2 y < <(printf ab; sleep 1); echo $? "[$y]"; read -t 1 z < <(echo ok); echo $? $z`,
		`echo abcdef | { read -n 3 x; echo $x; }; printf 'ab\ncd' | { read -n 3 x; echo "[$x]"; }; printf 'ab\ncd' | { read -N 4 x; echo "[$x]"; }`,
		`printf 'a:b;c' | { read -d ';' x; echo $x; read -d ';' y; echo "$? $y"; }; printf 'p\0q\0' | { read -r -d '' a; read -r -d '' b; echo $a $b; }`,
		`echo "1 2 3" | { read -a arr; echo ${#arr[@]} ${arr[1]}; }; echo secret | { read -s x; echo $x; }`,
		`exec 3>f; echo hi >&3; echo there 1>&3; exec 3>&-; cat f; echo x >&3; echo "status $?"`,
		`echo a > f; exec 3>>f; echo b >&3; exec 3>&-; cat f`,
		`printf 'l1\nl2\nl3\n' > f; exec 3<f; read -u 3 x; echo $x; read line <&3; echo $line; cat <&3; exec 3<&-`,
		`exec {fd}>f; echo x >&$fd; [[ $fd -ge 10 ]] && echo high; exec {fd}>&-; cat f`,
		`echo in > f; exec 4<f; exec 3<&4; exec 4<&-; read -u 3 v; echo $v`,
		`exec 3>&1; { echo to3 >&3; } > /dev/null; exec 3>&-`,
		`{ echo a; echo b >&2; } 2>&1 | cat; ls nofile 2>/dev/null || echo miss; echo x > /nonexistent/dir/f; echo $?; cat < nofile; echo $?`,
		`f() { echo body >&3; }; f 3>g; cat g; f 3>&1`,
		`set -C; echo a > f; echo b > f; echo $?; echo c >| f; cat f; echo d >> f; cat f; set +C; echo e > f; cat f`,
		`set -o noclobber; echo a > f; echo b > f; echo $?; echo $-; set -eu; echo $-`,
		`echo x > f; sh -c 'cat <&3' 3<f; exec 5<f; sh -c 'cat <&5'`,
	})
}

func TestJaiphMisc(t *testing.T) {
	runCases(t, []string{
		`echo ${u?}; echo after`,
		`x=; echo ${x:?}; echo after`,
		`echo ${u:?custom text}; echo after`,
		`x=hello; echo ${x@Q}; x="a b'c"; echo ${x@Q}; x=$'t\tn\n'; echo ${x@Q}; x=; echo ${x@Q}`,
		`echo "[${x@A}]"; x=1; echo ${x@A}; export y="a b"; echo ${y@A}`,
		`[[ -v x ]] || echo unset; x=1; [[ -v x ]] && echo set; a=(1); [[ -v a[0] ]] && echo el; [[ -v a[1] ]] || echo noel; declare -A m=([k]=1); [[ -v m[k] ]] && echo key; [[ -v m[z] ]] || echo nokey`,
		`declare -a a; declare -p a; a[3]=x; echo ${!a[@]}; declare -p a; declare -A m; m[k]=v; declare -p m`,
		`set -eo pipefail; echo $-`,
	})
}

func TestJaiphGetopts(t *testing.T) {
	runCases(t, []string{
		`set -- -a -b val c; while getopts ab: o; do echo "$o ${OPTARG-}"; done; echo $OPTIND`,
		// jaiph-go leaves out bash's "$0: " prefix, as the bash -c
		// corpus sees it ($0 is "bash", stripped like "bash: line N: ").
		`set -- -x -b; { getopts ab: o; echo "$? $o"; getopts ab: o; echo "$? $o"; } 2>&1 | sed "s|^$0: ||"`,
		`set -- -x; getopts :ab o; echo "$? $o $OPTARG"`,
	})
}

func TestJaiphPipesAndReadonly(t *testing.T) {
	runCases(t, []string{
		`true | false | true; echo ${PIPESTATUS[@]}; false; echo ${PIPESTATUS[0]} ${#PIPESTATUS[@]}; { true | false; }; echo ${PIPESTATUS[@]}`,
		`x=1; echo 5 | read x; echo $x; echo 6 | { read x; echo in $x; }; echo $x; echo y | while read l; do x=$l; done; echo $x`,
		`set -o pipefail; false | true; echo $?; true | (exit 3) | true; echo $? ${PIPESTATUS[@]}`,
		`echo a | exit 3; echo "after $?"`,
		`set -e; echo a | { false; echo no; }; echo unreached`,
		`readonly r=1; r=2; echo "after $?"`,
		`readonly r=1; r=2 true; echo "after $?"`,
		`readonly r=1; (r=2; echo in); echo "after $?"`,
		`[[ 1+1 -eq 2 ]] && echo arith; x=3; [[ x -gt 2 ]] && echo name; [[ 08 -eq 8 ]]; echo $?; [[ 0x10 -eq 16 ]] && echo hex`,
	})
}

func TestJaiphNocasematch(t *testing.T) {
	runCases(t, []string{
		`shopt -s nocasematch; [[ ABC == abc ]] && echo yes; case ABC in abc) echo case;; esac; [[ ABC =~ ^abc$ ]] && echo re; shopt -u nocasematch; [[ ABC == abc ]] || echo off`,
	})
}

func TestJaiphDeclareAttrs(t *testing.T) {
	runCases(t, []string{
		`declare -i i=3; i+=2; echo $i; i="2*3"; echo $i; i=abc; echo $i; declare -p i`,
		`declare -u U=abc; echo $U; U+=de; echo $U; declare -l L=ABC; echo $L; declare -p U L`,
		`declare -rxi v=1; declare -p v; declare -xu u=a; declare -p u; declare -il w=1; declare -p w`,
		`declare -i z; declare -p z; z=4+4; echo $z; f() { local -i n=2*3; echo $n; }; f`,
		`declare -u -l B=aB; declare -p B; declare -ia arr=(1+1 2*2); echo ${arr[@]}`,
	})
}

func TestJaiphErrorTexts(t *testing.T) {
	runCases(t, []string{
		`nosuchcmd_x; echo $?`,
		`./nofile; echo $?`,
		`cd /nonexistent; echo $?; cd /etc/passwd; echo $?`,
		`return 2; echo $?`,
		`set -u; a=(); echo "${a[@]}" ok; echo $((nope + 1)); echo after`,
		`set -u; echo $((RANDOM >= 0)) $((BASHPID > 0)) $((PPID > 0)) $(($$ > 0)); x=1; echo $((x+1))`,
	})
}

func TestJaiphLocalShift(t *testing.T) {
	runCases(t, []string{
		`x=10; f() { local x; x=2; echo $x; }; f; echo $x; g() { local x; echo "[${x-unset}]"; x=3; }; g; echo $x`,
		`f() { local y=1; g; echo "f:$y"; }; g() { local y; echo "g:[${y-unset}]"; y=2; }; f; h() { local z=1; local z; echo "h:$z"; }; h`,
		`set -- a b c d; shift 2; echo $@; shift 5; echo $? $#; shift 2; echo $? $#`,
	})
}

func TestJaiphArithmLvalues(t *testing.T) {
	runCases(t, []string{
		`a=(1 2 3); i=1; echo ${a[i+1]} $(( a[1] + a[2] )); ((a[0]++)); echo ${a[0]}; (( a[5] = 7 )); echo ${a[@]}; ((a[1] *= 10)); echo ${a[1]}`,
		`declare -A m=([k]=4); echo $(( m[k] * 2 )); m[n]=$(( m[k] + 1 )); echo ${m[n]}; (( m[k]++ )); echo ${m[k]}`,
		`export n=1; ((n++)); env | grep '^n='; declare -i j=1; ((j += 2)); declare -p j`,
		`x=1; let x++; echo $x; let "x += 4"; echo $x; let x=x*x; echo $x; echo $(( y = 5, y + 1 )) $y`,
		`f() { local c=1; ((c++)); echo $c; }; c=9; f; echo $c`,
	})
}

func TestJaiphReadPoll(t *testing.T) {
	runCases(t, []string{
		`echo x > f; read -t 0 < f; echo $?; read -t 0 < <(sleep 0.5); echo $?; read -t 0 <<< x; echo $?; read -t 0 v <<< x; echo "$? [$v]"`,
	})
}

func TestJaiphPatsubReplacement(t *testing.T) {
	runCases(t, []string{
		`x=abc; echo ${x/b/[&]} "${x/b/[&]}" ${x/b/\&} "${x/b/\&}" "${x/b/"&"}" "${x//[ac]/<&>}"; y='&&'; echo ${x/b/$y} "${x/b/"$y"}"`,
		`a=(ab cb); echo "${a[@]/b/(&)}" ${a[@]/#?/&&}`,
	})
}

func TestJaiphErrexitCmdSubst(t *testing.T) {
	runCases(t, []string{
		`set -e; echo $(false; echo printed); echo after; x=$(false; echo v); echo $x`,
		`shopt -s inherit_errexit; set -e; echo $(false; echo printed); echo after`,
		`set -e; echo $(echo $-); (echo sub $-); shopt inherit_errexit`,
		`set -e; cat <(false; echo ps); echo after`,
		`main::f::impl() { set -eo pipefail; local out; out=$(false); echo no; }; main::f::impl; echo "st $?"`,
	})
}

func TestJaiphShopt(t *testing.T) {
	runCases(t, []string{
		`shopt -q extglob; echo $?; shopt -s extglob; shopt -q extglob; echo $?; shopt extglob nullglob; echo $?; shopt -u nosuch; echo $?`,
		`set -o errexit -o nounset -o pipefail; echo $-; set +o pipefail; set -o | grep -E '^(errexit|pipefail)'; shopt -o errexit`,
	})
}

func TestJaiphPipestatusSubshell(t *testing.T) {
	runCases(t, []string{
		`true | false; ( echo ${PIPESTATUS[@]} ); false | true | false; echo "$(echo ${PIPESTATUS[@]})"`,
	})
}

func TestJaiphReadSplit(t *testing.T) {
	var cases []string
	for _, in := range []string{`1:2:`, `1:2::`, `1::3`, `:1:2`, `1:2:3:`, ` 1 : 2 `, `1 :: 2`, `a  b  `, `a\:b:c`, ``, `   `} {
		cases = append(cases, `inp='`+in+`'; IFS=: read a b <<< "$inp"; printf '[%s][%s] ' "$a" "$b"; IFS=': ' read a b <<< "$inp"; printf '[%s][%s] ' "$a" "$b"; IFS=: read -ra arr <<< "$inp"; printf '%d' ${#arr[@]}; printf '[%s]' "${arr[@]}"; IFS=': ' read -a arr <<< "$inp"; printf ' %d' ${#arr[@]}; printf '[%s]' "${arr[@]}"; read x <<< "$inp"; echo "[$x]"`)
	}
	runCases(t, cases)
}

func TestJaiphMapfile(t *testing.T) {
	runCases(t, []string{
		`mapfile -t -n 2 arr < <(printf '1\n2\n3\n'); echo ${arr[@]}; mapfile -s 1 -t arr2 < <(printf '1\n2\n'); echo ${arr2[@]}`,
		`printf 'a\nb\nc\n' > f; { mapfile -n 1 -t x; read y; echo "$x $y"; } < f; mapfile m < f; printf '[%s]' "${m[@]}"; echo`,
		`a=(p q r); mapfile -O 1 -t a <<< "z"; echo ${a[@]}; printf 'x' | mapfile -t b; mapfile -t c < /dev/null; echo ${#c[@]}; declare -p c`,
		`printf 'l1\nl2\n' > f; exec 3<f; mapfile -u 3 -t d; echo ${d[1]}; readarray -d , -t parts <<< "a,b,c"; echo ${#parts[@]} "${parts[2]}"`,
		`read -p 'prompt> ' x <<< val; echo "[$x]"`,
	})
}

func TestJaiphShlvl(t *testing.T) {
	runCases(t, []string{
		`echo $SHLVL; env | grep '^SHLVL='; (echo $SHLVL); echo $(echo $SHLVL)`,
	})
}

func TestJaiphArithmErrorTexts(t *testing.T) {
	var cases []string
	for _, e := range []string{`1/0`, ` 1 / 0 `, `5 / (2-2) `, `( 3 % 0 )`, `2**-1`, `x = 7 / 0`, `y /= 0`, `1 + 2 * (4 / 0) - 1`, `x++ / 0`} {
		cases = append(cases,
			`echo $((`+e+`)); echo after`,
			`((`+e+`)); echo "st $?"`,
			`let '`+e+`'; echo "st $?"`)
	}
	cases = append(cases, `v='4 / 0'; echo $((v + 1)); echo after`, `let x=1/0 y=2; echo "$? $y"`)
	runCases(t, cases)
}

func TestJaiphXtrace(t *testing.T) {
	runCases(t, []string{
		"set -x; (( x = 1 + 2 )); ((x++)); [[ -n $x && $x == 3 ]]; [[ a < b ]]; let y=2; a=(1 2); f() { local z=1; }; f; echo \"$(echo hi)\"; x=$(echo 2) y=3; case a in a) :;; esac; for i in 1; do :; done",
		`set -x; echo a b "c d" "it's" "" x=1 "~x" a~ "#h" a# "q*" "a=b c"; true "$(echo s p)"; declare -i n=3; export e=1; readonly r=1 q; export a=1 b=2 c; declare -x d=4`,
	})
}

func TestJaiphExpandBeforeRedirect(t *testing.T) {
	runCases(t, []string{
		`echo old > f; echo $(cat f) new > f; cat f`,
		`echo old > f; x=$(cat f) > f; cat f; echo "[$x]"; y=$(false) > g; echo $?`,
		`echo $((1/0)) 2>/dev/null; echo reached`,
		`echo $(echo err >&2) 2>/dev/null; x=1 > /nonexistent/f; echo "$? $x"; echo hi > /nonexistent/g; echo $?`,
		`f() { echo "in f" >&2; }; f 2>/dev/null; { echo grouped; } > f2; cat f2; while read l; do echo $l; done < f2`,
	})
}

func TestJaiphShellVars(t *testing.T) {
	runCases(t, []string{
		`[[ ab =~ (a)(b) ]]; echo ${#BASH_REMATCH[@]}; [[ x =~ (y) ]]; echo ${#BASH_REMATCH[@]} "${BASH_REMATCH[@]}"; a=(); set -- "${a[@]}"; echo $#`,
		`echo "$BASH"; echo $_; true x y; echo $_`,
		`echo ${HOSTNAME:+h} ${OSTYPE} ${MACHTYPE} ${HOSTTYPE} ${BASH_VERSINFO[5]}`,
		`(( SECONDS >= 0 && SECONDS < 60 )) && echo seconds; echo ${EPOCHSECONDS:+e} ${EPOCHREALTIME:+r}; [[ $EPOCHREALTIME == *.?????? ]] && echo micro`,
		`echo $OPTERR $OPTIND`,
	})
}

func TestJaiphEmptyArrays(t *testing.T) {
	runCases(t, []string{
		`mapfile -t c < /dev/null; set -- "${c[@]}"; echo $#`,
		`declare -a x; set -- "${x[@]}" "${!x[@]}"; echo $#; a=(1); unset 'a[0]'; set -- "${a[@]}" "${!a[@]}"; echo $#`,
		`declare -A m; set -- "${m[@]}" "${!m[@]}"; echo $#; read -a r < /dev/null; set -- "${r[@]}"; echo $#`,
	})
}

func TestJaiphArrayDefaults(t *testing.T) {
	runCases(t, []string{
		`f() { echo "args:$#:$*"; }; f "${u[@]}"; f "${u[@]:-}"; f "${u[@]:-x y}"; a=(); f "${a[@]:-d}"; f "${a[@]-d}"; b=(1 2); f "${b[@]:-d}"; f "${b[@]:+alt}"; f "${a[@]:+alt}"; f "${b[*]:-d}"; c=(""); f "${c[@]:-d}" "${c[@]-d}"`,
		`f() { echo "args:$#:$*"; }; set --; f "$@"; f "${@:-def}"; set -- x; f "${@:-def}"; f "${@:+alt}"; a=(); f ${a[@]:-d e}; f ${u[@]:-d e}`,
	})
}

func TestJaiphAssocOrder(t *testing.T) {
	// Many keys, so that some share one of bash's 1024 hash buckets,
	// where bash lists the most recently added key first.
	var keys []string
	for i := 0; i < 300; i++ {
		keys = append(keys, "k"+strconv.Itoa(i*7919%1000))
	}
	lit := "[" + strings.Join(keys, "]=1 [") + "]=1"
	runCases(t, []string{
		`declare -A m=(` + lit + `); echo "${!m[@]}" | md5sum; unset 'm[k0]'; m[zz]=2; m[k0]=3; echo "${!m[@]}" | md5sum; echo ${#m[@]}`,
		`declare -A m; for k in ` + strings.Join(keys, " ") + `; do m[$k]=$k; done; echo "${!m[@]}" | md5sum; echo "${m[@]}" | md5sum; declare -A n; for k in ` + strings.Join(keys, " ") + `; do n+=([$k]=1); done; echo "${!n[@]}" | md5sum`,
	})
}

func TestJaiphPositionalAndSource(t *testing.T) {
	runCases(t, []string{
		`echo "${#}" "[${10}]"; set -- 1 2 3 4 5 6 7 8 9 ten eleven; echo ${10} $10 ${11} "${@:10}"; f() { echo ${10}; }; f a b c d e f g h i j`,
		`source ./nofile; echo $?; . nofile2; echo $?; echo 'return 4' > s; . ./s; echo $?`,
	})
}

func TestJaiphArithmSyntaxErrors(t *testing.T) {
	var cases []string
	for _, e := range []string{"x = 1 +", "1 +", "a b", "1 + * 2", "(1", "1)", "1 2", "x = ", "+", "1 ? 2", "5 +* 3", "(1 + 2"} {
		cases = append(cases, `let '`+e+`'; echo "st $?"; v='`+e+`'; echo $((v)); echo after`)
	}
	runCases(t, cases)
}

func TestJaiphNegExtglobOps(t *testing.T) {
	runCases(t, []string{
		"shopt -s extglob\nx=abab; echo ${x//!(a)/-} ${x/!(a)/-} ${x#!(a)} ${x##!(a)} ${x%!(b)} ${x%%!(b)}",
		"shopt -s extglob\nx=a; echo \"[${x//!(a)/-}]\" \"[${x/!(a)/-}]\"; y=aa; echo ${y//!(a)/-}; z=abc; echo ${z//*(z)/-} ${z/*(z)/-} ${z//!(*b*)/-}; w=aab; echo ${w//*(a)/-}; e=; echo \"[${e//*(z)/-}]\" \"[${e/*(z)/-}]\"; v=aXbX; echo ${v//X/} ${v//?(X)/-}",
	})
}

func TestJaiphCommandV(t *testing.T) {
	runCases(t, []string{
		`command -V echo; f() { :; }; command -V f | head -1; command -V ls | grep -c 'ls is /'; command -V nosuch; echo $?`,
	})
}

func TestJaiphDeclBackslashes(t *testing.T) {
	runCases(t, []string{
		`declare x='a\b'; echo "$x"; export z='e\f'; echo "$z"; readonly r='g\h'; echo "$r"; f() { local y="c\\d" w=p\'q; echo "$y $w"; }; f; declare -a arr=('x\y' "q\\z"); echo "${arr[@]}"; declare -A m=(['k\1']='v\2'); echo "${!m[@]} ${m[@]}"`,
		`v='a\b'; declare x=$v; echo "$x"; declare y="$v\\"; echo "$y"; typeset t=u\\v; echo "$t"; a='p=q\r'; declare "$a"; echo "$p"; declare "s=t\u"; echo "$s"; export "e2=f\g"; echo "$e2"`,
	})
}

func TestJaiphSubstringAndPositionalErrors(t *testing.T) {
	runCases(t, []string{
		`x=abc; echo "${x:2:-3}"; echo st=$?`,
		`x=abcdef; echo "${x:1:-2}" "${x: -3:2}" "${x:2}" "${x: -9}" "${x:4:9}" "${x:6}" "${x:7}" "${x:3:-3}"; echo st=$?`,
		`echo ${4:=x}; echo st=$?`,
		`set -u; echo ${#1}`,
		`set -u; echo "$5"`,
		`set -- a b c d e; echo ${@:2:2}`,
	})
}

func TestJaiphBashSubshell(t *testing.T) {
	runCases(t, []string{
		`echo $BASH_SUBSHELL $(echo $BASH_SUBSHELL) $( (echo $BASH_SUBSHELL) ); (echo $BASH_SUBSHELL); echo x | { echo $BASH_SUBSHELL; }; f() { echo $BASH_SUBSHELL; }; f; f & wait; cat <(echo $BASH_SUBSHELL)`,
	})
}

func TestJaiphPatsubReplacementOption(t *testing.T) {
	runCases(t, []string{
		`x=abc; echo "${x//b/[&]}"; shopt -s patsub_replacement; echo "${x//b/[&]}" "${x/b/\&}" "${x/b/'&'}"; shopt patsub_replacement; shopt -u patsub_replacement; echo "${x//b/[&]}"; shopt -q patsub_replacement || echo off`,
	})
}

func TestJaiphAssocArithmeticLookingKeys(t *testing.T) {
	runCases(t, []string{
		`declare -A m; m[1+1]=v; k=x; m[$k+1]=w; m[a-b]=u; echo "${!m[@]}"; echo "${m[1+1]} ${m[$k+1]} ${m[a-b]}"; declare -p m; unset 'm[1+1]'; echo ${#m[@]}; [[ -v m[a-b] ]] && echo yes`,
	})
}

func TestJaiphExtglobFromExpansions(t *testing.T) {
	runCases(t, []string{
		`shopt -s extglob; touch ab aab abab; p='@(ab|aab)' q='*(ab)'; echo $p $q; echo "$p"; r='+(ab)'; echo $r`,
		`shopt -s extglob; touch a.txt b.log c.txt .h; p='!(*.txt)'; echo $p; q='.!(x)'; echo $q`,
		`touch a.txt b.log .h; p='@(a|b)*'; echo $p; p='*'; echo $p`,
	})
}

func TestJaiphDefaultWordFields(t *testing.T) {
	runCases(t, []string{
		`unset x; printf '<%s>\n' ${x:-"a b"} ${x-"c d"e} a${x:-"b c"}d ${x:-""} ${x:-} ${x:-'q r'$'\t'}`,
		`y="1 2"; unset x; printf '<%s>\n' ${x:-$y} ${x:-"$y"} ${y:+"$y"} ${y:+$y} ${y+"p q"} ${x:+"no"}; x=; printf '<%s>\n' ${x-"set null"} ${x:-"null"}`,
		`touch f1 f2; unset x; printf '<%s>\n' ${x:-f*} ${x:-"f*"}; set -u; printf '<%s>\n' ${z:-"a b"}`,
		`set -- a "b c"; printf '<%s>\n' ${1:+"$2"} ${3:-"d e"}; a=(1 2); printf '<%s>\n' ${a[@]:-"x y"} ${b[@]:-"x y"}`,
		`unset x; printf '<%s>\n' ${x:-a b} ${x:-a\ b} ${x:-a"b c"d e} ${x:+no}; x=1; printf '<%s>\n' ${x:+p q}; IFS=:; unset x; printf '<%s>\n' ${x:-a:b c}`,
	})
}
