package bashcheck

import (
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jaiph-go/jaiph/internal/shellscan"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// kind is what a refusal looks for in the syntax tree.
type kind int

const (
	kNode        kind = iota // a node type: Cmd is "coproc" or ">(" (process substitution writing to a command)
	kCommand                 // any simple command named Cmd
	kFlag                    // Cmd with the short option Arg (`set` also matches +Arg)
	kSetOpt                  // `set -o Arg` / `set +o Arg`
	kShopt                   // `shopt … Arg` naming the option Arg
	kParamOp                 // `${name@Arg}`
	kReplace                 // `${name/Arg…/…}` (an anchored pattern)
	kParam                   // the special parameter `$Arg`
	kBare                    // Cmd without its option Arg (`jobs` but not `jobs -p`)
	kTrapSig                 // a literal signal Arg in `trap ACTION SIG…` that jaiph cannot trap
	kTrapCode                // `trap ACTION SIG…` whose literal ACTION is not valid shell
	kListAll                 // Cmd with no operand (only options): it lists variables
	kListIfEmpty             // Cmd whose operands are all unquoted expansions: empty, it lists variables
	kLocale                  // the shell's own LC_ALL, LC_CTYPE or LANG set or unset (Arg is the name)
	kNamesPrefix             // `${!prefix*}`/`${!prefix@}` whose prefix begins a name of bashOnlyVars
	kNoAssign                // a list, element or declaration assigned to bash's noassign variable Arg
	kPrefixDecl              // a prefix assignment before a declaration builtin naming the same variable
)

// refusal is one construct the interpreter cannot run as bash does. Example
// is a snippet on which bash and the interpreter differ; the tests run it in
// both and fail once they agree, so the entry can be dropped.
type refusal struct {
	name    string // as shown: "unsupported shell feature: <name>"
	kind    kind
	cmd     string
	arg     string
	example string
}

// bashOnlyVars are the variables bash 5.2 sets in a script that the
// interpreter does not have: ${!prefix*} would list them.
var bashOnlyVars = []string{
	"BASH_ALIASES", "BASH_ARGC", "BASH_ARGV", "BASH_ARGV0", "BASH_CMDS",
	"BASH_COMMAND", "BASH_LINENO", "BASH_LOADABLES_PATH", "BASH_SOURCE",
	"COMP_WORDBREAKS", "GROUPS", "HISTCMD", "LINENO",
}

// table is the refusal list, one construct per line. Do not list what other
// work is making the interpreter run (trap signals, kill, wait -n, disown,
// extglob, `exec 3>file`, read -t, let).
var table = []refusal{
	{"coproc", kNode, "coproc", "", "coproc cat; echo started"}, // no coprocesses: "unhandled command node"
	// bash's bind_variable gives up on a cycle of namerefs with a warning
	// and assigns the global of the name the walk started from (its read
	// walk reads that global too); the interpreter makes the local a plain
	// variable. A cycle of literal targets is refused; one made of
	// expanded words runs (docs/differences.md).
	{"a cycle of namerefs (declare -n a=b b=a, local -n r=r): bash writes through it to the global of the name it started from", kNode, "nameref cycle", "", "f() { local -n a=b b=a; a=1; echo \"[$a]\"; }; f; echo \"${a-unset}\""},
	// bash 5.3's command substitutions in the current shell: bash 5.2's
	// bad substitution, which the parser reads as mksh's
	{"${ command; } and ${| command; } (bash 5.2: bad substitution)", kNode, "${ }", "", "echo ${ echo x; }; echo st=$?"},
	// bash parses a body before any `shopt -s extglob` in it runs, so an
	// extglob group in a case pattern or a plain word is its syntax error
	// (`[[ … ]]` and `${x#…}` patterns are parsed with extglob on).
	{"extglob pattern outside a [[ == ]] pattern and ${…}", kNode, "extglob", "", "shopt -s extglob; case ab in @(ab)) echo m;; esac"},
	// bash's `*` never lets the pattern after it match the empty rest of
	// the string, and tries a ?( or *( group right after it in a loop of
	// its own (sm_loop.c); the interpreter's regexp tries every split.
	// They differ where that group can match nothing: `[[ x == *@(|y) ]]`
	// is false in bash. (Before !( the interpreter matches as bash.)
	// bash makes the characters of {y..B} text and reads it again: the
	// backquote between Z and a starts a command substitution that does
	// not close (its fatal `bad substitution`).
	{"brace character range holding a backquote", kNode, "{..`}", "", "echo -{Y..b}-; echo after"},
	// bash traces each part of a for ((…)) loop it evaluates as the text
	// written between the separators, expanded (`+ (( i<2 ))`); the
	// interpreter does not keep that text.
	{"for ((…)) in a body that turns on set -x (bash traces each part as written)", kNode, "xtrace for((", "", "set -x; for ((i=0; i<1; i++)); do :; done"},
	// A literal [[ =~ ]] expression glibc reads in a way Go's engine
	// cannot follow (a held one fails at run time, naming what).
	{"[[ =~ ]] regular expression bash's C library reads as jaiph cannot (a count above 1000, a group that can match nothing or an anchor repeated by an interval, an anchor next to a newline the expression matches)", kNode, "=~", "", "[[ a =~ a{1001} ]]; echo st=$?"},
	// Inside double quotes bash's parser turns the $'…' of a ${v:-…}
	// (+, =, ?) word into its plain text; a quote there then unbalances
	// the word when it expands (its fatal `bad substitution`).
	{"$'…' holding a quote in the word of a double-quoted ${v:-…}", kNode, "$'\"'", "", `echo "[${u:-$'a\x22b'}]"; echo after`},
	// While bash looks for the } of a double-quoted ${…}, a $( inside
	// single quotes there starts a command substitution it reads to its
	// ) (an unclosed one is its syntax error); the interpreter reads
	// the quotes as quotes.
	{"$( inside single quotes inside a double-quoted ${…} (bash reads a command substitution there)", kNode, "'$('", "", `a=1; echo "${a#'$('}"; echo after`},
	// bash's brace expansion tracks quotes through a ${…}: a
	// double-quoted string inside one that is itself in double quotes
	// ends the outer quotes, so a brace expansion there is expanded.
	// Inside a double-quoted ${…}, bash pairs the single quotes of an
	// operator's word to find its end but keeps them as text; a double
	// quote between them is a quote it removes.
	{"single quotes around a double quote in the word of a double-quoted ${…} (bash removes the double quote)", kNode, "\"${'}\"", "", `x=1; echo "${x+'a}"; echo "b'}"; echo after`},
	// bash reads ${#^}, ${#,,x} and ${#/} as the length operator
	// followed by garbage: bad substitution.
	{"${#^}, ${#,}, ${#/}, ${#+}, ${#=} (bash: bad substitution)", kNode, "${#^}", "", "set -- a b; echo ${#^}; echo after"},
	{"${@@A}, ${*@A} (bash gives the positional parameters as a set -- command, which the interpreter does not)", kNode, "${@@A}", "", "set -- 'a b' c; echo ${@@A}"},
	{"${RANDOM[…]}, ${!RANDOM} (bash draws another count of numbers for RANDOM's element, list and indirect forms, and a seeded RANDOM goes on with other numbers: write $RANDOM)", kNode, "${RANDOM[…]}", "", "RANDOM=1; x=${RANDOM[@]#1}; echo $RANDOM"},
	{"a brace expansion in double quotes inside a double-quoted ${…} (bash expands it)", kNode, "\"{,}\"", "", `a=(0 1 2 3); echo "${a["{1..2}"]}"; echo "${v:-"{a,b}"}"`},
	// Inside $(…) and <(…), bash ends a here-document at a line that
	// starts with the delimiter and holds a ) after it, and reads the
	// rest of the line as commands ("EOF )"); it warns of a here-document
	// begun there whose lines follow the closing ).
	{"a here-document line inside $(…) or <(…) that starts with the delimiter and holds a ) (bash ends the here-document there)", kNode, "<<D…D)", "", "x=$(cat <<EOF\nEOF )\nEOF\n)\necho \"[$x]\""},
	{"a double-quoted \"$@\" or \"${name[@]}\" as a case statement's word (bash leaves a byte \\177 for each empty element of a list of two or more)", kNode, "case \"$@\"", "", "a=(0 \"\"); case \"${a[@]#?}\" in [!a]) echo matched;; *) echo not;; esac"},
	{"a <(…) or >(…) in the word of a ${…} (its operand, pattern or replacement): bash runs a process substitution there, which the interpreter reads as text", kNode, "${…<(…)}", "", "u=1; echo ${u:+<(echo a)}; v=xy; echo \"${v/x/<(echo a)}\""},
	// bash names a word holding a $(…) in its messages with a reprint
	// of the commands inside (print_comsub); the interpreter knows its
	// layout but for a here-document followed by more commands or in a
	// compound command, and for ((;;)) with a part left out.
	{"a $(…) holding a here-document before another command or inside a compound command, or a for ((;;)) with a part left out, in a word bash may name in a message (a list's element, a subscript, a redirection's file): bash names it in a layout of its own", kNode, "$(…) named", "", "declare -A b\nb+=(\"${u:+$(cat <<E; echo b\nx\nE\n)}\")\necho after"},
	{"a here-document begun inside $(…) whose lines follow the closing ) (bash warns: unterminated here-document)", kNode, "$(<<D)", "", "test \"$(cat <<EOF)\" = hi\nhi\nEOF\necho st=$?"},
	// bash expands the word of ${v+word} unsplit and joins a list in it
	// by its own rules for each IFS; the interpreter follows them for the
	// default IFS (and an unset one) only.
	{"an unquoted $@ or ${name[@]…} in the word of an unquoted ${v+…} (-, :-, :+, =, ?) in a body that sets IFS (bash joins and splits it by rules of its own: quote the list or the expansion)", kNode, "${v+${a[@]}}", "", "a=(1 'b c'); IFS=$'\\t'; printf '<%s>' ${a+${a[*]}${a[@]}}; echo"},
	{"set -B", kFlag, "set", "B", "set +B; echo {a,b}"}, // brace expansion cannot be switched off
	{"set -o braceexpand", kSetOpt, "set", "braceexpand", "set +o braceexpand; echo {a,b}"},
	{"set -T", kFlag, "set", "T", "set -T; echo st=$?"}, // functrace: invalid option
	{"set -o functrace", kSetOpt, "set", "functrace", "set -o functrace; echo st=$?"},
	{"set -h", kFlag, "set", "h", "set +h; echo st=$?"}, // hashall cannot be switched off
	{"set -o hashall", kSetOpt, "set", "hashall", "set +o hashall; echo st=$?"},
	{"set -H", kFlag, "set", "H", "set -H; echo st=$?"}, // histexpand: invalid option
	{"set -o histexpand", kSetOpt, "set", "histexpand", "set -o histexpand; echo st=$?"},
	{"set -k", kFlag, "set", "k", "set -k; echo a x=1"}, // keyword: assignments anywhere are not implemented
	{"set -o keyword", kSetOpt, "set", "keyword", "set -o keyword; echo a x=1"},
	{"set -m", kFlag, "set", "m", "set -m; echo st=$?"}, // monitor (job control): invalid option
	{"set -o monitor", kSetOpt, "set", "monitor", "set -o monitor; echo st=$?"},
	{"set -b", kFlag, "set", "b", "set -b; echo st=$?"}, // notify: invalid option
	{"set -o notify", kSetOpt, "set", "notify", "set -o notify; echo st=$?"},
	{"set -p", kFlag, "set", "p", "set -p; echo st=$?"}, // privileged: invalid option
	{"set -o privileged", kSetOpt, "set", "privileged", "set -o privileged; echo st=$?"},
	{"set -P", kFlag, "set", "P", "set -P; echo st=$?"}, // physical: invalid option
	{"set -o physical", kSetOpt, "set", "physical", "set -o physical; echo st=$?"},
	{"set -t", kFlag, "set", "t", "set -t; echo st=$?"}, // onecmd: invalid option
	{"set -o onecmd", kSetOpt, "set", "onecmd", "set -o onecmd; echo st=$?"},
	{"set -o interactive-comments", kSetOpt, "set", "interactive-comments", "set +o interactive-comments; echo st=$?"},
	{"set -v", kFlag, "set", "v", "set -v; echo st=$?"}, // verbose: invalid option
	{"set -o verbose", kSetOpt, "set", "verbose", "set -o verbose; echo st=$?"},
	{"set -o posix", kSetOpt, "set", "posix", "set -o posix; echo st=$?"},                                  // invalid option
	{"set -o history", kSetOpt, "set", "history", "set -o history; echo st=$?"},                            // invalid option
	{"set -o ignoreeof", kSetOpt, "set", "ignoreeof", "set -o ignoreeof; echo st=$?"},                      // invalid option
	{"set -o emacs", kSetOpt, "set", "emacs", "set -o emacs; echo st=$?"},                                  // invalid option
	{"set -o vi", kSetOpt, "set", "vi", "set -o vi; echo st=$?"},                                           // invalid option
	{"enable", kCommand, "enable", "", "enable -n echo; echo st=$?"},                                       // unsupported builtin
	{"caller", kCommand, "caller", "", "f() { caller; }; f; echo st=$?"},                                   // unsupported builtin
	{"compgen", kCommand, "compgen", "", "compgen -W 'a b' a"},                                             // unsupported builtin
	{"complete", kCommand, "complete", "", "complete -W x y; echo st=$?"},                                  // unsupported builtin
	{"compopt", kCommand, "compopt", "", "compopt; echo st=$?"},                                            // unsupported builtin
	{"ulimit", kCommand, "ulimit", "", "ulimit -n >/dev/null; echo st=$?"},                                 // unsupported builtin
	{"umask", kCommand, "umask", "", "umask 022; echo st=$?"},                                              // unsupported builtin
	{"hash listing and hash -d/-l/-p/-t", kBare, "hash", "r", "ls >/dev/null; hash | grep -c ls"},          // the table is kept, not listed
	{"jobs (other than jobs -p)", kBare, "jobs", "p", "sleep 0.1 & jobs; wait"},                            // only jobs -p is implemented
	{"fg", kCommand, "fg", "", "fg; echo st=$?"},                                                           // unsupported builtin
	{"bg", kCommand, "bg", "", "bg; echo st=$?"},                                                           // unsupported builtin
	{"suspend", kCommand, "suspend", "", "suspend; echo st=$?"},                                            // unsupported builtin
	{"logout", kCommand, "logout", "", "logout; echo st=$?"},                                               // unsupported builtin
	{"history", kCommand, "history", "", "history; echo st=$?"},                                            // unsupported builtin
	{"fc", kCommand, "fc", "", "fc -l; echo st=$?"},                                                        // unsupported builtin
	{"bind", kCommand, "bind", "", "bind -l 2>/dev/null | head -1; echo st=$?"},                            // unsupported builtin
	{"help", kCommand, "help", "", "help help"},                                                            // the interpreter's own texts, not bash's
	{"read -e", kFlag, "read", "e", "read -e x <<< ab; echo $x"},                                           // invalid option
	{"read -i", kFlag, "read", "i", "read -i d x <<< ab; echo $x"},                                         // invalid option
	{"mapfile -C", kFlag, "mapfile", "C", "mapfile -C echo -c 1 a <<< x; echo st=$?"},                      // invalid option
	{"readarray -C", kFlag, "readarray", "C", "readarray -C echo -c 1 a <<< x; echo st=$?"},                // invalid option
	{"exec -a", kFlag, "exec", "a", "(exec -a foo true); echo st=$?"},                                      // runs "-a" as the command
	{"exec -c", kFlag, "exec", "c", "(exec -c env) | grep -c .; echo st=$?"},                               // not implemented: "-c" taken as the command
	{"exec -l", kFlag, "exec", "l", "(exec -l sh -c 'echo $0'); echo st=$?"},                               // not implemented: "-l" taken as the command
	{"cd -P", kFlag, "cd", "P", "cd -P /; pwd"},                                                            // usage error
	{"cd -L", kFlag, "cd", "L", "cd -L /; pwd"},                                                            // usage error
	{"declare -t", kFlag, "declare", "t", "declare -t x; echo st=$?"},                                      // invalid option
	{"typeset -t", kFlag, "typeset", "t", "typeset -t x; echo st=$?"},                                      // invalid option
	{"local -t", kFlag, "local", "t", "f() { local -t x; echo st=$?; }; f"},                                // invalid option
	{"declare -c", kFlag, "declare", "c", "declare -c x=hELLO; echo $x"},                                   // invalid option (bash capitalizes)
	{"typeset -c", kFlag, "typeset", "c", "typeset -c x=hELLO; echo $x"},                                   // invalid option (bash capitalizes)
	{"local -c", kFlag, "local", "c", "f() { local -c x=hELLO; echo $x; }; f"},                             // invalid option (bash capitalizes)
	{"local -p", kFlag, "local", "p", "f() { local y=2; local -p; }; f"},                                   // prints nothing
	{"export -f", kFlag, "export", "f", "f() { :; }; export -f f; echo st=$?"},                             // prints the function
	{"readonly -f", kFlag, "readonly", "f", "f() { :; }; readonly -f f; echo st=$?"},                       // prints the function
	{"export -p", kFlag, "export", "p", "export ZZ=1; export -p | grep -c ZZ="},                            // lists nothing
	{"readonly -p", kFlag, "readonly", "p", "readonly Q=1; readonly -p | grep -c Q="},                      // lists nothing
	{"local -", kFlag, "local", "-", "f() { local -; set +e; }; f; echo st=$?"},                            // invalid option
	{"declare +ATTR", kFlag, "declare", "+", "declare -i n=1; declare +i n; n=1+1; echo $n"},               // invalid option
	{"typeset +ATTR", kFlag, "typeset", "+", "typeset -i n=1; typeset +i n; n=1+1; echo $n"},               // invalid option
	{"local +ATTR", kFlag, "local", "+", "f() { local -i n=1; local +i n; n=1+1; echo $n; }; f"},           // invalid option
	{"eval with a literal string that is not valid shell", kTrapCode, "eval", "", "eval 'if'; echo st=$?"}, // the parser's wording
	{"${name@K}", kParamOp, "", "K", "declare -A m=([k]=v); echo ${m[@]@K}"},                               // keys missing
	{"${name@k}", kParamOp, "", "k", "declare -A m=([k]=v); echo ${m[@]@k}"},                               // keys missing
	{"$-", kParam, "", "-", "echo \"[$-]\""},                                                               // bash -c adds c
	{"BASH_SOURCE", kParam, "", "BASH_SOURCE", "f() { echo ${#BASH_SOURCE[@]}; }; f"},                      // not set: bodies have no source file
	{"BASH_LINENO", kParam, "", "BASH_LINENO", "f() { echo ${#BASH_LINENO[@]}; }; f"},                      // not set
	{"BASH_COMMAND", kParam, "", "BASH_COMMAND", "trap 'echo \"[$BASH_COMMAND]\"' ERR; false"},             // not set
	{"BASH_ARGV0", kParam, "", "BASH_ARGV0", "echo \"[$BASH_ARGV0]\""},                                     // not set
	{"GROUPS", kParam, "", "GROUPS", "echo \"[${GROUPS[@]}]\""},                                            // not set
	{"HISTCMD", kParam, "", "HISTCMD", "echo \"[$HISTCMD]\""},                                              // not set
	{"BASH_ALIASES", kParam, "", "BASH_ALIASES", "alias q=ls; echo \"[${BASH_ALIASES[q]}]\""},              // not set
	{"BASH_CMDS", kParam, "", "BASH_CMDS", "ls >/dev/null; echo \"[${BASH_CMDS[ls]}]\""},                   // the table of command paths is not listed
	{"BASH_LOADABLES_PATH", kParam, "", "BASH_LOADABLES_PATH", "echo \"[$BASH_LOADABLES_PATH]\""},          // not set
	{"COMP_WORDBREAKS", kParam, "", "COMP_WORDBREAKS", "echo \"[$COMP_WORDBREAKS]\""},                      // not set
	{"trap DEBUG", kTrapSig, "trap", "DEBUG", "trap 'echo dbg' DEBUG; true"},                               // no DEBUG traps
	// bash reports the syntax error when the trap runs, with its own text
	// and line; the interpreter's parser words it differently.
	{"trap with an action that is not valid shell", kTrapCode, "trap", "", "trap 'if' EXIT; echo st=$?"},
	// Listings of variables: bash's show every variable of the shell
	// (BASH_VERSINFO, FUNCNAME, … and jaiph's own would differ), the
	// interpreter prints nothing. Naming the variables works.
	{"declare without a name (it lists every variable: name them, declare -p NAME)", kListAll, "declare", "", "declare | grep -c BASH_VERSINFO"},
	{"typeset without a name (it lists every variable: name them, declare -p NAME)", kListAll, "typeset", "", "typeset -p | grep -c BASH_VERSINFO"},
	{"local without a name (it lists the function's locals: name them, declare -p NAME)", kListAll, "local", "", "f() { local v=1; local; }; f"},
	{"export without a name (it lists the exported variables: name them, declare -p NAME)", kListAll, "export", "", "export ZZ=1; export | grep -c ZZ="},
	{"readonly without a name (it lists the readonly variables: name them, declare -p NAME)", kListAll, "readonly", "", "readonly Q=1; readonly | grep -c Q="},
	{"set without arguments (it lists every variable: name them, declare -p NAME)", kListAll, "set", "", "set | grep -c BASH_VERSINFO"},
	{"set whose arguments are all unquoted expansions (when they expand to nothing it lists every variable, and a value starting with - is read as options: write set -- WORDS)", kListIfEmpty, "set", "", "e=; set $e | grep -c BASH_VERSINFO"},
	// bash switches its own locale (pattern `?`, ${#x}, ${x:o:l}) when
	// these change; the interpreter's is always C.UTF-8. That literal
	// name and a prefix assignment to a command are allowed.
	// bash lists its own variables the interpreter does not have.
	{"${!prefix*} matching a variable only bash has (BASH_ALIASES, BASH_ARGC, BASH_ARGV, BASH_ARGV0, BASH_CMDS, BASH_COMMAND, BASH_LINENO, BASH_LOADABLES_PATH, BASH_SOURCE, COMP_WORDBREAKS, GROUPS, HISTCMD, LINENO): name the variables instead", kNamesPrefix, "", "", "echo ${!BASH_A*}"},
	{"assigning FUNCNAME a list, an element or by a declaration (bash refuses it)", kNoAssign, "", "FUNCNAME", "f() { FUNCNAME=(x); echo st=$?; }; f; echo end=$?"},
	{"assigning BASH_ARGV a list, an element or by a declaration (bash refuses it)", kNoAssign, "", "BASH_ARGV", "f() { declare BASH_ARGV[1]=foo; echo st=$?; }; f"},
	{"assigning BASH_ARGC a list, an element or by a declaration (bash refuses it)", kNoAssign, "", "BASH_ARGC", "f() { BASH_ARGC=(x); echo st=$?; }; f; echo end=$?"},
	{"assigning BASH_LINENO a list, an element or by a declaration (bash refuses it)", kNoAssign, "", "BASH_LINENO", "f() { BASH_LINENO=(1); echo st=$?; }; f; echo end=$?"},
	{"assigning BASH_SOURCE a list, an element or by a declaration (bash refuses it)", kNoAssign, "", "BASH_SOURCE", "f() { BASH_SOURCE=(1); echo st=$?; }; f; echo end=$?"},
	// bash's tables as variables: an element assigned makes an alias or
	// a remembered command path, which the interpreter's have no
	// variables for
	{"assigning BASH_ALIASES (bash makes an alias of each element)", kNoAssign, "", "BASH_ALIASES", `BASH_ALIASES[ll]="ls -l"; alias ll; echo "st=$?"`},
	{"assigning BASH_CMDS (bash remembers each element as a command's path)", kNoAssign, "", "BASH_CMDS", `BASH_CMDS[foo]=/bin/echo; foo hi; echo "st=$?"`},
	// bash gives the declaration the temporary value: export and readonly
	// keep it after the command, declare and local in a function make a
	// local of it; the interpreter restores the old value first. unset
	// of the bound name in a function unsets the binding alone.
	{"a prefix assignment before declare, typeset, local, export, readonly or unset naming a variable it declares or unsets (or a name that is not literal)", kPrefixDecl, "", "", "x=1; x=5 export x; echo \"x=$x\""},
	{"setting LC_ALL in the shell (its locale is always C.UTF-8)", kLocale, "", "LC_ALL", "LC_ALL=C; x=é; echo ${#x}"},
	{"setting LC_CTYPE in the shell (its locale is always C.UTF-8)", kLocale, "", "LC_CTYPE", "LC_ALL=; LC_CTYPE=C; x=é; echo ${#x}"},
	{"setting LANG in the shell (its locale is always C.UTF-8)", kLocale, "", "LANG", "LC_ALL=; LANG=C; x=é; echo ${#x}"},
}

// localeVars are the variables whose change switches bash's own locale.
var localeVars = map[string]bool{"LC_ALL": true, "LC_CTYPE": true, "LANG": true}

// utf8Locale reports whether a literal locale name names a UTF-8 locale,
// which the interpreter's is already.
// utf8Locale says v names the locale the interpreter works in, C.UTF-8:
// another name (en_US.UTF-8) may not be installed, where bash keeps its
// locale with a warning, or collates otherwise ([[ a < B ]]).
func utf8Locale(v string) bool {
	v = strings.ToLower(v)
	return v == "c.utf-8" || v == "c.utf8"
}

// localeAssign reports the assignments to the locale variables that change
// the shell's locale: a value that is not a literal UTF-8 locale name.
// A naked name keeps its value under export and readonly only (a naked
// local or declare in a function makes it unset there).
// tableVar reports bash's variables that are views of its alias and
// command path tables.
func tableVar(name string) bool { return name == "BASH_ALIASES" || name == "BASH_CMDS" }

// noAssign reports a list, an element or a declaration assigned to one of
// bash's noassign variables (a plain NAME=v is ignored there as here), and
// any assignment to one of tableVars.
func noAssign(a *syntax.Assign, declared bool, hit func(kind, string, string, syntax.Pos)) {
	if a != nil && a.Name != nil && tableVar(a.Name.Value) {
		hit(kNoAssign, "", a.Name.Value, a.Pos()) // any assignment, a naked declaration too
		return
	}
	if a == nil || a.Name == nil || a.Naked && a.Value == nil && a.Array == nil {
		return
	}
	if declared || a.Array != nil || a.Index != nil {
		hit(kNoAssign, "", a.Name.Value, a.Pos())
	}
}

// declBuiltin reports the builtins whose operands declare variables.
func declBuiltin(name string) bool {
	switch name {
	case "declare", "typeset", "local", "export", "readonly":
		return true
	}
	return false
}

// prefixDeclared reports the first operand of a declaration builtin (or
// unset) run with prefix assignments that names one of their variables, or
// whose name is not literal text.
func prefixDeclared(name string, assigns []*syntax.Assign, operands []*syntax.Word) (syntax.Pos, bool) {
	if !declBuiltin(name) && name != "unset" {
		return syntax.Pos{}, false
	}
	options := true
	for _, w := range operands {
		declared, ok := declaredName(w)
		if !ok {
			return w.Pos(), true
		}
		if options && len(declared) > 1 && (declared[0] == '-' || declared[0] == '+') {
			if declared[0] == '-' && strings.ContainsAny(declared, "pfF") && name != "unset" {
				return syntax.Pos{}, false // it prints, declaring nothing
			}
			options = declared != "--"
			continue
		}
		options = false
		for _, a := range assigns {
			if a.Name != nil && a.Name.Value == declared {
				return w.Pos(), true
			}
		}
	}
	return syntax.Pos{}, false
}

// declaredName is the name a declaration operand declares (NAME, NAME=v,
// NAME+=v, NAME[i]=v), when its text up to there is literal.
func declaredName(w *syntax.Word) (string, bool) {
	if lit, ok := w.Parts[0].(*syntax.Lit); ok {
		if i := strings.IndexAny(lit.Value, "=[+"); i >= 0 {
			return lit.Value[:i], true
		}
	}
	text, ok := literalWord(w)
	if i := strings.IndexAny(text, "=[+"); ok && i >= 0 {
		text = text[:i]
	}
	return text, ok
}

func localeAssign(a *syntax.Assign, nakedKeeps bool, hit func(kind, string, string, syntax.Pos)) {
	if a == nil || a.Name == nil || !localeVars[a.Name.Value] {
		return
	}
	if a.Value != nil && a.Index == nil && !a.Append {
		if v, ok := literalWord(a.Value); ok && utf8Locale(v) {
			return
		}
	}
	if a.Naked && a.Value == nil && a.Array == nil && nakedKeeps {
		return // export LANG: no change of value
	}
	hit(kLocale, "", a.Name.Value, a.Pos())
}

// trappable are the signals a jaiph trap can catch (besides EXIT, ERR and
// the pseudo-signals refused above); others are refused by name.
var trappable = map[string]bool{"EXIT": true, "ERR": true, "HUP": true, "INT": true, "QUIT": true,
	"TERM": true, "USR1": true, "USR2": true, "0": true, "1": true, "2": true, "3": true, "10": true,
	"12": true, "15": true}

// signalWord normalises a literal signal spec: `sigterm` → `TERM`.
func signalWord(w string) string {
	w = strings.ToUpper(w)
	return strings.TrimPrefix(w, "SIG")
}

// unsupportedShopt are the bash options the interpreter's shopt rejects
// ("unsupported option"); extglob and the glob options are supported.
var unsupportedShopt = []string{
	"assoc_expand_once", "cdable_vars", "checkhash", "checkwinsize", "compat31", "compat32", "compat40",
	"compat41", "compat42", "compat43", "compat44", "execfail", "expand_aliases", "extdebug", "extquote",
	"globasciiranges", "gnu_errfmt", "interactive_comments", "localvar_inherit", "localvar_unset",
	"login_shell", "promptvars", "restricted_shell", "shift_verbose", "sourcepath",
}

func init() {
	for sig, num := range signalNumbers {
		if !trappable[sig] && !trappable[num] && sig != "KILL" && sig != "STOP" {
			table = append(table, refusal{"trap " + sig, kTrapSig, "trap", sig, "trap 'echo caught' " + sig + "; echo st=$?"})
		}
	}
	for _, o := range unsupportedShopt {
		table = append(table, refusal{"shopt " + o, kShopt, "shopt", o, "shopt -s " + o + "; echo st=$?"})
	}
}

// optArgs lists, per command, the short options that take an argument, so
// that scanning for options skips it.
var optArgs = map[string]string{
	"read": "adinNptu", "mapfile": "dnOsuCc", "readarray": "dnOsuCc", "exec": "a", "set": "o",
}

// found is one refused construct at a position of the lowered source.
type found struct {
	name string
	pos  syntax.Pos
}

// refusals walks f and returns the refused constructs in source order.
// key identifies a row of table.
type key struct {
	kind     kind
	cmd, arg string
}

// tableIndex maps each key to the name of its first row in table (every
// simple command of every body is looked up). Built on first use: init adds
// rows to table.
var tableIndex = sync.OnceValue(func() map[key]string {
	m := make(map[key]string, len(table))
	for _, r := range table {
		k := key{r.kind, r.cmd, r.arg}
		if _, dup := m[k]; !dup {
			m[k] = r.name
		}
	}
	return m
})

// procSubstText finds the text `<(` or `>(` in a word of pe (its operand,
// a pattern or a replacement): bash runs a process substitution there
// (`${u:+<(echo a)}` is /dev/fd/63), or keeps its reprint in double
// quotes; the parser reads it as plain text.
func procSubstText(pe *syntax.ParamExp) (syntax.Pos, bool) {
	var words []*syntax.Word
	if pe.Exp != nil && pe.Exp.Word != nil {
		words = append(words, pe.Exp.Word)
	}
	if pe.Repl != nil {
		words = append(words, pe.Repl.Orig, pe.Repl.With)
	}
	var pos syntax.Pos
	for _, w := range words {
		if w == nil {
			continue
		}
		syntax.Walk(w, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst, *syntax.ParamExp:
				return false // walked on its own
			case *syntax.Lit:
				if !pos.IsValid() && (strings.Contains(n.Value, "<(") || strings.Contains(n.Value, ">(")) {
					pos = n.Pos()
				}
			}
			return true
		})
	}
	return pos, pos.IsValid()
}

// quotedListInWord finds a double-quoted "$@" or "${name[@]…}" (not the
// keys, "${!name[@]}") in w: as a case statement's word, bash leaves a
// marker byte (\177) for each empty element of a list of two or more.
func quotedListInWord(w *syntax.Word) (syntax.Pos, bool) {
	for _, p := range dblQuotedParts(w) {
		pe, ok := p.(*syntax.ParamExp)
		if !ok || pe.Param == nil || pe.Length || pe.Excl && pe.Index != nil {
			continue
		}
		if pe.Param.Value == "@" || pe.Index != nil && nodeLitAt(pe.Index) {
			return pe.Pos(), true
		}
	}
	return syntax.Pos{}, false
}

// dblQuotedParts yields each part inside w's double quotes, with the
// quotes holding it.
func dblQuotedParts(w *syntax.Word) iter.Seq2[*syntax.DblQuoted, syntax.WordPart] {
	return func(yield func(*syntax.DblQuoted, syntax.WordPart) bool) {
		if w == nil {
			return
		}
		for _, part := range w.Parts {
			dq, ok := part.(*syntax.DblQuoted)
			if !ok {
				continue
			}
			for _, p := range dq.Parts {
				if !yield(dq, p) {
					return
				}
			}
		}
	}
}

// nodeLitAt reports whether a subscript is the literal @.
func nodeLitAt(idx syntax.ArithmExpr) bool {
	w, ok := idx.(*syntax.Word)
	return ok && w.Lit() == "@"
}

// namedSubsts refuses each $(…) or process substitution under n, a word
// bash may name in a message, whose commands the interpreter cannot print
// as bash's parser reprints them.
func namedSubsts(n syntax.Node, hit func(kind, string, string, syntax.Pos)) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			if !n.Backquotes && !n.TempFile && !n.ReplyVar && !interp.SubstTextKnown(n) {
				hit(kNode, "$(…) named", "", n.Pos())
			}
		case *syntax.ProcSubst:
			if !interp.SubstTextKnown(n) {
				hit(kNode, "$(…) named", "", n.Pos())
			}
		}
		return true
	})
}

func refusals(f *syntax.File) []found {
	out, _ := scan(f)
	return out
}

// scan walks f once and returns the refused constructs and the misplaced
// Jaiph step words (steps.go), each in source order.
func scan(f *syntax.File) (out, steps []found) {
	if grown.CompareAndSwap(false, true) {
		growStack() // once: the frame is zeroed at every call
	}
	// What the walk's closure updates, in one variable: the closure moves
	// what it captures to the heap, an allocation each per body.
	var st struct {
		defined      map[string]bool          // step words defined as functions
		parsedByBash map[*syntax.ExtGlob]bool // see below
		cFor         *syntax.CStyleLoop       // the first for ((…)) loop
		xtrace       bool                     // a set -x (or -o xtrace) somewhere
		ifs          bool                     // IFS set somewhere (ifsalt.go)
		altLists     []syntax.Pos             // see altListWords
		namerefs     map[string]string        // literal nameref targets (declare -n a=b)
	}
	altList := func(pe *syntax.ParamExp) { st.altLists = append(st.altLists, pe.Pos()) }
	hit := func(k kind, cmd, arg string, pos syntax.Pos) {
		if name, ok := tableIndex()[key{k, cmd, arg}]; ok {
			out = append(out, found{name, pos})
		}
	}
	// extglob groups inside [[ ]] and ${…} are parsed by bash whatever
	// the extglob option; elsewhere they are its syntax error. The walk
	// meets those nodes before the groups they hold.
	markParsed := func(n syntax.Node) {
		syntax.Walk(n, func(m syntax.Node) bool {
			if eg, ok := m.(*syntax.ExtGlob); ok {
				if st.parsedByBash == nil {
					st.parsedByBash = map[*syntax.ExtGlob]bool{}
				}
				st.parsedByBash[eg] = true
			}
			return true
		})
	}
	// A bare name in arithmetic ($((BASH_LINENO))) reads the parameter as
	// ${NAME} does.
	arithName := func(x syntax.ArithmExpr) {
		if w, ok := x.(*syntax.Word); ok {
			if l := w.Lit(); syntax.ValidName(l) {
				hit(kParam, "", l, w.Pos())
			}
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil && n.Name.Value == "IFS" {
				st.ifs = true
			}
			if n.Index != nil {
				namedSubsts(n.Index, hit)
			}
		case *syntax.WordIter:
			if n.Name != nil && n.Name.Value == "IFS" {
				st.ifs = true
			}
			for _, w := range n.Items {
				altListWords(w, altList)
			}
		case *syntax.ArrayElem:
			if n.Value != nil {
				altListWords(n.Value, altList)
			}
			namedSubsts(n, hit)
		case *syntax.BinaryTest:
			// bash's [[ ]] parses extended groups only in the pattern
			// right of ==, = and != (and =~'s regular expression):
			// elsewhere `(` is its syntax error.
			switch n.Op {
			case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch, syntax.TsReMatch:
				markParsed(n.Y)
			}
			if w, ok := n.Y.(*syntax.Word); ok && n.Op == syntax.TsReMatch && expansionFree(w) {
				if re, err := expand.Regexp(nil, w); err == nil && expand.RegexpUnsupported(re) != "" {
					hit(kNode, "=~", "", w.Pos())
				}
			}
		case *syntax.ExtGlob:
			if !st.parsedByBash[n] {
				hit(kNode, "extglob", "", n.Pos())
			}
		case *syntax.Word:
			if backquoteRange(n) {
				hit(kNode, "{..`}", "", n.Pos())
			}
		case *syntax.DblQuoted:
			if cmd, pos, ok := quotedParamRefusal(n); ok {
				hit(kNode, cmd, "", pos)
			}
		case *syntax.CoprocClause:
			hit(kNode, "coproc", "", n.Pos())
		case *syntax.CaseClause:
			if pos, ok := quotedListInWord(n.Word); ok {
				hit(kNode, "case \"$@\"", "", pos)
			}
		case *syntax.Redirect:
			if n.Word != nil && n.Op != syntax.Hdoc && n.Op != syntax.DashHdoc {
				namedSubsts(n.Word, hit)
			}
		case *syntax.ProcSubst:
			if n.Op == syntax.CmdOut {
				hit(kNode, ">(", "", n.Pos())
			}
			subHeredocs(n, func(rd *syntax.Redirect) {
				if heredocCloseLine(rd) {
					hit(kNode, "<<D…D)", "", rd.Pos())
				}
			})
		case *syntax.FuncDecl:
			if n.Name != nil && stepWords[n.Name.Value] {
				if st.defined == nil {
					st.defined = map[string]bool{}
				}
				st.defined[n.Name.Value] = true
			}
		case *syntax.CallExpr:
			words := n.Args
			if len(words) == 0 {
				// a bare assignment sets the shell's variable
				for _, a := range n.Assigns {
					localeAssign(a, false, hit)
					noAssign(a, false, hit)
				}
				return true
			}
			if w := stepWord(words); w != nil {
				steps = append(steps, found{w.Lit(), w.Pos()})
			}
			for _, w := range words[1:] {
				altListWords(w, altList)
				if !st.ifs && litIFS(w) {
					st.ifs = true // read IFS, printf -v IFS, unset IFS
				}
			}
			name := words[0].Lit()
			// builtin NAME and command NAME run NAME itself (command's
			// options -p, -v and -V read or list, not run)
			if (name == "builtin" || name == "command" && !strings.HasPrefix(words[min(1, len(words)-1)].Lit(), "-")) && len(words) > 1 {
				words = words[1:]
				name = words[0].Lit()
			}
			hit(kCommand, name, "", words[0].Pos())
			if len(n.Assigns) > 0 {
				for _, a := range n.Assigns {
					if a.Name != nil && tableVar(a.Name.Value) {
						hit(kNoAssign, "", a.Name.Value, a.Pos())
					}
				}
				if pos, ok := prefixDeclared(name, n.Assigns, words[1:]); ok {
					hit(kPrefixDecl, "", "", pos)
				}
			}
			if name == "set" && len(words) == 1 {
				hit(kListAll, name, "", words[0].Pos())
			}
			if name == "set" && onlyExpansions(words[1:]) {
				hit(kListIfEmpty, name, "", words[1].Pos())
			}
			options(name, words[1:], hit)
			special(name, words, hit)
			if name == "set" && !st.xtrace {
				st.xtrace = setsXtrace(words[1:])
			}
			if code, w := laterCode(name, words[1:]); w != nil {
				// a literal trap action or eval string runs as shell
				// later: what it holds is refused as if written out
				if f, err := parseCode(code); err == nil {
					for _, fd := range refusals(f) {
						out = append(out, found{fd.name, w.Pos()})
					}
				}
			}
		case *syntax.DeclClause:
			var words []*syntax.Word
			for _, a := range n.Args {
				if a.Naked && a.Name == nil && a.Value != nil {
					words = append(words, a.Value)
				} else if a.Naked && a.Name != nil && strings.HasPrefix(a.Name.Value, "-") {
					words = append(words, &syntax.Word{Parts: []syntax.WordPart{a.Name}})
				} else {
					break
				}
			}
			options(n.Variant.Value, words, hit)
			if len(words) == len(n.Args) && listsAll(n.Variant.Value, words) {
				hit(kListAll, n.Variant.Value, "", n.Pos())
			}

			if declaresNameref(n.Variant.Value, words) {
				for _, a := range n.Args[len(words):] {
					target, ok := "", false
					if !a.Naked && a.Name != nil && a.Value != nil && a.Index == nil && a.Array == nil && !a.Append {
						target, ok = literalWord(a.Value)
					}
					if !ok {
						continue
					}
					if st.namerefs == nil {
						st.namerefs = map[string]string{}
					}
					st.namerefs[a.Name.Value] = target
					if namerefCycle(st.namerefs, a.Name.Value) {
						hit(kNode, "nameref cycle", "", a.Pos())
					}
				}
			}
			keeps := n.Variant.Value == "export" || n.Variant.Value == "readonly"
			for _, a := range n.Args {
				if !(a.Naked && a.Name == nil) {
					localeAssign(a, keeps, hit)
					noAssign(a, true, hit)
				}
			}
		case *syntax.CmdSubst:
			if n.TempFile || n.ReplyVar {
				hit(kNode, "${ }", "", n.Pos())
			}
			if !n.Backquotes {
				subHeredocs(n, func(rd *syntax.Redirect) {
					if heredocCloseLine(rd) {
						hit(kNode, "<<D…D)", "", rd.Pos())
					}
					if rd.Hdoc.Pos().After(n.Right) {
						hit(kNode, "$(<<D)", "", rd.Pos())
					}
				})
			}
		case *syntax.ArithmExp:
			arithName(n.X)
		case *syntax.ArithmCmd:
			arithName(n.X)
		case *syntax.LetClause:
			for _, x := range n.Exprs {
				arithName(x)
			}
		case *syntax.CStyleLoop:
			if st.cFor == nil {
				st.cFor = n
			}
			arithName(n.Init)
			arithName(n.Cond)
			arithName(n.Post)
		case *syntax.BinaryArithm:
			arithName(n.X)
			arithName(n.Y)
		case *syntax.UnaryArithm:
			arithName(n.X)
		case *syntax.ParenArithm:
			arithName(n.X)
		case *syntax.ParamExp:
			if n.Exp != nil || n.Repl != nil {
				markParsed(n)
			}
			if n.Param != nil {
				if n.Param.Value == "IFS" && n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
					st.ifs = true
				}
				hit(kParam, "", n.Param.Value, n.Pos())
				if n.Excl && n.Names != 0 && slices.ContainsFunc(bashOnlyVars, func(v string) bool { return strings.HasPrefix(v, n.Param.Value) }) {
					hit(kNamesPrefix, "", "", n.Pos())
				}
			}
			if n.Exp != nil && n.Exp.Op == syntax.OtherParamOps && n.Exp.Word != nil {
				hit(kParamOp, "", n.Exp.Word.Lit(), n.Pos())
				if n.Param != nil && (n.Param.Value == "@" || n.Param.Value == "*") && n.Exp.Word.Lit() == "A" {
					hit(kNode, "${@@A}", "", n.Pos())
				}
			}
			if badLengthSubst(n) {
				hit(kNode, "${#^}", "", n.Pos())
			}
			if n.Param != nil && n.Param.Value == "RANDOM" && (n.Index != nil || n.Excl && n.Names == 0) {
				hit(kNode, "${RANDOM[…]}", "", n.Pos())
			}
			if pos, ok := procSubstText(n); ok {
				hit(kNode, "${…<(…)}", "", pos)
			}
			if n.Repl != nil && n.Repl.Orig != nil && len(n.Repl.Orig.Parts) > 0 {
				if l, ok := n.Repl.Orig.Parts[0].(*syntax.Lit); ok && l.Value != "" {
					hit(kReplace, "", l.Value[:1], n.Pos())
				}
			}
		}
		return true
	})
	if st.cFor != nil && st.xtrace {
		hit(kNode, "xtrace for((", "", st.cFor.Pos())
	}
	if st.ifs {
		for _, pos := range st.altLists {
			hit(kNode, "${v+${a[@]}}", "", pos)
		}
	}
	if len(steps) > 0 && st.defined != nil {
		kept := steps[:0]
		for _, sf := range steps {
			if !st.defined[sf.name] {
				kept = append(kept, sf)
			}
		}
		steps = kept
	}
	return out, steps
}

// setsXtrace reports whether set's operands turn on xtrace: -x among
// short options, or -o xtrace.
func setsXtrace(words []*syntax.Word) bool {
	for i, w := range words {
		lit := w.Lit()
		switch {
		case lit == "-o" && i+1 < len(words) && words[i+1].Lit() == "xtrace":
			return true
		case lit == "--" || lit == "-" || !strings.HasPrefix(lit, "-"):
			return false
		case !strings.HasPrefix(lit, "-o") && strings.Contains(lit, "x"):
			return true
		}
	}
	return false
}

// options reports the refused short options, `set -o` names and shopt
// names among the leading option words of a command.
func options(name string, words []*syntax.Word, hit func(kind, string, string, syntax.Pos)) {
	takes := optArgs[name]
	setting := false  // shopt -s
	changing := false // shopt -s or -u
	setOpts := false  // shopt -o: set -o names
	for i := 0; i < len(words); i++ {
		w := words[i].Lit()
		if name == "shopt" {
			if strings.HasPrefix(w, "-") {
				setting = setting || strings.Contains(w, "s")
				changing = changing || strings.ContainsAny(w, "su")
				setOpts = setOpts || strings.Contains(w, "o")
				for _, c := range w[1:] {
					hit(kFlag, name, string(c), words[i].Pos())
				}
			} else if setOpts {
				// shopt -s -o NAME is set -o NAME; a query shows
				// any of bash's -o options as it would
				if changing && w != "" {
					hit(kSetOpt, "set", w, words[i].Pos())
				}
			} else if w != "" && (w != "expand_aliases" || setting) {
				// expand_aliases: only turning it on is refused;
				// off (bash's default in a script) and the query
				// run as bash
				hit(kShopt, name, w, words[i].Pos())
			}
			continue
		}
		if w == "-" && name == "local" {
			hit(kFlag, name, "-", words[i].Pos())
			return
		}
		if len(w) >= 2 && w[0] == '+' && (name == "declare" || name == "typeset" || name == "local") {
			hit(kFlag, name, "+", words[i].Pos())
			return
		}
		if w == "--" || len(w) < 2 || !(w[0] == '-' || w[0] == '+' && name == "set") {
			return
		}
		for j, c := range w[1:] {
			hit(kFlag, name, string(c), words[i].Pos())
			if strings.ContainsRune(takes, c) {
				if j == len(w)-2 && i+1 < len(words) {
					i++
					if name == "set" && c == 'o' {
						hit(kSetOpt, name, words[i].Lit(), words[i].Pos())
					}
				}
				break
			}
		}
	}
}

// listsAll reports whether a declaration command whose words are all
// options lists variables: not with -f/-F (functions, which the
// interpreter lists as bash), nor in the forms refused otherwise (`-p` of
// export, readonly and local, `local -`, `+ATTR`).
// onlyExpansions reports whether there are words and each is made only of
// unquoted parameter expansions and command substitutions, which can all
// expand to nothing (set $e).
func onlyExpansions(words []*syntax.Word) bool {
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		for _, p := range w.Parts {
			switch p.(type) {
			case *syntax.ParamExp, *syntax.CmdSubst:
			default:
				return false
			}
		}
	}
	return true
}

func listsAll(name string, opts []*syntax.Word) bool {
	for _, w := range opts {
		l := w.Lit()
		switch {
		case l == "--":
		case len(l) < 2 || l[0] != '-':
			return false
		case strings.ContainsAny(l, "fF"):
			return false
		case name != "declare" && name != "typeset" && strings.Contains(l, "p"):
			return false
		}
	}
	return true
}

// special finds the refusals that depend on a command's arguments: jobs
// without -p and traps of signals jaiph cannot catch. Only literal words are
// judged; a computed signal that jaiph cannot trap fails at run time with a
// jaiph error, as do `kill` of a process group and a stop signal sent to
// the shell itself (no example of those can run safely under a test's bash).
func special(name string, words []*syntax.Word, hit func(kind, string, string, syntax.Pos)) {
	args := words[1:]
	switch name {
	case "unset":
		for _, w := range args {
			if l := w.Lit(); localeVars[l] {
				hit(kLocale, "", l, w.Pos())
			}
		}
	case "jobs":
		for _, w := range args {
			if l := w.Lit(); strings.HasPrefix(l, "-") && strings.Contains(l, "p") {
				return
			}
		}
		hit(kBare, name, "p", words[0].Pos())
	case "hash":
		// the table of command paths runs as bash's for `hash -r` and
		// `hash NAME…`; its listing and the other options do not
		flush, names, other, endOpts := false, 0, false, false
		for _, w := range args {
			if l := w.Lit(); names == 0 && !endOpts && l == "--" {
				endOpts = true // `hash --` lists too
				continue
			} else if names == 0 && !endOpts && len(l) > 1 && strings.HasPrefix(l, "-") {
				flush = flush || strings.Contains(l, "r")
				other = other || strings.Trim(l[1:], "r") != ""
				continue
			}
			names++
		}
		if other || names == 0 && !flush {
			hit(kBare, name, "r", words[0].Pos())
		}
	case "eval":
		if len(args) == 1 {
			if code, ok := literalWord(args[0]); ok && !validShell(code) {
				hit(kTrapCode, name, "", args[0].Pos())
			}
		}
	case "trap":
		if len(args) > 0 && args[0].Lit() == "--" {
			args = args[1:]
		}
		if len(args) < 2 || strings.HasPrefix(args[0].Lit(), "-") && args[0].Lit() != "-" {
			return
		}
		if code, ok := literalWord(args[0]); ok && code != "-" && !validShell(code) {
			hit(kTrapCode, name, "", args[0].Pos())
		}
		for _, w := range args[1:] {
			sig := signalWord(w.Lit())
			if sig == "" || trappable[sig] || sig == "RETURN" {
				continue
			}
			if sig == "DEBUG" {
				hit(kTrapSig, name, sig, w.Pos())
				continue
			}
			if n, ok := signalNumbers[sig]; ok && !trappable[n] {
				hit(kTrapSig, name, sig, w.Pos())
			} else if shellscan.IsDigits(sig) {
				for nm, num := range signalNumbers {
					if num == sig && !trappable[sig] {
						hit(kTrapSig, name, nm, w.Pos())
					}
				}
			}
		}
	}
}

// declaresNameref says a declaration with the leading option words opts
// makes namerefs: declare, typeset or local with -n among its options
// (export -n and readonly -n take an attribute away).
func declaresNameref(variant string, opts []*syntax.Word) bool {
	if variant != "declare" && variant != "typeset" && variant != "local" {
		return false
	}
	for _, w := range opts {
		if l := w.Lit(); strings.HasPrefix(l, "-") && strings.ContainsRune(l, 'n') {
			return true
		}
	}
	return false
}

// namerefCycle says the literal nameref targets in refs lead from start
// back to start: bash's nameref walk ends in "circular name reference".
func namerefCycle(refs map[string]string, start string) bool {
	cur := refs[start]
	for range len(refs) {
		if cur == start {
			return true
		}
		next, ok := refs[cur]
		if !ok {
			return false
		}
		cur = next
	}
	return cur == start
}

// literalWord is the value of a word made only of literal text and quotes
// (no expansions).
func literalWord(w *syntax.Word) (string, bool) {
	var sb strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			sb.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			sb.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				sb.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return sb.String(), true
}

// validShell reports whether code parses as bash.
func validShell(code string) bool {
	_, err := parseCode(code)
	return err == nil
}

func parseCode(code string) (*syntax.File, error) {
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	syntax.StartLine(1)(p)
	return p.Parse(strings.NewReader(code), "")
}

// laterCode is the literal shell text a trap action or an eval string
// holds, and its word; nil when there is none.
func laterCode(name string, args []*syntax.Word) (string, *syntax.Word) {
	switch name {
	case "trap":
		if len(args) > 0 && args[0].Lit() == "--" {
			args = args[1:]
		}
		if len(args) < 2 || strings.HasPrefix(args[0].Lit(), "-") {
			return "", nil
		}
	case "eval":
		if len(args) != 1 {
			return "", nil
		}
	default:
		return "", nil
	}
	if code, ok := literalWord(args[0]); ok {
		return code, args[0]
	}
	return "", nil
}

// signalNumbers are the Linux signal names jaiph knows, by name; only
// their existence matters here (a trap of a name outside trappable).
var signalNumbers = map[string]string{"HUP": "1", "INT": "2", "QUIT": "3", "ILL": "4", "TRAP": "5",
	"ABRT": "6", "BUS": "7", "FPE": "8", "KILL": "9", "USR1": "10", "SEGV": "11", "USR2": "12",
	"PIPE": "13", "ALRM": "14", "TERM": "15", "STKFLT": "16", "CHLD": "17", "CONT": "18", "STOP": "19",
	"TSTP": "20", "TTIN": "21", "TTOU": "22", "URG": "23", "XCPU": "24", "XFSZ": "25", "VTALRM": "26",
	"PROF": "27", "WINCH": "28", "IO": "29", "PWR": "30", "SYS": "31"}

// expansionFree: the word has no expansion (its text is known before it
// runs).
func expansionFree(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// quotedParamRefusal finds, in a parameter expansion directly inside dq,
// what bash's parser reads otherwise than the interpreter (the first
// found): a $'…' whose text holds a quote (written or escaped: \x22, \047
// …) in the word of a ${v:-w}, ${v:+w}, ${v:=w} or ${v:?w} (with or
// without the colon), reported as "$'\"'"; a single-quoted "$(" in an
// operator's word, as "'$('"; single quotes around a double quote in an
// operator's word, as "\"${'}\""; a double-quoted string holding a brace
// expansion in the subscript or a word, as "\"{,}\"" (bash's brace
// expansion takes the inner quotes for the end and start of the outer
// ones: "${a["{2..6}"]}" is five elements).
func quotedParamRefusal(dq *syntax.DblQuoted) (string, syntax.Pos, bool) {
	for _, p := range dq.Parts {
		pe, ok := p.(*syntax.ParamExp)
		if !ok {
			continue
		}
		if pe.Exp != nil && pe.Exp.Word != nil {
			switch pe.Exp.Op {
			case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
				syntax.AssignUnset, syntax.AssignUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
				if pos, ok := dollarSglQuoteQuote(pe.Exp.Word); ok {
					return "$'\"'", pos, true
				}
			}
			if pos, ok := sglQuotedComsub(pe.Exp.Word); ok {
				return "'$('", pos, true
			}
		}
		if pe.Repl != nil {
			if pos, ok := sglQuotedComsub(pe.Repl.Orig); ok {
				return "'$('", pos, true
			}
			if pos, ok := sglQuotedComsub(pe.Repl.With); ok {
				return "'$('", pos, true
			}
		}
		if pe.Exp != nil && oddSingleQuotes(pe.Exp.Word) || pe.Repl != nil && (oddSingleQuotes(pe.Repl.Orig) || oddSingleQuotes(pe.Repl.With)) {
			return "\"${'}\"", pe.Pos(), true
		}
		words := [3]*syntax.Word{}
		if w, ok := pe.Index.(*syntax.Word); ok {
			words[0] = w
		}
		if pe.Exp != nil {
			words[1] = pe.Exp.Word
		}
		if pe.Repl != nil {
			words[2] = pe.Repl.With
		}
		for _, w := range words {
			if pos, ok := dblQuotedBrace(w); ok {
				return "\"{,}\"", pos, true
			}
		}
	}
	return "", syntax.Pos{}, false
}

// badLengthSubst says pe is `${#` followed by a case modification
// (${#^}, ${#,,x}), by a lone `/` (${#/}), or by a `+` or `=` with no word
// (${#+}, ${#=}): bash reads the `#` as the
// length operator there and fails with "bad substitution"; the
// interpreter expands $# with the operator.
func badLengthSubst(pe *syntax.ParamExp) bool {
	if pe.Param == nil || pe.Param.Value != "#" || pe.Excl || pe.Length || pe.Short {
		return false
	}
	if pe.Repl != nil {
		return pe.Repl.Orig == nil && pe.Repl.With == nil && !pe.Repl.All
	}
	if pe.Exp == nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
		return true
	case syntax.AlternateUnset, syntax.AssignUnset:
		// ${#+} and ${#=} with no word ("${#+x}" is $#'s alternative)
		return pe.Exp.Word == nil || len(pe.Exp.Word.Parts) == 0
	}
	return false
}

// oddSingleQuotes says w, an operator's word in a double-quoted ${…},
// holds single quotes around a double quote: bash pairs the single quotes
// to find the expansion's end but keeps them as text, and removes the
// double quote as a quote (`"${x+'a}"; echo "b'}"` is 'a}; echo b'),
// where the interpreter keeps it.
func oddSingleQuotes(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, wp := range w.Parts {
		if sq, ok := wp.(*syntax.SglQuoted); ok && !sq.Dollar && strings.Contains(sq.Value, `"`) {
			return true
		}
	}
	return false
}

// dollarSglQuoteQuote finds a $'…' part of w whose text holds a quote.
func dollarSglQuoteQuote(w *syntax.Word) (syntax.Pos, bool) {
	for _, wp := range w.Parts {
		sq, ok := wp.(*syntax.SglQuoted)
		if !ok || !sq.Dollar {
			continue
		}
		v := strings.ToLower(sq.Value)
		for _, q := range []string{`"`, `\'`, `\x22`, `\x27`, `\042`, `\047`, `\u0022`, `\u0027`, `\u00000022`, `\u00000027`} {
			if strings.Contains(v, q) {
				return sq.Pos(), true
			}
		}
	}
	return syntax.Pos{}, false
}

// dblQuotedBrace finds a double-quoted part of w whose literal text is a
// brace expansion ({a,b}, {1..3}).
func dblQuotedBrace(w *syntax.Word) (syntax.Pos, bool) {
	for dq, p := range dblQuotedParts(w) {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") && strings.Contains(l.Value, "}") {
			if syntax.SplitBraces(&syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: l.Value}}}) {
				return dq.Pos(), true
			}
		}
	}
	return syntax.Pos{}, false
}

func sglQuotedComsub(w *syntax.Word) (syntax.Pos, bool) {
	if w == nil {
		return syntax.Pos{}, false
	}
	for _, wp := range w.Parts {
		if sq, ok := wp.(*syntax.SglQuoted); ok && !sq.Dollar && strings.Contains(sq.Value, "$(") {
			return sq.Pos(), true
		}
	}
	return syntax.Pos{}, false
}

// backquoteRange reports whether brace expansion of w has a character
// range ({y..B}, {Z..a..3}) one of whose characters is the backquote.
func backquoteRange(w *syntax.Word) bool {
	if !slices.ContainsFunc(w.Parts, func(p syntax.WordPart) bool {
		l, ok := p.(*syntax.Lit)
		return ok && strings.Contains(l.Value, "..")
	}) {
		return false
	}
	c := *w
	c.Parts = slices.Clone(w.Parts)
	if !syntax.SplitBraces(&c) {
		return false
	}
	letter := func(s string) bool {
		return len(s) == 1 && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
	}
	var holds func(parts []syntax.WordPart) bool
	holds = func(parts []syntax.WordPart) bool {
		for _, p := range parts {
			br, ok := p.(*syntax.BraceExp)
			if !ok {
				continue
			}
			if !br.Sequence {
				for _, e := range br.Elems {
					if holds(e.Parts) {
						return true
					}
				}
				continue
			}
			from, to := br.Elems[0].Lit(), br.Elems[1].Lit()
			if !letter(from) || !letter(to) {
				continue
			}
			step := 1
			if len(br.Elems) > 2 {
				if n, err := strconv.Atoi(br.Elems[2].Lit()); err == nil && n != 0 {
					step = max(n, -n)
				}
			}
			lo, hi := int(from[0]), int(to[0])
			if lo > hi {
				lo, hi = hi, lo
			}
			if '`' >= lo && '`' <= hi && (int('`')-int(from[0]))%step == 0 {
				return true
			}
		}
		return false
	}
	found := holds(c.Parts)
	return found
}

// grown: a scan made growStack's call (the first of the process).
var grown atomic.Bool

// growStack makes the goroutine's stack big enough for a deep walk in one
// step, while it is still shallow: the walk's closures recurse once per
// syntax node, and growing in doublings at depth copies every frame each
// time (a lookup per frame), which was a seventh of a trivial run's
// instructions. Only the process's first scan makes it: the frame is
// zeroed at every call, which for a file of many bodies costs more than
// the growths it saves.
//
//go:noinline
func growStack() {
	var frame [64 << 10]byte
	touch(frame[:])
}

// touch keeps growStack's frame from being optimised away.
//
//go:noinline
func touch(b []byte) { b[0] = 1 }
