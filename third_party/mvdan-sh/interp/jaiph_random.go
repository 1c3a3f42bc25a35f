// jaiph-go: bash's RANDOM. Seeded by an assignment, it gives bash's own
// sequence (variables.c brand: Park and Miller's minimal standard
// generator, its two halves xored, 15 bits), so a script that seeds it to
// repeat a run gets bash's numbers; a value is never the one before it.
// Unseeded it starts from a random seed, and a subshell that does not
// seed it itself starts afresh, as bash reseeds in a child. Unset, RANDOM
// loses its special meaning for good, as in bash. SECONDS, bash's other
// assignable dynamic variable, is here too (assignSeconds, peekVar).

package interp

import (
	mathrand "math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
)

// bashRandom is the state of RANDOM's generator.
type bashRandom struct {
	seed uint32
	last int
}

// intrand32 is bash's minimal standard step: 16807 * x mod (2^31 - 1).
func intrand32(last uint32) uint32 {
	ret := last
	if ret == 0 {
		ret = 123459876 // a seed of 0 would stay 0
	}
	h := int32(ret / 127773)
	l := int32(ret - 127773*uint32(h))
	t := 16807*l - 2836*h
	if t < 0 {
		t += 0x7fffffff
	}
	return uint32(t)
}

// next is bash's get_random_number: brand() until it differs from the
// number before.
func (g *bashRandom) next() int {
	for {
		g.seed = intrand32(g.seed)
		rv := int((g.seed>>16)^(g.seed&65535)) & 32767
		if rv != g.last {
			g.last = rv
			return rv
		}
	}
}

// randomNumber is $RANDOM's next value.
func (r *Runner) randomNumber() int {
	if r.bashRand == nil {
		r.bashRand = &bashRandom{seed: mathrand.Uint32()}
	}
	n := r.bashRand.next()
	r.randomLast = strconv.Itoa(n)
	return n
}

// seedRandom is bash 5.2's assign_random: the value, evaluated as
// arithmetic (empty or a name without a value is 0), seeds the generator;
// an arithmetic error is reported and leaves it.
func (r *Runner) seedRandom(value string) {
	n, err := expand.ArithmString(r.ecfg, value)
	if err != nil {
		r.errf("%v\n", err)
		return
	}
	r.bashRand = &bashRandom{seed: uint32(n)}
	r.randomLast = strconv.Itoa(n)
}

// assignSeconds is bash's assign_seconds: SECONDS counts on from the
// value, a decimal number (as bash's legal_number: blanks around it, a
// sign; anything else is 0). Before SECONDS is first read it is no
// declare -i, and SECONDS=2*3 is 0, as in bash.
func (r *Runner) assignSeconds(value string) {
	n, err := strconv.ParseInt(strings.Trim(value, " \t\n"), 10, 64)
	if err != nil {
		n = 0
	}
	r.startTime = time.Unix(time.Now().Unix()-n, 0)
	r.secondsLast = value
}

// peekVar is lookupVar without reading RANDOM or SECONDS as bash's
// dynamic variables are read (jaiph-go patch): reading RANDOM draws a
// number, reading SECONDS makes it declare -i. For a test of what the
// variable is (its kind, its attributes) and for the value += adds to,
// bash looks at the value it keeps (the one read or assigned last),
// without drawing. Unset, or a function's local, they are ordinary.
func (r *Runner) peekVar(name string) expand.Variable {
	if name != "RANDOM" && name != "SECONDS" {
		return r.lookupVar(name)
	}
	vr := r.writeEnv.Get(name)
	switch {
	case vr.Kind == expand.Indexed || vr.Kind == expand.Associative || vr.Kind == expand.NameRef, vr.Local:
		return vr
	case name == "RANDOM" && r.randomUnset, name == "SECONDS" && (r.secondsUnset || r.startTime.IsZero()):
		return vr
	case name == "RANDOM":
		vr.Str, vr.Integer = r.randomLast, true
	default:
		vr.Str, vr.Integer = r.secondsLast, r.secondsRead
	}
	vr.Set, vr.Kind = true, expand.String
	return vr
}
