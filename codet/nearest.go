package codet

// Nearest: ranked lookup through the corpus tree (detector.Ranker).

import (
	"fmt"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
)

var _ detector.Ranker = (*Detector)(nil)

// Nearest returns the live documents most similar to text, best first,
// the min(k, Config.MaxResults) best by [detector.SortMatches], storing
// nothing (detector.Ranker). A document Query(text) reports has the score
// Query gives it; every other document C that shares a tree node with
// text (one of its sentences, its terms in idf order, begins with the
// rarest term of a sentence of text) is scored CS(C, text)/SCS(text) on
// the active nodes, below ETL too: the share of text's sentence-level,
// idf-weighted evidence found in C, the containment of text in C. In
// ModeTree a score of 1 means all of text's evidence is found in C (an
// exact copy scores 1); see the package doc, Nearest, for what other
// scores meant on the collections measured. Documents that share only nodes visited by more than
// NodeLimit contents (deactivated) are not returned unless Query reports
// them.
//
// Nearest costs a Query with every visitor list scanned, none set aside
// (and, for an exact copy of a live document, the scoring walk Query
// skips): O(L + s·PSC·DT·NodeLimit) for a text of L bytes with s
// sentences, plus O(g log g) to order the g groups met, under the
// detector's exclusive lock. With a full time window (Config.Window) it
// ranks, as Query answers, the documents an Add would meet, after the
// oldest leave.
//
// Nearest returns an error wrapping [detector.ErrInvalidConfig] for
// k ≤ 0, [detector.ErrTooLarge] for a text over Config.MaxTextBytes
// (before it reads the text) and [detector.ErrClosed] after Close.
func (d *Detector) Nearest(text string, k int) ([]detector.Match, error) {
	if k <= 0 {
		return nil, fmt.Errorf("codet: Nearest(k=%d): k must be at least 1: %w", k, detector.ErrInvalidConfig)
	}
	if len(text) > d.s.MaxTextBytes {
		return nil, fmt.Errorf("codet: Nearest: %d bytes over the limit of %d: %w",
			len(text), d.s.MaxTextBytes, detector.ErrTooLarge)
	}
	d.mu.RLock()
	closed := d.docs.Closed()
	d.mu.RUnlock()
	if closed {
		return nil, fmt.Errorf("codet: Nearest: %w", detector.ErrClosed)
	}
	w, err := d.pool.get()
	if err != nil {
		return nil, fmt.Errorf("codet: Nearest: %v: %w", err, detector.ErrInvalidConfig)
	}
	defer d.pool.put(w)
	ad := d.analyze(w, detector.Doc{Text: text})
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.docs.Closed() { // closed meanwhile
		return nil, fmt.Errorf("codet: Nearest: %w", detector.ErrClosed)
	}
	if d.s.Window > 0 && d.docs.Len() >= d.s.Window {
		ev := d.evictees()
		switch {
		case len(ev.docs) == d.docs.Len():
			return []detector.Match{}, nil // Add would find the detector empty
		case ev.compacts:
			return d.nearestCopy(text, k)
		}
		d.ev = ev
		defer func() { d.ev = nil }()
	}
	d.lookupTerms(w, ad)
	defer d.endAdd(w)
	d.rank = true
	defer func() { d.rank = false }()
	return d.nearestLocked(min(k, d.s.MaxResults)), nil
}

// nearestLocked is Nearest under the lock for the document in d.buf: the
// runs of Query, and a run for every other group the probe touched on an
// active node, scored CS/SCS of the document on the active nodes.
func (d *Detector) nearestLocked(limit int) []detector.Match {
	if d.buf.n() == 0 {
		return []detector.Match{}
	}
	runs, covered, scs := d.queryRuns(nil)
	if scs < 0 { // answered from stored relations: probe for the others
		stats := d.stats
		scs = d.probe()
		d.stats = stats
	}
	if !(scs > 0) {
		return d.emitTop(runs, noGroup, limit)
	}
	slices.Sort(covered)
	for _, j := range d.ranked {
		t := &d.tally[j]
		if t.acc <= 0 || d.groups[j].scs <= 0 {
			continue
		}
		if _, ok := slices.BinarySearch(covered, j); ok {
			continue
		}
		gr := &d.groups[j]
		runs = append(runs, run{[][]uint32{gr.members, gr.nearDocs}, noGroup, t.acc / scs})
	}
	if cap(d.ranked) > scratchCap {
		d.ranked = nil
	}
	return d.emitTop(runs, noGroup, limit)
}

// nearestCopy answers Nearest from a private copy of the index when an
// Add would first evict documents of a full window and compact the
// vocabulary (see Query): the copy, made as a snapshot is, evicts them
// and ranks. The caller holds the lock.
func (d *Detector) nearestCopy(text string, k int) ([]detector.Match, error) {
	secs, _ := d.encodeLocked()
	c, err := newDetector(d.s.Config, d.callerIDF)
	if err != nil {
		return nil, err
	}
	if err := c.load(secs); err != nil {
		return nil, fmt.Errorf("codet: Nearest: copying the index: %w", err)
	}
	for c.docs.Len() >= c.s.Window && c.head < len(c.queue) {
		c.evictOldest()
	}
	return c.Nearest(text, k)
}
