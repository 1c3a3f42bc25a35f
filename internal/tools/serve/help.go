package serve

import (
	"os"

	"github.com/spf13/pflag"

	"github.com/jaiph-go/jaiph/runtime"
)

// Use and Short are the command's usage line and summary (the default
// build's stand-in in cmd/jaiph/forward.go repeats them).
const (
	Use   = "serve [--host H] [--port N] [--allow-anonymous] [--inbox URL [--execute]] [--inlets FILE] [FILE|DIR...]"
	Short = "Serve exported workflows over HTTP: REST and OpenAPI, live events, MCP, the run viewer"
)

// Flags declares the command's flags on fs, into c.
func (c *Config) Flags(fs *pflag.FlagSet) {
	fs.StringVar(&c.Host, "host", "127.0.0.1", "the address to listen on")
	fs.IntVar(&c.Port, "port", DefaultPort, "the port to listen on (0: any free one)")
	fs.BoolVar(&c.AllowAnonymous, "allow-anonymous", false, "serve without authentication (loopback only)")
	fs.StringVar(&c.Inbox, "inbox", "", "keep the runs on the NATS broker at `URL` (nats://HOST:PORT; default JAIPH_INBOX_URL unset: in this process): replicas share them, workers run them")
	fs.IntVar(&c.Replicas, "replicas", 1, "replicas of the service's buckets and streams on the broker (`N`; a cluster: 3)")
	fs.StringVar(&c.Inlets, "inlets", "", "webhooks and schedules that start runs, from the JSON `FILE` (docs/serve.md, \"Inlets\")")
	fs.BoolVar(&c.Execute, "execute", false, "with --inbox: this process also runs runs and deliveries, as jaiph worker")
}

// Main is `jaiph serve PATHS…` in this process's directory and
// environment, until SIGINT or SIGTERM.
func Main(c Config, paths []string) error {
	ctx, stop := runtime.NotifyInterrupt()
	defer stop()
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	c.Paths, c.Dir, c.Environ = paths, dir, os.Environ()
	c.Home, _ = os.UserHomeDir()
	return Serve(ctx, c)
}

// Help is `jaiph serve --help`'s text.
const Help = `Serve the exported workflows of FILE… (a DIR: its .jh files) over HTTP on one
port, for people, programs and agents (default 127.0.0.1:5247). Without FILE:
the .jh files of the workspace's .jaiph/ directory and of its root. Start-up
compiles them as jaiph check does; a diagnostic exits 1.

  GET  /healthz                          liveness (no authentication)
  GET  /openapi.json                     OpenAPI 3.1: one path per workflow
  GET  /v1/workflows                     the served workflows
  POST /v1/workflows/{name}/runs         start a run: a JSON object of string
                                         arguments; 202 + Location, or with
                                         ?wait=true the ended run; an
                                         Idempotency-Key starts it once
  GET  /v1/runs, /v1/runs/{id}           your runs, newest first; one run
  GET  /v1/runs/{id}/events              its events (NDJSON), or live with
                                         Accept: text/event-stream
  GET  /v1/runs/{id}/artifacts[/{path}]  the files it put in $JAIPH_ARTIFACTS_DIR
  POST /v1/runs/{id}/cancel              stop it (its programs and container)
  POST /mcp                              the workflows as MCP tools
                                         (Streamable HTTP)
  GET  /workflows, /                     a form per workflow; the run viewer
  POST /hooks/{name}                     a webhook of --inlets FILE (signed:
                                         no bearer token); its rules start
                                         a workflow or ignore the delivery
  POST /hooks/{name}/replay              the verdict on a payload, nothing
                                         done (jaiph:admin)

--inlets FILE (JSON) also declares schedules: a workflow started at each
tick of a cron expression in a given time zone (jaiph schedules FILE shows
the next ticks). The webhooks' secrets are read from the variables FILE
names, which no run sees.

Authentication (from the environment, never the command line; no workflow
sees it): JAIPH_SERVE_TOKEN, a bearer token; or JAIPH_SERVE_OIDC_ISSUER and
JAIPH_SERVE_OIDC_AUDIENCE (JAIPH_SERVE_OIDC_JWKS_URI) for JWTs with the
scopes jaiph:invoke, jaiph:inspect, jaiph:cancel (jaiph:admin: every
principal's runs and the viewer). Without either, jaiph serve refuses to
start unless --allow-anonymous, which binds loopback only.

Limits: JAIPH_SERVE_MAX_CONCURRENT (runs at once, default 4; 429 beyond),
JAIPH_SERVE_LANES (runs that start executing at once, in arrival order, each
for its first 50 ms; default the CPU count, 0: no lane),
JAIPH_SERVE_MAX_ARTIFACT_BYTES (413 beyond), JAIPH_SERVE_RETAIN_RUNS (ended
runs remembered, default 1000). Run records: JAIPH_SERVE_STATE_DIR (default
.jaiph/serve of the workspace). One log line per request, and an audit line
per run started or cancelled, go to stderr. SIGINT or SIGTERM interrupts the
runs in progress, records them, and stops.`
