package codet

import "github.com/seed-9ef9c1df/neardup/internal/hashtab"

// childTable maps (parent node, term) to the child node: the edges of the
// corpus tree. It is split in parts by the top bits of the pair's hash,
// each a hashtab.Map from the pair to the child that doubles on its own,
// so a growth under the exclusive lock copies one part (at 160,000
// documents the tree has 7.6 million edges, docs/notes/codet.md).
//
// No code iterates over the table, so its layout cannot change an answer.
type childTable struct {
	parts *[tableParts]hashtab.Map
}

// The parts of [childTable]: tableParts of them, chosen by the top
// tablePartBits bits of the hash.
const (
	tablePartBits = 8
	tableParts    = 1 << tablePartBits
)

// makeChildTable returns an empty table sized for n edges.
func makeChildTable(n int) childTable {
	t := childTable{parts: new([tableParts]hashtab.Map)}
	if n/tableParts > 0 {
		for i := range t.parts {
			t.parts[i].Reserve(n / tableParts)
		}
	}
	return t
}

// pairKey is the key of a (parent, term) pair in the children table and
// in a commit's table of created nodes.
func pairKey(parent, term uint32) uint64 { return uint64(parent)<<32 | uint64(term) }

// childKey returns the key of the pair and the part that holds it: the top
// tablePartBits bits of its hash (hashtab.Mix64).
func childKey(parent, term uint32) (key uint64, part int) {
	key = pairKey(parent, term)
	return key, int(hashtab.Mix64(key) >> (64 - tablePartBits))
}

// get returns the child of parent labelled term.
func (t *childTable) get(parent, term uint32) (uint32, bool) {
	if t.parts == nil {
		return 0, false
	}
	key, part := childKey(parent, term)
	return t.parts[part].Get(key)
}

// touch reads the home slot of the pair ahead of its probe and returns
// what it read, for the caller to keep ([descent.run]).
func (t *childTable) touch(parent, term uint32) uint32 {
	key, part := childKey(parent, term)
	keys := [1]uint64{key}
	return t.parts[part].Prefetch(keys[:])
}

// put sets the child of parent labelled term to child (not 0).
func (t *childTable) put(parent, term, child uint32) {
	if t.parts == nil {
		t.parts = new([tableParts]hashtab.Map)
	}
	key, part := childKey(parent, term)
	t.parts[part].Set(key, child)
}

// del removes the child of parent labelled term, if any.
func (t *childTable) del(parent, term uint32) {
	if t.parts == nil {
		return
	}
	key, part := childKey(parent, term)
	t.parts[part].Delete(key)
}
