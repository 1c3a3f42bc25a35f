package interp_test

import "testing"

// TestJaiphSigpipeBuiltin: bash does not ignore SIGPIPE, so a builtin that
// writes into a pipe whose reader has exited kills the shell process it
// runs in (a pipeline element that is not the last is a child): silently,
// status 141 in PIPESTATUS and under pipefail, the rest of the element not
// run, its EXIT trap run (`trap ” PIPE`, where bash's builtin would report the
// write error, is refused by jaiph). The writes here are larger than a pipe's buffer,
// so the write fails whatever the timing.
func TestJaiphSigpipeBuiltin(t *testing.T) {
	runCases(t, []string{
		`printf '%0100000d\n' 0 | true; echo "${PIPESTATUS[@]}"`,
		`set -o pipefail; printf '%0100000d\n' 0 | true; echo "status $?"`,
		`s=$(printf '%099d\n' {1..2000}); echo "$s" | true; echo "${PIPESTATUS[@]}"`,
		`f() { printf '%0100000d\n' 0; echo "not reached" >&2; }; f | true; echo "${PIPESTATUS[@]}"`,
		`{ printf '%0100000d\n' 0; echo "not reached" >&2; } | false; echo "${PIPESTATUS[@]}"`,
		`( printf '%0100000d\n' 0; echo "not reached" >&2 ) | true | true; echo "${PIPESTATUS[@]}"`,
		`{ trap 'echo "trap $?" >&2' EXIT; printf '%0100000d\n' 0; } | true; echo "${PIPESTATUS[@]}"`,
		`( trap 'echo "trap $?" >&2; exit 7' EXIT; printf '%0100000d\n' 0 ) | true; echo "${PIPESTATUS[@]}"`,
		`while :; do printf '%01000d\n' 0; done | head -n 1 | wc -c; echo "${PIPESTATUS[@]}"`,
		// Larger than what cat and two pipes hold: cat dies of the
		// signal before printf is done.
		`printf '%0999d\n' {1..1000} | cat | true; echo "${PIPESTATUS[@]}"`,
		`x=$(printf '%0100000d' 0); { declare -p x; echo "not reached" >&2; } | true; echo "${PIPESTATUS[@]}"`,
		`x=$(printf '%0100000d' 0); { declare -p x; } | true; declare -p x | wc -c`,
		`printf '%0999d\n' {1..1000} | cat | head -c 10; echo; echo "${PIPESTATUS[@]}"`,
	})
}
