package interp

import (
	"context"
	"strconv"
	"strings"
)

// jaiph-go patch: cd, dirs, pushd and popd as bash's cd.def and pushd.def.
// r.dirStack is bash's pushd_directory_list (bottom first) followed by the
// stack's top, which is always the current directory: cd changes it.

// cdBuiltin is cd; pushd and popd change directories through it, name
// naming the builtin in its messages.
func (r *Runner) cdBuiltin(ctx context.Context, name string, args []string) (exit exitStatus) {
	failf := func(code uint8, format string, args ...any) exitStatus {
		r.errf(format, args...)
		exit.code = code
		return exit
	}
	// jaiph-go patch: as bash's cd_builtin: "--" ends the options
	// and an unknown one is an invalid option (-L, -P are refused
	// by jaiph's check); no word is $HOME ("HOME not set"); "-" is
	// $OLDPWD ("OLDPWD not set"), printed; a relative name not
	// starting with ./ or ../ is looked for in CDPATH first (an
	// empty entry is the current directory), the new directory
	// printed when found through a non-empty entry; an empty name
	// is the current directory.
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	} else if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "LPe@") != "" {
		return failf(2, "%s: %s: invalid option\ncd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n", name, args[0][:2])
	}
	var path string
	printPath := false
	switch len(args) {
	case 0:
		home := r.lookupVar("HOME")
		if !home.IsSet() {
			return failf(1, "%s: HOME not set\n", name)
		}
		path = home.String()
	case 1:
		path = args[0]
		if path == "-" {
			old := r.lookupVar("OLDPWD")
			if !old.IsSet() {
				return failf(1, "%s: OLDPWD not set\n", name)
			}
			path = old.String()
			printPath = true
		} else if cdpath := r.lookupVar("CDPATH"); cdpath.IsSet() && !cdAbsolute(path) {
			for _, elem := range strings.Split(cdpath.String(), ":") {
				try := path
				if elem != "" {
					try = strings.TrimSuffix(elem, "/") + "/" + path
				}
				if !r.isDirPath(ctx, try) {
					continue
				}
				exit = r.changeDir(ctx, name, try)
				if exit.code == 0 && elem != "" {
					r.outf("%s\n", r.Dir)
				}
				return exit
			}
		}
	default:
		return failf(1, "%s: too many arguments\n", name) // jaiph-go patch: bash's text
	}
	if path == "" {
		path = "."
	}
	if printPath {
		defer func() {
			if exit.code == 0 {
				r.outf("%s\n", path)
			}
		}()
	}
	exit = r.changeDir(ctx, name, path)
	return exit
}

// dirList returns bash's pushd_directory_list: the stack under its top.
func (r *Runner) dirList() []string {
	if len(r.dirStack) == 0 {
		return nil
	}
	return r.dirStack[: len(r.dirStack)-1 : len(r.dirStack)-1]
}

// setDirList stores list under the current directory.
func (r *Runner) setDirList(list []string) {
	r.dirStack = append(append([]string(nil), list...), r.Dir)
}

// politeDir is bash's polite_directory_format: HOME's prefix as ~.
func (r *Runner) politeDir(dir string) string {
	home := r.envGet("HOME")
	if len(home) > 1 && strings.HasPrefix(dir, home) && (len(dir) == len(home) || dir[len(home)] == '/') {
		return "~" + dir[len(home):]
	}
	return dir
}

// legalNumber is bash's legal_number: strtoimax's leading white space
// (newlines too), a sign, 64 bits, then only blanks (a trailing newline
// makes no number: `[ $'8\n' -eq 8 ]` is an error).
func legalNumber(s string) (int64, bool) {
	s = strings.TrimRight(strings.TrimLeft(s, " \t\n\v\f\r"), " \t")
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

func (r *Runner) dirsBuiltin(ctx context.Context, name string, args []string) (exit exitStatus) {
	r.setDirList(r.dirList()) // the top is the current directory
	usage := map[string]string{
		"dirs":  "dirs [-clpv] [+N] [-N]",
		"pushd": "pushd [-n] [+N | -N | dir]",
		"popd":  "popd [-n] [+N | -N]",
	}[name]
	failf := func(code uint8, format string, args ...any) exitStatus {
		r.errf(format, args...)
		if code == 2 {
			r.errf("%s: usage: %s\n", name, usage)
		}
		exit.code = code
		return exit
	}
	list := r.dirList()
	offset := len(list)
	switch name {
	case "dirs":
		long, perLine, verbose, clear := false, false, false, false
		index, haveIndex, indexWord := int64(0), false, ""
		// as bash's dirs_builtin: each option a word of its own, a
		// number after + or -, and "--" ending the words read
		for len(args) > 0 {
			w := args[0]
			args = args[1:]
			switch w {
			case "-l":
				long = true
				continue
			case "-p":
				perLine = true
				continue
			case "-v":
				verbose = true
				continue
			case "-c":
				clear = true
				continue
			case "--":
				args = nil
				continue
			}
			if w == "" || (w[0] != '-' && w[0] != '+') {
				return failf(2, "dirs: %s: invalid option\n", w)
			}
			n, ok := legalNumber(w[1:])
			if !ok {
				return failf(2, "dirs: %s: invalid number\n", w)
			}
			index, haveIndex, indexWord = n, true, w[1:]
			if w[0] == '-' {
				index = int64(offset) - n
			}
		}
		if clear {
			r.setDirList(nil)
			return exit
		}
		entry := func(i int) string { // 0 is the top
			d := r.dirStack[len(r.dirStack)-1-i]
			if !long {
				d = r.politeDir(d)
			}
			return d
		}
		if haveIndex {
			if index < 0 || index > int64(offset) {
				if offset == 0 {
					return failf(1, "dirs: directory stack empty\n")
				}
				return failf(1, "dirs: %s: directory stack index out of range\n", indexWord)
			}
			if verbose {
				r.outf("%2d  %s\n", index, entry(int(index)))
			} else {
				r.outf("%s\n", entry(int(index)))
			}
			return exit
		}
		for i := 0; i <= offset; i++ {
			switch {
			case verbose:
				r.outf("%2d  %s\n", i, entry(i))
			case perLine:
				r.outf("%s\n", entry(i))
			default:
				if i > 0 {
					r.out(" ")
				}
				r.out(entry(i))
			}
		}
		if !verbose && !perLine {
			r.out("\n")
		}
		return exit
	case "pushd":
		noCD, rotate := false, int64(-1)
		for len(args) > 0 {
			w := args[0]
			if w == "-n" {
				noCD = true
			} else if w == "--" {
				args = args[1:]
				break
			} else if w == "-" {
				break
			} else if w[0] == '+' || w[0] == '-' {
				n, ok := legalNumber(w[1:])
				if !ok {
					return failf(2, "pushd: %s: invalid number\n", w)
				}
				if w[0] == '-' {
					n = int64(offset) - n
				}
				if n > int64(offset) || n < 0 {
					if offset == 0 {
						return failf(1, "pushd: directory stack empty\n")
					}
					return failf(1, "pushd: %s: directory stack index out of range\n", w)
				}
				rotate = n
			} else {
				break
			}
			args = args[1:]
		}
		if rotate >= 0 {
			// bash's -n rotation changes the stack alone and prints
			// nothing (its listing comes from the cd it skips)
			if rotate == 0 {
				if !noCD {
					r.dirsBuiltin(ctx, "dirs", nil) // its write error is pushd's or popd's
				}
				return exit
			}
			// dirs order: top first; the chosen entry becomes the top.
			full := make([]string, 0, offset+1)
			for i := offset; i >= 0; i-- {
				full = append(full, r.dirStack[i])
			}
			rot := append(append([]string(nil), full[rotate:]...), full[:rotate]...)
			if !noCD {
				if exit = r.cdBuiltin(ctx, "pushd", []string{rot[0]}); exit.code != 0 {
					return exit
				}
			}
			newList := make([]string, 0, offset)
			for i := len(rot) - 1; i >= 1; i-- {
				newList = append(newList, rot[i])
			}
			r.setDirList(newList)
			if !noCD {
				r.dirsBuiltin(ctx, "dirs", nil) // its write error is pushd's or popd's
			}
			return exit
		}
		if len(args) == 0 {
			if offset == 0 {
				return failf(1, "pushd: no other directory\n")
			}
			cur := r.Dir
			temp := list[offset-1]
			newList := append(append([]string(nil), list[:offset-1]...), cur)
			if !noCD {
				if exit = r.cdBuiltin(ctx, "pushd", []string{temp}); exit.code != 0 {
					return exit
				}
			}
			r.setDirList(newList)
			r.dirsBuiltin(ctx, "dirs", nil) // its write error is pushd's or popd's
			return exit
		}
		if len(args) > 1 {
			return failf(1, "pushd: too many arguments\n")
		}
		cur := r.Dir
		if !noCD {
			if exit = r.cdBuiltin(ctx, "pushd", args); exit.code != 0 {
				return exit
			}
			r.setDirList(append(append([]string(nil), list...), cur))
		} else {
			r.setDirList(append(append([]string(nil), list...), args[0]))
		}
		r.dirsBuiltin(ctx, "dirs", nil) // its write error is pushd's or popd's
		return exit
	default: // popd
		noCD := false
		which, whichWord, plus := int64(0), "", true
		for len(args) > 0 {
			w := args[0]
			if w == "-n" {
				noCD = true
			} else if w == "--" {
				args = args[1:]
				break
			} else if w != "" && (w[0] == '+' || w[0] == '-') {
				n, ok := legalNumber(w[1:])
				if !ok {
					return failf(2, "popd: %s: invalid number\n", w)
				}
				which, whichWord, plus = n, w, w[0] == '+'
			} else if w != "" {
				return failf(2, "popd: %s: invalid argument\n", w)
			} else {
				break
			}
			args = args[1:]
		}
		if which > int64(offset) || which < -int64(offset) || offset == 0 && which == 0 {
			if offset == 0 {
				return failf(1, "popd: directory stack empty\n")
			}
			return failf(1, "popd: %s: directory stack index out of range\n", whichWord)
		}
		if plus && which == 0 || !plus && which == int64(offset) {
			if !noCD {
				if exit = r.cdBuiltin(ctx, "popd", []string{list[offset-1]}); exit.code != 0 {
					return exit
				}
			}
			r.setDirList(list[:offset-1])
		} else {
			i := int64(offset) - which
			if !plus {
				i = which
			}
			if i < 0 || i >= int64(offset) {
				return failf(1, "popd: %s: directory stack index out of range\n", whichWord)
			}
			newList := append(append([]string(nil), list[:i]...), list[i+1:]...)
			r.setDirList(newList)
		}
		r.dirsBuiltin(ctx, "dirs", nil) // its write error is pushd's or popd's
		return exit
	}
}
