// jaiph-go: bash's parser reads a $(…) to its end and keeps, as the text of
// the word holding it, a reprint of the commands it parsed (print_comsub):
// `$(cat f  2>/dev/null)` is named in an error message as
// `$(cat f 2> /dev/null)`. A backquoted substitution is kept as written.
// Messages naming a word (a bad array subscript, an ambiguous redirect)
// print it as bash does.

package interp

import (
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// the words arithmetic names (a subscript) are printed as bash names them
func init() { expand.SubstText = substText }

// newWordPrinter prints words as bash names them in its messages.
func newWordPrinter() *syntax.Printer {
	p := syntax.NewPrinter()
	p.BashSubstText(substText)
	return p
}

// SubstTextKnown reports whether a word naming n, a $(…) or a process
// substitution, can be printed as bash names it (jaiph-go: a checker
// refuses the words it names otherwise).
func SubstTextKnown(n syntax.Node) bool {
	_, ok := substText(n)
	return ok
}

// substText is bash's reprint of the commands of a $(…) or a process
// substitution, or false where this reprint is not known to be bash's
// (the substitution is then printed as the syntax printer does).
func substText(n syntax.Node) (string, bool) {
	var stmts []*syntax.Stmt
	switch n := n.(type) {
	case *syntax.CmdSubst:
		stmts = n.Stmts
	case *syntax.ProcSubst:
		stmts = n.Stmts
	default:
		return "", false
	}
	printer := newWordPrinter()
	printer.BashTests()
	printer.UseSource("", 0, ansiCText) // $'…' as the '…' it is
	sp := &substPrinter{fp: funcPrinter{printer: printer}}
	text, ok := sp.list(stmts, 0)
	if !ok {
		return "", false
	}
	if len(sp.fp.pending) > 0 {
		// a here-document ends the last command: its body and
		// delimiter follow on lines of their own
		sp.fp.sb.Reset()
		sp.fp.heredocBodies()
		text += sp.fp.sb.String()
	}
	return strings.ReplaceAll(text, "\\\n", ""), true
}

// ansiCText is a $'…' string's value (what is between the quotes) as bash
// reprints it: the single-quoted text it stands for.
func ansiCText(value string) string {
	s, _ := expand.Literal(&expand.Config{}, &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Dollar: true, Value: value}}})
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// substPrinter lays commands out as print_cmd.c does outside a function
// definition: a list on one line ("a; b", "a & b"), a group or subshell
// inline, the body of an if or a loop on its own lines, indented by four
// spaces and ended by ";".
type substPrinter struct {
	fp funcPrinter
}

// list prints statements joined as bash joins them on one line.
func (sp *substPrinter) list(stmts []*syntax.Stmt, ind int) (string, bool) {
	var sb strings.Builder
	for i, st := range stmts {
		if len(sp.fp.pending) > 0 {
			return "", false // a here-document before another command
		}
		text, ok := sp.stmt(st, ind)
		if !ok {
			return "", false
		}
		sb.WriteString(text)
		last := i == len(stmts)-1
		switch {
		case st.Background && last:
			sb.WriteString(" &")
		case st.Background:
			sb.WriteString(" & ")
		case !last:
			sb.WriteString("; ")
		}
	}
	return sb.String(), true
}

// body is the body of an if or a loop: on its own line, indented, ended by
// ";".
func (sp *substPrinter) body(stmts []*syntax.Stmt, ind int) (string, bool) {
	text, ok := sp.list(stmts, ind)
	if len(sp.fp.pending) > 0 {
		return "", false // a here-document inside a compound command
	}
	if len(stmts) == 0 || !stmts[len(stmts)-1].Background {
		text += ";" // after a last `&`, none
	}
	return strings.Repeat("    ", ind) + text + "\n", ok
}

func (sp *substPrinter) stmt(st *syntax.Stmt, ind int) (string, bool) {
	if st.Coprocess || st.Disown {
		return "", false
	}
	pad := strings.Repeat("    ", ind)
	var sb strings.Builder
	if st.Negated {
		sb.WriteString("! ")
	}
	switch cm := st.Cmd.(type) {
	case nil: // redirections alone: `> f`
		var rds []string
		for _, rd := range st.Redirs {
			if isHeredoc(rd) {
				return "", false
			}
			rds = append(rds, sp.fp.bashRedir(rd))
		}
		return sb.String() + strings.Join(rds, " "), len(rds) > 0
	case *syntax.CallExpr:
		return sp.simple(st, &sb)
	case *syntax.BinaryCmd:
		if simpleLeaves(cm) && len(st.Redirs) == 0 {
			return sp.simple(st, &sb)
		}
		text, ok := sp.binary(cm, ind)
		if !ok {
			return "", false
		}
		sb.WriteString(text)
	case *syntax.Subshell:
		inner, ok := sp.list(cm.Stmts, ind)
		if !ok {
			return "", false
		}
		sb.WriteString("( " + inner + " )")
	case *syntax.Block:
		inner, ok := sp.list(cm.Stmts, ind)
		if !ok || len(cm.Stmts) == 0 {
			return "", false
		}
		if cm.Stmts[len(cm.Stmts)-1].Background {
			sb.WriteString("{ " + inner + " }")
		} else {
			sb.WriteString("{ " + inner + "; }")
		}
	case *syntax.IfClause:
		text, ok := sp.ifClause(cm, ind)
		if !ok {
			return "", false
		}
		sb.WriteString(text)
	case *syntax.WhileClause:
		cond, ok := sp.list(cm.Cond, ind)
		if !ok {
			return "", false
		}
		do, ok := sp.body(cm.Do, ind+1)
		if !ok {
			return "", false
		}
		kw := "while "
		if cm.Until {
			kw = "until "
		}
		sb.WriteString(kw + cond + "; do\n" + do + pad + "done")
	case *syntax.ForClause:
		loop, ok := cm.Loop.(*syntax.WordIter)
		if !ok {
			// for ((…)): its header as a function body prints it
			c, ok := cm.Loop.(*syntax.CStyleLoop)
			if !ok || c.Init == nil || c.Cond == nil || c.Post == nil {
				return "", false // bash prints a missing part as 1
			}
			do, ok := sp.body(cm.Do, ind+1)
			if !ok {
				return "", false
			}
			sp.fp.sb.Reset()
			sp.fp.stmt(&syntax.Stmt{Cmd: &syntax.ForClause{Loop: c}}, ind)
			head, _, _ := strings.Cut(sp.fp.sb.String(), "\n")
			sb.WriteString(head + "\n" + pad + "do\n" + do + pad + "done")
			break
		}
		kw := "for "
		if cm.Select {
			kw = "select "
		}
		words := []string{`"$@"`}
		if loop.InPos.IsValid() {
			words = words[:0]
			for _, w := range loop.Items {
				words = append(words, sp.fp.plain(w))
			}
		}
		do, ok := sp.body(cm.Do, ind+1)
		if !ok {
			return "", false
		}
		sb.WriteString(kw + loop.Name.Value + " in " + strings.Join(words, " ") + ";\n" + pad + "do\n" + do + pad + "done")
	case *syntax.CaseClause:
		text, ok := sp.caseClause(cm, ind)
		if !ok {
			return "", false
		}
		sb.WriteString(text)
	case *syntax.TestClause:
		sb.WriteString(sp.fp.plain(cm)) // -n for a lone word (BashTests)
	case *syntax.ArithmCmd:
		if cm.Source == "" {
			return "", false
		}
		sb.WriteString(cm.Source) // as written
	case *syntax.FuncDecl:
		// as declare -f prints a nested one: "function NAME () " and
		// its body on lines of their own, one command a line
		sp.fp.sb.Reset()
		sp.fp.stmt(&syntax.Stmt{Cmd: cm}, ind)
		if len(sp.fp.pending) > 0 {
			return "", false
		}
		sb.WriteString(sp.fp.sb.String())
	case *syntax.TimeClause:
		sb.WriteString("time ")
		if cm.PosixFormat {
			sb.WriteString("-p ")
		}
		if cm.Stmt != nil {
			text, ok := sp.stmt(cm.Stmt, ind)
			if !ok || cm.Stmt.Background {
				return "", false
			}
			sb.WriteString(text)
		}
	default:
		return "", false
	}
	for _, rd := range st.Redirs {
		if isHeredoc(rd) {
			return "", false
		}
		sb.WriteString(" " + sp.fp.bashRedir(rd))
	}
	return sb.String(), true
}

// simple prints a simple command, or a list or pipeline of them, as a
// function body does (funcPrinter), after what sb holds ("! ").
func (sp *substPrinter) simple(st *syntax.Stmt, sb *strings.Builder) (string, bool) {
	fp := &sp.fp
	fp.sb.Reset()
	st2 := *st
	st2.Negated, st2.Background = false, false
	if bc, ok := st.Cmd.(*syntax.BinaryCmd); ok {
		fp.binaryCmd(bc)
	} else {
		fp.heredocStmt(&st2)
	}
	if len(fp.pending) > 1 {
		return "", false
	}
	sb.WriteString(fp.sb.String())
	return sb.String(), true
}

// binary prints a list or pipeline holding a compound command: each side
// as a statement, |& as bash's 2>&1 |.
func (sp *substPrinter) binary(bc *syntax.BinaryCmd, ind int) (string, bool) {
	x, ok := sp.stmt(bc.X, ind)
	if !ok || bc.X.Background || len(sp.fp.pending) > 0 {
		return "", false
	}
	y, ok := sp.stmt(bc.Y, ind)
	if !ok || bc.Y.Background {
		return "", false
	}
	conn := " " + bc.Op.String() + " "
	if bc.Op == syntax.PipeAll {
		conn = " 2>&1 | "
	}
	return x + conn + y, true
}

// caseClause is "case WORD in ", each item's patterns, body and operator
// on lines of their own (an empty body an empty line), then "esac".
func (sp *substPrinter) caseClause(cc *syntax.CaseClause, ind int) (string, bool) {
	pad := strings.Repeat("    ", ind)
	var sb strings.Builder
	sb.WriteString("case " + sp.fp.plain(cc.Word) + " in \n")
	for _, ci := range cc.Items {
		pats := make([]string, len(ci.Patterns))
		for i, w := range ci.Patterns {
			pats[i] = sp.fp.plain(w)
		}
		body, ok := sp.list(ci.Stmts, ind+2)
		if !ok || len(sp.fp.pending) > 0 {
			return "", false
		}
		if body != "" {
			body = pad + "        " + body
		}
		sb.WriteString(pad + "    " + strings.Join(pats, " | ") + ")\n" + body + "\n" + pad + "    " + ci.Op.String() + "\n")
	}
	return sb.String() + pad + "esac", true
}

// ifClause is "if …; then", its body, and an elif as an else holding a
// nested if, as bash prints them.
func (sp *substPrinter) ifClause(ic *syntax.IfClause, ind int) (string, bool) {
	pad := strings.Repeat("    ", ind)
	cond, ok := sp.list(ic.Cond, ind)
	if !ok {
		return "", false
	}
	then, ok := sp.body(ic.Then, ind+1)
	if !ok {
		return "", false
	}
	text := "if " + cond + "; then\n" + then
	if el := ic.Else; el != nil {
		text += pad + "else\n"
		if len(el.Cond) > 0 { // elif
			nested, ok := sp.ifClause(el, ind+1)
			if !ok {
				return "", false
			}
			text += pad + "    " + nested + ";\n"
		} else {
			body, ok := sp.body(el.Then, ind+1)
			if !ok {
				return "", false
			}
			text += body
		}
	}
	return text + pad + "fi", true
}
