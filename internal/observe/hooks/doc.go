// Package hooks runs the user's hook commands for `jaiph run`
// (docs/cli.md#hooks): it reads ~/.jaiph/hooks.json and
// <workspace>/.jaiph/hooks.json, and for workflow and step lifecycle
// events starts each configured command as
// `sh -c <cmd>` with a JSON payload on stdin. Hooks are best-effort
// observers: they never block the run, never change its exit status and
// never panic on a malformed configuration.
package hooks
