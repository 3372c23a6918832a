package simhash

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/internal/liveidf"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Snapshot layout, version 1 (docs/snapshot.md in the repository has the
// framing). The header's Config is the effective Config; its tables are
// the caller's IDF table of [NewWithIDF] ("idf", by textproc's
// IDF.Fingerprint) when the Config reads idf weights, and none otherwise.
// Two sections follow:
//
//	"groups": count, then per group of exact copies (equal content digest
//	          and fingerprint), in ascending order of its smallest member ID:
//	            has:bool  fingerprint:u64 (0 when has is false)
//	            digest:u64 u64
//	            terms: count ≥ 1, str each (only for a Detector that owns
//	                   its online table: the group's distinct terms in
//	                   first-seen order, which the table counts per member)
//	            members: count ≥ 1, str each in ascending order
//	"bare":   count, then the IDs of the documents without terms, str each
//	          in ascending order
//
// The fingerprints are stored, not recomputed: with an online table they
// depend on the table as it was when each document was added. The online
// table itself is rebuilt by counting each member's terms, which gives the
// same document frequencies and so the same weights for every later Add.
// Every later answer depends on the IDs, fingerprints, digests and (with
// an online table) the counted terms only, not on the order the documents
// arrived in, so no arrival order is stored. The trailer counts the live
// documents.
const (
	snapshotKind    = "simhash"
	snapshotVersion = 1
)

func (d *Detector) header() snapshot.Header {
	h := snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: d.cfg}
	if d.idf != nil && d.cfg.usesIDF() {
		h.Tables = map[string]uint64{"idf": d.idf.Fingerprint()}
	}
	return h
}

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs, fingerprints and content digests, grouped by
// exact copies, and for a Detector from [New] that keeps its own online
// table the distinct terms that table counts (once per group of copies);
// not their texts (docs/snapshot.md in the repository). The sections are
// encoded under a read lock, so the snapshot is consistent: concurrent
// Adds and Removes are either wholly in it or wholly not. w is written
// after the lock is released. It returns an error wrapping
// detector.ErrClosed after Close, or the error of w.
func (d *Detector) WriteTo(w io.Writer) (int64, error) {
	groups, bare, n, err := d.encode()
	if err != nil {
		return 0, err
	}
	sw := snapshot.NewWriter(w, d.header())
	sw.Section("groups", groups)
	sw.Section("bare", bare)
	return sw.Finish(uint64(n))
}

// encode returns the payloads of the two sections and the number of live
// documents, read under the lock.
func (d *Detector) encode() (groups, bare []byte, n int, err error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	st := d.st
	if st.docs.Closed() {
		return nil, nil, 0, fmt.Errorf("simhash: WriteTo: %w", detector.ErrClosed)
	}
	type entry struct {
		rep   uint32
		first string // the group's smallest ID
	}
	var reps []entry
	var loose []string
	for i := range st.fps {
		idx := uint32(i)
		if !st.docs.Live(idx) {
			continue
		}
		if !st.hasDig[idx] {
			loose = append(loose, st.docs.ID(idx))
			continue
		}
		if st.groupOf(idx) == idx { // each group is listed once
			reps = append(reps, entry{idx, st.docs.ID(st.gs.Min(idx, idx))})
		}
	}
	slices.SortFunc(reps, func(a, b entry) int { return cmp.Compare(a.first, b.first) })
	slices.Sort(loose)

	var e snapshot.Enc
	e.Int(len(reps))
	var ids []string
	for _, r := range reps {
		e.Bool(st.has[r.rep])
		e.U64(st.fps[r.rep])
		e.Bytes16(st.digest[r.rep])
		if st.own {
			terms, ok := unpack(st.packed[r.rep])
			if !ok {
				return nil, nil, 0, fmt.Errorf("simhash: WriteTo: the packed terms of %q do not decode", r.first)
			}
			e.Strings(terms)
		}
		ids = ids[:0]
		for _, o := range st.gs.AppendMembers(nil, r.rep, r.rep) {
			ids = append(ids, st.docs.ID(o))
		}
		slices.Sort(ids)
		e.Strings(ids)
	}
	groups = e.B
	e = snapshot.Enc{}
	e.Strings(loose)
	return groups, e.B, st.docs.Len(), nil
}

// unpack returns the terms of a string liveidf.Pack made, and false if it
// is not one (the check that Pack gives p back).
func unpack(p string) ([]string, bool) {
	var terms []string
	for rest := p; len(rest) > 0; {
		l, k := binary.Uvarint([]byte(rest[:min(len(rest), binary.MaxVarintLen64)]))
		if k <= 0 || uint64(len(rest)-k) < l {
			return nil, false
		}
		terms = append(terms, rest[k:k+int(l)])
		rest = rest[k+int(l):]
	}
	return terms, liveidf.Pack(terms) == p
}

// ReadFrom loads a snapshot written by WriteTo into d, which must be empty
// and made by the same constructor with the same Config and, for
// [NewWithIDF], an IDF table of the same content; it returns the bytes
// read. It reads and checks the whole snapshot and builds a fresh index
// before it installs it, so on any error d stays empty. Loading costs the
// bytes read plus one index insertion per group of copies and, with an
// online table, counting each document's terms; no text is analysed or
// signed.
//
// It returns an error wrapping detector.ErrClosed after Close, and one
// wrapping detector.ErrSnapshot for a d that is not empty and for input it
// cannot load: not a SimHash snapshot of this layout, a Config differing
// from d's (the error names the field), another IDF table or none where d
// has one (the error names the table), a damaged or truncated stream.
func (d *Detector) ReadFrom(r io.Reader) (int64, error) {
	return snapshot.Load("simhash", r, d.header(), []string{"groups", "bare"}, d.readable,
		func(secs [][]byte) (int, func() error, error) {
			st, counts, err := d.decode(secs[0], secs[1])
			if err != nil {
				return 0, nil, err
			}
			install := func() error {
				d.mu.Lock()
				defer d.mu.Unlock()
				if err := d.emptyLocked(); err != nil {
					return err
				}
				if d.turns != nil {
					// In our turn, after every earlier Add is inserted:
					// the table of an empty Detector counts nothing.
					tbl := d.turns.Table()
					for _, c := range counts {
						st.handle[c.idx] = tbl.AddPacked(c.terms, st.packed[c.idx])
					}
				}
				d.st = st
				return nil
			}
			if d.turns == nil {
				return st.docs.Len(), install, nil
			}
			return st.docs.Len(), func() error { return d.turns.Do(install) }, nil
		})
}

// readable returns the error ReadFrom gives a closed or non-empty d.
func (d *Detector) readable() error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.emptyLocked()
}

func (d *Detector) emptyLocked() error { return d.st.docs.Loadable() }

// count is a document to count in the own table as a snapshot is
// installed.
type count struct {
	idx   uint32
	terms []string
}

// decode builds a fresh state from the payloads of the two sections,
// checking that they are canonical (what it accepts, encode writes back
// byte for byte), and returns the documents the own table must count.
func (d *Detector) decode(groups, bare []byte) (*state, []count, error) {
	st, err := newState(d.cfg, d.online, d.turns != nil)
	if err != nil {
		return nil, nil, err
	}
	add := func(dec *snapshot.Dec, id string) uint32 {
		idx, err := st.docs.Add(detector.Doc{ID: id})
		if err != nil {
			dec.Fail("document %q twice", id)
		}
		return idx
	}
	var counts []count
	byDigest := map[hashx.Digest]string{} // the packed terms of each digest
	dec := snapshot.NewDec(groups)
	// A group takes at least 1+8+16 bytes and a count with one ID.
	n := dec.Len(28, 0)
	prev := ""
	for i := range n {
		has := dec.Bool()
		fp := dec.U64()
		dig := hashx.Digest(dec.Bytes16())
		if dec.Err() == nil && !has && fp != 0 {
			dec.Fail("fingerprint %#x of a group without one", fp)
		}
		var terms []string
		packed := ""
		if st.own {
			terms = dec.Strings(1, false, "terms")
			packed = liveidf.Pack(terms)
		}
		ids := dec.Strings(1, true, "IDs")
		if dec.Err() != nil {
			return nil, nil, dec.Err()
		}
		if i > 0 && ids[0] <= prev {
			dec.Fail("groups out of order")
			return nil, nil, dec.Err()
		}
		prev = ids[0]
		if _, ok := st.find(fp, has, dig); ok {
			dec.Fail("two groups with one fingerprint and digest")
			return nil, nil, dec.Err()
		}
		if p, ok := byDigest[dig]; ok && (!st.online || p != packed) {
			// Equal texts have equal fingerprints unless the table can
			// change, and always the same terms.
			dec.Fail("two groups of one digest")
			return nil, nil, dec.Err()
		}
		byDigest[dig] = packed
		for _, id := range ids {
			idx := add(dec, id)
			if dec.Err() != nil {
				return nil, nil, dec.Err()
			}
			st.insert(idx, fp, has, dig, true, -1, packed)
			if st.own {
				counts = append(counts, count{idx, terms})
			}
		}
	}
	if err := dec.Done(); err != nil {
		return nil, nil, err
	}

	dec = snapshot.NewDec(bare)
	for _, id := range dec.Strings(0, true, "IDs") {
		idx := add(dec, id)
		if dec.Err() != nil {
			return nil, nil, dec.Err()
		}
		st.insert(idx, 0, false, hashx.Digest{}, false, -1, "")
	}
	if err := dec.Done(); err != nil {
		return nil, nil, err
	}
	return st, counts, nil
}
