package engine

import "slices"

// DeletePosting removes v from the posting list of k in m, and drops k when its
// list becomes empty, so the map shrinks with the live set. The order of the
// remaining entries is not kept (the last entry moves into the gap): use it
// where lists are sets.
func DeletePosting[K, V comparable](m map[K][]V, k K, v V) {
	p := m[k]
	if i := slices.Index(p, v); i >= 0 {
		p[i] = p[len(p)-1]
		p = p[:len(p)-1]
	}
	storePosting(m, k, p)
}

// DeletePostingOrdered is Delete for lists whose order matters (for example lists
// kept in arrival order so results are deterministic): the remaining
// entries keep their order.
func DeletePostingOrdered[K, V comparable](m map[K][]V, k K, v V) {
	p := m[k]
	if i := slices.Index(p, v); i >= 0 {
		p = slices.Delete(p, i, i+1)
	}
	storePosting(m, k, p)
}

// store puts p back under k, or drops k when p is empty.
func storePosting[K comparable, V any](m map[K][]V, k K, p []V) {
	if len(p) == 0 {
		delete(m, k)
		return
	}
	m[k] = p
}
