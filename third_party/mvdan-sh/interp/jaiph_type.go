package interp

import (
	"bytes"
	"context"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// typeBuiltin is bash's type (type.def, describe_command), jaiph-go patch:
// -a lists every meaning of a name (alias, keyword, function, builtin, each
// executable file in PATH), -f skips functions, -t prints the kind, -p the
// path of a file only (finding, silently, the other kinds), -P looks in
// PATH only. A file is looked for as bash's find_user_command (commandVPath:
// the path as PATH spells it, a non-executable file when no executable one
// is found); with -a every executable file is listed.
func (r *Runner) typeBuiltin(ctx context.Context, args []string) (exit exitStatus) {
	all, noFuncs, forcePath := false, false, false
	mode := "" // "", "-t" or "-p"
	fp := flagParser{remaining: args}
	for fp.more() {
		switch flag := fp.flag(); flag {
		case "-a":
			all = true
		case "-f":
			noFuncs = true
		case "-t":
			mode = "-t"
		case "-p":
			mode = "-p"
		case "-P":
			mode, forcePath = "-p", true
		case "--help":
			r.errf("type: NOT IMPLEMENTED\n")
			exit.code = 3
			return exit
		default:
			r.errf("type: %s: invalid option\ntype: usage: type [-afptP] name [name ...]\n", flag)
			exit.code = 2
			return exit
		}
	}
	anyNotFound := false
	for _, arg := range fp.args() {
		found := false
		// report prints one meaning; it returns whether to stop (not -a).
		report := func(kind, long string) bool {
			found = true
			switch mode {
			case "-t":
				r.outf("%s\n", kind)
			case "":
				r.out(long)
			}
			return !all
		}
		if !forcePath {
			if als, ok := r.alias[arg]; ok && r.opts[optExpandAliases] {
				var buf bytes.Buffer
				if len(als.args) > 0 {
					printer := syntax.NewPrinter()
					printer.Print(&buf, &syntax.CallExpr{Args: als.args})
				}
				if als.blank {
					buf.WriteByte(' ')
				}
				if report("alias", arg+" is aliased to `"+buf.String()+"'\n") {
					continue
				}
			}
			if syntax.IsKeyword(arg) && report("keyword", arg+" is a shell keyword\n") {
				continue
			}
		}
		if !forcePath && !noFuncs {
			if body, ok := r.Funcs[arg]; ok {
				// bash prints the definition too.
				if report("function", arg+" is a function\n"+r.funcDefinition(arg, body)) {
					continue
				}
			} else if def, ok := r.handlerFunc(ctx, arg); ok {
				if report("function", arg+" is a function\n"+def) {
					continue
				}
			}
		}
		if !forcePath && IsBuiltin(arg) && report("builtin", arg+" is a shell builtin\n") {
			continue
		}
		if !strings.Contains(arg, "/") && (!all || forcePath) {
			// bash's describe_command: a remembered path first (see
			// jaiph_hash.go); -a without -P lists PATH instead.
			if path, ok := r.hashSearch(arg); ok {
				found = true
				switch mode {
				case "-t":
					r.out("file\n")
				case "-p":
					r.outf("%s\n", path)
				default:
					r.outf("%s is hashed (%s)\n", arg, path)
				}
				continue
			}
		}
		file := func(path string) bool {
			found = true
			switch mode {
			case "-t":
				r.out("file\n")
			case "-p":
				r.outf("%s\n", path)
			default:
				r.outf("%s is %s\n", arg, path)
			}
			return !all
		}
		if strings.Contains(arg, "/") || !all {
			if path, ok := r.commandVPath(arg, false); ok {
				file(path)
			}
		} else {
			for _, path := range r.allCommandPaths(arg) {
				file(path)
			}
		}
		if !found {
			anyNotFound = true
			if mode == "" {
				r.errf("type: %s: not found\n", arg)
			}
		}
	}
	if anyNotFound {
		exit.code = 1
	}
	return exit
}

// allCommandPaths is bash's user_command_matches with FS_EXEC_ONLY: every
// executable file (no directory) named name in PATH, in PATH's order and
// spelling.
func (r *Runner) allCommandPaths(name string) []string {
	var paths []string
	for _, elem := range strings.Split(r.writeEnv.Get("PATH").String(), ":") {
		if elem == "" {
			elem = "."
		}
		full := strings.TrimSuffix(elem, "/") + "/" + name
		if r.fileStatus(full).execFile() {
			paths = append(paths, full)
		}
	}
	return paths
}
