// Package format is `jaiph fmt`: it rewrites a .jh/.jph/test file into the
// canonical layout without changing what the file means.
//
// Source refuses a file that does not parse (its E_PARSE diagnostics come
// back as an *Error): the parser's errors and the shell syntax errors of
// its bodies. It needs only the file's text: nothing else is read, imports
// are not resolved, and `jaiph check`'s other diagnostics do not stop it
// (an editor formats buffers whose imports do not exist yet). The path
// names positions and tells a test file (*.test.jh) from a module; the
// file at path is never read (codegen takes the columns of lowered lines
// from the text the parser kept, ast.File.Lines).
//
// # Layout
//
//   - A shebang line stays first.
//   - Imports, the module config, channels and locals come first, in their
//     source order, then the rules, functions, workflows and tests, in
//     their source order. Comment lines before an item move with it.
//   - One blank line separates definitions, config blocks, multi-line
//     locals and header lines of different kinds; between header lines of
//     the same kind a blank line stays where the source had one. Runs of
//     blank lines become one; blank lines at the start and end of a body
//     and of the file go.
//   - The first line of an import, channel, local (up to its `=`) and
//     definition (up to its `{`) has single spaces between its words,
//     outside quotes: `workflow   default {` becomes `workflow default {`.
//   - Lines are indented two spaces a nesting level and lose trailing
//     blanks; their text is otherwise untouched. CRLF becomes LF; the file
//     ends in one newline.
//
// # Nesting
//
// A body's lines nest by `{`…`}` and `(`…`)` outside quotes and comments
// (so `echo "{"` and `# }` do not count), and by the shell's compound
// commands when their keyword is in command position: `if`…`fi` (`then`,
// `else` and `elif` on their own line sit at the `if`'s level), `do`…
// `done` (for/while/until/select), `case`…`esac` whose patterns are one
// level in and whose pattern bodies, up to `;;`, two. Jaiph's own forms
// use the same words (`if ensure x; then`, `recover {`, `mock prompt {`).
// A line starting with closers (`}`, `)`, `fi`, `done`, `esac`, `;;`) sits
// at the level they close to. In config blocks `[`…`]` arrays nest too.
// A line continuing a backslash-newline is one level deeper than its
// nesting.
//
// # Never changed
//
// Lines that start inside a string (prompt text, multi-line local values,
// shell quotes spanning lines: '…', "…", $'…', `…`, and the lines of a
// "$(…)", "${…}" or backtick substitution inside "…", whose quotes
// nest) and here-document
// bodies with their delimiter lines are copied as they are (only blanks
// after a closing quote go); so are the trailing blanks of a line that
// ends inside a string and a blank escaped by a backslash. A continuation
// line whose backslash follows a non-blank and that has no leading blank
// keeps its column 1: adding a blank would split the word it continues. A
// line ending in a backslash and blanks counts as continued that way too:
// the parser trims the blanks, so in the lowered shell the backslash ends
// the line.
//
// A definition in which a shell string runs over a line that the lowering
// rewrites is left as it is: over a line the parser reads as the end of a
// block whatever the quotes (`fi`, `else`, `}`: the lowering writes its
// own fi, else or loop end there, indented like the block's first line,
// inside that string), or in a workflow over a Jaiph step (the lowered
// step's quotes are not the source's).
//
// Since the parser trims every line before classifying it, and bash
// ignores leading blanks outside strings and here-documents, these rules
// keep the lowered shell the same up to leading blanks and blank lines
// (format_test.go checks this on every .jh file of the repository, on
// generated modules and test files, and in FuzzFormat).
package format
