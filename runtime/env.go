package runtime

import (
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
)

// This file answers: which variables does a managed call see (the
// caller's snapshot, config scopes, module locals)?

// Scoped config variables and the keys that feed them (docs/language.md#config-keys).
var scopedVars = map[string]string{
	"agent.default_model":     "JAIPH_AGENT_MODEL",
	"agent.command":           "JAIPH_AGENT_COMMAND",
	"agent.backend":           "JAIPH_AGENT_BACKEND",
	"agent.trusted_workspace": "JAIPH_AGENT_TRUSTED_WORKSPACE",
	"agent.cursor_flags":      "JAIPH_AGENT_CURSOR_FLAGS",
	"agent.claude_flags":      "JAIPH_AGENT_CLAUDE_FLAGS",
	"run.logs_dir":            "JAIPH_RUNS_DIR",
	"run.debug":               "JAIPH_DEBUG",
	"run.inbox_parallel":      "JAIPH_INBOX_PARALLEL",
	// (own alignment block: the long key would realign the lines above)
	"run.inbox_max_dispatch_depth": "JAIPH_INBOX_MAX_DISPATCH_DEPTH",
	"run.inbox_retries":            "JAIPH_INBOX_RETRIES",       // runtime/dispatch_retry.go
	"run.inbox_retry_backoff":      "JAIPH_INBOX_RETRY_BACKOFF", // runtime/dispatch_retry.go
	"run.inbox_lease":              "JAIPH_INBOX_LEASE",         // internal/broker: a delivery's lease on a worker
	"run.timeout":                  "JAIPH_RUN_TIMEOUT",         // limits.go
	"run.max_steps":                "JAIPH_MAX_STEPS",           // limits.go
	"run.step_idle_kill":           "JAIPH_STEP_IDLE_KILL",      // limits.go
	// jaiph-go keys (runtime/prompt_retry.go), scoped like the agent.* ones.
	"agent.retries":       "JAIPH_AGENT_RETRIES",
	"agent.retry_backoff": "JAIPH_AGENT_RETRY_BACKOFF",
	"agent.idle_warn":     "JAIPH_AGENT_IDLE_WARN",
}

// applyScope applies the config scope of a call (docs/language.md#config-scopes): a workflow
// with its own config sets and locks its keys; otherwise the callee module's
// config sets its keys; locked variables are never touched.
func (rt *Runtime) applyScope(env mapEnviron, b *lowered.Body) {
	cfg, lock := b.Config, b.HasConfig
	if !lock {
		mod := rt.modules[strings.TrimSuffix(b.Symbol, "::"+b.Name)]
		if mod == nil {
			return
		}
		cfg = mod.Config
	}
	for _, e := range cfg {
		v, ok := scopedVars[e.Key]
		if !ok || env.get(v+"_LOCKED") == "1" {
			continue
		}
		env.setExported(v, e.Value)
		if lock {
			env.setExported(v+"_LOCKED", "1")
		}
	}
}

// mapEnviron is a snapshot of shell variables handed to a callee runner.
type mapEnviron map[string]expand.Variable

func (m mapEnviron) Get(name string) expand.Variable { return m[name] }

func (m mapEnviron) Each(fn func(string, expand.Variable) bool) {
	for k, v := range m {
		if !fn(k, v) {
			return
		}
	}
}

func (m mapEnviron) get(name string) string { return m[name].String() }

func (m mapEnviron) setExported(name, value string) {
	m[name] = expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: value}
}

func (m mapEnviron) setLocal(name, value string) {
	m[name] = expand.Variable{Set: true, Kind: expand.String, Str: value}
}

// clone copies the variables; exportedOnly keeps what a fresh shell would
// inherit (rules).
func (m mapEnviron) clone(exportedOnly bool) mapEnviron {
	out := make(mapEnviron, len(m))
	for k, v := range m {
		if exportedOnly && !v.Exported {
			continue
		}
		v.Local = false
		out[k] = v
	}
	return out
}

// keepExported drops, in place, what clone(exportedOnly) would leave out.
func (m mapEnviron) keepExported(exportedOnly bool) {
	for k, v := range m {
		if exportedOnly && !v.Exported {
			delete(m, k)
		}
	}
}

// setByRunner are the variables the callee's runner sets itself when it
// starts, whatever it is given, so copying them would be wasted work on
// every managed call.
var setByRunner = map[string]bool{"OSTYPE": true, "MACHTYPE": true, "HOSTTYPE": true, "BASH": true,
	"PWD": true, "UID": true, "EUID": true, "GID": true}

// snapshotSize is the number of variables the last snapshotEnv copied.
var snapshotSize atomic.Int64

// snapshotEnv copies the caller's variables (exported or not).
func snapshotEnv(env expand.Environ) mapEnviron {
	// Sized as the last snapshot: growing a map of ~100-byte variables
	// from empty, every managed call, was a third of a step's allocation.
	out := make(mapEnviron, snapshotSize.Load())
	defer func() { snapshotSize.Store(int64(len(out))) }()
	env.Each(func(name string, vr expand.Variable) bool {
		if (vr.IsSet() || vr.Exported) && !setByRunner[name] {
			vr.Local = false
			out[name] = vr
		}
		return true
	})
	// A managed call is a subshell of its caller (docs/language.md#how-bodies-run), which
	// bash runs at the same SHLVL; the callee's runner adds one as a new
	// shell does, so hand it one less.
	if lvl, err := strconv.Atoi(out.get("SHLVL")); err == nil && lvl > 0 {
		vr := out["SHLVL"]
		vr.Str = strconv.Itoa(lvl - 1)
		out["SHLVL"] = vr
	}
	return out
}

// envFromList builds an environment of exported variables.
func envFromList(list []string) mapEnviron {
	out := mapEnviron{}
	for _, kv := range list {
		if k, v, ok := strings.Cut(kv, "="); ok {
			out.setExported(k, v)
		}
	}
	return out
}
