// jaiph-go: a quoted "${s[@]:OFFSET}" of a scalar whose offset is past
// either end of its value is no field at all, as "$@" of none is.

package interp

import (
	"context"
	"testing"
)

// TestJaiphScalarListSliceOutside: bash takes "${s[@]:o:l}" of a scalar
// as a substring of its value, and where the offset is past either end
// there is no string (verify_substring_values fails): quoted, a "…[@]"
// of nothing is zero fields (s=xyz: "${s[@]:5}" is no word, "${s[@]:3}"
// an empty one; "${s[*]:5}" and "${s[0]:5}" are empty words). The
// interpreter made an empty word of each (found by the soak, seed 206).
func TestJaiphScalarListSliceOutside(t *testing.T) {
	const f = `f() { printf '%s:' "$#" "$@"; echo; }; `
	for _, src := range []string{
		`s=xyz; e=; f "${s[@]:5}" "${s[@]:3}" "${s[@]:1:0}" "${s[*]:5}" "${s[0]:5}"; f "${e[@]:0}" "${e[@]: -1}" "${e[@]:1}"`,
		`s=xyz; declare -i i=42; declare -n r=s; f "${r[@]:5}" "${r[@]:1}"; f "${i[@]:2}" "${i[@]:3}" "${i[@]:1}"`,
		`s=xyz; e=; f "${u-"${s[@]:5}"}" "${u-"${s[@]:1}"}"; f "a${s[@]:5}" "${s[@]:5}b" "${s[@]:5}${e}" "${s[@]:5}$@" "${s[@]:5}"''`,
		`s=xyz; x=("${s[@]:5}" "${s[@]:9}"); f "${#x[@]}"; for w in "${s[@]:5}"; do echo in; done; set -- "${s[@]:4}"; f "$#"`,
		`s=xyz; f "${s[@]:5:1}" "${s[@]: -9:1}" "${s[@]:2:9}" "${s[@]:i=7}"; echo "i=$i"; IFS=:; f "${s[@]:5}" ${s[@]:5}`,
		`s=xyz; v="${s[@]:5}"; f "$v"; case "${s[@]:5}" in '') echo empty;; esac; [[ "${s[@]:5}" ]] || echo none; cat <<< "${s[@]:5}"`,
	} {
		t.Run(src, func(t *testing.T) {
			want := runBash(t, f+src, nil, t.TempDir(), 0, 0)
			got := runInterp(t, context.Background(), f+src, nil, t.TempDir())
			compare(t, f+src, got, want)
		})
	}
}
