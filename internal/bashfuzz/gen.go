package bashfuzz

import (
	"fmt"
	"slices"
	"strings"
)

// Prog is a generated program: a list of statements, the body of a bash
// function. It is a tree (not text) so that the shrinker can remove and
// hoist statements and drop words while the result stays valid shell.
type Prog struct {
	Body []*Stmt
}

// Stmt is one statement. A simple statement is its Words joined by
// blanks (Words[0] is the command, or the whole statement when Fixed),
// followed by its here-document lines; a compound one is its Parts (a head
// line and the statements under it: `if c; then` + body, `else` + body)
// closed by Tail.
type Stmt struct {
	Words   []string
	Fixed   bool   // the words must stay together (the shrinker drops none)
	Heredoc string // lines after the command line, terminator included
	Parts   []Part
	Tail    string
	// Classes are the known divergences this statement exhibits by itself
	// (known.go); Classify adds the ones that depend on the whole program.
	Classes []Class
	// Sets names the variables the statement assigns, Patterned the
	// variables a pattern operator reads (for ClassPatternUnset).
	Sets, Patterned []string
	// ReadonlyVar is the variable a `readonly` statement freezes, PrefixVar
	// the one a prefix assignment (`v=x cmd`) sets.
	ReadonlyVar, PrefixVar string
	// SetsErrexit: the statement turns errexit or pipefail on.
	SetsErrexit bool
	// NegLen names the variables of `${v:o:-l}` expansions (for
	// ClassNegLenUnset).
	NegLen []string
}

// Part is a compound statement's head line and the statements under it.
type Part struct {
	Head string
	Body []*Stmt
}

// String is the program's text: one statement (or head) a line, no
// indentation (here-documents keep their lines as they are).
func (p *Prog) String() string {
	var b strings.Builder
	for _, s := range p.Body {
		s.write(&b)
	}
	return strings.TrimRight(b.String(), "\n")
}

func (s *Stmt) write(b *strings.Builder) {
	if s.Parts == nil {
		b.WriteString(strings.Join(s.Words, " "))
		b.WriteByte('\n')
		b.WriteString(s.Heredoc)
		return
	}
	for _, p := range s.Parts {
		b.WriteString(p.Head)
		b.WriteByte('\n')
		for _, c := range p.Body {
			c.write(b)
		}
	}
	b.WriteString(s.Tail)
	b.WriteByte('\n')
}

// String is the statement's text.
func (s *Stmt) String() string {
	var b strings.Builder
	s.write(&b)
	return b.String()
}

// Clone is a deep copy (the shrinker edits copies).
func (p *Prog) Clone() *Prog { return &Prog{Body: cloneList(p.Body)} }

func cloneList(l []*Stmt) []*Stmt {
	if l == nil {
		return nil
	}
	out := make([]*Stmt, len(l))
	for i, s := range l {
		c := *s
		c.Words = slices.Clone(s.Words)
		c.Classes = slices.Clone(s.Classes)
		c.Parts = make([]Part, len(s.Parts))
		if s.Parts == nil {
			c.Parts = nil
		}
		for j, p := range s.Parts {
			c.Parts[j] = Part{Head: p.Head, Body: cloneList(p.Body)}
		}
		out[i] = &c
	}
	return out
}

// Options steer the generator.
type Options struct {
	// Avoid lists known divergences the generator does not produce where
	// it can tell at the choice (the runner also skips any program that
	// Classify still finds one in).
	Avoid map[Class]bool
	// MaxDepth bounds the nesting of compound statements (0: 3).
	MaxDepth int
}

// choices reads the generator's decisions from a byte string; once the
// bytes run out every choice is 0, and choice 0 is always the simplest
// alternative, so any string (the empty one too) gives a small valid
// program.
type choices struct {
	b []byte
	i int
}

func (c *choices) n(k int) int {
	if c.i >= len(c.b) || k <= 1 {
		return 0
	}
	v := int(c.b[c.i])
	c.i++
	return v % k
}

// pick returns one of the strings.
func (c *choices) pick(l ...string) string { return l[c.n(len(l))] }

// gen is the generator's state while it walks the grammar.
type gen struct {
	c     choices
	o     Options
	loops int  // enclosing loops
	brace bool // inside a brace group, if or case within a loop (not a loop of its own)
	sub   bool // inside ( … ), not in a function defined there
	funcs int  // functions defined so far: f1 … fN
	// bound is the highest function a call may name here: inside fK's
	// body (and any function defined in it) only f1 … fK-1, so that no
	// program recurses; -1 is no bound (the top level).
	bound int
	ctr   int // loop counters made so far
	here  int // here-document delimiters made so far
}

// Generate is the program the byte string chooses. It is deterministic:
// the same bytes and options give the same program.
func Generate(data []byte, o Options) *Prog {
	if o.MaxDepth == 0 {
		o.MaxDepth = 3
	}
	g := &gen{c: choices{b: data}, o: o, bound: -1}
	// A first statement sets the variables most expansions read, so that
	// most programs are about what they do with values, not unset ones.
	p := &Prog{Body: []*Stmt{g.prelude()}}
	p.Body = append(p.Body, g.list(0, 8)...)
	return p
}

func (g *gen) avoid(c Class) bool { return g.o.Avoid[c] }

// list is up to max statements (at least one).
func (g *gen) list(depth, max int) []*Stmt {
	n := 1 + g.c.n(max)
	out := make([]*Stmt, 0, n)
	for range n {
		out = append(out, g.stmt(depth))
	}
	return out
}

// Variables: v1 … v3 scalars (the prelude sets them), u1 never set, a1 an
// indexed array, A1 an associative one.
var scalars = []string{"v1", "v2", "v3", "u1"}

// values are raw strings with the characters that make expansions
// interesting: slashes, blanks, globs, brackets, quotes, backslashes.
var values = []string{"a", "a b", "a/b/c", "x.tar.gz", "  lead  trail ", "AbC dEf", "a:b::c", "*", "[ab]", `a\b`, "", "-n", "it's", "é", "7", "a*b?c", "//x//", "a,b", "!a"}

// quote writes a value as one shell word, in one of the quoting styles.
func (g *gen) quote(v string) string {
	switch g.c.n(3) {
	case 1:
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`")
		return `"` + r.Replace(v) + `"`
	case 2:
		if !strings.ContainsAny(v, " \t'\"\\*?[]$&;|<>(){}#~") && v != "" {
			return v
		}
	}
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}

func (g *gen) value() string { return g.quote(g.c.pick(values...)) }

func (g *gen) scalar() string { return g.c.pick(scalars...) }

func (g *gen) prelude() *Stmt {
	// v2 starts with a blank (splitting), v3 with a `!` (brackets).
	// p1 and p2 name a variable and an array for ${!p…}.
	return &Stmt{Words: []string{"v1='a/b/c.d'", "v2=' x y  z'", "v3='!AbCé'", "a1=(1 'two words' three)", "n=2", "p1=v2", "p2=a1"},
		Sets: []string{"v1", "v2", "v3", "a1", "n", "p1", "p2"}}
}

// patterns of the pattern operators: slashes, brackets, quotes,
// backslashes, globs.
var patterns = []string{"a", "*/", "/*", "/", `\/`, "[ab]", "[!a]", `[\!]`, `"a b"`, `'*'`, `\\`, "*.", ".*", "?", "b*", "[/]", "*", "[[:upper:]]", "[a-c]", `\*`, " ", "c.d", "[[:alpha:]]", "[[:lower:][:punct:]]"}

// matchPatterns are patterns plus extended ones, for ${…} and [[ ]] (a
// case arm's would be refused: bash parses a body before its shopt runs).
var matchPatterns = append(slices.Clip(patterns), "@(a|c)*", "*@(|d)", "!(a)", "+([b-d])", "*?(é)")

// regexps are [[ =~ ]] expressions as written in the [[ ]] word (a
// backslash there is the shell's quote): leftmost-longest matches, groups
// glibc chooses among, bracket expressions as glibc reads them.
var regexps = []string{`^([a-z]+)/(.*)$`, `([0-9]+)`, `(x)?y`, `^$`, `[[:space:]]`, `(ab|a)(b*)`, `(|a)[a-z]*`,
	`[^]a/]+`, `(a|b)+c?`, `[[:alpha:]]+$`, `.{2,}`, `x{,2}`, `(w|wo)(o|rds)`, `[]-]`, `[[:upper:]][[:lower:]]*`, `(t|tw)(wo|o)*`, `a**`}

// regexpsInVar are expressions assigned to a variable first (GNU's
// escapes, a backslash in a bracket expression, glibc's errors).
var regexpsInVar = []string{`'\w+\s\w+'`, `'\S+$'`, `'^\W'`, `'\d'`, `'(.)(.)\.'`, `'[\]+'`, `'a)'`, `'*a'`, `'[z-a]'`, `'(\w*)(\w)'`}

var replacements = []string{"", "-", "X", `"&"`, `'/'`, `\/`, "$v3", "[]"}

// paramExp is a ${…} expansion of a scalar (and the classes it shows).
func (g *gen) paramExp(st *Stmt) string {
	v := g.scalar()
	if v == "u1" && g.avoid(ClassPatternUnset) {
		// u1 is never set: no pattern operators on it.
		v = "v2"
	}
	pat := func() string {
		p := g.c.pick(matchPatterns...)
		if g.c.n(3) != 0 {
			// Two times in three one of the patterns that break things:
			// slashes and bracket expressions.
			p = g.c.pick("/", "/", "/", "*/", "[/]", `\/`, `[\!]`, `[\!]`, "[!a]", "[ab]", "", "*")
		}
		if p == `[\!]` && g.avoid(ClassBracketBang) {
			p = "[!a]"
		}
		if strings.Contains(p, `[\!`) {
			st.Classes = append(st.Classes, ClassBracketBang)
		}
		st.Patterned = append(st.Patterned, v)
		return p
	}
	// The pattern operators, where most divergences were, weigh three
	// times the others.
	k := g.c.n(16)
	switch {
	case k >= 12 && k < 14:
		k = 1
	case k >= 14:
		k = 2
	}
	if (k == 1 || k == 2) && g.c.n(2) == 0 {
		// The values with slashes and a `!`, for the patterns above.
		v = g.c.pick("v1", "v3")
	}
	switch k {
	case 1:
		return "${" + v + g.c.pick("#", "##", "%", "%%") + pat() + "}"
	case 2:
		op := g.c.pick("/", "//", "//", "/#", "/%")
		p := pat()
		// A `/` in the pattern (`${v////-}`), or right after the `/` op
		// (`${v///}`, which bash reads as `//` and pattern `/`).
		if strings.Contains(strings.ReplaceAll(p, `\/`, ""), "/") {
			if g.avoid(ClassSlashPattern) {
				p = "a"
			} else {
				st.Classes = append(st.Classes, ClassSlashPattern)
			}
		}
		return "${" + v + op + p + "/" + g.c.pick(replacements...) + "}"
	case 3:
		op := g.c.pick(":-", "-", ":+", "+")
		return "${" + v + op + g.nestedWord(st) + "}"
	case 4:
		st.Sets = append(st.Sets, v)
		w := g.nestedWord(st)
		return "${" + v + g.c.pick(":=", "=") + w + "}"
	case 5:
		w := g.c.pick("gone", "'no value'", "")
		if w == "'no value'" {
			// jaiph kept the quotes in the message (fixed).
			if g.avoid(ClassColonQQuote) {
				w = "novalue"
			} else {
				st.Classes = append(st.Classes, ClassColonQQuote)
			}
		}
		return "${" + v + ":?" + w + "}"
	case 6:
		return "${" + v + g.c.pick("@Q", "@U", "@L", "@u", "@E", "@A", "^^", ",,", "^", ",") + "}"
	case 7:
		return "${#" + v + "}"
	case 8:
		sub := g.c.pick("1", "0", "2:1", " -2", "1:-1", "5", "-1", "0:0", "n", "n:1", "0:-2")
		if strings.Contains(sub, ":-") {
			st.NegLen = append(st.NegLen, v)
		}
		return "${" + v + ":" + sub + "}"
	case 9:
		return "${" + v + g.c.pick("^^", ",,", "^") + g.c.pick("[a-c]", "?", "b") + "}"
	case 10:
		if g.c.n(2) == 0 {
			// An indirection through a name, an array (its element 0,
			// unset once 'a1[0]' is), an unset or empty value.
			ref := g.c.pick("p1", "p2", "p2", "v2")
			return "${!" + ref + g.c.pick("", "", "-d", ":-d", "+s", "@Q", "#?", ":1") + "}"
		}
		return "${!" + g.c.pick("v", "a") + "*}"
	case 11:
		return "${" + v + "}"
	}
	return "$" + v
}

// arrayExp is an expansion of a1 or A1.
func (g *gen) arrayExp() string {
	e := g.c.pick(`"${a1[@]}"`, "${a1[*]}", `"${#a1[@]}"`, `"${!a1[@]}"`, `"${a1[1]}"`, `"${a1[@]:1:2}"`,
		`"${a1[-1]}"`, `"${A1[k]}"`, `"${!A1[@]}"`, `"${#A1[@]}"`, `"${a1[@]/t/T}"`, `"${a1[@]#?}"`, "${a1[@]^}", `"${a1[*]}"`,
		// element 0 (unset after unset 'a1[0]'), and a scalar as an array
		`"$a1"`, `"${#a1}"`, `"${a1-d}"`, `"${#v1[@]}"`, `"${v1[0]}"`,
		// through v2, a nameref to a1, A1 or a1[@] once declare -n made it
		// one, else a scalar as an array; and the forms that give
		// bash no word at all (a scalar's slice past its end, @a of
		// no attributes) or a split declare statement (@A)
		`"${v2[@]}"`, "${v2[@]}", `"${v2[*]}"`, `"${!v2[@]}"`, `"${#v2[@]}"`, `"${v2[@]:1}"`, `"${v2[@]#?}"`,
		`"${v2[@]@a}"`, `"${v2[@]@A}"`, `"${a1[@]@A}"`, `"${a1[@]@a}"`, `"${v1[@]:2}"`, `"${v3[@]:9}"`, `"${v1[@]@a}"`,
		// v2 inside a longer quoted word: a[@]'s fields when v2 names
		// it, as "p${a1[@]}"
		`"p$v2"`, `"$v2$u1"`)
	if e == `"${!A1[@]}"` && g.avoid(ClassIndirectUnset) {
		e = `"${!a1[@]}"`
	}
	return e
}

// arith is an arithmetic expression.
func (g *gen) arith() string {
	switch g.c.n(4) {
	case 1:
		// Blanks around the operator: `n-- - -n`, not `n----n`.
		op := g.c.pick("+", "*", "-", "%", "<", "==", "&&", "||", "<<", "**")
		if op == "**" && g.avoid(ClassArithMessage) {
			op = "*" // a negative exponent's error token differs
		}
		return g.arith() + " " + op + " " + g.arith()
	case 2:
		return "(" + g.arith() + ")"
	case 3:
		a := g.c.pick("n++", "n--", "++n", "n+=3", "a1[0]", "a1[0]+=1", "i", "x=4", "!n", "-n", "n?2:5", "7/n", "2#101", "0x1f", "010", "v3", "1/0", "n,n+1")
		if (a == "v3" || strings.HasPrefix(a, "a1") || a == "x=4") && g.avoid(ClassArithMessage) {
			// Variables that may hold words, which are errors in
			// arithmetic (n holds numbers only while the class is
			// avoided), and an assignment whose precedence makes one.
			a = "n"
		}
		return a
	}
	return g.c.pick("1", "0", "n", "3", "42")
}

// word is one shell word; quoted asks for a word that is one field.
// nestedWord is a word inside ${v:-…} (and the other alternatives and
// defaults). A quoted word there, itself in double quotes, is the class
// ClassNestedArrayAlt (fixed): an array is several words in bash, and
// bash strips the inner quotes from the word's text, so `"${u="$v"x}"`
// expands $vx (found by the long run, seed 16).
func (g *gen) nestedWord(st *Stmt) string {
	w := g.word(st, false)
	if strings.Contains(w, `"`) {
		if g.avoid(ClassNestedArrayAlt) {
			return "x"
		}
		st.Classes = append(st.Classes, ClassNestedArrayAlt)
	}
	return w
}

func (g *gen) word(st *Stmt, quoted bool) string {
	// Parameter expansions weigh four times the other kinds of word.
	k := g.c.n(13)
	if k >= 10 {
		k = 3
	}
	switch k {
	case 1:
		return g.value()
	case 2:
		if quoted {
			return `"$` + g.scalar() + `"`
		}
		return "$" + g.scalar()
	case 3:
		e := g.paramExp(st)
		if quoted || g.c.n(2) == 0 {
			return `"` + e + `"`
		}
		return e
	case 4:
		return "$((" + g.arith() + "))"
	case 5:
		return `"$(` + g.inline(st) + `)"`
	case 6:
		return g.c.pick("$?", "$#", `"$@"`, "$*", `"$1"`, "${#}", `"${PIPESTATUS[*]}"`, "$@", `"$*"`, "${2-}")
	case 7:
		return g.arrayExp()
	case 8:
		switch g.c.n(4) {
		case 1:
			if g.avoid(ClassEmptyQuoteIFS) {
				return `"$` + g.scalar() + `"x`
			}
			st.Classes = append(st.Classes, ClassEmptyQuoteIFS)
			return `""$` + g.scalar()
		case 2:
			return "${" + g.scalar() + "}_y"
		case 3:
			return "$(" + g.inline(st) + ")"
		}
		return `"$` + g.scalar() + `"x`
	case 9:
		return g.c.pick("*", "m*", "[.]*", "'*'", "~", "-e", "--", `\$x`, `a\ b`, "{a,b}", "x=1")
	}
	return g.c.pick("x", "y", "ok")
}

// words is up to max words.
func (g *gen) words(st *Stmt, max int) []string {
	n := g.c.n(max + 1)
	out := make([]string, 0, n)
	for range n {
		out = append(out, g.word(st, false))
	}
	return out
}

// inline is a command for a $(…): one simple command (and maybe a pipe).
func (g *gen) inline(st *Stmt) string {
	switch g.c.n(8) {
	case 1:
		return "echo " + g.word(st, false)
	case 2:
		return "false"
	case 3:
		return "printf '%s,' " + g.word(st, false)
	case 4:
		return "echo " + g.word(st, true) + " | tr a-z A-Z"
	case 5:
		return "cat f1 2>/dev/null"
	case 6:
		return "exit 3"
	case 7:
		if k := g.callable(); k > 0 {
			return fmt.Sprintf("f%d", 1+g.c.n(k))
		}
	}
	return "echo hi"
}

// cond is a condition: a command whose status matters.
func (g *gen) cond(st *Stmt, depth int) string {
	switch g.c.n(10) {
	case 1:
		return "[ " + g.word(st, true) + " " + g.c.pick("=", "!=", "-lt", "-eq") + " " + g.word(st, true) + " ]"
	case 2:
		return "[[ " + g.word(st, true) + " " + g.c.pick("==", "!=", "=~", "<") + " " + g.c.pick(matchPatterns...) + " ]]"
	case 3:
		return "(( " + g.arith() + " ))"
	case 4:
		return "! " + g.cond(st, depth)
	case 5:
		return g.cond(st, depth) + " " + g.c.pick("&&", "||") + " " + g.cond(st, depth)
	case 6:
		op := g.c.pick("-n", "-z", "-v", "-f", "-e")
		if op == "-v" && g.avoid(ClassTestVEmpty) {
			op = "-n"
		}
		return "[[ " + op + " " + g.word(st, true) + " ]]"
	case 7:
		if k := g.callable(); k > 0 {
			return fmt.Sprintf("f%d", 1+g.c.n(k))
		}
		return "grep -q a f1 2>/dev/null"
	case 8:
		return g.c.pick("false | true", "true | false", "echo x | grep -q y", "test -n \"$v1\"")
	case 9:
		return "false"
	}
	return "true"
}

// stmt is one statement at the given nesting depth.
func (g *gen) stmt(depth int) *Stmt {
	st := &Stmt{}
	deep := depth >= g.o.MaxDepth
	k := g.c.n(29)
	if deep && k >= 14 && k <= 19 {
		k = 0
	}
	switch k {
	case 1: // assignment
		v := g.scalar()
		st.Sets = []string{v}
		st.Words = []string{v + "=" + g.word(st, false)}
		if g.c.n(3) == 0 { // a prefix assignment before a command
			if g.c.n(3) == 0 && !g.avoid(ClassReadonlyPrefix) {
				// A readonly variable assigned as a prefix.
				v = "r1"
				st.Sets = []string{v}
				st.ReadonlyVar = v
				st.Words[0] = "readonly r1=ro; " + v + st.Words[0][2:] // every scalar name has two letters
			}
			st.PrefixVar = v
			if g.c.n(3) == 0 {
				// A value whose substitution writes to stderr: the
				// command's redirections come after it.
				st.Words[0] = v + `="$(echo ` + v + ` >&2)"`
			}
			st.Words = append(st.Words, g.c.pick("true", "echo", "printenv"), v)
			if g.c.n(2) == 0 {
				// Redirections after the prefix assignments, naming the
				// variable as it was before them, or a file.
				st.Words = append(st.Words, g.c.pick("2>/dev/null", "> f1", ">> f2", "2>&1", `> "f$`+v+`"`, "2> f2"))
			}
			st.Fixed = true
		}
	case 2: // printf
		st.Words = append([]string{"printf", g.c.pick(`'%s\n'`, `'[%s]'`, `'%q\n'`, `'%d|'`, `'%5.2s|%-3s\n'`, `'%b\n'`, `'%x %o\n'`, `"%s=%s\n"`)}, g.words(st, 3)...)
	case 3: // declare -p / echo of an array
		st.Words = []string{"declare", "-p", g.c.pick("v1", "v2", "a1", "A1", "n", "u1", "r1")}
		st.Fixed = true
	case 4: // arrays
		st.Fixed = true
		switch g.c.n(6) {
		case 1:
			st.Words = []string{"declare", "-A", "A1=([k]=" + g.value() + " [" + g.c.pick("j", "'a b'", "0") + "]=" + g.value() + ")"}
			switch g.c.n(4) {
			case 1: // list values expand before the redirections
				head := g.c.pick("-A A1=([k]=", "-a a1=([2]=", "a1=([n]=")
				next := g.c.pick("[0]=", "[-1]=", "[j]=")
				if strings.HasPrefix(head, "-A") && next == "[-1]=" {
					next = "[-1]=" // a key like any other
				}
				st.Words = []string{"declare", head + `"$(echo e1 >&2)"`,
					next + g.word(st, false) + ")", g.c.pick("2>/dev/null", "2>f2", "")}
			case 2: // a list with subscripts: negative ones, or none among keys
				st.Words = []string{"a1=(" + g.c.pick("[-1]=", "[n-9]=", "[1]=", "") + g.value(), g.c.pick("[0]=", "[-2]=", "") + g.word(st, false) + ")"}
			}
		case 2:
			st.Words = []string{"a1[" + g.c.pick("0", "5", "n", "-1", "n+1") + "]=" + g.word(st, false)}
		case 3:
			st.Words = []string{"a1+=(" + g.word(st, false) + ")"}
		case 4:
			if g.avoid(ClassPatternUnset) {
				st.Words = []string{"unset", g.c.pick("'a1[0]'", "'A1[k]'")}
				break
			}
			st.Words = []string{"unset", g.c.pick("'a1[0]'", "a1", "'A1[k]'", "v1", "n")}
			st.Classes = append(st.Classes, ClassPatternUnset) // it may unset a variable a pattern reads
		case 5:
			key := g.c.pick("k", "'x y'", "$v3")
			if g.avoid(ClassArithMessage) {
				key = "k"
			}
			st.Words = []string{"A1[" + key + "]=" + g.word(st, false)}
		default:
			st.Words = append([]string{"a1=("}, append(g.words(st, 3), ")")...)
		}
	case 5: // IFS
		st.Words = []string{"IFS=" + g.quote(g.c.pick(":", " ", "/", ":/", "", " :", "ab", "\t"))}
		st.Fixed = true
	case 6: // read
		st.Fixed = true
		in := g.word(st, true)
		switch g.c.n(3) {
		case 1:
			st.Words = []string{"read", "-r", "-a", "a1", "<<<", in}
		case 2:
			st.Words = []string{"IFS=" + g.quote(g.c.pick(":", "/", " ")), "read", "-r", "v1", "v2", "<<<", in}
		default:
			st.Words = []string{"read", g.c.pick("-r", "", "-d ,"), "v1", "v2", "<<<", in}
		}
	case 7: // set options
		o := g.c.pick("+e", "-e", "-o pipefail", "+o pipefail", "-u", "+u", "-f", "-eo pipefail", "-- a 'b c'", "--")
		if o == "-u" && g.avoid(ClassNounset) {
			o = "+u"
		}
		st.Words = []string{"set", o}
		st.Fixed = true
		st.SetsErrexit = o == "-e" || strings.Contains(o, "pipefail") && o[0] == '-'
	case 8: // local / declare / readonly
		v := g.c.pick("v1", "v2", "n", "r1")
		op := g.c.pick("local", "declare", "readonly", "declare -i", "declare -r", "local -a", "declare -l", "declare -u", "export")
		if op == "declare -i" && g.avoid(ClassArithMessage) {
			op = "declare"
		}
		if op == "local -a" {
			if g.avoid(ClassLocalArrayAttr) {
				op = "local"
			} else {
				st.Classes = append(st.Classes, ClassLocalArrayAttr)
			}
		}
		if (op == "readonly" || op == "declare -r") && g.avoid(ClassReadonlyAssign) {
			v = "r1" // the generator assigns r1 nowhere else
		}
		val := g.word(st, false)
		if v == "n" && g.avoid(ClassArithMessage) {
			val = g.c.pick("0", "5", "-1", "$((n+1))")
		}
		if strings.HasPrefix(val, "{a,b}") {
			// bash brace-expands a declaration's word (`local v={a,b}` is
			// `local v=a v=b`).
			if g.avoid(ClassDeclBraceExpansion) {
				val = "ab"
			} else {
				st.Classes = append(st.Classes, ClassDeclBraceExpansion)
			}
		}
		st.Words = []string{op, v + "=" + val}
		st.Sets = []string{v}
		if strings.HasPrefix(op, "readonly") || strings.HasSuffix(op, "-r") {
			st.ReadonlyVar = v
		}
	case 9: // traps
		st.Fixed = true
		switch g.c.n(3) {
		case 1:
			st.Words = []string{"trap", g.c.pick("'echo err $?'", `'echo "trap: $?" >&2'`), "ERR"}
			if g.avoid(ClassErrTrap) {
				st.Words[2] = "EXIT"
			}
		case 2:
			st.Words = []string{"trap", "-", "EXIT"}
		default:
			st.Words = []string{"trap", g.c.pick("'echo bye $?'", `'echo "[$v1]"'`, "'cat f1 2>/dev/null'"), "EXIT"}
			if st.Words[1] == "'cat f1 2>/dev/null'" {
				// An action that can fail.
				if g.avoid(ClassSubshellTrap) {
					st.Words[1] = "'echo bye'"
				} else {
					st.Classes = append(st.Classes, ClassSubshellTrap)
				}
			}
		}
	case 10: // redirections
		switch g.c.n(6) {
		case 1:
			st.Words = append([]string{"echo"}, append(g.words(st, 2), ">>", "f1")...)
		case 2:
			st.Words = []string{"cat", g.c.pick("f1", "< f1", "f1 f2", "nosuch")}
		case 3:
			st.Words = append([]string{"echo"}, append(g.words(st, 2), g.c.pick(">&2", "1>&2", "2>&1", "2>/dev/null", ">/dev/null"))...)
		case 4:
			// wc -l, not -c: a file may hold bash's diagnostics, whose
			// location prefix (script: line N:) the comparison drops
			// from each line but a byte count would still hold
			st.Words = []string{g.c.pick("ls", "wc -l", "cat -A", "sort"), g.c.pick("f1", "f2", "f*", "nosuch")}
		case 5:
			st.Words = []string{"exec", g.c.pick("3>f2", "2>f2", ">>f1", "3>&-")}
		default:
			st.Words = append([]string{"echo"}, append(g.words(st, 2), ">", g.c.pick("f1", "f2"))...)
		}
		st.Fixed = true
	case 11: // here-documents
		g.heredoc(st)
	case 12: // exit status plumbing
		st.Words = []string{g.c.pick("echo", "printf '%s\\n'"), g.c.pick(`"st=$?"`, `"ps=${PIPESTATUS[*]}"`, `"$?:${PIPESTATUS[@]}"`)}
	case 13: // break / continue, return, exit
		switch {
		case g.loops > 0 && g.c.n(3) != 0:
			w := g.c.pick("break", "continue")
			if g.c.n(3) == 0 {
				n := g.c.pick("2", "1", "3")
				if int(n[0]-'0') > g.loops {
					// More levels than there are loops: bash acts on the
					// outermost one.
					if g.avoid(ClassLevelsBeyondLoops) {
						n = "1"
					} else {
						st.Classes = append(st.Classes, ClassLevelsBeyondLoops)
					}
				}
				w += " " + n
			}
			if g.brace {
				if g.avoid(ClassBraceBreak) {
					w = "true"
				} else {
					st.Classes = append(st.Classes, ClassBraceBreak)
				}
			}
			st.Words = []string{w}
		case g.c.n(4) == 0:
			st.Words = []string{"exit", g.c.pick("0", "3", "")}
		default:
			st.Words = []string{g.ret(), g.c.pick("0", "4", "$?", "")}
		}
		st.Fixed = true
	case 14: // if
		was := g.brace
		g.brace = g.loops > 0
		defer func() { g.brace = was }()
		st.Parts = []Part{{Head: "if " + g.cond(st, depth) + "; then", Body: g.list(depth+1, 3)}}
		switch g.c.n(3) {
		case 1:
			st.Parts = append(st.Parts, Part{Head: "else", Body: g.list(depth+1, 3)})
		case 2:
			st.Parts = append(st.Parts, Part{Head: "elif " + g.cond(st, depth) + "; then", Body: g.list(depth+1, 2)})
		}
		st.Tail = "fi"
	case 15: // loops, every one bounded by its head
		g.ctr++
		c := fmt.Sprintf("i%d", g.ctr)
		var head string
		switch g.c.n(5) {
		case 1:
			head = fmt.Sprintf("for ((%s=0; %s<3; %s++)); do", c, c, c)
		case 2:
			head = fmt.Sprintf("while (( %s++ < 2 )); do", c)
		case 3:
			head = fmt.Sprintf("until (( %s++ >= 2 )); do", c)
		case 4:
			head = fmt.Sprintf("while read -r %s; do", c)
		default:
			head = "for " + c + " in " + strings.Join(append([]string{g.word(st, false)}, g.words(st, 2)...), " ") + "; do"
		}
		g.loops++
		was := g.brace
		g.brace = false
		body := g.list(depth+1, 4)
		g.brace = was
		g.loops--
		if (strings.HasPrefix(head, "while") || strings.HasPrefix(head, "until")) && g.avoid(ClassWhileStatus) {
			body = append(body, &Stmt{Words: []string{"true"}})
		}
		st.Parts = []Part{{Head: head, Body: body}}
		st.Tail = "done"
		if strings.HasPrefix(head, "while read") {
			st.Tail = "done <<< " + g.c.pick(`$'l1\nl2'`, `"$v2"`, "''")
		}
	case 16: // brace group, subshell
		was := g.brace
		g.brace = g.loops > 0
		if g.c.n(2) == 0 {
			st.Parts = []Part{{Head: "{", Body: g.list(depth+1, 3)}}
			st.Tail = "}" + g.c.pick("", " > f1", " 2>&1", " || echo failed")
			if st.Tail == "} > f1" || st.Tail == "} 2>&1" {
				st.Classes = append(st.Classes, ClassExitTrapRedirect) // if an EXIT trap runs from inside
			}
		} else {
			g.brace = false
			wasSub := g.sub
			g.sub = true
			st.Parts = []Part{{Head: "(", Body: g.list(depth+1, 3)}}
			g.sub = wasSub
			st.Tail = ")" + g.c.pick("", "; echo sub=$?", " || echo failed $?")
		}
		g.brace = was
	case 17: // function definition, then maybe a call
		g.funcs++
		name := fmt.Sprintf("f%d", g.funcs)
		wasLoops, wasBrace, wasBound := g.loops, g.brace, g.bound
		g.loops, g.brace = 0, false
		wasSub := g.sub
		g.sub = false
		if g.bound < 0 || g.funcs-1 < g.bound {
			g.bound = g.funcs - 1
		}
		body := g.list(depth+1, 4)
		g.loops, g.brace, g.bound, g.sub = wasLoops, wasBrace, wasBound, wasSub
		// Calls only reach functions defined before (f1 … fN-1) while the
		// body is generated, so no program recurses.
		st.Parts = []Part{{Head: name + "() {", Body: body}}
		st.Tail = "}"
	case 18: // pipeline
		// grep's pattern is one no path holds: bash's diagnostics carry
		// the script's path (.../bashfuzz-soak…/b2.sh: line 4: …)
		reader := g.c.pick("cat", "tr a-z A-Z", "grep -q zq", "false", "wc -l", "sed s/a/b/")
		st.Words = []string{g.c.pick("echo", "printf '%s\\n'"), g.word(st, false), "|", reader}
		if g.c.n(2) == 0 {
			st.Words = append(st.Words, "|", g.c.pick("cat", "head -n 1", "true"))
		}
		if reader == "false" || st.Words[len(st.Words)-1] != reader {
			// A reader that may exit before the writer writes. A small
			// write races it in bash itself (the writer's status is 0 or
			// 141, a SIGPIPE death), so the writer writes more than two
			// pipes and a cat between them hold: it dies of SIGPIPE
			// whatever the timing, and so does a middle element that
			// writes all it reads; wc -l's small write into true would
			// race again, so true does not follow it.
			if g.avoid(ClassPipeWrite) {
				st.Words = st.Words[:4]
				st.Words[3] = "cat"
			} else {
				st.Words[0], st.Words[1] = "printf", `'%0999d\n' {1..1000}`
				if reader == "wc -l" && st.Words[len(st.Words)-1] == "true" {
					st.Words[len(st.Words)-1] = "cat"
				}
				st.Classes = append(st.Classes, ClassPipeWrite)
			}
		}
		st.Fixed = true
	case 19: // case
		was := g.brace
		g.brace = g.loops > 0
		defer func() { g.brace = was }()
		var arms []Part
		for i := range 1 + g.c.n(3) {
			pat := g.c.pick(patterns...)
			if i == 0 && g.c.n(2) == 0 {
				pat = "*"
			}
			if pat == " " {
				pat = "' '"
			}
			arms = append(arms, Part{Head: pat + ")", Body: append(g.list(depth+1, 2), &Stmt{Words: []string{";;"}, Fixed: true})})
		}
		st.Parts = append([]Part{{Head: "case " + g.word(st, true) + " in"}}, arms...)
		st.Tail = "esac"
	case 20: // and-or lists, negation
		st.Words = []string{g.cond(st, depth), g.c.pick("&&", "||"), g.simple(st)}
		st.Fixed = true
	case 21: // a call of a defined function
		if k := g.callable(); k > 0 {
			st.Words = append([]string{fmt.Sprintf("f%d", 1+g.c.n(k))}, g.words(st, 2)...)
			if g.c.n(3) == 0 {
				st.Words = append(st.Words, g.c.pick("|| echo rc=$?", "&& echo ok", "; echo rc=$?"))
			}
			break
		}
		st.Words = []string{"echo", "nofunc"}
	case 22: // tests as statements
		st.Words = []string{g.cond(st, depth)}
		st.Fixed = true
	case 23: // shift / set --
		st.Words = []string{g.c.pick("shift", "shift 2", "set -- x 'y z'", "set --")}
		st.Fixed = true
	case 24: // eval-free indirection and printf -v
		st.Words = []string{"printf", "-v", g.scalar(), g.c.pick("'%s-%s'", "'%03d'", "'%q'"), g.word(st, true)}
		st.Fixed = true
	case 25: // arithmetic command, let
		st.Words = []string{"(( " + g.arith() + " ))"}
		if g.c.n(2) == 0 {
			st.Words = []string{"let", `"` + g.arith() + `"`}
		}
		st.Fixed = true
	case 26: // attributes: declare -i/-l/-u of scalars and arrays, what assigns them, declare -g
		st.Fixed = true
		name := g.c.pick("a1", "A1", "v1", "v2")
		switch g.c.n(8) {
		case 7: // v2 a nameref: what assigns or reads it goes through
			st.Words = []string{"declare", "-n", "v2=" + g.c.pick("v1", "a1", "'a1[1]'", "A1", "u1", "'a1[@]'", "'a1[*]'")}
			name = "v2"
		case 1:
			st.Words = []string{"declare", g.c.pick("-i", "-u", "-l", "-ai", "-Ai", "-gi", "-g", "-gu") + " " + name}
		case 2:
			st.Words = []string{name + "+=" + g.word(st, false)}
		case 3:
			st.Words = []string{g.c.pick("a1[n]", "a1[-1]", "a1[2]", "A1[k]", "A1['x y']") + "+=" + g.word(st, false)}
		case 4:
			st.Words = []string{"A1+=([" + g.c.pick("k", "j", "0") + "]=" + g.word(st, false) + ")"}
		case 5:
			st.Words = []string{"mapfile", "-t", name, "<<<", g.word(st, true)}
		case 6:
			st.Words = []string{g.c.pick("declare -g", "declare -gi", "local -i", "local -u"), name + "=" + g.word(st, false)}
		default:
			st.Words = []string{"for", g.scalar(), "in", g.word(st, false) + ";", "do", "echo", "\"$" + name + "\";", "done"}
		}
		st.Sets = []string{name}
	case 27: // shell options and globbing, brace expansion, getopts, eval, case fall-through, printf formats, BASH_REMATCH
		st.Fixed = true
		switch g.c.n(8) {
		case 1:
			st.Words = []string{"shopt -s extglob;", g.c.pick(
				`case "$v1" in @(a|b)*) echo at;; +([a-z/.])) echo plus;; !(*.d)) echo not;; *) echo other;; esac`,
				`echo "${v1//+([a-z])/X}" "${v3/#!(x)/Y}" "${v2##*( )}"`,
				`[[ $v3 == ?(!)+([A-Za-z]) ]] && echo ext`)}
			st.Sets = []string{"v1"} // what the pattern reads
		case 2:
			st.Words = []string{g.c.pick("shopt -s nullglob;", "shopt -s dotglob;", "shopt -s nocasematch;", "shopt -s nocaseglob;", "shopt -u globskipdots;"),
				g.c.pick(`echo f* .* F?;`, `[[ $v3 == *abc* ]] && echo nocase;`, `case $v3 in *ABC) echo up;; esac;`, `for f in [fg]*; do echo "[$f]"; done;`), "true"}
		case 3:
			st.Words = []string{"echo", g.c.pick("{a,b}{1..3}", "{1..10..3}", "{a..e..2}", "x{,y}{,z}", `"${v1}"{1,2}`, "{5..1}", "{-2..2}", `{a,'b c'}`, "{x..z}{1,2}", "{1..3}{a..b}")}
		case 4:
			st.Words = []string{"OPTIND=1;", "while", "getopts", g.c.pick("ab:c", ":ab:", "a:"), "o", g.c.pick("-a -b x -c rest", "-ab y", "-x -a", "-b", "-- -a", `-a "$v2"`) + ";", "do", `echo "$o ${OPTARG-unset}";`, "done;", `echo "ind=$OPTIND"`}
			st.Sets = []string{"o"}
		case 5:
			st.Words = []string{"eval", g.c.pick(`'echo "$v1"'`, `"v1=\$v2"`, `'a1+=(e)'`, `'echo $((n*2))'`, `"echo \"\${#a1[@]}\""`)}
			st.Sets = []string{"v1", "a1"}
		case 6:
			st.Words = []string{`case "$v1" in`, g.c.pick("a*) echo A;&", "*/*) echo S;;&", "*.d) echo D;;&"), g.c.pick("*) echo B;;&", "*b*) echo B;&", "x) echo X;;"), "*) echo C;;", "esac"}
		case 7:
			st.Words = []string{"printf", g.c.pick(`'%5.2f|%-4s|%x|%o|%e|%c|%b\n' 3.14159 ab 255 8 1234.5 xyz 'a\tb'`, `'%*d|%-*s|\n' 5 42 3 z`, `'%s,%s;' 1 2 3`, `'%d %i %u\n' 0x1f 010 -3`, `'%q %q\n' "$v2" "$v3"`, `'[%10.3s][%-6d]\n' abcdef 42`, `'%b\n' '\x41\101\c' after`, `'%s\n'`)}
		default:
			re := g.c.pick(regexps...)
			if g.c.n(3) == 0 {
				// in a variable: a backslash reaches the regular
				// expression (GNU's \w, \s; \d is the letter)
				st.Words = []string{"r1=" + g.c.pick(regexpsInVar...) + ";"}
				st.Sets = []string{"r1"}
				re = "$r1"
			}
			st.Words = append(st.Words, "[[", g.word(st, true), "=~", re, "]]", "&&", "echo", `"${BASH_REMATCH[@]}"`, `"${#BASH_REMATCH[@]}"`, "||", "echo", `"nomatch $? ${#BASH_REMATCH[@]}"`)
		}
	case 28: // more redirections and builtins: noclobber, named fds, <>, &>>, read's options, printf -v into an element, type, command -v
		st.Fixed = true
		switch g.c.n(7) {
		case 1:
			st.Words = []string{"set -C;", "echo", g.word(st, false), "> f1;", "echo st=$?;", "echo y >| f1;", "set +C;", "cat f1"}
		case 2:
			st.Words = []string{"exec {fd}>f2;", "echo", g.word(st, false), `>&$fd;`, "exec {fd}>&-;", g.c.pick("cat f2", `echo "fd=${fd:+set}"`)}
		case 3:
			st.Words = []string{g.c.pick("{ echo a; echo b >&2; } 2>&1 >/dev/null | cat", "echo x &>> f1; cat f1", "cat <> f1", "echo z 1<> f2; cat f2", "{ echo o; echo e >&2; } &> f2; cat f2")}
		case 4:
			st.Words = []string{g.c.pick("read -d , v1 <<< 'a,b'", "read -n 2 v1 <<< abc", "IFS=: read -ra a1 <<< 'a:b::c'", "read -N 3 v1 <<< 'a b c'", "read -r -a a1 -d '' <<< $'x y\nz'", `read v1 v2 <<< "  lead  trail  "`) + ";", `echo "[$v1] [${v2-}] ${#a1[@]} ${a1[*]}"`}
			st.Sets = []string{"v1", "v2", "a1"}
		case 5:
			st.Words = []string{"printf", "-v", g.c.pick("'a1[1]'", "'A1[k]'", "'a1[n+1]'"), "%s", g.word(st, true) + ";", `echo "${a1[*]} ${A1[k]-}"`}
			st.Sets = []string{"a1", "A1"}
		case 6:
			st.Words = []string{g.c.pick("type -t echo cat nosuch", "command -v cat echo nosuch", "type -t f1", "declare -F", "command -V echo")}
		default:
			st.Words = []string{"for ((", g.c.pick("i1=0; i1<3; i1++", "i1=5; i1>0; i1-=2", "; i1<2; i1++", "i1=0, n=1; i1<n+2 && i1<4; i1++, n++"), "));", "do", "echo", `"$i1"`, ";", "done"}
			st.Sets = []string{"i1", "n"}
		}
	default: // echo
		st.Words = append([]string{"echo"}, g.words(st, 3)...)
	}
	g.settle(st)
	return st
}

// ret is `return`, or `exit` where a return would end a subshell outside
// a function while ClassSubshellReturn is avoided.
func (g *gen) ret() string {
	if g.sub && g.avoid(ClassSubshellReturn) {
		return "exit"
	}
	return "return"
}

// callable is how many functions (f1 … fK) a call may name here.
func (g *gen) callable() int {
	if g.bound >= 0 && g.bound < g.funcs {
		return g.bound
	}
	return g.funcs
}

// settle appends `true` to each part of a compound statement whose status
// would come from an && / || list, while ClassCompoundAndOr is avoided.
func (g *gen) settle(st *Stmt) {
	if !g.avoid(ClassCompoundAndOr) || !endsAndOr(st, true) {
		return
	}
	for i := range st.Parts {
		body := st.Parts[i].Body
		n := len(body)
		if n == 0 {
			continue
		}
		if body[n-1].Parts == nil && body[n-1].Words[0] == ";;" {
			st.Parts[i].Body = append(body[:n-1:n-1], &Stmt{Words: []string{"true"}}, body[n-1])
		} else {
			st.Parts[i].Body = append(body, &Stmt{Words: []string{"true"}})
		}
	}
}

// simple is a one-line command for the right side of && / ||.
func (g *gen) simple(st *Stmt) string {
	switch g.c.n(5) {
	case 1:
		return "echo " + g.word(st, false)
	case 2:
		return "false"
	case 3:
		return g.c.pick("v1=set", "n=$((n+1))", g.ret()+" 5", "exit 6")
	case 4:
		return "echo rc=$?"
	}
	return "true"
}

// heredoc makes a command with a here-document.
func (g *gen) heredoc(st *Stmt) {
	g.here++
	delim := fmt.Sprintf("E%d", g.here)
	quotedDelim := g.c.n(3) == 0
	op := g.c.pick("<<", "<<-")
	cmd := g.c.pick("cat", "tr a-z A-Z", "read -r v1", "while read -r l; do echo \"<$l>\"; done")
	head := delim
	if quotedDelim {
		head = g.c.pick("'"+delim+"'", `"`+delim+`"`, `\`+delim)
	}
	fd := ""
	if g.c.n(4) == 0 && !g.avoid(ClassHeredocFd) {
		fd = g.c.pick("0", "3")
		if fd == "3" {
			cmd = "cat" // reads the here-document through `<&3` below
		}
		st.Classes = append(st.Classes, ClassHeredocFd)
	}
	var lines []string
	for range 1 + g.c.n(3) {
		l := g.c.pick("line $v1", "${v2// /_} and $((n+1))", `a \$x \\ "q" 'q'`, "$(echo sub)", "plain", "\ttabbed", "`echo bq`", "${a1[1]}")
		if op == "<<-" && g.c.n(2) == 0 {
			l = "\t" + l
		}
		if op == "<<-" && strings.TrimPrefix(l, "\t") == "${a1[1]}" {
			// A line that is one expansion, maybe empty.
			if g.avoid(ClassDashHeredocEmpty) {
				l = "x" + l
			} else {
				st.Classes = append(st.Classes, ClassDashHeredocEmpty)
			}
		}
		lines = append(lines, l)
	}
	term := delim
	if op == "<<-" && g.c.n(2) == 0 {
		term = "\t" + delim
	}
	st.Words = []string{cmd, fd + op + head}
	if fd == "3" {
		st.Words = append(st.Words, "<&3") // after the here-document's redirection, as bash applies them in order
	}
	if cmd == "read -r v1" {
		st.Words = append(st.Words, "&&", "echo", `"[$v1]"`)
	}
	st.Fixed = true
	st.Heredoc = strings.Join(lines, "\n") + "\n" + term + "\n"
}
