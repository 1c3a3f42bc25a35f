package bashcheck

import (
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// altListWords calls fn with each unquoted ${name OP word} (OP one of -,
// :-, +, :+, =, :=, ?, :?) in a word that is split into fields whose
// word holds an unquoted $@, ${@…} or ${name[@]…}: bash joins and splits
// those with an IFS of its own rules (with IFS=$'\t', ${v+${a[@]^}} is one
// field; with IFS=': ', ${v+${a[@]}} keeps each element), which the
// interpreter follows only for the default IFS.
func altListWords(w *syntax.Word, fn func(*syntax.ParamExp)) {
	for _, part := range w.Parts {
		pe, ok := part.(*syntax.ParamExp)
		if !ok || pe.Exp == nil || pe.Exp.Word == nil {
			continue
		}
		switch pe.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
			syntax.AssignUnset, syntax.AssignUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		default:
			continue
		}
		for _, inner := range pe.Exp.Word.Parts {
			if expand.IsListParamExp(inner) {
				fn(pe)
				break
			}
		}
		altListWords(pe.Exp.Word, fn)
	}
}

// litIFS reports whether a command's operand is the literal word IFS
// (read IFS, printf -v IFS, unset IFS: the command sets IFS).
func litIFS(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	return ok && l.Value == "IFS"
}
