package minhash

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// queryRetries is how many times a Query in Weighted mode with online
// statistics weighs and samples outside the lock before it does so under
// it: each attempt is void when the index changed meanwhile.
const queryRetries = 2

// Query returns what Add(doc) would return now, without indexing doc or
// changing anything a later call observes: the live documents that
// contain doc (its near-duplicates in Jaccard and Weighted modes), the
// Config.MaxResults strongest, ordered by [detector.SortMatches]. doc.ID
// may be empty; a live document with that ID is not reported. In Weighted
// mode with online statistics doc is weighed as Add would weigh it, as if
// counted into the statistics, which are left unchanged; a Query then
// waits for Adds that are signing to finish.
//
// Query analyses and signs doc outside the Detector's lock and costs what
// Add does. It returns an error wrapping detector.ErrClosed after Close,
// or detector.ErrTooLarge for a text over Config.MaxTextBytes, before it
// reads the text.
func (d *Detector) Query(doc detector.Doc) ([]detector.Match, error) {
	return d.signed("Query", doc, func(sig []uint32, size int, digest uint64) []detector.Match {
		return d.lookup(doc.ID, sig, size, digest)
	})
}

// signed signs doc as Query does and returns what answer, called under
// the Detector's exclusive lock on an open index, makes of the signature
// (sig, size, digest). op names the call in errors: ErrTooLarge before
// the text is read, ErrClosed after Close.
func (d *Detector) signed(op string, doc detector.Doc, answer func(sig []uint32, size int, digest uint64) []detector.Match) ([]detector.Match, error) {
	if len(doc.Text) > d.cfg.MaxTextBytes {
		return nil, fmt.Errorf("minhash: %s(%q): %d bytes over the limit of %d: %w",
			op, doc.ID, len(doc.Text), d.cfg.MaxTextBytes, detector.ErrTooLarge)
	}
	if err := d.open(op, doc.ID); err != nil {
		return nil, err
	}
	sk := d.pool.Get().(*Sketcher)
	defer func() {
		sk.shrink()
		d.pool.Put(sk)
	}()
	if d.online {
		return d.queryOnline(op, sk, doc, answer)
	}
	sig, size, digest := d.sign(sk, doc.Text)
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.openLocked(op, doc.ID); err != nil {
		return nil, err
	}
	return answer(sig, size, digest), nil
}

// open returns an error wrapping detector.ErrClosed after Close.
func (d *Detector) open(op, id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.openLocked(op, id)
}

func (d *Detector) openLocked(op, id string) error {
	if d.ix.docs.Closed() {
		return fmt.Errorf("minhash: %s(%q): %w", op, id, detector.ErrClosed)
	}
	return nil
}

// lookup returns the matches of a document signed (sig, size, digest)
// under the ID id, as Add would give them now. Caller holds mu.
func (d *Detector) lookup(id string, sig []uint32, size int, digest uint64) []detector.Match {
	if size == 0 {
		return []detector.Match{}
	}
	skip := uint32(noDoc)
	if id != "" {
		if idx, err := d.ix.docs.Lookup("Query", id); err == nil {
			skip = idx
		}
	}
	if g, ok := d.find(d.ix, sig, size, digest); ok {
		if d.cfg.Mode != Weighted {
			return d.matchGroup(g, skip) // Add would join g
		}
		// Add would join g and give it this signature.
		return d.match(probe{sig: sig, size: size, digest: digest, own: g, skip: skip})
	}
	return d.match(probe{sig: sig, size: size, digest: digest, own: noGroup, skip: skip})
}

// queryOnline is Query (or another lookup: op, answer as in signed) in
// Weighted mode with online statistics. It reads
// the statistics when no Add is between counting and indexing (so that
// they describe the indexed documents exactly), weighs and samples outside
// the lock, and answers if the index has not changed meanwhile; after
// queryRetries attempts it samples under the lock.
func (d *Detector) queryOnline(op string, sk *Sketcher, doc detector.Doc, answer func(sig []uint32, size int, digest uint64) []detector.Match) ([]detector.Match, error) {
	sk.phrases(doc.Text)
	size, digest := len(sk.keys), setDigest(sk.keys)
	d.mu.Lock()
	defer d.mu.Unlock()
	for attempt := 0; ; attempt++ {
		for d.done.Load() != d.issued && !d.ix.docs.Closed() {
			d.turn.Wait()
		}
		if err := d.openLocked(op, doc.ID); err != nil {
			return nil, err
		}
		if size == 0 {
			return []detector.Match{}, nil
		}
		version := d.version
		sk.countAsIf(d.stats)
		if attempt >= queryRetries {
			sk.weighCounted()
			sk.out = sk.sampleWeighted(sk.out[:0])
			return answer(sk.out, size, digest), nil
		}
		d.mu.Unlock()
		sk.weighCounted()
		sk.out = sk.sampleWeighted(sk.out[:0])
		d.mu.Lock()
		if d.version == version {
			if err := d.openLocked(op, doc.ID); err != nil {
				return nil, err
			}
			return answer(sk.out, size, digest), nil
		}
	}
}
