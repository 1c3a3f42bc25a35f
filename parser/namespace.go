package parser

import (
	"sort"

	"github.com/jaiph-go/jaiph/ast"
)

// checkNamespace reports names declared twice in the module's single
// namespace (channels, rules, functions, workflows, locals), each at the
// later declaration in the file, saying what the earlier one is. (The
// reference visits the kinds in that order, so it can flag the earlier
// declaration; see docs/differences.md.)
func (p *parser) checkNamespace() {
	type decl struct {
		name, kind string
		pos        ast.Pos
	}
	f := p.file
	all := make([]decl, 0, len(f.Channels)+len(f.Rules)+len(f.Functions)+len(f.Workflows)+len(f.Locals))
	for _, c := range p.file.Channels {
		all = append(all, decl{c.Name, "channel", c.Pos})
	}
	for _, r := range p.file.Rules {
		all = append(all, decl{r.Name, "rule", r.Pos})
	}
	for _, f := range p.file.Functions {
		all = append(all, decl{f.Name, "function", f.Pos})
	}
	for _, w := range p.file.Workflows {
		all = append(all, decl{w.Name, "workflow", w.Pos})
	}
	for _, l := range p.file.Locals {
		all = append(all, decl{l.Name, "local", l.Pos})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].pos.Line < all[j].pos.Line })
	kinds := make(map[string]string, len(all))
	for _, d := range all {
		prev, taken := kinds[d.name]
		switch {
		case !taken:
			kinds[d.name] = d.kind
		case d.kind == "local":
			p.errorAt(d.pos.Line, 1, `duplicate name "`+d.name+`" — variable name collides with `+prev+` of the same name`)
		case prev == "local":
			p.errorAt(d.pos.Line, 1, `duplicate name "`+d.name+`" — variable name collides with `+d.kind+` of the same name`)
		case d.kind == "channel" && prev == "channel":
			p.errorAt(d.pos.Line, 1, `duplicate name "`+d.name+`" — channels, rules, workflows, and functions share a single namespace (already declared as channel)`)
		default:
			p.errorAt(d.pos.Line, 1, `duplicate name "`+d.name+`" — rules, workflows, and functions share a single namespace (already declared as `+prev+`)`)
		}
	}
}
