// Package shellscan is the one place that scans Jaiph and shell text with
// quotes in mind: it finds the bytes of a line that are outside quotes, the
// closing quote of a Jaiph string, here-document operators, `$(…)`
// substitutions and list operators, and it holds the identifier, `$NAME`
// and shell-quoting helpers (Quote for code, QuoteQ for display) that the
// parser, the validator, codegen, the agent and the printf builtin share.
//
// It must not parse shell (bashcheck and mvdan.cc/sh do that), report
// diagnostics, or know about the AST: callers decide what a byte means.
//
// # Variants
//
// The spec asks for different quoting rules in different places, so a
// [Scanner] runs in one of the [Mode]s below, each named by what it is for.
// The table test (shellscan_test.go) runs every variant on the same tricky
// inputs so that the differences are visible side by side.
//
//   - [BodyLine]: the brace depth of one Jaiph body line (docs/language.md#lines, D13;
//     the reference is quote-unaware) and its here-document operators, read
//     as bash reads them: '…' has no escapes, "…" and $'…' honour
//     backslashes, an unquoted backslash quotes the next byte, and an
//     unquoted # at the start or after a blank or `;` ends the line. Quote
//     state does not carry over to the next line.
//   - [ShellText]: the keyword-first guard's `$(…)` (docs/language.md#the-keyword-first-guard: outside
//     single quotes, double quotes included) and the list operators of a
//     `run` (docs/language.md#how-bodies-run: `&&`/`||` outside quotes and `$(…)`). Like BodyLine,
//     but bytes inside "…" are reported (marked as such) because `$(` counts
//     there, and # is an ordinary byte.
//   - [Operators]: the Jaiph operators written in a step's text: the `<-` of
//     a send (docs/language.md#sends), the `->` of a route, ` recover ` (D17). Outside
//     '…' and "…", backslash escapes honoured only inside quotes, so `'a\'b'`
//     is one string here and an unterminated one in shell (the reference's
//     send detection).
//   - [RecoverBlock]: splitting a `recover { … }` block into statements
//     (docs/language.md#recover): only "…" quotes (with backslash escapes); ' and an
//     unquoted backslash are ordinary bytes, as in the reference.
//   - The guard's command word ([FirstCommandWord], docs/language.md#the-keyword-first-guard): segments
//     split at `||`, `&&`, `|`, `;` and newlines with no regard to quotes.
//   - Jaiph strings ([ClosingQuote]): a "…" prompt, log or local value closes
//     at the first quote not escaped by an odd number of backslashes (D13).
//
// Required differences (each reproduces the reference):
// Operators escapes inside '…', RecoverBlock ignores '…', FirstCommandWord
// ignores quotes, ShellText sees `$(` inside "…". The rest follow bash.
//
// No variant tracks backticks: `a && b` between backticks is a list
// operator and its braces count, as before the kit.
//
// The header lexer (parser/headers.go) keeps its own participle lexer,
// because participle needs token rules as regexps; its String token follows
// the Jaiph-string rule for "…" and the '…' rule of BodyLine.
package shellscan
