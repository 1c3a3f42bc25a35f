// Package scaffold writes what `jaiph init` puts in a workspace: the
// executable bootstrap workflow and the agent guide. It must not print:
// the command reports what happened.
package scaffold
