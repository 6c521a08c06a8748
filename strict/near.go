package strict

import (
	"sort"
	"strings"
)

// Near returns the candidates that look like s: those that contain it or are
// contained in it, or are within a small edit distance, closest first.
func Near(s string, candidates []string) []string {
	type scored struct {
		c string
		d int
	}
	var hits []scored
	ls := strings.ToLower(s)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := distance(ls, lc)
		limit := max(2, len(ls)/3)
		switch {
		case d <= limit:
		case len(ls) >= 3 && len(lc) >= 3 && (strings.Contains(lc, ls) || strings.Contains(ls, lc)):
			d = limit + 1
		default:
			continue
		}
		hits = append(hits, scored{c, d})
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].d < hits[j].d })
	out := make([]string, 0, len(hits))
	for _, h := range hits {
		if len(out) == 5 {
			break
		}
		out = append(out, h.c)
	}
	return out
}

// distance is the Levenshtein distance between a and b.
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
