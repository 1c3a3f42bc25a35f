package interp_test

import "testing"

// A while or until loop's status is its body's last status, 0 when the
// body never ran (bash's execute_while_or_until), not the condition's.
func TestJaiphWhileStatus(t *testing.T) {
	runCases(t, []string{
		`while (( i1++ < 2 )); do false; done; echo "while $?"`,
		`i=0; until (( i++ >= 2 )); do false; done; echo "until $?"`,
		`false; while false; do :; done; echo "never $?"`,
		`false; until true; do :; done; echo "never $?"`,
		`i=0; while (( i++ < 2 )); do false; (exit 3); done; echo "last $?"`,
		`i=0; while (( i++ < 3 )); do [ $i = 1 ] && false; done; echo "andor $?"`,
		`i=0; while (( i++ < 2 )); do (exit 4); break; done; echo "break $?"`,
		`i=0; while (( i++ < 3 )); do if ((i==2)); then (exit 5); continue; fi; false; done; echo "continue $?"`,
		`i=0; while [ $i = 1 ] && break; i=1; do false; done; echo "cond break $?"`,
		`i=0; until [ $i = 1 ] && break; i=1; false; do false; done; echo "until cond break $?"`,
		`i=0; while ((i++ < 3)) && { ((i<3)) || continue; }; do (exit 6); done; echo "cond continue $?"`,
		`i=0; while (( i++ < 2 )); do false; done | cat; echo "pipe ${PIPESTATUS[@]}"`,
		`set -e; i=0; while (( i++ < 2 )); do false || (exit 2); done`,
		`set -e; f() { i=0; while (( i++ < 2 )); do false; done; }; f || echo "f $?"`,
		`f() { while true; do return 7; done; }; f; echo "return $?"`,
		`set -e; i=0; while ((i++<2)); do [ $i = 5 ] && :; done; echo "errexit $?"`,
		`set -e; i=0; until ((i++>=2)); do [ $i = 5 ] && :; done; echo "errexit $?"`,
		`set -e; i=0; while [ $i = 5 ] || ((i++ < 1)) && [ $i = 9 ]; do false || :; done; echo "cond $?"`,
		`set -e; i=0; while ((i++<2)); do [ $i = 5 ] && :; done; echo "errexit $?"; i=0; while ((i++<2)); do [ $i = 5 ] && :; [ x ] && false; done; echo "errexit $?"`,
		`set -e; i=0; while ((i++<2)); do false || :; (exit 3) && :; done; echo "not here"`,
		`i=0; if while ((i++<2)); do false; done; then echo then; else echo "else $?"; fi`,
		`i=0; while ((i++<2)); do false; done && echo and || echo "or $?"`,
		`n=0; until ((n++>2)) || continue; do echo body; done; echo "until continue $n"`,
		`for x in 1 2; do until echo c$x; continue; do :; done; echo after; done; echo "end $?"`,
		`for x in 1 2; do until echo c$x; continue 2; do :; done; echo after; done; echo "end $?"`,
		`for x in 1 2; do until echo c$x; break 2; do :; done; echo after; done; echo "end $?"`,
		`i=0; while (( i++ < 2 )); do for x in a; do false; done; done; echo "nested $?"`,
	})
}
