// Package bashfuzz is the differential fuzzer of bash fidelity: it
// generates bash programs from a byte string (Generate: every choice of the
// grammar reads the next byte, so Go's fuzzer mutates programs by mutating
// bytes, and the same bytes always give the same program), runs each one as
// a Jaiph body in the contexts a body really has and under /usr/bin/bash
// with the same framing (Runner), and shrinks a divergent program to a
// minimal one printed as a bashcompat snippet (Shrink, Snippet).
//
// It only observes: it never patches the interpreter or the refusal table.
// Divergences that are known and being fixed are named in Known, so that the
// bounded run of `make test` stays green while each fix lands and its entry
// is removed.
package bashfuzz
