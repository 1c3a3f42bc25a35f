// Differential tests (against /usr/bin/bash, see compareWithBash) for the type
// patches found restating Oils' spec/builtin-type.test.sh and
// spec/builtin-type-bash.test.sh (jaiph-go's
// testdata/bashcompat/oils_builtin_type*.txtar).
package interp_test

import "testing"

// TestJaiphTypeFilePath: type, type -t/-p/-P find a file as bash's
// find_user_command does: named as PATH spells it (a relative entry stays
// relative, an empty one is "./"), a non-executable file when no executable
// one is found; command -V names a file found through PATH by its absolute
// path.
func TestJaiphTypeFilePath(t *testing.T) {
	runCases(t, []string{
		"mkdir -p tools; touch tools/ex; chmod +x tools/ex; PATH=\"tools:$PATH\"\ntype ex; type -t ex; type -p ex; type -P ex; command -v ex\ncommand -V ex | sed \"s,$PWD,HERE,\"",
		"mkdir -p tools; touch tools/ex tools/plain; chmod +x tools/ex\ntype tools/ex; type tools/plain; echo \"st=$?\"; type -P tools/ex; command -V tools/ex",
		"mkdir -p tools; touch tools/ne; PATH=\"tools:$PATH\"\ntype ne; type -t ne; type -p ne; type -P ne; echo \"st=$?\"\ncommand -V ne | sed \"s,$PWD,HERE,\"",
		"mkdir -p tools; touch tools/ex; chmod +x tools/ex; cd tools\nPATH=\":/bin\"; type ex; type -P ex\nPATH=\"./:/bin\"; type ex\nPATH=\"..//tools//:/bin\"; type ex",
		"mkdir -p tools/cat; PATH=\"tools:$PATH\"; type -P tools/cat; echo \"st=$?\"; type -t tools; echo \"st=$?\"",
	})
}

// TestJaiphTypePFindsBuiltins: type -p finds keywords, functions and
// builtins (status 0) without printing them; -P looks in PATH only. (Aliases
// need expand_aliases, which the interpreter does not support.)
func TestJaiphTypePFindsBuiltins(t *testing.T) {
	runCases(t, []string{
		"type -p cd; echo \"st=$?\"; type -P cd; echo \"st=$?\"; type -p cd zz_nothing; echo \"st=$?\"",
		"f() { :; }; type -p f; echo \"st=$?\"; type -P f; echo \"st=$?\"; type -p if; echo \"st=$?\"",
		"mkdir -p tools; touch tools/mv; chmod +x tools/mv; PATH=\"tools:$PATH\"; mv() { :; }; type -p mv; echo \"st=$?\"; type -P mv",
	})
}

// TestJaiphTypeAllAndNoFuncs: type -a lists every meaning of a name (an
// alias needs expand_aliases, which the interpreter does not support;
// keyword, function with its definition, builtin, each executable file in
// PATH's order and spelling), combined with -t, -p and -P; -f skips
// functions; an unknown option is bash's invalid option with the usage.
func TestJaiphTypeAllAndNoFuncs(t *testing.T) {
	runCases(t, []string{
		"mkdir -p tools; touch tools/pwd tools/date; chmod +x tools/pwd tools/date; PATH=/bin:tools\ntype -a pwd; type -a date; type -ap date; type -at pwd; type -a -P pwd\npwd() { echo fn; }; type -a pwd; type -a -f pwd; type -ap pwd; echo \"st=$?\"; type -p pwd; echo \"st=$?\"",
		"type -a while; type -a cd; type -ap cd; echo \"st=$?\"; type -f FOO BAR; echo \"st=$?\"; type -a nothere; echo \"st=$?\"; type -at nothere; echo \"st=$?\"",
		"f () { echo; }; type -a f; type -af f; echo \"st=$?\"; type -z f; echo \"st=$?\"",
		"mkdir -p tools; touch tools/executable; chmod +x tools/executable; type -a executable; echo \"st=$?\"; type -a tools/executable",
		"mkdir -p a b c/x; touch a/x b/x; chmod +x a/x; PATH=a:b:c:$PATH; type -a x; type -at x",
	})
}
