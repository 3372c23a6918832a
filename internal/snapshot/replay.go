package snapshot

import (
	"sync"
	"unsafe"
)

// The replay marker lets detector.Replay apply a journalled document whose
// text is over the receiving detector's MaxTextBytes: the record was
// accepted when it was written, and the limit bounds what a caller may send
// now (it may be lowered across a restart), not what was stored.
//
// Replay marks the text it is about to add; the shared size check
// (internal/engine, through Replayed) lets a marked text through. A text
// is known by the address and length of its bytes, which only Replay holds (it allocates
// each text it reads), so no other caller's text is ever let through, and
// combinators that hand the same string to the detectors they wrap keep the
// mark. Safe for concurrent use.

// replayKey is a text by the address and length of its bytes.
type replayKey struct {
	p *byte
	n int
}

var marked sync.Map // replayKey → struct{}

// MarkReplayed lets text past the size check until the returned release is called.
// An empty text needs no mark.
func MarkReplayed(text string) (release func()) {
	if text == "" {
		return func() {}
	}
	k := replayKey{unsafe.StringData(text), len(text)}
	marked.Store(k, struct{}{})
	return func() { marked.Delete(k) }
}

// Replayed reports whether text is marked: the very bytes Replay marked, not
// merely the same content.
func Replayed(text string) bool {
	if text == "" {
		return false
	}
	_, ok := marked.Load(replayKey{unsafe.StringData(text), len(text)})
	return ok
}
