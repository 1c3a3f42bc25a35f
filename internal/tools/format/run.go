package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/internal/atomicfile"
	"github.com/jaiph-go/jaiph/internal/engine"
)

// Help is `jaiph fmt --help`'s text.
const Help = `Print Jaiph files in the canonical layout: two-space indentation by nesting,
imports, config, channels and locals first, one blank line between
definitions, single spaces inside declaration lines, no trailing blanks.
Strings and here-documents are never changed. Paths are files or
directories (searched like jaiph check); "-" reads standard input, as an
editor pipes a buffer (--stdin-filename names it: a *.test.jh name formats
a test file; without it, text with test blocks and no workflow, rule,
function, channel or local is one). Formatting needs only the file's text: imports are not read.
A file that does not parse is not formatted: its E_PARSE diagnostics are
printed on stderr as jaiph check prints them.

Exit status: 0 on success, 1 on a file that does not parse (or, with
--check, when a file would change), 2 on usage errors.`

// Options are the flags of `jaiph fmt` and its streams.
type Options struct {
	Check, Write bool
	// StdinFilename is the path standard input's text stands for (only
	// with "-"): it names positions in messages and decides a test file
	// (*.test.jh) from a module. The file is not read.
	StdinFilename  string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// stdinName stands for standard input in messages; without
// --stdin-filename its text is parsed as a module in the working
// directory (named _stdin.jh, a name that makes a valid module symbol),
// or as a test file when it parses as one, not as a module, and declares
// no workflow, rule, function, channel or local.
const stdinName = "<stdin>"

// Run is `jaiph fmt [--check] [-w] [paths… | -]`. It returns the exit
// status (0, or 1 when a file has diagnostics, cannot be read or written,
// or would change under --check) and a usage error.
func Run(args []string, o Options) (int, error) {
	if len(args) == 0 {
		return 0, errors.New("no paths given (use - for standard input)")
	}
	cwd, _ := os.Getwd()
	if len(args) == 1 && args[0] == "-" {
		if o.Write {
			return 0, errors.New("-w cannot rewrite standard input")
		}
		src, err := io.ReadAll(o.Stdin)
		if err != nil {
			return 0, err
		}
		path, name := filepath.Join(cwd, "_stdin.jh"), stdinName
		if o.StdinFilename != "" {
			path, name = o.StdinFilename, o.StdinFilename
			if !filepath.IsAbs(path) {
				path = filepath.Join(cwd, path)
			}
		}
		return o.file(path, name, src), nil
	}
	if o.StdinFilename != "" {
		return 0, errors.New("--stdin-filename needs - (standard input) as the only path")
	}
	for _, a := range args {
		if a == "-" {
			return 0, errors.New("- must be the only path")
		}
	}
	files, err := engine.SourceFiles(args)
	if err != nil {
		return 0, err
	}
	if len(files) == 0 {
		fmt.Fprintln(o.Stderr, "no .jh or .jph files found")
	}
	code := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(o.Stderr, err)
			code = 1
			continue
		}
		code = max(code, o.file(f, diag.Shown(cwd, f), src))
	}
	return code, nil
}

// file formats one file whose contents are src and reports as the options
// ask; name is how messages show it.
func (o Options) file(path, name string, src []byte) int {
	out, err := Source(path, src)
	if err != nil && name == stdinName {
		// Unnamed standard input that is no module may be a test file: one
		// that declares nothing a module declares. A text that mixes
		// workflows (or rules, functions, channels, locals) with test
		// blocks is refused as a module, as `jaiph fmt FILE.jh` and
		// `jaiph check` refuse it; --stdin-filename x.test.jh formats it.
		tf, ds := engine.ParseSource(strings.TrimSuffix(path, ".jh")+".test.jh", src)
		if len(ds) == 0 && len(tf.Rules)+len(tf.Functions)+len(tf.Workflows)+len(tf.Channels)+len(tf.Locals) == 0 {
			if tout, terr := layout(tf, src); terr == nil {
				out, err = tout, nil
			}
		}
	}
	var de *Error
	switch {
	case errors.As(err, &de):
		for _, d := range de.Diags {
			d.File = name
		}
		diag.WriteText(o.Stderr, de.Diags)
		return 1
	case err != nil:
		fmt.Fprintf(o.Stderr, "%s: %v\n", name, err)
		return 1
	}
	changed := !bytes.Equal(out, src)
	code := 0
	if o.Check && changed {
		fmt.Fprintln(o.Stdout, name)
		code = 1
	}
	if o.Write && changed {
		// Through a symbolic link to its target, which keeps its mode.
		target, err := filepath.EvalSymlinks(path)
		var st os.FileInfo
		if err == nil {
			st, err = os.Stat(target)
		}
		if err == nil {
			err = atomicfile.Write(target, out, st.Mode().Perm())
		}
		if err != nil {
			fmt.Fprintf(o.Stderr, "%s: %v\n", name, err)
			return 1
		}
	}
	if !o.Check && !o.Write {
		o.Stdout.Write(out)
	}
	return code
}
