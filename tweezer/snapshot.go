package tweezer

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Snapshot layout, version 1 (docs/snapshot.md in the repository has the
// framing). The header's Config is the effective Config; tweezer has no
// caller-owned table. Two sections follow:
//
//	"groups": count, then per group of exact copies, in ascending order of
//	          its smallest member ID:
//	            digest:u64 u64  key:u64 u64  caseless:bool
//	            hashes: count, u64 each ascending (set modes; none in Exact)
//	            members: count ≥ 1, str each in ascending order
//	"empty":  count, then the IDs of the documents without words, str each
//	          in ascending order
//
// Every later answer depends on the signatures and IDs only (results are
// ordered by score and ID), not on the order the documents arrived in, so
// no arrival order is stored. The trailer counts the live documents.
const (
	snapshotKind    = "tweezer"
	snapshotVersion = 1
)

func (d *Detector) header() snapshot.Header {
	return snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: d.signer.cfg}
}

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs and what the index keeps of their signatures,
// not their texts (docs/snapshot.md in the repository). The sections are
// encoded under a read lock, so the snapshot is consistent and concurrent
// Adds and Removes are either wholly in it or wholly not; w is written
// after the lock is released. It returns an error wrapping
// detector.ErrClosed after Close, or the error of w.
func (d *Detector) WriteTo(w io.Writer) (int64, error) {
	groups, empty, n, err := d.encode()
	if err != nil {
		return 0, err
	}
	sw := snapshot.NewWriter(w, d.header())
	sw.Section("groups", groups)
	sw.Section("empty", empty)
	return sw.Finish(uint64(n))
}

// encode returns the payloads of the two sections and the number of live
// documents, read under the lock.
func (d *Detector) encode() (groups, empty []byte, n int, err error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ix := d.ix
	if ix.docs.Closed() {
		return nil, nil, 0, fmt.Errorf("tweezer: WriteTo: %w", detector.ErrClosed)
	}
	type entry struct {
		g     uint32
		first string // the group's smallest ID
	}
	var live []entry
	var bare []string
	for idx, g := range ix.refs {
		switch {
		case !ix.docs.Live(uint32(idx)):
		case g == noGroup:
			bare = append(bare, ix.docs.ID(uint32(idx)))
		case ix.gs.Min(g, ix.groups[g].first) == uint32(idx):
			// A group's smallest member: each group is listed once.
			live = append(live, entry{g, ix.docs.ID(uint32(idx))})
		}
	}
	slices.SortFunc(live, func(a, b entry) int { return cmp.Compare(a.first, b.first) })
	slices.Sort(bare)

	var e snapshot.Enc
	e.Int(len(live))
	for _, l := range live {
		g := &ix.groups[l.g]
		e.Bytes16(g.digest)
		e.Bytes16(g.key)
		e.Bool(g.caseless)
		e.Int(len(g.hashes))
		for _, h := range g.hashes {
			e.U64(h)
		}
		e.Strings(ix.gs.IDs(l.g, g.first, noDoc))
	}
	groups = e.B
	e = snapshot.Enc{}
	e.Strings(bare)
	return groups, e.B, ix.docs.Len(), nil
}

// ReadFrom loads a snapshot written by WriteTo into d, which must be empty
// and made by New with the same Config, and returns the bytes read. It
// reads and checks the whole snapshot and builds a fresh index before it
// installs it, so on any error d stays empty. Loading costs the bytes read
// plus one index insertion per distinct signature; no text is signed.
//
// It returns an error wrapping detector.ErrClosed after Close, and one
// wrapping detector.ErrSnapshot for a d that is not empty and for input it
// cannot load: not a Tweezer snapshot of this layout, a Config differing
// from d's (the error names the field), a damaged or truncated stream.
func (d *Detector) ReadFrom(r io.Reader) (int64, error) {
	return snapshot.Load("tweezer", r, d.header(), []string{"groups", "empty"}, d.readable,
		func(secs [][]byte) (int, func() error, error) {
			ix, err := d.decode(secs[0], secs[1])
			if err != nil {
				return 0, nil, err
			}
			return ix.docs.Len(), func() error {
				d.mu.Lock()
				defer d.mu.Unlock()
				if err := d.emptyLocked(); err != nil {
					return err
				}
				d.ix = ix
				return nil
			}, nil
		})
}

// readable returns the error ReadFrom gives a closed or non-empty d.
func (d *Detector) readable() error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.emptyLocked()
}

func (d *Detector) emptyLocked() error { return d.ix.docs.Loadable() }

// decode builds a fresh index from the payloads of the two sections,
// checking that they are canonical: what it accepts, encode writes back
// byte for byte.
func (d *Detector) decode(groups, empty []byte) (*index, error) {
	ix := newIndex(d.signer.cfg.MaxTextBytes)
	setModes := d.signer.cfg.Mode != Exact
	add := func(dec *snapshot.Dec, id string) uint32 {
		idx, err := ix.docs.Add(detector.Doc{ID: id})
		if err != nil {
			dec.Fail("document %q twice", id)
		}
		return idx
	}

	dec := snapshot.NewDec(groups)
	// A group takes at least 16+16+1 bytes, two counts and one ID.
	n := dec.Len(37, 0)
	prev := ""
	for i := range n {
		s := docSig{digest: dec.Bytes16(), key: dec.Bytes16(), caseless: dec.Bool()}
		nh := dec.Len(8, 0)
		if dec.Err() == nil && (nh == 0) == setModes {
			dec.Fail("group with %d shingle hashes in %v mode", nh, d.signer.cfg.Mode)
		}
		if nh > 0 {
			s.hashes = make([]uint64, nh)
			for k := range s.hashes {
				s.hashes[k] = dec.U64()
				if k > 0 && s.hashes[k] <= s.hashes[k-1] && dec.Err() == nil {
					dec.Fail("shingle hashes out of order")
				}
			}
		}
		ids := dec.IDs(1)
		if dec.Err() != nil {
			return nil, dec.Err()
		}
		if i > 0 && ids[0] <= prev {
			dec.Fail("groups out of order")
			return nil, dec.Err()
		}
		prev = ids[0]
		if _, ok := ix.find(&s); ok {
			dec.Fail("two groups with one signature")
			return nil, dec.Err()
		}
		for _, id := range ids {
			idx := add(dec, id)
			if dec.Err() != nil {
				return nil, dec.Err()
			}
			ix.insert(idx, s)
		}
	}
	if err := dec.Done(); err != nil {
		return nil, err
	}

	dec = snapshot.NewDec(empty)
	for _, id := range dec.IDs(0) {
		idx := add(dec, id)
		if dec.Err() != nil {
			return nil, dec.Err()
		}
		ix.insert(idx, docSig{empty: true})
	}
	if err := dec.Done(); err != nil {
		return nil, err
	}
	return ix, nil
}
