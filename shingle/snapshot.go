package shingle

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Snapshot layout, version 1 (docs/snapshot.md in the repository has the
// framing). The header's Config is the effective Config; the package has
// no caller-owned table. Two sections follow:
//
//	"groups": count, then per group of exact copies, in ascending order of
//	          its smallest member ID:
//	          FullFingerprint, DSC:
//	            size:uvarint  (distinct shingles the sample was drawn from)
//	            features: count ≥ 1, u64 each, strictly ascending
//	          SpotSigs:
//	            digest:u64  (of the token sequence, odd)
//	            signatures: count, then hash:u64 count:uvarint each, hashes
//	                        strictly ascending; none for a text with fewer
//	                        than MinSignatures signatures (never counted)
//	          members: count ≥ 1, str each, strictly ascending
//	"empty":  count, then the IDs of the documents without words, str each
//	          in ascending order
//
// The trailer counts the live documents. What is rebuilt on read:
// the posting lists, DSC-SS super-shingles (a function of the sample),
// and all of SpotSigs' online statistics. The idf band is a pure function
// of the live multisets: a signature's document frequency is the number
// of counted live documents holding it (a group counts once per member),
// N the number of counted live documents, and a signature's place (too
// rare, kept, too common) and each document's mass in and above the band
// follow from them, whatever order the documents came in. So no
// statistic is stored; the documents are re-inserted and each group's
// further members counted (TestSnapshotRoundTrip checks that every later
// answer, scores included, is the original's). Results are ordered by
// score and ID, so no arrival order is stored either.
const (
	snapshotKind    = "shingle"
	snapshotVersion = 1
)

func (d *Detector) header() snapshot.Header {
	return snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: d.cfg}
}

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs and their features (shingle hashes, the DSC
// sample, or the spot-signature multiset and token digest), once per
// group of exact copies, not their texts (see the package documentation).
// The sections are encoded under a read lock, so the snapshot is
// consistent: concurrent Adds and Removes are wholly in it or not (an Add
// whose document is not yet visible to Containers is not in it); w is
// written after the lock is released. It returns an error wrapping
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

// encode returns the payloads of the two sections and the number of
// documents they hold, read under the lock.
func (d *Detector) encode() (groups, empty []byte, n int, err error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ix := d.ix
	if ix.docs.Closed() {
		return nil, nil, 0, fmt.Errorf("shingle: WriteTo: %w", detector.ErrClosed)
	}
	type entry struct {
		g   uint32
		ids []string
	}
	var live []entry
	var bare []string
	seen := map[uint32]bool{}
	for idx, g := range ix.gs.refs {
		switch {
		case !ix.docs.Live(uint32(idx)):
		case g == noGroup:
			bare = append(bare, ix.docs.ID(uint32(idx)))
		case seen[g] || ix.con != nil && ix.con.isPending(g):
		default:
			seen[g] = true
			live = append(live, entry{g, ix.gs.sortedIDs(g, noDoc)})
		}
	}
	slices.SortFunc(live, func(a, b entry) int { return cmp.Compare(a.ids[0], b.ids[0]) })
	slices.Sort(bare)

	var e snapshot.Enc
	e.Int(len(live))
	for _, l := range live {
		if x := ix.con; x != nil {
			e.Int(x.size[l.g])
			e.Int(len(x.sets[l.g]))
			for _, f := range x.sets[l.g] {
				e.U64(f)
			}
		} else {
			x := ix.spot
			e.U64(ix.key[l.g])
			var hs []uint64
			var cs []uint32
			if int(l.g) < len(x.docs) && x.docs[l.g].counted {
				hs, cs = x.multiset(l.g)
			}
			e.Int(len(hs))
			for i, h := range hs {
				e.U64(h)
				e.Int(int(cs[i]))
			}
		}
		e.Strings(l.ids)
		n += len(l.ids)
	}
	groups = e.B
	e = snapshot.Enc{}
	e.Strings(bare)
	return groups, e.B, n + len(bare), nil
}

// multiset returns the raw signature multiset of the counted group g, by
// hash ascending.
func (x *spotIndex) multiset(g uint32) ([]uint64, []uint32) {
	d := &x.docs[g]
	ord := make([]int, len(d.sigs))
	for i := range ord {
		ord[i] = i
	}
	slices.SortFunc(ord, func(i, j int) int { return cmp.Compare(x.hash[d.sigs[i]], x.hash[d.sigs[j]]) })
	hs, cs := make([]uint64, len(ord)), make([]uint32, len(ord))
	for k, i := range ord {
		hs[k], cs[k] = x.hash[d.sigs[i]], d.cnt[i]
	}
	return hs, cs
}

// ReadFrom loads a snapshot written by WriteTo into d, which must be empty
// and made by New with the same Config, and returns the bytes read. It
// reads and checks the whole snapshot and builds a fresh index before it
// installs it, so on any error d stays empty. Loading costs the bytes read
// plus one index insertion per group of exact copies and, for SpotSigs,
// O(n) per further copy of a text of n signatures; no text is analysed.
//
// It returns an error wrapping detector.ErrClosed after Close, and one
// wrapping detector.ErrSnapshot for a d that is not empty and for input it
// cannot load: not a shingle snapshot of this layout, a Config differing
// from d's (the error names the field), a damaged or truncated stream, or
// features the Config could not have produced.
func (d *Detector) ReadFrom(r io.Reader) (int64, error) {
	return snapshot.Load("shingle", r, d.header(), []string{"groups", "empty"}, d.readable,
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
	cfg := d.cfg
	ix := newIndex(cfg)
	add := func(dec *snapshot.Dec, id string) uint32 {
		idx, err := ix.docs.Add(detector.Doc{ID: id})
		if err != nil {
			dec.Fail("document %q twice", id)
		}
		return idx
	}
	dec := snapshot.NewDec(groups)
	// A group takes at least a count, one feature or digest (8 bytes), a
	// count and one ID.
	ng := dec.Len(11, 0)
	prev := ""
	for i := range ng {
		a := d.decodeFeatures(dec)
		ids := dec.IDs(1)
		if dec.Err() != nil {
			return nil, dec.Err()
		}
		if i > 0 && ids[0] <= prev {
			dec.Fail("groups out of order")
			return nil, dec.Err()
		}
		prev = ids[0]
		if _, ok := ix.find(&a); ok {
			dec.Fail("two groups with the same features")
			return nil, dec.Err()
		}
		var g uint32
		for k, id := range ids {
			idx := add(dec, id)
			if dec.Err() != nil {
				return nil, dec.Err()
			}
			if k > 0 {
				ix.gs.join(g, idx)
				if ix.spot != nil {
					ix.spot.join(g)
				}
				continue
			}
			g = ix.open(idx, &a)
			if ix.spot != nil {
				ix.spot.insert(g, a.hashes, a.cnt)
			} else {
				ix.con.reserve(g, a.set, a.size, a.super)
				ix.con.insertPostings(g, a.set)
				ix.con.publish(g)
			}
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
		ix.gs.bare(idx)
	}
	if err := dec.Done(); err != nil {
		return nil, err
	}
	return ix, nil
}

// decodeFeatures reads one group's features and checks that the Config
// could have produced them.
func (d *Detector) decodeFeatures(dec *snapshot.Dec) analysis {
	cfg := d.cfg
	var a analysis
	if cfg.Method == SpotSigs {
		a.key = dec.U64()
		if dec.Err() == nil && a.key&1 == 0 {
			dec.Fail("digest %#x is not a group key", a.key)
		}
		ns := dec.Len(9, 0)
		if ns == 0 {
			return a
		}
		a.hashes, a.cnt = make([]uint64, ns), make([]uint32, ns)
		total := 0
		for k := range ns {
			a.hashes[k] = dec.U64()
			c := dec.Int(1 << 30)
			a.cnt[k] = uint32(c)
			total += c
			if dec.Err() == nil && (c == 0 || k > 0 && a.hashes[k] <= a.hashes[k-1]) {
				dec.Fail("signatures out of order or of count 0")
			}
		}
		if dec.Err() == nil && total < cfg.MinSignatures {
			dec.Fail("%d signatures stored for a text below MinSignatures", total)
		}
		return a
	}
	a.size = dec.Int(0)
	nf := dec.Len(8, 0)
	if dec.Err() != nil {
		return a
	}
	want := true
	switch {
	case cfg.Method == FullFingerprint || cfg.Sampling == SampleStride:
		want = nf == a.size
	case cfg.Sampling == SampleMin:
		want = nf == min(a.size, cfg.SampleSize)
	default:
		want = nf <= a.size
	}
	if !want || nf == 0 {
		dec.Fail("%d features drawn from %d shingles", nf, a.size)
		return a
	}
	a.set = make([]uint64, nf)
	for k := range a.set {
		a.set[k] = dec.U64()
		if k > 0 && a.set[k] <= a.set[k-1] && dec.Err() == nil {
			dec.Fail("features out of order")
		}
	}
	if cfg.Method == DSC && cfg.SuperShingle > 0 {
		a.super = superOf(a.set, cfg.SuperShingle)
	}
	a.key = setKey(a.set, a.size)
	return a
}

// superOf returns the DSC-SS super-shingles of a sorted sample, as
// extractor.superShingles does.
func superOf(sample []uint64, k int) []uint64 {
	sup := appendShingles(nil, sample, k, 1)
	slices.Sort(sup)
	return slices.Compact(sup)
}
