// Package chain makes a run's summary and journal tamper-evident: each line
// appended to them is chained with an HMAC-SHA256 under a random key of the
// run's own, kept in a key store outside the workspace (Store), and a run
// that ends normally is sealed there with its final line counts. Verify
// tells whether the files are still what the run wrote.
//
// It only appends, keys and checks lines: it knows neither the events nor
// the journal records it chains (their formats do not change), nor where a
// run keeps its files (the caller names them, Files), and it imports no
// other jaiph package. docs/security.md "Tamper evidence" describes it for
// users.
package chain
