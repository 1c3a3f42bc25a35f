// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"cmp"
	"context"
	cryptorand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/internal"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

func newOverlayEnviron(parent expand.Environ, background bool) *overlayEnviron {
	oenv := &overlayEnviron{}
	if !background {
		oenv.parent = parent
	} else {
		// We could do better here if the parent is also an overlayEnviron;
		// measure with profiles or benchmarks before we choose to do so.
		//
		// jaiph-go patch: a local without a value (bash's invisible
		// variable) goes to a scope above the copy, so that what it
		// hides stays in the copy for a command's environment, as in
		// the shell's own scopes (execEnv, which skips it).
		var invisible *overlayEnviron
		po, _ := parent.(*overlayEnviron)
		own := func(e *overlayEnviron, name string, vr expand.Variable) {
			if vr.Local && po != nil && po.ownsLocal(name) {
				if e.ownLocals == nil {
					e.ownLocals = map[string]bool{}
				}
				e.ownLocals[e.normalize(name)] = true
			}
		}
		for name, vr := range parent.Each {
			if !vr.IsSet() && vr.Local {
				if invisible == nil {
					invisible = &overlayEnviron{values: map[string]namedVariable{}}
				}
				invisible.values[invisible.normalize(name)] = namedVariable{name, vr}
				own(invisible, name, vr)
				continue
			}
			if invisible != nil {
				delete(invisible.values, invisible.normalize(name))
			}
			oenv.Set(name, vr)
			own(oenv, name, vr)
		}
		if invisible != nil && len(invisible.values) > 0 {
			invisible.parent = oenv
			return invisible
		}
	}
	return oenv
}

// overlayEnviron is our main implementation of [expand.WriteEnviron].
type overlayEnviron struct {
	// parent is non-nil if [values] is an overlay over a parent environment
	// which we can safely reuse without data races, such as non-background subshells
	// or function calls.
	parent expand.Environ

	// values maps normalized variable names, per [overlayEnviron.normalize].
	values map[string]namedVariable

	// unsetLocal: values holds a local unset here, which Each looks under
	// (jaiph-go patch).
	unsetLocal bool

	// We need to know if the current scope is a function's scope, because
	// functions can modify global variables. When true, [parent] must not be nil.
	funcScope bool

	// jaiph-go patch: tempScope holds a function call's prefix bindings
	// (`t=temp f`), a scope of its own between the caller's and the
	// function's, as bash's temporary environment: assignments to a
	// bound name change the binding (gone with the call), an unset
	// uncovers what it hid, other names go through to the caller's.
	tempScope bool
	// builtinEnv: tempScope holds the prefix bindings of eval, source
	// or . (jaiph-go patch): bash pushes that temporary environment as a
	// scope of the function running the builtin, and `local NAME` of a
	// name bound there makes the binding itself that function's local
	// (make_local_variable), which an unset then leaves unset rather
	// than uncovering what it hid.
	builtinEnv bool
	// ownLocals (jaiph-go patch): in a subshell's copy of a function's
	// scope, the names it holds that are that function's own locals,
	// not a calling function's: declared in the subshell, or, in a
	// background subshell's flat copy, the function's locals when the
	// copy was made. A declaration reaches them as bash's does the
	// function's locals (declare -i m=1; declare m=2+2 in a pipeline
	// part gives 4), and a local of a calling function is shadowed.
	ownLocals map[string]bool
	// shadowedGlobals (jaiph-go patch): in a subshell's copy, the
	// global values its own locals took the place of (see Set).
	shadowedGlobals map[string]namedVariable
}

// markOwnLocal records that the subshell's copy of a function's scope
// holds name as one of the function's own locals (see ownLocals).
func (r *Runner) markOwnLocal(name string) {
	o, ok := r.writeEnv.(*overlayEnviron)
	if !ok || o.funcScope || o.tempScope {
		return
	}
	if o.ownLocals == nil {
		o.ownLocals = map[string]bool{}
	}
	o.ownLocals[o.normalize(name)] = true
}

// namedVariable records the original name of a variable for platforms
// where variable names are matched in a case-insensitive way.
type namedVariable struct {
	// TODO(v4): consider adding this field to [expand.Variable],
	// as a general way for a variable to report its original name.
	// This can be useful for GOOS=windows with case insensitive env vars,
	// as otherwise it's not possible to Environ.Get a var
	// and know what was its original name without looping over Environ.Each.
	Name string
	expand.Variable
}

func (o *overlayEnviron) normalize(name string) string {
	if runtime.GOOS == "windows" {
		return strings.ToUpper(name)
	}
	return name
}

func (o *overlayEnviron) Get(name string) expand.Variable {
	normalized := o.normalize(name)
	if vr, ok := o.values[normalized]; ok {
		return vr.Variable
	}
	if o.parent != nil {
		return o.parent.Get(name)
	}
	return expand.Variable{}
}

func (o *overlayEnviron) Set(name string, vr expand.Variable) error {
	normalized := o.normalize(name)
	prev, inOverlay := o.values[normalized]
	if o.tempScope { // jaiph-go patch: see tempScope
		if !inOverlay {
			return o.parent.(expand.WriteEnviron).Set(name, vr)
		}
		if !vr.IsSet() && vr.Kind != expand.KeepValue {
			if prev.ReadOnly {
				return errReadOnly
			}
			if o.builtinEnv && prev.Local { // see builtinEnv
				o.values[normalized] = namedVariable{name, expand.Variable{Local: true}}
				return nil
			}
			delete(o.values, normalized)
			return nil
		}
	}
	// jaiph-go patch: as in bash, unsetting a calling function's local
	// (a previous scope's) uncovers the variable it shadowed; only the
	// current function's own local stays shadowed, unset.
	// A new local declared without a value (declare -A m) is no unset.
	if o.funcScope && !inOverlay && !vr.IsSet() && vr.Kind != expand.KeepValue && !vr.Local && o.parent.Get(name).Local {
		return o.parent.(*overlayEnviron).unsetBelow(name)
	}
	// Manipulation of a global var inside a function.
	if o.funcScope && !vr.Local && !prev.Local {
		// In a function, the parent environment is ours, so it's always read-write.
		return o.parent.(expand.WriteEnviron).Set(name, vr)
	}
	if !inOverlay && o.parent != nil {
		prev.Variable = o.parent.Get(name)
		// jaiph-go patch: as in bash, a new local may shadow a calling
		// function's readonly local (only a readonly global is kept
		// from getting a local copy, below and in setVarErr's check).
		if vr.Local && prev.Local && (o.funcScope || o.newLocal(name)) {
			prev.ReadOnly = false
		}
	}

	if o.values == nil {
		o.values = make(map[string]namedVariable)
	}
	if inOverlay && vr.Local && !prev.Local && !o.funcScope && !o.tempScope {
		// jaiph-go patch: a subshell's own local over the subshell's
		// copy of a global of that name: bash keeps both, so keep the
		// global's for what sees the globals (globalScope: declare -g).
		if o.shadowedGlobals == nil {
			o.shadowedGlobals = map[string]namedVariable{}
		}
		o.shadowedGlobals[normalized] = prev
	}
	if vr.Kind == expand.KeepValue && vr.Local && (o.funcScope && !inOverlay || !o.funcScope && !o.tempScope && o.newLocal(name)) {
		// jaiph-go patch: as in bash (make_local_variable), a global
		// readonly variable cannot get a local copy (`local v`, `declare
		// -i v` in a function fail); a caller's readonly local can.
		if prev.ReadOnly && !prev.Local {
			return errReadOnly
		}
		// jaiph-go patch: as in bash, a bare `local x` starts unset
		// rather than with the caller's value — but with the value of
		// the call's prefix binding (`x=v f`), as bash's local takes a
		// temporary environment's.
		// The nearest scope holding name decides: a call's binding
		// further up (`w=T f2`, f2 calls f1, f1 does `local w`) is
		// inherited too, as bash's find_variable meets it first.
		keep := expand.Variable{}
		for e, ok := o.parent.(*overlayEnviron); ok; e, ok = e.parent.(*overlayEnviron) {
			if b, held := e.values[e.normalize(name)]; held {
				if e.tempScope || e.callBinding(name) != nil {
					// a binding, or a local sharing the cell of
					// its call's binding (still bash's tempvar)
					keep = b.Variable
				}
				break
			}
		}
		keep.Local, keep.Exported, keep.ReadOnly = true, vr.Exported || keep.Exported, vr.ReadOnly
		keep.Integer, keep.Lower, keep.Upper = vr.Integer || keep.Integer, vr.Lower || keep.Lower, vr.Upper || keep.Upper
		o.values[normalized] = namedVariable{name, keep}
		return nil
	}
	if vr.Kind == expand.KeepValue {
		vr.Kind = prev.Kind
		vr.Str = prev.Str
		vr.List = prev.List
		vr.Indexes = prev.Indexes
		vr.Map = prev.Map
		vr.MapSeq = prev.MapSeq // jaiph-go patch
	} else if prev.ReadOnly {
		return errReadOnly
	}
	if !vr.IsSet() { // unsetting
		// jaiph-go patch: in a subshell, unsetting a calling function's
		// local (see above) or a prefix binding uncovers, in the
		// subshell's copy, what it shadowed; the shell's own scopes are
		// left alone.
		if !o.funcScope && (prev.Local && !o.ownsLocal(name) || o.tempBound(name)) {
			if p, ok := o.parent.(*overlayEnviron); ok {
				o.values[normalized] = namedVariable{name, p.revealedBelow(name)}
				return nil
			}
		}
		if prev.Local {
			vr.Local = true
			o.values[normalized] = namedVariable{name, vr}
			o.unsetLocal = true
			return nil
		}
		delete(o.values, normalized)
	}
	// modifying the entire variable
	vr.Local = prev.Local || vr.Local
	o.values[normalized] = namedVariable{name, vr}
	return nil
}

// newLocal says a local named name declared in o would be a new one, not
// yet a local of the current function (jaiph-go patch). In a subshell's
// copy of a function's scope, as in the function's own, a local the
// function or the subshell declared is not new; a global, even one the
// subshell assigned, is: bash makes the local in the function's scope
// either way (`v=5; ( declare -i v=v+1 )` in a function gives 1).
func (o *overlayEnviron) newLocal(name string) bool {
	n := o.normalize(name)
	for e := o; e != nil; {
		if vr, ok := e.values[n]; ok {
			// a subshell's copy of a calling function's local: the
			// function's scope below decides (a flat copy has none:
			// new)
			if !(vr.Local && !e.funcScope && !e.tempScope && !e.ownLocals[n]) {
				return !vr.Local
			}
			if e.parent == nil {
				return true
			}
		}
		if e.funcScope {
			return true
		}
		p, ok := e.parent.(*overlayEnviron)
		if !ok || e.tempScope {
			return false
		}
		e = p
	}
	return false
}

// refTarget is the variable a command assigning name binds (jaiph-go
// patch): the one a nameref name names, as bash's bind_variable follows
// it (read, mapfile, getopts, select); name itself otherwise.
func (r *Runner) refTarget(name string) string {
	if n, _ := r.lookupVar(name).Resolve(r.writeEnv); n != "" {
		return n
	}
	return name
}

// globalEnv is where declare -g binds a name inside a function (jaiph-go
// patch): the scope under every function's, bash's global_variables, so
// that a calling function's local of the name keeps its value and goes
// on hiding the global. In a subshell started inside a function the
// scopes under the subshell's are the parent shell's, which it must not
// change: the subshell's own scope is used. Nil outside a function.
func (r *Runner) globalEnv() *overlayEnviron {
	top, ok := r.writeEnv.(*overlayEnviron)
	if !ok || !r.inFunc {
		return nil
	}
	var levels []*overlayEnviron
	lastScope := -1 // the lowest function's or prefix bindings' scope
	for o, ok := top, true; ok; o, ok = o.parent.(*overlayEnviron) {
		if o.funcScope || o.tempScope {
			lastScope = len(levels)
		}
		levels = append(levels, o)
	}
	if lastScope < 0 || lastScope+1 == len(levels) {
		return nil
	}
	// the innermost subshell's copy of the globals, above the scopes
	// of the functions it runs (a subshell inside a command
	// substitution or another subshell keeps its globals to itself)
	for i := 0; i <= lastScope; i++ {
		if o := levels[i]; !o.funcScope && !o.tempScope {
			return o
		}
	}
	return levels[lastScope+1]
}

// declaredRef is the variable a declaration of name sees: with -g in a
// function the global one, not a caller's local nameref (jaiph-go patch).
func (r *Runner) declaredRef(name string, global bool) expand.Variable {
	if !global || !r.inFunc {
		return r.lookupVar(name)
	}
	return r.globalVar(name)
}

// globalVar is the global variable name as a function sees it, under
// every function's local (jaiph-go patch); nothing outside a function.
func (r *Runner) globalVar(name string) expand.Variable {
	g := r.globalEnv()
	if g == nil {
		return expand.Variable{}
	}
	if r.subshellLevel == 0 {
		return g.Get(name)
	}
	// in a subshell the scope globalEnv gives holds copies of the
	// callers' locals too (or sees them through its parents): the
	// globals are what is not marked local
	return globalScopeGet(r.writeEnv, name)
}

// globalScopeGet is globalScope(env).Get(name), found by walking env's
// levels rather than copying every variable (jaiph-go patch).
func globalScopeGet(env expand.Environ, name string) expand.Variable {
	for e := env; e != nil; {
		o, ok := e.(*overlayEnviron)
		if !ok {
			return e.Get(name)
		}
		if !o.funcScope && !o.tempScope {
			n := o.normalize(name)
			if vr, held := o.values[n]; held && !vr.Local {
				return vr.Variable
			} else if g, shadowed := o.shadowedGlobals[n]; held && shadowed {
				return g.Variable
			}
		}
		e = o.parent
	}
	return expand.Variable{}
}

// callerNameref says the nameref name resolves to is a function's local,
// not the global: declare -g NAME then declares the global NAME, not what
// the local nameref names (jaiph-go patch).
func (r *Runner) callerNameref(name string) bool {
	if r.globalEnv() == nil {
		return false
	}
	return r.globalVar(name).Kind != expand.NameRef
}

// localBelow says a function scope, or a call's prefix bindings, under o
// hold name (jaiph-go patch): a local that hides the global of that name
// from o and everything above it.
func (o *overlayEnviron) localBelow(name string) bool {
	for e, ok := o.parent.(*overlayEnviron); ok; e, ok = e.parent.(*overlayEnviron) {
		if e.funcScope || e.tempScope {
			if _, held := e.values[e.normalize(name)]; held {
				return true
			}
		}
	}
	return false
}

// globalScope is env without its functions' scopes (jaiph-go patch): the
// global variables as a shell inside functions, or a subshell of one, sees
// them, with what it assigned to them; no local, no call's prefix
// binding. A copy: the caller goes on with env.
func globalScope(env expand.Environ) *overlayEnviron {
	var levels []*overlayEnviron
	var base expand.Environ
	for e := env; e != nil; {
		o, ok := e.(*overlayEnviron)
		if !ok {
			base = e
			break
		}
		levels = append(levels, o)
		e = o.parent
	}
	view := &overlayEnviron{values: map[string]namedVariable{}}
	if base != nil {
		for name, vr := range base.Each {
			view.values[view.normalize(name)] = namedVariable{name, vr}
		}
	}
	for _, o := range slices.Backward(levels) {
		if o.funcScope || o.tempScope {
			continue
		}
		for n, vr := range o.values {
			if !vr.Local {
				view.values[n] = vr
			} else if g, ok := o.shadowedGlobals[n]; ok {
				view.values[n] = g
			}
		}
	}
	return view
}

// ownsLocal says name is a local of the current function: the nearest
// function scope, looking through subshells' overlays, holds it.
// readonlyHere tells whether setting name to vr fails as readonly
// (jaiph-go patch, see setVarErr): the variable seen is readonly, and vr
// is not a new local shadowing a calling function's readonly local.
func (r *Runner) readonlyHere(name string, vr expand.Variable) bool {
	cur := r.peekVar(name) // not a number drawn from RANDOM
	if !cur.ReadOnly {
		return false
	}
	return !(vr.Local && cur.Local && r.newLocalHere(name))
}

// newLocalHere tells whether a local named name set now would be a new
// one (jaiph-go patch), as overlayEnviron.Set decides: the current
// function's scope, or a subshell's copy of it, holds no local name.
func (r *Runner) newLocalHere(name string) bool {
	o, ok := r.writeEnv.(*overlayEnviron)
	return ok && !o.tempScope && o.newLocal(name)
}

func (o *overlayEnviron) ownsLocal(name string) bool {
	for e := o; e != nil; {
		if e.builtinEnv {
			if vr, ok := e.values[e.normalize(name)]; ok {
				return vr.Local // see builtinEnv
			}
		}
		if e.funcScope {
			vr, ok := e.values[e.normalize(name)]
			return ok && vr.Local
		}
		if vr, ok := e.values[e.normalize(name)]; ok && e.ownLocals[e.normalize(name)] {
			return vr.Local
		}
		p, ok := e.parent.(*overlayEnviron)
		if !ok || e.tempScope {
			return false
		}
		e = p
	}
	return false
}

// localToEmptyArray makes name's local in the nearest function scope an
// empty indexed array, its attributes kept, as bash's
// make_local_array_variable does to a scalar local before the value of
// `local -a name=…` is assigned, readonly or not (jaiph-go patch). It
// reports whether there was such a local.
func (o *overlayEnviron) localToEmptyArray(name string) bool {
	for e := o; e != nil; {
		if e.funcScope {
			n := e.normalize(name)
			vr, ok := e.values[n]
			if !ok || !vr.Local || vr.Kind != expand.String && (vr.Kind != expand.Unknown || vr.Set) {
				return false
			}
			// a local without a value (declare v) becomes an array
			// without one
			vr.Kind, vr.List, vr.Str, vr.Indexes = expand.Indexed, []string{}, "", nil
			// written in the current overlay: a subshell's change
			// stays in the subshell
			if o.values == nil {
				o.values = make(map[string]namedVariable)
			}
			o.values[o.normalize(name)] = vr
			return true
		}
		p, ok := e.parent.(*overlayEnviron)
		if !ok || e.tempScope {
			return false
		}
		e = p
	}
	return false
}

// replaceHeld puts vr in the place of the variable name that the nearest
// scope holding it binds, readonly or not, keeping its Local flag, and
// reports whether a scope held it (jaiph-go patch: a declaration changing
// a readonly variable's kind, see readonlyToArray). Past a subshell's
// scope the change goes into that scope, the subshell's copy.
func (o *overlayEnviron) replaceHeld(name string, vr expand.Variable) bool {
	var sub *overlayEnviron // the nearest subshell scope passed on the way up
	for e := o; e != nil; {
		n := e.normalize(name)
		if held, ok := e.values[n]; ok {
			w := e
			if sub != nil {
				w = sub
				if w.values == nil {
					w.values = make(map[string]namedVariable)
				}
			}
			vr.Local = held.Local
			w.values[w.normalize(name)] = namedVariable{name, vr}
			return true
		}
		if !e.funcScope && !e.tempScope && sub == nil {
			sub = e
		}
		p, ok := e.parent.(*overlayEnviron)
		if !ok {
			return false
		}
		e = p
	}
	return false
}

// holds says the scope itself binds name (jaiph-go patch).
func (o *overlayEnviron) holds(name string) bool {
	_, ok := o.values[o.normalize(name)]
	return ok
}

// tempBound says the name's nearest binding, looking through subshells'
// copies, is a function call's prefix binding.
func (o *overlayEnviron) tempBound(name string) bool {
	for e := o; e != nil; {
		if vr, ok := e.values[e.normalize(name)]; ok && (e.funcScope || e.tempScope) {
			return e.tempScope && !(e.builtinEnv && vr.Local) // see builtinEnv
		}
		p, ok := e.parent.(*overlayEnviron)
		if !ok {
			return false
		}
		e = p
	}
	return false
}

// unsetBelow unsets name in the calling scope that holds it as a local
// or a prefix binding: the variable it shadowed shows again.
func (o *overlayEnviron) unsetBelow(name string) error {
	n := o.normalize(name)
	if o.funcScope || o.tempScope {
		if vr, ok := o.values[n]; ok && (vr.Local || o.tempScope) {
			if vr.ReadOnly {
				return errReadOnly
			}
			delete(o.values, n)
			if b := o.callBinding(name); b != nil {
				delete(b.values, n) // the binding goes with the local
			}
			return nil
		}
		if p, ok := o.parent.(*overlayEnviron); ok {
			return p.unsetBelow(name)
		}
	}
	if p, ok := o.parent.(*overlayEnviron); ok {
		// A subshell's overlay: copy what shows below the local.
		if o.values == nil {
			o.values = make(map[string]namedVariable)
		}
		o.values[n] = namedVariable{name, p.revealedBelow(name)}
		return nil
	}
	return o.Set(name, expand.Variable{})
}

// callBinding is the prefix bindings' scope of o's function call when it
// binds name and o is that function's scope (jaiph-go patch): bash keeps
// a call's bindings in the function's own variable context, one cell with
// its local of the same name, so a caller's unset of the local (`w=T f`, f
// does `local w=L`, a helper unsets w) removes the binding too and
// uncovers the caller's w.
func (o *overlayEnviron) callBinding(name string) *overlayEnviron {
	if !o.funcScope {
		return nil
	}
	if p, ok := o.parent.(*overlayEnviron); ok && p.tempScope {
		if _, bound := p.values[p.normalize(name)]; bound {
			return p
		}
	}
	return nil
}

// revealedBelow is what name shows once the nearest function's local (or
// prefix binding) holding it is gone.
func (o *overlayEnviron) revealedBelow(name string) expand.Variable {
	if vr, ok := o.values[o.normalize(name)]; ok && (o.funcScope && vr.Local || o.tempScope) {
		if b := o.callBinding(name); b != nil {
			return b.parent.Get(name) // the binding goes with the local
		}
		return o.parent.Get(name)
	}
	if p, ok := o.parent.(*overlayEnviron); ok {
		return p.revealedBelow(name)
	}
	return expand.Variable{}
}

func (o *overlayEnviron) Each(f func(name string, vr expand.Variable) bool) {
	if o.parent != nil && (o.funcScope || o.tempScope || !o.unsetLocal) {
		o.parent.Each(f)
	} else if o.parent != nil {
		// jaiph-go patch: a subshell's copy of a function's local it
		// unset (an unset local here) is that local unset, as in bash's
		// forked child: the function's set one is not given as well
		// (${!a*} listed it); a global below stays
		o.parent.Each(func(name string, vr expand.Variable) bool {
			if own, ok := o.values[o.normalize(name)]; ok && vr.Local && own.Local && !own.IsSet() {
				return true
			}
			return f(name, vr)
		})
	}
	for _, vr := range o.values {
		if !f(vr.Name, vr.Variable) {
			return
		}
	}
}

// execEnv is a command's environment: the exported string variables.
// env lists a name once per scope holding it, the outermost first; the
// innermost decides, so an unset or unexported variable keeps an outer
// exported one out (jaiph-go patch: upstream zeroed only for an unset
// one), except a local without a value (`local e`, or unset in its own
// function), which hides nothing: bash skips its invisible variables.
func execEnv(env expand.Environ) []string {
	var names []string
	vals := make(map[string]*string, 64)
	for name, vr := range env.Each {
		if !vr.IsSet() && vr.Local {
			continue
		}
		if _, seen := vals[name]; !seen {
			names = append(names, name)
		}
		vals[name] = nil
		if vr.Exported && vr.IsSet() && vr.Kind == expand.String {
			val := vr.String()
			vals[name] = &val
		} else if vr.Exported && vr.Kind == expand.NameRef && vr.IsSet() {
			// jaiph-go patch: an exported nameref passes its own
			// value (the name), as bash.
			val := vr.Str
			vals[name] = &val
		}
	}
	list := make([]string, 0, len(names))
	for _, name := range names {
		if v := vals[name]; v != nil {
			list = append(list, name+"="+*v)
		}
	}
	return list
}

func (r *Runner) lookupVar(name string) expand.Variable {
	if name == "" {
		panic("variable name must not be empty")
	}
	if len(name) > 1 && name[0] == '0' && strings.Trim(name, "0123456789") == "" {
		// jaiph-go patch: a positional parameter's number may have
		// leading zeros (${01} is $1, ${000} and ${!v} of v=000 are $0),
		// as bash reads it with atoi
		name = strings.TrimLeft(name, "0")
		if name == "" {
			name = "0"
		}
	}
	var vr expand.Variable
	switch name {
	case "#":
		vr.Kind, vr.Str = expand.String, strconv.Itoa(len(r.Params))
	case "@", "*":
		vr.Kind = expand.Indexed
		if r.Params == nil {
			// r.Params may be nil but positional parameters always exist
			vr.List = []string{}
		} else {
			vr.List = r.Params
		}
	case "!":
		if n := len(r.bgProcs); n > 0 {
			// jaiph-go patch: a number, as in bash (jaiph_jobs.go)
			vr.Kind, vr.Str = expand.String, strconv.Itoa(r.bgProcs[n-1].pid)
		}
	case "?":
		vr.Kind, vr.Str = expand.String, strconv.Itoa(int(r.lastExit.code))
	case "-":
		// Note that we don't support some of Bash's flags, such as h or B.
		vr.Kind, vr.Str = expand.String, r.posixOptFlags()
	case "$":
		vr.Kind, vr.Str = expand.String, strconv.Itoa(os.Getpid())
	case "PPID":
		// jaiph-go patch: readonly and integer, as bash's (declare -ir).
		vr.Kind, vr.Str = expand.String, strconv.Itoa(os.Getppid())
		vr.ReadOnly, vr.Integer = true, true
	case "RANDOM": // not for cryptographic use
		// jaiph-go patch: bash's generator (jaiph_random.go); once
		// unset, RANDOM is an ordinary variable. [Runner.subshell] does
		// not copy the generator, so subshells start afresh like in bash.
		if r.randomUnset || r.writeEnv.Get(name).Local {
			break // an ordinary variable: unset once, or a function's local
		}
		vr.Kind, vr.Str = expand.String, strconv.Itoa(r.randomNumber())
		vr.Integer = true // jaiph-go patch: declare -i, as bash's
	case "SRANDOM": // pseudo-random generator from the system
		var p [4]byte
		cryptorand.Read(p[:])
		n := binary.NativeEndian.Uint32(p[:])
		vr.Kind, vr.Str = expand.String, strconv.FormatUint(uint64(n), 10)
		vr.Integer = true // jaiph-go patch: declare -i, as bash's
	case "DIRSTACK":
		// jaiph-go patch: as bash, the top (the current directory)
		// first, in dirs' order.
		list := []string{r.Dir}
		for _, d := range slices.Backward(r.dirList()) {
			list = append(list, d)
		}
		vr.Kind, vr.List = expand.Indexed, list
	// jaiph-go patch: bash's FUNCNAME, BASHPID, BASH_VERSION and
	// BASH_VERSINFO, reporting the bash 5.2.15 that jaiph-go follows.
	case "FUNCNAME":
		if len(r.funcStack) > r.sourceFrames {
			list := append(slices.Clone(r.funcStack), "main")
			slices.Reverse(list[:len(r.funcStack)])
			vr.Kind, vr.List = expand.Indexed, list
		} else if r.funcnameMain {
			vr.Kind, vr.List = expand.Indexed, []string{"main"}
		}
	case "BASH_SUBSHELL": // jaiph-go patch
		vr.Kind, vr.Str = expand.String, strconv.Itoa(r.subshellLevel)
	case "BASHPID":
		pid := r.bashPID
		if pid == 0 {
			pid = os.Getpid()
		}
		vr.Kind, vr.Str = expand.String, strconv.Itoa(pid)
		vr.Integer = true // jaiph-go patch: declare -i, as bash's
	case "_":
		vr.Kind, vr.Str = expand.String, r.lastArg
	case "SECONDS":
		// jaiph-go patch: whole seconds of the clock since the shell
		// started or SECONDS was assigned, as bash's get_seconds, which
		// makes it declare -i; unset once, or a function's local, an
		// ordinary variable (jaiph_random.go).
		if r.secondsUnset || r.startTime.IsZero() || r.writeEnv.Get(name).Local {
			break
		}
		vr.Kind, vr.Str = expand.String, strconv.FormatInt(time.Now().Unix()-r.startTime.Unix(), 10)
		vr.Integer = true
		r.secondsRead, r.secondsLast = true, vr.Str
	case "EPOCHSECONDS":
		vr.Kind, vr.Str = expand.String, strconv.FormatInt(time.Now().Unix(), 10)
	case "EPOCHREALTIME":
		now := time.Now()
		vr.Kind, vr.Str = expand.String, fmt.Sprintf("%d.%06d", now.Unix(), now.Nanosecond()/1000)
	case "SHELLOPTS", "BASHOPTS":
		// jaiph-go patch: bash's readonly lists of the set -o (SHELLOPTS)
		// and shopt (BASHOPTS) options that are on, sorted, joined by ':'.
		vr.Kind, vr.Str = expand.String, r.optsList(name == "SHELLOPTS")
		vr.ReadOnly = true
	case "BASH_VERSION":
		vr.Kind, vr.Str = expand.String, "5.2.15(1)-release"
	case "BASH_VERSINFO":
		vr.Kind, vr.List = expand.Indexed, []string{"5", "2", "15", "1", "release", bashMachType()}
	case "0":
		vr.Kind = expand.String
		if r.filename != "" {
			vr.Str = r.filename
		} else {
			vr.Str = "gosh"
		}
	case "1", "2", "3", "4", "5", "6", "7", "8", "9":
		if i := int(name[0] - '1'); i < len(r.Params) {
			vr.Kind = expand.String
			vr.Str = r.Params[i]
		}
	default:
		// jaiph-go patch: ${10} and beyond are positional parameters too.
		// (Only names starting with a digit: Atoi's error allocates, and
		// every variable lookup came here.)
		if name != "" && name[0] >= '1' && name[0] <= '9' {
			if n, err := strconv.Atoi(name); err == nil && n >= 10 {
				if n <= len(r.Params) {
					vr.Kind, vr.Str = expand.String, r.Params[n-1]
				}
			}
		}
	}
	if vr.Kind != expand.Unknown {
		vr.Set = true
		return vr
	}
	if vr := r.writeEnv.Get(name); vr.Declared() {
		return vr
	}
	return expand.Variable{}
}

func (r *Runner) envGet(name string) string {
	return r.lookupVar(name).String()
}

func (r *Runner) delVar(name string) {
	if err := r.writeEnv.Set(name, expand.Variable{}); err != nil {
		r.errf("%s: %v\n", name, err)
		r.exit.code = 1
		return
	}
	if name == "RANDOM" {
		r.randomUnset = true // jaiph-go patch: see jaiph_random.go
	}
	if name == "SECONDS" {
		r.secondsUnset = true // jaiph-go patch: see jaiph_random.go
	}
	if name == "LINENO" {
		// jaiph-go patch: unset, LINENO is an ordinary variable for
		// good, as in bash
		r.linenoUnset = true
		r.ecfg.LinenoPlain = true
	}
	if name == "PATH" {
		r.hashFlush() // jaiph-go patch: see jaiph_hash.go
	}
}

func (r *Runner) setVarString(name, value string) {
	r.setVarFailed(r.bindKeeping(name, expand.Variable{Set: true, Kind: expand.String, Str: value}))
}

// namerefRefuses says cur, a nameref without a value (declare -n r),
// cannot take value as the name it refers to: bash's valid_nameref_value
// wants an identifier or an element reference (jaiph-go patch).
func namerefRefuses(cur expand.Variable, value string) bool {
	return cur.Kind == expand.NameRef && cur.Str == "" && !internal.ValidNameOrElem(value)
}

// keepAttrs gives vr, a value a builtin assigns to cur (read, getopts…),
// the variable's declare -i/-l/-u, which transform it and stay, as in
// bash (jaiph-go patch: they were dropped).
func keepAttrs(cur, vr expand.Variable) expand.Variable {
	vr.Integer, vr.Lower, vr.Upper = cur.Integer, cur.Lower, cur.Upper
	if cur.Kind == expand.NameRef && vr.Kind == expand.String {
		// jaiph-go patch: a nameref without a value (declare -n r)
		// stays one, naming the value (read r <<< x names x), as bash.
		vr.Kind = expand.NameRef
	}
	// jaiph-go patch: as bash's bind_variable, the value keeps the
	// variable's export attribute, and an array's element 0 takes it
	// (read a of a=(1 2) leaves a=(z 2); read v of an exported v keeps
	// it exported).
	vr.Exported = vr.Exported || cur.Exported
	if vr.Kind != expand.String {
		return vr // a whole list (read -a)
	}
	switch cur.Kind {
	case expand.Indexed:
		list, indexes := internal.SetIndexedElem(slices.Clone(cur.List), slices.Clone(cur.Indexes), 0, vr.Str)
		vr.Kind, vr.Str, vr.List, vr.Indexes = expand.Indexed, "", list, indexes
	case expand.Associative:
		cur.SetAssoc("0", vr.Str)
		vr.Kind, vr.Str, vr.Map, vr.MapSeq = expand.Associative, "", cur.Map, cur.MapSeq
	}
	return vr
}

// bindKeeping is setVarErr of keepAttrs, a value a builtin
// assigns (jaiph-go patch): a string for an array is its element (key)
// 0's, transformed by the array's declare -i/-l/-u alone, as bash's
// bind_variable (the other elements are not evaluated again); a list
// (read -a) is new, every element transformed.
func (r *Runner) bindKeeping(name string, vr expand.Variable) error {
	cur := r.writeEnv.Get(name)
	if (cur.Integer || cur.Lower || cur.Upper) && !r.readonlyHere(name, cur) {
		var err error
		switch {
		case vr.Kind == expand.Indexed && cur.Integer:
			vr.Integer, vr.Lower, vr.Upper = cur.Integer, cur.Lower, cur.Upper
			vr, err = r.bindInTurn(name, cur, vr)
		case vr.Kind == expand.Indexed:
			vr.Integer, vr.Lower, vr.Upper = cur.Integer, cur.Lower, cur.Upper
			vr, err = r.attrValues(vr)
		case vr.Kind == expand.String && (cur.Kind == expand.Indexed || cur.Kind == expand.Associative):
			vr.Str, err = r.attrValue(cur, vr.Str)
		}
		if err != nil {
			return err
		}
	}
	return r.setVarErr(name, keepAttrs(cur, vr))
}

func (r *Runner) setVar(name string, vr expand.Variable) {
	r.setVarFailed(r.setVarErr(name, vr))
}

// setVarFailed reports setVar's error, if any.
func (r *Runner) setVarFailed(err error) {
	if err == nil || errors.Is(err, errReported) { // jaiph-go patch: said already, see reportError
		return
	}
	if r.arithAssignFatal(err, "", &r.exit) { // jaiph-go patch
		return
	}
	r.errf("%v\n", err)
	r.exit.code = 1
}

// readonlyFailed is bash's err_readonly for an assignment a command makes
// (read, mapfile, getopts, for, select, export, readonly, arithmetic),
// after the error was printed (jaiph-go patch): report_error ends the shell
// at once under errexit, in any context (bash tests the option itself, so
// `read r || …` and a function called in an if condition exit too), with
// the last status or 1; without errexit the command fails with status 1.
func (r *Runner) readonlyFailed(exit *exitStatus) {
	exit.code = 1
	if r.errexitOn() {
		exit.code = cmp.Or(r.lastExit.code, 1)
		exit.exiting = true
		r.exitTrapInPlace(exit)
	}
}

// exitTrapInPlace runs the EXIT trap where the shell exits in place
// (jaiph-go patch): bash's report_error under errexit calls exit_shell
// there, before any function returns, so in a function the trap sees the
// function's locals, as it does after `exit` (errexit's own exit, and an
// exit by a jump to the top level, unwind first). exit is the status the
// shell exits with; the trap may change it.
func (r *Runner) exitTrapInPlace(exit *exitStatus) {
	if _, ok := r.traps[trapExit]; !ok || !r.inFunc || !exit.exiting || r.childRedirs {
		return
	}
	if r.holdExitTrap {
		r.heldExitTrap = true
		return
	}
	ctx := r.ectx
	if ctx == nil {
		ctx = context.Background()
	}
	saved, pending := r.exit, r.pendingRedirs
	// the command's redirections wait for its words: not the trap's
	r.exit, r.pendingRedirs = *exit, nil
	r.runExitTrap(ctx)
	r.pendingRedirs = pending
	st := r.exit
	if exit != &r.exit {
		r.exit = saved
	}
	*exit = st
}

// runHeldExitTrap runs the EXIT trap that waited for SetVar's caller to
// print the assignment's message (see Runner.holdExitTrap), exit being
// the status the caller's builtin exits with.
func (r *Runner) runHeldExitTrap(exit *exitStatus) {
	if r.heldExitTrap {
		r.heldExitTrap = false
		r.exitTrapInPlace(exit)
	}
}

// arithAssignFatal reports an arithmetic error in a value assigned to a
// declare -i variable by the builtin name (declare, local, export, read,
// getopts, mapfile, cd …; "" for an assignment word, for and select) as
// bash does: named after the builtin, and fatal, as the same error in
// $((…)) is, but with the last status, or 1 (bash's evalexp jumps
// without setting it) (jaiph-go patch: it was status 1 and the shell went
// on, even under errexit after ||). exit is the status to set.
func (r *Runner) arithAssignFatal(err error, name string, exit *exitStatus) bool {
	if fatal, ok := errors.AsType[FatalAssignError](err); ok {
		// SetVar's (an element through a nameref, getopts, select):
		// as readElem
		if !fatal.Unnamed && name != "" {
			r.errf("%s: ", name)
		}
		r.errf("%v\n", err)
		exit.code, exit.exiting, exit.undoAll = cmp.Or(fatal.code, 1), true, true
		return true
	}
	if errors.Is(err, errReported) {
		// said already, and the end of the shell set under errexit
		// (reportError: a bad subscript in the value's arithmetic)
		if exit != &r.exit {
			*exit = r.exit
		}
		r.reportedFailure = true
		return true
	}
	if _, unset := errors.AsType[expand.UnsetParameterError](err); unset {
		// set -u in the value's arithmetic: as fatal, named after no
		// builtin, status 1 (expr.c sets it before err_unboundvar).
		r.errf("%v\n", err)
		exit.code = 1
		exit.exiting = true
		r.unnamedFailure = true // see HandlerContext.SetVar
		if r.errexitOn() {
			r.exitTrapInPlace(exit) // report_error exits in place
		}
		return true
	}
	if _, ok := errors.AsType[valueReadonlyError](err); ok {
		// bash's err_readonly names no builtin and, under errexit, ends
		// the shell in place (report_error); otherwise evalexp fails and
		// make_variable_value jumps to the top level, as for an
		// arithmetic error.
		r.errf("%v\n", err)
		exit.code = cmp.Or(r.lastExit.code, 1)
		exit.exiting = true
		r.reportedFailure = true // see HandlerContext.SetVar
		if r.errexitOn() {
			r.exitTrapInPlace(exit)
		} else {
			exit.undoAll, exit.popScopes = true, true
		}
		return true
	}
	if !isArithmErr(err) {
		return false
	}
	if ae, ok := errors.AsType[expand.ArithmError](err); ok && ae.Subscript {
		// A subscript's error: bash's array_expand_index names no
		// command and sets status 1.
		r.errf("%v\n", err)
		exit.code, exit.exiting, exit.undoAll = 1, true, true
		return true
	}
	if name != "" {
		r.errf("%s: ", name)
	}
	r.errf("%v\n", err)
	exit.code = cmp.Or(r.lastExit.code, 1) // bash's status before the discarded line
	exit.exiting = true
	exit.undoAll = true // variables.c: top_level_cleanup before the jump
	exit.popScopes = true
	return true
}

// valueReadonlyError is an assignment to a readonly variable made by the
// arithmetic of a value for a declare -i variable (x=n=1 of a readonly n)
// (jaiph-go patch): not the variable's own, so no builtin's failure, but
// bash's err_readonly, then make_variable_value's jump to the top level.
type valueReadonlyError struct{ error }

func (e valueReadonlyError) Unwrap() error { return e.error }

// valueErr marks err, an error of a declare -i value's arithmetic, as a
// valueReadonlyError when it is an assignment to a readonly variable.
func valueErr(err error) error {
	if errors.Is(err, errReadOnly) {
		return valueReadonlyError{err}
	}
	return err
}

// errReadOnly is returned when trying to modify a read-only variable.
var errReadOnly = errors.New("readonly variable")

// bindInTurn binds the new list vr (a read -a's words) to name, which
// holds cur, one element at a time, each evaluated by vr's declare -i as
// it is placed (jaiph-go patch): as bash's read -a, which empties the
// array and binds the words in turn, a word's arithmetic sees the array
// set and holding the words before it. On an error the elements placed
// before it stay.
func (r *Runner) bindInTurn(name string, cur, vr expand.Variable) (expand.Variable, error) {
	placed := vr
	placed.List, placed.Indexes = []string{}, nil
	_ = r.setVarErr(name, keepAttrs(cur, placed))
	for i, s := range vr.List {
		k := i
		if vr.Indexes != nil {
			k = vr.Indexes[i]
		}
		v, err := r.attrValue(vr, s)
		if err != nil {
			return placed, err
		}
		placed.List, placed.Indexes = internal.SetIndexedElem(slices.Clone(placed.List), slices.Clone(placed.Indexes), k, v)
		_ = r.setVarErr(name, keepAttrs(cur, placed))
	}
	return placed, nil
}

// setVarErr is like [Runner.setVar], but it returns any error rather than
// reporting it, for the sake of the expand package. jaiph-go patch: a
// string value is transformed by the variable's declare -i/-l/-u; an
// array is bound as it is, its elements transformed where each was
// placed (placeList, setVarWithIndex, bindKeeping, elemValue), as bash
// never evaluates a whole array again.
func (r *Runner) setVarErr(name string, vr expand.Variable) error {
	if vr.Kind != expand.String || !vr.Set || !(vr.Integer || vr.Lower || vr.Upper) {
		return r.bindValue(name, vr)
	}
	if err := r.bindRefused(name, vr); err != nil {
		return err // refused before the value is evaluated, as bash's bind_variable
	}
	var s string
	var err error
	r.whileBinding(name, func() { s, err = r.attrValue(vr, vr.Str) })
	if err != nil {
		return err
	}
	vr.Str = s
	return r.bindChecked(name, vr)
}

// arrayBeforeList makes name (what it names, for a nameref) an indexed
// array before the words of a list assigned to it expand, as bash's
// find_or_make_array_variable does for NAME=(…) and NAME+=(…) (jaiph-go
// patch; a declaration's words expand first): a new variable is an empty
// array, set; a scalar's value its element 0, unset if it was. So the
// words see NAME as an array (set -u: "${#A[@]}" of a new A is 0, not
// unbound). It reports whether it changed a variable.
func (r *Runner) arrayBeforeList(name string) bool {
	vr := r.lookupVar(name)
	if n, v := vr.Resolve(r.writeEnv); n != "" {
		name, vr = n, v
	}
	switch {
	case vr.Kind == expand.Indexed || vr.Kind == expand.Associative || vr.Kind == expand.NameRef || vr.ReadOnly:
		return false
	case !vr.Declared():
		vr = expand.Variable{Set: true, Kind: expand.Indexed, List: []string{}}
	case vr.IsSet():
		vr.Kind, vr.List, vr.Str, vr.Indexes = expand.Indexed, []string{vr.Str}, "", nil
	default:
		vr.Kind, vr.List, vr.Str, vr.Indexes = expand.Indexed, []string{}, "", nil
	}
	vr.Local = false // the variable the name reaches, a calling function's local too
	r.setVarFailed(r.bindValue(name, vr))
	return true
}

// whileBinding runs f, which evaluates the declare -i value of the scalar
// name, with name visible: set and empty when it is unset (jaiph-go
// patch). bash's bind_variable makes a variable visible before it
// evaluates its value, so set -u finds no unbound v in v=v+1 or in a new
// local's local -i v=v (an array's element, bound by another path, has no
// such step: a[0]=a+1 of an unset declare -ai a is unbound).
func (r *Runner) whileBinding(name string, f func()) {
	outer := r.binding
	r.binding = name
	defer func() { r.binding = outer }()
	f()
}

// integerAppend is old += val of an integer variable or element
// (jaiph-go patch): as bash's make_variable_value, the old value is
// evaluated first, then val alone, so that an error shows the text that
// failed (1/0, not (0)+(1/0)).
func (r *Runner) integerAppend(old, val string) (string, error) {
	lv, err := expand.ArithmString(r.ecfg, cmp.Or(old, "0"))
	if err != nil {
		return "", valueErr(err)
	}
	rv, err := expand.ArithmString(r.ecfg, val)
	if err != nil {
		return "", valueErr(err)
	}
	return strconv.Itoa(lv + rv), nil
}

// attrValue is s as a variable with vr's declare -i/-l/-u holds it:
// evaluated as arithmetic, or its case changed (jaiph-go patch).
func (r *Runner) attrValue(vr expand.Variable, s string) (string, error) {
	if vr.Integer {
		n, err := expand.ArithmString(r.ecfg, s)
		if err != nil {
			return "", valueErr(err)
		}
		s = strconv.Itoa(n)
	}
	if vr.Lower {
		s = expand.MapCase(s, unicode.ToLower) // jaiph-go patch: bytes that are no UTF-8 kept
	} else if vr.Upper {
		s = expand.MapCase(s, unicode.ToUpper)
	}
	return s, nil
}

// attrValues is vr with its value, a whole indexed array's elements
// included, transformed by its declare -i/-l/-u (jaiph-go patch).
func (r *Runner) attrValues(vr expand.Variable) (expand.Variable, error) {
	if !vr.Integer && !vr.Lower && !vr.Upper {
		return vr, nil
	}
	var err error
	switch vr.Kind {
	case expand.String:
		if vr.Set {
			vr.Str, err = r.attrValue(vr, vr.Str)
		}
	case expand.Indexed:
		list := make([]string, len(vr.List))
		for i, s := range vr.List {
			if list[i], err = r.attrValue(vr, s); err != nil {
				break
			}
		}
		vr.List = list
	}
	return vr, err
}

// bindRefused is the error binding vr to name meets before its value is
// looked at (jaiph-go patch).
func (r *Runner) bindRefused(name string, vr expand.Variable) error {
	if name == "SHELLOPTS" || name == "BASHOPTS" {
		// jaiph-go patch: computed by lookupVar, readonly (no local copy either).
		return fmt.Errorf("%s: %w", name, errReadOnly)
	}
	if vr.Integer && vr.Kind != expand.KeepValue && r.readonlyHere(name, vr) {
		// jaiph-go patch: as bash's bind_variable, a readonly variable
		// refuses the value before it is evaluated as arithmetic.
		return fmt.Errorf("%s: %w", name, errReadOnly)
	}
	return nil
}

// bindValue binds vr to name as it is: its value was transformed by the
// variable's declare -i/-l/-u, if at all, where it was made (setVarErr).
func (r *Runner) bindValue(name string, vr expand.Variable) error {
	if err := r.bindRefused(name, vr); err != nil {
		return err
	}
	return r.bindChecked(name, vr)
}

// bindChecked is bindValue once bindRefused let vr through.
func (r *Runner) bindChecked(name string, vr expand.Variable) error {
	if r.opts[optAllExport] {
		vr.Exported = true
	}
	if err := r.writeEnv.Set(name, vr); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if name == "PATH" && vr.Kind != expand.KeepValue {
		r.hashFlush() // jaiph-go patch: a value for PATH, see jaiph_hash.go
	}
	if name == "RANDOM" && vr.Kind == expand.String && !r.randomUnset && !r.writeEnv.Get(name).Local {
		// Assigning to RANDOM seeds its generator; the stored value is never
		// read, as [Runner.lookupVar] always computes a new number. We only
		// seed once the assignment succeeds so that attributes such as
		// read-only still apply. jaiph-go patch: bash's seed
		// (jaiph_random.go).
		r.seedRandom(vr.Str)
	}
	if name == "SECONDS" && vr.Kind == expand.String && !r.secondsUnset && !r.writeEnv.Get(name).Local {
		r.assignSeconds(vr.Str) // jaiph-go patch: jaiph_random.go
	}
	if name == "HISTFILESIZE" && vr.Kind == expand.String && vr.Set {
		r.histFileSize(vr.Str) // jaiph-go patch: jaiph_histfile.go
	}
	return nil
}

// setVarWithIndex binds vr, assignVal's value, to name, or to its element
// index. jaiph-go patch: appendIndex, when not nil, is a[i]+=v's
// subscript (a+=v's 0 on an array) as assignVal evaluated it, used in
// place of index.
func (r *Runner) setVarWithIndex(prev expand.Variable, name string, index, appendIndex syntax.ArithmExpr, indexRaw string, vr expand.Variable) {
	if appendIndex != nil {
		index, indexRaw = appendIndex, "" // evaluated: a key as it is
	}
	if vr.Kind == expand.String && index == nil {
		// When assigning a string to an array, fall back to the
		// zero value for the index.
		switch prev.Kind {
		case expand.Indexed:
			index = &syntax.Word{Parts: []syntax.WordPart{
				&syntax.Lit{Value: "0"},
			}}
		case expand.Associative:
			// jaiph-go patch: m=v sets the key "0", as bash (the
			// empty key was a bad subscript).
			index = &syntax.Word{Parts: []syntax.WordPart{
				&syntax.Lit{Value: "0"},
			}}
		}
	}
	if index == nil {
		r.setVar(name, vr)
		return
	}
	// from the syntax package, we know that value must be a string if index
	// is non-nil; nested arrays are forbidden.
	valStr := vr.Str
	// jaiph-go patch: the element alone takes the variable's declare
	// -i/-l/-u (bash's make_array_variable_value), once the subscript is
	// evaluated; a readonly variable refuses it first.
	elemValue := func() bool {
		if !(prev.Integer || prev.Lower || prev.Upper) || r.readonlyHere(name, prev) {
			return true
		}
		s, err := r.attrValue(prev, valStr)
		if err != nil {
			r.setVarFailed(err)
			return false
		}
		valStr = s
		return true
	}

	var list []string
	var indexes []int
	switch prev.Kind {
	case expand.String:
		list = append(list, prev.Str)
	case expand.Indexed:
		// TODO: only clone when inside a subshell and getting a var from outside for the first time
		list = slices.Clone(prev.List)
		indexes = slices.Clone(prev.Indexes)
	case expand.Associative:
		// if the existing variable is already an AssocArray, try our
		// best to convert the key to a string
		// jaiph-go patch: a subscript parsed as arithmetic is a key too.
		k, err := expand.AssocKeyRaw(r.ecfg, index, indexRaw)
		if err != nil {
			r.expandErr(err)
			return
		}

		if k == "" {
			// jaiph-go patch: an empty key is bash's assignment
			// error, which discards the command (see the indexed
			// case below).
			r.errf("%s[%s]: bad array subscript\n", name, printNode(index))
			r.exit = exitStatus{code: cmp.Or(r.lastExit.code, 1), exiting: true, discard: true, assignFailed: true, popScopes: !r.errexitOn()}
			r.unnamedFailure = true // named after no builtin (printf -v, read)
			return
		}
		if !elemValue() {
			return
		}
		prev.SetAssoc(k, valStr) // jaiph-go patch: records insertion order
		prev.Set = true          // jaiph-go patch: declare -A m; m[k]=v sets m
		r.setVarFailed(r.bindValue(name, prev))
		return
	}
	if sub, all := allElemsIndex(index); all {
		// jaiph-go patch: a[@]=v and a[*]=v are bash's assignment
		// error, as a subscript before the start is (below).
		r.errf("%s[%s]: bad array subscript\n", name, sub)
		r.exit = exitStatus{code: cmp.Or(r.lastExit.code, 1), exiting: true, discard: true, assignFailed: true, popScopes: !r.errexitOn()}
		r.unnamedFailure = true // named after no builtin (printf -v, read)
		return
	}
	k := r.arithmTrail(index, indexRaw)
	if r.exit.exiting {
		// jaiph-go patch: the subscript's error ended the command
		// before the value is made the element's (a declare -i array's
		// value is not evaluated: bash reports one error, not two).
		return
	}
	cur := r.lookupVar(name)
	if cur.Kind == expand.Indexed && r.exit.ok() {
		// jaiph-go patch: the element goes into the array as the
		// subscript left it (q[q[0]=2]=P keeps q[0]), as bash binds
		// it after evaluating the subscript.
		list, indexes = slices.Clone(cur.List), slices.Clone(cur.Indexes)
	}
	if k < 0 {
		// Negative indices count from one past the maximum index.
		if k += negativeIndexBase(cur, list, indexes); k < 0 {
			// jaiph-go patch: bash names the element as written.
			r.errf("%s[%s]: bad array subscript\n", name, printNode(index))
			// jaiph-go patch: bash discards the top-level command
			// (DISCARD, as for a readonly variable): the next line
			// of the script, eval string or sourced file runs, a
			// subshell ends (it was fatal to the whole shell).
			r.exit = exitStatus{code: cmp.Or(r.lastExit.code, 1), exiting: true, discard: true, assignFailed: true, popScopes: !r.errexitOn()}
			r.unnamedFailure = true // named after no builtin (printf -v, read)
			return
		}
	}
	if !elemValue() {
		return
	}
	list, indexes = internal.SetIndexedElem(list, indexes, k, valStr)
	prev.Kind = expand.Indexed
	prev.List = list
	prev.Indexes = indexes
	prev.Set = true // jaiph-go patch: declare -a a; a[3]=x sets a
	r.setVarFailed(r.bindValue(name, prev))
}

// negativeIndexBase is what a negative subscript of an element of vr
// (list and indexes its elements) counts back from: one past an array's
// highest index, and 1 for any other variable that exists, set or not
// (jaiph-go patch: bash's assign_array_element counts from 0 for a
// scalar, so declare v; v[-1]=x sets v[0]). A variable that does not exist
// has no elements to count back over.
func negativeIndexBase(vr expand.Variable, list []string, indexes []int) int {
	if vr.Kind != expand.Indexed && vr.Kind != expand.NameRef && vr.Declared() {
		return 1
	}
	return internal.IndexedMax(list, indexes) + 1
}

// cutElemSubscript splits an array element argument like `a[3]`, as used by
// the unset builtin, into the array name and the subscript between brackets.
func cutElemSubscript(arg string) (name, sub string, ok bool) {
	i := strings.IndexByte(arg, '[')
	if i > 0 && strings.HasSuffix(arg, "]") && syntax.ValidName(arg[:i]) {
		return arg[:i], arg[i+1 : len(arg)-1], true
	}
	return "", "", false
}

// elemRef splits ref, the name a nameref holds, into the array and the
// subscript when it names an element (`a[1]`, `m["k"]`); idx is nil
// otherwise (jaiph-go patch).
func elemRef(ref string) (arr string, idx syntax.ArithmExpr) {
	if _, _, ok := cutElemSubscript(ref); !ok {
		return "", nil
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(ref+"=''"), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", nil
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 0 || len(ce.Assigns) != 1 || ce.Assigns[0].Index == nil {
		return "", nil
	}
	return ce.Assigns[0].Name.Value, ce.Assigns[0].Index
}

// elemRefAssign is as assigning the element that prev, a nameref, names
// (`r=v` with declare -n r='a[1]' is `a[1]=v`), or nil (jaiph-go patch).
func (r *Runner) elemRefAssign(prev expand.Variable, as *syntax.Assign) *syntax.Assign {
	if prev.Kind != expand.NameRef || as.Index != nil || as.Array != nil {
		return nil
	}
	n, v := prev.Resolve(r.writeEnv)
	if v.Declared() {
		return nil // a variable named as the element (see the declaration)
	}
	arr, idx := elemRef(n)
	if idx == nil {
		return nil
	}
	elem := *as
	elem.Name = &syntax.Lit{ValuePos: as.Name.ValuePos, ValueEnd: as.Name.ValueEnd, Value: arr}
	elem.Index = idx
	return &elem
}

// allElems says elem, what a nameref names (declare -n r='A[@]'), is every
// element of an array, which bash's assign_array_element refuses to assign
// before it looks at the variable (its attributes, readonly or -i) where
// the array is not associative or the caller did not allow it (jaiph-go
// patch): r=v and printf -v r; the assignment's A[@]=v, read 'A[@]' and
// declare r=v through it make an associative array's key @ instead.
func allElems(elem *syntax.Assign) bool {
	_, all := allElemsIndex(elem.Index)
	return all
}

// allElemsIndex says a subscript is @ or * (every element), giving its
// source for bash's "bad array subscript" message (jaiph-go patch).
func allElemsIndex(idx syntax.ArithmExpr) (sub string, all bool) {
	if idx == nil {
		return "", false
	}
	sub = expand.ArithmSource(idx)
	return sub, sub == "@" || sub == "*"
}

// refuseAllElems reports allElems's refusal, as a[@]=v's (jaiph-go
// patch).
func (r *Runner) refuseAllElems(elem *syntax.Assign) {
	r.errf("%s[%s]: bad array subscript\n", elem.Name.Value, expand.ArithmSource(elem.Index))
	r.exit = exitStatus{code: cmp.Or(r.lastExit.code, 1), exiting: true, discard: true, assignFailed: true, popScopes: !r.errexitOn()}
	r.unnamedFailure = true // named after no builtin (printf -v)
}

// assocSubKey is the key of `unset 'm[sub]'` for an associative array:
// the subscript expanded as bash's expand_subscript_string does, quotes
// removed and parameters and command substitutions expanded, as in
// `m[sub]=v` (jaiph-go patch: `unset 'm["k"]'` and `unset 'm[$k]'`
// removed the key written, quotes and dollar included).
func (r *Runner) assocSubKey(name, sub string) string {
	_, idx := elemRef(name + "[" + sub + "]")
	if idx == nil {
		return sub
	}
	k, err := expand.AssocKeyRaw(r.ecfg, idx, sub) // the string as written, blanks too
	if err != nil {
		r.expandErr(err)
		return sub
	}
	return k
}

// unsetElem unsets a single element of an indexed or associative array, like
// `unset 'a[3]'`. Unsetting an indexed array element may leave a hole.
//
// jaiph-go patch: viaRef says the element is what a nameref names
// (declare -n r='a[1]'; unset r): bash's unset_builtin then goes straight
// to unbind_array_element, which checks no readonly attribute, says
// nothing of a scalar's subscript other than 0, and whose failure is not
// the builtin's (status 0).
func (r *Runner) unsetElem(name, sub string, viaRef bool) {
	vr := r.lookupVar(name)
	if n, v := vr.Resolve(r.writeEnv); n != "" {
		if arr, esub, ok := cutElemSubscript(n); ok && !v.Declared() {
			// jaiph-go patch: unset 'r[S]' through a nameref to an
			// element (r='a[1]', 'a[@]') unsets what the nameref
			// names, S left aside, as bash (it unset nothing)
			r.unsetElem(arr, esub, true)
			return
		}
		name, vr = n, v
	}
	if o, ok := r.writeEnv.(*overlayEnviron); ok && viaRef && vr.ReadOnly {
		plain := vr
		plain.ReadOnly = false
		if o.replaceHeld(name, plain) {
			vr = plain
			defer func() {
				if cur := r.lookupVar(name); cur.Declared() {
					cur.ReadOnly = true
					o.replaceHeld(name, cur)
				}
			}()
		}
	}
	failed := func(format string, args ...any) {
		r.errf(format, args...)
		if !viaRef {
			r.exit.code = 1
			r.unsetFailed = true
		}
	}
	if vr.ReadOnly {
		// jaiph-go patch: bash's unset checks this before the
		// subscript, for an element of any variable
		failed("unset: %s: cannot unset: readonly variable\n", name)
		return
	}
	switch vr.Kind {
	case expand.Indexed:
		if sub == "@" || sub == "*" {
			// jaiph-go patch: bash 5.2 empties the array and keeps
			// the variable, attributes and all (upstream unset it).
			vr.List, vr.Indexes = []string{}, nil
			r.setVar(name, vr)
			return
		}
		expr, err := syntax.NewParser().Arithmetic(strings.NewReader(sub))
		if err != nil {
			r.errf("unset: %s[%s]: bad array subscript\n", name, sub)
			r.exit.code = 1
			return
		}
		if expr == nil {
			return // an empty subscript like `unset 'a[]'` is a no-op
		}
		k := r.arithm(expr)
		if r.exit.exiting { // jaiph-go patch: a fatal error in the subscript deletes nothing
			return
		}
		if k < 0 {
			// Negative indices count from one past the maximum index.
			if k += internal.IndexedMax(vr.List, vr.Indexes) + 1; k < 0 {
				// jaiph-go patch: bash's text, without the name, and
				// status 1 (the builtin's status overwrote it).
				failed("unset: [%s]: bad array subscript\n", sub)
				return
			}
		}
		// TODO: only clone when inside a subshell and getting a var from outside for the first time
		vr.List = slices.Clone(vr.List)
		vr.Indexes = slices.Clone(vr.Indexes)
		vr.List, vr.Indexes = internal.DeleteIndexedElem(vr.List, vr.Indexes, k)
		r.setVar(name, vr) // an array: its elements bound as they are (setVarErr)
	case expand.Associative:
		// jaiph-go patch: @ and * are keys like any other here, as in
		// bash 5.2 (upstream unset the whole variable)
		key := r.assocSubKey(name, sub)
		if r.exit.exiting { // jaiph-go patch: as for an indexed array
			return
		}
		vr.DeleteAssoc(key) // jaiph-go patch: keeps insertion order
		r.setVar(name, vr)
	case expand.String, expand.Unknown:
		// A scalar can be unset via subscript zero.
		// jaiph-go patch: as bash's unbind_array_element, the
		// subscript is arithmetic (`s[2-2]`, `s["k"]` are 0), a
		// declared but unset variable counts, and any other index is
		// `not an array variable` with status 1 (the builtin's status
		// overwrote it).
		if !vr.Declared() {
			return
		}
		if sub == "@" || sub == "*" {
			// jaiph-go patch: bash's unbind_array_element refuses
			// them for a scalar before any arithmetic
			if !viaRef {
				failed("unset: %s: not an array variable\n", name)
			}
			return
		}
		k := 0
		if expr, err := syntax.NewParser().Arithmetic(strings.NewReader(sub)); err == nil && expr != nil {
			k = r.arithm(expr)
		}
		if r.exit.exiting {
			return
		}
		if k == 0 {
			r.delVar(name)
		} else {
			if !viaRef {
				failed("unset: %s: not an array variable\n", name)
			}
		}
	}
}

// setFuncDecl keeps fd for declare -f (jaiph-go patch, funcDefinition):
// the map is replaced, never changed, so subshells share it.
func (r *Runner) setFuncDecl(fd *syntax.FuncDecl) {
	if fd.Source == "" && r.funcDecls[fd.Name.Value] == nil {
		return
	}
	decls := make(map[string]*syntax.FuncDecl, len(r.funcDecls)+1)
	maps.Copy(decls, r.funcDecls)
	decls[fd.Name.Value] = fd
	r.funcDecls = decls
}

// ansiCQuoted is a $'…' part's text, value as written, as bash's declare
// -f shows it: what it became, single-quoted (jaiph-go patch).
func (r *Runner) ansiCQuoted(value string) string {
	s, _ := expand.Literal(r.ecfg, &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Dollar: true, Value: value}}})
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (r *Runner) setFunc(name string, body *syntax.Stmt) {
	if r.Funcs == nil {
		r.Funcs = make(map[string]*syntax.Stmt, 4)
	}
	r.Funcs[name] = body
}

// listWord is one word of an indexed list, expanded: a subscript's text
// (explicit) and its value, or the fields of a word without one.
type listWord struct {
	explicit bool
	text     string
	trail    string // the subscript's trailing blanks (bash's error text)
	vals     []string
	glob     func() ([]string, error) // the vals, once every word is expanded
}

// listWords expands the words of an indexed list in turn, as bash does
// before it evaluates any subscript: each subscript's words (its
// arithmetic is kept as text), then its value (jaiph-go patch: `i=0;
// a=([i++]=$i [i++]=$i)` gives two 0s; a fatal error stops the list
// before any subscript is evaluated).
func (r *Runner) listWords(elems []*syntax.ArrayElem) []listWord {
	var out []listWord
	for _, elem := range elems {
		if r.exit.exiting {
			break
		}
		w := elem.Value // jaiph-go patch: x=~ is no assignment in a list, as bash
		if elem.Index != nil {
			// jaiph-go patch: bash 5.2 brace-expands an indexed
			// list's [k]=v whose value holds a brace expansion as a
			// plain word: b=([k]=x{1,2}y) is the two values [k]=x1y
			// and [k]=x2y.
			w = r.braceElemWord(elem)
		}
		if w != nil {
			vals, glob, err := expand.ListFieldsLater(r.ecfg, w)
			r.expandErr(err)
			out = append(out, listWord{vals: vals, glob: glob})
			continue
		}
		text, err := expand.ArithmText(r.ecfg, elem.Index)
		r.expandErr(err)
		if r.exit.exiting {
			break
		}
		val := ""
		if elem.Value != nil {
			// jaiph-go patch: [k]=v's value is expanded as an
			// assignment's, a tilde after each ':' too (b=([1]=~:~)),
			// an "@" list joined with IFS's first character.
			var err error
			val, err = expand.ListElemLiteral(r.ecfg, elem.Value)
			r.expandErr(err)
		}
		out = append(out, listWord{explicit: true, text: text, trail: expand.TrailingBlanks(elem.IndexRaw), vals: []string{val}})
	}
	for i := range out {
		// jaiph-go patch: as bash, the words are globbed once all are
		// expanded (a=(* $(touch f)) lists f).
		if out[i].glob != nil && !r.exit.exiting {
			vals, err := out[i].glob()
			r.expandErr(err)
			out[i].vals, out[i].glob = vals, nil
		}
	}
	return out
}

// braceElemWord is the whole word `[k]=v` of an element whose value holds
// a brace expansion that makes more than one word, its subscript's text
// expanded, or nil (jaiph-go patch).
func (r *Runner) braceElemWord(elem *syntax.ArrayElem) *syntax.Word {
	if elem.Value == nil {
		return nil
	}
	w := *elem.Value
	if !syntax.SplitBraces(&w) || len(expand.Braces(&w)) < 2 {
		return nil
	}
	text, err := expand.ArithmText(r.ecfg, elem.Index)
	r.expandErr(err)
	lit := &syntax.Lit{ValuePos: elem.Index.Pos(), ValueEnd: elem.Value.Pos(), Value: "[" + text + "]="}
	return &syntax.Word{Parts: append([]syntax.WordPart{lit}, elem.Value.Parts...)}
}

// indexedElem is an element a list assigns, at its final index.
type indexedElem struct {
	index int
	val   string
}

// placeList evaluates the subscripts of an expanded list in order and
// places its values on list (the array appended to, or none): an explicit
// subscript resets the counter, which otherwise advances for every value
// from one past the largest index; a negative one counts from there
// (jaiph-go patch: one before the start leaves its element out with bash's
// message, the status unchanged, unless errexit ends the shell).
//
// show, if not nil, makes the array as placed so far the variable's value
// before a subscript that may read it is evaluated, as bash binds each
// element in turn (jaiph-go patch: b=([0]=6 [b[0]]=x) sets b[6]).
func (r *Runner) placeList(words []listWord, list []string, indexes []int, show func([]string, []int), attrs expand.Variable) ([]string, []int, []indexedElem) {
	var placed []indexedElem
	index := internal.IndexedMax(list, indexes) + 1
	readsNames := func(s string) bool {
		return strings.ContainsFunc(s, func(c rune) bool { return c == '_' || unicode.IsLetter(c) })
	}
	// bind is the value as the element gets it: for an integer array
	// (declare -ai) evaluated as arithmetic now, after the elements
	// before it are placed, as bash's bind_array_var_internal (jaiph-go
	// patch: I=([n++]=n [n++]=n) is (1 2)); an error is fatal, as the
	// assignment's.
	// -l/-u change the case of the new values alone (jaiph-go patch:
	// a+=(…) changed the old ones too).
	bind := func(val string) (string, bool) {
		if !attrs.Integer {
			s, _ := r.attrValue(attrs, val)
			return s, true
		}
		if show != nil && readsNames(val) {
			show(list, indexes)
		}
		s, err := r.attrValue(attrs, val)
		if err != nil {
			r.expandErr(intValueError{err})
			r.exit.expDiscard = false
			return "", false
		}
		return s, true
	}
	for _, w := range words {
		if r.exit.exiting {
			break
		}
		if !w.explicit {
			for _, val := range w.vals {
				val, ok := bind(val)
				if !ok {
					break
				}
				list, indexes = internal.SetIndexedElem(list, indexes, index, val)
				placed = append(placed, indexedElem{index, val})
				index++
			}
			continue
		}
		if w.text == "@" || w.text == "*" {
			// jaiph-go patch: bash's assign_compound_array_list
			// skips such an element of an indexed list with its
			// report_error (fatal under errexit)
			if r.reportError(fmt.Errorf("[%s]=%s: cannot assign to non-numeric index", w.text, w.vals[0])) != nil {
				break
			}
			continue
		}
		if show != nil && readsNames(w.text) {
			show(list, indexes)
		}
		i, err := expand.ArithmString(r.ecfg, w.text+w.trail)
		r.subscriptErr(err)
		if r.exit.exiting {
			break
		}
		if i < 0 {
			if i += internal.IndexedMax(list, indexes) + 1; i < 0 {
				r.reportError(fmt.Errorf("[%s]=%s: bad array subscript", w.text, w.vals[0]))
				continue
			}
		}
		index = i
		val, ok := bind(w.vals[0])
		if !ok {
			break
		}
		list, indexes = internal.SetIndexedElem(list, indexes, index, val)
		placed = append(placed, indexedElem{index, val})
		index++
	}
	return list, indexes, placed
}

// TODO: make assignVal and [setVar] consistent with the [expand.WriteEnviron] interface

// assignVal expands as's value for name (prev its variable). appendIndex
// is the subscript a[i]+=v (a+=v on an array) was evaluated to, once, for
// the element setVarWithIndex sets (jaiph-go patch).
func (r *Runner) assignVal(name string, prev expand.Variable, as *syntax.Assign, valType string) (_ string, _ expand.Variable, appendIndex syntax.ArithmExpr) {
	// jaiph-go patch: declare -n r=v on an existing nameref changes r
	// itself, as bash (it assigned v to the variable r named).
	if n, v := prev.Resolve(r.writeEnv); n != "" && valType != "-n" {
		if !prev.Local {
			// jaiph-go patch: a plain assignment through a nameref
			// to a calling function's local sets that local (bash's
			// dynamic scope) rather than making one in this function.
			v.Local = false
		}
		name, prev = n, v
	}
	wasSet := prev.IsSet()
	prev.Set = true
	if as.Value != nil && as.Append && (as.Index != nil || as.Array == nil && (prev.Kind == expand.Indexed || prev.Kind == expand.Associative)) {
		// jaiph-go patch: a[i]+=x appends to that element (upstream
		// appended to element 0 or, for maps, dropped the value);
		// a+=x on an array is a[0]+=x.
		// jaiph-go patch: the value is expanded as an assignment's
		// ("${a[@]^}" joined with IFS's first character, a tilde
		// after ':' expanded).
		val, err := expand.AssignLiteral(r.ecfg, as.Value)
		r.expandErr(err)
		r.assignWord = val
		// jaiph-go patch: as bash, the value is expanded before the
		// subscript, and the subscript is evaluated once (a[i++]+=x
		// advanced i twice): setVarWithIndex uses it as evaluated.
		index := as.Index
		if index == nil {
			index = indexLiteral(0)
		}
		if r.exit.ok() {
			if prev.Kind == expand.Associative {
				raw := ""
				if index == as.Index {
					raw = as.IndexRaw
				}
				k, err := expand.AssocKeyRaw(r.ecfg, index, raw)
				r.expandErr(err)
				index = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: k}}}
			} else if sub, all := allElemsIndex(index); all {
				// jaiph-go patch: see setVarWithIndex
				r.errf("%s[%s]: bad array subscript\n", name, sub)
				r.exit = exitStatus{code: cmp.Or(r.lastExit.code, 1), exiting: true, discard: true, assignFailed: true, popScopes: !r.errexitOn()}
				return name, prev, appendIndex
			} else if k := r.arithmTrail(index, as.IndexRaw); r.exit.ok() {
				if k < 0 {
					// Counted from the array as the subscript left it;
					// before its start it is bash's assignment error.
					var list []string
					var indexes []int
					c := r.lookupVar(name)
					switch c.Kind {
					case expand.Indexed:
						list, indexes = c.List, c.Indexes
					case expand.String:
						if c.IsSet() {
							list = []string{c.Str}
						}
					}
					if k += negativeIndexBase(c, list, indexes); k < 0 {
						r.errf("%s[%s]: bad array subscript\n", name, printNode(index))
						r.exit = exitStatus{code: cmp.Or(r.lastExit.code, 1), exiting: true, discard: true, assignFailed: true, popScopes: !r.errexitOn()}
						return name, prev, appendIndex
					}
				}
				index = indexLiteral(k)
			}
			appendIndex = index
		}
		if r.exit.exiting {
			return name, prev, appendIndex // the subscript's error, reported once
		}
		// jaiph-go patch: the element is read as bash's
		// make_array_variable_value does, set -u or not (an unset one
		// is empty); declare -i adds its value to the new one's.
		noUnset := r.ecfg.NoUnset
		r.ecfg.NoUnset = false
		cur := r.literal(&syntax.Word{Parts: []syntax.WordPart{
			&syntax.ParamExp{Param: as.Name, Index: index},
		}})
		r.ecfg.NoUnset = noUnset
		if prev.Integer {
			old, err := expand.ArithmString(r.ecfg, cur)
			if err == nil {
				var n int
				n, err = expand.ArithmString(r.ecfg, val)
				val = strconv.Itoa(old + n)
			}
			if err != nil {
				r.expandErr(intValueError{err})
				return name, prev, appendIndex
			}
			return name, expand.Variable{Set: true, Kind: expand.String, Str: val}, appendIndex
		}
		return name, expand.Variable{Set: true, Kind: expand.String, Str: cur + val}, appendIndex
	}
	if as.Value != nil {
		// jaiph-go patch: tilde expansion after ':' as in bash assignments.
		s, err := expand.AssignLiteral(r.ecfg, as.Value)
		r.expandErr(err)
		r.assignWord = s
		if r.exit.exiting && as.Append && prev.Integer {
			// jaiph-go patch: a fatal error expanding the value ends
			// it before the += is evaluated (which said a second one)
			return name, prev, appendIndex
		}
		if !as.Append {
			if valType == "-a" || valType == "-A" {
				// jaiph-go patch: declare -a x=v (-A, and readonly
				// or export with either) sets element (key) 0 of
				// the array, as bash.
				return name, scalarToArray(prev, valType, s), appendIndex
			}
			// jaiph-go patch: a nameref without a value (declare -n
			// r) keeps its attribute when assigned: r=x makes it
			// name x, as bash.
			if prev.Kind != expand.NameRef || prev.Str != "" {
				prev.Kind = expand.String
			}
			if valType == "-n" {
				prev.Kind = expand.NameRef
			}
			prev.Str = s
			return name, prev, appendIndex
		}
		switch prev.Kind {
		case expand.NameRef:
			// jaiph-go patch: a nameref without a value (declare -n r)
			// names what r+=x appends to nothing, as r=x does
			prev.Str += s
		case expand.String, expand.Unknown:
			prev.Kind = expand.String
			if prev.Integer {
				// jaiph-go patch: += adds on declare -i variables.
				var a, b int
				var err1, err2 error
				r.whileBinding(name, func() {
					a, err1 = expand.ArithmString(r.ecfg, prev.Str)
					b, err2 = expand.ArithmString(r.ecfg, s)
				})
				if err := cmp.Or(err1, err2); err != nil {
					r.expandErr(intValueError{err})
					return name, prev, appendIndex
				}
				prev.Str = strconv.Itoa(a + b)
				return name, prev, appendIndex
			}
			prev.Str += s
		case expand.Indexed:
			// Appends to the element at index 0, creating it if unset.
			if len(prev.List) > 0 && (prev.Indexes == nil || prev.Indexes[0] == 0) {
				prev.List[0] += s
			} else {
				prev.List, prev.Indexes = internal.SetIndexedElem(prev.List, prev.Indexes, 0, s)
			}
		case expand.Associative:
			// jaiph-go patch: m+=v appends to the key "0", as bash.
			prev.SetAssoc("0", prev.Map["0"]+s)
		}
		return name, prev, appendIndex
	}
	if as.Array == nil {
		// don't return the zero value, as that's an unset variable
		prev.Kind = expand.String
		if valType == "-n" {
			prev.Kind = expand.NameRef
		}
		prev.Str = ""
		return name, prev, appendIndex
	}
	// Array assignment.
	if prev.Kind == expand.NameRef {
		// jaiph-go patch: a list given to a nameref naming nothing
		// (declare -n r; r=(x y)) makes r an array, with bash's warning.
		r.errf("warning: %s: removing nameref attribute\n", name)
	}
	elems := as.Array.Elems
	if valType == "" {
		valType = "-a" // indexed
		// jaiph-go patch: an existing associative array stays one
		// (a+=([k]=v), a=([k]=v) with unquoted keys).
		// A new variable's list is indexed whatever its subscripts look
		// like (y=(["k"]=v) is element 0, as in bash).
		if prev.Kind == expand.Associative {
			valType = "-A" // associative
		}
	}
	if valType == "-A" {
		// jaiph-go patch: a+=([k]=v) adds to an associative array
		// (upstream ignored the assignment); keys keep their insertion
		// order for bash's listing order.
		amap := make(map[string]string, len(elems))
		seq := make(map[string]uint64, len(elems))
		// bind is the value as the key gets it, in turn: transformed
		// by the variable's declare -i/-l/-u, as bash's
		// make_array_variable_value; an arithmetic error is fatal.
		bind := func(v string) string {
			s, err := r.attrValue(prev, v)
			if err != nil {
				r.expandErr(intValueError{err})
				r.exit.expDiscard = false
			}
			return s
		}
		if as.Append && prev.Kind == expand.Associative {
			maps.Copy(amap, prev.Map)
			maps.Copy(seq, prev.MapSeq)
		}
		if len(elems) > 0 && elems[0].Index == nil {
			// jaiph-go patch: a first word without a subscript makes
			// the words key-value pairs, as in bash 5.1+ (A=(k v k2
			// v2)), a later [k]=v word's text included; a missing last
			// value is empty.
			for i := 0; i < len(elems) && !r.exit.exiting; i += 2 { // jaiph-go patch: see the indexed case
				k, v := r.assocPairWord(elems[i]), ""
				if k == "" && !r.exit.exiting {
					// jaiph-go patch: an empty key is bash's bad
					// subscript, named as written; the pair is left
					// out, its value not expanded (it made the key "").
					r.reportError(fmt.Errorf("%s: %w", printWord(elems[i].Value), expand.ErrBadSubscript))
					continue
				}
				if i+1 < len(elems) {
					v = r.assocPairWord(elems[i+1])
				}
				if v = bind(v); r.exit.exiting {
					break
				}
				if _, ok := amap[k]; !ok {
					seq[k] = expand.NextAssocSeq()
				}
				amap[k] = v
			}
			elems = nil
		}
		for _, elem := range elems {
			if r.exit.exiting { // jaiph-go patch: see the indexed case
				continue
			}
			if elem.Index == nil {
				// jaiph-go patch: a word without a subscript among
				// ones with is left out with bash's warning naming it
				// as written (a declaration's: expandDeclList).
				r.reportError(fmt.Errorf("%s: %s: must use subscript when assigning associative array", name, printWord(elem.Value)))
				continue
			}
			// jaiph-go patch: the subscript as the parser read it, which
			// is arithmetic when the list's variable was not yet known
			// associative (a1=([-1]=x) of a declare -A a1 panicked)
			k, err := expand.AssocKeyRaw(r.ecfg, elem.Index, elem.IndexRaw)
			r.expandErr(err)
			if r.exit.exiting {
				continue
			}
			if k == "" {
				// jaiph-go patch: an empty key is bash's bad
				// subscript, the element named as written; it is
				// left out, its value not expanded.
				r.reportError(fmt.Errorf("%s: %w", assocElemText(elem), expand.ErrBadSubscript))
				continue
			}
			v := bind(r.assocListLiteral(elem.Value))
			if r.exit.exiting {
				continue
			}
			if _, ok := amap[k]; !ok {
				seq[k] = expand.NextAssocSeq()
			}
			amap[k] = v
		}
		prev.Kind = expand.Associative
		prev.Map, prev.MapSeq = amap, seq
		return name, prev, appendIndex
	}
	// The base array which the new elements are set on; empty unless
	// we are appending to an existing value.
	var list []string
	var indexes []int
	if as.Append {
		switch prev.Kind {
		case expand.Unknown:
		case expand.String:
			list = []string{prev.Str}
		case expand.Indexed:
			// TODO: only clone when inside a subshell and getting a var from outside for the first time
			list = slices.Clone(prev.List)
			indexes = slices.Clone(prev.Indexes)
		case expand.Associative:
			// TODO
			return name, prev, appendIndex
		default:
			// Should only happen if we forgot a case above.
			panic(fmt.Sprintf("unexpected conversion of kind %d", prev.Kind))
		}
	}
	// Evaluate values for each array element. An explicit index like
	// [5]=x resets our index counter, which otherwise advances for every
	// value, starting after the maximum index of the base array.
	// jaiph-go patch: every word is expanded before any subscript is
	// evaluated, as bash (listWords, placeList).
	if words := r.listWords(elems); !r.exit.exiting {
		if as.Append && len(elems) > 0 {
			// jaiph-go patch: bash appends to the value the words'
			// expansion left (a+=($((a[0]+=1))) of an unset a is
			// (1 1)).
			switch cur := r.lookupVar(name); cur.Kind {
			case expand.Indexed:
				list, indexes = slices.Clone(cur.List), slices.Clone(cur.Indexes)
			case expand.String:
				if cur.IsSet() {
					list, indexes = []string{cur.Str}, nil
				}
			}
		}
		show := func(l []string, ix []int) {
			// an unset variable stays unset until an element is
			// placed (set -u: a=(a+1) of an unset declare -ai a is
			// unbound, as in bash)
			cur := prev
			cur.Kind, cur.Set = expand.Indexed, wasSet || len(l) > 0
			cur.List, cur.Indexes = slices.Clone(l), slices.Clone(ix)
			if l == nil {
				cur.List = []string{}
			}
			r.setVarFailed(r.bindValue(name, cur)) // placed as bound
		}
		list, indexes, _ = r.placeList(words, list, indexes, show, prev)
	}
	if list == nil {
		// An empty array like a=() must still expand to zero fields.
		list = []string{}
	}
	prev.Kind = expand.Indexed
	prev.List = list
	prev.Indexes = indexes
	return name, prev, appendIndex
}

// printNode renders a syntax node as source text (jaiph-go patch).
func printNode(n syntax.Node) string {
	var sb strings.Builder
	if x, ok := n.(syntax.ArithmExpr); ok {
		if w, ok := x.(*syntax.Word); !ok || w.Lit() == "" {
			// jaiph-go patch: as written, with its own spacing
			// (a1[n+1]: bash names the element as in the source)
			return expand.ArithmSource(x)
		}
	}
	newWordPrinter().Print(&sb, n)
	return strings.ReplaceAll(sb.String(), "\\\n", "")
}

// assocElemText is an associative list's [key]=value element as written,
// as bash names it (jaiph-go patch).
func assocElemText(elem *syntax.ArrayElem) string {
	key := elem.IndexRaw
	if key == "" {
		if w, ok := elem.Index.(*syntax.Word); ok {
			key = printWord(w)
		} else {
			key = printNode(elem.Index)
		}
	}
	text := "[" + key + "]="
	if elem.Value != nil {
		text += printWord(elem.Value)
	}
	return text
}

// printWord is a word as written (jaiph-go patch: printNode reads any word
// as arithmetic, which prints "${v}" as "$v"; bash names a list's word as
// written).
func printWord(w *syntax.Word) string {
	var sb strings.Builder
	newWordPrinter().Print(&sb, w)
	return strings.ReplaceAll(sb.String(), "\\\n", "")
}

// scalarToArray is prev with element 0 (key "0") set to s: an array of the
// kind valType names ("-a", "-A"), unless prev is an associative array.
func scalarToArray(prev expand.Variable, valType, s string) expand.Variable {
	if valType == "-A" || prev.Kind == expand.Associative {
		if prev.Kind != expand.Associative {
			prev.Map, prev.MapSeq = nil, nil
		}
		prev.Kind = expand.Associative
		prev.SetAssoc("0", s)
		return prev
	}
	var list []string
	var indexes []int
	if prev.Kind == expand.Indexed {
		list, indexes = slices.Clone(prev.List), slices.Clone(prev.Indexes)
	}
	prev.Kind = expand.Indexed
	prev.List, prev.Indexes = internal.SetIndexedElem(list, indexes, 0, s)
	return prev
}
