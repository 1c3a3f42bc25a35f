package codegen

import (
	"fmt"
	"strings"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/lowered"
)

// ImplName is the name of the shell function a body is lowered to.
func ImplName(symbol string) string { return lowered.ImplName(symbol) }

// SafeName maps a symbol to an artifact-safe name.
func SafeName(symbol string) string { return lowered.SafeName(symbol) }

// MapPosition maps a position of lowered source through its line map.
func MapPosition(first int, lines []lowered.Origin, line, col int) (int, int) {
	return lowered.MapPosition(first, lines, line, col)
}

// Ref resolves a reference made in module m to its symbol.
func Ref(m *lowered.Module, r ast.Ref) string {
	if r.Alias == "" {
		return m.Symbol + "::" + r.Name
	}
	return m.Imports[r.Alias] + "::" + r.Name
}

// settings renders a config block (nil: none) as settings in order.
func settings(c *ast.Config) []lowered.Setting {
	if c == nil {
		return nil
	}
	out := make([]lowered.Setting, 0, len(c.Entries))
	for _, e := range c.Entries {
		s := lowered.Setting{Key: e.Key, Value: e.Str, Kind: lowered.String}
		switch e.Kind {
		case ast.ConfigBool:
			s.Value, s.Kind = fmt.Sprint(e.Bool), lowered.Bool
		case ast.ConfigInt:
			s.Value, s.Kind = fmt.Sprint(e.Int), lowered.Int
		case ast.ConfigArray:
			s.Value, s.Kind = strings.Join(e.Array, "\n"), lowered.Array
		}
		out = append(out, s)
	}
	return out
}

// routes resolves a workflow's routes to symbols.
func routes(m *lowered.Module, w *ast.Workflow) []lowered.Route {
	var out []lowered.Route
	for _, r := range w.Routes {
		rt := lowered.Route{Channel: Ref(m, r.Channel)}
		for _, t := range r.Targets {
			rt.Targets = append(rt.Targets, Ref(m, t.Ref))
		}
		out = append(out, rt)
	}
	return out
}
