// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/internal"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// TODO: given the categories below, perhaps this should be more like:
//
//   func IsBuiltin(lang syntax.LangVariant, name string) bool
//
// or perhaps some API that also lets the user iterate through the builtins?
//
// Also, should we move this to the syntax package too?
// It's not a syntactical property strictly speaking,
// but it's also odd to require importing the interp package for it.

// IsBuiltin returns true if the given word is a POSIX Shell
// or Bash builtin.
func IsBuiltin(name string) bool {
	switch name {
	case
		// POSIX Shell regular built-ins, that is, the utilities which the shell
		// must provide as built-ins, from section 1.d obtained in September 2025 from:
		// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/V3_chap02.html#tag_18_09_01_01
		"alias",
		"bg",
		"cd",
		"command",
		"false",
		"fc",
		"fg",
		"getopts",
		"hash",
		"jobs",
		"kill",
		"newgrp",
		"pwd",
		"read",
		"true",
		"umask",
		"unalias",
		"wait",

		// POSIX Shell special built-ins, obtained in September 2025 from:
		// https://pubs.opengroup.org/onlinepubs/9699919799/utilities/V3_chap02.html#tag_18_14
		"break",
		":",
		"continue",
		".",
		"eval",
		"exec",
		"exit",
		"export",   // NOTE: our parser treats this as a keyword
		"readonly", // NOTE: our parser treats this as a keyword
		"return",
		"set",
		"shift",
		"times",
		"trap",
		"unset",

		// Bash built-ins which are not present in POSIX, obtained in September 2025 from:
		// https://man.archlinux.org/man/bash.1.en#SHELL_BUILTIN_COMMANDS
		"source",
		"bind",
		"builtin",
		"caller",
		"compgen",
		"complete",
		"compopt",
		"declare", // NOTE: our parser treats this as a keyword
		"typeset", // NOTE: our parser treats this as a keyword
		"dirs",
		"disown",
		"enable",
		"history",
		"help",
		"let", // NOTE: our parser treats this as a keyword
		"local",
		"logout",
		"mapfile",
		"readarray",
		"popd",
		"pushd",
		"shopt",
		"suspend",
		"type",
		"ulimit",

		// POSIX utilities which the shell need not provide as built-ins,
		// so they are separate executables found via PATH, but which we
		// implement as built-ins just like Bash does. Obtained in September
		// 2025 from https://pubs.opengroup.org/onlinepubs/9699919799/utilities/contents.html
		"echo",
		"printf",
		"test",
		"[": // NOTE: an alias for "test", not documented separately
		return true
	}
	return false
}

// TODO: atoi is duplicated in the expand package.

// atoi is like [strconv.ParseInt](s, 10, 64), but it ignores errors and trims whitespace.
func atoi(s string) int64 {
	s = strings.TrimSpace(s)
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

type errBuiltinExitStatus exitStatus

func (e errBuiltinExitStatus) Error() string {
	return fmt.Sprintf("builtin exit status %d", e.code)
}

// Builtin allows [ExecHandlerFunc] implementations to execute any builtin,
// which can be useful for an exec handler to wrap or combine builtin calls.
//
// Note that a non-nil error may be returned in cases where the builtin
// alters the control flow of the runner, even if the builtin did not fail.
// For example, this is the case with `exit 0` or `return`.
func (hc HandlerContext) Builtin(ctx context.Context, args []string) error {
	if hc.kind != handlerKindExec {
		return fmt.Errorf("HandlerContext.Builtin can only be called via an ExecHandlerFunc")
	}
	exit := hc.runner.builtin(ctx, hc.Pos, args[0], args[1:])
	if exit != (exitStatus{}) {
		return errBuiltinExitStatus(exit)
	}
	return nil
}

func (r *Runner) builtin(ctx context.Context, pos syntax.Pos, name string, args []string) (exit exitStatus) {
	defer r.pipeKill(&exit) // jaiph-go patch: see jaiph_sigpipe.go
	// jaiph-go patch: see jaiph_chkwrite.go
	outErr := r.outErr
	r.outErr = nil
	defer func() {
		if check, fails := checksWrite(name, args); check {
			r.checkWrite(name, fails, &exit)
		}
		r.outErr = outErr
		r.runHeldExitTrap(&exit)
	}()
	failf := func(code uint8, format string, args ...any) exitStatus {
		r.errf(format, args...)
		exit.code = code
		return exit
	}
	if h := r.builtinHandlers[name]; h != nil { // jaiph-go patch: see [BuiltinHandler]
		exit.fromHandlerError(h(r.handlerCtx(ctx, handlerKindExec, pos), append([]string{name}, args...)))
		return exit
	}
	switch name {
	case ":", "true":
	case "false":
		exit.code = 1
	case "help":
		return r.runHelp(args)
	case "times":
		// js/wasm has no per-process CPU accounting at all, so report zeros
		// in bash's format — shell user/sys, then children user/sys — rather
		// than fail.
		// TODO: report real times on platforms that can, via os/exec's
		// ProcessState or syscall.Getrusage. Not urgent; nothing depends on
		// the values being non-zero.
		r.out("0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n")
	case "exit":
		// jaiph-go patch: as bash's get_exitstat: a leading "--" is
		// dropped; a word that is no number (legal_number: blanks
		// around, a sign, 64 bits) is reported and the shell exits
		// with 2; more than one word is bash's no_args, which reports
		// "too many arguments" and discards the top-level command
		// (status 1, the next one runs; a subshell ends).
		args = dropDoubleDash(args)
		switch {
		case len(args) == 0:
			exit = r.lastExit
			if r.inExitTrap {
				// jaiph-go patch: bash's exit_or_logout: in the EXIT
				// trap, $? from before the trap ran
				exit.code = r.trapSaved
			}
		default:
			n, ok := legalNumber(args[0]) // jaiph-go patch: bash's legal_number
			if !ok {
				r.errf("exit: %s: numeric argument required\n", args[0])
				exit.code = 2
				break
			}
			if len(args) > 1 {
				return r.tooManyArgs("exit")
			}
			exit.code = uint8(n)
		}
		exit.exiting = true
		if _, ok := r.traps[trapExit]; ok && r.inFunc {
			// jaiph-go patch: bash's exit leaves for the top level without
			// unwinding the functions' scopes, so an EXIT trap run by
			// `exit` in a function (in an ERR trap there too) sees its
			// locals; run it here, before the calls return (errexit and
			// fatal errors unwind first). runExitTrap removes the trap
			// before running it: no recursion.
			r.exit = exit
			r.runExitTrap(ctx)
			exit = r.exit
		}
	case "set":
		if err := Params(args...)(r); err != nil {
			if strings.HasSuffix(err.Error(), ": invalid option") {
				// jaiph-go patch: bash's usage line after it
				return failf(2, "set: %v\nset: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]\n", err)
			}
			return failf(2, "set: %v\n", err)
		}
		r.updateExpandOpts()
	case "shift":
		// jaiph-go patch: bash's statuses and texts; shifting past $# fails
		// with status 1 and leaves the parameters unchanged; a leading
		// "--" is dropped (bash's no_options), as for return and getopts.
		// As bash's get_numeric_arg: the number (legal_number) is
		// checked before any word after it, and a count out of range
		// names the first word as given ("--" if it was one).
		first := ""
		if len(args) > 0 {
			first = args[0]
		}
		args = dropDoubleDash(args)
		n := 1
		if len(args) > 0 {
			n2, ok := legalNumber(args[0])
			if !ok {
				return failf(1, "shift: %s: numeric argument required\n", args[0])
			}
			if len(args) > 1 {
				return r.tooManyArgs("shift")
			}
			if n2 < 0 {
				return failf(1, "shift: %s: shift count out of range\n", first)
			}
			n = int(min(n2, int64(len(r.Params))+1))
		}
		if n > len(r.Params) {
			exit.code = 1
			break
		}
		r.Params = r.Params[n:]
	case "unset":
		vars := true
		funcs := true
		noRef := false // jaiph-go patch: unset -n r unsets the nameref itself
		// jaiph-go patch: bash's internal_getopt "fnv": letters in
		// one word or several, "--" ending them, anything else an
		// invalid option; -f with -v is an error of its own
		onlyVars, onlyFuncs := false, false
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
			w := args[0]
			args = args[1:]
			if w == "--" {
				break
			}
			for i, c := range w[1:] {
				switch {
				case c == 'n':
					noRef = true
				case c == 'v':
					onlyVars = true
				case c == 'f':
					onlyFuncs = true
				default:
					bad := "-" + string(c)
					if c == '-' && i == 0 {
						bad = "--"
					}
					return failf(2, "unset: %s: invalid option\nunset: usage: unset [-f] [-v] [-n] [name ...]\n", bad)
				}
			}
		}
		switch {
		case onlyVars && onlyFuncs:
			return failf(1, "unset: cannot simultaneously unset a function and a variable\n")
		case onlyFuncs:
			vars, noRef = false, false
		case onlyVars || noRef:
			funcs = false
		}

		for _, arg := range args {
			viaRef := false
			if v := r.lookupVar(arg); noRef && vars && syntax.ValidName(arg) && v.Kind != expand.NameRef && !v.ReadOnly {
				continue // jaiph-go patch: unset -n leaves what is no nameref, as bash
			}
			if vars && !noRef && syntax.ValidName(arg) && r.lookupVar(arg).Kind == expand.NameRef {
				// jaiph-go patch: unset r of a nameref to an
				// element (declare -n r='a[1]') unsets the element.
				// jaiph-go patch: unset r of any other nameref unsets
				// the variable it names, as bash's unset without -n.
				if n, _ := r.lookupVar(arg).Resolve(r.writeEnv); n != "" {
					arg, viaRef = n, true
				}
			}
			// a local named as an element (see the declaration),
			// which the nameref reaches; unset 'a[1]' is the element
			literal := viaRef && !syntax.ValidName(arg) && r.lookupVar(arg).Declared()
			if name, sub, ok := cutElemSubscript(arg); vars && ok && !literal {
				r.unsetFailed = false
				r.unsetElem(name, sub, viaRef)
				if r.exit.exiting {
					// jaiph-go patch: an error bash holds fatal in the
					// subscript (arithmetic, set -u) ends the shell, as
					// in bash's unbind_array_element.
					return r.exit
				}
				if r.unsetFailed {
					exit.code = 1
				}
			} else if vars && r.lookupVar(arg).ReadOnly {
				// jaiph-go patch: bash's text.
				r.errf("unset: %s: cannot unset: readonly variable\n", arg)
				exit.code = 1
			} else if vars && (r.lookupVar(arg).Declared() || arg == "LINENO") {
				// jaiph-go patch: LINENO, which the environment does
				// not hold, loses its special meaning (delVar).
				// jaiph-go patch: a variable declared without a value
				// (`local w`, `declare -i n`) is unset too, as bash's
				// makunbound finds its cell: a caller's such local
				// goes, uncovering what it shadowed.
				r.delVar(arg)
			} else if _, ok := r.Funcs[arg]; ok && funcs {
				delete(r.Funcs, arg)
			}
		}
	case "echo":
		newline, doExpand := true, false
	echoOpts:
		for len(args) > 0 {
			switch args[0] {
			case "-n":
				newline = false
			case "-e":
				doExpand = true
			case "-E": // default
			default:
				break echoOpts
			}
			args = args[1:]
		}
		for i, arg := range args {
			if i > 0 {
				r.out(" ")
			}
			if doExpand {
				arg, _, _ = expand.Format(r.ecfg, arg, nil)
			}
			r.out(arg)
		}
		if newline {
			r.out("\n")
		}
	case "printf":
		if len(args) == 0 {
			return failf(2, "usage: printf format [arguments]\n")
		}
		format, args := args[0], args[1:]
		for {
			s, n, err := expand.Format(r.ecfg, format, args)
			if err != nil {
				return failf(1, "%v\n", err)
			}
			r.out(s)
			args = args[n:]
			if n == 0 || len(args) == 0 {
				break
			}
		}
	case "break", "continue":
		// jaiph-go patch: bash's break_builtin/continue_builtin. Outside
		// a loop only the complaint (status 0, the arguments unread); the
		// count is clamped to the loops there are; a count below 1 is an
		// error that leaves every loop; a count that is not a number
		// ends the shell with 128, a second argument with 1.
		if r.loopLevel == 0 {
			return failf(0, "%s: only meaningful in a `for', `while', or `until' loop\n", name)
		}
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		n := 1
		if len(args) > 0 {
			v, ok := legalNumber(args[0]) // jaiph-go patch: bash's legal_number
			if !ok {
				r.errf("%s: %s: numeric argument required\n", name, args[0])
				exit.code = 128
				exit.exiting = true
				return exit
			}
			if len(args) > 1 {
				return r.tooManyArgs(name)
			}
			if v <= 0 {
				r.breakEnclosing = r.loopLevel
				return failf(1, "%s: %s: loop count out of range\n", name, args[0])
			}
			n = int(min(v, int64(r.loopLevel)))
		}
		if name == "continue" {
			r.contnEnclosing = n
		} else {
			r.breakEnclosing = n
		}
	case "pwd":
		evalSymlinks := false
		for len(args) > 0 {
			switch args[0] {
			case "-L":
				evalSymlinks = false
			case "-P":
				evalSymlinks = true
			case "--":
				args = args[:1]
			default:
				// jaiph-go patch: as bash, words that are no
				// options are ignored, an unknown option is
				// bash's invalid option.
				if len(args[0]) < 2 || args[0][0] != '-' {
					args = args[:1]
					break
				}
				return failf(2, "pwd: %s: invalid option\npwd: usage: pwd [-LP]\n", args[0][:2])
			}
			args = args[1:]
		}
		// jaiph-go patch: bash prints its own record of the working
		// directory, whatever PWD was set to or unset.
		pwd := r.Dir
		if evalSymlinks {
			var err error
			pwd, err = filepath.EvalSymlinks(pwd)
			if err != nil {
				exit.fatal(err) // perhaps overly dramatic?
				return exit
			}
		}
		r.outf("%s\n", pwd)
	case "cd":
		return r.cdBuiltin(ctx, "cd", args)
	case "wait":
		// jaiph-go patch: wait -n, -p, job specs, numeric ids (jaiph_jobs.go)
		return r.waitBuiltin(ctx, args)
	case "builtin":
		// jaiph-go patch: a leading -- is dropped, -X is an invalid
		// option (bash's no_options) and a name that is no builtin is
		// reported, as bash's builtin builtin.
		rest, bad := noOptions(name, args)
		if bad != "" {
			return failf(2, "%s", bad)
		}
		args = rest
		if len(args) < 1 {
			break
		}
		if !IsBuiltin(args[0]) {
			return failf(1, "builtin: %s: not a shell builtin\n", args[0])
		}
		exit = r.builtin(ctx, pos, args[0], args[1:])
	case "let":
		// jaiph-go patch: let run as a command (builtin let, command
		// let, v=1 let …; the parser makes the keyword form a
		// LetClause): its arguments, already expanded, are arithmetic
		// texts, evaluated in turn; the last one's value is the status.
		if len(args) == 0 {
			return failf(1, "let: expression expected\n")
		}
		val := 0
		for _, a := range args {
			r.ecfg.ArithCommand = "let"
			n, err := expand.ArithmString(r.ecfg, a)
			r.ecfg.ArithCommand = ""
			if ae, ok := errors.AsType[expand.ArithmError](err); ok && !ae.Subscript {
				return failf(1, "let: %s\n", ae.Error())
			}
			if err != nil {
				if !r.readonlyInCommand(err) {
					r.expandErr(err)
				}
				return r.exit
			}
			val = n
		}
		exit.oneIf(val == 0)
	case "type":
		return r.typeBuiltin(ctx, args) // jaiph-go patch: jaiph_type.go
	case "hash":
		return r.hashBuiltin(ctx, args) // jaiph-go patch: jaiph_hash.go
	case "eval":
		// jaiph-go patch: bash's no_options: `--` ends the options, a
		// lone `-` is a word, `-X` is an invalid option (status 2).
		rest, bad := noOptions(name, args)
		if bad != "" {
			return failf(2, "%s", bad)
		}
		args = rest
		src := strings.Join(args, " ")
		// jaiph-go patch: see ExtGlobParse; the string's lines are
		// numbered from the line the eval command ends on ($LINENO), as
		// bash's parse_and_execute does
		p := syntax.NewParser(syntax.ExtGlobParse(r.opts[optExtGlob]), syntax.StartLine(r.cmdEndLine))
		file, err := p.Parse(strings.NewReader(src), "")
		if err != nil {
			return failf(2, "eval: %v\n", err) // jaiph-go patch: bash's status 2
		}
		r.evalStmts(ctx, file.Stmts) // jaiph-go patch: see evalStmts
		exit = r.exit
	case "source", ".":
		// jaiph-go patch: bash's no_options and usage texts, naming the
		// builtin as it was called.
		rest, bad := noOptions(name, args)
		if bad != "" {
			return failf(2, "%s", bad)
		}
		args = rest
		if len(args) < 1 {
			return failf(2, "%s: filename argument required\n%s: usage: %s\n", name, name, helpTable[name].synopsis)
		}
		path, err := scriptFromPathDir(r.Dir, r.writeEnv, args[0])
		if err != nil {
			// If the script was not found in PATH or there was any error, pass
			// the source path to the open handler so it has a chance to look
			// at files it manages (eg: virtual filesystem), and also allow
			// it to look for the sourced script in the current directory.
			path = args[0]
		}
		var f io.Reader
		if e, ok := r.devFdReader(args[0]); ok {
			// jaiph-go patch: /dev/stdin and /dev/fd/N are the shell's
			// descriptors (`source /dev/stdin <<<'…'`), not the process's.
			if e == nil {
				return failf(1, "%s: No such file or directory\n", args[0])
			}
			f = e
		} else {
			file, err := r.open(ctx, path, os.O_RDONLY, 0, false)
			if pe, ok := err.(*os.PathError); ok {
				// jaiph-go patch: bash's text, naming the file as given.
				return failf(1, "%s: %s\n", args[0], strerror(pe.Err))
			} else if err != nil {
				return failf(1, "source: %v\n", err)
			}
			defer file.Close()
			f = file
		}
		p := syntax.NewParser(syntax.ExtGlobParse(r.opts[optExtGlob])) // jaiph-go patch: see ExtGlobParse
		file, err := p.Parse(f, path)
		if errors.Is(err, syscall.EISDIR) {
			// jaiph-go patch: bash's text, naming the builtin and the file as given.
			return failf(1, "%s: %s: is a directory\n", name, args[0])
		}
		if err != nil {
			// jaiph-go patch: bash's status for a syntax error in
			// the file is 2 (the message is still the parser's).
			return failf(2, "source: %v\n", err)
		}

		// Keep the current versions of some fields we might modify.
		oldParams := r.Params
		oldSourceSetParams := r.sourceSetParams
		oldInSource := r.inSource

		// If we run "source file args...", set said args as parameters.
		// Otherwise, keep the current parameters.
		sourceArgs := len(args[1:]) > 0
		if sourceArgs {
			r.Params = args[1:]
			r.sourceSetParams = false
		}
		// We want to track if the sourced file explicitly sets the
		// parameters.
		r.sourceSetParams = false
		r.inSource = true // know that we're inside a sourced script.
		// jaiph-go patch: bash puts "source" on FUNCNAME while the file runs.
		r.funcStack = append(r.funcStack, "source")
		r.sourceFrames++
		sourceLine := r.cmdLine
		r.evalStmts(ctx, file.Stmts) // jaiph-go patch: see evalStmts
		r.funcStack = r.funcStack[:len(r.funcStack)-1]
		r.sourceFrames--
		if cb, ok := r.traps[trapReturn]; ok && !r.exit.exiting {
			// jaiph-go patch: as bash, numbered from the line of the
			// source command (bash's line_number, not reset)
			r.trapLine = sourceLine
			r.returnTrap(ctx, cb) // jaiph-go patch: as bash
			r.trapLine = 0
		}

		// If we modified the parameters and the sourced file didn't
		// explicitly set them, we restore the old ones.
		if sourceArgs && !r.sourceSetParams {
			r.Params = oldParams
		}
		r.sourceSetParams = oldSourceSetParams
		r.inSource = oldInSource

		exit = r.exit
		exit.returning = false
	case "[", "test":
		// jaiph-go patch: bash's algorithm and texts (test_bash.go).
		if name == "[" {
			if len(args) == 0 || args[len(args)-1] != "]" {
				return failf(2, "[: missing `]'\n")
			}
			args = args[:len(args)-1]
		}
		exit.code = r.runClassicTest(ctx, name, args)
	case "exec":
		// TODO: Consider unix.Exec, i.e. actually replacing
		// the process. It's in theory what a shell should do,
		// but in practice it would kill the entire Go process
		// and it's not available on Windows.
		//
		// jaiph-go patch: as bash's internal_getopt for exec, a leading
		// "--" ends the options and a word starting with "-" that is no
		// option is bash's invalid option, with the usage line, status
		// 2 (-a, -c and -l are refused by jaiph's check).
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		} else if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "acl") != "" {
			bad := strings.Trim(args[0][1:], "acl")[:1]
			if i := strings.IndexFunc(args[0][1:], func(c rune) bool { return !strings.ContainsRune("acl", c) }); i >= 0 {
				bad = args[0][1+i : 2+i]
			}
			return failf(2, "exec: -%s: invalid option\nexec: usage: exec [-cl] [-a name] [command [argument ...]] [redirection ...]\n", bad)
		}
		if len(args) == 0 {
			r.keepRedirs = true
			break
		}
		r.exit.exiting = true
		if !strings.ContainsAny(args[0], "/:") && !r.isHandlerFunc(ctx, args[0]) {
			// jaiph-go patch: exec runs only files: a name not
			// found in PATH is bash's "exec: NAME: not found",
			// and the shell exits with 127 (names with a colon are
			// left to the exec handlers: jaiph::… commands).
			if _, ok := r.searchForCommand(args[0], r.stdPathExec); !ok {
				exit.exiting = true
				if fi, err := os.Stat(absPath(r.Dir, args[0])); err == nil && fi.IsDir() {
					// bash's file_isdir of the name as given
					r.errf("exec: %s: cannot execute: Is a directory\n", args[0])
					exit.code = 126
					return exit
				}
				r.errf("exec: %s: not found\n", args[0])
				exit.code = 127
				return exit
			}
		} else if strings.Contains(args[0], "/") {
			// jaiph-go patch: bash's exec names a file it cannot run
			// by its full_pathname (the working directory before a
			// relative name, a leading ./ dropped), with its own
			// "cannot execute" after shell_execve's error
			if code := r.execCheck(args[0]); code != 0 {
				exit.code, exit.exiting = code, true
				return exit
			}
		}
		r.byExec = true // jaiph-go patch: see HandlerContext.ByExec
		r.exec(ctx, pos, args)
		r.byExec = false
		exit = r.exit
	case "command":
		show := false
		stdPath := false // jaiph-go patch: command -p
		fp := flagParser{remaining: args}
		for fp.more() {
			switch flag := fp.flag(); flag {
			case "-p":
				stdPath = true
			case "-v":
				show = true
			case "-V":
				// jaiph-go patch: describe each name as type does;
				// the status is 0 when any name was found, as bash.
				found := false
				for _, arg := range fp.args() {
					if r.Funcs[arg] != nil || IsBuiltin(arg) || r.isHandlerFunc(ctx, arg) || syntax.IsKeyword(arg) {
						found = r.typeBuiltin(ctx, []string{arg}).code == 0 || found // bash checks no write here
					} else if path, ok := r.hashSearch(arg); ok && !strings.Contains(arg, "/") {
						r.outf("%s is hashed (%s)\n", arg, path) // see jaiph_hash.go
						found = true
					} else if path, err := LookPathDir(r.Dir, stdPathEnviron{r.writeEnv}, arg); stdPath && err == nil {
						r.outf("%s is %s\n", arg, path)
						found = true
					} else if path, ok := r.commandVPath(arg, false); !stdPath && ok {
						// jaiph-go patch: bash's CDESC_ABSPATH: a
						// file found through PATH is named by its
						// absolute path (a name with a slash as given).
						if !strings.Contains(arg, "/") {
							path = absPath(r.Dir, path)
						}
						r.outf("%s is %s\n", arg, path)
						found = true
					} else {
						r.errf("command: %s: not found\n", arg)
					}
				}
				if !found && len(fp.args()) > 0 { // jaiph-go patch: no name is no failure
					exit.code = 1
				}
				return exit
			default:
				return failf(2, "command: %s: invalid option\ncommand: usage: command [-pVv] command [arg ...]\n", flag) // jaiph-go patch: bash's text
			}
		}
		args := fp.args()
		if len(args) == 0 {
			break
		}
		if !show {
			if r.noErrExit && !r.errexitOff {
				// jaiph-go patch: bash's execute_builtin runs
				// `command` where errexit is ignored as it runs eval
				// (evalStmts): report_error does not end the shell.
				r.errexitOff = true
				defer func() { r.errexitOff = false }()
			}
			if IsBuiltin(args[0]) {
				return r.builtin(ctx, pos, args[0], args[1:])
			}
			old := r.stdPathExec
			r.stdPathExec = stdPath
			r.exec(ctx, pos, args)
			r.stdPathExec = old
			exit = r.exit
			return exit
		}
		// jaiph-go patch: as bash's describe_command, a keyword is
		// found, a file is looked for as bash's find_user_command
		// (commandVPath), and the status is 0 when any name was found
		// (it was the last name's).
		exit.code = 1
		for _, arg := range args {
			if syntax.IsKeyword(arg) || r.Funcs[arg] != nil || IsBuiltin(arg) || r.isHandlerFunc(ctx, arg) {
				r.outf("%s\n", arg)
				exit.code = 0
			} else if path, ok := r.hashSearch(arg); ok && !strings.Contains(arg, "/") {
				r.outf("%s\n", path) // a remembered path first, see jaiph_hash.go
				exit.code = 0
			} else if path, ok := r.commandVPath(arg, stdPath); ok {
				r.outf("%s\n", path)
				exit.code = 0
			}
		}
	case "dirs", "pushd", "popd":
		// jaiph-go patch: bash's directory stack (jaiph_dirs.go).
		return r.dirsBuiltin(ctx, name, args)
	case "return":
		r.statusBeforeReturn = r.lastExit.code // jaiph-go patch: $? in a RETURN trap
		if !r.inFunc && !r.inSource {
			return failf(2, "return: can only `return' from a function or sourced script\n") // jaiph-go patch: bash's text and status
		}
		args = dropDoubleDash(args)
		switch len(args) {
		case 0:
			// jaiph-go patch: as in bash, the status of the last
			// command; inside a trap, $? before the trap ran
			// (get_exitstat's trap_saved_exit_value)
			exit.code = r.lastExit.code
			if r.inTrap {
				exit.code = r.trapSaved
			}
		default:
			// jaiph-go patch: bash's get_exitstat: a word that is no
			// number (legal_number) is reported and the function
			// returns 2; only then are more words too many
			n, ok := legalNumber(args[0])
			if !ok {
				r.errf("return: %s: numeric argument required\n", args[0])
				exit.code = 2
				break
			}
			if len(args) > 1 {
				return r.tooManyArgs("return")
			}
			exit.code = uint8(n)
		}
		exit.returning = true
	case "read":
		// jaiph-go patch: -t, -n, -N, -d and -u as in bash.
		var prompt string
		raw := false
		silent := false
		readArray, arrayName := false, ""
		ropts := readOpts{delim: '\n', nchars: -1, skipNUL: true}
		pollOnly := false // read -t 0: only report whether input is ready
		var timeout time.Duration
		hasTimeout := false
		in := r.stdin
		inFd := 0
		fp := flagParser{remaining: args}
		for fp.more() {
			switch flag := fp.flag(); flag {
			case "-s":
				silent = true
			case "-r":
				raw = true
			case "-a":
				// jaiph-go patch: -a takes the array's name as its
				// argument, as bash's getopt (read -a arr -d '').
				if fp.current == "" && len(fp.remaining) == 0 {
					return failf(2, "read: -a: option requires an argument\nread: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n")
				}
				readArray, arrayName = true, fp.value()
			case "-p":
				prompt = fp.value()
				if prompt == "" {
					return failf(2, "read: -p: option requires an argument\n")
				}
			case "-d":
				d := fp.value()
				ropts.delim = 0
				if d != "" {
					ropts.delim = d[0]
				}
			case "-n", "-N":
				v := fp.value()
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 {
					return failf(1, "read: %s: invalid number\n", v)
				}
				ropts.nchars = n
				ropts.exact = flag == "-N"
			case "-t":
				v := fp.value()
				f, err := strconv.ParseFloat(v, 64)
				if err == nil && f < 0 && f > -1 && strings.HasPrefix(v, "-0") {
					// jaiph-go patch: bash's uconvert loses the
					// sign of a zero integer part (-0.5 is 0.5).
					f = -f
				}
				if err != nil || f < 0 {
					return failf(1, "read: %s: invalid timeout specification\n", v)
				}
				if f == 0 {
					pollOnly = true
				}
				timeout, hasTimeout = time.Duration(f*float64(time.Second)), true
			case "-u":
				v := fp.value()
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 {
					return failf(1, "read: %s: invalid file descriptor specification\n", v)
				}
				e := r.getFd(n)
				if e == nil || e.r == nil {
					return failf(1, "read: %s: invalid file descriptor: Bad file descriptor\n", v)
				}
				in, inFd = e.r, n
			default:
				// jaiph-go patch: bash's text and usage line.
				return failf(2, "read: %s: invalid option\nread: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n", flag)
			}
		}

		args := fp.args()
		for _, name := range args {
			if !internal.ValidNameOrElem(name) {
				return failf(1, "read: `%s': not a valid identifier\n", name)
			}
		}
		if readArray && !syntax.ValidName(arrayName) {
			return failf(1, "read: `%s': not a valid identifier\n", arrayName)
		}

		if pollOnly {
			if !inputReady(in) {
				exit.code = 1
			}
			return exit
		}
		if in == nil {
			// jaiph-go patch: a closed stdin is bash's read error
			// (-u checks its descriptor above).
			return failf(1, "read: read error: 0: Bad file descriptor\n")
		}
		if _, term := stdinTerminal(in); prompt != "" && term {
			// jaiph-go patch: as bash, the prompt goes to stderr and
			// only when reading from a terminal.
			r.errf("%s", prompt)
		}
		ropts.raw = raw || ropts.exact
		if hasTimeout {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}

		var line []byte
		var err error
		fd, terminal := -1, false
		if silent {
			fd, terminal = stdinTerminal(in)
		}
		if terminal {
			// Only a terminal echoes what we read, so it is the only case
			// where we need to read without echoing.
			line, err = term.ReadPassword(fd)
		} else {
			line, err = r.readInput(ctx, in, ropts)
		}
		// jaiph-go patch: as in bash, a variable that cannot be set
		// (readonly) fails read with status 1 and the names after it
		// are left alone.
		assign := func(name string, vr expand.Variable) bool {
			written := name
			name = r.refTarget(name) // jaiph-go patch: a nameref's variable
			if !syntax.ValidName(name) && vr.Kind == expand.String && !r.lookupVar(name).Declared() {
				// jaiph-go patch: an element (read 'a[k]'), assigned
				// as a[k]=value would be, as bash's
				// bind_read_variable.
				return r.readElem(name, vr.Str, written == name, &exit)
			}
			if vr.Kind == expand.String && namerefRefuses(r.lookupVar(name), vr.Str) {
				// jaiph-go patch: read r of declare -n r
				r.errf("read: `%s': not a valid identifier\n", vr.Str)
				exit.code = 1
				return false
			}
			if err := r.bindKeeping(name, vr); err != nil {
				if !r.arithAssignFatal(err, "read", &exit) {
					if vr.Kind == expand.Indexed && errors.Is(err, errReadOnly) {
						// jaiph-go patch: read -a names the array
						// as written, a nameref too (bash's
						// err_readonly (arrayname)).
						err = fmt.Errorf("%s: %w", written, errReadOnly)
					}
					r.errf("%v\n", err)
					exit.code = 1
					if errors.Is(err, errReadOnly) {
						r.readonlyFailed(&exit)
					}
				}
				return false
			}
			return true
		}
		str := func(s string) expand.Variable { return expand.Variable{Set: true, Kind: expand.String, Str: s} }
		if ropts.exact && len(args) > 0 {
			// -N assigns what it read as is to the first name.
			if !assign(args[0], str(string(line))) {
				return exit
			}
			for _, name := range args[1:] {
				if !assign(name, str("")) {
					return exit
				}
			}
		} else if readArray {
			// read -a arrayname: split line into fields and assign to indexed array.
			if target := r.refTarget(arrayName); !syntax.ValidName(target) && !r.lookupVar(target).Declared() {
				// jaiph-go patch: a nameref naming an element is no
				// array name (bash checks once the line is read),
				// but for a local named as the element that a
				// declaration through it made (find_variable's).
				r.errf("read: `%s': not a valid identifier\n", target)
				exit.code = 1
				return exit
			}
			if r.lookupVar(r.refTarget(arrayName)).Kind == expand.Associative {
				// jaiph-go patch: bash's read checks it once the
				// line is read.
				r.errf("read: %s: not an indexed array\n", arrayName)
				exit.code = 1
				return exit
			}
			// Use -1 as max to get all fields without joining the last ones.
			values := expand.ReadFields(r.ecfg, string(line), -1, raw)
			if !assign(arrayName, expand.Variable{
				Set:  true,
				Kind: expand.Indexed,
				List: values,
			}) {
				return exit
			}
		} else if len(args) == 0 {
			// Bare "read" assigns the whole line to REPLY without any
			// trimming, only discarding backslash escapes unless raw.
			val := string(line)
			if !raw {
				var sb strings.Builder
				esc := false
				for i := range len(val) {
					if val[i] == '\\' && !esc {
						esc = true
						continue
					}
					sb.WriteByte(val[i])
					esc = false
				}
				val = sb.String()
			}
			if !assign(shellReplyVar, str(val)) {
				return exit
			}
		} else {
			values := expand.ReadFields(r.ecfg, string(line), len(args), raw)
			for i, name := range args {
				val := ""
				if i < len(values) {
					val = values[i]
				}
				if !assign(name, str(val)) {
					return exit
				}
			}
		}

		// We can get data back from readLine and an error at the same time, so
		// check err after we process the data.
		if err != nil {
			exit.code = 1
			if hasTimeout && errors.Is(ctx.Err(), context.DeadlineExceeded) {
				exit.code = 142 // 128 + SIGALRM, as bash
			} else if errno := syscall.Errno(0); errors.As(err, &errno) {
				// jaiph-go patch: bash reports a failed read
				// (read < dir: Is a directory).
				r.errf("read: read error: %d: %s\n", inFd, strerror(errno))
			}
			return exit
		}

	case "getopts":
		if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && args[0] != "--" {
			// jaiph-go patch: getopts takes no option of its own: a
			// first word like -a is bash's invalid option (it was
			// taken for the option string).
			return failf(2, "getopts: %s: invalid option\ngetopts: usage: getopts optstring name [arg ...]\n", args[0][:2])
		}
		args = dropDoubleDash(args)
		if len(args) < 2 {
			return failf(2, "getopts: usage: getopts optstring name [arg ...]\n")
		}
		optind, _ := strconv.Atoi(r.envGet("OPTIND"))
		if optind-1 != r.optState.argidx {
			if optind < 1 {
				optind = 1
			}
			r.optState = getopts{argidx: optind - 1}
		}
		optstr := args[0]
		name := args[1]
		// jaiph-go patch: as bash's getopts_bind_variable, an invalid
		// name is found when it is bound, after the options were read:
		// OPTIND and OPTARG move on, the status is 1.
		validName := syntax.ValidName(name)
		args = args[2:]
		if len(args) == 0 {
			args = r.Params
		}
		diagnostics := !strings.HasPrefix(optstr, ":")

		opt, optarg, done := r.optState.next(optstr, args)

		// jaiph-go patch: bash's texts, OPTERR=0 silences them, and a
		// missing argument gives "?" unless optstring starts with ":".
		printErrs := diagnostics && r.envGet("OPTERR") != "0"
		// jaiph-go patch: a readonly name is bash's err_readonly
		// (status 2, see readonlyFailed); a readonly OPTARG is reported
		// once, the status left alone.
		bind := func(name, value string) bool {
			name = r.refTarget(name) // jaiph-go patch: a nameref's variable
			var err error
			if syntax.ValidName(name) || r.lookupVar(name).Declared() {
				err = r.bindKeeping(name, expand.Variable{Set: true, Kind: expand.String, Str: value})
			} else {
				err = HandlerContext{runner: r}.SetVar(name, value) // a nameref's element
			}
			if err == nil {
				return true
			}
			if r.arithAssignFatal(err, "getopts", &exit) {
				return false
			}
			r.errf("%v\n", err)
			if errors.Is(err, errReadOnly) && r.errexitOn() {
				r.readonlyFailed(&exit)
			}
			return false
		}
		// jaiph-go patch: bash's dogetopts: sh_getopt's message, then
		// OPTIND in any case, then the name and OPTARG in the order of
		// each case (a readonly one's error comes where bash's does).
		switch {
		case !printErrs, done:
		case opt == '?':
			// prefixed by $0, as bash's sh_getopt
			r.errf("%s: illegal option -- %s\n", r.lookupVar("0").String(), optarg)
		case opt == ':':
			r.errf("%s: option requires an argument -- %s\n", r.lookupVar("0").String(), optarg)
		}
		if !bind("OPTIND", strconv.FormatInt(int64(r.optState.argidx+1), 10)) && exit.exiting {
			return exit
		}
		// OPTARG is unset unless getopts binds it; a value bound keeps
		// its attributes (declare -i), as bash's bind_variable.
		unsetOptarg := func() {
			if !r.lookupVar("OPTARG").ReadOnly {
				r.delVar("OPTARG")
			}
		}
		// bindName is getopts_bind_variable: status 2 for a readonly
		// name, 1 for an invalid one
		bindName := func(val string) bool {
			if !validName {
				r.errf("getopts: `%s': not a valid identifier\n", name)
				exit.code = 1
				return true
			}
			if !bind(name, val) && !exit.exiting {
				exit.code = 2
			}
			return !exit.exiting
		}
		bindOptarg := func(val string) bool { return bind("OPTARG", val) || !exit.exiting }
		switch {
		case done:
			unsetOptarg()
			bindName("?")
			if !exit.exiting {
				exit.code = 1
			}
			return exit
		case opt == '?' && diagnostics:
			if bindName("?") {
				unsetOptarg()
			}
		case opt == ':' && diagnostics:
			if bindName("?") {
				unsetOptarg()
			}
		case opt == ':', opt == '?':
			// optstring starting with ':': the option in OPTARG
			if bindName(string(opt)) {
				bindOptarg(optarg)
			}
		case optarg != "" || takesOptarg(optstr, opt):
			// an empty argument is still the option's (getopts a: o
			// -a "" sets OPTARG to "", as bash)
			if bindOptarg(optarg) {
				bindName(string(opt))
			}
		default:
			unsetOptarg()
			bindName(string(opt))
		}
		if exit.exiting {
			return exit
		}
		if exit.code == 0 {
			exit.oneIf(done)
		}

	case "shopt":
		// jaiph-go patch: bash's -p and -q, its listing formats, its
		// error texts, and a status of 1 when a queried option is off.
		mode := ""
		posixOpts, printCmd, quiet := false, false, false
		fp := flagParser{remaining: args}
		for fp.more() {
			switch flag := fp.flag(); flag {
			case "-s", "-u":
				mode = flag
			case "-o":
				posixOpts = true
			case "-p":
				printCmd = true
			case "-q":
				quiet = true
			default:
				return failf(2, "shopt: %s: invalid option\nshopt: usage: shopt [-pqsu] [-o] [optname ...]\n", flag)
			}
		}
		show := func(name string, on bool) {
			switch {
			case quiet:
			case printCmd && posixOpts:
				r.outf("set %so %s\n", map[bool]string{true: "-", false: "+"}[on], name)
			case printCmd:
				r.outf("shopt %s %s\n", map[bool]string{true: "-s", false: "-u"}[on], name)
			default:
				r.printOptLine(name, on, true)
			}
		}
		args := fp.args()
		if len(args) == 0 {
			type optState struct {
				name string
				on   bool
			}
			var all []optState
			if posixOpts {
				for _, o := range r.setOptStates() { // jaiph-go patch: bash's list
					all = append(all, optState{o.name, o.on})
				}
			} else {
				for i, opt := range bashOptsTable {
					all = append(all, optState{opt.name, r.opts[len(posixOptsTable)+i]})
				}
			}
			// bash's tables are sorted by name, but for shopt's autocd,
			// first (jaiph-go patch: it came after assoc_expand_once)
			key := func(o optState) string {
				if o.name == "autocd" && !posixOpts {
					return ""
				}
				return o.name
			}
			slices.SortFunc(all, func(a, b optState) int { return strings.Compare(key(a), key(b)) })
			for _, o := range all {
				if mode == "" || o.on == (mode == "-s") {
					show(o.name, o.on)
				}
			}
			break
		}
		for _, arg := range args {
			opt, supported := (*bool)(nil), true
			if posixOpts {
				opt = r.posixOptByName(arg)
			} else {
				opt, supported = r.bashOptByName(arg)
			}
			if opt == nil && posixOpts && mode == "" {
				// jaiph-go patch: an option bash has that the
				// interpreter does not run (history, verbose,
				// physical…: setting one is refused) is shown with
				// its value in a non-interactive bash, as set -o does
				if i := slices.IndexFunc(r.setOptStates(), func(st setOptState) bool { return st.name == arg }); i >= 0 {
					on := r.setOptStates()[i].on
					show(arg, on)
					if !on {
						exit.code = 1
					}
					continue
				}
			}
			if opt == nil {
				if posixOpts {
					r.errf("shopt: %s: invalid option name\n", arg)
				} else {
					r.errf("shopt: %s: invalid shell option name\n", arg)
				}
				exit.code = 1
				continue
			}

			switch mode {
			case "-s", "-u":
				if !supported || (arg == "expand_aliases" && mode == "-s") {
					// jaiph-go patch: bash expands aliases when it
					// parses text (eval, source) after the option
					// and the definition; the interpreter cannot, so
					// the option stays off (jaiph check refuses it).
					return failf(1, "shopt: unsupported option %q\n", arg)
				}
				*opt = mode == "-s"
			default: // ""
				show(arg, *opt)
				if !*opt {
					exit.code = 1
				}
			}
		}
		r.updateExpandOpts()

	case "alias":
		// jaiph-go patch: bash's alias builtin: the value kept as
		// written and shown single-quoted, the list sorted by name,
		// `--` and -p, bash's messages for a name not found or not
		// valid (status 1). Aliases are never expanded: bash expands
		// them only with expand_aliases, which the interpreter refuses.
		show := func(name string, als alias) {
			if strings.HasPrefix(name, "-") {
				name = "-- " + name // as bash prints it, to be read back
			}
			r.outf("alias %s=%s\n", name, bashSingleQuote(als.src))
		}
		// bash's internal_getopt "p": -p lists every alias before the
		// names are read, "--" ends the options
		listAll := false
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
			w := args[0]
			args = args[1:]
			if w == "--" {
				break
			}
			for i, c := range w[1:] {
				if c == 'p' {
					listAll = true
					continue
				}
				bad := "-" + string(c)
				if c == '-' && i == 0 {
					bad = "--"
				}
				r.errf("alias: %s: invalid option\n", bad)
				r.errf("alias: usage: alias [-p] [name[=value] ... ]\n")
				return exitStatus{code: 2}
			}
		}
		if len(args) == 0 || listAll {
			for _, name := range slices.Sorted(maps.Keys(r.alias)) {
				show(name, r.alias[name])
			}
		}
		var exit exitStatus
		for _, arg := range args {
			name, src, ok := strings.Cut(arg, "=")
			if !ok || name == "" {
				als, ok := r.alias[arg]
				if !ok {
					r.errf("alias: %s: not found\n", arg)
					exit.code = 1
					continue
				}
				show(arg, als)
				continue
			}
			if strings.ContainsAny(name, "()<>;&| \t\n\"'\\`$/") {
				r.errf("alias: `%s': invalid alias name\n", name)
				exit.code = 1
				continue
			}
			if r.alias == nil {
				r.alias = make(map[string]alias)
			}
			als := alias{src: src, blank: strings.TrimRight(src, " \t") != src}
			// The words, for the expansion (never reached, see above).
			for w, err := range syntax.NewParser().WordsSeq(strings.NewReader(src)) {
				if err != nil {
					als.args = nil
					break
				}
				als.args = append(als.args, w)
			}
			r.alias[name] = als
		}
		return exit
	case "unalias":
		// jaiph-go patch: bash's usage error, -a, `--`, and "not
		// found" with status 1.
		// as bash's internal_getopt: -a, "--" ending the options, any
		// other option (or "--x", named "--") invalid
		all := false
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
			w := args[0]
			args = args[1:]
			if w == "--" {
				break
			}
			bad := ""
			if strings.HasPrefix(w, "--") {
				bad = "--"
			} else if i := strings.IndexFunc(w[1:], func(c rune) bool { return c != 'a' }); i >= 0 {
				bad = "-" + string(w[1+i])
			}
			if bad != "" {
				return failf(2, "unalias: %s: invalid option\nunalias: usage: unalias [-a] name [name ...]\n", bad)
			}
			all = true
		}
		if all {
			clear(r.alias)
			break
		}
		if len(args) == 0 {
			r.errf("unalias: usage: unalias [-a] name [name ...]\n")
			return exitStatus{code: 2}
		}
		var exit exitStatus
		for _, name := range args {
			if _, ok := r.alias[name]; !ok {
				r.errf("unalias: %s: not found\n", name)
				exit.code = 1
				continue
			}
			delete(r.alias, name)
		}
		return exit

	case "trap":
		// jaiph-go patch: signals, trap -p/-l as bash (jaiph_jobs.go)
		return r.trapBuiltin(args)
	case "kill":
		return r.killBuiltin(ctx, args) // jaiph-go patch
	case "disown":
		return r.disownBuiltin(args) // jaiph-go patch
	case "jobs":
		return r.jobsBuiltin(args) // jaiph-go patch

	case "readarray", "mapfile":
		// jaiph-go patch: -n, -s, -u and -O, reading no further than
		// needed, so that later reads of the same input go on from there.
		dropDelim := false
		delim := "\n"
		count, skip, origin := 0, 0, -1
		in := r.stdin
		num := func(flag, v string) (int, bool) {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				r.errf("%s: %s: invalid %s\n", name, v, map[string]string{"-n": "line count", "-s": "line count", "-O": "array index", "-u": "file descriptor specification"}[flag])
				return 0, false
			}
			return n, true
		}
		fp := flagParser{remaining: args}
		for fp.more() {
			switch flag := fp.flag(); flag {
			case "-t":
				// Remove the delim from each line read
				dropDelim = true
			case "-d":
				if len(fp.remaining) == 0 {
					return failf(2, "%s: -d: option requires an argument\n", name)
				}
				delim = fp.value()
				if delim == "" {
					// Bash sets the delim to an ASCII NUL if provided with an empty
					// string.
					delim = "\x00"
				}
			case "-n", "-s", "-O", "-u":
				n, ok := num(flag, fp.value())
				if !ok {
					return exitStatus{code: 1}
				}
				switch flag {
				case "-n":
					count = n
				case "-s":
					skip = n
				case "-O":
					origin = n
				case "-u":
					e := r.getFd(n)
					if e == nil || e.r == nil {
						return failf(1, "%s: %d: invalid file descriptor: Bad file descriptor\n", name, n)
					}
					in = e.r
				}
			default:
				return failf(2, "%s: %s: invalid option\n%s: usage: %s [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]\n", name, flag, name, name) // jaiph-go patch: bash's text
			}
		}

		args := fp.args()
		// arrayName is the array the lines go to; shown names it in an
		// error as written, a nameref too (jaiph-go patch: bash's
		// find_or_make_array_variable reports the name).
		var arrayName, shown string
		switch len(args) {
		case 0:
			arrayName, shown = "MAPFILE", "MAPFILE"
		case 1:
			shown = args[0]
			if !syntax.ValidName(args[0]) {
				return failf(1, "%s: `%s': not a valid identifier\n", name, args[0]) // jaiph-go patch: bash's text and status
			}
			arrayName = r.refTarget(args[0]) // jaiph-go patch: a nameref's array
			if !syntax.ValidName(arrayName) && !r.lookupVar(arrayName).Declared() {
				// jaiph-go patch: a nameref naming an element is no
				// array name, as bash's find_or_make_array_variable,
				// but for a local named as the element that a
				// declaration through it made (find_variable's)
				return failf(1, "%s: `%s': not a valid identifier\n", name, arrayName)
			}
		default:
			return failf(2, "%s: Only one array name may be specified, %v\n", name, args)
		}

		vr := expand.Variable{Set: true, Kind: expand.Indexed}
		// jaiph-go patch: the lines take the array's declare -i/-l/-u
		// (bash's bind_array_element): evaluated, or case changed.
		cur := r.lookupVar(arrayName)
		vr.Integer, vr.Lower, vr.Upper = cur.Integer, cur.Lower, cur.Upper
		// jaiph-go patch: as bash, an associative or readonly array
		// fails mapfile before a line is read.
		if cur.Kind == expand.Associative {
			return failf(1, "%s: %s: not an indexed array\n", name, shown)
		}
		if r.readonlyHere(arrayName, vr) {
			exit = failf(1, "%s: %v\n", shown, errReadOnly)
			r.readonlyFailed(&exit)
			return exit
		}
		index := 0
		if origin >= 0 {
			if prev := r.lookupVar(arrayName); prev.Kind == expand.Indexed {
				vr.List, vr.Indexes = slices.Clone(prev.List), slices.Clone(prev.Indexes)
			} else if prev.IsSet() && (prev.Kind == expand.String || prev.Kind == expand.Unknown) {
				// jaiph-go patch: a scalar's value becomes element
				// 0, which -O keeps (bash's convert_var_to_array).
				vr.List = []string{prev.Str}
			}
			index = origin
		}
		// jaiph-go patch: bash empties the array (unless -O) and binds
		// each line as it is read, so the arithmetic of a declare -i
		// array's line sees the array set, holding the lines before it
		// (a[0]+1), not what it held before mapfile.
		placeEach := vr.Integer
		if placeEach {
			_ = r.setVarErr(arrayName, keepAttrs(cur, vr))
		}
		for read := 0; count == 0 || read < count+skip; read++ {
			line, err := r.readInput(ctx, in, readOpts{raw: true, delim: delim[0], nchars: -1})
			if err == nil && !dropDelim {
				line = append(line, delim[0])
			}
			if i := bytes.IndexByte(line, 0); i >= 0 {
				// jaiph-go patch: bash keeps each line as a C string:
				// it ends at a NUL byte (a NUL delimiter too).
				line = line[:i]
			}
			if err != nil && len(line) == 0 {
				break
			}
			if read >= skip {
				// the line alone, as bash's bind_array_element
				val, err := r.attrValue(vr, string(line))
				if err != nil {
					if r.arithAssignFatal(err, "mapfile", &exit) {
						return exit
					}
					return failf(1, "%v\n", err)
				}
				vr.List, vr.Indexes = internal.SetIndexedElem(vr.List, vr.Indexes, index, val)
				index++
				if placeEach {
					_ = r.setVarErr(arrayName, keepAttrs(cur, vr))
				}
			}
			if err != nil {
				break
			}
		}
		// jaiph-go patch: a readonly array fails mapfile (status 1);
		// the array keeps its export attribute (keepAttrs).
		if err := r.setVarErr(arrayName, keepAttrs(cur, vr)); err != nil {
			if r.arithAssignFatal(err, "mapfile", &exit) {
				return exit
			}
			exit = failf(1, "%v\n", err)
			if errors.Is(err, errReadOnly) {
				r.readonlyFailed(&exit)
			}
			return exit
		}

	case "declare", "typeset", "local", "export", "readonly":
		// jaiph-go patch: a declaration builtin the parser did not read
		// as one (behind a prefix binding, after `builtin` or `command`,
		// named by an expansion) runs with its expanded words, each one
		// argument, as `declare "$w"` would.
		decl := &syntax.DeclClause{Variant: &syntax.Lit{ValuePos: pos, Value: name}}
		for _, arg := range args {
			decl.Args = append(decl.Args, &syntax.Assign{Naked: true, Value: &syntax.Word{
				Parts: []syntax.WordPart{&syntax.SglQuoted{Left: pos, Right: pos, Value: arg}},
			}})
		}
		r.exit = exitStatus{}
		r.declFromCall = true
		r.cmd(ctx, decl)
		r.declFromCall = false
		exit = r.exit
	default:
		return failf(2, "%s: unsupported builtin\n", name)
	}
	return exit
}

// devFdReader is what reading the path /dev/stdin or /dev/fd/N gives in the
// shell: its own descriptor's reader (nil when closed or write-only), and
// whether path names one (jaiph-go patch).
func (r *Runner) devFdReader(path string) (io.Reader, bool) {
	n := 0
	if path != "/dev/stdin" {
		rest, ok := strings.CutPrefix(path, "/dev/fd/")
		if !ok {
			return nil, false
		}
		var err error
		if n, err = strconv.Atoi(rest); err != nil || n < 0 {
			return nil, false
		}
	}
	if e := r.getFd(n); e != nil && e.r != nil {
		return e.r, true
	}
	return nil, true
}

// mapfileSplit returns a suitable Split function for a [bufio.Scanner];
// the code is mostly stolen from [bufio.ScanLines].
func mapfileSplit(delim byte, dropDelim bool) bufio.SplitFunc {
	return func(data []byte, atEOF bool) (advance int, token []byte, err error) {
		if atEOF && len(data) == 0 {
			return 0, nil, nil
		}
		if i := bytes.IndexByte(data, delim); i >= 0 {
			// We have a full newline-terminated line.
			if dropDelim {
				return i + 1, data[0:i], nil
			} else {
				return i + 1, data[0 : i+1], nil
			}
		}
		// If we're at EOF, we have a final, non-terminated line. Return it.
		if atEOF {
			return len(data), data, nil
		}
		// Request more data.
		return 0, nil, nil
	}
}

func (r *Runner) printOptLine(name string, enabled, supported bool) {
	// jaiph-go patch: bash's layout, with no note on unsupported options.
	r.outf("%-15s\t%s\n", name, r.optStatusText(enabled))
}

// readOpts are the options of the read builtin that change where input
// stops (jaiph-go patch).
type readOpts struct {
	raw    bool
	delim  byte // -d; 0 for NUL
	nchars int  // -n/-N; -1 when unset
	exact  bool // -N: ignore the delimiter
	// skipNUL drops NUL bytes (unless NUL is the delimiter) without
	// counting them, as bash's read (jaiph-go patch).
	skipNUL bool
}

func (r *Runner) readLine(ctx context.Context, raw bool) ([]byte, error) {
	return r.readInput(ctx, r.stdin, readOpts{raw: raw, delim: '\n', nchars: -1})
}

// readInput reads from in up to the delimiter, or nchars characters, the
// end of input or ctx's end (jaiph-go patch generalising readLine).
func (r *Runner) readInput(ctx context.Context, in stdinFile, o readOpts) ([]byte, error) {
	if in == nil {
		return nil, errors.New("interp: can't read, there's no stdin")
	}
	raw := o.raw
	if o.nchars == 0 {
		return nil, nil
	}
	chars := 0
	var pending []byte // bytes of an incomplete UTF-8 character

	var line []byte
	esc := false

	stopc := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		in.SetReadDeadline(time.Now())
		close(stopc)
	})
	defer func() {
		if !stop() {
			// The AfterFunc was started.
			// Wait for it to complete, and reset the file's deadline.
			<-stopc
			in.SetReadDeadline(time.Time{})
		}
	}()
	for {
		var buf [1]byte
		n, err := in.Read(buf[:])
		if n > 0 {
			b := buf[0]
			switch {
			case b == 0 && o.skipNUL && o.delim != 0:
				continue
			case !raw && b == '\\' && !esc:
				line = append(line, b)
				esc = true
				continue // the escaped character counts, not the backslash
			case !raw && b == '\n' && esc:
				// line continuation; drop the trailing backslash
				// (jaiph-go patch: whatever the delimiter, as bash)
				line = line[:len(line)-1]
				esc = false
				continue
			case b == o.delim && !o.exact && !esc:
				return line, nil
			default:
				line = append(line, b)
				esc = false
			}
			if o.nchars > 0 {
				pending = append(pending, b)
				if utf8.FullRune(pending) {
					pending = pending[:0]
					if chars++; chars >= o.nchars {
						return line, nil
					}
				}
			}
		}
		if err != nil {
			return line, err
		}
	}
}

// cdAbsolute is bash's absolute_pathname for cd: a name CDPATH is not
// searched for (/…, ./…, ../…, . and ..).
func cdAbsolute(path string) bool {
	return strings.HasPrefix(path, "/") || path == "." || path == ".." ||
		strings.HasPrefix(path, "./") || strings.HasPrefix(path, "../")
}

// isDirPath reports whether path (relative to the current directory) names
// a directory cd can change to.
func (r *Runner) isDirPath(ctx context.Context, path string) bool {
	apath := r.absPath(path)
	info, err := r.stat(ctx, apath)
	return err == nil && info.IsDir() && r.access(ctx, apath, AccessExec) == nil &&
		r.dotDotCheck(ctx, path) == nil
}

// dotDotCheck is bash's PATH_CHECKDOTDOT in sh_canonpath: the part of a path
// before each ".." must be a directory, so "missing/.." is an error although
// its logical form names an existing directory. The error is the kernel's for
// the path as written.
func (r *Runner) dotDotCheck(ctx context.Context, path string) error {
	if !strings.Contains(path, "..") {
		return nil
	}
	dir := r.Dir
	if filepath.IsAbs(path) {
		dir = "/"
	}
	for _, part := range strings.Split(path, "/") {
		if part == ".." {
			if info, err := r.stat(ctx, dir); err != nil || !info.IsDir() {
				raw := path
				if !filepath.IsAbs(raw) {
					raw = r.Dir + "/" + raw
				}
				if _, err := os.Stat(raw); err != nil {
					return err
				}
				return syscall.ENOENT
			}
		}
		dir = filepath.Join(dir, part)
	}
	return nil
}

func (r *Runner) changeDir(ctx context.Context, cmd, path string) exitStatus {
	if path == "" {
		r.errf("%s: empty directory path\n", cmd)
		return exitStatus{code: 1}
	}
	apath := r.absPath(path)
	// jaiph-go patch: bash's texts.
	info, err := r.stat(ctx, apath)
	if err == nil {
		err = r.dotDotCheck(ctx, path)
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		r.errf("%s: %s: %s\n", cmd, path, strerror(err))
		return exitStatus{code: 1}
	}
	if !info.IsDir() {
		r.errf("%s: %s: Not a directory\n", cmd, path)
		return exitStatus{code: 1}
	}
	if r.access(ctx, apath, AccessExec) != nil {
		r.errf("%s: %s: Permission denied\n", cmd, path)
		return exitStatus{code: 1}
	}
	if leadingDoubleSlash(r.Dir, path) && apath != "" {
		// jaiph-go patch: a path starting with exactly two slashes keeps
		// them, as bash's canonicalization does (POSIX leaves // to the
		// system): cd //usr is //usr, and ../lib from there //usr/lib
		apath = "/" + apath
	}
	r.Dir = apath
	// jaiph-go patch: a readonly OLDPWD or PWD is bash's err_readonly
	// (the directory still changes): status 1, the shell's end under
	// errexit (see readonlyFailed); a declare -i one's arithmetic error
	// is fatal (arithAssignFatal); as bash's bind_variable, cd keeps the
	// variables' export attribute (PWD and OLDPWD start exported).
	var exit exitStatus
	readonly := false
	for _, v := range [...][2]string{{"OLDPWD", r.envGet("PWD")}, {"PWD", apath}} {
		if err := r.bindKeeping(v[0], expand.Variable{Set: true, Kind: expand.String, Str: v[1]}); err != nil {
			if r.arithAssignFatal(err, "cd", &exit) {
				return exit
			}
			r.errf("%v\n", err)
			exit.code = 1
			readonly = readonly || errors.Is(err, errReadOnly)
		}
	}
	if readonly {
		r.readonlyFailed(&exit)
	}
	return exit
}

// leadingDoubleSlash reports whether path, taken from dir when relative,
// starts with exactly two slashes (jaiph-go patch).
func leadingDoubleSlash(dir, path string) bool {
	p := path
	if !strings.HasPrefix(path, "/") {
		p = dir
	}
	return strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///")
}

func absPath(dir, path string) string {
	if path == "" {
		return ""
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	// Note that [filepath.Join] cleans its result, but an already absolute
	// path needs cleaning too, such as turning "/a/../b" into "/b".
	return filepath.Clean(path)
}

// osPath is path as the system resolves it from dir (jaiph-go patch):
// joined, not cleaned, as bash hands a path to open and stat, so that a
// trailing slash still asks for a directory (> "f/" is "Is a directory",
// [ -e file/ ] is false) and ".." goes through a symlink as the kernel
// takes it.
func osPath(dir, path string) string {
	switch {
	case path == "" || runtime.GOOS == "windows":
		return absPath(dir, path)
	case filepath.IsAbs(path):
		return path
	case path == ".." || strings.HasPrefix(path, "../"):
		// bash's open goes up from the process's working directory,
		// which may have been removed since (cd sub; rmdir ../sub;
		// echo > ../f works): a path up from a directory that is gone
		// is taken lexically
		if _, err := os.Stat(dir); err != nil {
			return absPath(dir, path)
		}
	}
	return strings.TrimSuffix(dir, "/") + "/" + path
}

func (r *Runner) absPath(path string) string {
	return absPath(r.Dir, path)
}

// dropDoubleDash is args without a leading "--", which bash's builtins
// that take no options skip (no_options) (jaiph-go patch).
func dropDoubleDash(args []string) []string {
	if len(args) > 0 && args[0] == "--" {
		return args[1:]
	}
	return args
}

// flagParser is used to parse builtin flags.
//
// It's similar to the getopts implementation, but with some key differences.
// First, the API is designed for Go loops, making it easier to use directly.
// Second, it doesn't require the awkward ":ab" syntax that getopts uses.
// Third, it supports "-a" flags as well as "+a".
type flagParser struct {
	current   string
	remaining []string
}

func (p *flagParser) more() bool {
	if p.current != "" {
		// We're still parsing part of "-ab".
		return true
	}
	if len(p.remaining) == 0 {
		// Nothing left.
		p.remaining = nil
		return false
	}
	arg := p.remaining[0]
	if arg == "--" {
		// We explicitly stop parsing flags.
		p.remaining = p.remaining[1:]
		return false
	}
	if len(arg) == 0 || (arg[0] != '-' && arg[0] != '+') {
		// The next argument is not a flag.
		return false
	}
	// More flags to come.
	return true
}

func (p *flagParser) flag() string {
	arg := p.current
	if arg == "" {
		arg = p.remaining[0]
		p.remaining = p.remaining[1:]
	} else {
		p.current = ""
	}
	if len(arg) > 2 {
		// We have "-ab", so return "-a" and keep "-b".
		p.current = arg[:1] + arg[2:]
		arg = arg[:2]
	}
	return arg
}

func (p *flagParser) value() string {
	if p.current != "" {
		// jaiph-go patch: as getopt, the rest of "-n1" is -n's value.
		v := p.current[1:]
		p.current = ""
		return v
	}
	if len(p.remaining) == 0 {
		return ""
	}
	arg := p.remaining[0]
	p.remaining = p.remaining[1:]
	return arg
}

func (p *flagParser) args() []string { return p.remaining }

type getopts struct {
	argidx  int
	runeidx int
}

func (g *getopts) next(optstr string, args []string) (opt rune, optarg string, done bool) {
	if len(args) == 0 || g.argidx >= len(args) {
		// jaiph-go patch: as bash's sh_getopt, an OPTIND past the
		// arguments is brought back to just after the last one (bash
		// sets sh_optind = argc), so a loop over fewer arguments than
		// the previous one leaves OPTIND at $#+1.
		g.argidx = len(args)
		g.runeidx = 0
		return '?', "", true
	}
	arg := []rune(args[g.argidx])
	if string(arg) == "--" && g.runeidx == 0 {
		g.argidx++ // jaiph-go patch: as in bash, "--" ends the options and is skipped
		return '?', "", true
	}
	// jaiph-go patch: only a lone "--" ends the options (above); as bash
	// sh_getopt, "--x" is read as the options "-" and "x".
	if len(arg) < 2 || arg[0] != '-' {
		return '?', "", true
	}

	opts := arg[1:]
	opt = opts[g.runeidx]

	i := strings.IndexRune(optstr, opt)
	if opt == ':' {
		i = -1 // jaiph-go patch: never an option, as bash's sh_getopt
	}
	if i >= 0 && i+1 < len(optstr) && optstr[i+1] == ':' {
		// the option requires an argument
		if g.runeidx+1 < len(opts) {
			// attached to the option in the same word, like -bval
			optarg = string(opts[g.runeidx+1:])
		} else if g.argidx+1 < len(args) {
			// the word that follows
			optarg = args[g.argidx+1]
			g.argidx++
		} else {
			// missing argument
			g.argidx++
			g.runeidx = 0
			return ':', string(opt), false
		}
		g.argidx++
		g.runeidx = 0
		return opt, optarg, false
	}

	if g.runeidx+1 < len(opts) {
		g.runeidx++
	} else {
		g.argidx++
		g.runeidx = 0
	}
	if i < 0 {
		// invalid option
		return '?', string(opt), false
	}
	return opt, "", false
}

// takesOptarg says opt, an option getopts found, takes an argument in
// optstr (jaiph-go patch).
func takesOptarg(optstr string, opt rune) bool {
	if opt == '?' || opt == ':' {
		return false
	}
	i := strings.IndexRune(optstr, opt)
	return i >= 0 && strings.HasPrefix(optstr[i+utf8.RuneLen(opt):], ":")
}

// optStatusText returns a shell option's status text display
func (r *Runner) optStatusText(status bool) string {
	if status {
		return "on"
	}
	return "off"
}

// noOptions is bash's no_options for a builtin that takes none (eval,
// source): a leading `--` is dropped, a lone `-` or a word not starting with
// `-` ends the scan, and any other `-X` is an invalid option, reported with
// the builtin's usage line (the returned text; empty when the words are fine).
func noOptions(name string, args []string) ([]string, string) {
	if len(args) == 0 {
		return args, ""
	}
	a := args[0]
	switch {
	case a == "--":
		return args[1:], ""
	case len(a) < 2 || a[0] != '-':
		return args, ""
	}
	return nil, fmt.Sprintf("%s: %s: invalid option\n%s: usage: %s\n", name, a[:2], name, helpTable[name].synopsis)
}

// commandVPath is the file `command -v NAME` prints, as bash's
// describe_command and find_user_command (jaiph-go patch): a name with a
// slash is printed as given if it is an executable file; otherwise PATH's
// elements are searched in turn (an empty one is "."), directories skipped,
// and the first executable file is printed as the element joined with the
// name (relative if the element is), or failing that the first existing
// file that is not executable.
func (r *Runner) commandVPath(name string, stdPath bool) (string, bool) {
	if name == "" {
		return "", false
	}
	if strings.Contains(name, "/") {
		return name, r.fileStatus(name).execFile()
	}
	pathList := r.writeEnv.Get("PATH").String()
	if stdPath {
		pathList = StandardPath // command -pv
	}
	if pathList != "" {
		path, _, _ := r.findUserCommand(name, pathList) // see jaiph_hash.go
		return path, path != ""
	}
	// An empty or unset PATH finds the name itself in the working
	// directory, named by its full path when it is executable (bash's
	// describe_command: MP_DOCWD).
	if r.fileStatus(name).exec {
		dir := r.Dir
		if !strings.HasSuffix(dir, "/") {
			dir += "/"
		}
		return dir + name, true
	}
	return "", false
}

// bashSingleQuote quotes s as bash's sh_single_quote: in single quotes,
// each quote written '\” (jaiph-go patch, for alias listings).
func bashSingleQuote(s string) string {
	if s == "'" {
		return `\'` // jaiph-go patch: bash's sh_single_quote
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// tooManyArgs is bash's no_args for shift, break, continue, return and exit
// given a second argument (jaiph-go patch): the message, then the current
// top-level command is discarded (DISCARD), leaving the status before it,
// or 1 if that was 0. In a subshell, the subshell ends so.
func (r *Runner) tooManyArgs(name string) exitStatus {
	r.errf("%s: too many arguments\n", name)
	return exitStatus{code: cmp.Or(r.lastExit.code, 1), exiting: true, discard: true, popScopes: true}
}
