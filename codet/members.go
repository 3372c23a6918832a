package codet

// Member lists. The documents of a content (group.members,
// nearContent.members) and the near-duplicate documents a group
// represents (group.nearDocs) are the engine's copy heaps by ID
// (engine.Push, engine.Delete), each document's position recorded
// (Detector.docPos for the first two, Detector.docPos2 for nearDocs): a
// further copy in a flood of N costs O(log N), and a result capped at k
// walks the heap from its root (heapCursor), O(k log k), never the N
// members.

import "github.com/seed-9ef9c1df/neardup/internal/engine"

// heapCursor yields the documents of a heap in ascending ID order without
// sorting it, and carries the near content its run leaves out.
type heapCursor struct {
	engine.Cursor
	skip uint32 // the run's near content to leave out (noGroup: none)
}
