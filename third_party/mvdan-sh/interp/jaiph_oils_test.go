// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches found by restating Oils' spec tests (testdata/bashcompat/oils_*
// in jaiph-go): constructs that ran, but not as bash 5.2.
package interp_test

import "testing"

func TestJaiphUnquotedListJoin(t *testing.T) {
	runCases(t, []string{
		// the elements are joined with IFS's first character, then split
		`p() { printf '<%s>' "$@"; echo " $#"; }; set -- a '' b; IFS=:; p $* $@; IFS=': '; p $*; IFS=' :'; p $*; IFS=; p $* $@; unset IFS; p $*`,
		`p() { printf '<%s>' "$@"; echo " $#"; }; set -- "" "" ""; IFS=w; p +$@+ +$*+; p $*; set -- 'aw' b; p $@; a=(x '' y); p ${a[@]} ${a[*]} ${a[@]:1}`,
		// the name lists ${!prefix@}, ${!name[@]} are fields too
		`p() { printf '<%s>' "$@"; echo " $#"; }; a=(x y z); zq_a=1; zq_b=2; for IFS in '' : ' ' 'w:'; do p ${!a[@]} ${!a[*]} ${!zq_@} ${!zq_*} "${!zq_*}" "${!a[*]}"; done`,
		`p() { printf '<%s>' "$@"; echo " $#"; }; declare -A m=([k]=1); s=v; unset u; IFS=:; p ${!m[@]} ${!s[@]} ${!u[@]} ${!nomatch_@}; IFS=; p ${!m[*]} ${!s[*]} ${!u[*]} ${!nomatch_*}`,
	})
}

func TestJaiphIndirectKeysUnset(t *testing.T) {
	runCases(t, []string{
		// the keys of an unset variable are none; ${!ref} of an unset
		// ref is bash's fatal error naming it
		`unset u; echo "[${!u[@]}] [${!u[*]}]"; echo ${!u[@]} end; declare -n nr=s; s=1; echo "[${!nr[@]}] [${!nr}]"`,
		`echo "[${!u}]"; echo "not reached $?"`,
		`set +e; (echo "[${!u}]"; echo "not reached"); echo "sub $?"`,
		// set -u: name lists are never unbound; zero names are zero fields
		`set -u; a1=x; echo ${!a*} "${!a@}" "[${!zz*}]" "${!zz@}" "${!u[@]}" ${!u[*]} end; echo "${!u}"`,
	})
}

func TestJaiphPatsubFixedLength(t *testing.T) {
	runCases(t, []string{
		// bash's ${x/pat/s} tries matches of MATCHLEN characters only; it
		// counts [^]] and [!]] as two, so they never match there
		`s='ab^cd^'; p='[^]]'; echo ${s//$p/z} ${s//[^]]/z} ${s/[!]]/z} ${s/#[^]]/z} ${s/%[^]]/z}; case a in $p) echo case;; esac; echo ${s#[^]]}`,
		`s='ab^cd^'; echo ${s//[^a]/z} ${s//[]^]/z} ${s//[[:alpha:]]/z} ${s//[[:alpha:]]?/z} ${s/c?/Z} ${s//[a/z}; t='a]b]'; echo ${t//[^]]]/Q} ${t//[]]/Q} ${t//\]/Q}`,
		`v='xxabc'; echo ${v/#x/Y} ${v/%c/Y} ${v/%bc/Y} ${v//x/Y} ${v/[xa]b/Q} "${v/#/<}" "${v/%/>}" ${v/#xxabcd/N} ${v/%xxabc/all}`,
		`w='[q]bar[]'; echo ${w/[q]/R} ${w/"[q]"/R} ${w//[[]/R} ${w//[[.].]]/S} ${w//[[=q=]]/E}; a=(x1 y1 z2); echo ${a[@]/%[12]/N} ${a[@]/#[^x]/-}`,
	})
}

func TestJaiphCollatingSymbols(t *testing.T) {
	runCases(t, []string{
		// [.c.] and [=c=] of one character are that character
		`w='[q]bar[]-'; echo ${w/[q]/R} ${w//[[.].]]/S} ${w//[[=q=]]/E} ${w//[[.-.]a]/H} ${w//[a[.-.]]/H}`,
		`case ']' in [[.].]]) echo c1;; esac; case q in [![=q=]]) echo no;; *) echo c2;; esac; [[ - == [[.-.]] ]] && echo c3; touch ab; echo a[[.b.]]`,
	})
}
