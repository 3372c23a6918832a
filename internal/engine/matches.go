package engine

import "github.com/seed-9ef9c1df/neardup/detector"

// Top orders ms by [detector.SortMatches], keeps the first limit of them
// when limit > 0, and returns the result, never nil: an empty result is an
// empty slice, which encodes to JSON as [] rather than null. It reuses ms's
// array.
func Top(ms []detector.Match, limit int) []detector.Match {
	if ms == nil {
		return []detector.Match{}
	}
	detector.SortMatches(ms)
	if limit > 0 && len(ms) > limit {
		ms = ms[:limit:limit]
	}
	return ms
}

// Best reorders cands so that those whose score is among the limit highest
// (with every candidate tied at the limit-th score) come first, and
// returns them, in no particular order; it returns cands whole when limit
// ≤ 0 or there are no more than limit. A caller that sorts only the
// survivors pays O(n log limit) instead of O(n log n) when far more
// candidates than the cap pass its threshold.
func Best[T any](cands []T, limit int, score func(T) float64) []T {
	if limit <= 0 || len(cands) <= limit {
		return cands
	}
	// A min-heap of the limit highest scores seen: its root is the cut.
	h := make([]float64, 0, limit)
	for _, c := range cands {
		s := score(c)
		switch {
		case len(h) < limit:
			h = append(h, s)
			for i := len(h) - 1; i > 0 && h[(i-1)/2] > h[i]; i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
		case s > h[0]:
			h[0] = s
			for i := 0; ; {
				m, l, r := i, 2*i+1, 2*i+2
				if l < len(h) && h[l] < h[m] {
					m = l
				}
				if r < len(h) && h[r] < h[m] {
					m = r
				}
				if m == i {
					break
				}
				h[i], h[m] = h[m], h[i]
				i = m
			}
		}
	}
	cut, n := h[0], 0
	for i, c := range cands {
		if score(c) >= cut {
			cands[n], cands[i] = cands[i], cands[n]
			n++
		}
	}
	return cands[:n]
}
