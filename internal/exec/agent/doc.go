// Package agent holds what a prompt step needs to know about agent CLIs,
// as pure functions: the backend command line (cursor-agent or claude) and
// its printf-%q display, the stream-json parser that turns the agent's
// output into the step transcript and the final answer, and the handling of
// typed prompts (`returns` schema suffix, JSON extraction and checks).
// It never starts processes, reads the environment or writes artifacts; the
// runtime does that (runtime/prompt.go).
package agent
