// Package redact hides credentials a run's environment holds from what
// jaiph writes and shows about the run: it replaces the values of
// secret-looking environment variables (Names), and their base64, hex and
// URL-encoded forms, by "***". docs/security.md says what it covers and
// what it does not (the raw step artifacts, a secret split across writes
// to the terminal's stray stderr is covered, a transformed secret is not).
package redact
