// jaiph-go patch (see PATCHES.md): job specs that name a job by its
// command, %name (the command starts with name) and %?name (it holds name,
// ignoring case), as bash's get_job_by_name matches them.

package interp

import (
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// jobProcText is the command text bash keeps for one process of a job: a
// pipeline element printed by make_command_string. ok is false when the
// element is one whose whole layout jaiph does not reproduce (a loop, a
// here-document, a command substitution, …): text is then only how bash's
// text starts (`for i in 1 2;`, `while `, `echo `), which may be empty.
type jobProcText struct {
	text string
	ok   bool
}

// jobTexts gives the texts of the processes of the job st starts: one per
// element of a pipeline, as bash forks them.
func jobTexts(st *syntax.Stmt) []jobProcText {
	if st.Negated {
		return []jobProcText{{}}
	}
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.Pipe && len(st.Redirs) == 0 {
		return append(jobTexts(b.X), jobTexts(b.Y)...)
	}
	text, ok := simpleCommandText(st)
	if !ok && len(st.Redirs) == 0 {
		if t, ok2 := groupText(st.Cmd); ok2 {
			text, ok = t, true
		}
	}
	if !ok {
		if _, simple := st.Cmd.(*syntax.CallExpr); !simple {
			text = compoundStart(st.Cmd)
		}
	}
	return []jobProcText{{text, ok}}
}

// compoundStart is how bash's text of a compound command starts, as far
// as jaiph is sure of it: bash lays the rest out over several lines.
func compoundStart(cmd syntax.Command) string {
	printer := syntax.NewPrinter()
	words := func(ws []*syntax.Word) (string, bool) {
		var parts []string
		for _, w := range ws {
			var sb strings.Builder
			plain := true
			syntax.Walk(w, func(n syntax.Node) bool {
				switch n.(type) {
				case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob:
					plain = false
				}
				return plain
			})
			if !plain || printer.Print(&sb, w) != nil {
				return "", false
			}
			parts = append(parts, sb.String())
		}
		return strings.Join(parts, " "), true
	}
	switch cmd := cmd.(type) {
	case *syntax.ForClause:
		if cmd.Select {
			return "select "
		}
		switch loop := cmd.Loop.(type) {
		case *syntax.WordIter:
			if !loop.InPos.IsValid() {
				return "for " + loop.Name.Value
			}
			if ws, ok := words(loop.Items); ok {
				return "for " + loop.Name.Value + " in " + ws + ";"
			}
			return "for " + loop.Name.Value + " in "
		case *syntax.CStyleLoop:
			return "for (("
		}
	case *syntax.WhileClause:
		if cmd.Until {
			return "until "
		}
		return "while "
	case *syntax.IfClause:
		return "if "
	case *syntax.CaseClause:
		if w, ok := words([]*syntax.Word{cmd.Word}); ok {
			return "case " + w + " in "
		}
		return "case "
	case *syntax.TestClause:
		return "[[ "
	case *syntax.ArithmCmd:
		return "(( "
	case *syntax.Subshell:
		return "( "
	case *syntax.Block:
		return "{ "
	case *syntax.BinaryCmd:
		x, ok := simpleCommandText(cmd.X)
		if !ok {
			if _, simple := cmd.X.Cmd.(*syntax.CallExpr); simple {
				return x
			}
			return compoundStart(cmd.X.Cmd)
		}
		switch cmd.Op {
		case syntax.AndStmt:
			return x + " && "
		case syntax.OrStmt:
			return x + " || "
		}
		return x
	}
	return ""
}

// groupText prints a subshell or brace group made of simple commands run
// one after the other as bash prints it: `( a; b )`, `{ a; b; }`.
func groupText(cmd syntax.Command) (string, bool) {
	var stmts []*syntax.Stmt
	open, end := "", ""
	switch cmd := cmd.(type) {
	case *syntax.Subshell:
		stmts, open, end = cmd.Stmts, "( ", " )"
	case *syntax.Block:
		stmts, open, end = cmd.Stmts, "{ ", "; }"
	default:
		return "", false
	}
	if len(stmts) == 0 {
		return "", false
	}
	var texts []string
	for _, st := range stmts {
		if st.Background || st.Disown || st.Coprocess || st.Negated {
			return "", false
		}
		text, ok := simpleCommandText(st)
		if !ok {
			return "", false
		}
		texts = append(texts, text)
	}
	return open + strings.Join(texts, "; ") + end, true
}

// simpleCommandText prints a simple command as bash's print_simple_command
// does: its assignments and words as written, then its redirections, each
// after a space, in bash's layout (`> f`, `2> f`, `2>&1`, `0>&-`).
func simpleCommandText(st *syntax.Stmt) (string, bool) {
	var parts []string
	printer := syntax.NewPrinter()
	word := func(w *syntax.Word) (string, bool) {
		var sb strings.Builder
		ok := true
		syntax.Walk(w, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob:
				ok = false // bash reprints these in its own layout
			}
			return ok
		})
		if !ok || printer.Print(&sb, w) != nil {
			return "", false
		}
		return sb.String(), true
	}
	// partial: how the text starts, up to what jaiph cannot print
	partial := func() (string, bool) {
		if len(parts) == 0 {
			return "", false
		}
		return strings.Join(parts, " ") + " ", false
	}
	switch cmd := st.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		for _, as := range cmd.Assigns {
			if as.Array != nil || as.Index != nil || as.Naked {
				return partial()
			}
			s := as.Name.Value
			if as.Append {
				s += "+="
			} else {
				s += "="
			}
			if as.Value != nil {
				v, ok := word(as.Value)
				if !ok {
					return partial()
				}
				s += v
			}
			parts = append(parts, s)
		}
		for _, w := range cmd.Args {
			s, ok := word(w)
			if !ok {
				return partial()
			}
			parts = append(parts, s)
		}
	default:
		return "", false
	}
	for _, rd := range st.Redirs {
		fd := ""
		if rd.N != nil {
			if strings.HasPrefix(rd.N.Value, "{") {
				return partial()
			}
			fd = rd.N.Value
		}
		target, ok := word(rd.Word)
		if !ok {
			return partial()
		}
		var s string
		switch rd.Op {
		case syntax.RdrOut, syntax.RdrClob, syntax.AppOut:
			if fd == "1" {
				fd = ""
			}
			s = fd + rd.Op.String() + " " + target
		case syntax.RdrIn, syntax.RdrInOut, syntax.WordHdoc:
			if fd == "0" {
				fd = ""
			}
			s = fd + rd.Op.String() + " " + target
		case syntax.RdrAll, syntax.AppAll:
			s = rd.Op.String() + " " + target
		case syntax.DplOut, syntax.DplIn:
			if target == "-" {
				// bash prints every close as N>&-
				if fd == "" {
					fd = "1"
					if rd.Op == syntax.DplIn {
						fd = "0"
					}
				}
				s = fd + ">&-"
				break
			}
			if strings.Trim(target, "0123456789") != "" || target == "" {
				return partial()
			}
			if fd == "" {
				fd = "1"
				if rd.Op == syntax.DplIn {
					fd = "0"
				}
			}
			s = fd + rd.Op.String() + target
		default:
			return partial()
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, " "), true
}

// jobSpecResult says what a job spec named.
type jobSpecResult int

const (
	jobSpecFound jobSpecResult = iota
	jobSpecNone
	jobSpecAmbiguous
	// jobSpecUnknownText: the name would be matched against a process
	// whose text jaiph does not reproduce.
	jobSpecUnknownText
)

// findJobByName matches name against the first processes of the jobs in
// the table, as bash's get_job_by_name: the jobs from the newest down, each
// job's processes from its first; a second match is an ambiguous spec.
// bash keeps a match on a later process of a pipeline without stepping on,
// so it meets it again and calls the spec ambiguous: so does this.
func (r *Runner) findJobByName(name string, substring bool) (*bgProc, jobSpecResult) {
	if substring && name == "" {
		return nil, jobSpecNone
	}
	var found *bgProc
	lname := strings.ToLower(name)
	for i := len(r.bgProcs) - 1; i >= 0; i-- {
		bg := r.bgProcs[i]
		if !bg.inTable() {
			continue
		}
		for p, proc := range bg.texts {
			var match bool
			if substring {
				match = strings.Contains(strings.ToLower(proc.text), lname)
			} else {
				match = strings.HasPrefix(proc.text, name)
			}
			if !match && !proc.ok && (substring || strings.HasPrefix(name, proc.text)) {
				// the match would depend on text jaiph cannot print
				return nil, jobSpecUnknownText
			}
			if !match {
				continue
			}
			if found != nil || p > 0 {
				return nil, jobSpecAmbiguous
			}
			found = bg
			break
		}
	}
	if found == nil {
		return nil, jobSpecNone
	}
	return found, jobSpecFound
}

// jobSpecName is the name a job spec's errors give for an ambiguous spec:
// without the % and the ? of a substring search.
func jobSpecName(spec string) string {
	name := strings.TrimPrefix(spec, "%")
	return strings.TrimPrefix(name, "?")
}

// reportJobSpec reports a job spec that named no single job, as builtin
// says it: an ambiguous spec, then (alsoNone) that there is no such job;
// none: only that there is no such job.
func (r *Runner) reportJobSpec(builtin, spec string, res jobSpecResult, alsoNone bool) {
	switch res {
	case jobSpecAmbiguous:
		r.errf("%s: %s: ambiguous job spec\n", builtin, jobSpecName(spec))
		if alsoNone {
			r.errf("%s: %s: no such job\n", builtin, spec)
		}
	case jobSpecUnknownText:
		r.errf("%s: %s: jaiph cannot match a job spec by name against this job's command; use %%N or $!\n", builtin, spec)
	default:
		r.errf("%s: %s: no such job\n", builtin, spec)
	}
}
