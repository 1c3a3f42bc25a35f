// Package redact hides credentials a run's environment holds from what
// jaiph writes and shows about the run: it replaces the values of
// secret-looking environment variables (Names), and their base64, hex,
// URL-encoded and JSON-escaped forms, by "***". Writer masks a stream (the
// step artifacts, the terminal's stray stderr), a secret split across
// writes included. docs/security.md says what it covers and what it does
// not (the inbox's message files, a transformed secret).
package redact
