package engine

// This file answers: which transport carries a run's inbox? The file inbox
// (internal/fileinbox, made by Prepare) carries every orchestrator's, and
// with JAIPH_INBOX_URL the transport registered for its scheme carries the
// first orchestrator's: only the jaiph-full build registers "nats"
// (internal/broker), so the default binary links no broker code.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/runtime"
)

// Sources are the program's files, relative to their common root, for a
// transport that runs deliveries on other machines.
type Sources struct {
	Entry string
	Files map[string][]byte
}

// TransportFactory dials a transport for url, carrying the program's
// sources to its workers. settings looks up the run's own settings (a
// resumed run's are those recorded in its run.json), never the process
// environment's. files are the run's inbox files, where the transport
// stores the messages it carries, so `jaiph inbox` reads them as a file
// inbox's.
type TransportFactory func(ctx context.Context, url string, src Sources, settings func(string) (string, bool), files *inbox.Files) (runtime.Transport, error)

var transports map[string]TransportFactory

// RegisterTransport makes scheme:// URLs in JAIPH_INBOX_URL use f.
func RegisterTransport(scheme string, f TransportFactory) {
	if transports == nil {
		transports = map[string]TransportFactory{}
	}
	transports[scheme] = f
}

// Inbox is what a command line says of a run's inbox (--inbox URL,
// --replicas N). The flags are the documented variables' equivalents for
// this one run: applied to the run's environment, they become its
// JAIPH_INBOX_URL and JAIPH_INBOX_REPLICAS, which its bodies see, its
// run.json records (a resume reads the run's replicas back, with the
// credentials the URL had left out) and its transport reads. The process's
// environment is never changed.
type Inbox struct {
	URL      string // the broker; "": the environment's JAIPH_INBOX_URL, else the file inbox
	Replicas int    // the run's stream replicas; 0: the environment's JAIPH_INBOX_REPLICAS
}

// check refuses an --inbox URL no transport takes, naming the flag the
// user gave it with; one from the environment is refused naming
// JAIPH_INBOX_URL when the run dials it (transport).
func (in Inbox) check() error {
	if in.URL == "" {
		return nil
	}
	return CheckInboxURL("--inbox", in.URL)
}

// brokerSchemes are the schemes of a broker URL, as NATS clients take
// them: plain (nats) and TLS (tls). They are taken in every build: the
// default one hands such a run to jaiph-full, which registers both.
var brokerSchemes = []string{"nats", "tls"}

// CheckInboxURL refuses a broker URL no transport takes, naming where it
// came from (from: the flag the user passed, or JAIPH_INBOX_URL). Each URL
// of a comma-separated list (a cluster's nodes) is checked.
func CheckInboxURL(from, url string) error {
	for _, u := range strings.Split(url, ",") {
		scheme, _, ok := strings.Cut(strings.TrimSpace(u), "://")
		if !ok || !(slices.Contains(brokerSchemes, scheme) || transports[scheme] != nil) {
			return fmt.Errorf("%s %q: unsupported inbox URL (want nats://HOST:PORT or tls://HOST:PORT)", from, url)
		}
	}
	return nil
}

// BrokerURL is a broker command's URL: its --inbox (flag), else the
// environment's JAIPH_INBOX_URL (env), refused as CheckInboxURL refuses
// it, naming the one it came from. Both empty is "" and no error.
func BrokerURL(flag, env string) (string, error) {
	if flag != "" {
		return flag, CheckInboxURL("--inbox", flag)
	}
	if env = strings.TrimSpace(env); env != "" {
		return env, CheckInboxURL("JAIPH_INBOX_URL", env)
	}
	return "", nil
}

// apply is environ with the settings in gives in place of its own.
func (in Inbox) apply(environ []string) []string {
	set := map[string]string{}
	if in.URL != "" {
		set["JAIPH_INBOX_URL"] = in.URL
	}
	if in.Replicas != 0 {
		set["JAIPH_INBOX_REPLICAS"] = strconv.Itoa(in.Replicas)
	}
	if len(set) == 0 {
		return environ
	}
	out := make([]string, 0, len(environ)+len(set))
	for _, kv := range environ {
		if k, _, _ := strings.Cut(kv, "="); set[k] == "" {
			out = append(out, kv)
		}
	}
	for _, k := range []string{"JAIPH_INBOX_URL", "JAIPH_INBOX_REPLICAS"} {
		if v := set[k]; v != "" {
			out = append(out, k+"="+v)
		}
	}
	return out
}

// inboxURL is the broker URL a run's environment names ("" for the file
// inbox): JAIPH_INBOX_URL, which Inbox.URL sets. It is an operator
// setting: a workflow file's config cannot name one.
func inboxURL(environ []string) string {
	v, _ := lookup(environ)("JAIPH_INBOX_URL")
	return strings.TrimSpace(v)
}

// transport dials the transport named by the environment, or returns nil.
func (p *Program) transport(ctx context.Context, environ []string, files *inbox.Files) (runtime.Transport, error) {
	url := inboxURL(environ)
	if url == "" {
		return nil, nil
	}
	if err := CheckInboxURL("JAIPH_INBOX_URL", url); err != nil {
		return nil, err
	}
	scheme, _, _ := strings.Cut(url, "://")
	f := transports[scheme]
	if f == nil {
		return nil, fmt.Errorf("this run's inbox is on a broker (%s): run it with jaiph-full, the build with the broker linked in (make build writes it beside jaiph), or set JAIPH_INBOX_URL so jaiph hands it over", url)
	}
	if !p.routes() {
		// Only a workflow with routes opens an inbox: a run of a program
		// without any never dispatches, and dialing the broker for it
		// (a connection, its sources published) was a served run's
		// largest cost on a worker after its files.
		return nil, nil
	}
	src, err := p.Sources()
	if err != nil {
		return nil, err
	}
	return f(ctx, url, src, lookup(environ), files)
}

// routes tells whether a workflow of the program has inbox routes (the
// only bodies that open an inbox).
func (p *Program) routes() bool {
	for _, m := range p.Modules {
		for _, b := range m.Order {
			if len(b.Routes) > 0 {
				return true
			}
		}
	}
	return false
}

// Sources reads the program's module files relative to the directory that
// holds them all.
func (p *Program) Sources() (Sources, error) {
	root := filepath.Dir(p.Path)
	for _, m := range p.Modules {
		for !within(root, m.Path) {
			root = filepath.Dir(root)
		}
	}
	src := Sources{Files: map[string][]byte{}}
	for _, m := range p.Modules {
		b, err := os.ReadFile(m.Path)
		if err != nil {
			return src, err
		}
		rel, _ := filepath.Rel(root, m.Path)
		src.Files[filepath.ToSlash(rel)] = b
	}
	rel, _ := filepath.Rel(root, p.Path)
	src.Entry = filepath.ToSlash(rel)
	return src, nil
}

func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
