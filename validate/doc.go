// Package validate loads a module with its imports and reports the
// diagnostics of docs/language.md#checks in the reference's order: import checks,
// calling conventions, channel and route references, the keyword-first shell
// guard, and the compile checks (local cycles, `run` in rules, prompt text and
// `returns` schemas). It never runs or lowers code.
package validate
