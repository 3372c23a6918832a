package codet

// nodeChunkBits sets the size of a chunk of the node store: 4,096 nodes.
const nodeChunkBits = 12

// nodeStore holds the nodes of the corpus tree in chunks of a fixed
// size, addressed by node number. The tree grows by whole chunks and
// never moves a node: a slice that doubled would copy every node under
// the Detector's exclusive lock, a large share of the locked part of Add
// in a tree of millions of nodes (figures: docs/notes/codet.md).
type nodeStore struct {
	chunks [][]node
	n      int
	// spare is an empty chunk allocated outside the exclusive lock
	// ([nodeStore.needsChunk]), used by the next push that needs one.
	spare []node
}

// makeNodeStore returns a store of n zero nodes.
func makeNodeStore(n int) nodeStore {
	s := nodeStore{n: n}
	for left := n; left > 0; left -= 1 << nodeChunkBits {
		s.chunks = append(s.chunks, make([]node, min(left, 1<<nodeChunkBits), 1<<nodeChunkBits))
	}
	return s
}

// len returns the number of nodes, free ones included.
func (s *nodeStore) len() int { return s.n }

// at returns node c, which must be below len.
func (s *nodeStore) at(c uint32) *node {
	return &s.chunks[c>>nodeChunkBits][c&(1<<nodeChunkBits-1)]
}

// push appends nd and returns its number.
func (s *nodeStore) push(nd node) uint32 {
	c := uint32(s.n)
	k := int(c >> nodeChunkBits)
	if k == len(s.chunks) {
		if s.spare != nil {
			s.chunks = append(s.chunks, s.spare)
			s.spare = nil
		} else {
			s.chunks = append(s.chunks, make([]node, 0, 1<<nodeChunkBits))
		}
	}
	s.chunks[k] = append(s.chunks[k], nd)
	s.n++
	return c
}

// needsChunk reports whether n more pushes may need a chunk the store
// has no spare for.
func (s *nodeStore) needsChunk(n int) bool {
	return s.spare == nil && s.n+n > len(s.chunks)<<nodeChunkBits
}

// newChunk returns an empty chunk, for [nodeStore.spare].
func newChunk() []node { return make([]node, 0, 1<<nodeChunkBits) }
