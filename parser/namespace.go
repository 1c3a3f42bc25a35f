package parser

import "github.com/jaiph-go/jaiph/ast"

// checkNamespace reports names declared twice in the module's single
// namespace, in the reference's order: channels, rules, functions, workflows,
// then locals, each at the declaration that collides.
func (p *parser) checkNamespace() {
	kinds := map[string]string{}
	declare := func(name, kind string, pos ast.Pos) {
		prev, taken := kinds[name]
		switch {
		case !taken:
			kinds[name] = kind
		case kind == "channel":
			p.errorAt(pos.Line, 1, `duplicate name "`+name+`" — channels, rules, workflows, and functions share a single namespace (already declared as channel)`)
		default:
			p.errorAt(pos.Line, 1, `duplicate name "`+name+`" — rules, workflows, and functions share a single namespace (already declared as `+prev+`)`)
		}
	}
	for _, c := range p.file.Channels {
		declare(c.Name, "channel", c.Pos)
	}
	for _, r := range p.file.Rules {
		declare(r.Name, "rule", r.Pos)
	}
	for _, f := range p.file.Functions {
		declare(f.Name, "function", f.Pos)
	}
	for _, w := range p.file.Workflows {
		declare(w.Name, "workflow", w.Pos)
	}
	for _, l := range p.file.Locals {
		if prev, taken := kinds[l.Name]; taken {
			p.errorAt(l.Line, 1, `duplicate name "`+l.Name+`" — variable name collides with `+prev+` of the same name`)
			continue
		}
		kinds[l.Name] = "local"
	}
}
