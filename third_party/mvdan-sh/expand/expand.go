// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/internal"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/pattern"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// A Config specifies details about how shell expansion should be performed. The
// zero value is a valid configuration.
type Config struct {
	// Env is used to get and set environment variables when performing
	// shell expansions. Some special parameters are also expanded via this
	// interface, such as:
	//
	//   * "#", "@", "*", "0"-"9" for the shell's parameters
	//   * "?", "$", "PPID" for the shell's status and process
	//   * "HOME foo" to retrieve user foo's home directory (if unset,
	//     os/user.Lookup will be used)
	//
	// If nil, there are no environment variables set. Use
	// ListEnviron(os.Environ()...) to use the system's environment
	// variables.
	Env Environ

	// CmdSubst expands a command substitution node, writing its standard
	// output to the provided [io.Writer]. noSplitStar is
	// [Config.NoSplitStar] as the substitution starts, which its commands
	// keep (jaiph-go patch: the argument is new).
	//
	// If nil, encountering a command substitution will result in an
	// UnexpectedCommandError.
	CmdSubst func(w io.Writer, cs *syntax.CmdSubst, noSplitStar bool) error

	// NoSplitStar is bash's expand_no_split_dollar_star (jaiph-go patch):
	// set while a word that is not split expands (an assignment's value,
	// a here-string, the operands of [[ ]], a case word or pattern, an
	// operator's pattern or replacement, an associative subscript, the
	// word of ${x:-w} quoted, with = or with IFS not null), and kept by a
	// command substitution started meanwhile for its whole life. While it
	// is set and IFS is empty, an unquoted $* or ${a[*]} is one string,
	// its elements joined with nothing, as if quoted, where it was one
	// field per element: x=$(printf '<%s>' $*) is <a ba> with IFS= and
	// 'a b' a (found by the soak, seed 222).
	NoSplitStar bool

	// atListIFSJoined: an "@" list joins with IFS's first character
	// (jaiph-go patch, see wordFields' list in a default's word).
	atListIFSJoined bool

	// starArraysSpaced: expanding the word of ${u-w} in condRhsWord,
	// where an array's "*" list joins with spaces (jaiph-go patch).
	starArraysSpaced bool

	// CondWord: the word is an operand of [[ ]], an associative array's
	// subscript or the value of its list's [k]=v, which bash expands
	// with cond_expand_word or expand_subscript_string (jaiph-go patch:
	// there, with IFS empty, $* with a slice or a #, %, ^ or , operator
	// is split at its spaces and the pieces joined with one).
	CondWord bool

	// CaseWord: the word is a case command's word, which bash expands
	// with expand_word_leave_quoted (jaiph-go patch: as in CondWord's
	// contexts, the word of ${u-w} holding a "*" list is words joined
	// with a space, see condRhsWord).
	CaseWord bool

	// JobCount, if set, gives the number of jobs in the shell's job
	// table, the \j of ${x@P} (jaiph-go patch).
	JobCount func() int

	// ProcSubst expands a process substitution node.
	ProcSubst func(*syntax.ProcSubst) (string, error)

	// TODO(v4): replace ReadDir with ReadDir2.

	// ReadDir is the older form of [ReadDir2], before io/fs.
	//
	// Deprecated: use ReadDir2 instead.
	ReadDir func(string) ([]fs.FileInfo, error)

	// ReadDir2 is used for file path globbing.
	// If nil, and [ReadDir] is nil as well, globbing is disabled.
	// Use [os.ReadDir] to use the filesystem directly.
	ReadDir2 func(string) ([]fs.DirEntry, error)

	// Lstat, when set, tells whether the last component of a glob that
	// has no pattern characters names a file, as bash's lstat: a
	// dangling symlink does, a name too long for the system does not.
	// (jaiph-go patch; without it, the component is read as a
	// directory with ReadDir2.)
	Lstat func(string) (fs.FileInfo, error)

	// GlobStar corresponds to the shell option which allows globbing with "**".
	GlobStar bool

	// DotGlob corresponds to the shell option which allows filenames beginning
	// with a dot to be matched by a pattern which does not begin with a dot.
	DotGlob bool

	// NoCaseGlob corresponds to the shell option which causes case-insensitive
	// pattern matching in pathname expansion.
	NoCaseGlob bool

	// NullGlob corresponds to the shell option which allows globbing
	// patterns which match nothing to result in zero fields.
	NullGlob bool

	// NoPatsubReplacement turns off bash's patsub_replacement option, on
	// by default: an unquoted & in the replacement of ${x/pat/repl} is
	// the matched text (jaiph-go patch).
	NoPatsubReplacement bool

	// Done, if set, is closed when the run is cancelled (jaiph-go
	// patch): a pattern match or search in progress gives up, and the
	// expansion fails with [ErrInterrupted], as bash's matcher gives up on
	// an interrupt (a * before an extended group is quadratic or worse in
	// the string's length: minutes on a long value).
	Done <-chan struct{}

	// NoGlobSkipDots turns off bash's globskipdots option (on by default):
	// a pattern starting with "." then matches "." and ".." too
	// (jaiph-go patch).
	NoGlobSkipDots bool

	// splitLits makes wordFields split unquoted literal text at IFS
	// characters, for the word of an unquoted ${x:-word} (jaiph-go patch).
	splitLits bool

	// LinenoPlain: LINENO was unset and is an ordinary variable since, as
	// in bash (jaiph-go patch).
	LinenoPlain bool

	// FailGlob corresponds to the shell option "failglob": a pattern that
	// matches no file is an error (jaiph-go patch).
	FailGlob bool

	// NoUnset corresponds to the shell option which treats unset variables
	// as errors.
	NoUnset bool

	// NoCaseMatch is "shopt -s nocasematch", which bash also applies to
	// ${x/pattern/s} (its match_pattern; not to # % or case modification).
	// jaiph-go patch.
	NoCaseMatch bool

	// ExtGlob corresponds to the shell option which allows using extended
	// pattern matching features when performing pathname expansion (globbing).
	ExtGlob bool

	// ReportError, if set, is told of an error bash reports and goes on
	// from (its report_error), such as a bad array subscript in
	// ${a[-1]}: the expansion is then unset. A non-nil result (errexit)
	// stops the expansion with that error (jaiph-go patch).
	ReportError func(error) error

	// ArithCommand is the name bash puts before a warning its arithmetic
	// gives and goes on from (its this_command_name: "((", "let", "[[",
	// the declaration builtin, the parameter of ${a[@]:n}); empty while a
	// simple command's words expand (jaiph-go patch).
	ArithCommand string

	// Warn, if set, prints a warning bash gives and goes on from, such as
	// a nameref loop's "circular name reference" (jaiph-go patch).
	Warn func(msg string)

	bufferAlloc strings.Builder
	fieldAlloc  [4]fieldPart
	fieldsAlloc [4][]fieldPart

	ifs string
	// A pointer to a parameter expansion node, if we're inside one.
	// Necessary for ${LINENO}.
	curParam *syntax.ParamExp

	// inDblQuote: the parameter expansion being expanded is inside
	// double quotes (jaiph-go patch, see opWord).
	inDblQuote bool

	// listElemValue: expanding the value of an indexed list's [k]=v,
	// where an "@" list joins with IFS's first character (jaiph-go patch,
	// see ListElemLiteral).
	listElemValue bool

	// assignRHS: expanding an assignment's value or a here-string, where
	// a quoted "${a[@]OP}" with a per-element operator joins with IFS's
	// first character (jaiph-go patch, see AssignLiteral).
	assignRHS bool
	// DeclArg: the word being expanded is an argument of a declaration
	// builtin (declare, local, export, readonly, typeset) (jaiph-go
	// patch, see paramExp's join).
	DeclArg bool

	// LetArith: the arithmetic being evaluated is a let argument, whose
	// quotes are removed as a word's (jaiph-go patch; in $((…)) and ((…))
	// bash keeps single quotes).
	LetArith bool

	// inAssign: the word being expanded is an assignment's value
	// (jaiph-go patch, see AssignLiteral).
	inAssign bool

	// inHeredoc: the parameter expansion being expanded is in a
	// here-document's body, whose operator words bash reads as it does
	// in double quotes (jaiph-go patch, see opWord).
	inHeredoc bool

	// braceWord is set while a word made by brace expansion expands: it
	// is not an assignment-like word, whose tilde after = expands (bash
	// gives the words it makes no flags: echo v=~{,/a} is v=~ v=~/a).
	braceWord bool

	// listWord: the word being expanded is a word of an array list,
	// which is no assignment even if it looks like one (jaiph-go patch,
	// see ListFieldsLater).
	listWord bool

	// arithStop: the first assignment to a non-variable of the
	// arithmetic expression being evaluated (jaiph-go patch, see
	// ArithmTop).
	arithStop *syntax.BinaryArithm

	// arithLine: the line of the arithmetic expression being evaluated,
	// LINENO's value in it (jaiph-go patch, see ArithmTop).
	arithLine uint
	// arithDepth: how many arithmetic texts enclose the expression being
	// evaluated, for an array subscript's (jaiph-go
	// patch, see evalArithText).
	arithDepth int

	// listSlice: the offset and length the slice of a list expansion
	// evaluated, for sliceElems to apply (jaiph-go patch, see
	// listSliceLength).
	listSlice sliceBounds

	// sliceOutside: the last string slice paramExp made had its offset
	// past either end of the value (jaiph-go patch, see
	// quotedElemFields).
	sliceOutside bool

	// indirectList: the parameter expansion being expanded was reached
	// through ${!ref OP} (jaiph-go patch, see indirectOp).
	indirectList bool
	// forcedParam is the parameter expansion that reads forcedVar
	// whatever its name holds: ${!ref…} whose ref has no value, or is a
	// nameref (jaiph-go patch, indirectThroughNothing,
	// indirectNamerefOp).
	forcedParam *syntax.ParamExp
	forcedVar   Variable
}

// UnexpectedCommandError is returned if a command substitution is encountered
// when [Config.CmdSubst] is nil.
type UnexpectedCommandError struct {
	Node *syntax.CmdSubst
}

func (u UnexpectedCommandError) Error() string {
	return fmt.Sprintf("unexpected command substitution at %s", u.Node.Pos())
}

var zeroConfig = &Config{}

// TODO: note that prepareConfig is modifying the user's config in place,
// which doesn't feel right - we should make a copy.

func prepareConfig(cfg *Config) *Config {
	cfg = cmp.Or(cfg, zeroConfig)
	cfg.Env = cmp.Or(cfg.Env, FuncEnviron(func(string) string { return "" }))

	cfg.ifs = " \t\n"
	if vr := cfg.Env.Get("IFS"); vr.IsSet() {
		cfg.ifs = vr.String()
	}

	if cfg.ReadDir != nil && cfg.ReadDir2 == nil {
		cfg.ReadDir2 = func(path string) ([]fs.DirEntry, error) {
			infos, err := cfg.ReadDir(path)
			if err != nil {
				return nil, err
			}
			entries := make([]fs.DirEntry, len(infos))
			for i, info := range infos {
				entries[i] = fs.FileInfoToDirEntry(info)
			}
			return entries, nil
		}
	}
	return cfg
}

func (cfg *Config) ifsRune(r rune) bool {
	return strings.ContainsRune(cfg.ifs, r)
}

// ifsWhitespace reports whether r is a space, tab, or newline present in IFS.
func (cfg *Config) ifsWhitespace(r rune) bool {
	return (r == ' ' || r == '\t' || r == '\n') && cfg.ifsRune(r)
}

func (cfg *Config) ifsJoin(strs []string) string {
	sep := ""
	if cfg.ifs != "" {
		// The separator is the first character of IFS, not the first byte.
		_, size := utf8.DecodeRuneInString(cfg.ifs)
		sep = cfg.ifs[:size]
	}
	return strings.Join(strs, sep)
}

func (cfg *Config) strBuilder() *strings.Builder {
	b := &cfg.bufferAlloc
	b.Reset()
	return b
}

func (cfg *Config) envGet(name string) string {
	return cfg.Env.Get(name).String()
}

func (cfg *Config) envSet(name, value string) error {
	wenv, ok := cfg.Env.(WriteEnviron)
	if !ok {
		return fmt.Errorf("environment is read-only")
	}
	return wenv.Set(name, Variable{Set: true, Kind: String, Str: value})
}

// Literal expands a single shell word. It is similar to [Fields], but the result
// is a single string. This is the behavior when a word is used as the value in
// a shell variable assignment, for example.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func Literal(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	field, err := cfg.wordField(word.Parts, quoteNone)
	if err != nil {
		return "", err
	}
	return cfg.fieldJoin(field), nil
}

// LiteralNoTilde is like [Literal] without the expansion of a leading tilde
// prefix, as bash 5.2 expands the keys and values of an associative list
// (`declare -A h=([k]=~)` is `~`); tildes in nested words still expand
// (jaiph-go patch).
func LiteralNoTilde(cfg *Config, word *syntax.Word) (string, error) {
	if word != nil && len(word.Parts) > 0 {
		if lit, ok := word.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(lit.Value, "~") {
			// A quoted "~" is text; only a leading literal part
			// is ever taken as a tilde prefix.
			parts := make([]syntax.WordPart, 0, len(word.Parts)+1)
			parts = append(parts, &syntax.SglQuoted{Left: lit.ValuePos, Right: lit.ValuePos, Value: "~"})
			if rest := lit.Value[1:]; rest != "" {
				parts = append(parts, &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: rest})
			}
			word = &syntax.Word{Parts: append(parts, word.Parts[1:]...)}
		}
	}
	return Literal(cfg, word)
}

// AssignLiteral is like [Literal] for the value of an assignment, where, as in
// bash, a tilde prefix after an unquoted ':' is expanded too, as in
// PATH=~/bin:~/.local/bin (jaiph-go patch).
func AssignLiteral(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	if !cfg.DeclArg && !cfg.listElemValue {
		// bash's expand_string_assignment; a declaration builtin's
		// argument and an indexed list's [k]=v are words as others
		defer cfg.setNoSplitStar(true)()
	}
	return assignLiteral(cfg, word)
}

// assignLiteral is [AssignLiteral] with cfg prepared, [Config.NoSplitStar]
// left as it is (the word of ${u:-w} in an assignment's value).
func assignLiteral(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	parts, cloned := word.Parts, false
	for i, wp := range parts {
		lit, ok := wp.(*syntax.Lit)
		if !ok || !strings.Contains(lit.Value, ":~") {
			continue
		}
		segs := strings.Split(lit.Value, ":")
		for j := 1; j < len(segs); j++ {
			if strings.HasSuffix(segs[j-1], "\\") {
				continue // an escaped ':'
			}
			if prefix, rest := cfg.expandUser(segs[j], j == len(segs)-1 && i < len(parts)-1); rest != segs[j] || prefix != "" {
				segs[j] = prefix + rest
			}
		}
		if !cloned { // don't modify the caller's AST
			parts, cloned = slices.Clone(parts), true
		}
		parts[i] = &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: lit.ValueEnd, Value: strings.Join(segs, ":")}
	}
	oldAssign := cfg.inAssign
	cfg.inAssign = true
	defer func() { cfg.inAssign = oldAssign }()
	return cfg.joinedLiteral(parts) // cfg is prepared: not again (jaiph-go patch, per-assignment cost)
}

// ListElemLiteral expands the value of an indexed list's [k]=v as bash
// does (jaiph-go patch): as an assignment's value ([AssignLiteral]), except
// that an "@" list ("${a[@]}", $@, quoted or not) joins its elements with
// IFS's first character, or a space when IFS is empty or unset, as "*"
// would (b=([0]=${a[@]}) under IFS=: is "1:2"; x=${a[@]} is "1 2"), and
// an unquoted "*" one joins with a space when IFS is empty.
func ListElemLiteral(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	old := cfg.listElemValue
	cfg.listElemValue = true
	defer func() { cfg.listElemValue = old }()
	return AssignLiteral(cfg, word)
}

// JoinedLiteral expands a word as [Literal] does, as bash expands an
// assignment's value or a here-string (jaiph-go patch): there a quoted
// list with a per-element operator ("${a[@]/t/T}", "${@^}", "${a[@]:1}",
// "${!a[@]}") joins its elements with IFS's first character (a space when
// IFS is empty), where "${a[@]}" and the unquoted forms join with a space.
func JoinedLiteral(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	if !cfg.DeclArg {
		defer cfg.setNoSplitStar(true)() // a here-string's word
	}
	return cfg.joinedLiteral(word.Parts)
}

// rhsNoSplitStar is [Config.NoSplitStar] while the word of ${x-w}, ${x+w}
// or ${x=w} (and their : forms) expands: bash's expand_string_for_rhs sets
// it when the expansion is quoted, assigns, or IFS is not null, and clears
// it otherwise (jaiph-go patch).
func (cfg *Config) rhsNoSplitStar(op syntax.ParExpOperator) bool {
	return cfg.inDblQuote || cfg.inHeredoc || op == syntax.AssignUnset || op == syntax.AssignUnsetOrNull || cfg.ifs != ""
}

// setNoSplitStar sets [Config.NoSplitStar] while a word expands and
// returns the function that puts it back, as bash saves and restores its
// expand_no_split_dollar_star around such a word (jaiph-go patch).
func (cfg *Config) setNoSplitStar(on bool) (restore func()) {
	old := cfg.NoSplitStar
	cfg.NoSplitStar = on
	return func() { cfg.NoSplitStar = old }
}

// joinedLiteral is [JoinedLiteral] of a word's parts with cfg prepared.
func (cfg *Config) joinedLiteral(parts []syntax.WordPart) (string, error) {
	old := cfg.assignRHS
	cfg.assignRHS = true
	defer func() { cfg.assignRHS = old }()
	field, err := cfg.wordField(parts, quoteNone)
	if err != nil {
		return "", err
	}
	return cfg.fieldJoin(field), nil
}

// Document expands a single shell word as if it were a here-document body.
// It is similar to [Literal], but without brace expansion, tilde expansion, and
// globbing.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func Document(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	field, err := cfg.wordField(word.Parts, quoteHeredoc)
	if err != nil {
		return "", err
	}
	return cfg.fieldJoin(field), nil
}

// Pattern expands a single shell word as a pattern, using [pattern.QuoteMeta]
// on any non-quoted parts of the input word. The result can be used on
// [pattern.Regexp] directly.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func Pattern(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	// jaiph-go patch: a pattern is a word not split (bash's
	// expand_string_for_pat, a case pattern, [[ ]]'s right operand)
	defer cfg.setNoSplitStar(true)()
	field, err := cfg.wordField(word.Parts, quoteNone)
	if err != nil {
		return "", err
	}
	sb := cfg.strBuilder()
	for _, part := range field {
		if part.quote > quoteNone {
			// jaiph-go patch: quote extglob groups too, so that
			// "$p" with p='@(a|b)' matches literally.
			sb.WriteString(pattern.QuoteMeta(part.val, pattern.ExtendedOperators))
		} else {
			sb.WriteString(part.val)
		}
	}
	return sb.String(), nil
}

// Regexp expands the right operand of [[ =~ ]]: quoted parts match
// literally, as in bash. jaiph-go patch.
func Regexp(cfg *Config, word *syntax.Word) (string, error) {
	if word == nil {
		return "", nil
	}
	cfg = prepareConfig(cfg)
	field, err := cfg.wordField(word.Parts, quoteNone)
	if err != nil {
		return "", err
	}
	sb := cfg.strBuilder()
	for _, part := range field {
		if part.quote > quoteNone {
			sb.WriteString(regexp.QuoteMeta(part.val))
		} else {
			sb.WriteString(part.val)
		}
	}
	return sb.String(), nil
}

// Format expands a format string with a number of arguments, following the
// shell's format specifications. These include printf(1), among others.
//
// The resulting string is returned, along with the number of arguments used.
// Note that the resulting string may contain null bytes, for example
// if the format string used `\x00`. The caller should terminate the string
// at the first null byte if needed, such as when expanding for `$'foo\x00bar'`.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func Format(cfg *Config, format string, args []string) (string, int, error) {
	cfg = prepareConfig(cfg)
	sb := cfg.strBuilder()

	consumed, err := formatInto(sb, format, args)
	if err != nil {
		return "", 0, err
	}

	return sb.String(), consumed, err
}

// appendCodePoint writes the \u/\U escape of code point n as bash does in
// a UTF-8 locale (jaiph-go patch: glibc's wctomb, bash's u32toutf8):
// surrogates and values past U+10FFFF are encoded as the bit pattern
// says, in up to six bytes; past 0x7fffffff nothing is written. Go's
// WriteRune made them all U+FFFD.
func appendCodePoint(sb *strings.Builder, n uint64) {
	switch {
	case n < 0x80:
		sb.WriteByte(byte(n))
	case n < 0x800:
		sb.WriteByte(byte(n>>6) | 0xc0)
		sb.WriteByte(byte(n&0x3f) | 0x80)
	case n < 0x10000:
		sb.WriteByte(byte(n>>12) | 0xe0)
		sb.WriteByte(byte(n>>6&0x3f) | 0x80)
		sb.WriteByte(byte(n&0x3f) | 0x80)
	case n < 0x200000:
		sb.WriteByte(byte(n>>18) | 0xf0)
		sb.WriteByte(byte(n>>12&0x3f) | 0x80)
		sb.WriteByte(byte(n>>6&0x3f) | 0x80)
		sb.WriteByte(byte(n&0x3f) | 0x80)
	case n < 0x4000000:
		sb.WriteByte(byte(n>>24) | 0xf8)
		for sh := 18; sh >= 0; sh -= 6 {
			sb.WriteByte(byte(n>>sh&0x3f) | 0x80)
		}
	case n < 0x80000000:
		sb.WriteByte(byte(n>>30) | 0xfc)
		for sh := 24; sh >= 0; sh -= 6 {
			sb.WriteByte(byte(n>>sh&0x3f) | 0x80)
		}
	}
}

func formatInto(sb *strings.Builder, format string, args []string) (int, error) {
	var fmts []byte
	initialArgs := len(args)

	for i := 0; i < len(format); i++ {
		// readDigits reads from 0 to max digits, either octal or
		// hexadecimal.
		readDigits := func(max int, hex bool) string {
			j := 0
			for ; j < max && i+j < len(format); j++ {
				c := format[i+j]
				if (c >= '0' && c <= '7') || // jaiph-go patch: 8 and 9 are no octal digits
					(hex && c >= '8' && c <= '9') ||
					(hex && c >= 'a' && c <= 'f') ||
					(hex && c >= 'A' && c <= 'F') {
					// valid octal or hex char
				} else {
					break
				}
			}
			digits := format[i : i+j]
			i += j - 1 // -1 since the outer loop does i++
			return digits
		}
		c := format[i]
		switch {
		case c == '\\': // escaped
			i++
			if i >= len(format) {
				sb.WriteByte('\\')
				break
			}
			switch c = format[i]; c {
			case 'a': // bell
				sb.WriteByte('\a')
			case 'b': // backspace
				sb.WriteByte('\b')
			case 'e', 'E': // escape
				sb.WriteByte('\x1b')
			case 'f': // form feed
				sb.WriteByte('\f')
			case 'n': // new line
				sb.WriteByte('\n')
			case 'r': // carriage return
				sb.WriteByte('\r')
			case 't': // horizontal tab
				sb.WriteByte('\t')
			case 'v': // vertical tab
				sb.WriteByte('\v')
			case '\\', '\'', '"', '?': // just the character
				sb.WriteByte(c)
			case '0', '1', '2', '3', '4', '5', '6', '7':
				digits := readDigits(3, false)
				// if digits don't fit in 8 bits, 0xff via strconv
				n, _ := strconv.ParseUint(digits, 8, 8)
				sb.WriteByte(byte(n))
			case 'x', 'u', 'U':
				i++
				max := 2
				switch c {
				case 'u':
					max = 4
				case 'U':
					max = 8
				}
				digits := readDigits(max, true)
				if len(digits) > 0 {
					// can't error
					n, _ := strconv.ParseUint(digits, 16, 32)
					if c == 'x' {
						// always as a single byte
						sb.WriteByte(byte(n))
					} else {
						appendCodePoint(sb, n)
					}
					break
				}
				fallthrough
			default: // no escape sequence
				sb.WriteByte('\\')
				sb.WriteByte(c)
			}
		case len(fmts) > 0:
			switch c {
			case '%':
				sb.WriteByte('%')
				fmts = nil
			case 'c':
				var b byte
				if len(args) > 0 {
					arg := ""
					arg, args = args[0], args[1:]
					if len(arg) > 0 {
						b = arg[0]
					}
				}
				sb.WriteByte(b)
				fmts = nil
			case '+', '-', ' ':
				if len(fmts) > 1 {
					return 0, fmt.Errorf("invalid format char: %c", c)
				}
				fmts = append(fmts, c)
			case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				fmts = append(fmts, c)
			case 's', 'b', 'd', 'i', 'u', 'o', 'x':
				arg := ""
				if len(args) > 0 {
					arg, args = args[0], args[1:]
				}
				var farg any
				if c == 'b' {
					// Passing in nil for args ensures that % format
					// strings aren't processed; only escape sequences
					// will be handled.
					_, err := formatInto(sb, arg, nil)
					if err != nil {
						return 0, err
					}
				} else if c != 's' {
					n, _ := strconv.ParseInt(arg, 0, 0)
					if c == 'i' || c == 'd' {
						farg = int(n)
					} else {
						farg = uint(n)
					}
					if c == 'i' || c == 'u' {
						c = 'd'
					}
				} else {
					farg = arg
				}
				if farg != nil {
					fmts = append(fmts, c)
					fmt.Fprintf(sb, string(fmts), farg)
				}
				fmts = nil
			default:
				return 0, fmt.Errorf("invalid format char: %c", c)
			}
		case args != nil && c == '%':
			// if args == nil, we are not doing format
			// arguments
			fmts = []byte{c}
		default:
			sb.WriteByte(c)
		}
	}
	if len(fmts) > 0 {
		return 0, fmt.Errorf("missing format char")
	}
	return initialArgs - len(args), nil
}

func (cfg *Config) fieldJoin(parts []fieldPart) string {
	switch len(parts) {
	case 0:
		return ""
	case 1: // short-cut without a string copy
		return parts[0].val
	}
	sb := cfg.strBuilder()
	for _, part := range parts {
		sb.WriteString(part.val)
	}
	return sb.String()
}

func (cfg *Config) escapedGlobField(parts []fieldPart) (escaped string, glob bool) {
	candidate := false
	for _, part := range parts {
		if part.quote == quoteNone && strings.ContainsAny(part.val, "*?[") {
			candidate = true
			break
		}
		// jaiph-go patch: with extglob, an expansion like $p with
		// p='@(a|b)' globs too, as in bash.
		if part.quote == quoteNone && cfg.ExtGlob && strings.Contains(part.val, "(") {
			candidate = true
			break
		}
	}
	if !candidate {
		return "", false
	}
	sb := cfg.strBuilder()
	for _, part := range parts {
		if part.quote > quoteNone {
			// jaiph-go patch: quote extglob groups too, so that
			// "$p" with p='@(a|b)' matches literally.
			sb.WriteString(pattern.QuoteMeta(part.val, pattern.ExtendedOperators))
		} else {
			sb.WriteString(part.val)
		}
	}
	// Check the entire escaped word, as a bracket expression could span
	// multiple unquoted parts, such as `[a$x` where x holds "]".
	escaped = sb.String()
	if pattern.HasMeta(escaped, cfg.extGlobMode()) { // jaiph-go patch: extglob groups
		return escaped, true
	}
	return "", false
}

// Fields expands words as [FieldsSeq] does, as a slice; FieldsSeq wraps it.
func Fields(cfg *Config, words ...*syntax.Word) ([]string, error) {
	cfg = prepareConfig(cfg)
	dir := cfg.envGet("PWD")
	// jaiph-go patch: as bash, every word is expanded before any is
	// globbed, so a command substitution in a later word (which may
	// create files) runs before an earlier word's glob, and an expansion
	// error comes before a failglob one.
	var globs []pendingGlob
	fields, err := cfg.wordsFields(nil, words, &globs)
	if err != nil || len(globs) == 0 {
		return fields, err
	}
	return cfg.globPending(dir, fields, globs)
}

// FieldsSeq expands a number of words as if they were arguments in a shell
// command. This includes brace expansion, tilde expansion, parameter expansion,
// command substitution, arithmetic expansion, quote removal, and globbing.
func FieldsSeq(cfg *Config, words ...*syntax.Word) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		fields, err := Fields(cfg, words...)
		if err != nil {
			yield("", err)
			return
		}
		for _, f := range fields {
			if !yield(f, nil) {
				return
			}
		}
	}
}

// ListFieldsLater expands a word of an array list (`a=(x=~ ~)`), which
// bash does not take as an assignment: a word that looks like one gets no
// tilde expansion after its `=` or a `:`. When a field is to be globbed, the globbing is left to the function it returns, for an array
// list whose words are all expanded before any is globbed, as bash's
// (jaiph-go patch).
func ListFieldsLater(cfg *Config, word *syntax.Word) ([]string, func() ([]string, error), error) {
	cfg = prepareConfig(cfg)
	old := cfg.listWord
	cfg.listWord = true
	var globs []pendingGlob
	fields, err := cfg.wordsFields(nil, []*syntax.Word{word}, &globs)
	cfg.listWord = old
	if err != nil || len(globs) == 0 {
		return fields, nil, err
	}
	dir := cfg.envGet("PWD")
	return nil, func() ([]string, error) { return cfg.globPending(dir, fields, globs) }, nil
}

// pendingGlob is a field to glob once every word is expanded: at is its
// place among the fields, which hold it as a word for when it globs to
// nothing (jaiph-go patch).
type pendingGlob struct {
	at   int
	path string
}

// wordsFields appends to out the fields of the words, brace expansion
// included, as strings; a field to glob is added to globs with its
// pattern (jaiph-go patch).
func (cfg *Config) wordsFields(out []string, words []*syntax.Word, globs *[]pendingGlob) ([]string, error) {
	expanded := false // a word before this one expanded something
	add := func(parts []syntax.WordPart) error {
		if expanded {
			// jaiph-go patch: bash splits each word as it expands it,
			// with IFS as the words before left it (a "${IFS=X}"
			// changes how the later words split, not the earlier);
			// only an expansion can have assigned it
			cfg.ifs = " \t\n"
			if vr := cfg.Env.Get("IFS"); vr.IsSet() {
				cfg.ifs = vr.String()
			}
		}
		expanded = expanded || !literalParts(parts)
		wfields, err := cfg.wordFields(parts)
		if err != nil {
			return err
		}
		for _, field := range wfields {
			if path, doGlob := cfg.escapedGlobField(field); doGlob && cfg.ReadDir2 != nil {
				*globs = append(*globs, pendingGlob{at: len(out), path: path})
			}
			out = append(out, cfg.fieldJoin(field))
		}
		return nil
	}
	for _, word := range words {
		word := *word // make a copy, since SplitBraces replaces the Parts slice
		if !syntax.SplitBraces(&word) {
			if err := add(word.Parts); err != nil {
				return nil, err
			}
			continue
		}
		made := 0
		for w, err := range BracesSeq(cfg, &word) {
			if err != nil {
				return nil, err
			}
			if made++; made&0xfff == 0 && cfg.interrupted() {
				return nil, ErrInterrupted // millions of words take seconds
			}
			if emptyLitWord(w) {
				continue // jaiph-go patch: {X,,Y,} gives no empty words, as bash
			}
			w = mergeLits(w) // jaiph-go patch: {~,b}/x expands the tilde
			cfg.braceWord = true
			err := add(w.Parts)
			cfg.braceWord = false
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// literalParts reports whether the parts expand nothing: no parameter,
// arithmetic or substitution, so expanding them assigns no variable.
func literalParts(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if !literalParts(p.Parts) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// globPending is the fields with each pending glob replaced by its
// matches (jaiph-go patch: split from FieldsSeq).
func (cfg *Config) globPending(dir string, fields []string, globs []pendingGlob) ([]string, error) {
	out := make([]string, 0, len(fields))
	next := 0
	for _, g := range globs {
		out = append(out, fields[next:g.at]...)
		next = g.at + 1
		// Note that globbing requires keeping a slice state, so it doesn't
		// really benefit from using an iterator.
		matches, err := cfg.globIgnore(dir, g.path)
		if cfg.interrupted() {
			return nil, ErrInterrupted
		}
		if err != nil {
			// We avoid [errors.As] as it allocates,
			// and we know that [Config.glob] returns [pattern.Regexp] errors without wrapping.
			if _, ok := err.(*pattern.SyntaxError); !ok {
				return nil, err
			}
		} else if len(matches) == 0 && cfg.FailGlob {
			return nil, fmt.Errorf("no match: %s", fields[g.at]) // jaiph-go patch: bash's failglob
		} else if len(matches) > 0 || cfg.NullGlob {
			out = append(out, matches...)
			continue
		}
		out = append(out, fields[g.at])
	}
	return append(out, fields[next:]...), nil
}

// mergeLits joins adjacent literal parts of a brace-expanded word, so that
// a tilde prefix split by the braces is seen whole (bash: {~,b}/x).
func mergeLits(w *syntax.Word) *syntax.Word {
	if len(w.Parts) < 2 {
		return w
	}
	parts := make([]syntax.WordPart, 0, len(w.Parts))
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && len(parts) > 0 {
			if prev, ok := parts[len(parts)-1].(*syntax.Lit); ok {
				parts[len(parts)-1] = &syntax.Lit{ValuePos: prev.ValuePos, ValueEnd: l.ValueEnd, Value: prev.Value + l.Value}
				continue
			}
		}
		parts = append(parts, p)
	}
	return &syntax.Word{Parts: parts}
}

// emptyLitWord reports a brace-expanded word made only of empty literals.
func emptyLitWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); !ok || l.Value != "" {
			return false
		}
	}
	return true
}

type fieldPart struct {
	val   string
	quote quoteLevel
}

type quoteLevel uint

const (
	quoteNone quoteLevel = iota
	quoteDouble
	quoteHeredoc
	quoteSingle
)

func (cfg *Config) wordField(wps []syntax.WordPart, ql quoteLevel) ([]fieldPart, error) {
	var field []fieldPart
	for i, wp := range wps {
		switch wp := wp.(type) {
		case *syntax.Lit:
			s := wp.Value
			if i == 0 && ql == quoteNone {
				if prefix, rest := cfg.expandUser(s, len(wps) > 1); rest != s || prefix != "" {
					// jaiph-go patch: as bash, the expansion is
					// quoted (a pattern or regex takes it
					// literally), and an empty HOME expands too.
					field = append(field, fieldPart{quote: quoteSingle, val: prefix})
					s = rest
				}
			}
			if (ql == quoteDouble || ql == quoteHeredoc) && strings.Contains(s, "\\") {
				sb := cfg.strBuilder()
				for i := 0; i < len(s); i++ {
					b := s[i]
					if b == '\\' && i+1 < len(s) {
						switch s[i+1] {
						case '"':
							if ql != quoteDouble {
								break
							}
							fallthrough
						case '\\', '$', '`': // special chars
							i++
							b = s[i] // write the special char, skipping the backslash
						}
					}
					sb.WriteByte(b)
				}
				s = sb.String()
			}
			s, _, _ = strings.Cut(s, "\x00") // TODO: why is this needed?
			if ql == quoteNone {
				// jaiph-go patch: an unquoted backslash quotes the next
				// character and is removed, as in [Config.wordFields]
				// (upstream kept it, so x=a\'b gave a\'b).
				for {
					i := strings.IndexByte(s, '\\')
					if i < 0 || i == len(s)-1 {
						break // a trailing backslash is kept as-is
					}
					_, size := utf8.DecodeRuneInString(s[i+1:])
					field = append(field,
						fieldPart{val: s[:i]},
						fieldPart{quote: quoteSingle, val: s[i+1 : i+1+size]},
					)
					s = s[i+1+size:]
				}
			}
			field = append(field, fieldPart{val: s})
		case *syntax.SglQuoted:
			fp := fieldPart{quote: quoteSingle, val: wp.Value}
			if wp.Dollar {
				fp.val = ansiCExpand(cfg, fp.val)
			}
			field = append(field, fp)
		case *syntax.DblQuoted:
			wfield, err := cfg.wordField(wp.Parts, quoteDouble)
			if err != nil {
				return nil, err
			}
			for _, part := range wfield {
				part.quote = quoteDouble
				field = append(field, part)
			}
		case *syntax.ParamExp:
			oldDbl := cfg.inDblQuote
			oldHdoc := cfg.inHeredoc
			cfg.inDblQuote = ql == quoteDouble // jaiph-go patch, see opWord
			cfg.inHeredoc = ql == quoteHeredoc
			val, err := cfg.paramExp(wp)
			cfg.inDblQuote, cfg.inHeredoc = oldDbl, oldHdoc
			if err != nil {
				return nil, err
			}
			field = append(field, fieldPart{val: val})
		case *syntax.CmdSubst:
			val, err := cfg.cmdSubst(wp)
			if err != nil {
				return nil, err
			}
			field = append(field, fieldPart{val: val})
		case *syntax.ArithmExp:
			n, err := ArithmTop(cfg, wp.X, arithTrailing(wp.X, wp.Right)) // jaiph-go patch: bash's error text
			if err != nil {
				return nil, err
			}
			field = append(field, fieldPart{val: strconv.Itoa(n)})
		case *syntax.ProcSubst:
			path, err := cfg.ProcSubst(wp)
			if err != nil {
				return nil, err
			}
			field = append(field, fieldPart{val: path})
		case *syntax.ExtGlob:
			// Like how [Config.wordFields] deals with [syntax.ExtGlob],
			// except that we allow these through even when [Config.ExtGlob]
			// is false, as it only applies to pathname expansion.
			field = append(field, fieldPart{val: wp.Op.String() + cfg.extGlobBody(wp.Pattern.Value) + ")"})
		default:
			panic(fmt.Sprintf("unhandled word part: %T", wp))
		}
	}
	return field, nil
}

// extGlobBody expands the text inside an extglob group of a pattern
// (jaiph-go patch): the parser keeps it raw, so @($v) matched a literal "$v"
// and @("a b") the quotes. Each run between the unquoted group characters
// | ( ) is expanded as a pattern word; a body holding a command
// substitution, or one that does not parse, is kept raw.
func (cfg *Config) extGlobBody(text string) string {
	if !strings.ContainsAny(text, "$\"'\\") || strings.Contains(text, "$(") || strings.Contains(text, "`") {
		return text
	}
	var sb strings.Builder
	start := 0
	var quote byte
	flush := func(end int) bool {
		run := text[start:end]
		if run == "" {
			return true
		}
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(": "+run), "")
		if err != nil || len(f.Stmts) != 1 {
			return false
		}
		call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) != 2 || len(call.Assigns) > 0 || len(f.Stmts[0].Redirs) > 0 {
			return false
		}
		pat, err := Pattern(cfg, call.Args[1])
		if err != nil {
			return false
		}
		sb.WriteString(pat)
		return true
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' && i+1 < len(text) {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\\' && i+1 < len(text):
			i++
		case c == '"' || c == '\'':
			quote = c
		case c == '|' || c == '(' || c == ')':
			if !flush(i) {
				return text
			}
			sb.WriteByte(c)
			start = i + 1
		}
	}
	if quote != 0 || !flush(len(text)) {
		return text
	}
	return sb.String()
}

func (cfg *Config) cmdSubst(cs *syntax.CmdSubst) (string, error) {
	if cfg.CmdSubst == nil {
		return "", UnexpectedCommandError{Node: cs}
	}
	sb := cfg.strBuilder()
	if err := cfg.CmdSubst(sb, cs, cfg.NoSplitStar); err != nil {
		return "", err
	}
	out := sb.String()
	if strings.IndexByte(out, 0) >= 0 {
		// jaiph-go patch: bash drops NUL bytes with one warning per
		// substitution (read_comsub).
		if cfg.Warn != nil {
			cfg.Warn("warning: command substitution: ignored null byte in input")
		}
		out = strings.ReplaceAll(out, "\x00", "")
	}
	return strings.TrimRight(out, "\n"), nil
}

func (cfg *Config) wordFields(wps []syntax.WordPart) ([][]fieldPart, error) {
	fields := cfg.fieldsAlloc[:0]
	curField := cfg.fieldAlloc[:0]
	allowEmpty := false
	flush := func() {
		if len(curField) == 0 {
			return
		}
		fields = append(fields, curField)
		curField = nil
	}
	splitAdd := func(val string) {
		// jaiph-go patch: as in bash, a non-whitespace IFS character with
		// the IFS whitespace around it is one delimiter, so "a::c" with
		// IFS=: has an empty middle field; IFS whitespace runs are one
		// delimiter and make no empty fields.
		fieldStart := 0
		for i := 0; i < len(val); {
			r, size := utf8.DecodeRuneInString(val[i:])
			if !cfg.ifsRune(r) {
				i += size
				continue
			}
			if i > fieldStart {
				curField = append(curField, fieldPart{val: val[fieldStart:i]})
			}
			j, nonWS := i, false
			for j < len(val) {
				r, size := utf8.DecodeRuneInString(val[j:])
				if !cfg.ifsRune(r) {
					break
				}
				if !cfg.ifsWhitespace(r) {
					if nonWS {
						break // the next delimiter
					}
					nonWS = true
				}
				j += size
			}
			if nonWS && len(curField) == 0 {
				curField = append(curField, fieldPart{}) // an empty field
			}
			flush()
			fieldStart, i = j, j
		}
		if fieldStart < len(val) {
			curField = append(curField, fieldPart{val: val[fieldStart:]})
		}
	}
	// jaiph-go patch: the parts are added by a function, which adds those
	// of the word of an unquoted ${x:-word} (or :+, -, +) in its place:
	// its blanks split the fields around it (A${x:+ b }C is three).
	var addParts func(wps []syntax.WordPart) error
	addParts = func(wps []syntax.WordPart) error {
		for i, wp := range wps {
			switch wp := wp.(type) {
			case *syntax.Lit:
				s := wp.Value
				if i == 0 {
					if eq := strings.IndexByte(s, '='); !cfg.braceWord && eq > 0 && !cfg.listWord && !cfg.splitLits && syntax.ValidName(s[:eq]) && !strings.Contains(s, "\\") &&
						(strings.HasPrefix(s[eq:], "=~") || strings.Contains(s[eq:], ":~")) {
						// jaiph-go patch: as bash, a word that looks like an
						// assignment (NAME=~/a:~/b) gets tilde expansion after
						// its = and each :.
						curField = append(curField, fieldPart{val: s[:eq+1]})
						segs := strings.Split(s[eq+1:], ":")
						for k, seg := range segs {
							if k > 0 {
								curField = append(curField, fieldPart{val: ":"})
							}
							prefix, rest := cfg.expandUser(seg, k == len(segs)-1 && len(wps) > 1)
							if prefix != "" {
								curField = append(curField, fieldPart{quote: quoteSingle, val: prefix})
							}
							curField = append(curField, fieldPart{val: rest})
						}
						continue
					}
					prefix, rest := cfg.expandUser(s, len(wps) > 1)
					if rest != s || !cfg.splitLits {
						// jaiph-go patch: no tilde, no part: an empty quoted
						// part would make a field of the IFS blank that
						// starts the word of ${x:+ ''} (bash: one field)
						curField = append(curField, fieldPart{
							quote: quoteSingle,
							val:   prefix,
						})
					}
					s = rest
				}
				// Escaped characters are quoted, so that they aren't
				// treated as metacharacters when globbing.
				for {
					i := strings.IndexByte(s, '\\')
					if i < 0 || i == len(s)-1 {
						break // a trailing backslash is kept as-is
					}
					_, size := utf8.DecodeRuneInString(s[i+1:])
					if cfg.splitLits {
						splitAdd(s[:i]) // jaiph-go patch: see splitLits
						curField = append(curField, fieldPart{quote: quoteSingle, val: s[i+1 : i+1+size]})
					} else {
						curField = append(curField,
							fieldPart{val: s[:i]},
							fieldPart{quote: quoteSingle, val: s[i+1 : i+1+size]},
						)
					}
					s = s[i+1+size:]
				}
				if cfg.splitLits {
					splitAdd(s) // jaiph-go patch: see splitLits
				} else {
					curField = append(curField, fieldPart{val: s})
				}
			case *syntax.SglQuoted:
				allowEmpty = true
				fp := fieldPart{quote: quoteSingle, val: wp.Value}
				if wp.Dollar {
					fp.val = ansiCExpand(cfg, fp.val)
				}
				curField = append(curField, fp)
			case *syntax.DblQuoted:
				if len(wp.Parts) == 1 {
					pe, _ := wp.Parts[0].(*syntax.ParamExp)
					elems, err := cfg.quotedElemFields(pe)
					if err != nil {
						return err
					}
					if elems != nil {
						for i, elem := range elems {
							if i > 0 {
								flush()
							}
							curField = append(curField, fieldPart{
								quote: quoteDouble,
								val:   elem,
							})
						}
						continue
					}
				}
				if len(wp.Parts) > 1 && slices.ContainsFunc(wp.Parts, cfg.listPart) {
					// jaiph-go patch: as in bash, "pre $@ post" gives one field
					// per element, the first and last joined to the text around;
					// so does "pre ${u:-"${a[@]}"} post" when the word is used.
					// A "$@" (or "${a[@]}") of no elements with nothing
					// else but empty expansions ("$e$@", "$*$@",
					// "${@:-}$@") makes no empty field: bash drops it.
					start, some, noElems := len(curField), false, false
					for _, part := range wp.Parts {
						if pe, ok := part.(*syntax.ParamExp); ok && cfg.listPart(part) {
							elems, err := cfg.quotedElemFields(pe)
							if err != nil {
								return err
							}
							if elems != nil {
								for i, elem := range elems {
									if i > 0 {
										flush()
									}
									curField = append(curField, fieldPart{quote: quoteDouble, val: elem})
								}
								for _, elem := range elems {
									some = some || elem != ""
								}
								noElems = noElems || len(elems) == 0
								continue
							}
						}
						wfield, err := cfg.wordField([]syntax.WordPart{part}, quoteDouble)
						if err != nil {
							return err
						}
						for _, fp := range wfield {
							fp.quote = quoteDouble
							curField = append(curField, fp)
							some = some || fp.val != ""
						}
					}
					if some || !noElems {
						allowEmpty = true
					} else {
						curField = curField[:start]
					}
					continue
				}
				allowEmpty = true
				wfield, err := cfg.wordField(wp.Parts, quoteDouble)
				if err != nil {
					return err
				}
				for _, part := range wfield {
					part.quote = quoteDouble
					curField = append(curField, part)
				}
				if len(wfield) == 0 {
					// jaiph-go patch: "" is a quoted empty part, as '' is,
					// so it makes a field of its own next to IFS
					// whitespace: with b=' b ', ""$b is two fields ("" and
					// b) and $b"" too, as in bash.
					curField = append(curField, fieldPart{quote: quoteDouble})
				}
			case *syntax.ParamExp:
				if cfg.splitLits && isListParamExp(wp) && !wp.Excl && wp.Exp == nil && wp.Repl == nil && wp.Slice == nil &&
					cfg.ifs != "" && !strings.ContainsRune(cfg.ifs, ' ') {
					// jaiph-go patch: an unquoted $@ (or ${a[@]}) in the
					// word of ${v:-…} is its elements joined with spaces,
					// not split, when IFS holds no space (bash: with
					// IFS=, ${v:-$@} is one field "a b c,d")
					if elems, _, _ := cfg.listElems(wp); len(elems) > 0 {
						curField = append(curField, fieldPart{val: strings.Join(elems, " ")})
					}
					continue
				}
				if cfg.NoSplitStar && cfg.ifs == "" && cfg.starList(wp) {
					elems, quotedNull, err := cfg.noSplitStarFields(wp)
					if err != nil {
						return err
					}
					if quotedNull {
						curField = append(curField, fieldPart{quote: quoteDouble, val: elems[0]})
						continue
					}
					for j, elem := range elems {
						if j > 0 {
							flush()
						}
						splitAdd(elem)
					}
					continue
				}
				if elems, ok, err := cfg.unquotedElemFields(wp); err != nil {
					return err
				} else if ok {
					if cfg.splitLits && len(wps) == 1 && cfg.ifs == "" && wp.Param.Value == "*" && !wp.Excl {
						// jaiph-go patch: bash leaves out the
						// empty elements of $* in the word of an
						// unquoted ${u:-w} with IFS empty when
						// it is the whole word (x${u:+$*}y of a
						// '' b is xa and by)
						elems = slices.DeleteFunc(slices.Clone(elems), func(e string) bool { return e == "" })
					}
					// Unquoted "*" or "@" expansions produce one field per
					// element; joining and re-splitting them would lose
					// fields when IFS is empty (jaiph-go patch: with IFS
					// set, they come joined, see unquotedElemFields).
					for j, elem := range elems {
						if j > 0 {
							flush()
						}
						splitAdd(elem)
					}
					continue
				}
				if parts, ok, err := cfg.defaultWordParts(wp); err != nil {
					return err
				} else if ok {
					restore := cfg.setNoSplitStar(cfg.rhsNoSplitStar(wp.Exp.Op))
					if cfg.ifs != "" && !strings.ContainsRune(cfg.ifs, ' ') && opAtListWord(parts) {
						// jaiph-go patch: with IFS holding no space, a
						// word with an "@" list with a slice or a
						// per-element operator (${a[@]@Q}, ${!a[@]})
						// is one field: the list joined with IFS's
						// first character, the word split at IFS and
						// the words joined with a space (bash's
						// W_NOSPLIT2 rejoining: with IFS=:
						// ${u:-x${a[@]^}y} of (p:q '') is "xP q y";
						// found probing beside the soak's seed 227)
						old := cfg.atListIFSJoined
						cfg.atListIFSJoined = true
						field, err := cfg.wordField(parts, quoteNone)
						cfg.atListIFSJoined = old
						restore()
						if err != nil {
							return err
						}
						if words := ReadFields(cfg, cfg.fieldJoin(field), -1, true); len(words) > 0 {
							curField = append(curField, fieldPart{quote: quoteDouble, val: strings.Join(words, " ")})
						}
						continue
					}
					if !quotesList(parts) {
						old := cfg.splitLits
						cfg.splitLits = true // ${x:-a b} is two fields, as the word's text is split
						err := addParts(parts)
						cfg.splitLits = old
						restore()
						if err != nil {
							return err
						}
						continue
					}
					// A word holding "$@" (or "${a[@]}") is split on its
					// own, its blanks at either end delimiting nothing,
					// and its first and last fields are joined to the
					// text around it (bash's qdollarat: A${x:+ "$@" }B is
					// Ap and "q rB" when $@ is p and "q r"). The outer
					// call owns cfg's field buffers; a copy of the config
					// brings its own.
					inner := *cfg
					inner.splitLits = true
					wfields, err := inner.wordFields(parts)
					restore()
					if err != nil {
						return err
					}
					for j, f := range wfields {
						if j > 0 {
							flush()
						}
						if len(f) == 0 {
							f = []fieldPart{{quote: quoteDouble}} // a quoted empty field
						}
						curField = append(curField, f...)
					}
					continue
				}
				val, err := cfg.paramExp(wp)
				if err != nil {
					return err
				}
				splitAdd(val)
			case *syntax.CmdSubst:
				val, err := cfg.cmdSubst(wp)
				if err != nil {
					return err
				}
				splitAdd(val)
			case *syntax.ArithmExp:
				n, err := ArithmTop(cfg, wp.X, arithTrailing(wp.X, wp.Right)) // jaiph-go patch: bash's error text
				if err != nil {
					return err
				}
				// jaiph-go patch: an unquoted arithmetic expansion is
				// split by IFS, as bash's (IFS=0: $((100)) is 1 and two
				// empty fields' worth of delimiters)
				splitAdd(strconv.Itoa(n))
			case *syntax.ProcSubst:
				path, err := cfg.ProcSubst(wp)
				if err != nil {
					return err
				}
				splitAdd(path)
			case *syntax.ExtGlob:
				if !cfg.ExtGlob {
					return fmt.Errorf("extended globbing operator used without the \"extglob\" option set")
				}
				// We don't translate or interpret the pattern here in any way;
				// that's done later when globbing takes place via [pattern.Regexp].
				// Here, all we do is keep the extended globbing expression in string form.
				//
				// TODO(v4): perhaps the syntax parser should keep extended globbing expressions
				// as plain literal strings, because a custom node is not particularly helpful.
				// It's not like other globbing operators like `*` or `**` get their own nodes.
				curField = append(curField, fieldPart{val: wp.Op.String() + wp.Pattern.Value + ")"})
			default:
				panic(fmt.Sprintf("unhandled word part: %T", wp))
			}
		}
		return nil
	}
	if err := addParts(wps); err != nil {
		return nil, err
	}
	flush()
	if allowEmpty && len(fields) == 0 {
		fields = append(fields, curField)
	}
	return fields, nil
}

// listElems returns the elements of a "*" or "@" expansion of a list, like
// $@ or ${arr[*]}, with star set for the "*" forms which join into a single
// field when quoted. ok is false for any other parameter expansion.
func (cfg *Config) listElems(pe *syntax.ParamExp) (elems []string, star, ok bool) {
	if pe.Param == nil { // e.g. zsh's ${}; paramExp rejects it
		return nil, false, false
	}
	switch name := pe.Param.Value; name {
	case "*", "@":
		return cfg.sliceElems(pe, cfg.Env.Get(name).List, nil, true), name == "*", true
	}
	switch lit := nodeLit(pe.Index); lit {
	case "@", "*":
		switch vr := cfg.listVar(pe.Param.Value); vr.Kind {
		case Indexed:
			return cfg.sliceElems(pe, vr.List, vr.Indexes, false), lit == "*", true
		case Associative:
			return cfg.sliceAssoc(pe, vr.AssocValues()), lit == "*", true
		case String:
			// jaiph-go patch: a plain variable is an array of one
			// element, as in bash ("${s[@]}" is "$s"; sliced, the
			// string is: paramExp). Bash draws two numbers for
			// ${RANDOM[@]}: the second is the element.
			if cfg.draws(pe.Param.Value) {
				vr = cfg.listVar(pe.Param.Value)
			}
			if vr.IsSet() && pe.Slice == nil {
				return cfg.sliceElems(pe, []string{vr.Str}, nil, false), lit == "*", true
			}
		}
	}
	return nil, false, false
}

// declareFields splits the declare statement of a quoted "${a[@]@A}"
// (declare -FLAGS NAME=(…)) as bash does: its array_var_assignment quotes
// the value only, and the statement is then split with IFS like "$@"'s
// words, so that with the default IFS it is three fields (declare, -a,
// a=(…)), with IFS=: one, and with IFS empty three again. An empty
// array's () is not quoted.
func (cfg *Config) declareFields(stmt string) []string {
	if cfg.ifs == "" {
		// bash splits it at its blanks even with IFS empty
		defer func(ifs string) { cfg.ifs = ifs }(cfg.ifs)
		cfg.ifs = " "
	}
	quoted := len(stmt) // bytes from here on are not split
	if i := strings.Index(stmt, "=("); i >= 0 && !strings.HasSuffix(stmt, "=()") {
		quoted = i + 1
	}
	delim := func(j int) (ws, other bool, size int) {
		r, size := utf8.DecodeRuneInString(stmt[j:])
		switch {
		case j >= quoted || !cfg.ifsRune(r):
			return false, false, size
		case cfg.ifsWhitespace(r):
			return true, false, size
		}
		return false, true, size
	}
	j := 0
	skipWhitespace := func() {
		for j < len(stmt) {
			ws, _, n := delim(j)
			if !ws {
				return
			}
			j += n
		}
	}
	fields := []string{}
	skipWhitespace()
	for j < len(stmt) {
		start := j
		for j < len(stmt) {
			ws, other, n := delim(j)
			if ws || other {
				break
			}
			j += n
		}
		fields = append(fields, stmt[start:j])
		skipWhitespace()
		if j < len(stmt) {
			if _, other, n := delim(j); other {
				j += n
				skipWhitespace()
			}
		}
	}
	return fields
}

// declaredListAttrs is ${x[@]@a} or ${x[*]@a} of a variable declared
// without a value, which still has its attributes (jaiph-go patch:
// declare -i n, declare -a a: "${n[@]@a}" is i and "${a[*]@a}" a in
// bash; they were nothing). ok is false for any other expansion.
func (cfg *Config) declaredListAttrs(pe *syntax.ParamExp) (string, bool) {
	l := nodeLit(pe.Index)
	if pe.Excl || l != "@" && l != "*" || pe.Exp == nil || pe.Exp.Op != syntax.OtherParamOps || pe.Exp.Word.Lit() != "a" {
		return "", false
	}
	vr := cfg.listVar(pe.Param.Value)
	if vr.IsSet() || vr.Kind == NameRef || vr.Flags() == "" {
		return "", false
	}
	return vr.Flags(), true
}

// scalarNullOp: ${x@a} and ${x@P}, whose empty result bash makes no
// string at all for a scalar (see quotedElemFields).
func scalarNullOp(pe *syntax.ParamExp) bool {
	if pe.Exp == nil || pe.Exp.Op != syntax.OtherParamOps {
		return false
	}
	op := pe.Exp.Word.Lit()
	return op == "a" || op == "P"
}

// listVar is the variable a list expansion such as ${name[@]} reads:
// through a nameref, the variable it names (jaiph-go patch: "${r[@]}" of
// declare -n r=a was one field, a's elements joined; so were its slices,
// keys and per-element operators).
func (cfg *Config) listVar(name string) Variable {
	vr := cfg.Env.Get(name)
	if vr.Kind == NameRef {
		if n, v := vr.Resolve(cfg.Env); n != "" {
			return v
		}
	}
	return vr
}

// ctlEscReplacer puts bash's CTLESC before the characters it escapes in
// an unsplit list (jaiph-go patch, see unquotedElemFields).
var ctlEscReplacer = strings.NewReplacer(" ", "\x01 ", "\x01", "\x01\x01", "\x7f", "\x01\x7f")

// unquotedElemFields returns the elements of an unquoted "*" or "@" list
// expansion like $* or ${foo[@]}; ok is false for any other expansion.
func (cfg *Config) unquotedElemFields(pe *syntax.ParamExp) ([]string, bool, error) {
	if pe.Length || pe.Width || pe.IsSet {
		return nil, false, nil
	}
	if cfg.starArraysSpaced && nodeLit(pe.Index) == "*" && pe.Param.Value != "*" && !pe.Length {
		v, err := cfg.paramExp(pe) // one string, see condRhsWord
		return []string{v}, err == nil, err
	}
	if tp := cfg.namerefListTarget(pe); tp != nil && (!cfg.splitLits || cfg.ifs == "") {
		// jaiph-go patch: an unquoted $r of a nameref to a[@] or a[*]
		// is that list's fields, as ${a[@]} (with IFS empty they were
		// one, joined with nothing: found by the soak, seed 214); in
		// an unquoted default or alternative's word (splitLits) bash
		// joins it with a space first, unless IFS is empty
		return cfg.unquotedElemFields(tp)
	}
	if pe.Excl {
		if pe.Repl != nil || pe.Exp != nil || pe.Slice != nil {
			// an indirection (${!a[*]:1} too: bash's is through the
			// value of ${a[*]}, not a slice of the keys)
			return nil, false, nil
		}
		names, ok := cfg.unquotedNameFields(pe)
		return names, ok, nil
	}
	if flags, ok := cfg.declaredListAttrs(pe); ok {
		return []string{flags}, true, nil
	}
	if pe.Repl != nil || pe.Exp != nil {
		// jaiph-go patch: an operator applied to each element (${a[@]^},
		// ${@/x/y}, ${a[*]#?}) joins the results with IFS's first
		// character, and the result is split (bash's
		// string_list_pos_params), where they were joined with a space
		// and so not split with IFS=:; an element is not a field of
		// its own (the plain list, below, too). With IFS empty, they are
		// fields of their own, except the # and % operators of an
		// array, which join them with a space into one field (as bash).
		if pe.Exp != nil && !perElemOp(pe.Exp) {
			if cfg.ifs == "" && pe.Repl == nil && pe.Slice == nil {
				// jaiph-go patch: with IFS empty, a list its default,
				// error or assignment operator leaves as it is
				// (${a[*]:-w} of elements) is the list's fields, as
				// without the operator (they were joined into one)
				switch op := pe.Exp.Op; op {
				case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull,
					syntax.AssignUnset, syntax.AssignUnsetOrNull:
					if elems, _, ok := cfg.listElems(pe); ok && len(elems) > 0 {
						switch op {
						case syntax.DefaultUnset, syntax.ErrorUnset, syntax.AssignUnset:
							return elems, true, nil
						}
						if strings.Join(elems, " ") != "" {
							return elems, true, nil
						}
					}
				}
			}
			return nil, false, nil
		}
		if err := cfg.listSliceLength(pe); err != nil {
			return nil, false, err
		}
		elems, _, ok := cfg.listElems(pe)
		if !ok {
			return nil, false, nil
		}
		elems, err := cfg.perElemOps(pe, elems)
		if err == nil && cfg.interrupted() {
			err = ErrInterrupted
		}
		if err != nil {
			return nil, false, err
		}
		if cfg.ifs != "" {
			r, _ := utf8.DecodeRuneInString(cfg.ifs)
			return []string{strings.Join(elems, string(r))}, true, nil
		}
		if name := pe.Param.Value; name != "@" && name != "*" && pe.Exp != nil {
			switch pe.Exp.Op {
			case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
				// bash 5.2 leaves the CTLESC (\x01) it put before
				// each space, \x01 and \x7f of an element there.
				for i, e := range elems {
					elems[i] = ctlEscReplacer.Replace(e)
				}
				return []string{strings.Join(elems, " ")}, true, nil
			}
		}
		return elems, true, nil
	}
	if err := cfg.listSliceLength(pe); err != nil { // jaiph-go patch: its errors, as quoted
		return nil, false, err
	}
	elems, _, ok := cfg.listElems(pe)
	if ok && cfg.ifs != "" && len(elems) > 1 {
		// jaiph-go patch: joined with IFS's first character and split
		// as bash does, so that with IFS=: an empty element is an
		// empty field (a=(x '' y) is x, '', y) and an element ending
		// in : is followed by one.
		r, _ := utf8.DecodeRuneInString(cfg.ifs)
		return []string{strings.Join(elems, string(r))}, true, nil
	}
	return elems, ok, nil
}

// namerefStarTarget is ${a[*]} for ${r} or $r of a nameref r to a[*] (no
// operator), or nil (jaiph-go patch).
func (cfg *Config) namerefStarTarget(pe *syntax.ParamExp) *syntax.ParamExp {
	if pe.Excl || pe.Index != nil || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil || pe.Length || pe.Width || pe.IsSet {
		return nil
	}
	vr := cfg.peek(pe.Param.Value)
	if vr.Kind != NameRef {
		return nil
	}
	n := cfg.peekResolve(vr)
	if !strings.HasSuffix(n, "[*]") || cfg.peek(n).Declared() {
		return nil
	}
	w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader("${" + n + "}"))
	if err != nil || len(w.Parts) != 1 {
		return nil
	}
	tp, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok || nodeLit(tp.Index) != "*" || tp.Exp != nil || tp.Repl != nil || tp.Slice != nil {
		return nil
	}
	return tp
}

// starList says pe is a "*" list: $*, ${a[*]}, ${!a[*]}, with an operator
// or not, or ${r} of a nameref to one (jaiph-go patch).
func (cfg *Config) starList(pe *syntax.ParamExp) bool {
	switch {
	case pe.Param.Value == "*" && !pe.Excl, nodeLit(pe.Index) == "*":
		return true
	case pe.Excl || pe.Index != nil || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil:
		return false
	}
	return cfg.namerefStarTarget(pe) != nil
}

// noSplitStarFields is the fields of an unquoted "*" list while
// [Config.NoSplitStar] is set and IFS is empty (jaiph-go patch): its
// elements joined with nothing, as if quoted, an empty string no field
// (but an array's, quotedNull: one quoted field); bash splits that of $*
// with an operator applied to each element or a slice (${*/a/A}, ${*,},
// ${*#a}, ${*:1}) at its spaces.
func (cfg *Config) noSplitStarFields(pe *syntax.ParamExp) (fields []string, quotedNull bool, _ error) {
	if tp := cfg.namerefStarTarget(pe); tp != nil {
		pe = tp // ${r} or $r of a nameref to a[*] is ${a[*]}
	}
	// An array's ${a[*]} with elements is bash's quoted null when they
	// join to nothing: not null for :-, :+, := and :?, and a field.
	if pe.Param.Value != "*" && !pe.Excl && nodeLit(pe.Index) == "*" && pe.Repl == nil && pe.Slice == nil {
		if elems, _, ok := cfg.listElems(pe); ok && len(elems) > 0 {
			quotedNull = pe.Exp == nil
			if pe.Exp != nil {
				tp := *pe
				exp := *pe.Exp
				switch exp.Op {
				case syntax.DefaultUnsetOrNull, syntax.DefaultUnset:
					exp.Op, quotedNull = syntax.DefaultUnset, true
				case syntax.AssignUnsetOrNull, syntax.AssignUnset:
					exp.Op, quotedNull = syntax.AssignUnset, true
				case syntax.ErrorUnsetOrNull, syntax.ErrorUnset:
					exp.Op, quotedNull = syntax.ErrorUnset, true
				case syntax.AlternateUnsetOrNull:
					exp.Op = syntax.AlternateUnset
				}
				tp.Exp = &exp
				pe = &tp
			}
		}
	}
	oldDbl := cfg.inDblQuote
	cfg.inDblQuote = true
	val, err := cfg.paramExp(pe)
	cfg.inDblQuote = oldDbl
	if err != nil {
		return nil, false, err
	}
	if quotedNull {
		return []string{val}, true, nil
	}
	if pe.Param.Value == "*" && (pe.Repl != nil || pe.Slice != nil || pe.Exp != nil && perElemOp(pe.Exp) && pe.Exp.Op != syntax.OtherParamOps) {
		return strings.FieldsFunc(val, func(r rune) bool { return r == ' ' }), false, nil
	}
	if val == "" {
		return nil, false, nil
	}
	return []string{val}, false, nil
}

// unquotedNameFields is unquotedElemFields for the name lists ${!prefix@},
// ${!prefix*}, ${!name[@]} and ${!name[*]} (jaiph-go patch: they were one
// string joined with spaces, so with an IFS without a space
// `${!a[@]}` was the one field "0 1 2"). With a null IFS the @ forms
// are one field per name and, as bash, ${!prefix*} is the names joined
// with nothing and ${!name[*]} the keys joined with spaces, one field.
func (cfg *Config) unquotedNameFields(pe *syntax.ParamExp) ([]string, bool) {
	if pe.Param == nil {
		return nil, false
	}
	var names []string
	star := false
	switch pe.Names {
	case syntax.NamesPrefixWords, syntax.NamesPrefix:
		names, star = cfg.namesByPrefix(pe.Param.Value), pe.Names == syntax.NamesPrefix
		if star && cfg.ifs == "" {
			return []string{strings.Join(names, "")}, true
		}
		return names, true
	}
	lit := nodeLit(pe.Index)
	if lit != "@" && lit != "*" {
		return nil, false
	}
	switch vr := cfg.listVar(pe.Param.Value); vr.Kind {
	case Indexed:
		names = vr.indexedKeys()
	case Associative:
		names = vr.AssocKeys()
	case String:
		if vr.IsSet() {
			names = []string{"0"}
		}
	default:
		return nil, false
	}
	if lit == "*" && cfg.ifs == "" {
		return []string{strings.Join(names, " ")}, true
	}
	return names, true
}

// quotedElemFields returns the list of elements resulting from a quoted
// parameter expansion that should be treated especially, like "${foo[@]}".
// The result is nil for any other parameter expansion.
func (cfg *Config) quotedElemFields(pe *syntax.ParamExp) ([]string, error) {
	if pe == nil || pe.Param == nil || pe.Length || pe.Width || pe.IsSet {
		return nil, nil
	}
	if pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps && pe.Exp.Word.Lit() == "A" {
		// jaiph-go patch: one declare statement (paramExp); for an
		// array's "${a[@]@A}", split as bash does (declareFields).
		if pe.Excl || nodeLit(pe.Index) != "@" {
			return nil, nil
		}
		oldDbl := cfg.inDblQuote
		cfg.inDblQuote = true
		stmt, err := cfg.paramExp(pe)
		cfg.inDblQuote = oldDbl
		switch vr := cfg.listVar(pe.Param.Value); {
		case err != nil:
			return nil, err
		case vr.Kind == Indexed || vr.Kind == Associative:
			return cfg.declareFields(stmt), nil
		case stmt == "":
			// a variable unset and without attributes: bash's
			// string_var_assignment gives no string, no field
			return []string{}, nil
		}
		return []string{stmt}, nil
	}
	name := pe.Param.Value
	if tp := cfg.namerefListTarget(pe); tp != nil {
		// jaiph-go patch: "$r" of a nameref to a[@] or a[*] gives that
		// list's fields, as bash.
		return cfg.quotedElemFields(tp)
	}
	if l := nodeLit(pe.Index); pe.Excl && pe.Names == 0 && (l == "@" || l == "*") && (pe.Exp != nil || pe.Repl != nil || pe.Slice != nil) && !cfg.Env.Get(name).IsSet() {
		return nil, fmt.Errorf("%s[%s]: invalid indirect expansion", name, l)
	}
	if pe.Excl && pe.Names == 0 && cfg.Env.Get(name).IsSet() {
		// jaiph-go patch: "${!r}" whose r holds @, * or a[@] (and
		// "${!a[@]OP}", an indirection through ${a[@]}) gives the fields
		// of that list, as in bash.
		if l := nodeLit(pe.Index); l != "@" && l != "*" || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil {
			tp, ok, err := cfg.indirectTarget(pe)
			if err != nil {
				return nil, err
			}
			if ok && (tp.Param.Value == "@" || tp.Param.Value == "*" || nodeLit(tp.Index) == "@" || nodeLit(tp.Index) == "*") {
				old := cfg.indirectList
				cfg.indirectList = true
				defer func() { cfg.indirectList = old }()
				return cfg.quotedElemFields(tp)
			}
			if pe.Index == nil {
				// jaiph-go patch: "${!r-"${a[@]}"}" with r naming
				// an unset scalar is the list's fields.
				if fields, ok, err := cfg.opWordListFields(pe); ok || err != nil {
					return fields, err
				}
			}
			return nil, nil
		}
	}
	if pe.Excl {
		switch pe.Names {
		case syntax.NamesPrefixWords: // "${!prefix@}"
			if names := cfg.namesByPrefix(pe.Param.Value); names != nil {
				return names, nil
			}
			return []string{}, nil // jaiph-go patch: zero fields
		case syntax.NamesPrefix: // "${!prefix*}"
			return nil, nil
		}
		switch nodeLit(pe.Index) {
		case "@": // "${!name[@]}"
			switch vr := cfg.listVar(name); vr.Kind {
			case Indexed:
				if keys := vr.indexedKeys(); keys != nil {
					return keys, nil
				}
				return []string{}, nil // jaiph-go patch: zero fields
			case Associative:
				return vr.AssocKeys(), nil
			case String: // jaiph-go patch: a scalar has the one index 0
				if vr.IsSet() {
					return []string{"0"}, nil
				}
				return []string{}, nil
			case Unknown: // jaiph-go patch: an unset variable has none
				return []string{}, nil
			}
		}
		return nil, nil
	}
	if flags, ok := cfg.declaredListAttrs(pe); ok {
		return []string{flags}, nil
	}
	if err := cfg.listSliceLength(pe); err != nil {
		return nil, err
	}
	if elems, star, ok := cfg.listElems(pe); ok {
		if pe.Exp != nil {
			// jaiph-go patch: "${a[@]:-w}" and "${a[@]:+w}" test the
			// list as a whole, as bash does: an empty list is unset.
			switch op := pe.Exp.Op; op {
			case syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
				syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
				empty := len(elems) == 0
				if !empty && (op == syntax.DefaultUnsetOrNull || op == syntax.AlternateUnsetOrNull) {
					empty = cfg.quotedListNull(elems, star)
				}
				isDefault := op == syntax.DefaultUnset || op == syntax.DefaultUnsetOrNull
				switch {
				case isDefault == empty: // the default, or the alternative
					return cfg.quotedOpFields(pe.Exp.Word)
				case empty && (star || len(elems) > 0):
					// no alternative for a null list: one empty
					// field, as "$*" and "$@" of one empty element
					return []string{""}, nil
				case empty: // no alternative for an empty list
					return []string{}, nil
				}
				// a non-empty list, unchanged by its default
				if star {
					return []string{cfg.ifsJoin(elems)}, nil
				}
				return elems, nil
			case syntax.AssignUnset, syntax.AssignUnsetOrNull:
				// jaiph-go patch: "${a[@]:=w}" of an empty list (or
				// a null one) assigns a[@] itself, which fails as
				// paramExp says (bash's bad array subscript; it was
				// the list's fields)
				empty := len(elems) == 0
				if !empty && op == syntax.AssignUnsetOrNull {
					empty = cfg.quotedListNull(elems, star)
				}
				if empty {
					oldDbl := cfg.inDblQuote
					cfg.inDblQuote = true
					_, err := cfg.paramExp(pe)
					cfg.inDblQuote = oldDbl
					if err != nil {
						return nil, err
					}
				}
			case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
				// jaiph-go patch: "${a[@]:?w}" of an empty list is
				// the error, as in bash (it was zero fields).
				empty := len(elems) == 0
				if !empty && op == syntax.ErrorUnsetOrNull {
					empty = strings.Join(elems, " ") == ""
				}
				if empty {
					return nil, cfg.errorOpError(pe)
				}
			}
		}
		// Operators like "${foo[@]#prefix}" apply to each element.
		elems, err := cfg.perElemOps(pe, elems)
		if err == nil && cfg.interrupted() {
			err = ErrInterrupted
		}
		if err != nil {
			return nil, err
		}
		if !star && len(elems) == 1 && elems[0] == "" && scalarNullOp(pe) && cfg.listVar(name).Kind == String {
			// jaiph-go patch: bash's string_transform gives a scalar's
			// "${s[@]@a}" without attributes and "${s[@]@P}" expanding
			// to nothing no string at all, and "…[@]" of none is no
			// field (as "${s[@]:9}" past its end).
			return []string{}, nil
		}
		if star {
			return []string{cfg.ifsJoin(elems)}, nil
		}
		if elems == nil {
			// jaiph-go patch: an empty array gives zero fields, which
			// a nil result would turn into one empty field.
			elems = []string{}
		}
		return elems, nil
	}
	if fields, ok, err := cfg.opWordListFields(pe); ok || err != nil {
		return fields, err
	}
	// jaiph-go patch: a nameref counts as what it names (declare -n
	// r='a[1]' with a unset: "${r[@]}" is zero fields, as in bash).
	atList := nodeLit(pe.Index) == "@"
	unset := false
	if atList { // only then: reading RANDOM draws a number
		unset = !cfg.Env.Get(name).IsSet()
		if n, v := cfg.Env.Get(name).Resolve(cfg.Env); n != "" {
			unset = !v.IsSet()
		}
	}
	if atList && unset && pe.Exp != nil {
		// jaiph-go patch: "${undef[@]:-${default[@]}}" gives the
		// default's own fields, as bash.
		switch pe.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
			return cfg.quotedOpFields(pe.Exp.Word)
		case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			return []string{}, nil
		}
		if perElemOp(pe.Exp) { // set -u too: "${u[@]…}" is exempt
			// jaiph-go patch: an operator on each element of an
			// unset list ("${u[@]#?}", "${u[@],,}", "${u[@]@Q}")
			// has no element to apply to: zero fields, as bash.
			return []string{}, nil
		}
	}
	if atList && unset && pe.Exp == nil { // jaiph-go patch: not with ${a[@]:-x}
		// An unset "${name[@]}" produces zero fields, like an empty array.
		return []string{}, nil
	}
	if atList && pe.Slice != nil && cfg.listVar(name).Kind == String {
		// jaiph-go patch: "${s[@]:o:l}" of a scalar is a substring of
		// its value, one field; but where the offset is past either
		// end, bash's substring is no string at all, and a quoted
		// "…[@]" of nothing is zero fields, as "$@" of none is
		// (s=xyz: "${s[@]:5}" is no field, "${s[@]:3}" an empty one).
		oldOutside, oldDbl := cfg.sliceOutside, cfg.inDblQuote
		cfg.sliceOutside, cfg.inDblQuote = false, true
		val, err := cfg.paramExp(pe)
		outside := cfg.sliceOutside
		cfg.sliceOutside, cfg.inDblQuote = oldOutside, oldDbl
		if err != nil {
			return nil, err
		}
		if outside {
			return []string{}, nil
		}
		return []string{val}, nil
	}
	return nil, nil
}

// opWordListFields gives the fields of a quoted "${v+$@}", "${u:-a "$@"
// b}" (jaiph-go patch): when the word of a default or an alternative of a
// plain parameter is used and holds a list expansion ("$@", "${a[@]}"), it
// expands to that list's fields, as in bash; ok is false otherwise (the
// parameter's value, or a word without a list, is one field as before).
func (cfg *Config) opWordListFields(pe *syntax.ParamExp) (fields []string, ok bool, err error) {
	excl := pe.Excl && (pe.Names != 0 || pe.Index != nil)
	if pe.Exp == nil || excl || pe.Slice != nil || pe.Repl != nil || pe.Param.Value == "LINENO" || !hasListExp(pe.Exp.Word) && !cfg.hasNamerefListExp(pe.Exp.Word) {
		return nil, false, nil
	}
	switch nodeLit(pe.Index) {
	case "@", "*":
		return nil, false, nil
	}
	op := pe.Exp.Op
	switch op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
	default:
		return nil, false, nil
	}
	if pe.Excl || cfg.Env.Get(pe.Param.Value).Kind == NameRef {
		// jaiph-go patch: "${!r-"${a[@]}"}" chooses its word as the
		// parameter r names would; ${!r+1} tells whether it is set.
		// So does a nameref, which may name an element (declare -n
		// r='a[1]': a variable named "a[1]" does not exist).
		probe := *pe
		probe.Exp = &syntax.Expansion{Op: syntax.AlternateUnset, Word: &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "1"}}}}
		if op == syntax.DefaultUnsetOrNull || op == syntax.AlternateUnsetOrNull {
			probe.Exp.Op = syntax.AlternateUnsetOrNull
		}
		v, perr := cfg.paramExp(&probe)
		if perr != nil {
			return nil, false, nil // paramExp reports it
		}
		if (v == "1") != (op == syntax.AlternateUnset || op == syntax.AlternateUnsetOrNull) {
			return nil, false, nil
		}
		fields, err = cfg.quotedOpFields(pe.Exp.Word)
		return fields, true, err
	}
	vr := cfg.Env.Get(pe.Param.Value)
	if n, v := vr.Resolve(cfg.Env); n != "" {
		vr = v
	}
	str, set, verr := cfg.varInd(vr, pe.Index, pe.IndexRaw)
	if verr != nil {
		return nil, false, nil // paramExp reports it
	}
	var used bool
	switch op {
	case syntax.AlternateUnsetOrNull:
		used = str != ""
	case syntax.AlternateUnset:
		used = set
	case syntax.DefaultUnset:
		used = !set
	default:
		used = str == ""
	}
	if !used {
		return nil, false, nil
	}
	fields, err = cfg.quotedOpFields(pe.Exp.Word)
	return fields, true, err
}

// hasListExp tells whether a word holds "$@" or "${a[@]}" outside
// substitutions (inside double quotes, or in a nested default's word).
// hasNamerefListExp reports whether w holds $r of a nameref to a[@]
// (jaiph-go patch): a list in an operator's word, as ${a[@]} there
// (hasListExp), which only the variables tell.
func (cfg *Config) hasNamerefListExp(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	var parts func([]syntax.WordPart) bool
	parts = func(ps []syntax.WordPart) bool {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.DblQuoted:
				if parts(p.Parts) {
					return true
				}
			case *syntax.ParamExp:
				if tp := cfg.namerefListTarget(p); tp != nil && nodeLit(tp.Index) == "@" {
					return true
				}
				if p.Exp != nil && p.Exp.Word != nil && parts(p.Exp.Word.Parts) {
					return true
				}
			}
		}
		return false
	}
	return parts(w.Parts)
}

func hasListExp(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	var parts func([]syntax.WordPart) bool
	parts = func(ps []syntax.WordPart) bool {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.DblQuoted:
				if parts(p.Parts) {
					return true
				}
			case *syntax.ParamExp:
				if p.Param != nil && !p.Excl && !p.Length && (p.Param.Value == "@" || nodeLit(p.Index) == "@") {
					return true
				}
				if p.Excl && isListParamExp(p) {
					return true // jaiph-go patch: "${!a[@]}", "${!pre@}"
				}
				if p.Exp != nil && p.Exp.Word != nil && parts(p.Exp.Word.Parts) {
					return true
				}
			}
		}
		return false
	}
	return parts(w.Parts)
}

// listSliceLength reports bash's fatal "N: substring expression < 0" for a
// list expansion sliced with a negative length (${a[@]:1:-1}, ${@:1:-1});
// a string may take one (jaiph-go patch). As in bash's
// verify_substring_values, the offset is checked first: one past the end
// of the list (past the highest index of an array, past $# + 1 for the
// positional parameters) makes the expansion empty before the length is
// evaluated (${a[@]:5:-1} of three elements is empty, not an error).
func (cfg *Config) listSliceLength(pe *syntax.ParamExp) error {
	// jaiph-go patch: what is evaluated here is what sliceElems applies;
	// evaluated again there, an offset or length with a side effect
	// (${a[@]:i++}) had it twice. Kept once all is evaluated: a slice
	// inside the offset or length has its own.
	bounds := sliceBounds{pe: pe}
	defer func() { cfg.listSlice = bounds }()
	if pe.Slice == nil || pe.Param == nil {
		bounds.pe = nil
		return nil
	}
	name := pe.Param.Value
	var vr Variable
	list := name == "@" || name == "*"
	if l := nodeLit(pe.Index); !list && (l == "@" || l == "*") {
		vr = cfg.listVar(name)
		switch vr.Kind {
		case Indexed, Associative:
			list = true
		}
	}
	if !list {
		bounds.pe = nil
		return nil
	}
	offset := 0
	if pe.Slice.Offset != nil {
		n, err := cfg.sliceArith(pe, pe.Slice.Offset)
		if err != nil {
			return err
		}
		offset = n
	}
	bounds.offset = offset
	neg := 0
	if offset < 0 {
		neg = 1
	}
	var size int // bash's len for the offset
	switch {
	case name == "@" || name == "*":
		size = len(cfg.Env.Get("@").List) + 1
		if offset == 0 {
			size++ // counting from $0
		}
	case vr.Kind == Associative:
		size = len(vr.AssocValues()) + neg
	case len(vr.Indexes) > 0:
		size = vr.Indexes[len(vr.Indexes)-1] + neg
	default:
		size = len(vr.List) - 1 + neg
	}
	if offset < 0 {
		offset += size
	}
	if offset > size || offset < 0 || pe.Slice.Length == nil {
		// nothing, or the rest: the length is not evaluated
		bounds.length = -1 << 31
		return nil
	}
	n, err := cfg.sliceArith(pe, pe.Slice.Length)
	if err != nil {
		return err
	}
	bounds.length = n
	if n < 0 {
		return fmt.Errorf("%s: substring expression < 0", sliceLenText(pe))
	}
	return nil
}

// sliceArith evaluates the offset or length x of ${p:o:l} as bash does:
// an arithmetic error names the parameter first (`v1: 1/0: division by
// 0 …`, `a[@]: …`; jaiph-go patch).
func (cfg *Config) sliceArith(pe *syntax.ParamExp, x syntax.ArithmExpr) (int, error) {
	name := pe.Param.Value
	if pe.Index != nil {
		name += "[" + ArithmSource(pe.Index) + "]"
	}
	defer func(old string) { cfg.ArithCommand = old }(cfg.ArithCommand)
	cfg.ArithCommand = name
	n, err := ArithmTop(cfg, x, "")
	if ae, ok := err.(ArithmError); ok {
		ae.Expr = name + ": " + ae.Expr
		return 0, ae
	}
	return n, err
}

// sliceLenText is the length expression of ${x:o:l} as bash quotes it in
// "substring expression < 0": its source text between the colon and the
// closing brace, spaces included (jaiph-go patch: the value was printed,
// so ${a: 1: n} said -3 where bash says " n"). The text is rebuilt from
// node positions.
func sliceLenText(pe *syntax.ParamExp) string {
	x := pe.Slice.Length
	var r arithRender
	r.node(x)
	text := r.sb.String()
	if c := pe.Slice.LengthColon; c.IsValid() && c.Line() == x.Pos().Line() && x.Pos().Col() > c.Col()+1 {
		text = strings.Repeat(" ", int(x.Pos().Col()-c.Col()-1)) + text
	}
	if rb := pe.Rbrace; rb.IsValid() && rb.Line() == x.End().Line() && rb.Col() > x.End().Col() {
		text += strings.Repeat(" ", int(rb.Col()-x.End().Col()))
	}
	return text
}

// opAtListWord says the parts hold an unquoted "@" list with a slice or a
// per-element operator (or ${!a[@]}), and no plain one (jaiph-go patch).
func opAtListWord(parts []syntax.WordPart) bool {
	found := false
	for _, p := range parts {
		pe, ok := p.(*syntax.ParamExp)
		if !ok || !isListParamExp(pe) {
			continue
		}
		if !perElemList(pe) {
			return false
		}
		found = true
	}
	return found
}

// hasStarList says the word holds an unquoted "*" list ($*, ${a[*]},
// with or without an operator) at its top (jaiph-go patch).
func hasStarList(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		if pe, ok := p.(*syntax.ParamExp); ok && (pe.Param.Value == "*" && !pe.Excl || nodeLit(pe.Index) == "*") {
			return true
		}
	}
	return false
}

// condRhsWord expands the word of an unquoted ${u-w}, ${u:-w}, ${u+w} or
// ${u:+w} holding a "*" list in an operand of [[ ]], a case word or an
// associative subscript or value (CondWord, CaseWord) with IFS empty
// (jaiph-go patch): bash expands it as words, $* one per element, an
// array's ${a[*]} joined with spaces, and joins the words that are not
// empty with a space ([[ ${u-$*} == "a b a" ]] of "a b", "a" and "").
func (cfg *Config) condRhsWord(w *syntax.Word) (string, error) {
	fa, fsa := cfg.fieldAlloc, cfg.fieldsAlloc
	old := cfg.starArraysSpaced
	cfg.starArraysSpaced = true
	defer func() { cfg.starArraysSpaced, cfg.fieldAlloc, cfg.fieldsAlloc = old, fa, fsa }()
	fields, err := cfg.wordFields(w.Parts)
	if err != nil {
		return "", err
	}
	var out []string
	for _, f := range fields {
		if s := cfg.fieldJoin(f); s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, " "), nil
}

// quotedListNull says a quoted list with elements is null for a ":"
// operator: a "*" list joined with IFS's first character is empty (with
// IFS empty, "${*:-w}" of two empty elements is w), an "@" list joined
// with spaces (jaiph-go patch).
func (cfg *Config) quotedListNull(elems []string, star bool) bool {
	if star {
		return cfg.ifsJoin(elems) == ""
	}
	return strings.Join(elems, " ") == ""
}

// quotedOpFields expands the word of a quoted "${a[@]:-w}" (jaiph-go patch)
// as a double-quoted word: one field, or one per element of a list
// expansion inside it ("${u[@]:-${d[@]}}").
func (cfg *Config) quotedOpFields(w *syntax.Word) ([]string, error) {
	if w == nil {
		return []string{""}, nil
	}
	oldDbl := cfg.inDblQuote
	cfg.inDblQuote = true
	// jaiph-go patch: this wordFields call is nested in the caller's, and
	// both build in cfg's allocation arrays: the caller's fields so far
	// are put back once these are joined into strings (x"${a[@]+w}"y
	// gave wxwy: the nested call wrote over the caller's "x").
	fa, fsa := cfg.fieldAlloc, cfg.fieldsAlloc
	defer func() { cfg.inDblQuote, cfg.fieldAlloc, cfg.fieldsAlloc = oldDbl, fa, fsa }()
	defer cfg.setNoSplitStar(true)() // quoted: see rhsNoSplitStar
	fields, err := cfg.wordFields(cfg.opWord(w).Parts)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		out = append(out, cfg.fieldJoin(f))
	}
	if len(out) == 0 {
		out = append(out, "")
	}
	return out, nil
}

// errorOpError is the fatal error of ${x:?w} or ${x?w} whose parameter is
// unset (or null): the word's message, or bash's default for a word empty
// as written (${u:?""} says "u: ").
func (cfg *Config) errorOpError(pe *syntax.ParamExp) error {
	msg, err := cfg.errorOpMessage(pe.Exp.Word)
	if err != nil {
		return err
	}
	if w := pe.Exp.Word; w == nil || len(w.Parts) == 0 {
		msg = "parameter null or not set"
		if pe.Exp.Op == syntax.ErrorUnset {
			msg = "parameter not set"
		}
	}
	return UnsetParameterError{Node: pe, Message: msg}
}

// errorOpMessage is the message of ${x:?w} and ${x?w} (jaiph-go patch): as
// in bash's parameter_brace_expand_error, the word expanded as an unquoted
// word, inside double quotes too (quotes removed: "${u:?'no value'}" says
// no value; expansions split, not globbed), its fields joined by spaces.
func (cfg *Config) errorOpMessage(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	oldDbl := cfg.inDblQuote
	cfg.inDblQuote = false
	// This wordFields call is nested in the caller's: see quotedOpFields.
	fa, fsa := cfg.fieldAlloc, cfg.fieldsAlloc
	defer func() { cfg.inDblQuote, cfg.fieldAlloc, cfg.fieldsAlloc = oldDbl, fa, fsa }()
	fields, err := cfg.wordFields(w.Parts)
	if err != nil {
		return "", err
	}
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		out = append(out, cfg.fieldJoin(f))
	}
	return strings.Join(out, " "), nil
}

// sliceElems applies ${var:offset:length} slicing to a list of elements.
// When positional is true, $0 is prepended to the list before slicing.
// In bash, positional parameter offsets ($@ and $*) are 1-based and
// offset 0 includes $0 (the shell or script name). Negative offsets
// count from $# + 1, so $0 is reachable via large enough negative values.
// A non-nil indexes records the index of each element in a sparse array;
// see [Variable.Indexes].
func (cfg *Config) sliceElems(pe *syntax.ParamExp, elems []string, indexes []int, positional bool) []string {
	if pe.Slice == nil {
		return elems
	}
	if positional {
		elems = append([]string{cfg.Env.Get("0").Str}, elems...)
	}
	slicePos := func(n int) int {
		if n < 0 {
			n = len(elems) + n
			if n < 0 {
				n = len(elems)
			}
		} else if n > len(elems) {
			n = len(elems)
		}
		return n
	}
	bounds, evaluated := cfg.listSlice, cfg.listSlice.pe == pe
	if pe.Slice.Offset != nil {
		offset, err := bounds.offset, error(nil)
		if !evaluated {
			offset, err = Arithm(cfg, pe.Slice.Offset)
		}
		if err != nil {
			return elems
		}
		if len(indexes) > 0 {
			// Sparse arrays slice by index: a negative offset counts
			// from one past the maximum index, and the result begins
			// with the first element whose index is at least the offset.
			if offset < 0 {
				offset += indexes[len(indexes)-1] + 1
				if offset < 0 {
					offset = indexes[len(indexes)-1] + 1
				}
			}
			pos, _ := slices.BinarySearch(indexes, offset)
			elems = elems[pos:]
		} else {
			elems = elems[slicePos(offset):]
		}
	}
	if pe.Slice.Length != nil {
		length, err := bounds.length, error(nil)
		if !evaluated {
			length, err = Arithm(cfg, pe.Slice.Length)
		} else if length == -1<<31 {
			return elems[:0] // the offset was past either end
		}
		if err != nil {
			return elems
		}
		elems = elems[:slicePos(length)]
	}
	return elems
}

// sliceBounds is what listSliceLength evaluated of pe's slice: its offset,
// and its length (-1<<31: not evaluated, the offset being past either
// end).
type sliceBounds struct {
	pe             *syntax.ParamExp
	offset, length int
}

func (cfg *Config) expandUser(field string, moreFields bool) (prefix, rest string) {
	name, ok := strings.CutPrefix(field, "~")
	if !ok {
		// No tilde prefix to expand, e.g. "foo".
		return "", field
	}
	// jaiph-go patch: as in bash, the prefix ends at a slash or a colon
	// (echo ~:x is $HOME:x).
	i := strings.IndexAny(name, "/:")
	if i < 0 && moreFields {
		// There is a tilde prefix, but followed by more fields, e.g. "~'foo'".
		// We only proceed if an unquoted slash was found in this field, e.g. "~/'foo'".
		return "", field
	}
	if i >= 0 {
		rest = name[i:]
		name = name[:i]
	}
	if dir, ok := cfg.tildeDir(name); ok {
		return dir, rest // jaiph-go patch: ~+, ~-, ~N
	} else if name != "" && strings.Trim(name, "+-0123456789") == "" {
		return "", field
	}
	if name == "" {
		// Current user; try via "HOME", otherwise fall back to the
		// system's appropriate home dir env var. Don't use os/user, as
		// that's overkill. We can't use [os.UserHomeDir], because we want
		// to use cfg.Env, and we always want to check "HOME" first.

		if vr := cfg.Env.Get("HOME"); vr.IsSet() {
			return vr.String(), rest
		}

		if runtime.GOOS == "windows" {
			if vr := cfg.Env.Get("USERPROFILE"); vr.IsSet() {
				return vr.String(), rest
			}
		}
		// jaiph-go patch: with HOME unset, bash's tilde_expand_word
		// takes the user's home from the password database
		if u, err := user.Current(); err == nil && u.HomeDir != "" {
			return u.HomeDir, rest
		}
		return "", field
	}

	// Not the current user; try via "HOME <name>", otherwise fall back to
	// os/user. There isn't a way to lookup user home dirs without cgo.

	if vr := cfg.Env.Get("HOME " + name); vr.IsSet() {
		return vr.String(), rest
	}

	u, err := user.Lookup(name)
	if err != nil {
		return "", field
	}
	return u.HomeDir, rest
}

// tildeDir is bash's directory for the tilde prefix name (jaiph-go
// patch): ~+ is $PWD, ~- is $OLDPWD, ~N and ~+N the directory stack's
// Nth entry from the top and ~-N from the bottom (dirs +N, -N); ok is
// false for another prefix or an entry that is not there (the word stays
// as written).
func (cfg *Config) tildeDir(name string) (string, bool) {
	switch name {
	case "+":
		vr := cfg.Env.Get("PWD")
		return vr.String(), vr.IsSet()
	case "-":
		vr := cfg.Env.Get("OLDPWD")
		return vr.String(), vr.IsSet()
	}
	digits, fromBottom := name, false
	if d, ok := strings.CutPrefix(name, "+"); ok {
		digits = d
	} else if d, ok := strings.CutPrefix(name, "-"); ok {
		digits, fromBottom = d, true
	}
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return "", false
	}
	n, err := strconv.Atoi(digits)
	stack := cfg.Env.Get("DIRSTACK").List
	if err != nil || n >= len(stack) {
		return "", false
	}
	if fromBottom {
		n = len(stack) - 1 - n
	}
	return stack[n], true
}

func findAllIndex(pat, name string, n int, extGlob, noCase bool, done <-chan struct{}) [][]int {
	// jaiph-go patch: bash's scan for ${x/pat/s} and ${x//pat/s}: at
	// each position from the left, the longest match, which may be empty
	// (then one character is kept and the scan goes on), but never at the
	// end of a non-empty string. Go's FindAll skipped empty matches next
	// to a previous match and matched at the end.
	var mode pattern.Mode
	if extGlob { // shopt -s extglob applies here too
		mode |= pattern.ExtendedOperators
	}
	if noCase { // shopt -s nocasematch (jaiph-go patch, see Config.NoCaseMatch)
		mode |= pattern.NoGlobCase
	}
	if internal.UseGmatchSearch(pat, extGlob) || !utf8.ValidString(name) {
		// bash's pat_subst over its own matcher: each search starts
		// afresh on the rest of the string.
		var locs [][]int
		if name == "" {
			if _, _, ok := internal.PatternMatch("", pat, internal.MatchAny, extGlob, noCase, bashMatchLen(pat), done); ok {
				locs = append(locs, []int{0, 0})
			}
			return locs
		}
		for off := 0; off < len(name) && (n < 0 || len(locs) < n) && !closed(done); {
			sp, ep, ok := internal.PatternMatch(name[off:], pat, internal.MatchAny, extGlob, noCase, bashMatchLenIn(pat, name[off:]), done)
			if !ok {
				break
			}
			locs = append(locs, []int{off + sp, off + ep})
			if sp == ep {
				_, size := utf8.DecodeRuneInString(name[off+ep:])
				ep += size
			}
			off += ep
		}
		return locs
	}
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return nil
	}
	rx := regexp.MustCompile("^(?:" + expr + ")")
	rx.Longest()
	longest := func(s string) int { // the longest match's end, or -1
		if loc := rx.FindStringIndex(s); loc != nil {
			return loc[1]
		}
		return -1
	}
	if mlen := bashMatchLen(pat); mlen >= 0 {
		longest = fixedLenMatch(pat, mode, mlen)
		if longest == nil {
			return nil
		}
	}
	var locs [][]int
	for start := 0; start < len(name) || (start == 0 && len(name) == 0); {
		if n >= 0 && len(locs) >= n || closed(done) {
			break
		}
		if end := longest(name[start:]); end >= 0 {
			locs = append(locs, []int{start, start + end})
			if end > 0 {
				start += end
				continue
			}
		}
		_, size := utf8.DecodeRuneInString(name[start:])
		if size == 0 {
			break
		}
		start += size
	}
	return locs
}

var (
	rxGlobStar        = regexp.MustCompile(`^[^/.][^/]*$`)
	rxGlobStarDotGlob = regexp.MustCompile(`^[^/]*$`)
)

// unescapeGlobLit is the name a pattern without metacharacters matches: its
// text with each backslash escape replaced by the escaped byte (jaiph-go
// patch).
func unescapeGlobLit(part string) string {
	if !strings.Contains(part, `\`) {
		return part
	}
	var sb strings.Builder
	for i := 0; i < len(part); i++ {
		if part[i] == '\\' && i+1 < len(part) {
			i++
		}
		sb.WriteByte(part[i])
	}
	return sb.String()
}

// pathJoin2 is a simpler version of [filepath.Join] without cleaning the result,
// since that's needed for globbing.
func pathJoin2(elem1, elem2 string) string {
	if elem1 == "" {
		return elem2
	}
	if strings.HasSuffix(elem1, string(filepath.Separator)) {
		return elem1 + elem2
	}
	return elem1 + string(filepath.Separator) + elem2
}

// pathSplit splits a file path into its elements, retaining empty ones. Before
// splitting, slashes are replaced with [filepath.Separator], so that splitting
// Unix paths on Windows works as well.
func pathSplit(path string) []string {
	path = filepath.FromSlash(path)
	return strings.Split(path, string(filepath.Separator))
}

func (cfg *Config) glob(base, pat string) ([]string, error) {
	parts := pathSplit(pat)
	matches := []string{""}
	if k := slices.IndexFunc(parts, func(part string) bool {
		return pattern.HasMeta(part, cfg.extGlobMode())
	}); k > 0 {
		// jaiph-go patch: as bash's glob_filename, the directory before
		// the first part with a metacharacter is taken as written, less
		// its escapes: `//b*` gives //bin, `/usr//lo*` /usr//local, and
		// an escaped slash (`/\/b*`) is a slash. (Separators after a
		// part that matched collapse, as in bash.)
		dir := unescapeGlobLit(strings.Join(parts[:k], string(filepath.Separator)) + string(filepath.Separator))
		full := dir
		if !filepath.IsAbs(full) {
			full = filepath.Join(base, full)
		}
		if _, err := cfg.ReadDir2(full); err != nil {
			return nil, nil
		}
		matches[0], parts = dir, parts[k:]
	} else if filepath.IsAbs(pat) {
		if parts[0] == "" {
			// unix-like
			matches[0] = string(filepath.Separator)
		} else {
			// windows (for some reason it won't work without the
			// trailing separator)
			matches[0] = parts[0] + string(filepath.Separator)
		}
		parts = parts[1:]
	}
	// TODO: as an optimization, we could do chunks of the path all at once,
	// like doing a single stat for "/foo/bar" in "/foo/bar/*".

	// TODO: Another optimization would be to reduce the number of ReadDir2 calls.
	// For example, /foo/* can end up doing one duplicate call:
	//
	//    ReadDir2("/foo") to ensure that "/foo/" exists and only matches a directory
	//    ReadDir2("/foo") glob "*"

	for i, part := range parts {
		// Keep around for debugging.
		// log.Printf("matches %q part %d %q", matches, i, part)

		wantDir := i < len(parts)-1
		switch {
		case part == "", part == ".", part == "..":
			for i, dir := range matches {
				matches[i] = pathJoin2(dir, part)
			}
			continue
		case !pattern.HasMeta(part, cfg.extGlobMode()): // jaiph-go patch: extglob groups
			// jaiph-go patch: the name is the part without its
			// escapes, so that "a*b"/* and "c-d"/* look in the
			// directories a*b and c-d (the escaped text was looked up).
			part = unescapeGlobLit(part)
			var newMatches []string
			for _, dir := range matches {
				match := dir
				if !filepath.IsAbs(match) {
					match = filepath.Join(base, match)
				}
				match = pathJoin2(match, part)
				if !wantDir && cfg.Lstat != nil {
					if _, err := cfg.Lstat(match); err != nil {
						continue
					}
					newMatches = append(newMatches, pathJoin2(dir, part))
					continue
				}
				// We can't use [Config.ReadDir2] on the parent and match the directory
				// entry by name, because short paths on Windows break that.
				// Our only option is to [Config.ReadDir2] on the directory entry itself,
				// which can be wasteful if we only want to see if it exists,
				// but at least it's correct in all scenarios.
				if _, err := cfg.ReadDir2(match); err != nil {
					if errors.Is(err, syscall.ENOTDIR) {
						// Reading a regular file as a directory.
						// Note that on Windows this error also satisfies
						// [fs.ErrNotExist], so it must be checked first;
						// see https://github.com/golang/go/issues/46734.
					} else if errors.Is(err, fs.ErrNotExist) {
						continue // simply doesn't exist
					}
					if wantDir {
						continue // exists but not a directory
					}
				}
				newMatches = append(newMatches, pathJoin2(dir, part))
			}
			matches = newMatches
			continue
		case part == "**" && cfg.GlobStar:
			// Find all recursive matches for "**".
			// Note that we need the results to be in depth-first order,
			// and to avoid recursion, we use a slice as a stack.
			// Since we pop from the back, we populate the stack backwards.
			stack := make([]string, 0, len(matches))
			for _, match := range slices.Backward(matches) {
				// "a/**" should match "a/ a/b a/b/cfg ...";
				// note how the zero-match case there has a trailing separator.
				stack = append(stack, pathJoin2(match, ""))
			}
			matches = matches[:0]
			var newMatches []string // to reuse its capacity
			for len(stack) > 0 {
				dir := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				matches = append(matches, dir)

				// If dir is not a directory, we keep the stack as-is and continue.
				newMatches = newMatches[:0]
				rx := rxGlobStar.MatchString
				if cfg.DotGlob {
					rx = rxGlobStarDotGlob.MatchString
				}
				newMatches, _ = cfg.globDir(base, dir, rx, wantDir, newMatches)
				for _, match := range slices.Backward(newMatches) {
					stack = append(stack, match)
				}
			}
			continue
		}
		mode := pattern.Filenames | pattern.EntireString | pattern.NoGlobStar
		if cfg.NoCaseGlob {
			mode |= pattern.NoGlobCase
		}
		if cfg.DotGlob {
			mode |= pattern.GlobLeadingDot
		}
		if cfg.ExtGlob {
			mode |= pattern.ExtendedOperators
		}
		matcher, err := internal.ExtendedPatternMatcher(part, mode, cfg.Done)
		if err != nil {
			return nil, err
		}
		if !cfg.DotGlob && !strings.HasPrefix(part, ".") {
			// jaiph-go patch: as in bash, only a pattern that starts
			// with "." matches dot files, extglob's !(…) included.
			match := matcher
			matcher = func(name string) bool { return !strings.HasPrefix(name, ".") && match(name) }
		}
		var newMatches []string
		for _, dir := range matches {
			newMatches, err = cfg.globDir(base, dir, matcher, wantDir, newMatches)
			if err != nil {
				return nil, err
			}
			if cfg.NoGlobSkipDots && strings.HasPrefix(part, ".") {
				// jaiph-go patch: shopt -u globskipdots; a
				// directory listing has no "." and "..".
				for _, dot := range [...]string{".", ".."} {
					if matcher(dot) {
						newMatches = append(newMatches, pathJoin2(dir, dot))
					}
				}
			}
		}
		matches = newMatches
	}
	if n := len(parts); cfg.GlobStar && n > 1 && parts[n-1] == "**" && slices.Contains(parts[:n-1], "**") {
		// jaiph-go patch: after an earlier "**", bash gives the last
		// "**"'s empty match without its trailing slash (`**/**` and
		// `a/**/**` list a, not a/, beside a/b; `a/**` alone keeps a/).
		for i, m := range matches {
			if len(m) > 1 && strings.HasSuffix(m, "/") {
				matches[i] = m[:len(m)-1]
			}
		}
	}
	// Note that the results need to be sorted.
	// TODO: above we do a BFS; if we did a DFS, the matches would already be sorted.
	slices.Sort(matches)
	// jaiph-go patch: each path once, as bash, though several "**"
	// (`**/**/*.md`) reach it along several routes.
	matches = slices.Compact(matches)
	// Remove any empty matches left behind from "**".
	if len(matches) > 0 && matches[0] == "" {
		matches = matches[1:]
	}
	return matches, nil
}

func (cfg *Config) globDir(base, dir string, matcher func(string) bool, wantDir bool, matches []string) ([]string, error) {
	fullDir := dir
	if !filepath.IsAbs(dir) {
		fullDir = filepath.Join(base, dir)
	}
	infos, err := cfg.ReadDir2(fullDir)
	if err != nil {
		// We still want to return matches, for the sake of reusing slices.
		return matches, err
	}
	for _, info := range infos {
		name := info.Name()
		if !wantDir {
			// No filtering.
		} else if mode := info.Type(); mode&os.ModeSymlink != 0 {
			// We need to know if the symlink points to a directory.
			// This requires an extra syscall, as [Config.ReadDir] on the parent directory
			// does not follow symlinks for each of the directory entries.
			// ReadDir is somewhat wasteful here, as we only want its error result,
			// but we could try to reuse its result as per the TODO in [Config.glob].
			if _, err := cfg.ReadDir2(filepath.Join(fullDir, info.Name())); err != nil {
				continue
			}
		} else if !mode.IsDir() {
			// Not a symlink nor a directory.
			continue
		}
		if matcher(name) {
			matches = append(matches, pathJoin2(dir, name))
		}
	}
	return matches, nil
}

// ReadFields splits and returns n fields from s, like the "read" shell builtin.
// If raw is set, backslash escape sequences are not interpreted.
//
// The config specifies shell expansion options; nil behaves the same as an
// empty config.
func ReadFields(cfg *Config, s string, n int, raw bool) []string {
	// jaiph-go patch: bash's read splitting. A non-whitespace IFS
	// character delimits a field by itself, so "a::b" has an empty field;
	// the last name gets the rest of the line, minus trailing IFS
	// whitespace, or just the last field if one delimiter ends the line.
	// Upstream merged adjacent delimiters of any kind.
	cfg = prepareConfig(cfg)
	var rs []rune
	var chars []string // each rune's bytes: an invalid byte stays itself
	var escaped []bool
	esc := false
	for i, r := range s {
		if !raw && !esc && r == '\\' {
			esc = true
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		rs = append(rs, r)
		chars = append(chars, s[i:i+size])
		escaped = append(escaped, esc)
		esc = false
	}
	text := func(i, j int) string { return strings.Join(chars[i:j], "") }
	isIFS := func(i int) bool { return !escaped[i] && cfg.ifsRune(rs[i]) }
	isWS := func(i int) bool { return isIFS(i) && cfg.ifsWhitespace(rs[i]) }
	// word returns the field starting at i and the index after the
	// delimiter that ends it: IFS whitespace around at most one other
	// IFS character.
	word := func(i int) (string, int) {
		start := i
		for i < len(rs) && !isIFS(i) {
			i++
		}
		w := text(start, i)
		for i < len(rs) && isWS(i) {
			i++
		}
		if i < len(rs) && isIFS(i) {
			i++
			for i < len(rs) && isWS(i) {
				i++
			}
		}
		return w, i
	}
	i := 0
	for i < len(rs) && isWS(i) {
		i++
	}
	var fields []string
	if n == -1 {
		for i < len(rs) {
			var w string
			w, i = word(i)
			fields = append(fields, w)
		}
		return fields
	}
	for len(fields) < n-1 && i < len(rs) {
		var w string
		w, i = word(i)
		fields = append(fields, w)
	}
	if i < len(rs) {
		if w, j := word(i); j >= len(rs) {
			fields = append(fields, w)
		} else {
			// jaiph-go patch: as bash's strip_trailing_ifs_whitespace,
			// escaped IFS whitespace at the end goes too ("p q\ " is
			// "p q"), except the escape marker of a first character:
			// bash keeps its CTLESC, so a rest made only of such
			// whitespace is one \x01 byte.
			end := len(rs)
			for end > i && cfg.ifsRune(rs[end-1]) && cfg.ifsWhitespace(rs[end-1]) {
				end--
			}
			if end == i {
				fields = append(fields, "\x01")
			} else {
				fields = append(fields, text(i, end))
			}
		}
	}
	return fields
}

// listPart reports whether a part of a quoted word expands to a list's
// fields: listOrOpListParamExp, or $r of a nameref to a[@] (jaiph-go
// patch: "p$r" was one field; bash gives a[@]'s, as "p${a[@]}").
func (cfg *Config) listPart(wp syntax.WordPart) bool {
	if listOrOpListParamExp(wp) {
		return true
	}
	pe, ok := wp.(*syntax.ParamExp)
	if !ok || pe.Excl || pe.Index != nil || pe.Param == nil {
		return false
	}
	if tp := cfg.namerefListTarget(pe); tp != nil {
		return nodeLit(tp.Index) == "@"
	}
	if pe.Exp == nil || pe.Slice != nil || pe.Repl != nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return cfg.hasNamerefListExp(pe.Exp.Word)
	}
	return false
}

// namerefListTarget is ${a[@]} (or ${a[*]}) for $r of a nameref r whose
// value is a[@] (a[*]), whose fields $r gives as that list's; nil for
// every other expansion (jaiph-go patch).
func (cfg *Config) namerefListTarget(pe *syntax.ParamExp) *syntax.ParamExp {
	if pe.Param == nil || pe.Excl || pe.Index != nil || !pe.Short {
		return nil
	}
	vr := cfg.peek(pe.Param.Value)
	if vr.Kind != NameRef {
		return nil
	}
	n := cfg.peekResolve(vr)
	if !strings.HasSuffix(n, "[@]") && !strings.HasSuffix(n, "[*]") || cfg.peek(n).Declared() {
		// (a declaration through the nameref in a function made a
		// local of that name, which $r reads, as bash)
		return nil
	}
	w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader("${" + n + "}"))
	if err != nil || len(w.Parts) != 1 {
		return nil
	}
	tp, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok || tp.Index == nil || tp.Exp != nil || tp.Repl != nil || tp.Slice != nil {
		return nil
	}
	return tp
}

// peekResolve is the name a nameref chain ends on, as [Variable.Resolve]
// finds it, without drawing a number from a RANDOM it names.
func (cfg *Config) peekResolve(vr Variable) string {
	name := ""
	for range maxNameRefDepth {
		if vr.Kind != NameRef || vr.Str == "" {
			return name
		}
		name = vr.Str
		vr = cfg.peek(name)
	}
	return name
}

// PeekEnviron is an [Environ] that can say what kind a variable is
// without reading it (jaiph-go patch): reading RANDOM or SRANDOM draws a
// number, so a test of a parameter's kind before its expansion must not
// (a quoted "$RANDOM" drew five numbers, and a seeded RANDOM gave
// another sequence than bash's).
type PeekEnviron interface {
	Peek(name string) Variable
	// Draws reports whether reading name draws a number (RANDOM and
	// SRANDOM while they are the shell's).
	Draws(name string) bool
}

// draws reports whether reading name draws a number (see [PeekEnviron]).
func (cfg *Config) draws(name string) bool {
	pe, ok := cfg.Env.(PeekEnviron)
	return ok && pe.Draws(name)
}

// peek is the variable name holds, for a test of its kind: without
// drawing a number from RANDOM or SRANDOM (see [PeekEnviron]).
func (cfg *Config) peek(name string) Variable {
	if pe, ok := cfg.Env.(PeekEnviron); ok {
		return pe.Peek(name)
	}
	return cfg.Env.Get(name)
}

// listOrOpListParamExp is a list expansion, or a default or alternative
// whose word holds one ("${u:-"${a[@]}"}"), whose fields
// [Config.quotedElemFields] gives (jaiph-go patch).
func listOrOpListParamExp(wp syntax.WordPart) bool {
	if isListParamExp(wp) {
		return true
	}
	pe, ok := wp.(*syntax.ParamExp)
	if !ok || pe.Exp == nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return hasListExp(pe.Exp.Word)
	}
	return false
}

// IsListParamExp reports whether a word part is an "@" list expansion such
// as $@, ${@…} or ${a[@]…} (operators and slices included), which expands
// to several fields even inside double quotes (jaiph-go patch: exported
// for jaiph's checker).
func IsListParamExp(wp syntax.WordPart) bool { return isListParamExp(wp) }

func isListParamExp(wp syntax.WordPart) bool {
	pe, ok := wp.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Length || pe.Width || pe.IsSet {
		return false
	}
	if pe.Excl {
		return pe.Names == syntax.NamesPrefixWords || nodeLit(pe.Index) == "@"
	}
	return (pe.Param.Value == "@" && pe.Index == nil) || nodeLit(pe.Index) == "@"
}

// jaiph-go patch: globIgnore globs as bash does with GLOBIGNORE: when it is
// set and not empty, dot files match too (except "." and ".."), and matches
// of any of its colon-separated patterns are left out.
func (cfg *Config) globIgnore(dir, path string) ([]string, error) {
	ignore := cfg.envGet("GLOBIGNORE")
	if ignore == "" {
		return cfg.glob(dir, path)
	}
	saved := cfg.DotGlob
	cfg.DotGlob = true
	matches, err := cfg.glob(dir, path)
	cfg.DotGlob = saved
	if err != nil {
		return nil, err
	}
	var res []func(string) bool
	// As bash's glob_name_is_acceptable: FNM_PATHNAME (a * or ? does not
	// match a slash), extglob and nocaseglob as set.
	mode := pattern.EntireString | pattern.Filenames | cfg.extGlobMode()
	if cfg.NoCaseGlob {
		mode |= pattern.NoGlobCase
	}
	for _, pat := range splitIgnoreSpec(ignore) {
		if pat == "" {
			continue
		}
		if match, err := internal.ExtendedPatternMatcher(pat, mode, cfg.Done); err == nil {
			res = append(res, match)
		}
	}
	kept := matches[:0]
	for _, m := range matches {
		if base := filepath.Base(m); base == "." || base == ".." {
			continue
		}
		if !slices.ContainsFunc(res, func(match func(string) bool) bool { return match(m) }) {
			kept = append(kept, m)
		}
	}
	return kept, nil
}

// splitIgnoreSpec splits GLOBIGNORE at its colons as bash's
// split_ignorespec: not at a backslash-escaped one, nor inside a bracket
// expression (`[[:alnum:]]*` is one pattern) (jaiph-go patch).
func splitIgnoreSpec(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			if end := bracketEnd(s, i); end > 0 {
				i = end
			}
		case ':':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// bracketEnd is the index of the ']' closing the bracket expression that
// starts at s[open], or -1.
func bracketEnd(s string, open int) int {
	j := open + 1
	if j < len(s) && (s[j] == '!' || s[j] == '^') {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	for ; j < len(s); j++ {
		switch {
		case s[j] == '\\':
			j++
		case s[j] == '[' && j+1 < len(s) && (s[j+1] == ':' || s[j+1] == '.' || s[j+1] == '='):
			if k := strings.Index(s[j+2:], string(s[j+1])+"]"); k >= 0 {
				j += 2 + k + 1
			}
		case s[j] == ']':
			return j
		}
	}
	return -1
}

// arithTrailing is the whitespace between an arithmetic expression and the
// closing position, for bash-worded error messages (jaiph-go patch).
func arithTrailing(x syntax.ArithmExpr, closing syntax.Pos) string {
	if x == nil || x.End().Line() != closing.Line() || closing.Col() <= x.End().Col() {
		return ""
	}
	return strings.Repeat(" ", int(closing.Col()-x.End().Col()))
}

// ArithTrailing is [arithTrailing] for the interpreter's ((…)) command.
func ArithTrailing(x syntax.ArithmExpr, closing syntax.Pos) string { return arithTrailing(x, closing) }

// extGlobMode is the pattern mode for extglob's groups, when enabled
// (jaiph-go patch).
func (cfg *Config) extGlobMode() pattern.Mode {
	if cfg.ExtGlob {
		return pattern.ExtendedOperators
	}
	return 0
}

// quotesList reports whether the parts hold a double-quoted "$@" or
// "${a[@]}".
func quotesList(parts []syntax.WordPart) bool {
	for _, p := range parts {
		if dq, ok := p.(*syntax.DblQuoted); ok && slices.ContainsFunc(dq.Parts, listOrOpListParamExp) {
			return true
		}
	}
	return false
}

// defaultWordParts is the word of an unquoted ${x:-word}, ${x-word},
// ${x:+word} or ${x+word} when it is used, for wordFields to add with the
// word's own quoting, so that ${x:-"a b"} is one field as in bash (jaiph-go
// patch; upstream split the word's expanded text). ok is false when the
// word is not used or the expansion is of another kind.
func (cfg *Config) defaultWordParts(pe *syntax.ParamExp) (parts []syntax.WordPart, ok bool, err error) {
	// An indirection ${!r+word} (no ${!prefix*}, no ${!a[@]…}) chooses
	// its word as the parameter it names would (jaiph-go patch: the word
	// was joined and split: ${!r+"${a[@]}"}).
	excl := pe.Excl && (pe.Names != 0 || pe.Index != nil)
	if pe.Exp == nil || pe.Exp.Word == nil || excl || pe.Length || pe.Width ||
		pe.IsSet || pe.Slice != nil || pe.Repl != nil {
		return nil, false, nil
	}
	var probeOp syntax.ParExpOperator
	useWhenSet := false
	switch pe.Exp.Op {
	case syntax.DefaultUnset:
		probeOp = syntax.AlternateUnset
	case syntax.DefaultUnsetOrNull:
		probeOp = syntax.AlternateUnsetOrNull
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		probeOp, useWhenSet = pe.Exp.Op, true
	default:
		return nil, false, nil
	}
	if _, _, list := cfg.listElems(pe); list {
		return nil, false, nil
	}
	// ${x+1} or ${x:+1} tells whether x is set (and not null); RANDOM,
	// which would draw a number, is.
	v := "1"
	if pe.Index == nil && !pe.Excl && cfg.draws(pe.Param.Value) && useWhenSet {
		cfg.Env.Get(pe.Param.Value) // bash reads it for ${RANDOM:+w} too
	}
	if pe.Index != nil || pe.Excl || !cfg.draws(pe.Param.Value) {
		probe := *pe
		probe.Exp = &syntax.Expansion{Op: probeOp, Word: &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "1"}}}}
		var err error
		if v, err = cfg.paramExp(&probe); err != nil {
			return nil, false, err
		}
	}
	if (v == "1") != useWhenSet {
		return nil, false, nil
	}
	return pe.Exp.Word.Parts, true, nil
}

// bashMatchLen is bash's MATCHLEN (lib/glob/gm_loop.c), ported (jaiph-go
// patch): the number of characters a pattern of fixed length matches, or
// -1 when it holds `*` or an extglob group. Bash's ${x/pat/s} tries only
// matches of exactly that length, so where MATCHLEN miscounts, bash finds
// no match: it closes a bracket expression at the first `]` after the
// character following `[`, so `[^]]` and `[!]]` count two characters
// (the bracket and a literal `]`) and never match in ${x/…/…}, while
// `case` and ${x#…} take them as bash's glob does.
func bashMatchLen(pat string) int { return matchLen([]rune(pat)) }

// bashMatchLenIn is bashMatchLen for a search in s: counted in bytes, as
// bash's umatchlen does, when s or pat is no valid UTF-8 and bash matches
// bytes (jaiph-go patch: ${v/é/E} of $'\xffé' tried one byte only and
// missed: found probing beside the soak's seed 224).
func bashMatchLenIn(pat, s string) int {
	if utf8.ValidString(s) && utf8.ValidString(pat) {
		return bashMatchLen(pat)
	}
	p := make([]rune, len(pat))
	for i := 0; i < len(pat); i++ {
		p[i] = rune(pat[i])
	}
	return matchLen(p)
}

// matchLen is bashMatchLen of the pattern's characters p.
func matchLen(p []rune) int {
	n := 0
	for i := 0; i < len(p); {
		c := p[i]
		i++
		switch c {
		default:
			n++
		case '\\':
			n++
			if i < len(p) {
				i++
			}
		case '?', '+', '!', '@':
			if i < len(p) && p[i] == '(' {
				return -1
			}
			n++
		case '*':
			return -1
		case '[':
			bracklen := 1
			inClass, inColl, inEquiv := false, false, false
			bad := false
			at := func(j int) rune {
				if j < len(p) {
					return p[j]
				}
				return 0
			}
			c = at(i)
			i++
			for {
				if c == 0 {
					i-- // back to the end
					n += bracklen
					bad = true
					break
				} else if c == '\\' {
					bracklen++
					if at(i) == 0 || at(i+1) == 0 {
						n += bracklen
						i = len(p)
						bad = true
						break
					}
					i++
				} else if c == '[' && at(i) == ':' {
					i++
					bracklen++
					inClass = true
				} else if inClass && c == ':' && at(i) == ']' {
					i++
					bracklen++
					inClass = false
				} else if c == '[' && at(i) == '.' {
					i++
					bracklen++
					if at(i) == ']' {
						i++
						bracklen++
					}
					inColl = true
				} else if inColl && c == '.' && at(i) == ']' {
					i++
					bracklen++
					inColl = false
				} else if c == '[' && at(i) == '=' {
					i++
					bracklen++
					if at(i) == ']' {
						i++
						bracklen++
					}
					inEquiv = true
				} else if inEquiv && c == '=' && at(i) == ']' {
					i++
					bracklen++
					inEquiv = false
				} else {
					bracklen++
				}
				c = at(i)
				i++
				if c == ']' {
					break
				}
			}
			if !bad {
				n++
			}
		}
	}
	return n
}

// fixedLenMatch is the match function of findAllIndex for a pattern bash
// takes to have mlen characters (bashMatchLen): a match is exactly that
// long or none. It is nil when the pattern does not compile.
func fixedLenMatch(pat string, mode pattern.Mode, mlen int) func(s string) int {
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return nil
	}
	rx := regexp.MustCompile("^(?:" + expr + ")$")
	return func(s string) int {
		end := 0
		for range mlen {
			if end >= len(s) {
				return -1
			}
			_, size := utf8.DecodeRuneInString(s[end:])
			end += size
		}
		if rx.MatchString(s[:end]) {
			return end
		}
		return -1
	}
}

// dollarCtrl replaces the \cX escapes of a $'…' string by their control
// characters (jaiph-go patch: Format, shared with echo -e where \c ends the
// output, kept them as text): X's upper case with its top three bits
// cleared, \c? is DEL, as bash's ansicstr.
func dollarCtrl(s string) string {
	if !strings.Contains(s, `\c`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			sb.WriteByte(s[i])
			continue
		}
		if s[i+1] != 'c' || i+2 >= len(s) {
			sb.WriteByte(s[i])
			sb.WriteByte(s[i+1])
			i++
			continue
		}
		c := s[i+2]
		i += 2
		if c == '\\' && i+1 < len(s) && s[i+1] == '\\' {
			i++ // \c\\ is the control character of a backslash
		}
		if c == '?' {
			sb.WriteByte(0x7f)
		} else {
			if c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			sb.WriteByte(c & 0x1f)
		}
	}
	return sb.String()
}
