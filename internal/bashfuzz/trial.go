package bashfuzz

import (
	"context"
	"fmt"
	"strings"
)

// Tally counts the outcomes of trials: programs, and results per
// program and context.
type Tally struct {
	Programs       int
	Agree, Refused int
	Differ         int
	// Skipped counts the contexts not run because their program shows an
	// avoided known class.
	Skipped int
	// BashBug counts the contexts where bash hit a bug of its own (its
	// wait_for bug, a crash: Verdict BashBug): neither agreeing nor
	// differing.
	BashBug int
	// KnownFound counts the divergent results whose program showed exactly
	// one known class (not avoided); FirstKnown is the number of the first
	// such program, per class.
	KnownFound map[Class]int
	FirstKnown map[Class]int
}

// Finding is a divergence outside the avoided classes, shrunk.
type Finding struct {
	Context           Context
	Original, Minimal string
	Result            Result // of the minimal program; of the original when Unreproduced
	// Unreproduced: the program did not diverge the same way when run
	// again (before shrinking), or its minimal program agreed (a
	// divergence that depends on timing, or a side that ran out of time
	// on a loaded machine); Result is then the original's first run.
	Unreproduced bool
}

// Report is the finding for a person: the minimal program as a
// bashcompat snippet, and how the two sides differ.
func (f *Finding) Report() string {
	diff := f.Result.Diff()
	if f.Unreproduced {
		diff = "not reproduced (run again, it agreed or differed otherwise); the original's first run differed:\n" + diff
	}
	return fmt.Sprintf("divergence in context %s, minimal program:\n%s%s\noriginal program:\n%s\n",
		f.Context, Snippet("", f.Minimal), diff, f.Original)
}

// Trial runs one program in every context and adds the results to t. A
// context whose program shows a class in avoid is skipped (counted, not
// run). A divergence in a context whose program shows a known class that
// is not avoided is counted in t.KnownFound (which is how a run that
// avoids nothing measures the known divergences); the first divergence
// without any known class is returned, shrunk when shrink is set.
func (r *Runner) Trial(ctx context.Context, p *Prog, avoid map[Class]bool, shrink bool, t *Tally) *Finding {
	t.Programs++
	body := p.String()
	var run []Context
	classes := map[Context]map[Class]bool{}
	for _, c := range Contexts {
		cl := Classify(p, c)
		classes[c] = cl
		if hits(cl, avoid) {
			t.Skipped++
			continue
		}
		run = append(run, c)
	}
	var found *Finding
	for _, res := range r.Compare(ctx, body, run) {
		switch res.Verdict {
		case Agree:
			t.Agree++
			continue
		case Refused:
			t.Refused++
			continue
		case BashBug:
			t.BashBug++
			continue
		}
		t.Differ++
		if cl := knownOnly(classes[res.Context]); len(cl) > 0 {
			// Counted only where the class is the program's only one,
			// so that the count says the class diverged.
			if len(cl) == 1 {
				for c := range cl {
					if t.KnownFound == nil {
						t.KnownFound, t.FirstKnown = map[Class]int{}, map[Class]int{}
					}
					if _, ok := t.FirstKnown[c]; !ok {
						t.FirstKnown[c] = t.Programs
					}
					t.KnownFound[c]++
				}
			}
			continue
		}
		if found != nil {
			continue
		}
		found = &Finding{Context: res.Context, Original: body, Minimal: body, Result: res}
		if shrink && !r.diverges(ctx, body, res) {
			// Run once more before shrinking: a side out of time on a
			// loaded machine (or a race) does not come back, and
			// shrinking it would only run out of time again and again.
			found.Unreproduced = true
		} else if shrink {
			min := r.ShrinkResult(ctx, p, res)
			found.Minimal = min.String()
			if m := r.Compare(ctx, found.Minimal, []Context{res.Context}); len(m) == 1 && m[0].Verdict == Differ {
				found.Result = m[0]
			} else {
				found.Unreproduced = true
			}
		}
	}
	return found
}

// knownOnly is cl without the fixed classes: a program that shows only
// those is held to agree like any other (Classify names every class a
// statement was tagged with, fixed or not).
func knownOnly(cl map[Class]bool) map[Class]bool {
	out := map[Class]bool{}
	for c := range cl {
		if _, fixed := Fixed[c]; !fixed {
			out[c] = true
		}
	}
	return out
}

func hits(cl, avoid map[Class]bool) bool {
	for c := range cl {
		if avoid[c] {
			return true
		}
	}
	return false
}

// ShrinkResult shrinks a program that diverged in res's context to a
// minimal one that still diverges there in the same way: the same fields
// differ (status, stdout, stderr, files, a side's failure to run), and no
// known class appears that the original did not show, so that the
// shrinker does not wander into another divergence.
func (r *Runner) ShrinkResult(ctx context.Context, p *Prog, res Result) *Prog {
	want := signature(res)
	orig := Classify(p, res.Context)
	return Shrink(p, func(c *Prog) bool {
		for cl := range Classify(c, res.Context) {
			if !orig[cl] {
				return false
			}
		}
		got := r.Compare(ctx, c.String(), []Context{res.Context})
		return len(got) == 1 && got[0].Verdict == Differ && signature(got[0]) == want
	})
}

// diverges runs body again in res's context: whether it diverges there
// in the same way.
func (r *Runner) diverges(ctx context.Context, body string, res Result) bool {
	got := r.Compare(ctx, body, []Context{res.Context})
	return len(got) == 1 && got[0].Verdict == Differ && signature(got[0]) == signature(res)
}

// signature is which parts of a Differ result differ.
func signature(r Result) string {
	if r.CheckFailure != "" {
		return "check"
	}
	var s []string
	for _, f := range []struct {
		name string
		d    bool
	}{
		{"err", r.Jaiph.Err != r.Bash.Err},
		{"status", r.Jaiph.Status != r.Bash.Status},
		{"stdout", r.Jaiph.Stdout != r.Bash.Stdout},
		{"stderr", r.Jaiph.Stderr != r.Bash.Stderr},
		{"files", r.Jaiph.Files != r.Bash.Files},
	} {
		if f.d {
			s = append(s, f.name)
		}
	}
	return strings.Join(s, ",")
}
