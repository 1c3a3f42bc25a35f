// Package envflag is the one reader of the environment's boolean settings
// (JAIPH_DEBUG, JAIPH_TRUST_HOOKS, JAIPH_INBOX_FSYNC, JAIPH_INBOX_PARALLEL,
// JAIPH_DOCKER_ENABLED), so that every one of them takes the same
// spellings of true. It does not look the variables up itself: a run's
// environment is not always the process's, so callers pass the value.
package envflag
