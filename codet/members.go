package codet

// Member lists. The documents of a content (group.members,
// nearContent.members) and the near-duplicate documents a group represents
// (group.nearDocs) are binary min-heaps by ID (the engine's copy heaps), each
// document's position recorded (Detector.docPos for the first two,
// Detector.docPos2 for nearDocs), so that a further copy in a flood of N
// is an O(log N) heap insertion and its removal an O(log N) heap
// deletion, and a result capped at k reads the k smallest IDs of a list
// by walking the heap from its root (heapCursor), O(k log k), never the N
// members.

import "github.com/seed-9ef9c1df/neardup/internal/engine"

// heapAdd pushes document idx onto the heap h and returns it.
func (d *Detector) heapAdd(h []uint32, idx uint32, pos []uint32) []uint32 {
	return engine.Push(d.docs, h, idx, pos)
}

// heapDel removes document idx from the heap h and returns it. idx's own
// ID is never read (the caller may have unregistered it).
func (d *Detector) heapDel(h []uint32, idx uint32, pos []uint32) []uint32 {
	return engine.Delete(d.docs, h, idx, pos)
}

// byID returns the documents of a heap sorted by ID, in a new slice.
func (d *Detector) byID(h []uint32) []uint32 { return engine.Sorted(d.docs, h) }

// heapCursor yields the documents of a heap in ascending ID order without
// sorting it, and carries the near content its run leaves out.
type heapCursor struct {
	engine.Cursor
	skip uint32 // the run's near content to leave out (noGroup: none)
}
