package detector

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/zeebo/xxh3"
)

// SnapshotID names a snapshot, so that a [Journal] can say which one it
// continues: the xxh3-64 hash of the snapshot's bytes (never 0), from
// [WriteSnapshot] or [ReadSnapshot]. Snapshots are canonical, so a detector
// loaded from a snapshot and written again gives the same ID. The zero
// SnapshotID names no snapshot: a detector that started empty.
type SnapshotID uint64

// String returns "snapshot " and the ID in hexadecimal, or "no snapshot"
// for 0.
func (id SnapshotID) String() string {
	if id == 0 {
		return "no snapshot"
	}
	return fmt.Sprintf("snapshot %016x", uint64(id))
}

// snapshotID returns the SnapshotID of the bytes h hashed.
func snapshotID(h *xxh3.Hasher) SnapshotID {
	if s := h.Sum64(); s != 0 {
		return SnapshotID(s)
	}
	return 1 // 0 means no snapshot
}

// WriteSnapshot writes p's snapshot to w, as p.WriteTo does, and returns
// its ID for [NewJournalAt] with the bytes written. Hashing the bytes as
// they pass costs a small fraction of writing them. Hold off the Adds and
// Removes that the journal is to record until the journal exists, or they
// fall between the snapshot and the journal.
func WriteSnapshot(p Persister, w io.Writer) (SnapshotID, int64, error) {
	h := xxh3.New()
	n, err := p.WriteTo(io.MultiWriter(w, h))
	if err != nil {
		return 0, n, err
	}
	return snapshotID(h), n, nil
}

// ReadSnapshot loads the snapshot r holds (all of r) into p, as p.ReadFrom
// does, and returns its ID for [ReplayContext] with the bytes read.
//
// When ctx is done while r is being read, ReadSnapshot returns an error
// wrapping ctx.Err() without waiting for the Read under way (which is left
// to finish on its own goroutine, its bytes dropped: a caller that owns r
// may close it), and p stays empty, as after any snapshot it refuses.
// Rebuilding the detector from what was read, after the last Read, is not
// interrupted: once r is read, the load completes.
func ReadSnapshot(ctx context.Context, p Persister, r io.Reader) (SnapshotID, int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, 0, fmt.Errorf("detector: ReadSnapshot: %w", err)
	}
	h := xxh3.New()
	if ctx.Done() != nil {
		r = newCtxReader(ctx, r)
	}
	n, err := p.ReadFrom(io.TeeReader(r, h))
	if err != nil {
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			err = fmt.Errorf("%w (%w)", err, cerr)
		}
		return 0, n, err
	}
	return snapshotID(h), n, nil
}

// ctxReader reads r ahead in pieces, each on a goroutine of its own, so
// that a Read returns as soon as ctx is done even while r blocks. A piece
// whose Read outlives ctx is left to its goroutine: the reader then drops
// its buffer and returns ctx's error from then on.
type ctxReader struct {
	ctx      context.Context
	r        io.Reader
	buf      []byte
	off, end int // buf[off:end] is read and not returned
	err      error
}

type readResult struct {
	n   int
	err error
}

func newCtxReader(ctx context.Context, r io.Reader) *ctxReader {
	return &ctxReader{ctx: ctx, r: r, buf: make([]byte, 64<<10)}
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for c.off == c.end {
		if c.err != nil {
			return 0, c.err
		}
		c.fill()
	}
	k := copy(p, c.buf[c.off:c.end])
	c.off += k
	return k, nil
}

// fill reads the next piece, or sets c.err.
func (c *ctxReader) fill() {
	if err := c.ctx.Err(); err != nil {
		c.err = fmt.Errorf("reading stopped: %w", err)
		return
	}
	done := make(chan readResult, 1)
	buf, r := c.buf, c.r
	go func() {
		n, err := r.Read(buf)
		done <- readResult{n, err}
	}()
	select {
	case res := <-done:
		c.off, c.end, c.err = 0, res.n, res.err
	case <-c.ctx.Done():
		c.buf, c.off, c.end = nil, 0, 0 // the goroutine keeps it
		c.err = fmt.Errorf("reading stopped: %w", c.ctx.Err())
	}
}
