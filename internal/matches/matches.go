// Package matches finishes the result lists every detector returns.
package matches

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
