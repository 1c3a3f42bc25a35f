package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

	"github.com/jaiph-go/jaiph/internal/shellscan"
	"github.com/jaiph-go/jaiph/lowered"
)

// Env is an ordered KEY=VALUE environment with last-wins lookups.
type Env struct{ vars map[string]string }

// NewEnv copies a KEY=VALUE list.
func NewEnv(list []string) *Env {
	e := &Env{vars: map[string]string{}}
	for _, kv := range list {
		if k, v, ok := strings.Cut(kv, "="); ok {
			e.vars[k] = v
		}
	}
	return e
}

// Get returns a variable's value.
func (e *Env) Get(k string) string { return e.vars[k] }

// Has reports whether a variable is set.
func (e *Env) Has(k string) bool { _, ok := e.vars[k]; return ok }

// Set sets a variable.
func (e *Env) Set(k, v string) { e.vars[k] = v }

// Unset removes a variable.
func (e *Env) Unset(k string) { delete(e.vars, k) }

// List returns KEY=VALUE pairs.
func (e *Env) List() []string {
	out := make([]string, 0, len(e.vars))
	for k, v := range e.vars {
		out = append(out, k+"="+v)
	}
	return out
}

// PrepareEnv builds the run environment (docs/cli.md#jaiph-run, docs/language.md#locals): workspace and
// source variables, locks for scoped variables the caller set, load-time
// config defaults of every module, the trusted workspace default, and the
// evaluated module locals (returned per module symbol). Locals see args as
// their positional parameters, as the reference's script-level variables
// see the run's arguments. Modules load from entry through their imports
// (Deps) among mods.
func PrepareEnv(ctx context.Context, base []string, entry *lowered.Module, mods []*lowered.Module, workspace, source string, args []string) (*Env, map[string][]Local, error) {
	env := NewEnv(base)
	// bash ignores an IFS in its environment; the run's shells do too.
	for _, k := range []string{"BASH_ENV", "JAIPH_RUN_DIR", "JAIPH_RUN_SUMMARY_FILE", "JAIPH_PRECEDING_FILES", "IFS"} {
		env.Unset(k)
	}
	env.Set("JAIPH_WORKSPACE", workspace)
	env.Set("JAIPH_SOURCE_FILE", source)
	for _, v := range scopedVars {
		if env.Get(v) != "" {
			env.Set(v+"_LOCKED", "1")
		}
	}
	bySym := map[string]*lowered.Module{}
	for _, m := range mods {
		bySym[m.Symbol] = m
	}
	locals := map[string][]Local{}
	visited := map[string]bool{}
	var load func(m *lowered.Module) error
	load = func(m *lowered.Module) error {
		if visited[m.Symbol] {
			return nil
		}
		visited[m.Symbol] = true
		for _, e := range m.Config {
			v, ok := scopedVars[e.Key]
			if !ok || env.Get(v) != "" {
				continue
			}
			if e.Kind == lowered.Bool && e.Value != "true" { // booleans only when true
				continue
			}
			env.Set(v, e.Value)
		}
		for _, sym := range m.Deps {
			if dep := bySym[sym]; dep != nil {
				if err := load(dep); err != nil {
					return err
				}
			}
		}
		ls, err := evalLocals(ctx, m, env, workspace, args)
		if err != nil {
			return err
		}
		locals[m.Symbol] = ls
		return nil
	}
	if err := load(entry); err != nil {
		return nil, nil, err
	}
	if env.Get("JAIPH_AGENT_TRUSTED_WORKSPACE") == "" {
		tw := workspace
		if e := entry.Setting("agent.trusted_workspace"); e != nil && e.Kind == lowered.String && e.Value != "" {
			tw = e.Value
			if !filepath.IsAbs(tw) {
				tw = filepath.Join(workspace, tw)
			}
		}
		env.Set("JAIPH_AGENT_TRUSTED_WORKSPACE", tw)
	}
	return env, locals, nil
}

// EnvName is the exported variable of a module local: the module symbol with
// `::` replaced by `__`, then `__<name>`.
func EnvName(modSym, name string) string {
	return strings.ReplaceAll(modSym, "::", "__") + "__" + name
}

// evalLocals evaluates a module's locals in order (docs/language.md#locals): references
// to other locals are substituted with their raw values, the result is
// escaped and expanded as a double-quoted shell word, and exported.
func evalLocals(ctx context.Context, m *lowered.Module, env *Env, dir string, args []string) ([]Local, error) {
	raw := map[string]string{}
	for _, l := range m.Locals {
		raw[l.Name] = l.Value
	}
	var subst func(v string, depth int) string
	subst = func(v string, depth int) string {
		if depth > 64 {
			return v
		}
		return localRef().ReplaceAllStringFunc(v, func(ref string) string {
			name := strings.Trim(strings.TrimPrefix(ref, "$"), "{}")
			if val, ok := raw[name]; ok {
				return subst(val, depth+1)
			}
			return ref
		})
	}
	// One shell, made at the first value that needs expanding, expands
	// them all and gets each local exported once set, as the reference's
	// script-level assignments run in one shell. (A shell per value copied
	// the environment, which grows by one per local: quadratic.)
	var sh *interp.Runner
	var out []Local
	for _, l := range m.Locals {
		val := subst(l.Value, 0)
		// Only $, ` and \ are special in double quotes: a value without
		// them is its own expansion.
		if strings.ContainsAny(val, "$`\\") {
			v := strings.ReplaceAll(val, `\`, `\\`)
			v = strings.ReplaceAll(v, `"`, `\"`)
			f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("__jaiph_v=\n__jaiph_v=\""+v+"\"\n"), "local")
			if err == nil && sh == nil {
				// The reference's script runs `set -euo pipefail` before
				// its locals: an unset variable or a failing `$(…)` in a
				// value ends the run with that status.
				sh, err = newRunner(runnerConfig{env: envFromList(env.List()), dir: dir, stderr: os.Stderr,
					params: append([]string{"-euo", "pipefail", "--"}, args...), keepVars: true})
			}
			var status int
			if err == nil {
				status, err = runStatus(ctx, sh, f)
			}
			if err != nil {
				return nil, fmt.Errorf("local %s: %w", l.Name, err)
			}
			if status != 0 {
				return nil, &LocalError{Module: m.Symbol, Name: l.Name, Status: status}
			}
			val = sh.Vars["__jaiph_v"].String()
		}
		name := EnvName(m.Symbol, l.Name)
		env.Set(name, val)
		if sh != nil {
			// `export NAME=VALUE` built as a syntax tree with the value
			// one single-quoted word: data, never parsed as code.
			err := runIn(ctx, sh, &syntax.DeclClause{Variant: &syntax.Lit{Value: "export"}, Args: []*syntax.Assign{{
				Name:  &syntax.Lit{Value: name},
				Value: &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: val}}},
			}}})
			if err != nil {
				return nil, fmt.Errorf("local %s: %w", l.Name, err)
			}
		}
		out = append(out, Local{Name: l.Name, EnvName: name, Value: val})
	}
	return out, nil
}

// LocalError is a module local whose value failed to expand (an unset
// variable under the reference's `set -u`, a failing command substitution
// under its `set -e`): the run ends with Status before anything runs; the
// shell has already said why on stderr.
type LocalError struct {
	Module, Name string
	Status       int
}

func (e *LocalError) Error() string {
	return fmt.Sprintf("local %s of module %s: its value failed (status %d)", e.Name, e.Module, e.Status)
}

// runStatus runs node in sh and returns its exit status.
func runStatus(ctx context.Context, sh *interp.Runner, node syntax.Node) (int, error) {
	if err := sh.Run(ctx, node); err != nil {
		if st, ok := interp.IsExitStatus(err); ok {
			return int(st), nil
		}
		return 1, err
	}
	return 0, nil
}

// runIn runs node in sh; an exit status is not an error (a value whose
// expansion fails is empty: __jaiph_v is emptied first).
func runIn(ctx context.Context, sh *interp.Runner, node syntax.Node) error {
	if err := sh.Run(ctx, node); err != nil {
		if _, ok := interp.IsExitStatus(err); !ok {
			return err
		}
	}
	return nil
}

// localRef matches `$NAME` and `${NAME}` references in a local's raw value.
var localRef = shellscan.VarRef
