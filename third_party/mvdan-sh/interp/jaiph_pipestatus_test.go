package interp_test

import "testing"

// PIPESTATUS after a negated command: bash keeps a simple command's or a
// subshell's status from before the `!`, but a `[[ … ]]` or `(( … ))`
// sets it to its status after the `!`; a group or an if leaves what its
// last pipeline set.
func TestJaiphPipestatusNegation(t *testing.T) {
	runCases(t, []string{
		`! [[ -n x ]]; echo "[${PIPESTATUS[*]}]"; ! [[ -z x ]]; echo "[${PIPESTATUS[*]}]"`,
		`! (( 1 )); echo "[${PIPESTATUS[*]}]"; ! (( 0 )); echo "[${PIPESTATUS[*]}]"`,
		`[[ -n x ]]; echo "[${PIPESTATUS[*]}]"; [[ -z x ]]; echo "[${PIPESTATUS[*]}]"; (( 0 )); echo "[${PIPESTATUS[*]}]"`,
		`! true; echo "[${PIPESTATUS[*]}]"; ! false; echo "[${PIPESTATUS[*]}]"; ! (exit 3); echo "[${PIPESTATUS[*]}]"`,
		`! true | false; echo "[${PIPESTATUS[*]}]"; ! false | (exit 4); echo "[${PIPESTATUS[*]}]"`,
		`! [[ -n x ]] | [[ -z x ]]; echo "[${PIPESTATUS[*]}]"; ! (( 1 )) | cat; echo "[${PIPESTATUS[*]}]"`,
		`! { false; }; echo "[${PIPESTATUS[*]}]"; ! if true; then false; fi; echo "[${PIPESTATUS[*]}]"; ! { [[ -n x ]]; }; echo "[${PIPESTATUS[*]}]"`,
		`! let 1; echo "[${PIPESTATUS[*]}]"; ! let 0; echo "[${PIPESTATUS[*]}]"; ! declare x; echo "[${PIPESTATUS[*]}]"`,
		`! x=1; echo "[${PIPESTATUS[*]}]"; ! x=$(exit 5); echo "[${PIPESTATUS[*]}]"`,
		`f() { [[ -n x ]]; }; ! f; echo "[${PIPESTATUS[*]}]"; g() { return 4; }; ! g; echo "[${PIPESTATUS[*]}]"`,
		`set -e; ! [[ -n x ]]; echo "[${PIPESTATUS[*]}] $?"; ! (( 2 > 1 )); echo "[${PIPESTATUS[*]}] $?"`,
		`! [[ -n x ]] && echo yes || echo "no [${PIPESTATUS[*]}]"; if ! (( 1 )); then :; else echo "else [${PIPESTATUS[*]}]"; fi`,
		`! [[ -n x ]] 2>/dev/null; echo "[${PIPESTATUS[*]}]"; ! (( 1 )) > f; echo "[${PIPESTATUS[*]}]"`,
	})
}
