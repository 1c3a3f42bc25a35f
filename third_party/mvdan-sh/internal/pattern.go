// Copyright (c) 2026, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package internal

import (
	"regexp"
	"unicode/utf8"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/pattern"
)

// ExtendedPatternMatcher returns a [regexp.Regexp.MatchString]-like function
// to support !(pattern-list) extended patterns where possible.
// It can be used instead of [pattern.Regexp] for narrow use cases.
// jaiph-go patch: a match by bash's matcher gives up once done is closed
// (see [NewGmatch]).
func ExtendedPatternMatcher(pat string, mode pattern.Mode, done <-chan struct{}) (func(string) bool, error) {
	if mode&pattern.ExtendedOperators != 0 && mode&pattern.EntireString == 0 {
		// In the future we could try to support !(pattern) without matching
		// the entire input, ensuring we add enough test cases.
		panic("ExtendedOperators is only supported with EntireString")
	}
	ext := mode&pattern.ExtendedOperators != 0
	if UseGmatch(pat, ext) {
		// jaiph-go patch: bash's own algorithm (gmatch.go), see
		// UseGmatch.
		return NewGmatch(pat, ext, mode&pattern.NoGlobCase != 0, mode&pattern.Filenames != 0, done).Match, nil
	}
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return nil, err
	}
	rx := regexp.MustCompile(expr)
	return func(s string) bool {
		if !utf8.ValidString(s) {
			// jaiph-go patch: bash matches such a string byte by
			// byte; Go's regexp reads its bytes as U+FFFD.
			return NewGmatch(pat, ext, mode&pattern.NoGlobCase != 0, mode&pattern.Filenames != 0, done).Match(s)
		}
		return rx.MatchString(s)
	}, nil
}
