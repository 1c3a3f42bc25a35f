package interp

// jaiph-go patch: the options `set -o`, `set +o` and `shopt -o` list, as
// bash 5.2 lists them: all of its -o options in alphabetical order. Those
// the interpreter does not run (refused by jaiph check) show bash's
// values in a non-interactive shell.
var bashSetOptionNames = [...]string{
	"allexport", "braceexpand", "emacs", "errexit", "errtrace", "functrace",
	"hashall", "histexpand", "history", "ignoreeof", "interactive-comments",
	"keyword", "monitor", "noclobber", "noexec", "noglob", "nolog", "notify",
	"nounset", "onecmd", "physical", "pipefail", "posix", "privileged",
	"verbose", "vi", "xtrace",
}

type setOptState struct {
	name string
	on   bool
}

// setOptStates returns each of bash's -o options with its state.
func (r *Runner) setOptStates() []setOptState {
	out := make([]setOptState, 0, len(bashSetOptionNames))
	for _, name := range bashSetOptionNames {
		st := setOptState{name: name}
		if opt := r.posixOptByName(name); opt != nil {
			st.on = *opt
		} else {
			st.on, _ = fixedSetOpt(name)
		}
		out = append(out, st)
	}
	return out
}

// fixedSetOpt is the value of one of bash's -o options the interpreter
// does not run, as it lists it: braceexpand, hashall and
// interactive-comments on, the others off; listed is false for a name
// that is none of them.
func fixedSetOpt(name string) (on, listed bool) {
	switch name {
	case "braceexpand", "hashall", "interactive-comments":
		return true, true
	}
	for _, n := range bashSetOptionNames {
		if n == name {
			return false, true
		}
	}
	return false, false
}
