// Differential tests for the expansion fixes of issue 36's fuzzer classes
// neglen-unset, colon-q-quoted-word, declaration-brace-expansion,
// nested-quoted-alternative and dash-heredoc-empty-line.
package interp_test

import "testing"

// A substring whose offset lies past the end of the value is empty before
// its length is looked at, so a negative length there is no error; an
// unset value is empty before even its offset is evaluated.
func TestJaiphSliceOffsetPastEnd(t *testing.T) {
	runCases(t, []string{
		`v=; echo "[${v:1:-1}]"; echo "[${u:1:-1}]"; echo "[${u:0:-1}]"; echo "[${u: -1:-1}]"`,
		`v=abc; echo "[${v:4:-1}]" "[${v:4:-5}]" "[${v: -4:-1}]" "[${v: -4:1}]" "[${v:2:-1}]"`,
		`v=abc; echo "[${v:3:-1}]"; echo after`,
		`v=; echo "[${v:0:-1}]"; echo after`,
		`v=abc; echo "[${v:2:-2}]"; echo after`,
		`x=0; echo "[${u:x++:-1}] $x"; v=ab; echo "[${v:5:x++}] $x"; echo "[${v:1:x++}] $x"`,
		`v=ab; echo "[${v:5:1/0}]" "[${u:1/0:1}]"`,
		`a=(x y z); echo "[${a[@]:5:-1}]" "[${a[@]:3:-1}]" "[${a[@]: -4:-1}]"; echo "[${a[*]:3:-1}]"`,
		`a=(x y z); echo "[${a[@]:2:-1}]"; echo after`,
		`a=(x y z); echo "[${a[@]: -3:-1}]"; echo after`,
		`a=(x y z); unset "a[2]"; echo "[${a[@]:2:-1}]"; b=([5]=p); echo "[${b[@]:6:-1}]"`,
		`a=(x y z); unset "a[2]"; echo "[${a[@]:1:-1}]"; echo after`,
		`a=(); echo "[${a[@]:0:-1}]" "[${a[@]:1:-1}]" "[${u[@]:0:-1}]"`,
		`a=(x); echo "[${a[7]:0:-1}]" "[${a:5:-1}]"; echo "[${a[0]:0:-2}]"; echo after`,
		`declare -A A=([k]=v); echo "[${A[@]:2:-1}]"; echo "[${A[@]:1:-1}]"; echo after`,
		`set -- a b c; echo "[${@:5:-1}]" "[${*:5:-1}]"; echo "[${@:4:-1}]"; echo after`,
		`set -- a b c; echo "[${@: -5:-1}]"; echo "[${@: -4:-1}]"; echo after`,
		`set --; echo "[${@:2:-1}]"; echo "[${@:0:-1}]"; echo after`,
		`s=; echo "[${s[@]:0:-1}]"; echo after`,
		`s=ab; echo "[${s[@]:3:-1}]" "[${s[@]:1:-1}]"`,
		`set -u; echo "[${u:1:-1}]"; echo after`,
	})
}

// The word of ${u:?word} and ${u?word} is expanded as any operator word
// is, quote removal included, before it becomes the message.
func TestJaiphColonQMessageWord(t *testing.T) {
	runCases(t, []string{
		`v3="${u1:?'no value'}"`,
		`echo ${u1:?'no value'}`,
		`echo "${u1:?'no value'}"`,
		`y=Y; echo ${u?"x $y"}`,
		`y=Y; echo "${u?"x $y"}"`,
		`y=Y; echo "${u?x $y}"`,
		`echo ${u:?}`,
		`echo "${u:?}"`,
		`v=; echo ${v:?}`,
		`v=; echo "${v?}" ok; echo ${v:?'a  b'\'c}`,
		`echo "${u:?a\"b\\c\$d}"`,
		`echo ${u:?a\"b\\c\$d}`,
		`echo ${u:?$'t\tx'}`,
		`echo "${u:?$'t\tx'}"`,
		`y='a  b'; echo ${u:?$y "$y" '$y'}`,
		`echo ${u:?~}`,
		`echo ${u:?*}`,
		`a=(p q); echo "${u:?${a[@]}}"`,
		`f() { local v="${u:?'in f'}"; }; f; echo after`,
	})
}

func TestJaiphColonQMessageWordMore(t *testing.T) {
	runCases(t, []string{
		`echo ${u:?""}`,
		`echo "${u:?''}"`,
		`echo "${u?''}"`,
		`echo "${u:?a\b}"`,
		`echo ${u:?a\b}`,
		`x=${u:?~/a}`,
		`echo "${u:?~}"`,
		`echo ${u:?x~}`,
		`y="p   q"; echo "${u?$y}"; `,
		`y="p   q"; echo "${u?"$y"}"`,
		`IFS=:; y="p::q"; echo "${u?$y}"`,
		`IFS=:; echo "${u?a::b}"`,
		`y="p   q"; echo "${u?x${y}z}"`,
		`echo "${u?*}"`,
		`touch a1 a2; echo ${u?a*}`,
		`echo "${u:?$(echo "a   b")}"`,
		`y="p   q"; echo "${u:?${y:-x}}"`,
		`a=(p q); echo ${u:?"${a[@]}" "${a[*]}"}`,
		`set -- 'a  b' c; echo "${u:?$@}"`,
		`echo "${u:?$'a\tb'}"`,
		`v=; echo "${v:?'v is empty'}"`,
		`a=(); echo "${a[@]:?'no elements'}"`,
	})
}

// ${x:?w} of an array element names the element as written, and of an
// empty list ("${a[@]:?w}", "${@:?w}") is the error too.
func TestJaiphColonQListAndElement(t *testing.T) {
	runCases(t, []string{
		`a=(); echo "${a[1]:?x}"`,
		`a=(); i=3; echo "${a[i]:?x}"`,
		`declare -A m; echo "${m[k]:?x}"`,
		`echo "${u[0]?x}"`,
		`a=(); echo "${a[@]:?x}"`,
		`a=(); echo ${a[@]:?x}`,
		`a=(); echo "${a[@]?x}"`,
		`echo "${u[@]?x}"`,
		`a=(); echo "${a[*]:?x}"`,
		`set --; echo "${@:?x}"`,
		`set --; echo ${*:?}`,
		`a=(""); echo "${a[@]:?x}"`,
		`a=(""); echo "${a[@]?x}" ok; b=(p); echo "${b[@]:?x}"`,
	})
}

// A <<- here-document keeps a line that expands to nothing as an empty
// line, and strips only the tabs that start a line.
func TestJaiphDashHeredocEmptyLine(t *testing.T) {
	runCases(t, []string{
		"cat <<-E1\n${a1[1]}\nE1",
		"cat <<-E1\n${a1[1]}\n\t$u\nx\n\n$u$u\nE1\necho ---",
		"u=; cat <<-E\n$u\tx\n\t\ty$u\t\n\t$u\t\tz\nE",
		"cat <<-E\n\n\n$u\nE\necho ---; cat <<-E\n$u\nE",
		"cat <<-\"E\"\n\t$u\n\n\tx\nE",
		"cat <<-E\n\tx\\\n\ty\n\t$u\\\n\tz\nE",
		"f() {\n\tcat <<-E\n\t\t$u\n\t\tb\n\tE\n}\nf",
		"a1=(p); cat <<-E1 | wc -l\n${a1[1]}\n\t${a1[0]}\nE1",
	})
}

// A declaration builtin's assignment word with a brace expansion is
// expanded as any word (braces, splitting, globbing, each field one
// argument): `local v={a,b}` is `local v=a v=b`. A plain assignment's
// value is not brace-expanded.
func TestJaiphDeclBraceExpansion(t *testing.T) {
	runCases(t, []string{
		`f() { local v1={a,b}; echo "$v1"; }; f`,
		`declare v={a,b}; declare -p v; v={a,b}; echo "$v"`,
		`declare a=({x,y}); declare -p a; declare -a b={x,y}; declare -p b`,
		`export v={1..3}; declare -p v; typeset t=x{a,b}y; declare -p t`,
		`readonly r={p,q}; declare -p r`,
		`declare "v={a,b}" w='{a,b}'; declare -p v w`,
		`declare v=a{b,c}d{e,f} w=1; declare -p v w`,
		`b=1; declare v={$b,2}; declare -p v; declare v+={a,b}; declare -p v`,
		`declare -i n={1,2}+1; declare -p n`,
		`declare v={,}; declare -p v; declare w={a,b}"{c,d}"; declare -p w`,
		`f() { local v={$(echo p),q$(echo r)}; declare -p v; }; f`,
		`declare v={$u,}; declare -p v; declare w=x{1..3..2}; declare -p w`,
		`set -x; declare v={a,b}`,
		`declare v=~{,/a}; declare -p v; declare w={~,~/b}; declare -p w; declare x=~/{a,b}; declare -p x`,
		`declare v={a,b}:~ w=~ x=:~; declare -p v w x`,
		`echo v=~{,/a} v=~ x{~,/a} {~,/b} a:~{,b} v=~:~`,
		`x="p  q"; declare v={a,b}$x; declare -p v`,
		`touch v=bz1; x="z*"; declare v={a,b}$x; declare -p v`,
		`x="p  q"; declare v={a,"$x"}; declare -p v`,
		`declare v={a b}; declare -p v`,
		`f() { local v=1; local v={x,y}; echo $v; }; f`,
		`builtin declare v={a,b}; command export w={c,d}; declare -p v w`,
	})
}

// Inside double quotes (and in a here-document) bash reads the word of
// ${v:+w}, ${v:-w} and ${v:=w} as one double-quoted string with its
// embedded double quotes removed: "$w"x reads as $wx.
func TestJaiphNestedQuotedOpWord(t *testing.T) {
	runCases(t, []string{
		`v=x w=W; echo "[${v:+"$w"x}]" "[${v:+"$u"x}]" "[${v:+"$w"}]" "[${v:+x"$w"}]" "[${v:+"${w}"x}]"`,
		`v=x w=W; echo "[${v:+"$w""x"}]" "[${v:+"$w"'x'}]" "[${v:+"$w"$w}]" "[${v:+a"$w"x}]" "[${v:+"$w" x}]"`,
		`v=x w=W; echo "[${u:-"$w"x}]" "[${u-"$w"x}]" "[${v:+"$w"x"$w"}]" "[${v:+"a$w"x}]" "[${v:+"$w$w"x}]"`,
		`v=x w=W wx=WX; echo "[${v:+"$w"x}]" "[${v:+"$w"_}]" "[${v:+"$w".}]" "[${v:+"$w"\x}]" "[${v:+"$w"x yz}]"`,
		`v=x w=W; echo "[${v:+"$(echo s)"x}]" "[${v:+"$((1))"x}]" "[${v:+"$#"x}]" "[${v:+"$?"r}]" "[${v:+"$@"r}]"`,
		`v=x; echo "[${v:+"$v"r}]" "[${v:+"$_"r}]" "[${v:+" $v"r}]" "[${v:+"$v "r}]"`,
		`w=W; unset z; echo "[${z="$w"x}]"; declare -p z; unset z; echo "[${z:="$w"x}]"; declare -p z`,
		`w=W; unset z; echo "[${z=a"$w"x}]"; declare -p z; unset z; echo "[${z="$w"}]"; declare -p z`,
		`v=x w=W; echo [${v:+"$w"x}]; x="${v:+"$w"x}"; echo "[$x]"`,
		"v=x w=W; cat <<E\n[${v:+\"$w\"x}] [${u:-'a'}] [${v:+\"a\\b\"}] [${v:+\"$w\"}]\nE",
		`v=x w=W; echo "[${v:+"a$"w}]" "[${v:+"$w"$'x'}]" "[${v:+"$w"$'\tx'}]" "[${v:+"$w"$"x"}]"`,
		`v=x; echo "[${v:+"a\b\\c\$d\"e"}]" "[${v:+a\b\\c\$d\"e}]" "[${v:+"a\b"\b}]"`,
		`echo "[${u:-$'a\\b'}]" "[${u:-$'a\\\\b'}]" "[${u:-"a\}"}]" "[${u:-"\}"\}}]" "[${u:-"a\` + "`" + `b"}]"`,
		`w=W; echo "[${u:-$'\x24w'}]" "[${u:-"$'x'"}]"`,
		`v=x w=W; echo "[${v#"$w"x}]" "[${w/"$w"x/y}]" "[${w/W/"$w"x}]"`,
		`a=(p q); v=x; printf '<%s>' "${v:+"${a[@]}"}" "${v:+"${a[@]}"x}"; echo`,
		`set -- a b; v=x; printf '<%s>' "${v:+"$@"}" "${u:-"$@"}"; echo`,
	})
}

// Under set -u an unset element of a set variable is unbound, named as
// written; ${u[@]} and ${u[*]} of an unset u are not (their length is).
func TestJaiphNounsetElement(t *testing.T) {
	runCases(t, []string{
		`set -u; echo ${u[1]}`,
		`set -u; a=(x); echo ${#a[1]} ${a[1]:-d} ${a[1]-d} ${a[1]+p}`,
		`set -u; declare -A m=([k]=v); echo ${m[k]}; echo ${m[x]}; echo after`,
		`f() { set -u; local a=(x); echo "${a[1]}"; echo after; }; f`,
		`set -u; a=(x); x=${a[1]}; echo after`,
		`set -u; s=str; echo ${s[0]}; echo ${s[1]}`,
		`set -u; a=(x); echo ${a[1]/x/y}`,
		`set -u; a=(x); echo ${a[1]:0:1}`,
		`set -u; a=(x); echo "${a[@]}" "${a[*]}" ${a[0]} ${a[-1]} ${a[@]:1}`,
		`set -u; echo ${u[@]} ${u[*]}x "${u[@]}" ${u[@]:1} ${u[@]/x/y}; echo ${#u[*]}`,
		`set -u; echo ${#u[1]}`,
		`set -u; a=(x); echo "${a[5]:?gone}"`,
		`set -u; a=(x); echo $(( a[1] )); (( a[1] )); echo $?; echo $(( ${a[1]} + 1 ))`,
		`set -u; echo $(( nv[0] ))`,
	})
}

// A default or alternative whose word holds a list gives one field per
// element inside a larger double-quoted word too ("[${u:-"${a[@]}"}]"),
// and keys ("${!a[@]}") and names by prefix ("${!p@}") are lists there.
func TestJaiphOpWordListInQuotedWord(t *testing.T) {
	runCases(t, []string{
		`a=(A B); printf "<%s>" "6[${u:-"${a[@]}"x}]" "6[${u:-"${a[@]}"}]" "6[${u:-${a[@]}}]"; echo`,
		`set -- A B; printf "<%s>" "6[${u:-$@}]" "[${v:+$@}]" "[${u+$@}]"; echo`,
		`v=1; a=(A B); printf "<%s>" "[${v:-"${a[@]}"}]" "[${v:+"${a[@]}"}]" "[${v:+x${a[@]}y}]"; echo`,
		`a=(); printf "<%s>" "[${u:-"${a[@]}"}]" "[${u:-${a[@]}}]"; echo`,
		`a=(A B); printf "<%s>" "[${u:-${a[*]}}]" "[${u:-"${!a[@]}"}]" "${u:-${!a[@]}}"; echo`,
		`pa=1 pb=2; printf "<%s>" "${u:-${!p@}}" "${u:-${!p*}}" "[${v:+${!p@}}]"; echo`,
		`a=(A B); x="[${u:-"${a[@]}"}]"; printf "<%s>" "$x"; echo`,
	})
}

// A compound command whose status comes from a negated command (`! true`)
// goes on under errexit, as one ending in a failed && list does.
func TestJaiphCompoundEndsNegatedArms(t *testing.T) {
	runCases(t, []string{
		`set -e; { ! true; }; echo "after $?"`,
		`set -e; case x in *) ! true; esac; echo "after $?"`,
		`set -e; if true; then ! true; fi; echo after; while true; do ! true; break; done; echo after2`,
		`set -e; trap "echo ERR" ERR; { ! true; }; echo after`,
		`set -e; f() { ! true; }; f; echo after`,
		`set -e; ( ! true ); echo after`,
		`set -e; set -o pipefail; { ! true; } | cat; echo after`,
		`set -e; x=$( ! true ); echo "after $?"`,
	})
}

// -v looks for a variable: the special parameters are none.
func TestJaiphTestVSpecialParams(t *testing.T) {
	runCases(t, []string{
		`[[ -v "*" ]]; echo $?; set -- a; [[ -v "*" ]]; echo $?; [[ -v "@" ]]; echo $?; [[ -v 1 ]]; echo $?; [[ -v 2 ]]; echo $?`,
		`[[ -v "#" ]]; echo $?; [[ -v "?" ]]; echo $?; [[ -v "-" ]]; echo $?; [[ -v "$" ]]; echo $?; [[ -v 0 ]]; echo $?; [[ -v _ ]]; echo $?`,
		`true & [[ -v "!" ]]; echo $?; wait; test -v "*"; echo $?; [ -v "#" ]; echo $?`,
	})
}

// An error in one line of a <<- here-document ends its expansion, as the
// body's one word would (the lines are expanded one by one to strip tabs).
func TestJaiphDashHeredocStopsAtError(t *testing.T) {
	runCases(t, []string{
		"f() { n=\"0 1 2\"; cat <<-E1\n\ta $((n+1))\n\tb $((n+1))\n\tE1\necho after; }; f; echo \"st=$?\"",
		"f() { n=\"0 1 2\"; cat <<E1\na $((n+1))\nb $((n+1))\nE1\necho after; }; f; echo \"st=$?\"",
	})
}
