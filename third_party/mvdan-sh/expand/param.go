// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/internal"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/pattern"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

func nodeLit(node syntax.Node) string {
	if word, ok := node.(*syntax.Word); ok {
		return word.Lit()
	}
	return ""
}

// elemZeroSet reports whether an array's element (key) 0 is set; a
// variable that is no array counts as set (jaiph-go patch).
func elemZeroSet(vr Variable) bool {
	switch vr.Kind {
	case Indexed:
		_, ok := vr.IndexedValue(0)
		return ok
	case Associative:
		_, ok := vr.Map["0"]
		return ok
	}
	return true
}

// UnsetParameterError is returned when a parameter expansion encounters an
// unset variable and [Config.NoUnset] has been set.
type UnsetParameterError struct {
	Node    *syntax.ParamExp
	Message string
}

func (u UnsetParameterError) Error() string {
	name := u.Node.Param.Value
	// jaiph-go patch: bash names an unset positional parameter "$N" in
	// its nounset error (but "N" in ${#N} and ${N}).
	if u.Message == "unbound variable" && !u.Node.Length && u.Node.Short && name != "" && strings.Trim(name, "0123456789") == "" {
		name = "$" + name
	}
	if l := nodeLit(u.Node.Index); u.Node.Index != nil && name != "@" && name != "*" &&
		(u.Message != "unbound variable" || l != "@" && l != "*" && !u.Node.Length && u.Node.Dollar.IsValid()) {
		// jaiph-go patch: the error of ${a[i]:?w} (and of ${a[i]}
		// under set -u) names the element as written, as bash does
		// (a[i]: w).
		name += "[" + ArithmSource(u.Node.Index) + "]"
	}
	return fmt.Sprintf("%s: %s", name, u.Message)
}

func overridingUnset(pe *syntax.ParamExp) bool {
	if pe.Exp == nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
		syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull,
		syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return true
	}
	return false
}

// opWord is the word of ${x:-w}, ${x:+w}, ${x:=w} or ${x:?w} as it is
// expanded (jaiph-go patch): inside double quotes a single-quoted part keeps
// its quotes, as in bash ("${u:-'a b'}" is 'a b' with the quotes), and
// backslashes follow double-quote rules.
//
// Inside double quotes bash reads the word as one double-quoted string
// with its embedded double quotes removed (parameter_brace_expand_rhs and
// string_extract_double_quoted with SX_STRIPDQ, for sh compatibility):
// the text `"$w"x` reads as `$wx`, so "${v:+"$w"x}" expands the variable
// wx (empty when unset), "${v:+"a\b"}" is ab (a backslash inside the
// embedded quotes stays only before $ ` " \), and the parser has already
// turned $'…' into its plain text ("${v:+"$w"$'x'}" is $wx too).
func (cfg *Config) opWord(w *syntax.Word) *syntax.Word {
	if !cfg.inDblQuote && !cfg.inHeredoc || w == nil {
		return w
	}
	parts := make([]syntax.WordPart, 0, len(w.Parts))
	for _, p := range w.Parts {
		switch q := p.(type) {
		case *syntax.SglQuoted:
			if q.Dollar {
				// $'…' is its plain text, read as part of the
				// double-quoted string.
				val := ansiCExpand(cfg, q.Value)
				p = &syntax.Lit{ValuePos: q.Left, ValueEnd: q.Right, Value: val}
				if strings.ContainsAny(val, "$`") {
					if doc, err := syntax.NewParser().Document(strings.NewReader(val)); err == nil {
						parts = append(parts, doc.Parts...)
						continue
					}
				}
				break
			}
			lit := &syntax.Lit{ValuePos: q.Left, ValueEnd: q.Right, Value: "'" + q.Value + "'"}
			p = lit
			if strings.ContainsAny(q.Value, "$`") {
				// jaiph-go patch: the text between the quotes is
				// expanded, as in bash ("${u:-'$v'}" is '…' around
				// $v's value).
				if doc, err := syntax.NewParser().Document(strings.NewReader(q.Value)); err == nil {
					parts = append(parts, &syntax.Lit{ValuePos: q.Left, ValueEnd: q.Left, Value: "'"})
					parts = append(parts, doc.Parts...)
					p = &syntax.Lit{ValuePos: q.Right, ValueEnd: q.Right, Value: "'"}
				}
			}
		case *syntax.Lit:
			// jaiph-go patch: a backslash before } is removed, as bash
			// does in the word of "${u-\}}"; the other escapes are the
			// double quotes' own.
			if strings.Contains(q.Value, `\}`) {
				p = &syntax.Lit{ValuePos: q.ValuePos, ValueEnd: q.ValueEnd, Value: dropBackslashes(q.Value, "}")}
			}
		case *syntax.DblQuoted:
			// Quotes inside the quoted word only quote: "${u:-"$@"}"
			// is "${u:-$@}", so its list gives fields. Inside them a
			// backslash before a character other than $ ` " \ is
			// removed.
			for _, ip := range q.Parts {
				if l, ok := ip.(*syntax.Lit); ok && strings.Contains(l.Value, `\`) {
					ip = &syntax.Lit{ValuePos: l.ValuePos, ValueEnd: l.ValueEnd, Value: dropBackslashes(l.Value, "")}
				}
				parts = append(parts, ip)
			}
			continue
		}
		parts = append(parts, p)
	}
	// A $name the removed quotes put before letters, digits or
	// underscores takes them into its name, as in the text bash reads;
	// a $ they put before a name starts an expansion ("a$"w is a$w).
	parts = joinBraceNames(parts)
	for i := 0; i < len(parts); i++ {
		l, ok := parts[i].(*syntax.Lit)
		if !ok || !litStartsExpansion(l.Value) {
			continue
		}
		doc, err := syntax.NewParser().Document(strings.NewReader(l.Value))
		if err != nil {
			continue
		}
		parts = slices.Concat(parts[:i], doc.Parts, parts[i+1:])
		i += len(doc.Parts) - 1
	}
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: parts}}}
}

// litStartsExpansion says s holds an unescaped $ before a name or a
// brace, which the parser never leaves in a literal: joined literals made it.
func litStartsExpansion(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		switch c := s[i+1]; {
		case s[i] == '\\':
			i++
		case s[i] == '$' && (c == '_' || c == '{' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'):
			return true
		}
	}
	return false
}

// dropBackslashes removes the backslashes of s that escape a character of
// only, or, when only is empty, any character but $ ` " \ and newline (the
// escapes double quotes keep).
func dropBackslashes(s, only string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			c := s[i+1]
			drop := strings.IndexByte(only, c) >= 0
			if only == "" {
				drop = strings.IndexByte("$`\"\\\n", c) < 0
			}
			if !drop {
				sb.WriteByte('\\')
			}
			i++
			sb.WriteByte(c)
			continue
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// sliceAssoc slices the values of an associative array as bash does: its
// offsets count from 1, as for positional parameters without $0 (jaiph-go
// patch).
func (cfg *Config) sliceAssoc(pe *syntax.ParamExp, elems []string) []string {
	if pe.Slice == nil {
		return elems
	}
	if b := cfg.listSlice; b.pe == pe && pe.Slice.Length != nil && b.length == 0 {
		// bash's assoc_subrange takes the value at the offset even for
		// a length of 0 (${m[@]:1:0} is one value)
		cfg.listSlice.length = 1
		defer func() { cfg.listSlice.length = 0 }()
	}
	const before = "\x00jaiph: before the first value\x00"
	out := cfg.sliceElems(pe, append([]string{before}, elems...), nil, false)
	if len(out) > 0 && out[0] == before {
		// jaiph-go patch: an offset of 0 starts at the first value
		// with the whole length, as 1 does (${m[@]:0:3} is 3 values).
		out = elems[:min(len(out), len(elems))]
	}
	return out
}

// indirectElem expands ${!ref} whose value names an array element, such as
// a[1] or m[key] (jaiph-go patch); ok is false for any other value.
func (cfg *Config) indirectElem(target string) (string, bool, error) {
	open := strings.IndexByte(target, '[')
	if open <= 0 || !strings.HasSuffix(target, "]") || !syntax.ValidName(target[:open]) {
		return "", false, nil
	}
	if pe := cfg.assocElemParam(target); pe != nil {
		v, err := cfg.paramExp(pe)
		return v, true, err
	}
	w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader("${" + target + "}"))
	if err != nil || len(w.Parts) != 1 {
		return "", false, nil
	}
	pe, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok || pe.Index == nil || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil || pe.Excl || pe.Length {
		return "", false, nil
	}
	v, err := cfg.paramExp(pe)
	return v, true, err
}

// assocElemParam is the element of an associative array that target (the
// value of r in ${!r}) names with a plain key, its text as written (m[a b],
// m[<k>]: the parser reads a subscript as arithmetic), or nil (jaiph-go
// patch).
func (cfg *Config) assocElemParam(target string) *syntax.ParamExp {
	open := strings.IndexByte(target, '[')
	if open <= 0 || !strings.HasSuffix(target, "]") || !syntax.ValidName(target[:open]) || cfg.Env.Get(target[:open]).Kind != Associative {
		return nil
	}
	key := target[open+1 : len(target)-1]
	if key == "" || key == "@" || key == "*" || strings.ContainsAny(key, "$`\\'\"[]") {
		return nil
	}
	return &syntax.ParamExp{
		Param: &syntax.Lit{Value: target[:open]},
		Index: &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: key}}},
	}
}

// indirectTarget parses the parameter that ${!ref…} names, as bash's
// parameter_brace_expand_indir: the value of ref (of ${ref[@]}, joined,
// for ${!ref[@]OP}), with pe's operator moved onto it. ok is false when
// that value is empty; a value that is no parameter name (digits, a
// special parameter, a name or an array element) is bash's fatal "invalid
// variable name" (jaiph-go patch).
func (cfg *Config) indirectTarget(pe *syntax.ParamExp) (*syntax.ParamExp, bool, error) {
	if _, value, err := cfg.indirectRefValue(pe); err != nil || value != refNamesSomething {
		return nil, false, err // paramExp's indirectThroughNothing
	}
	if vr := cfg.Env.Get(pe.Param.Value); vr.Kind == NameRef && vr.Str != "" && pe.Index == nil {
		return nil, false, nil // the name itself (paramExp, indirectNamerefOp)
	}
	ref := *pe
	ref.Excl, ref.Exp, ref.Repl, ref.Slice = false, nil, nil, nil
	target, err := cfg.paramExp(&ref)
	if err != nil || target == "" {
		return nil, false, err
	}
	if tp := cfg.assocElemParam(target); tp != nil {
		tp.Exp, tp.Repl, tp.Slice = pe.Exp, pe.Repl, pe.Slice
		return tp, true, nil
	}
	w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader("${" + target + "}"))
	var tp *syntax.ParamExp
	if err == nil && len(w.Parts) == 1 {
		tp, _ = w.Parts[0].(*syntax.ParamExp)
	}
	if tp == nil || tp.Exp != nil || tp.Repl != nil || tp.Slice != nil || tp.Excl || tp.Length || tp.Width || tp.IsSet || tp.Names != 0 || !validIndirName(tp.Param.Value) {
		if err := cfg.indirSubscriptErr(target); err != nil {
			return nil, false, err
		}
		return nil, false, fmt.Errorf("%s: invalid variable name", target)
	}
	tp.Exp, tp.Repl, tp.Slice = pe.Exp, pe.Repl, pe.Slice
	return tp, true, nil
}

// indirSubscriptErr is bash's error for ${!r} whose value is an element
// with a subscript the parser does not take (r='a[~+]', 'a[b*]'): bash
// evaluates the subscript's text and reports its arithmetic error.
func (cfg *Config) indirSubscriptErr(target string) error {
	open := strings.IndexByte(target, '[')
	sub := target[min(open+1, len(target)):max(len(target)-1, 0)]
	if open <= 0 || !strings.HasSuffix(target, "]") || !syntax.ValidName(target[:open]) || strings.ContainsAny(sub, "\"'") {
		return nil // an unbalanced quote: no element (invalid variable name)
	}
	_, err := ArithmString(cfg, sub)
	return err
}

// indirectThroughNothing expands ${!ref…} whose ref exists but holds no
// parameter name, as bash's parameter_brace_expand_indir (jaiph-go
// patch): with its value unset (declare ref; an array without element 0)
// the expansion is of an unset parameter named !ref (${!ref-w} is w,
// under set -u ${!ref} is "!ref: unbound variable", ${!ref:=w} is an
// invalid indirect expansion); with its value empty it is bash's fatal
// ": invalid variable name". done is false for every other ${!…}.
func (cfg *Config) indirectThroughNothing(pe *syntax.ParamExp) (_ string, done bool, _ error) {
	written, value, err := cfg.indirectRefValue(pe)
	switch {
	case err != nil:
		return "", true, err
	case value == refNamesSomething:
		return "", false, nil
	case value == refEmpty:
		return "", true, fmt.Errorf(": invalid variable name")
	case pe.Exp != nil && (pe.Exp.Op == syntax.AssignUnset || pe.Exp.Op == syntax.AssignUnsetOrNull):
		return "", true, fmt.Errorf("!%s: invalid indirect expansion", written)
	}
	tp := *pe
	tp.Excl, tp.Index = false, nil
	tp.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: "!" + written}
	return cfg.paramExpOf(&tp, Variable{})
}

// paramExpOf expands tp as if its parameter were vr (jaiph-go patch).
func (cfg *Config) paramExpOf(tp *syntax.ParamExp, vr Variable) (string, bool, error) {
	oldParam, oldVar := cfg.forcedParam, cfg.forcedVar
	cfg.forcedParam, cfg.forcedVar = tp, vr
	defer func() { cfg.forcedParam, cfg.forcedVar = oldParam, oldVar }()
	v, err := cfg.paramExp(tp)
	return v, true, err
}

// indirectNamerefOp expands ${!r OP} of a nameref r (declare -n r=x), as
// bash (jaiph-go patch): ${!r} is the name r holds, the value the
// operators take (${!r+s} is s, ${!r@Q} is 'x'), but for a name that is
// an array or an element of one, whose value the operators other than
// the unset/null tests take, as bash's get_var_and_type (${!r#?} of r
// naming an unset a[1] is empty). done is false for everything else.
func (cfg *Config) indirectNamerefOp(pe *syntax.ParamExp) (_ string, done bool, _ error) {
	if !pe.Excl || pe.Names != 0 || pe.Index != nil || pe.Length || pe.Width || pe.IsSet || pe.Exp == nil && pe.Repl == nil && pe.Slice == nil {
		return "", false, nil
	}
	vr := cfg.Env.Get(pe.Param.Value)
	if vr.Kind != NameRef || vr.Str == "" {
		return "", false, nil
	}
	if !overridingUnset(pe) {
		// bash's get_var_and_type: a name that is an array or an
		// element of one gives that element's value to the operator
		if w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader("${" + vr.Str + "}")); err == nil && len(w.Parts) == 1 {
			if tp, ok := w.Parts[0].(*syntax.ParamExp); ok && tp.Exp == nil && tp.Repl == nil && tp.Slice == nil && !tp.Excl && !tp.Length &&
				(tp.Index != nil || cfg.Env.Get(tp.Param.Value).Kind == Indexed || cfg.Env.Get(tp.Param.Value).Kind == Associative) {
				tp.Dollar, tp.Exp, tp.Repl, tp.Slice = pe.Dollar, pe.Exp, pe.Repl, pe.Slice
				noUnset := cfg.NoUnset
				cfg.NoUnset = false // no set -u check on that path in bash
				v, err := cfg.paramExp(tp)
				cfg.NoUnset = noUnset
				return v, true, err
			}
		}
	}
	tp := *pe
	tp.Excl = false
	tp.Param = &syntax.Lit{ValuePos: pe.Param.ValuePos, ValueEnd: pe.Param.ValueEnd, Value: "!" + pe.Param.Value}
	return cfg.paramExpOf(&tp, Variable{Set: true, Kind: String, Str: vr.Str})
}

// refValue is what the value of ref in ${!ref…} is, for
// indirectThroughNothing.
type refValue int

const (
	refNamesSomething refValue = iota // or not a case indirectThroughNothing takes
	refUnset
	refEmpty
)

// indirectRefValue says whether ${!ref…} is an indirection through an
// existing ref whose value is unset or empty, and gives ref as written
// (a[1]). Namerefs, special parameters, lists (${!a[@]}) and a subscript
// that is not a plain number (it is evaluated once, later) are left to
// the general path.
func (cfg *Config) indirectRefValue(pe *syntax.ParamExp) (written string, _ refValue, _ error) {
	// a positional parameter too: unset (${!9} past the last) it is as
	// a declared variable without a value (jaiph-go patch)
	positional := pe.Param != nil && pe.Param.Value != "" && strings.Trim(pe.Param.Value, "0123456789") == ""
	if !pe.Excl || pe.Names != 0 || pe.Length || pe.Width || pe.IsSet || !syntax.ValidName(pe.Param.Value) && !positional {
		return "", refNamesSomething, nil
	}
	written = pe.Param.Value
	if pe.Index != nil {
		sub := ArithmSource(pe.Index)
		if sub == "" || strings.Trim(sub, "0123456789") != "" {
			return "", refNamesSomething, nil
		}
		written += "[" + sub + "]"
	}
	if vr := cfg.peek(pe.Param.Value); !positional && (!vr.Declared() || vr.Kind == NameRef) {
		return "", refNamesSomething, nil
	}
	if pe.Index == nil && cfg.draws(pe.Param.Value) {
		// RANDOM names something (a number), and bash draws one more
		// for ${!RANDOM} than the expansion's own
		cfg.Env.Get(pe.Param.Value)
		return "", refNamesSomething, nil
	}
	ref := &syntax.ParamExp{Dollar: pe.Dollar, Param: pe.Param, Index: pe.Index}
	probe := *ref
	probe.Exp = &syntax.Expansion{Op: syntax.AlternateUnset, Word: &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "x"}}}}
	set, err := cfg.paramExp(&probe)
	if err != nil {
		return "", refNamesSomething, err
	}
	if set == "" {
		return written, refUnset, nil
	}
	v, err := cfg.paramExp(ref)
	if err != nil || v != "" {
		return "", refNamesSomething, err
	}
	return written, refEmpty, nil
}

// validIndirName is a name ${!ref} may hold before any subscript: digits,
// a special parameter or an identifier (bash's valid_brace_expansion_word).
func validIndirName(s string) bool {
	if syntax.ValidName(s) || s != "" && strings.Trim(s, "0123456789") == "" {
		return true
	}
	return len(s) == 1 && strings.Contains("#@*-?$!", s)
}

// indirectOp expands ${!ref OP}, an indirection with an operator
// (${!r:-w}, ${!r#p}, ${!r/p/s}, ${!r:o:l}, ${!r@Q} …): the operator
// applies to the parameter ref names, as in bash (jaiph-go patch: it was
// ignored, ${!r:-w} gave the target's value or nothing). ok is false when
// ref does not name a parameter; the caller then reports it.
func (cfg *Config) indirectOp(pe *syntax.ParamExp) (string, bool, error) {
	if !cfg.Env.Get(pe.Param.Value).IsSet() {
		return "", false, nil
	}
	tp, ok, err := cfg.indirectTarget(pe)
	if !ok || err != nil {
		return "", false, err
	}
	// Reached through ${!r}, a list is null only when it has no elements
	// (bash: r='v[@]'; v=(""); ${!r:-w} is empty, ${v[@]:-w} is w).
	old := cfg.indirectList
	cfg.indirectList = true
	v, err := cfg.paramExp(tp)
	cfg.indirectList = old
	var ue UnsetParameterError
	if errors.As(err, &ue) && ue.Message != "unbound variable" {
		// bash names the indirection in ${!r:?msg}'s message (not
		// the element it names: jaiph-go patch).
		named := *ue.Node
		named.Param, named.Index = &syntax.Lit{Value: "!" + pe.Param.Value}, nil
		err = UnsetParameterError{Node: &named, Message: ue.Message}
	} else if errors.As(err, &ue) && ue.Node == tp {
		// jaiph-go patch: under set -u, an unset target is "!r:
		// unbound variable" whatever the operator (${!r:1}, ${!r#x}).
		named := *ue.Node
		named.Param, named.Index = &syntax.Lit{Value: "!" + pe.Param.Value}, nil
		err = UnsetParameterError{Node: &named, Message: ue.Message}
	}
	return v, true, err
}

func (cfg *Config) paramExp(pe *syntax.ParamExp) (string, error) {
	oldParam := cfg.curParam
	cfg.curParam = pe
	viaIndirect := cfg.indirectList // for this expansion, not nested ones
	cfg.indirectList = false
	defer func() { cfg.curParam, cfg.indirectList = oldParam, viaIndirect }()

	if pe.Param == nil { // e.g. zsh's ${}
		return "", fmt.Errorf("unsupported")
	}
	if v, done, err := cfg.indirectThroughNothing(pe); done {
		return v, err
	}
	if v, done, err := cfg.indirectNamerefOp(pe); done {
		return v, err
	}
	if pe.Excl && pe.Names == 0 && (pe.Exp != nil || pe.Repl != nil || pe.Slice != nil) {
		// jaiph-go patch: ${!a[@]OP} is no list of keys but, as in
		// bash, an indirection through the value of ${a[@]}; an unset
		// a is bash's "a[@]: invalid indirect expansion".
		if l := nodeLit(pe.Index); l == "@" || l == "*" {
			if !cfg.Env.Get(pe.Param.Value).IsSet() {
				return "", fmt.Errorf("%s[%s]: invalid indirect expansion", pe.Param.Value, l)
			}
		}
		if v, ok, err := cfg.indirectOp(pe); ok || err != nil {
			return v, err
		}
	}
	if flags, ok := cfg.declaredListAttrs(pe); ok {
		// jaiph-go patch: ${v[@]@a} of a variable declared without a
		// value is its attributes in every context (an assignment's
		// value, an operator's word: found by the soak, seed 212), as
		// its fields are (quotedElemFields)
		return flags, nil
	}
	name := pe.Param.Value
	index := pe.Index
	switch name {
	case "@", "*":
		index = &syntax.Word{Parts: []syntax.WordPart{
			&syntax.Lit{Value: name},
		}}
	}
	// "*" expansions like ${*}, ${arr[*]}, or ${!prefix*} join their
	// elements with the first IFS character; others use a space.
	join := func(elems []string) string {
		if cfg.atListIFSJoined && nodeLit(index) == "@" {
			r, _ := utf8.DecodeRuneInString(cfg.ifs)
			return strings.Join(elems, string(r))
		}
		if cfg.CondWord && nodeLit(index) == "@" && !pe.Excl && !cfg.inDblQuote && !cfg.inHeredoc &&
			(pe.Slice != nil || pe.Repl != nil || pe.Exp != nil && perElemOp(pe.Exp)) {
			if r, _ := utf8.DecodeRuneInString(cfg.ifs); cfg.ifs != "" && r != ' ' {
				// jaiph-go patch: in [[ ]] and an associative
				// subscript or value bash joins such a list with
				// IFS's first character (string_list_pos_params),
				// splits that at IFS and joins the words with a
				// space (${a[@]^} of (p 'p:x' '') with IFS=: is
				// "P P x": found probing beside the soak's seed 226)
				return strings.Join(ReadFields(cfg, strings.Join(elems, string(r)), -1, true), " ")
			}
		}
		if cfg.starArraysSpaced && nodeLit(index) == "*" && name != "*" {
			return strings.Join(elems, " ") // see condRhsWord
		}
		if cfg.CondWord && cfg.ifs == "" && !cfg.inDblQuote && name == "*" && !pe.Excl && (pe.Slice != nil || pe.Exp != nil && perElemOp(pe.Exp) && pe.Exp.Op != syntax.OtherParamOps) {
			// jaiph-go patch: bash splits such a $* (a slice, a #, %,
			// ^ or , operator) at its spaces in an operand of [[ ]]
			// or an associative subscript with IFS empty, and joins
			// the pieces with a space ([[ ${*:1} == "x y z" ]] of ' x '
			// 'y  z')
			return strings.Join(strings.FieldsFunc(strings.Join(elems, ""), func(r rune) bool { return r == ' ' }), " ")
		}
		if cfg.ifs == "" && !cfg.inDblQuote && !cfg.inHeredoc && !cfg.NoSplitStar && !cfg.listElemValue &&
			(cfg.DeclArg || cfg.assignRHS || cfg.inAssign) && spaceJoinedStar(pe, name, index) {
			// jaiph-go patch: with IFS null, a value not split
			// while Config.NoSplitStar is clear (a declaration
			// builtin's argument, the word of ${u:-w} in an
			// assignment's value) gets $* and the "*" lists bash
			// makes with string_list_pos_params as separate words,
			// which it joins with spaces (declare c=$* is "a b",
			// c=$* is "ab"; ${a[*]} stays "ab").
			return strings.Join(elems, " ")
		}
		if cfg.inHeredoc && spaceJoinedStar(pe, name, index) && (name != "*" || pe.Repl == nil) &&
			!(cfg.NoSplitStar && cfg.ifs == "" && pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps) {
			// jaiph-go patch: bash joins the positional parameters
			// of a here-document's $* with spaces, whatever IFS,
			// and so the lists string_list_pos_params makes there
			// (an array's ${a[*]} with IFS's first character, as
			// ${*/a/A}; with expand_no_split_dollar_star set and
			// IFS empty, ${*@Q} joins with nothing)
			return strings.Join(elems, " ")
		}
		if cfg.ifs == "" && cfg.listElemValue && !cfg.inDblQuote && (name == "*" || nodeLit(index) == "*") {
			// jaiph-go patch: so is an unquoted $* or ${a[*]} as the
			// value of an indexed list's [k]=v (an associative
			// list's value joins with nothing, as c=$*).
			return strings.Join(elems, " ")
		}
		if nodeLit(index) == "*" || pe.Names == syntax.NamesPrefix {
			return cfg.ifsJoin(elems)
		}
		if nodeLit(index) == "@" && (cfg.listElemValue || cfg.assignRHS && cfg.inDblQuote && perElemList(pe) || stringListAtOp(pe) &&
			!cfg.inDblQuote && !cfg.inHeredoc && (cfg.assignRHS || cfg.inAssign || cfg.DeclArg) && !cfg.CondWord && !cfg.CaseWord) {
			// jaiph-go patch: see JoinedLiteral, ListElemLiteral; and
			// unquoted in an assignment's or a declaration's value or
			// a here-string, an "@" list with an @ or # % operator
			// (bash's string_list_pos_params: x=${a[@]@Q} with IFS=:
			// is 'p':'q', found probing beside the soak's seed 226).
			sep := " "
			if r, _ := utf8.DecodeRuneInString(cfg.ifs); cfg.ifs != "" {
				sep = string(r)
			}
			return strings.Join(elems, sep)
		}
		return strings.Join(elems, " ")
	}
	var vr Variable
	switch name {
	case "LINENO":
		if cfg.LinenoPlain {
			vr = cfg.Env.Get(name) // jaiph-go patch: unset once, ordinary
			break
		}
		// This is the only parameter expansion that the environment
		// interface cannot satisfy.
		line := uint64(cfg.curParam.Pos().Line())
		vr = Variable{Set: true, Kind: String, Str: strconv.FormatUint(line, 10)}
	default:
		if pe == cfg.forcedParam {
			vr = cfg.forcedVar
		} else {
			if pe.Excl && pe.Names != 0 && cfg.draws(name) {
				vr = cfg.peek(name) // ${!RANDOM@} lists names: no number
			} else {
				vr = cfg.Env.Get(name)
				if cfg.draws(name) {
					vr = cfg.bashDraws(pe, vr)
				}
			}
		}
	}
	orig := vr
	if vr.Kind == NameRef && cfg.Warn != nil && nameRefLoop(cfg.Env, vr) {
		// jaiph-go patch: namerefs naming each other read as empty
		// with bash's warning.
		cfg.Warn(fmt.Sprintf("warning: %s: circular name reference", name))
	}
	if n, v := vr.Resolve(cfg.Env); n != "" {
		name, vr = n, v
		if elem := elemRefParam(n, pe); elem != nil && !v.Declared() {
			// jaiph-go patch: a nameref to an array element
			// (declare -n r='a[1]') reads the element, unless a
			// variable has that name (bash: a declaration through
			// the nameref in a function makes one).
			return cfg.namerefElem(pe, elem)
		}
		if pe.Length && pe.Index == nil && strings.HasSuffix(n, "]") && !v.Declared() {
			// jaiph-go patch: bash's ${#r} of a nameref to an
			// element looks for a variable of that name: 0; under
			// set -u it takes the length of "$r" instead.
			short := *pe
			short.Length, short.Short = false, true
			elem := elemRefParam(n, &short)
			if !cfg.NoUnset || elem == nil {
				return "0", nil
			}
			s, err := cfg.namerefElem(&short, elem)
			return strconv.Itoa(utf8.RuneCountInString(s)), err
		}
	}
	// jaiph-go patch: ${!prefix*}, ${!name[@]} and ${!name} are not
	// unbound (the last fails as an invalid indirect expansion).
	// jaiph-go patch: nor is ${u[@]} or ${u[*]} (their length is).
	if l := nodeLit(pe.Index); cfg.NoUnset && !vr.IsSet() && !overridingUnset(pe) && !pe.Excl &&
		(pe.Length || l != "@" && l != "*") {
		// jaiph-go patch: bash evaluates the subscript of an unset
		// indexed array first: `${a[k]}` with k unset too reports k.
		if pe.Index != nil && l != "@" && l != "*" && vr.Kind != Associative && !pe.Length {
			if _, err := Arithm(cfg, pe.Index); err != nil {
				return "", err
			}
		}
		return "", UnsetParameterError{
			Node:    pe,
			Message: "unbound variable",
		}
	}

	if cfg.NoUnset && pe.Length && pe.Index != nil && vr.Kind == String {
		// jaiph-go patch: the length of an element of a variable that is
		// no array is unbound under set -u, whatever the subscript
		// (${#s[@]}, ${#s[0]} of s=abc), as bash's
		// array_length_reference reports it.
		return "", UnsetParameterError{Node: pe, Message: "unbound variable"}
	}

	// A list's offset and length are evaluated here (a string's once its
	// value is known, below).
	if err := cfg.listSliceLength(pe); err != nil {
		return "", err
	}

	var (
		str   string
		elems []string

		indexAllElements bool // true if var has been accessed with * or @ index
		callVarInd       = true
		set              = vr.IsSet()
	)

	switch nodeLit(index) {
	case "@", "*":
		switch vr.Kind {
		case Unknown:
			elems = nil
			indexAllElements = true
		case Indexed:
			indexAllElements = true
			callVarInd = false
			elems = cfg.sliceElems(pe, vr.List, vr.Indexes, name == "@" || name == "*")
			str = join(elems)
		case Associative:
			// jaiph-go patch: ${#a[@]} counted one element for an
			// associative array; list its values like bash does.
			indexAllElements = true
			callVarInd = false
			elems = cfg.sliceAssoc(pe, vr.AssocValues())
			str = join(elems)
		case String:
			// jaiph-go patch: a plain variable is an array of one
			// element, as in bash (${s[@]}, ${#s[@]}); sliced, it is
			// the string (${s[@]:1:2} is ${s:1:2}).
			if pe.Slice != nil {
				break // varInd gives the string, sliced below
			}
			callVarInd = false
			indexAllElements = true
			if vr.IsSet() {
				elems = []string{vr.Str}
			}
			str = join(elems)
		}
	}
	if callVarInd && pe.Length && index != nil && !vr.IsSet() {
		// jaiph-go patch: ${#a[k]} of a variable unset or declared
		// without a value is 0, k not evaluated (bash's
		// array_length_reference: `${#a[1/0]}` is no error there).
		callVarInd = false
	}
	if callVarInd {
		var err error
		raw := ""
		if index == pe.Index {
			raw = pe.IndexRaw
		}
		str, set, err = cfg.varInd(vr, index, raw)
		if errors.Is(err, ErrBadSubscript) {
			// jaiph-go patch: bash names the array, reports the error
			// and expands to nothing (exiting under errexit).
			err = fmt.Errorf("%s: %w", name, err)
			if pe.Length {
				// ${#a[-9]}: nothing for an unset variable, else
				// fatal, named by the subscript as bash does.
				err = nil
				if vr.IsSet() {
					err = fmt.Errorf("%s]: %w", ArithmSource(index), ErrBadLengthSubscript)
				}
			} else if cfg.ReportError != nil {
				if err = cfg.ReportError(err); err == nil {
					str, set = "", false
				}
			}
		}
		if err != nil {
			return "", err
		}
	}
	if cfg.NoUnset && callVarInd && !set && vr.IsSet() && !indexAllElements &&
		(index != nil && !pe.Length || index == nil && (vr.Kind == Indexed || vr.Kind == Associative) && !attrsOp(pe)) &&
		!overridingUnset(pe) && !pe.Excl && pe.Dollar.IsValid() {
		// jaiph-go patch: under set -u an unset element of a set
		// variable is unbound too (${a[1]} of a=(x), ${s[1]} of a
		// string; $a, ${#a} of an array without element 0), as in
		// bash; ${#a[1]} is 0, and in arithmetic (a bare a[1], no $)
		// it is 0.
		return "", UnsetParameterError{Node: pe, Message: "unbound variable"}
	}
	if !indexAllElements {
		elems = []string{str}
	}

	switch {
	case pe.Length:
		n := len(elems)
		switch nodeLit(index) {
		case "@", "*":
		default:
			n = utf8.RuneCountInString(str)
		}
		str = strconv.Itoa(n)
	case pe.Excl:
		var strs []string
		switch {
		case pe.Names != 0:
			strs = cfg.namesByPrefix(pe.Param.Value)
		case indexAllElements && vr.Kind == Indexed: // jaiph-go patch: ${!a[1]} is indirection
			strs = vr.indexedKeys()
		case indexAllElements && vr.Kind == Associative:
			strs = vr.AssocKeys()
		case indexAllElements && vr.Kind == String:
			if vr.IsSet() {
				strs = []string{"0"}
			}
		case indexAllElements && !vr.IsSet():
			// jaiph-go patch: the keys of an unset variable are none,
			// as in bash (it failed with "invalid indirect expansion").
		case orig.Kind == NameRef && orig.Str == "":
			// jaiph-go patch: a nameref naming nothing (declare -n r)
			// is bash's invalid indirect expansion.
			return "", fmt.Errorf("%s: invalid indirect expansion", pe.Param.Value)
		case orig.Kind == NameRef:
			strs = append(strs, orig.Str)
		case !vr.IsSet():
			// jaiph-go patch: bash names the parameter.
			return "", fmt.Errorf("%s: invalid indirect expansion", pe.Param.Value)
		case str == "":
			return "", nil
		default:
			// jaiph-go patch: the target may name an element
			// (ref='a[1]', ref='m[k]'), as in bash.
			if v, ok, err := cfg.indirectElem(str); ok {
				var ue UnsetParameterError
				if errors.As(err, &ue) && ue.Message == "unbound variable" {
					// jaiph-go patch: bash names the
					// indirection (!r), not the element.
					named := *pe
					named.Param = &syntax.Lit{Value: "!" + pe.Param.Value}
					return "", UnsetParameterError{Node: &named, Message: ue.Message}
				}
				if err != nil {
					return "", err
				}
				strs = append(strs, v)
				break
			}
			// jaiph-go patch: as bash, a value naming no parameter
			// is fatal; LINENO, @ and * are expanded here.
			if !validIndirName(str) {
				if err := cfg.indirSubscriptErr(str); err != nil {
					return "", err
				}
				return "", fmt.Errorf("%s: invalid variable name", str)
			}
			switch {
			case str == "LINENO" && cfg.LinenoPlain:
				strs = append(strs, cfg.Env.Get(str).String())
			case str == "LINENO":
				strs = append(strs, strconv.Itoa(int(pe.Pos().Line())))
			case str == "@" || str == "*":
				vr = cfg.Env.Get(str)
				if str == "*" {
					strs = append(strs, cfg.ifsJoin(vr.List))
				} else {
					strs = append(strs, strings.Join(vr.List, " "))
				}
			default:
				vr = cfg.Env.Get(str)
				if n, v := vr.Resolve(cfg.Env); n != "" {
					// jaiph-go patch: the target is a nameref: what it
					// names (declare -n v2=A1; p=v2; ${!p} is $A1).
					if ev, ok, err := cfg.indirectElem(n); ok {
						if err != nil {
							return "", err
						}
						strs = append(strs, ev)
						break
					}
					vr = v
				}
				if cfg.NoUnset && !overridingUnset(pe) && (!vr.IsSet() || !elemZeroSet(vr)) {
					// jaiph-go patch: under set -u an unset
					// target is bash's "!r: unbound variable";
					// so is an array target whose element (key)
					// 0 is unset, as $a is.
					named := *pe
					named.Param = &syntax.Lit{Value: "!" + pe.Param.Value}
					return "", UnsetParameterError{Node: &named, Message: "unbound variable"}
				}
				strs = append(strs, vr.String())
			}
		}
		str = join(strs)
	case pe.Width:
		return "", fmt.Errorf("unsupported")
	case pe.IsSet:
		return "", fmt.Errorf("unsupported")
	case pe.Slice != nil:
		if callVarInd {
			// The offset and length are in characters, not bytes.
			// jaiph-go patch: as in bash, a negative length counts
			// back from the end of the whole value, and an end before
			// the start is the fatal "substring expression < 0".
			// An invalid UTF-8 byte is one character, as in bash
			// ([]rune made it a 3-byte U+FFFD).
			// jaiph-go patch: as in bash's verify_substring_values,
			// an unset value is empty before the offset is evaluated,
			// and an offset past either end is empty before the length
			// is (${u:1:-1}, ${v:4:-1} of abc: empty, not an error).
			if !set {
				str = ""
				break
			}
			offs := charOffsets(str)
			n := len(offs) - 1
			start := 0
			if pe.Slice.Offset != nil {
				var err error
				if start, err = cfg.sliceArith(pe, pe.Slice.Offset); err != nil {
					return "", err
				}
			}
			if start < 0 {
				start += n
			}
			if start < 0 || start > n {
				str = ""
				cfg.sliceOutside = true
				break
			}
			end := n
			if pe.Slice.Length != nil {
				sliceLen, err := cfg.sliceArith(pe, pe.Slice.Length)
				if err != nil {
					return "", err
				}
				if sliceLen < 0 {
					end = n + sliceLen
					if end < start {
						return "", fmt.Errorf("%s: substring expression < 0", sliceLenText(pe))
					}
				} else if sliceLen < n-start {
					end = start + sliceLen
				}
			}
			str = str[offs[start]:offs[end]]
		} // else, elems are already sliced
	case pe.Repl != nil:
		// jaiph-go patch: an unset parameter stays empty, as in bash
		// (${u/*/w} was w), where a set empty one is replaced.
		if !indexAllElements && !set || indexAllElements && len(elems) == 0 {
			str = "" // jaiph-go patch: and its words are not expanded
			break
		}
		elems, err := cfg.replaceElems(pe.Repl, elems)
		if err != nil {
			return "", err
		}
		str = join(elems)
	case pe.Exp != nil:
		// jaiph-go patch: a list ($@, $*, ${a[@]}, ${a[*]}) is set when
		// it has elements, and null when its elements joined are empty:
		// joined with IFS's first character for a quoted "*", else with
		// a space (bash: set -- "" ""; IFS=; ${*:-w} is empty, "${*:-w}"
		// is w).
		null := str == ""
		if indexAllElements {
			set = len(elems) > 0
			switch star := nodeLit(index) == "*"; {
			case viaIndirect:
				null = !set
			case (cfg.assignRHS || cfg.inAssign) && !cfg.inDblQuote && !cfg.inHeredoc && !(star && name == "*" && cfg.ifs == ""):
				// bash's quoted null: unquoted in an assignment's
				// value a list with an element is a string, not
				// null (x=${a[@]:-w} with a=("") is empty); $* with
				// IFS empty joins its elements without them
				null = !set
			case star && name == "*" && cfg.ifs == "" && !cfg.inDblQuote && !cfg.inHeredoc && cfg.NoSplitStar:
				// $* with IFS empty in an assignment's value: its
				// elements joined with nothing (x=${*:-w} of two
				// empty ones is w; in a declaration's value or a
				// here-document they are joined with a space)
				null = cfg.ifsJoin(elems) == ""
			case star && (cfg.inDblQuote || cfg.inHeredoc && name != "*"):
				null = cfg.ifsJoin(elems) == ""
			default:
				null = strings.Join(elems, " ") == ""
			}
		}
		// jaiph-go patch: the word of ${x:-w}, ${x:+w}, ${x:=w} and ${x:?w}
		// is expanded only when it is used (${x:-$((i++))} leaves i alone
		// when x is set), inside double quotes with their rules.
		var arg string
		if overridingUnset(pe) {
			used := false
			switch pe.Exp.Op {
			case syntax.AlternateUnsetOrNull:
				used = !null
			case syntax.AlternateUnset:
				used = set
			case syntax.DefaultUnset, syntax.ErrorUnset, syntax.AssignUnset:
				used = !set
			default:
				used = null
			}
			if used {
				var err error
				expandWord := Literal
				if cfg.inAssign && !cfg.inDblQuote {
					// jaiph-go patch: in an assignment's value the
					// word has the assignment's tilde rules too
					// (v=${u-~:~}).
					expandWord = assignLiteral
				}
				switch pe.Exp.Op {
				case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
					return "", cfg.errorOpError(pe)
				case syntax.AssignUnset, syntax.AssignUnsetOrNull:
					// jaiph-go patch: the word of ${u:=w} is a
					// value assigned: a quoted "${a[@]/t/T}" in it
					// joins with IFS's first character, as in
					// u="${a[@]/t/T}" (JoinedLiteral).
					old := cfg.assignRHS
					cfg.assignRHS = true
					defer func() { cfg.assignRHS = old }()
				}
				restore := cfg.setNoSplitStar(cfg.rhsNoSplitStar(pe.Exp.Op))
				if (cfg.CondWord || cfg.CaseWord) && !cfg.NoSplitStar && !cfg.inDblQuote && !cfg.inHeredoc && hasStarList(pe.Exp.Word) {
					arg, err = cfg.condRhsWord(pe.Exp.Word)
				} else {
					arg, err = expandWord(cfg, cfg.opWord(pe.Exp.Word))
				}
				restore()
				if err != nil {
					return "", err
				}
			}
		} else {
			// jaiph-go patch: the pattern of # and % is expanded once,
			// below, and only when the value is not empty (a list:
			// has elements), that of ^ and , when the parameter is
			// set, as bash does (${v#$(cmd)} ran cmd twice, ${u^$(cmd)}
			// once)
			var err error
			switch pe.Exp.Op {
			case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
				if indexAllElements && len(elems) == 0 || !indexAllElements && !set {
					break
				}
				fallthrough
			default:
				restore := cfg.setNoSplitStar(true) // a pattern, as Pattern
				arg, err = Literal(cfg, pe.Exp.Word)
				restore()
				if err != nil {
					return "", err
				}
			}
		}
		switch op := pe.Exp.Op; op {
		case syntax.AlternateUnsetOrNull:
			if null {
				str = ""
				break
			}
			fallthrough
		case syntax.AlternateUnset:
			if set {
				str = arg
			} else {
				str = ""
			}
		case syntax.DefaultUnset:
			if set {
				break
			}
			fallthrough
		case syntax.DefaultUnsetOrNull:
			if null {
				str = arg
			}
		case syntax.ErrorUnset:
			if set {
				break
			}
			fallthrough
		case syntax.ErrorUnsetOrNull:
			if str == "" && (!indexAllElements || null) {
				return "", cfg.errorOpError(pe)
			}
		case syntax.AssignUnset:
			if set {
				break
			}
			fallthrough
		case syntax.AssignUnsetOrNull:
			if indexAllElements && !null {
				break // a list's value, not assigned
			}
			if indexAllElements {
				str = "" // null: assigned, or the error below
			}
			if str == "" && !syntax.ValidName(name) && !(orig.Kind == NameRef && vr.Declared()) {
				// (a nameref's variable named as an element, a[1],
				// which a declaration through it made in a function,
				// is assigned as bash's find_variable finds it)
				if viaIndirect {
					// jaiph-go patch: through ${!r:=x} (r=1, r=@),
					// bash's check of the name to assign.
					return "", fmt.Errorf("%s: invalid variable name", name)
				}
				// jaiph-go patch: bash's fatal error for ${1:=x}.
				return "", fmt.Errorf("$%s: cannot assign in this way", name)
			}
			if str == "" && indexAllElements {
				// ${a[@]:=w} (through a nameref too) assigns a[@]
				// itself: bash's assign_array_element refuses it, an
				// assignment error as a readonly variable's (it
				// assigned element 0)
				return "", DefaultAssignError{fmt.Errorf("%s[%s]: %w", name, nodeLit(index), ErrBadSubscript)}
			}
			if str == "" {
				if err := cfg.assignElem(name, vr, index, arg); err != nil {
					return "", DefaultAssignError{err}
				}
				str = arg
				if index == nil && (vr.Integer || vr.Upper || vr.Lower) {
					// jaiph-go patch: the value as the attributes
					// made it (declare -i n; ${n:=1+2} is 3), an
					// array's element 0 (key "0") for an array
					// (declare -Ai m; ${m=hi} is 0)
					str = cfg.Env.Get(name).String()
					if vr.Kind == Indexed || vr.Kind == Associative {
						zero := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "0"}}}
						if v, err := cfg.paramExp(&syntax.ParamExp{Param: &syntax.Lit{Value: name}, Index: zero}); err == nil {
							str = v
						}
					}
				}
			}
		case syntax.RemSmallPrefix, syntax.RemLargePrefix,
			syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			// jaiph-go patch: the operand is a pattern whose quoted
			// parts match literally (upstream expanded it as a literal).
			if indexAllElements && len(elems) == 0 || !indexAllElements && str == "" {
				str = "" // nothing to remove from: not expanded
				break
			}
			pat, err := Pattern(cfg, pe.Exp.Word)
			if err != nil {
				return "", err
			}
			str = join(cfg.removePatternElems(op, pat, elems))
		case syntax.UpperFirst, syntax.UpperAll,
			syntax.LowerFirst, syntax.LowerAll:
			str = join(cfg.caseConvElems(op, arg, elems))
		case syntax.OtherParamOps:
			// jaiph-go patch: @a and @A describe the variable a nameref
			// names (nothing for one naming none), as bash.
			attrs := vr
			if orig.Kind == NameRef && vr.Kind == NameRef {
				attrs = Variable{}
			}
			if indexAllElements && arg == "A" && (vr.Kind == Indexed || vr.Kind == Associative) {
				// jaiph-go patch: bash's declare statement for the array
				// (only its attributes while it has no value).
				var sb strings.Builder
				flags := attrs.Flags()
				if kind := map[ValueKind]string{Indexed: "a", Associative: "A"}[vr.Kind]; !strings.Contains(flags, kind) {
					flags = kind + flags
				}
				sb.WriteString("declare -" + flags + " " + name)
				if vr.IsSet() {
					sb.WriteString("=(")
					if vr.Kind == Associative {
						for _, k := range vr.AssocKeys() {
							key := k
							if ContainsShellMetas(k) || k == "@" || ANSICShouldQuote(k) { // jaiph-go patch: bash quotes the key @ as it does *
								key = dqDeclare(k)
							}
							sb.WriteString("[" + key + "]=" + dqDeclare(vr.Map[k]) + " ")
						}
					} else {
						for i, k := range vr.indexedKeys() {
							if i > 0 {
								sb.WriteByte(' ')
							}
							v, _ := vr.IndexedValue(atoiOr0(k))
							sb.WriteString("[" + k + "]=" + dqDeclare(v))
						}
					}
					sb.WriteString(")")
				}
				str = sb.String()
				break
			}
			if indexAllElements && perElemAtOp(arg) {
				// jaiph-go patch: ${a[@]@Q} quotes each element.
				out := make([]string, len(elems))
				flags := attrs.Flags()
				if p := pe.Param.Value; p == "@" || p == "*" {
					flags = "" // jaiph-go patch: positionals have no attributes (bash: ${@@a} is empty)
				}
				for i, e := range elems {
					out[i] = cfg.atOp(arg, e, flags)
				}
				str = join(out)
				break
			}
			switch arg {
			case "Q":
				// jaiph-go patch: bash's own quoting style; an unset
				// variable quotes to nothing.
				if set {
					str = bashQuoteQ(str)
				}
			case "E":
				str = ansiCExpand(cfg, str)
			case "a":
				// ${var@a} returns variable attribute flags.
				str = attrs.Flags()
			case "A":
				// ${var@A} returns a declare statement that recreates the variable.
				flags := attrs.Flags()
				quoted := bashQuoteQ(str) // jaiph-go patch
				if !set && flags != "" {
					// jaiph-go patch: a variable declared without a
					// value (declare -i n) is its attributes, as bash.
					str = fmt.Sprintf("declare -%s %s", flags, name)
				} else if !set {
					str = ""
				} else if flags == "" {
					str = fmt.Sprintf("%s=%s", name, quoted)
				} else {
					str = fmt.Sprintf("declare -%s %s=%s", flags, name, quoted)
				}
			case "P":
				str = cfg.promptExpand(str) // jaiph-go patch
			case "U":
				str = MapCase(str, unicode.ToUpper)
			case "u":
				// jaiph-go patch: the rest is kept byte for byte
				// ([]rune made an invalid UTF-8 byte U+FFFD).
				if r, size := utf8.DecodeRuneInString(str); size > 1 || r != utf8.RuneError {
					str = string(unicode.ToUpper(r)) + str[size:]
				}
			case "L":
				str = MapCase(str, unicode.ToLower)
			case "K", "k":
				// TODO: implement, like @A but listing keys for assoc arrays.
			default:
				panic(fmt.Sprintf("unexpected @%s param expansion", arg))
			}
		}
	}
	if cfg.interrupted() {
		return "", ErrInterrupted // a pattern operation gave up
	}
	return str, nil
}

func removePattern(str, pat string, fromEnd, shortest, extGlob bool, done <-chan struct{}) string {
	var mode pattern.Mode
	if extGlob { // jaiph-go patch: shopt -s extglob applies here too
		mode |= pattern.ExtendedOperators
	}
	if shortest {
		mode |= pattern.Shortest
	}
	if internal.UseGmatch(pat, extGlob) || !utf8.ValidString(str) {
		// jaiph-go patch: bash's own search and matcher (a string
		// that is no valid UTF-8 is matched byte by byte)
		return internal.RemovePattern(str, pat, fromEnd, shortest, extGlob, done)
	}
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return str
	}
	switch {
	case fromEnd && shortest:
		// use .* to get the right-most shortest match
		expr = ".*(" + expr + ")$"
	case fromEnd:
		// simple suffix
		expr = "(" + expr + ")$"
	default:
		// simple prefix
		expr = "^(" + expr + ")"
	}
	// no need to check error as Translate returns one
	rx := regexp.MustCompile(expr)
	if loc := rx.FindStringSubmatchIndex(str); loc != nil {
		// remove the original pattern (the submatch)
		str = str[:loc[2]] + str[loc[3]:]
	}
	return str
}

// The helpers below never modify elems in place, as it may alias a
// variable's list of elements.

// perElemOps applies pattern removal, replacement, or case conversion to
// each element, leaving them unchanged for any whole-expansion operator.
func (cfg *Config) perElemOps(pe *syntax.ParamExp, elems []string) ([]string, error) {
	if len(elems) == 0 {
		return elems, nil // jaiph-go patch: bash expands no word for no element
	}
	switch {
	case pe.Repl != nil:
		return cfg.replaceElems(pe.Repl, elems)
	case pe.Exp != nil:
		restore := cfg.setNoSplitStar(true) // a pattern, as Pattern
		arg, err := Literal(cfg, pe.Exp.Word)
		restore()
		if err != nil {
			return nil, err
		}
		switch op := pe.Exp.Op; op {
		case syntax.RemSmallPrefix, syntax.RemLargePrefix,
			syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			return cfg.removePatternElems(op, arg, elems), nil
		case syntax.UpperFirst, syntax.UpperAll,
			syntax.LowerFirst, syntax.LowerAll:
			return cfg.caseConvElems(op, arg, elems), nil
		case syntax.OtherParamOps:
			// jaiph-go patch: "${a[@]@Q}" and the like transform each
			// element, as in bash.
			if perElemAtOp(arg) {
				flags := cfg.listVar(pe.Param.Value).Flags()
				if p := pe.Param.Value; p == "@" || p == "*" {
					flags = "" // jaiph-go patch: as above
				}
				out := make([]string, len(elems))
				for i, e := range elems {
					out[i] = cfg.atOp(arg, e, flags)
				}
				return out, nil
			}
		}
	}
	return elems, nil
}

// atoiOr0 is strconv.Atoi without the error.
func atoiOr0(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// dqDeclare quotes a value as bash's declare -p does: in double quotes, or
// $'…' when it holds a control character (jaiph-go patch: ${a[@]@A} of an
// element with a newline was written in double quotes: found by the soak,
// seed 224).
func dqDeclare(s string) string {
	if ANSICShouldQuote(s) {
		return ANSICQuote(s)
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\\', '$', '`':
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	sb.WriteByte('"')
	return sb.String()
}

// perElemList: a list expansion ${a[@]…} whose operator applies to each
// element (or a slice of it, or its keys), not a default or alternative
// (jaiph-go patch).
func perElemList(pe *syntax.ParamExp) bool {
	if pe.Length || pe.Width || pe.IsSet {
		return false
	}
	if pe.Slice != nil || pe.Repl != nil || pe.Excl && pe.Names == 0 {
		return true
	}
	return pe.Exp != nil && perElemOp(pe.Exp)
}

// stringListAtOp says pe's operator is one bash joins an "@" list's
// results for with string_list_pos_params: a transformation (@Q, @U…) or
// the removal of a prefix or suffix (jaiph-go patch).
func stringListAtOp(pe *syntax.ParamExp) bool {
	if pe.Exp == nil || pe.Excl || pe.Repl != nil || pe.Slice != nil {
		return false
	}
	switch pe.Exp.Op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		return true
	case syntax.OtherParamOps:
		return perElemAtOp(pe.Exp.Word.Lit())
	}
	return false
}

// spaceJoinedStar says the "*" list pe is one bash joins with spaces in a
// value not split with IFS null and expand_no_split_dollar_star clear
// (jaiph-go patch, see paramExp's join): $* with any operator but a case
// conversion, an array's ${a[*]:n}, ${a[*]#p}, ${a[*]%p} and ${a[*]@op},
// and its keys ${!a[*]}.
func spaceJoinedStar(pe *syntax.ParamExp, name string, index syntax.ArithmExpr) bool {
	caseConv := false
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
			caseConv = true
		}
	}
	switch {
	case name == "*" && !pe.Excl:
		return !caseConv
	case nodeLit(index) != "*":
		return false
	case pe.Excl:
		return pe.Names == 0
	}
	return pe.Slice != nil || pe.Exp != nil && !caseConv && perElemOp(pe.Exp)
}

// perElemOp: an operator applied to each element of a list (jaiph-go
// patch).
func perElemOp(exp *syntax.Expansion) bool {
	switch exp.Op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix,
		syntax.RemSmallSuffix, syntax.RemLargeSuffix,
		syntax.UpperFirst, syntax.UpperAll,
		syntax.LowerFirst, syntax.LowerAll:
		return true
	case syntax.OtherParamOps:
		return perElemAtOp(exp.Word.Lit())
	}
	return false
}

// attrsOp: ${x@a} or ${x@A}, which describe the variable, not a value.
func attrsOp(pe *syntax.ParamExp) bool {
	if pe.Exp == nil || pe.Exp.Op != syntax.OtherParamOps {
		return false
	}
	op := pe.Exp.Word.Lit()
	return op == "a" || op == "A"
}

// perElemAtOp: the ${x@OP} operators that apply to each element of a list.
func perElemAtOp(op string) bool {
	switch op {
	case "Q", "E", "a", "P", "U", "u", "L":
		return true
	}
	return false
}

// atOp applies ${x@OP} to one value; flags are the variable's attributes.
func (cfg *Config) atOp(op, str, flags string) string {
	switch op {
	case "Q":
		// jaiph-go patch: bash's own quoting style.
		return bashQuoteQ(str)
	case "E":
		return ansiCExpand(cfg, str)
	case "a":
		return flags
	case "P":
		return cfg.promptExpand(str)
	case "U":
		return MapCase(str, unicode.ToUpper)
	case "u":
		// jaiph-go patch: the rest is kept byte for byte
		// ([]rune made an invalid UTF-8 byte U+FFFD).
		if r, size := utf8.DecodeRuneInString(str); size > 1 || r != utf8.RuneError {
			return string(unicode.ToUpper(r)) + str[size:]
		}
		return str
	case "L":
		return MapCase(str, unicode.ToLower)
	}
	return str
}

// replaceElems applies a ${var/pattern/repl} replacement to each element.
func (cfg *Config) replaceElems(repl *syntax.Replace, elems []string) ([]string, error) {
	orig, anchor, err := cfg.replPattern(repl)
	if err != nil {
		return nil, err
	}
	// jaiph-go patch: bash expands the replacement whether or not the
	// pattern is empty or matches (${v//$p/$(cmd)} runs cmd)
	with, err := cfg.replWith(repl.With)
	if err != nil {
		return nil, err
	}
	if anchor != 0 {
		var mode pattern.Mode
		if cfg.ExtGlob {
			mode |= pattern.ExtendedOperators
		}
		if cfg.NoCaseMatch { // jaiph-go patch, see Config.NoCaseMatch
			mode |= pattern.NoGlobCase
		}
		if internal.UseGmatchSearch(orig, cfg.ExtGlob) || slices.ContainsFunc(elems, func(e string) bool { return !utf8.ValidString(e) }) {
			// jaiph-go patch: bash's own search and matcher
			mtype := internal.MatchBeg
			if anchor == '%' {
				mtype = internal.MatchEnd
			}
			out := make([]string, len(elems))
			for i, elem := range elems {
				out[i] = elem
				if lo, hi, ok := internal.PatternMatch(elem, orig, mtype, cfg.ExtGlob, cfg.NoCaseMatch, bashMatchLenIn(orig, elem), cfg.Done); ok {
					out[i] = elem[:lo] + with(elem[lo:hi]) + elem[hi:]
				}
			}
			return out, nil
		}
		expr, err := pattern.Regexp(orig, mode)
		if err != nil {
			return elems, nil
		}
		if anchor == '#' {
			expr = "^(?:" + expr + ")"
		} else {
			expr = "(?:" + expr + ")$"
		}
		rx := regexp.MustCompile(expr)
		rx.Longest()
		// jaiph-go patch: a pattern of fixed length (bash's MATCHLEN,
		// see bashMatchLen) is tried on that many characters only.
		mlen := bashMatchLen(orig)
		out := make([]string, len(elems))
		for i, elem := range elems {
			out[i] = elem
			if mlen >= 0 {
				offs := charOffsets(elem)
				if mlen >= len(offs) {
					continue
				}
				lo, hi := 0, offs[mlen]
				if anchor == '%' {
					lo, hi = offs[len(offs)-1-mlen], len(elem)
				}
				if loc := rx.FindStringIndex(elem[lo:hi]); loc != nil && loc[0] == 0 && loc[1] == hi-lo {
					out[i] = elem[:lo] + with(elem[lo:hi]) + elem[hi:]
				}
				continue
			}
			if loc := rx.FindStringIndex(elem); loc != nil {
				out[i] = elem[:loc[0]] + with(elem[loc[0]:loc[1]]) + elem[loc[1]:]
			}
		}
		return out, nil
	}
	if orig == "" {
		return elems, nil // nothing to replace
	}
	n := 1
	if repl.All {
		n = -1
	}
	out := make([]string, len(elems))
	for i, elem := range elems {
		locs := findAllIndex(orig, elem, n, cfg.ExtGlob, cfg.NoCaseMatch, cfg.Done)
		sb := cfg.strBuilder()
		last := 0
		for _, loc := range locs {
			sb.WriteString(elem[last:loc[0]])
			sb.WriteString(with(elem[loc[0]:loc[1]]))
			last = loc[1]
		}
		sb.WriteString(elem[last:])
		out[i] = sb.String()
	}
	return out, nil
}

// replPattern expands the pattern of ${x/pattern/s} as [Pattern] does, and
// tells the anchor it starts with (jaiph-go patch; upstream took # and %
// literally). As in bash (parameter_brace_patsub), the anchor is the first
// character of the expanded pattern when it comes unquoted: a literal
// ${x/#a/s}, but also p='#a'; ${x/$p/s}, while ${x/"#"a/s} and ${x/\#a/s}
// look for "#a"; and ${x//#a/s} replaces every "#a" (no anchor with //).
func (cfg *Config) replPattern(repl *syntax.Replace) (pat string, anchor byte, err error) {
	if repl.Orig == nil {
		return "", 0, nil
	}
	restore := cfg.setNoSplitStar(true) // a pattern, as Pattern
	field, err := cfg.wordField(repl.Orig.Parts, quoteNone)
	restore()
	if err != nil {
		return "", 0, err
	}
	sb := cfg.strBuilder()
	for _, part := range field {
		val := part.val
		switch {
		case part.quote > quoteNone:
			val = pattern.QuoteMeta(val, pattern.ExtendedOperators)
		case !repl.All && anchor == 0 && sb.Len() == 0 && val != "" && (val[0] == '#' || val[0] == '%'):
			anchor, val = val[0], val[1:]
		}
		sb.WriteString(val)
	}
	return sb.String(), anchor, nil
}

// removePatternElems applies a pattern removal operator to each element.
func (cfg *Config) removePatternElems(op syntax.ParExpOperator, arg string, elems []string) []string {
	suffix := op == syntax.RemSmallSuffix || op == syntax.RemLargeSuffix
	small := op == syntax.RemSmallPrefix || op == syntax.RemSmallSuffix
	out := make([]string, len(elems))
	for i, elem := range elems {
		out[i] = removePattern(elem, arg, suffix, small, cfg.ExtGlob, cfg.Done)
	}
	return out
}

// MapCase maps each character of s with f, as bash's case conversions do
// with towupper and towlower (jaiph-go patch): a byte that is no UTF-8 is
// kept as it is, where strings.ToUpper made it U+FFFD (${v@U}, declare -u).
func MapCase(s string, f func(rune) rune) string {
	var sb strings.Builder
	sb.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			sb.WriteByte(s[i])
		} else {
			sb.WriteRune(f(r))
		}
		i += size
	}
	return sb.String()
}

// caseConvElems applies a case conversion operator to each element.
func (cfg *Config) caseConvElems(op syntax.ParExpOperator, arg string, elems []string) []string {
	caseFunc := unicode.ToLower
	if op == syntax.UpperFirst || op == syntax.UpperAll {
		caseFunc = unicode.ToUpper
	}
	all := op == syntax.UpperAll || op == syntax.LowerAll

	// empty string means '?'; nothing to do there
	var match func(string) bool
	if internal.UseGmatch(arg, true) {
		// jaiph-go patch: bash's sh_modcase matches each character
		// with extended groups, whatever shopt extglob says
		match = internal.NewGmatch(arg, true, false, false, cfg.Done).Match
	} else {
		expr, err := pattern.Regexp(arg, 0)
		if err != nil {
			return elems
		}
		match = regexp.MustCompile(expr).MatchString
	}

	out := make([]string, len(elems))
	for i, elem := range elems {
		// jaiph-go patch: an invalid UTF-8 byte is kept as is ([]rune
		// made it U+FFFD).
		var b strings.Builder
		for j, r := range elem {
			_, size := utf8.DecodeRuneInString(elem[j:])
			if (all || j == 0) && (r != utf8.RuneError || size > 1) && match(string(r)) {
				b.WriteRune(caseFunc(r))
			} else {
				b.WriteString(elem[j : j+size])
			}
		}
		out[i] = b.String()
	}
	return out
}

// ErrBadSubscript is bash's error for a negative index beyond the start of
// an indexed array (jaiph-go patch: was "negative array index").
var ErrBadSubscript = errors.New("bad array subscript")

// ErrBadLengthSubscript is the fatal error of ${#a[-9]} on a set variable
// (jaiph-go patch).
var ErrBadLengthSubscript = errors.New("bad array subscript")

// ErrInterrupted is the error of an expansion whose pattern match gave up
// because [Config.Done] was closed (jaiph-go patch).
var ErrInterrupted = errors.New("interrupted")

// interrupted reports whether [Config.Done] is closed.
func (cfg *Config) interrupted() bool { return closed(cfg.Done) }

// closed reports whether done is closed; never for nil.
func closed(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// varInd expands an indexed variable expansion like ${a[i]}, also reporting
// whether the resulting element is set, which may be false for missing array
// elements such as the holes in a sparse array.
// TrailingBlanks is the blanks raw, a subscript's source text, ends with
// (jaiph-go patch): bash's arithmetic error text keeps them.
func TrailingBlanks(raw string) string {
	return raw[len(strings.TrimRight(raw, " \t\n")):]
}

// subscriptArithm evaluates an array subscript: an arithmetic error there
// is marked, as bash's array_expand_index ends the shell after it
// wherever the subscript was (let, ((…)), [[ ]], a declare -i value), named
// after no command (jaiph-go patch).
// raw, the subscript's text when known (syntax.ParamExp.IndexRaw), gives
// the trailing blanks bash's error text keeps ("1/0 : division by 0").
func subscriptArithm(cfg *Config, idx syntax.ArithmExpr, raw string) (int, error) {
	n, err := ArithmTop(cfg, idx, TrailingBlanks(raw))
	if ae, ok := err.(ArithmError); ok {
		ae.Subscript = true
		return n, ae
	}
	return n, err
}

func (cfg *Config) varInd(vr Variable, idx syntax.ArithmExpr, raw string) (string, bool, error) {
	if idx == nil {
		switch vr.Kind {
		case Indexed:
			// A bare $a is the element at index zero, which may be unset.
			str, ok := vr.IndexedValue(0)
			return str, ok, nil
		case Associative:
			str, ok := vr.Map["0"]
			return str, ok, nil
		}
		return vr.String(), vr.IsSet(), nil
	}
	switch vr.Kind {
	case String:
		if l := nodeLit(idx); l == "@" || l == "*" {
			return vr.Str, vr.IsSet(), nil // jaiph-go patch: ${s[@]:o:l}
		}
		n, err := subscriptArithm(cfg, idx, raw) // jaiph-go patch: the error quotes the subscript
		if err != nil {
			return "", false, err
		}
		if n == 0 {
			return vr.Str, vr.IsSet(), nil
		}
		if n < 0 {
			// jaiph-go patch: bash: a negative subscript of a
			// scalar (set or not) is a bad array subscript.
			return "", false, ErrBadSubscript
		}
	case Unknown:
		// jaiph-go patch: bash evaluates the subscript of an unset
		// variable, and a negative one is a bad array subscript.
		if l := nodeLit(idx); l == "@" || l == "*" {
			break
		}
		n, err := subscriptArithm(cfg, idx, raw) // jaiph-go patch: the error quotes the subscript
		if err != nil {
			return "", false, err
		}
		if n < 0 {
			return "", false, ErrBadSubscript
		}
	case Indexed:
		switch nodeLit(idx) {
		case "*", "@":
			return strings.Join(vr.List, " "), vr.IsSet(), nil
		}
		i, err := subscriptArithm(cfg, idx, raw) // jaiph-go patch: the error quotes the subscript
		if err != nil {
			return "", false, err
		}
		if i < 0 {
			// Negative indices count from one past the maximum index.
			if i += internal.IndexedMax(vr.List, vr.Indexes) + 1; i < 0 {
				return "", false, ErrBadSubscript
			}
		}
		if str, ok := vr.IndexedValue(i); ok {
			return str, true, nil
		}
	case Associative:
		switch lit := nodeLit(idx); lit {
		case "@", "*":
			strs := vr.AssocValues()
			if lit == "*" {
				return cfg.ifsJoin(strs), vr.IsSet(), nil
			}
			return strings.Join(strs, " "), vr.IsSet(), nil
		}
		val, err := AssocKeyRaw(cfg, idx, raw) // jaiph-go patch: arithmetic-looking keys, blanks
		if err != nil {
			return "", false, err
		}
		if val == "" {
			// jaiph-go patch: an empty key is bash's bad array
			// subscript (the element reads as unset)
			return "", false, ErrBadSubscript
		}
		str, ok := vr.Map[val]
		return str, ok, nil
	}
	return "", false, nil
}

// assignElem assigns a variable via an expansion like ${a=val} or
// ${a[i]=val}, setting a single element when the variable is an array or is
// indexed, like Bash. ${a[i]=val} on a whole scalar converts it to an array.
func (cfg *Config) assignElem(name string, vr Variable, idx syntax.ArithmExpr, val string) error {
	wenv, ok := cfg.Env.(WriteEnviron)
	if !ok {
		return fmt.Errorf("environment is read-only")
	}
	arrayWise := false
	switch nodeLit(idx) {
	case "@", "*":
		// ${a[@]=val} assigns the element at index zero.
		arrayWise = true
		idx = nil
	}
	if idx == nil && !arrayWise && vr.Kind != Indexed && vr.Kind != Associative {
		// A plain scalar assignment like ${x=val}. jaiph-go patch: the
		// variable keeps its attributes (-u, -l, -i, export), as bash.
		nv := Variable{Set: true, Kind: String, Str: val}
		switch {
		case vr.Kind == NameRef && vr.Str == "":
			// jaiph-go patch: a nameref without a value (declare -n
			// r) names what ${r=val} assigns, which must be a name or
			// an element, as bash's valid_nameref_value
			if !internal.ValidNameOrElem(val) {
				return fmt.Errorf("`%s': %w", val, ErrRefValue)
			}
			nv = vr
			nv.Set, nv.Str, nv.Local = true, val, false
		case vr.Kind != NameRef:
			nv = vr
			nv.Set, nv.Kind, nv.Str, nv.Local = true, String, val, false
		}
		if name == "IFS" {
			// jaiph-go patch: the word's own value is split with the
			// new IFS, as bash splits a word once it is expanded
			// (unquoted ${IFS=:} is one empty field)
			defer func() {
				if v := cfg.Env.Get("IFS"); v.IsSet() {
					cfg.ifs = v.String()
				}
			}()
		}
		return wenv.Set(name, nv)
	}
	switch vr.Kind {
	case Associative:
		key := "0"
		if idx != nil {
			var err error
			restore := cfg.setNoSplitStar(true) // an associative subscript, as assocKey
			oldCond := cfg.CondWord
			cfg.CondWord = true
			key, err = Literal(cfg, idx.(*syntax.Word))
			cfg.CondWord = oldCond
			restore()
			if err != nil {
				return err
			}
		}
		v, err := elemValue(cfg.Env, name, vr, val)
		if err != nil {
			return err
		}
		vr.SetAssoc(key, v) // jaiph-go patch: records insertion order
	default: // assign a single indexed element
		i := 0
		if idx != nil {
			var err error
			if i, err = Arithm(cfg, idx); err != nil {
				return err
			}
			if i < 0 {
				// Negative indices count from one past the maximum index.
				if i += internal.IndexedMax(vr.List, vr.Indexes) + 1; i < 0 {
					return fmt.Errorf("%s: %w", name, ErrBadSubscript)
				}
			}
		}
		list, indexes := slices.Clone(vr.List), slices.Clone(vr.Indexes)
		if vr.Kind == String {
			list, indexes = []string{vr.Str}, nil
		}
		v, err := elemValue(cfg.Env, name, vr, val)
		if err != nil {
			return err
		}
		list, indexes = internal.SetIndexedElem(list, indexes, i, v)
		vr.Kind, vr.Str, vr.List, vr.Indexes = Indexed, "", list, indexes
	}
	vr.Set = true
	// jaiph-go patch: an assignment, not a new local: a calling
	// function's local (readonly or not) is the one written.
	vr.Local = false
	return wenv.Set(name, vr)
}

func (cfg *Config) namesByPrefix(prefix string) []string {
	// jaiph-go patch: as in bash, a function's local is listed once, not
	// beside the global it shadows, and a name declared without a value
	// (declare v, declare -a v) or unset not at all; a local without a
	// value (local v, declare -ai v in a function) is bash's invisible
	// variable, which hides no outer one set. Each gives the outermost
	// scope first. (bash still lists a local unset in its own function:
	// the overlay cannot tell that from an unset global.)
	set := map[string]bool{}
	for name, vr := range cfg.Env.Each {
		if strings.HasPrefix(name, prefix) && !(vr.Local && !vr.IsSet()) {
			set[name] = vr.IsSet()
		}
	}
	var names []string
	for name, ok := range set {
		if ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// bashQuoteQ quotes s as bash's ${x@Q}: in single quotes (each quote closed,
// escaped and reopened), or $'…' when s holds a byte that is no UTF-8 or
// a character that is not printable (jaiph-go patch).
func bashQuoteQ(s string) string {
	if !ANSICShouldQuote(s) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return ANSICQuote(s)
}

// replWith expands the replacement of ${x/pat/repl}. jaiph-go patch: as
// with bash 5.2's default patsub_replacement, an unquoted & in it stands for
// the matched text; a quoted or backslash-escaped & is literal.
func (cfg *Config) replWith(w *syntax.Word) (func(match string) string, error) {
	if w == nil {
		return func(string) string { return "" }, nil
	}
	restore := cfg.setNoSplitStar(true) // bash's expand_string_unsplit
	parts, err := cfg.wordField(w.Parts, quoteNone)
	restore()
	if err != nil {
		return nil, err
	}
	var rep strings.Builder
	for _, part := range parts {
		if part.quote == quoteNone || cfg.NoPatsubReplacement {
			rep.WriteString(part.val)
			continue
		}
		// bash's quote_string_for_repl: a quoted & or \ is escaped,
		// so that the replacement below takes it literally
		for _, r := range part.val {
			if r == '&' || r == '\\' {
				rep.WriteByte('\\')
			}
			rep.WriteRune(r)
		}
	}
	s := rep.String()
	if cfg.NoPatsubReplacement || !strings.ContainsAny(s, "&\\") {
		return func(string) string { return s }, nil
	}
	// bash's strcreplace: & is the match, \& a literal & and \\ one
	// backslash, whether written in the word or produced by an unquoted
	// expansion in it (${v//a/$w} of w='\\' puts one backslash).
	return func(match string) string {
		var sb strings.Builder
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c == '&':
				sb.WriteString(match)
			case c == '\\' && i+1 < len(s) && (s[i+1] == '&' || s[i+1] == '\\'):
				i++
				sb.WriteByte(s[i])
			default:
				sb.WriteByte(c)
			}
		}
		return sb.String()
	}, nil
}

// elemRefParam is pe reading the array element that ref, the name a
// nameref holds, names (as `a[1]` or `m["k"]`), or nil when ref names no
// element or pe has its own subscript; ${#r} stays 0, as in bash (jaiph-go
// patch).
// namerefElem expands elem, the element a nameref names in pe (jaiph-go
// patch): as bash, an error of an unset element (set -u, ${r:?w}) names
// the nameref, and under set -u the whole of an empty or unset array
// (r='a[@]') is unset too — in braces only: bash's $r is then empty.
func (cfg *Config) namerefElem(pe, elem *syntax.ParamExp) (string, error) {
	if pe.Exp != nil && pe.Exp.Op == syntax.OtherParamOps && pe.Exp.Word != nil {
		if op := pe.Exp.Word.Lit(); op == "A" || op == "a" {
			// bash's ${r@A} and ${r@a} look for a variable named
			// as the element: none, so nothing
			return "", nil
		}
	}
	if s, ok, err := cfg.namerefElemAssign(elem); ok {
		return s, err
	}
	if l := nodeLit(elem.Index); (l == "@" || l == "*") && elem.Exp != nil && (elem.Exp.Op == syntax.AssignUnset || elem.Exp.Op == syntax.AssignUnsetOrNull) {
		// := or = through the nameref of a list with an element that
		// assigns nothing is the list as ${r} gives it, one string:
		// bash's quoted null is not null where the word is quoted or
		// assigned (an unset or null list is assigned, which fails
		// below)
		all := *elem
		all.Exp = nil
		quotedNull := cfg.inDblQuote || cfg.inHeredoc || cfg.assignRHS || cfg.inAssign
		if elems, _, _ := cfg.listElems(&all); len(elems) > 0 && (elem.Exp.Op == syntax.AssignUnset || quotedNull || strings.Join(elems, " ") != "") {
			plain := *pe
			plain.Exp = nil
			return cfg.namerefListOp(&plain, &all, l == "*")
		}
	}
	if l := nodeLit(elem.Index); (l == "@" || l == "*") && !pe.Short && (pe.Exp == nil || pe.Exp.Op != syntax.AssignUnset && pe.Exp.Op != syntax.AssignUnsetOrNull) {
		// with an operator or without (${r} is the string too,
		// joined as array_value joins it: found by the soak, seed
		// 214); $r is the list itself, as ${a[@]} where it is
		return cfg.namerefListOp(pe, elem, l == "*")
	}
	if nodeLit(elem.Index) == "*" && pe.Short && !cfg.inDblQuote && !cfg.inHeredoc && !cfg.assignRHS && !cfg.inAssign {
		// an unquoted $r of a[*] where words are not split ([[ ]], a
		// case word): bash joins with a space, or nothing when IFS
		// is empty (${a[*]} there joins with IFS's first character)
		all := *elem
		all.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "@"}}}
		if elems, _, ok := cfg.listElems(&all); ok {
			if cfg.ifs == "" {
				return strings.Join(elems, ""), nil
			}
			if r, _ := utf8.DecodeRuneInString(cfg.ifs); r != ' ' {
				// jaiph-go patch: with IFS's first character not
				// a space, joined with it, split at IFS and the
				// words joined with a space ((x '') is x with
				// IFS=:, found probing beside the soak's seed 226)
				return strings.Join(ReadFields(cfg, strings.Join(elems, string(r)), -1, true), " "), nil
			}
			return strings.Join(elems, " "), nil
		}
	}
	s, err := cfg.paramExp(elem)
	var ue UnsetParameterError
	if errors.As(err, &ue) && ue.Node == elem {
		if pe.Short && ue.Message == "unbound variable" {
			return "", nil
		}
		ue.Node = pe
		return "", ue
	}
	if l := nodeLit(elem.Index); err == nil && cfg.NoUnset && !pe.Short && (l == "@" || l == "*") && !overridingUnset(pe) {
		vr := cfg.Env.Get(elem.Param.Value)
		if !vr.IsSet() || vr.Kind == Indexed && len(vr.List) == 0 || vr.Kind == Associative && len(vr.Map) == 0 {
			return "", UnsetParameterError{Node: pe, Message: "unbound variable"}
		}
	}
	return s, err
}

// ErrRefValue is the error of a value a nameref without a value (declare
// -n r) cannot name: ${r:=w}'s, and printf -v r's through
// interp's HandlerContext.SetVar (jaiph-go patch).
var ErrRefValue = errors.New("not a valid identifier")

// DefaultAssignError is the error of the assignment ${v:=w} makes
// (jaiph-go patch): bash's parameter_brace_expand_rhs fails a readonly
// variable's with status 2 (EX_BADUSAGE) where other assignments that
// fail in an expansion give 1.
type DefaultAssignError struct{ Err error }

func (e DefaultAssignError) Error() string { return e.Err.Error() }
func (e DefaultAssignError) Unwrap() error { return e.Err }

// bashDraws draws from RANDOM as many numbers more as bash does for pe
// (jaiph-go patch; vr is the first, read): bash reads a dynamic variable
// each time it looks the variable up, which it does twice for ${#RANDOM}
// (the length is the second's), three times for an operator that takes the
// value (# % / ^ , :o @Q and the like: the first), and twice for an
// element (${RANDOM[0]}, ${RANDOM[@]}: the second), so that a seeded
// RANDOM goes on with the same numbers as in bash.
func (cfg *Config) bashDraws(pe *syntax.ParamExp, vr Variable) Variable {
	switch {
	case pe.Excl || pe.Width || pe.IsSet:
	case pe.Index != nil:
		if !pe.Length {
			vr = cfg.Env.Get(pe.Param.Value)
		}
	case pe.Length:
		vr = cfg.Env.Get(pe.Param.Value)
	case pe.Repl != nil || pe.Slice != nil || pe.Exp != nil && !overridingUnset(pe):
		cfg.Env.Get(pe.Param.Value)
		cfg.Env.Get(pe.Param.Value)
	}
	return vr
}

// namerefListOp expands ${r OP} (and ${r}) of a nameref r to a[@] or
// a[*] as bash does (jaiph-go patch: the operator was applied to each
// element; ${r} was joined with a space, not IFS's first character): bash
// reads the list as one string (parameter_brace_expand_word's
// expand_arrayref) and the operator takes that string as a scalar's
// value. The elements are joined as array_value joins them: a[*] inside
// double quotes with IFS's first character (nothing when IFS is empty),
// everything else with IFS's first character or a space when IFS is
// empty; in an assignment's value with a space. An empty string made of
// elements inside double quotes is bash's quoted null, which the :-, :+
// and :? tests take as not null. (In an unquoted assignment's value and
// a here-string bash 5.2 leaves its internal quoting bytes in the string
// the operator sees; the interpreter applies the operator to the string,
// as bash does inside double quotes.)
func (cfg *Config) namerefListOp(pe, elem *syntax.ParamExp, star bool) (string, error) {
	all := *elem
	all.Exp, all.Repl, all.Slice = nil, nil, nil
	elems, _, set := cfg.listElems(&all)
	set = set && len(elems) > 0
	if cfg.NoUnset && !set && !overridingUnset(pe) {
		return "", UnsetParameterError{Node: pe, Message: "unbound variable"}
	}
	quoted := cfg.inDblQuote || cfg.inHeredoc
	var joined string
	switch {
	case cfg.assignRHS || cfg.inAssign:
		if star {
			joined = cfg.ifsJoin(elems)
		} else {
			joined = strings.Join(elems, " ")
		}
	case star && (quoted || cfg.NoSplitStar):
		joined = cfg.ifsJoin(elems)
	case cfg.inHeredoc && pe.Exp == nil && pe.Repl == nil && pe.Slice == nil:
		// a here-document's ${r} of a[@]: a space, as its
		// ${a[@]}; with an operator IFS's first character
		joined = strings.Join(elems, " ")
	case cfg.ifs == "":
		joined = strings.Join(elems, " ")
	default:
		joined = cfg.ifsJoin(elems)
	}
	tp := *pe
	if (quoted || cfg.assignRHS || cfg.inAssign) && set && joined == "" && pe.Exp != nil {
		// bash's quoted null is a string, not null (quoted, or
		// unquoted in an assignment's value)
		exp := *pe.Exp
		switch exp.Op {
		case syntax.DefaultUnsetOrNull:
			exp.Op = syntax.DefaultUnset
		case syntax.AlternateUnsetOrNull:
			exp.Op = syntax.AlternateUnset
		case syntax.ErrorUnsetOrNull:
			exp.Op = syntax.ErrorUnset
		}
		tp.Exp = &exp
	}
	v, _, err := cfg.paramExpOf(&tp, Variable{Set: set, Kind: String, Str: joined})
	return v, err
}

// namerefElemAssign is ${r=w} or ${r:=w} through a nameref to an element
// of an indexed array that assigns it (jaiph-go patch): bash's expansion
// is then the array's element 0, the value of the variable its
// bind_variable returns (and bash crashes when element 0 is unset: that
// case, and a subscript that is not a plain number, go the usual way).
func (cfg *Config) namerefElemAssign(elem *syntax.ParamExp) (string, bool, error) {
	if elem.Exp == nil || elem.Exp.Op != syntax.AssignUnset && elem.Exp.Op != syntax.AssignUnsetOrNull {
		return "", false, nil
	}
	arr := cfg.Env.Get(elem.Param.Value)
	if arr.Kind == String && arr.IsSet() {
		arr = Variable{Set: true, Kind: Indexed, List: []string{arr.Str}} // a scalar is element 0
	}
	zero, set := arr.IndexedValue(0)
	if arr.Kind != Indexed || !set {
		return "", false, nil
	}
	i, err := strconv.Atoi(nodeLit(elem.Index))
	if err != nil || i < 0 {
		return "", false, nil
	}
	cur, curSet := arr.IndexedValue(i)
	if curSet && (elem.Exp.Op == syntax.AssignUnset || cur != "") {
		return "", false, nil // nothing assigned: the element's value
	}
	if _, err := cfg.paramExp(elem); err != nil {
		return "", true, err
	}
	if i == 0 {
		zero, _ = cfg.Env.Get(elem.Param.Value).IndexedValue(0)
	}
	return zero, true, nil
}

func elemRefParam(ref string, pe *syntax.ParamExp) *syntax.ParamExp {
	i := strings.IndexByte(ref, '[')
	if i <= 0 || !strings.HasSuffix(ref, "]") || pe.Index != nil || pe.Excl || pe.Length || pe.Width {
		return nil
	}
	w, err := syntax.NewParser().Document(strings.NewReader("${" + ref + "}"))
	if err != nil || len(w.Parts) != 1 {
		return nil
	}
	ep, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok || ep.Index == nil || ep.Param.Value != ref[:i] {
		return nil
	}
	elem := *pe
	elem.Param, elem.Index = ep.Param, ep.Index
	return &elem
}

// AssocKey expands the subscript of an associative array element. jaiph-go
// patch: the parser reads a subscript like 1+1 as arithmetic when it cannot
// know that the array is associative; bash takes its text as the key, so it
// is printed back (compactly) and expanded as a word.
func AssocKey(cfg *Config, idx syntax.ArithmExpr) (string, error) {
	return AssocKeyRaw(cfg, idx, "")
}

// AssocKeyRaw is AssocKey of a subscript whose source text is raw (as
// syntax.ParamExp.IndexRaw, or a subscript given as a string): bash keys
// an associative array with the text as written, blanks included (`${m[
// k ]}` is the key " k ", `m[1 + 2]=v` the key "1 + 2"), its words
// expanded and quotes removed (jaiph-go patch). With raw "" it is
// AssocKey.
func AssocKeyRaw(cfg *Config, idx syntax.ArithmExpr, raw string) (string, error) {
	core := strings.Trim(raw, " \t\n")
	if core == "" {
		return assocKey(cfg, idx, "")
	}
	lead := raw[:strings.Index(raw, core)]
	trail := raw[len(lead)+len(core):]
	key, err := assocKey(cfg, idx, core)
	return lead + key + trail, err
}

// assocKey is AssocKey, with core the subscript's text without its
// leading and trailing blanks when known.
func assocKey(cfg *Config, idx syntax.ArithmExpr, core string) (string, error) {
	defer cfg.setNoSplitStar(true)() // bash's expand_subscript_string
	oldCond := cfg.CondWord
	cfg.CondWord = true
	defer func() { cfg.CondWord = oldCond }()
	w, isWord := idx.(*syntax.Word)
	if isWord && !bareElemRef(w) {
		return Literal(cfg, w)
	}
	var s string
	if core != "" {
		s = core // as written, inner blanks too
	} else if isWord {
		// jaiph-go patch: `m[a[b]]=v` keys m with the text a[b], as
		// bash (the parser read it as the element a[b]).
		s = ArithmSource(w)
	} else {
		var sb strings.Builder
		wrapped := &syntax.Word{Parts: []syntax.WordPart{&syntax.ArithmExp{X: idx}}}
		if err := syntax.NewPrinter(syntax.Minify(true)).Print(&sb, wrapped); err != nil {
			return "", err
		}
		s = strings.TrimSuffix(strings.TrimPrefix(sb.String(), "$(("), "))")
	}
	if !strings.ContainsAny(s, "$`\\'\"") {
		return s, nil
	}
	w, err := syntax.NewParser().Document(strings.NewReader(s))
	if err != nil {
		return s, nil
	}
	return Literal(cfg, w)
}

// bareElemRef says w holds an array element written without `$`, as the
// parser reads `a[b]` in an arithmetic subscript (jaiph-go patch).
func bareElemRef(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if pe, ok := p.(*syntax.ParamExp); ok && !pe.Dollar.IsValid() && pe.Index != nil {
			return true
		}
	}
	return false
}

// charOffsets returns the byte offset of each character of s and len(s)
// (jaiph-go patch): an invalid UTF-8 byte is a character of its own.
func charOffsets(s string) []int {
	offs := make([]int, 0, len(s)+1)
	for i := range s {
		offs = append(offs, i)
	}
	return append(offs, len(s))
}

// PromptDecode decodes the backslash escapes of a prompt string, as
// [Config.promptDecode], leaving its expansion to the caller (jaiph-go
// patch: the interpreter's PS4).
func PromptDecode(cfg *Config, s string) string { return cfg.promptDecode(s) }

// promptExpand is ${x@P} (jaiph-go patch): the value decoded as bash's
// decode_prompt_string does (jaiph_prompt.go), then expanded as the text of
// a double-quoted string (parameters, command and arithmetic substitutions,
// backslashes before $ ` \ and newline), bash's promptvars.
func (cfg *Config) promptExpand(s string) string {
	decoded := cfg.promptDecode(s)
	if !strings.ContainsAny(decoded, "$`\\") {
		return decoded
	}
	w, err := syntax.NewParser().Document(strings.NewReader(decoded))
	if err != nil {
		return decoded
	}
	inner := *cfg
	field, err := inner.wordField(w.Parts, quoteHeredoc)
	if err != nil {
		return decoded
	}
	return inner.fieldJoin(field)
}

// ansiCExpand decodes the text of $'…' as bash's ansicstr: escapes
// expanded, an unknown escape kept with its backslash, the text cut at a
// NUL. ${v@E} uses it too (jaiph-go patch: upstream decoded @E with Go's
// strconv.UnquoteChar, which stopped at the first escape it did not know:
// `one\ two` gave `one`).
func ansiCExpand(cfg *Config, s string) string {
	out, _, _ := Format(cfg, dollarCtrl(s), nil)
	out, _, _ = strings.Cut(out, "\x00")
	return out
}

// RegexpUnsupported tells what in re, a [[ =~ ]] regular expression (as
// [Regexp] makes it), glibc's regcomp accepts and the interpreter cannot
// run as glibc does, or "" (jaiph-go patch: jaiph check refuses a literal
// one). What depends on the string matched (\b on text beyond ASCII) is
// not told.
func RegexpUnsupported(re string) string {
	if _, err := internal.ERE(re, false, false); err != nil {
		if u, ok := err.(*internal.UnsupportedEREError); ok {
			return u.What
		}
	}
	return ""
}

// ContainsShellMetas is bash's sh_contains_shell_metas, which decides
// whether declare -p quotes an associative array's key (jaiph-go patch:
// `=`, `%`, and `~` or `#` past the start do not make a key quoted).
func ContainsShellMetas(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>',
			'!', '{', '}', '*', '[', '?', ']', '^', '$', '`':
			return true
		case '~': // a tilde expansion's start
			if i == 0 || s[i-1] == '=' || s[i-1] == ':' {
				return true
			}
		case '#': // a comment's start
			if i == 0 {
				return true
			}
		}
	}
	return false
}
