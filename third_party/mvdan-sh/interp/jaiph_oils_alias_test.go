package interp_test

import "testing"

// TestJaiphAliasBuiltins: alias and unalias as bash's builtins (Oils'
// spec/alias): values kept as written and shown single-quoted, listings
// sorted, `--` and -p, "not found" and "invalid alias name" with status 1,
// unalias -a and its usage error. Aliases are not expanded, as in a bash
// script without expand_aliases, which the interpreter refuses to set.
func TestJaiphAliasBuiltins(t *testing.T) {
	runCases(t, []string{
		`alias -- foo=echo; echo "st $?"; alias foo; foo x; echo "st $?"; unalias -- foo; alias foo; echo "st $?"`,
		`alias zz=last ex=exit ll='ls -l' aa='first one' q="it's"; alias; alias -p; alias q aa nope; echo "st $?"`,
		`alias e=echo ll='ls -l'; unalias e nope ll; echo "st $?"; unalias; echo "st $?"; alias a=1 b=2; unalias -a; alias; echo "st $?"`,
		`alias a/b=x 'a b=y' 'c;d=z' ok=1; echo "st $?"; alias; alias -z; echo "st $?"`,
		"alias nl='echo 1\necho 2' empty= sp='x '; alias nl empty sp",
	})
}
