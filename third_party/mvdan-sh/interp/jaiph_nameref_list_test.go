// jaiph-go: list expansions through a nameref to an array, and the
// quoted "…[@]" forms that give bash no word at all.

package interp

import (
	"context"
	"testing"
)

// TestJaiphNamerefListExpansion: "${r[@]}" of declare -n r=a is a's
// elements, one field each, as "${a[@]}" (the interpreter joined them
// into one field; so its slices, keys, per-element operators, ${r[@]:-w}
// and set -u). Found by reading beside the soak's seed 206.
func TestJaiphNamerefListExpansion(t *testing.T) {
	const pre = `a1=(1 'two words' three); declare -A A1=([k]='x y' [j]=z); b=(); sp=([2]=a [5]='b c'); s='p q'; declare -n p=a1 m=A1 e=b q=sp r=s u=nope; f() { printf '<%s>' "$#" "$@"; echo; }; `
	for _, src := range []string{
		`f "${p[@]}"; f "${p[*]}"; f ${p[@]}; f ${p[*]}; f "${p[@]:1}"; f "${p[@]:1:1}"; f "${p[@]: -1}"; f "${p[@]:5}"`,
		`f "${m[@]}"; f "${m[*]}"; f "${m[@]:1}"; f "${!m[@]}"; f "${!p[@]}"; f "${!q[@]}"; f "${!e[@]}"; f ${!p[@]}`,
		`f "${e[@]}"; f "${e[*]}"; f "x${e[@]}y"; f "${e[@]:1}"; f "${q[@]}"; f "${q[@]:3}"; f "${q[@]: -2}"`,
		`f "${#p[@]}" "${#m[@]}" "${#e[@]}" "${#q[@]}" "${#r[@]}"; f "${p[@]#t}"; f "${p[@]/o/0}"; f "${p[@]^}"; f "${p[@]@Q}"; f "${p[@]@a}" "${m[@]@a}"`,
		`f "${r[@]}"; f "${r[@]:1}"; f "${u[@]}"; f "${u[@]:1}"; f "${p[@]:-d}"; f "${e[@]:-d e}"; f "${e[@]+x}"; f "${p[@]:+x}"`,
		`IFS=:; f ${p[@]}; f "${p[*]}"; f ${p[@]:1}; unset IFS; x=("${p[@]}"); f "${#x[@]}"; for w in "${p[@]:1}"; do echo "[$w]"; done`,
		`g() { local -n l=$1; f "${l[@]}" "${#l[@]}" "${!l[@]}"; f "${l[@]:1}"; }; g a1; g A1; g b; g sp; g s`,
		`set -u; f "${e[@]}"; f "${p[@]}"; f "${u[@]}" 2>&1; echo st=$?`,
		`declare -n p2=p; f "${p2[@]}" "${!p2[@]}"; f "${p2[@]:2}"; x="${p[@]}"; y=${p[*]}; f "$x" "$y"; cat <<< "${p[@]}"; [[ "${p[@]}" == "1 two words three" ]] && echo eq`,
		`case "${p[@]}" in "1 two words three") echo c;; esac; f "${p}" "${#p}" "${p[1]}" "${#p[1]}"`,
		`declare -n el='a1[1]' all='a1[@]' st='a1[*]'; f "${el[@]}"; f "${el[@]:1}"; f "${!el[@]}"; f "${all}"; f "$all"; f "${all[@]}" 2>&1; IFS=:; f "${st}" "$st"`,
		`IFS=; f ${p[@]}; f ${p[*]}; f ${m[@]}; unset IFS; readonly a1; f "${p[@]}"; h() { local a1=(L); f "${p[@]}"; }; h`,
		`k() { local -a loc=(x 'y z'); local -n r=loc; f "${r[@]}"; f "${!r[@]}"; f "${r[@]:1}"; }; k; n() { local -n r=$1; for w in "${r[@]}"; do echo "[$w]"; done; }; n A1; n a1`,
	} {
		t.Run(src, func(t *testing.T) {
			want := runBash(t, pre+src, nil, t.TempDir(), 0, 0)
			got := runInterp(t, context.Background(), pre+src, nil, t.TempDir())
			compare(t, src, got, want)
		})
	}
}

// TestJaiphQuotedListNoWord: bash's quoted "…[@]" forms that make no
// word. An array's "${a[@]@A}" is its declare statement split with IFS
// except the quoted value (declare, -a, a=(…) with the default IFS); a
// scalar's "${s[@]@a}" without attributes and "${s[@]@P}" expanding to
// nothing are no string at all, so no field; an empty list with an
// operator beside an empty expansion ("${e[@]#x}$u", "${e[@]:+x}$u")
// makes no field, as "$@$u" of none (all gave one field, or one joined).
func TestJaiphQuotedListNoWord(t *testing.T) {
	const pre = `f() { printf '<%s>' "$#" "$@"; echo; }; a1=(1 'two words' three); declare -A A1=([k]='x y' [j]=z); b=(); declare -A E=(); declare -ar ro=(x 'y z'); declare -n p=ro; sp=([3]=q); declare -ai ii=(1 2); declare -i n=0; s=; t=x; declare -n r=s rt=t; `
	for _, src := range []string{
		`f "${a1[@]@A}"; f "${a1[*]@A}"; f ${a1[@]@A}; f "${A1[@]@A}"; f "${b[@]@A}"; f "${E[@]@A}"; f "${ro[@]@A}"; f "${p[@]@A}"`,
		`f "${sp[@]@A}"; f "${ii[@]@A}"; f "x${ro[@]@A}y"; f "${u[@]@A}" "${u@A}"; declare s2; declare -i i2; declare -a a2; f "${s2[@]@A}"; f "${i2[@]@A}"; f "${a2[@]@A}"; f "${s2[@]@a}" "${i2[@]@a}" "${u[@]@a}"; declare -A A3; declare -r r2; declare -x x2; declare -n nr; f "${a2[@]@a}" "${A3[@]@a}" "${r2[@]@a}" "${x2[@]@a}" "${i2[*]@a}" "${i2[@]@Q}" "${nr[@]@a}" "${a2[*]@a}" "${u[*]@a}"; f ${i2[@]@a} ${a2[@]@a}; g() { local -a l=(1); f "${l[@]@A}"; declare -n q=l; f "${q[@]@A}"; }; g; declare -a z; f "${z[@]@A}"`,
		`for ifs in : = e - a '()' $'\t' ' :' 'd ' '' $'\n'; do IFS=$ifs; f "${ro[@]@A}" "${b[@]@A}" "${z[@]@A}"; done; unset IFS; f "${n[@]@A}" "${s[@]@A}" "${p@A}"`,
		`f "${s[@]@U}"; f "${s[@]@E}"; f "${s[@]@P}"; f "${s[@]@Q}"; f "${s[@]@u}" "${s[@]@L}"; f "${s[@]@a}"; f "${n[@]@a}"; f "${r[@]@a}"; f "${t[@]@a}"; f "${t[@]@P}"`,
		`z=("" ""); set -- "" ""; f "${z[@]@P}"; f "${z[@]@a}"; f "${@@P}"; f "${@@a}"; f "${rt[@]@a}"; f "${rt[@]@P}"; f "x${s[@]@a}y"; f "${s[@]@a}$s"; f "${s[*]@a}"; f "${s[*]@P}"`,
		`e=(); f "${e[@]@Q}$u"; f "${e[@]#x}$u"; f "${e[@]^}$u"; f "${e[@]/x/y}$u"; f "${e[@]:-}$u"; f "${e[@]@a}$u"; f "$u${s[@]@a}"; f "${e[@]:+x}$u"; f "${e[@]-}$u"; f "${e[@]+x}$u"; f "${e[@]:1}$u"`,
		// in an assignment's value and an operator's word too (they
		// were empty: the soak, seed 212)
		`declare -i v1; declare -a v2; readonly w=${u1:="${v1[@]@a}"}; x=${v2[*]@a}; y="${v1[@]@a}"; f "$u1" "$w" "$x" "$y" "${u2:-${v1[@]@a}}" "${v1[@]@a}"`,
		`s="\[\]"; f "${s[@]@P}"; f "${r[@]@P}"; f "${r[@]@a}$u"; f "${e[@]@A}$u"; f "${e[*]#x}$u"; f "${a1[@]#x}$u" "${a1[@]:5}$u"; IFS=; f "${a1[@]@A}" "x${A1[@]@A}y"; unset IFS; f "${a1[@]@A}"`,
	} {
		t.Run(src, func(t *testing.T) {
			want := runBash(t, pre+src, nil, t.TempDir(), 0, 0)
			got := runInterp(t, context.Background(), pre+src, nil, t.TempDir())
			compare(t, src, got, want)
		})
	}
}

// TestJaiphNamerefToListOp: a nameref whose value is a[@] or a[*] with an
// operator applies it to the list as one string, as bash's
// expand_arrayref: the elements joined with IFS's first character (a[@]
// with a space when IFS is empty, a[*] inside double quotes with nothing),
// in an assignment's value with a space; an empty string of elements
// inside double quotes is not null for :- :+ :?. A "$r" of a nameref to
// a[@] inside a longer quoted word is the list's fields, as "p${a[@]}"
// (both were applied to, or joined from, each element). Unquoted
// assignments and here-strings with an operator are left out: bash 5.2
// leaves its quoting bytes (\x01) in the string the operator sees there.
func TestJaiphNamerefToListOp(t *testing.T) {
	const pre = `f() { printf '<%s>' "$#" "$@"; echo; }; a=(x1 'y 2' x3); declare -A A=([k]='xk y'); s=xs; declare -n r='a[@]' st='a[*]' k='A[@]' sr='s[@]' un='nope[@]'; u=; `
	for _, src := range []string{
		`f "${r#x}" "${r%3}" "${r/x/Z}" "${r//x/Z}" "${r^^}" "${r,}" "${r:1}" "${r: -2:1}" "${r@Q}" "${r@U}" "${#r}"; f ${r#x} ${r/x/Z}`,
		`f "${st#x}" "${st/x/Z}" "${st:2}" "${st@Q}"; f ${st#x}; f "${k#x}" "${sr#x}" "${un#x}" "${un:-d}" "${un-d}" "${un+p}"`,
		`IFS=:; f "${r#x}" "${st#x}" ${r#x} ${st#x} "${r:1}"; IFS=; f "${r#x}" "${st#x}" ${r#x} ${st#x}; IFS=' :'; f ${r%3}; unset IFS; f ${r%3}`,
		`f "${r:-d}" "${r:+p}" "${r-d}" "${r+p}"; a=(); f "${r:-d}" "${r:+p}" "${r-d}" "${r+p}" "${r#x}" "${st:-d}"; a=(''); f "${r:-d}" "${r:+p}" "${r-d}" "${st:-d}" "${st:+p}"; f ${r:-d} ${r:+p}`,
		`v="${r#x}"; w="${st/x/Z}"; IFS=:; y="${r#x}"; z="${st#x}"; unset IFS; f "$v" "$w" "$y" "$z"; cat <<< "${r#x}"; x=${r:-d}; f "$x"; local_f() { local l="${r%3}"; f "$l"; }; local_f`,
		`f "p$r" "$r$u" "$u$r" "p${r}q" "$st$u" "p$st"; f p$r; f "$r"x"$r"; a=(); f "$u$r" "p$r"; IFS=:; a=(1 '2 3'); f "p$r" "p$st"`,
		`set -u; f "${r#x}"; ( f "${un#x}" ) 2>/dev/null; echo st=$?; a=(); ( f "${r#x}" ) 2>/dev/null; echo st=$?; f "${r:-d}" "${r-d}"`,
		`case "${r#x}" in "1 y 2 x3") echo c;; esac; [[ "${r/x/Z}" == "Z1 y 2 x3" ]] && echo eq; f "${r:?m}"; a=(); ( f "${r:?gone}" ) 2>/dev/null; echo st=$?`,
		// ${r} is the string as well, joined with IFS's first character
		// (it was a space), and an unquoted $r the list's fields (one,
		// joined with nothing, with IFS empty: the soak, seed 214)
		`for i in ' ' : '' ':x'; do IFS=$i; f "${r}" "${st}" "$r" "$st"; f ${r} ${st} $r $st; x=${r}; y=$st; z=$r; w=${st}; f "$x" "$y" "$z" "$w"; done`,
		"for i in : ''; do IFS=$i; cat <<EOT\n$r|${r}|${r#?}|$st|${st}|${st#?}|${a[@]}|${a[@]#?}\nEOT\ndone",
		// where words are not split ([[ ]], a case word) $r of a[@] joins
		// with a space, $r of a[*] with a space too (nothing when IFS is
		// empty), ${r} as array_value
		`for i in : '' ' '; do IFS=$i; [[ "p$r" == "px1 y 2 x3" ]] && echo n1; [[ "$r" == "x1 y 2 x3" ]] && echo n2; [[ "${r}" == "x1:y 2:x3" ]] && echo n3; [[ $st == "x1 y 2 x3" ]] && echo n4; [[ "$st" == "x1y 2x3" ]] && echo n5; case $st in "x1 y 2 x3") echo c1;; "x1:y 2:x3") echo c2;; "x1y 2x3") echo c3;; esac; case "p$r" in "px1 y 2 x3") echo c4;; esac; x="p$r"; y=$st; echo "$x|$y"; cat <<< $r; cat <<< "$st"; done`,
		// in a quoted default or alternative's word, $r of a[@] gives the
		// list's fields, as ${a[@]} there (it gave the joined string)
		`for i in ' ' : ''; do IFS=$i; f "${u:-$r}" "${u:-"$r"}" "x${u:-$r}y" "${r:+"$r"}" "${u-$r}" "${r+$r}" "${u:-$st}"; x="${u:-$r}"; y=${u:-"$r"}; f "$x" "$y"; [[ "${u:-$r}" == "x1 y 2 x3" ]] && echo m; done`,
		// in an unquoted one, bash joins $r with a space and splits that
		// with IFS, but for IFS empty: the fields (they were the fields)
		`for i in ' ' : ''; do IFS=$i; f ${u:-$r} x${u:-$r}y ${u:-$st} ${u:-"$r"} ${r:+"$r"}; done`,
		`a=(); f ${r} ${st} $r $st "${r}" "${st}" "$r" "$st"; x=${r}; f "$x"; set -u; f $r "$r" $st; ( f ${r} ) 2>/dev/null; echo "st=$?"`,
	} {
		t.Run(src, func(t *testing.T) {
			want := runBash(t, pre+src, nil, t.TempDir(), 0, 0)
			got := runInterp(t, context.Background(), pre+src, nil, t.TempDir())
			compare(t, src, got, want)
		})
	}
}

// TestJaiphNamerefToListDeclare: export and readonly NAME=v through a
// nameref to a[@] or a[*] fail as bash's do: the assignment's "bad array
// subscript" (which under errexit ends the shell there), the attribute's
// "not a valid identifier", status 1 (it was 0, found by the soak, seed
// 212); declare -g fails with the first alone; through a nameref to an
// element the value is assigned and the status is 0.
func TestJaiphNamerefToListDeclare(t *testing.T) {
	const pre = `a1=(1 2); declare -n v2='a1[@]' v4='a1[*]' v3='a1[1]'; `
	for _, src := range []string{
		`f() { readonly v2=x; echo "st=$?"; }; f; f() { export v4=x; echo "st=$?"; }; f; declare -p a1`,
		`f() { readonly v3=x; echo "st=$?"; }; f; f() { export v3=y; echo "st=$?"; }; f; declare -p a1; readonly v2; echo "st=$?"`,
		`f() { declare -g v2=x; echo "st=$?"; }; f; f() { declare -g v3=y; echo "st=$?"; }; f; declare -p a1; declare v2=z; echo "st=$?"`,
		`set -e; trap 'echo "trap $?"' EXIT; f() { readonly v2=x; echo "not here"; }; f; echo "nor here"`,
		`set -e; f() { export v2=x; echo "not here"; }; f || echo "or $?"; echo after`,
		// in arithmetic a nameref to a[@] is bash's bad array subscript,
		// read (0) or assigned (nothing), not fatal; unset 'r[S]'
		// through a nameref to an element unsets that element, S left
		// aside (the soak's generator forms, probed the same day)
		`(( v2 += 1 )); echo "st=$?"; (( v2 = 5 )); echo "st=$?"; let v4=3; echo "st=$?"; echo "r=$(( v2 + 1 ))"; (( v2 )); echo "st=$?"; x=$(( v2++ )); echo "x=$x"; declare -p a1`,
		// a declaration through the nameref in a function makes a
		// local named a1[@], which $r then reads (it read the list)
		`f() { printf '<%s>' "$@"; echo; }; g() { declare -u v2; f "$v2" "${a1[@]}"; local -u v2=abc; f "$v2" "p$v2"; }; g; h() { declare -i v4; f "$v4" $v4; }; h`,
		`unset 'v3[0]'; declare -p a1; a1=(1 2 3); unset 'v2[1]'; declare -p a1; a1=(1 2 3); unset 'v4[2]'; declare -p a1; declare -A m=([k]=1 [j]=2); declare -n v5='m[@]' v6='m[k]'; unset 'v5[k]'; declare -p m; unset 'v6[j]'; declare -p m`,
		// a caller's local nameref is not what declare -g sees: it
		// makes a global of the name
		`g() { local -n v5='a1[@]'; f() { declare -g v5=x; echo "st=$?"; }; f; declare -p v5; }; g; declare -p v5`,
		`g() { local -n v5='a1[@]'; f() { declare -g v5=x; echo "st=$?"; }; ( f; declare -p v5 ); declare -p v5; }; g`,
		`( declare -g v2=x; echo "st=$?"; declare v3=z; declare -p a1 ); echo "st=$?"`,
	} {
		t.Run(src, func(t *testing.T) {
			want := runBash(t, pre+src, nil, t.TempDir(), 0, 0)
			got := runInterp(t, context.Background(), pre+src, nil, t.TempDir())
			compare(t, src, got, want)
		})
	}
}
