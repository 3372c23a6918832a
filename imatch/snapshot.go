package imatch

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/liveidf"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Snapshot layout, version 1 (docs/snapshot.md in the repository has the
// framing). The header's Config is the effective Config. A Detector of
// [NewWithIDF] names the caller's table by its fingerprint
// (textproc.IDF.Fingerprint), as "idf" when the table was frozen when the
// Detector was built and "idf-unfrozen" when it was not (the two index
// different keys); a Detector of [New] has no caller-owned table: its own
// online table is rebuilt from the terms stored below. Two sections
// follow:
//
//	"groups": count, then per content (the live documents of one analysed
//	          term sequence), in ascending order of its smallest member ID:
//	            content: u64 u64 (the exact-content digest)
//	            terms: own table only: count ≥ 1, str each, distinct, in
//	                   the order of their first occurrence in the text
//	            groups: count ≥ 1 (exactly 1 with a frozen table), per key
//	                    list in ascending order of its smallest member ID:
//	              keys: count, then lexicon:uvarint digest:u64 u64 each,
//	                    lexicons strictly ascending, at most Lexicons
//	              members: count ≥ 1, str each in ascending order
//	"empty":  count, then the IDs of the documents without terms, str each
//	          in ascending order
//
// The exact-content key is not stored: a key list carries it when the
// table can change or the list has no lexicon key, as Add decides. Every
// later answer depends on the keys, the IDs and the online table's counts
// (its document frequencies and N, which the terms of the live documents
// determine), not on the order the documents arrived in, so no arrival
// order is stored. The trailer counts the live documents.
const (
	snapshotKind    = "imatch"
	snapshotVersion = 1
)

func (d *Detector) header() snapshot.Header {
	h := snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: d.cfg}
	if d.idf != nil {
		// Named by the table's state when the Detector was built, which
		// decided whether every document carries the exact-content key.
		name := "idf"
		if d.exact {
			name = "idf-unfrozen"
		}
		h.Tables = map[string]uint64{name: d.idf.Fingerprint()}
	}
	return h
}

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs, their keys (one list per group of copies)
// and, for a Detector of [New], the distinct terms of each content, from
// which ReadFrom rebuilds the online table; not their texts
// (docs/snapshot.md in the repository). The sections are encoded under a
// read lock, so the snapshot is consistent and concurrent Adds and Removes
// are either wholly in it or wholly not; w is written after the lock is
// released. It returns an error wrapping detector.ErrClosed after Close,
// or the error of w.
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
		return nil, nil, 0, fmt.Errorf("imatch: WriteTo: %w", detector.ErrClosed)
	}
	type entry struct {
		g   uint32
		ids []string // sorted
	}
	var live []entry
	var bare []string
	seen := map[uint32]bool{}
	for idx, g := range ix.refs {
		switch {
		case !ix.docs.Live(uint32(idx)):
		case g == noGroup:
			bare = append(bare, ix.docs.ID(uint32(idx)))
		case !seen[g]:
			seen[g] = true
			live = append(live, entry{g, ix.gs.IDs(g, ix.groups[g].first, noDoc)})
		}
	}
	slices.SortFunc(live, func(a, b entry) int { return cmp.Compare(a.ids[0], b.ids[0]) })
	slices.Sort(bare)

	// Contents in the order of their smallest member: that of their first
	// group in the sorted list.
	byContent := map[Digest][]entry{}
	var order []Digest
	for _, l := range live {
		c := ix.groups[l.g].content
		if _, ok := byContent[c]; !ok {
			order = append(order, c)
		}
		byContent[c] = append(byContent[c], l)
	}
	var e snapshot.Enc
	e.Int(len(order))
	var terms []string
	for _, c := range order {
		es := byContent[c]
		e.Bytes16(c)
		if ix.own {
			terms = unpackTerms(terms[:0], ix.packed[es[0].g])
			e.Strings(terms)
		}
		e.Int(len(es))
		for _, l := range es {
			keys := ix.groups[l.g].keys
			keys = keys[:lexiconKeys(keys)]
			e.Int(len(keys))
			for _, k := range keys {
				e.Int(k.Lexicon)
				e.Bytes16(k.Digest)
			}
			e.Strings(l.ids)
		}
	}
	groups = e.B
	e = snapshot.Enc{}
	e.Strings(bare)
	return groups, e.B, ix.docs.Len(), nil
}

// unpackTerms appends the terms of a list packed by liveidf.Pack to dst.
func unpackTerms(dst []string, p string) []string {
	for len(p) > 0 {
		l, k := binary.Uvarint([]byte(p[:min(len(p), binary.MaxVarintLen64)]))
		p = p[k:]
		dst = append(dst, p[:l])
		p = p[l:]
	}
	return dst
}

// load is what ReadFrom counts in the own table for one content: its
// terms, packed as the table keeps them, and its live documents.
type load struct {
	terms  []string
	packed string
	docs   []uint32
}

// ReadFrom loads a snapshot written by WriteTo into d, which must be empty
// and made by the same constructor with the same Config (and, for
// [NewWithIDF], a table of the same content and frozen state), and returns
// the bytes read. It reads and checks the whole snapshot and builds a
// fresh index before it installs it, so on any error d stays empty.
// Loading costs the bytes read plus one index insertion per document and,
// for a Detector of [New], counting each document's terms in its online
// table; no text is analysed.
//
// It returns an error wrapping detector.ErrClosed after Close, and one
// wrapping detector.ErrSnapshot for a d that is not empty and for input it
// cannot load: not an I-Match snapshot of this layout, a Config differing
// from d's (the error names the field), another IDF table (or one where d
// has none), a damaged or truncated stream.
func (d *Detector) ReadFrom(r io.Reader) (int64, error) {
	return snapshot.Load("imatch", r, d.header(), []string{"groups", "empty"}, d.readable,
		func(secs [][]byte) (int, func() error, error) {
			ix, loads, err := d.decode(secs[0], secs[1])
			if err != nil {
				return 0, nil, err
			}
			install := func() error {
				d.mu.Lock()
				defer d.mu.Unlock()
				if err := d.emptyLocked(); err != nil {
					return err
				}
				for _, l := range loads {
					for _, idx := range l.docs {
						ix.handle[idx] = d.turns.Table().AddPacked(l.terms, l.packed)
					}
				}
				d.ix = ix
				return nil
			}
			if d.turns == nil {
				return ix.docs.Len(), install, nil
			}
			// In a turn of its own, after the Adds of earlier turns: the
			// table is counted and the index swapped in before the next
			// Add counts.
			return ix.docs.Len(), func() error { return d.turns.Do(install) }, nil
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
// byte for byte. With an own table it also returns what to count in it.
func (d *Detector) decode(groups, empty []byte) (*index, []load, error) {
	own := d.turns != nil
	ix := newIndex(d.cfg.MaxTextBytes, own)
	add := func(dec *snapshot.Dec, id string) uint32 {
		idx, err := ix.docs.Add(detector.Doc{ID: id})
		if err != nil {
			dec.Fail("document %q twice", id)
		}
		return idx
	}
	var loads []load

	dec := snapshot.NewDec(groups)
	// A content takes at least 16 bytes and two counts.
	n := dec.Len(18, 0)
	prevContent := ""
	contents := make(map[Digest]bool, n)
	for range n {
		content := dec.Bytes16()
		if dec.Err() == nil && contents[content] {
			dec.Fail("one content twice")
		}
		contents[content] = true
		var l load
		if own {
			l.terms = dec.Strings(1, false, "terms")
			l.packed = liveidf.Pack(l.terms)
		}
		// A key list takes two counts and one ID.
		ng := dec.Len(4, 0)
		if dec.Err() == nil && (ng == 0 || ng > 1 && !d.exact) {
			dec.Fail("%d key lists for one content", ng)
		}
		prev := ""
		for j := range ng {
			nk := dec.Len(17, d.cfg.Lexicons+1)
			keys := make([]Key, 0, nk+1)
			for range nk {
				lex := dec.Uvarint()
				k := Key{Lexicon: int(min(lex, maxLexicons+1)), Digest: dec.Bytes16()}
				if dec.Err() == nil && (lex > uint64(d.cfg.Lexicons) || len(keys) > 0 && k.Lexicon <= keys[len(keys)-1].Lexicon) {
					dec.Fail("key of lexicon %d out of order or range", lex)
				}
				keys = append(keys, k)
			}
			keys = d.withExact(keys, content, true)
			ids := dec.IDs(1)
			if dec.Err() != nil {
				return nil, nil, dec.Err()
			}
			if j == 0 && ids[0] <= prevContent || j > 0 && ids[0] <= prev {
				dec.Fail("groups out of order")
				return nil, nil, dec.Err()
			}
			if j == 0 {
				prevContent = ids[0]
			}
			prev = ids[0]
			if _, ok := ix.find(keys, content); ok {
				dec.Fail("two groups with one key list")
				return nil, nil, dec.Err()
			}
			for _, id := range ids {
				idx := add(dec, id)
				if dec.Err() != nil {
					return nil, nil, dec.Err()
				}
				ix.insert(idx, keys, content, l.packed, -1)
				l.docs = append(l.docs, idx)
			}
		}
		if own {
			loads = append(loads, l)
		}
	}
	if err := dec.Done(); err != nil {
		return nil, nil, err
	}

	dec = snapshot.NewDec(empty)
	for _, id := range dec.IDs(0) {
		idx := add(dec, id)
		if dec.Err() != nil {
			return nil, nil, dec.Err()
		}
		ix.insert(idx, nil, Digest{}, "", -1)
	}
	if err := dec.Done(); err != nil {
		return nil, nil, err
	}
	return ix, loads, nil
}
