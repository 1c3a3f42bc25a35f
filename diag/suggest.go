package diag

import (
	"sort"
	"unicode/utf8"
)

// Suggest returns `. Did you mean "X"?` for the candidate closest to name
// by edit distance (Levenshtein, over runes), or "" when none is close: a
// distance of at most a third of name's length (at least 1, at most 3).
// Ties go to the candidate first in sorted order, so the text is stable.
func Suggest(name string, candidates []string) string {
	limit := min(max(utf8.RuneCountInString(name)/3, 1), 3)
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	best, bestD := "", limit+1
	for _, c := range sorted {
		if c == name || c == "" {
			continue
		}
		if d := distance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return `. Did you mean "` + best + `"?`
}

// distance is the Levenshtein distance between a and b, over runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
