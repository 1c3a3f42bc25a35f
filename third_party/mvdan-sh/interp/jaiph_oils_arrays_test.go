// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches found restating Oils' spec array-literal, array-assign,
// array-basic and array-compat files (testdata/bashcompat/oils_array_*.txtar).
package interp_test

import "testing"

func TestJaiphDeclareArrayKindKept(t *testing.T) {
	runCases(t, []string{
		// declare -A on an indexed array of its scope, -a on an
		// associative one: refused, status 1, the variable unchanged
		"declare -a b=(5 6 7)\ndeclare -A b || echo \"st $?\"\ndeclare -p b\ndeclare -A h=([p]=1)\ndeclare -a h || echo \"st $?\"\ndeclare -p h",
		"f() { local -a l=(1 2); declare -A l || echo \"st $?\"; local -A l || echo \"st $?\"; typeset -A l || echo \"st $?\"; declare -p l; }; f",
		// the same kind again, or a new local over an outer array, is fine
		"declare -a b=(1); declare -a b; declare -A h=([k]=v); declare -A h; declare -p b h\nf() { declare -a h=(1 2); declare -p h; }; f",
		// at the top level too
		"g=(1 2)\ndeclare -A g || echo \"st $?\"\ndeclare -p g",
	})
}

func TestJaiphBadSubscriptDiscards(t *testing.T) {
	runCases(t, []string{
		// an element assignment before the start of an indexed array
		// discards the command, as a readonly one: eval goes on with
		// its next line, a subshell and a command substitution end
		"h[7]=x\neval 'h[-9]=E; echo same\necho next'; echo \"after $?\"\n(h[-9]=E; echo sub); echo \"sub $?\"\nx=$(h[-9]=E; echo cs); echo \"cs $? $x\"\ndeclare -p h",
		"eval 'z[-1]=1' || echo \"st $?\"\ndeclare -p z || echo \"st $?\"",
		// in a function the whole call goes
		"f() { h[-9]=E; echo no; }\nf\necho not",
		// under errexit the shell exits unless a condition ignores it
		"set -e\neval 'h[-9]=E; echo same\necho next' || echo \"st $?\"\nif eval 'h[-9]=E\necho next'; then echo yes; fi\neval 'h[-9]=E\necho next'\necho not",
		"set -e\nx=1; readonly x\neval 'x=2; echo same\necho next'\necho not",
		// an empty key of an associative array too
		"declare -A m\neval 'm[\"\"]=x; echo same\necho next'; echo \"after $?\"\n(m[\"\"]=y; echo sub); echo \"sub $?\"",
	})
}
