// Package postings holds the posting-list maintenance that detectors with a
// map from a key (digest, band key, shingle) to the dense indexes of the
// documents holding it share.
package postings

import "slices"

// Delete removes idx from the posting list of k in m, and drops k when its
// list becomes empty, so the map shrinks with the live set. The order of the
// remaining entries is not kept (the last entry moves into the gap).
func Delete[K comparable](m map[K][]uint32, k K, idx uint32) {
	p := m[k]
	if i := slices.Index(p, idx); i >= 0 {
		p[i] = p[len(p)-1]
		p = p[:len(p)-1]
	}
	if len(p) == 0 {
		delete(m, k)
	} else {
		m[k] = p
	}
}
