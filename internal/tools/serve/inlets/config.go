package inlets

// This file answers: what does an inlets file say, and what does jaiph
// serve refuse in it? Every mistake is reported as FILE:LINE:COL with what
// to do, all of them at once, so that an operator fixes the file in one go.

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/jaiph-go/jaiph/internal/lazy"
)

// Config is an inlets file.
type Config struct {
	File      string
	Webhooks  []*Webhook  // in the file's order
	Schedules []*Schedule // in the file's order
}

// Signature schemes of a webhook.
const (
	SchemeGitHub = "github"      // X-Hub-Signature-256: sha256=<hex>
	SchemeHMAC   = "hmac-sha256" // HEADER: <hex> or sha256=<hex>
)

// Actions of a rule.
const (
	ActionStart  = "start"
	ActionIgnore = "ignore"
	ActionSend   = "send"
)

// Webhook is one webhook inlet: POST /hooks/{Name}.
type Webhook struct {
	Name           string
	SecretEnv      string // the variable that holds the secret
	Scheme         string
	Header         string // the signature's header (canonical)
	DeliveryHeader string // the delivery id's header (canonical)
	Window         time.Duration
	Rules          []*Rule
	Pos            string
	secret         []byte
}

// Rule is one routing rule: when every condition holds, its action.
type Rule struct {
	Pos      string
	Headers  map[string]string // canonical header name → value
	Payload  []Cond
	Action   string
	Workflow string            // start
	Args     map[string]string // start: the workflow's argument key → JSON Pointer
	Channel  string            // send
	Key      string            // send: JSON Pointer of the waiting runs' key
}

// Cond is a condition on the payload: the value at Pointer equals Value.
type Cond struct {
	Pointer string
	Value   *node
}

// Schedule is one schedule: Workflow with Args at every tick of Spec.
type Schedule struct {
	Name        string
	Spec        string // as written
	Location    *time.Location
	Workflow    string
	Args        map[string]string
	Concurrency int // runs of this schedule at once; 0: no cap
	Pos         string
	cron        cron.Schedule
}

// Next is the schedule's first tick after t, in its time zone.
func (s *Schedule) Next(t time.Time) time.Time {
	next := s.cron.Next(t) // in t's location
	if s.Location != nil && !next.IsZero() {
		next = next.In(s.Location)
	}
	return next
}

// Load reads and checks FILE (not its secrets: Secrets).
func Load(file string) (*Config, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("cannot read the inlets file: %w", err)
	}
	return Parse(file, data)
}

// DefaultWindow is how long a delivery id is remembered.
const DefaultWindow = 24 * time.Hour

var nameRE = lazy.Regexp(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// cronParser takes five fields, six with seconds first, and descriptors
// (@daily).
// cronParser is made on first use (internal/lazy): the default build
// links this package for `jaiph schedules`, and package-level values cost
// every command's start-up.
var cronParser = sync.OnceValue(func() cron.Parser {
	return cron.NewParser(cron.SecondOptional | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)
})

// Parse checks data, the text of file.
func Parse(file string, data []byte) (*Config, error) {
	c := &checker{file: file, data: data}
	root, err := parseTree(data)
	if err != nil {
		pe := err.(*posError)
		return nil, fmt.Errorf("%s: %s", position(file, data, pe.off), pe.msg)
	}
	cfg := &Config{File: file}
	c.object(root, "the inlets file", map[string]func(*node){
		"webhooks": func(n *node) {
			c.each(n, "webhooks", func(name string, v *node) { cfg.Webhooks = append(cfg.Webhooks, c.webhook(name, v)) })
		},
		"schedules": func(n *node) {
			c.each(n, "schedules", func(name string, v *node) { cfg.Schedules = append(cfg.Schedules, c.schedule(name, v)) })
		},
	})
	if len(c.errs) > 0 {
		return nil, c
	}
	return cfg, nil
}

// checker collects the file's mistakes; it is the error Parse returns.
type checker struct {
	file string
	data []byte
	errs []string
}

func (c *checker) Error() string { return strings.Join(c.errs, "\n") }

func (c *checker) errorf(n *node, format string, args ...any) {
	c.errs = append(c.errs, position(c.file, c.data, n.off)+": "+fmt.Sprintf(format, args...))
}

func (c *checker) pos(n *node) string { return position(c.file, c.data, n.off) }

// object checks that n is an object of the known keys and calls each
// key's function with its value.
func (c *checker) object(n *node, what string, fields map[string]func(*node)) {
	if n.kind != 'o' {
		c.errorf(n, "%s must be an object, not %s", what, n.kindName())
		return
	}
	known := make([]string, 0, len(fields))
	for k := range fields {
		known = append(known, k)
	}
	sort.Strings(known)
	seen := map[string]bool{}
	for i, k := range n.keys {
		f, ok := fields[k]
		switch {
		case !ok:
			c.errs = append(c.errs, fmt.Sprintf("%s: unknown key %q in %s: remove it (known: %s)",
				position(c.file, c.data, n.koff[i]), k, what, strings.Join(known, ", ")))
		case seen[k]:
			c.errs = append(c.errs, fmt.Sprintf("%s: %q twice in %s: keep one", position(c.file, c.data, n.koff[i]), k, what))
		default:
			seen[k] = true
			f(n.vals[i])
		}
	}
}

// each calls fn for every named entry of the object n.
func (c *checker) each(n *node, what string, fn func(name string, v *node)) {
	if n.kind != 'o' {
		c.errorf(n, "%q must be an object of named entries, not %s", what, n.kindName())
		return
	}
	seen := map[string]bool{}
	for i, k := range n.keys {
		if !nameRE().MatchString(k) {
			c.errs = append(c.errs, fmt.Sprintf("%s: %q is not a name for %s: use letters, digits, '.', '_' and '-' (at most 64)",
				position(c.file, c.data, n.koff[i]), k, what))
			continue
		}
		if seen[k] {
			c.errs = append(c.errs, fmt.Sprintf("%s: %q twice in %s: names are unique", position(c.file, c.data, n.koff[i]), k, what))
			continue
		}
		seen[k] = true
		fn(k, n.vals[i])
	}
}

func (c *checker) str(n *node, what string, dst *string) {
	if n.kind != 's' || n.str == "" {
		c.errorf(n, "%s must be a non-empty string", what)
		return
	}
	*dst = n.str
}

func (c *checker) pointer(n *node, what string, dst *string) {
	var p string
	c.str(n, what, &p)
	if p != "" {
		if err := checkPointer(p); err != nil {
			c.errorf(n, "%s: %v", what, err)
			return
		}
	}
	*dst = p
}

func (c *checker) webhook(name string, n *node) *Webhook {
	w := &Webhook{Name: name, Pos: c.pos(n), Window: DefaultWindow, DeliveryHeader: "X-Github-Delivery"}
	what := fmt.Sprintf("webhook %q", name)
	c.object(n, what, map[string]func(*node){
		"secret_env": func(v *node) { c.str(v, "secret_env (the variable holding the secret)", &w.SecretEnv) },
		"scheme": func(v *node) {
			c.str(v, "scheme", &w.Scheme)
			if w.Scheme != "" && w.Scheme != SchemeGitHub && w.Scheme != SchemeHMAC {
				c.errorf(v, "unknown scheme %q: use %q (X-Hub-Signature-256) or %q (a header of your choice)", w.Scheme, SchemeGitHub, SchemeHMAC)
			}
		},
		"header":          func(v *node) { c.str(v, "header", &w.Header) },
		"delivery_header": func(v *node) { c.str(v, "delivery_header", &w.DeliveryHeader) },
		"dedup_window": func(v *node) {
			var s string
			c.str(v, "dedup_window", &s)
			if d, err := time.ParseDuration(s); s != "" && (err != nil || d <= 0) {
				c.errorf(v, "dedup_window %q: want a positive duration (e.g. 24h)", s)
			} else if s != "" {
				w.Window = d
			}
		},
		"rules": func(v *node) {
			if v.kind != 'a' || len(v.vals) == 0 {
				c.errorf(v, "rules must be a non-empty array of rules")
				return
			}
			for _, r := range v.vals {
				w.Rules = append(w.Rules, c.rule(r))
			}
		},
	})
	if w.SecretEnv == "" {
		c.errorf(n, "%s has no secret_env: name the environment variable that holds its secret (e.g. \"GITHUB_WEBHOOK_SECRET\")", what)
	}
	switch w.Scheme {
	case "":
		c.errorf(n, "%s has no scheme: use %q or %q", what, SchemeGitHub, SchemeHMAC)
	case SchemeGitHub:
		if w.Header != "" && canonicalHeader(w.Header) != "X-Hub-Signature-256" {
			c.errorf(n, "%s: the github scheme's header is X-Hub-Signature-256: remove \"header\" or use scheme %q", what, SchemeHMAC)
		}
		w.Header = "X-Hub-Signature-256"
	case SchemeHMAC:
		if w.Header == "" {
			w.Header = "X-Signature"
		}
	}
	if len(w.Rules) == 0 && n.kind == 'o' {
		c.errorf(n, "%s has no rules: add \"rules\", a list of {match, action}", what)
	}
	w.Header = canonicalHeader(w.Header)
	w.DeliveryHeader = canonicalHeader(w.DeliveryHeader)
	return w
}

func (c *checker) rule(n *node) *Rule {
	r := &Rule{Pos: c.pos(n), Headers: map[string]string{}}
	c.object(n, "a rule", map[string]func(*node){
		"match": func(v *node) {
			c.object(v, "match", map[string]func(*node){
				"headers": func(h *node) {
					if h.kind != 'o' {
						c.errorf(h, "match.headers must be an object of header names and values")
						return
					}
					for i, k := range h.keys {
						var val string
						c.str(h.vals[i], fmt.Sprintf("the value of header %q", k), &val)
						r.Headers[canonicalHeader(k)] = val
					}
				},
				"payload": func(p *node) {
					if p.kind != 'o' {
						c.errorf(p, "match.payload must be an object of JSON Pointers (\"/action\") and values")
						return
					}
					for i, k := range p.keys {
						if err := checkPointer(k); err != nil {
							c.errs = append(c.errs, fmt.Sprintf("%s: match.payload key %q: %v", position(c.file, c.data, p.koff[i]), k, err))
							continue
						}
						if v := p.vals[i]; v.kind == 'o' || v.kind == 'a' {
							c.errorf(v, "match.payload %q: compare with a string, number, boolean or null", k)
							continue
						}
						r.Payload = append(r.Payload, Cond{Pointer: k, Value: p.vals[i]})
					}
				},
			})
		},
		"action": func(v *node) {
			c.str(v, "action", &r.Action)
			if r.Action != "" && r.Action != ActionStart && r.Action != ActionIgnore && r.Action != ActionSend {
				c.errorf(v, "unknown action %q: use %q, %q or %q", r.Action, ActionStart, ActionIgnore, ActionSend)
			}
		},
		"workflow": func(v *node) { c.str(v, "workflow", &r.Workflow) },
		"args": func(v *node) {
			if v.kind != 'o' {
				c.errorf(v, "args must be an object: the workflow's argument names and JSON Pointers into the payload")
				return
			}
			r.Args = map[string]string{}
			for i, k := range v.keys {
				var p string
				c.pointer(v.vals[i], fmt.Sprintf("argument %q", k), &p)
				r.Args[k] = p
			}
		},
		"channel": func(v *node) { c.str(v, "channel", &r.Channel) },
		"key":     func(v *node) { c.pointer(v, "key", &r.Key) },
	})
	switch r.Action {
	case "":
		if n.kind == 'o' {
			c.errorf(n, "the rule has no action: add \"action\": %q, %q or %q", ActionStart, ActionIgnore, ActionSend)
		}
	case ActionStart:
		if r.Workflow == "" {
			c.errorf(n, "a start rule names its workflow: add \"workflow\"")
		}
		if r.Channel != "" || r.Key != "" {
			c.errorf(n, "channel and key belong to a send rule: remove them")
		}
	case ActionSend:
		if r.Channel == "" || r.Key == "" {
			c.errorf(n, "a send rule names the channel and the runs' key: add \"channel\" and \"key\" (a JSON Pointer)")
		}
		if r.Workflow != "" || r.Args != nil {
			c.errorf(n, "workflow and args belong to a start rule: remove them")
		}
	case ActionIgnore:
		if r.Workflow != "" || r.Args != nil || r.Channel != "" || r.Key != "" {
			c.errorf(n, "an ignore rule does nothing: remove workflow, args, channel and key")
		}
	}
	return r
}

func (c *checker) schedule(name string, n *node) *Schedule {
	s := &Schedule{Name: name, Pos: c.pos(n), Concurrency: 1}
	what := fmt.Sprintf("schedule %q", name)
	var tz string
	var specNode *node
	c.object(n, what, map[string]func(*node){
		"cron":     func(v *node) { specNode = v; c.str(v, "cron", &s.Spec) },
		"tz":       func(v *node) { c.str(v, "tz", &tz) },
		"workflow": func(v *node) { c.str(v, "workflow", &s.Workflow) },
		"args": func(v *node) {
			if v.kind != 'o' {
				c.errorf(v, "args must be an object of the workflow's argument names and string values")
				return
			}
			s.Args = map[string]string{}
			for i, k := range v.keys {
				if v.vals[i].kind != 's' {
					c.errorf(v.vals[i], "argument %q must be a string", k)
					continue
				}
				s.Args[k] = v.vals[i].str
			}
		},
		"concurrency": func(v *node) {
			n, err := strconv.Atoi(v.str)
			if v.kind != 'n' || err != nil || n < 0 {
				c.errorf(v, "concurrency must be a whole number ≥ 0 (0: no cap; default 1)")
				return
			}
			s.Concurrency = n
		},
	})
	if s.Workflow == "" && n.kind == 'o' {
		c.errorf(n, "%s names no workflow: add \"workflow\"", what)
	}
	if specNode == nil {
		if n.kind == 'o' {
			c.errorf(n, "%s has no cron expression: add \"cron\" (e.g. \"0 3 * * *\")", what)
		}
		return s
	}
	spec := strings.TrimSpace(s.Spec)
	inSpec := strings.HasPrefix(spec, "CRON_TZ=") || strings.HasPrefix(spec, "TZ=")
	switch {
	case spec == "":
		return s
	case strings.HasPrefix(spec, "@every"):
		c.errorf(specNode, "%q counts from each process's start, so replicas would not agree on its ticks: write it as a cron expression", spec)
		return s
	case tz != "" && inSpec:
		c.errorf(specNode, "the time zone is given twice (tz and CRON_TZ=): keep one")
		return s
	case tz == "" && !inSpec:
		c.errorf(specNode, "%s has no time zone: add \"tz\" (e.g. \"Europe/Berlin\", \"UTC\") or begin the expression with CRON_TZ=", what)
		return s
	case tz != "":
		spec = "CRON_TZ=" + tz + " " + spec
	}
	sched, err := cronParser().Parse(spec)
	if err != nil {
		c.errorf(specNode, "%s: %v (fields: [seconds] minute hour day-of-month month day-of-week)", what, err)
		return s
	}
	s.cron = sched
	if ss, ok := sched.(*cron.SpecSchedule); ok {
		s.Location = ss.Location
	}
	return s
}

// Secrets reads every webhook's secret from the environment; a variable
// unset or empty is refused.
func (c *Config) Secrets(getenv func(string) string) error {
	var errs []string
	for _, w := range c.Webhooks {
		v := getenv(w.SecretEnv)
		if v == "" {
			errs = append(errs, fmt.Sprintf("%s: webhook %q: %s is unset or empty: set it to the webhook's secret (the one the sender signs with)", w.Pos, w.Name, w.SecretEnv))
			continue
		}
		w.secret = []byte(v)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

// Variables are the environment variables the file names (the webhooks'
// secrets): no run may see them.
func (c *Config) Variables() []string {
	var vs []string
	for _, w := range c.Webhooks {
		vs = append(vs, w.SecretEnv)
	}
	return vs
}

// CheckWorkflows checks that every workflow the file starts is served and
// takes the arguments given; keys is a served workflow's argument keys.
func (c *Config) CheckWorkflows(keys func(workflow string) ([]string, bool)) error {
	var errs []string
	check := func(pos, workflow string, args map[string]string) {
		ks, ok := keys(workflow)
		if !ok {
			errs = append(errs, fmt.Sprintf("%s: workflow %q is not served: export it from a served file, or name a served one", pos, workflow))
			return
		}
		for a := range args {
			found := false
			for _, k := range ks {
				found = found || k == a
			}
			if !found {
				errs = append(errs, fmt.Sprintf("%s: workflow %q takes no argument %q (it takes: %s)", pos, workflow, a, strings.Join(ks, ", ")))
			}
		}
	}
	for _, w := range c.Webhooks {
		for _, r := range w.Rules {
			if r.Action == ActionStart {
				check(r.Pos, r.Workflow, r.Args)
			}
		}
	}
	for _, s := range c.Schedules {
		check(s.Pos, s.Workflow, s.Args)
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}
