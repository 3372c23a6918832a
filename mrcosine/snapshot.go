package mrcosine

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/hashx"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Snapshot layout, version 1 (docs/snapshot.md in the repository has the
// framing). The header's Config is the effective Config (Bands derived,
// MaxResults filled in); its Tables hold one fingerprint, "reference": the
// xxh3 checksum of the reference text's binary encoding
// ([Reference.MarshalBinary], genes, parts, TextConfig and center), which
// the snapshot does not hold. Two sections follow:
//
//	"groups": count, then per distinct compared vector, in ascending order
//	          of its smallest member ID:
//	            vector: Parts × u32, the IEEE 754 bits of each float32
//	            members: count ≥ 1, str each in ascending order
//	"zero":   count, then the IDs of the documents whose signature is zero
//	          (or the center under Centered), str each in ascending order;
//	          then, only when one of them reads a character: per ID, in
//	          the same order, a byte 1 and the 16-byte digest of what it
//	          reads (readDigest), which groups its exact copies, or a byte
//	          0 for one that reads none. Without the tail (every snapshot
//	          written before digests were kept) they match nothing.
//
// The compared vector (the unit signature, or the unit centered signature
// under Centered) is all the index keeps of a document that cannot be
// recomputed without its text: the hashed vector, sketch, band keys and
// bucket table are functions of it and of the Config and reference, and
// are rebuilt on read. Every later answer depends on the vectors and IDs
// only (results are ordered by score and ID, and the index's choice
// between its buckets and a sequential pass depends on the number of
// distinct live vectors), not on the order the documents arrived in, so
// no arrival order is stored; the detector has no online statistic. The
// trailer counts the live documents.
const (
	snapshotKind    = "mrcosine"
	snapshotVersion = 1
	refTable        = "reference"
)

func (d *Detector) header() snapshot.Header {
	return snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: d.cfg,
		Tables: map[string]uint64{refTable: d.refSum}}
}

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs and compared vectors (4·Parts bytes per
// distinct signature plus each ID), not their texts, nor the reference
// text, which the caller keeps and which the snapshot identifies by
// fingerprint (docs/snapshot.md in the repository). The sections are
// encoded under the shared lock, so the snapshot is consistent and concurrent
// Adds and Removes are either wholly in it or wholly not; w is written
// after the lock is released. It returns an error wrapping
// detector.ErrClosed after Close, or the error of w.
func (d *Detector) WriteTo(w io.Writer) (int64, error) {
	groups, zero, n, err := d.encode()
	if err != nil {
		return 0, err
	}
	sw := snapshot.NewWriter(w, d.header())
	sw.Section("groups", groups)
	sw.Section("zero", zero)
	return sw.Finish(uint64(n))
}

// encode returns the payloads of the two sections and the number of live
// documents, read under the lock.
func (d *Detector) encode() (groups, zero []byte, n int, err error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ix := d.ix
	if ix.docs.Closed() {
		return nil, nil, 0, fmt.Errorf("mrcosine: WriteTo: %w", detector.ErrClosed)
	}
	type entry struct {
		g     uint32
		first string // the group's smallest ID
	}
	var live []entry
	for g := range ix.first {
		if !ix.isLive(g) {
			continue
		}
		first := ix.gs.Min(uint32(g), ix.first[g])
		live = append(live, entry{uint32(g), ix.docs.ID(first)})
	}
	slices.SortFunc(live, func(a, b entry) int { return cmp.Compare(a.first, b.first) })
	var bare []string
	digs := map[string]hashx.Digest{}
	for idx, g := range ix.ref {
		if g == noGroup && ix.docs.Live(uint32(idx)) {
			id := ix.docs.ID(uint32(idx))
			bare = append(bare, id)
			if dig, ok := ix.textDigest(uint32(idx)); ok {
				digs[id] = dig
			}
		}
	}
	slices.Sort(bare)

	var e snapshot.Enc
	e.Int(len(live))
	for _, l := range live {
		for _, x := range ix.vec(l.g, d.parts) {
			e.U32(math.Float32bits(x))
		}
		e.Strings(ix.gs.IDs(l.g, ix.first[l.g], noDoc))
	}
	groups = e.B
	e = snapshot.Enc{}
	e.Strings(bare)
	if len(digs) > 0 {
		for _, id := range bare {
			dig, ok := digs[id]
			e.Bool(ok)
			if ok {
				e.Bytes16(dig)
			}
		}
	}
	return groups, e.B, ix.docs.Len(), nil
}

// vecSum is a digest of a vector's bits.
func vecSum(v []float32) uint64 {
	h := uint64(0x6d72636f73696e65) // "mrcosine"
	for _, x := range v {
		h = hashx.Combine(h, uint64(math.Float32bits(x)))
	}
	return h
}

// ReadFrom loads a snapshot written by WriteTo into d, which must be empty
// and made with the same Config and the same reference text, and returns
// the bytes read. It reads and checks the whole snapshot and builds a
// fresh index before it installs it, so on any error d stays empty.
// Loading costs the bytes read plus, per distinct signature, the band keys
// and sketch (O(Parts·log Parts + Bands·Rows)) and one insertion; no text
// is signed.
//
// It returns an error wrapping detector.ErrClosed after Close, and one
// wrapping detector.ErrSnapshot for a d that is not empty and for input it
// cannot load: not an mrcosine snapshot of this layout, a Config differing
// from d's (the error names the field), a different reference text (the
// error names the table "reference"), a damaged or truncated stream.
func (d *Detector) ReadFrom(r io.Reader) (int64, error) {
	return snapshot.Load("mrcosine", r, d.header(), []string{"groups", "zero"}, d.readable,
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
func (d *Detector) decode(groups, zero []byte) (*index, error) {
	ix := newIndex(d.cfg.MaxTextBytes)
	s := d.newSigned()
	bands := d.bands()
	add := func(dec *snapshot.Dec, id string) uint32 {
		idx, err := ix.docs.Add(detector.Doc{ID: id})
		if err != nil {
			dec.Fail("document %q twice", id)
		}
		ix.register(idx)
		return idx
	}

	dec := snapshot.NewDec(groups)
	// A group takes 4·Parts bytes, a count and at least one ID.
	n := dec.Len(4*d.parts+3, 0)
	prev := ""
	seen := map[uint64][]uint32{} // digest of a vector → its groups, to refuse a repeat
	for i := range n {
		vec := s.vecBuf
		var ss float64
		for j := range vec {
			x := math.Float32frombits(dec.U32())
			vec[j] = x
			ss += float64(x) * float64(x)
			// Components of a unit vector; non-negative unless Centered.
			if !(x >= -1 && x <= 1) || x < 0 && !d.cfg.Centered {
				dec.Fail("vector component %g", x)
			}
		}
		if dec.Err() == nil && !(math.Abs(ss-1) <= 1e-3) {
			dec.Fail("vector of squared length %g, not a unit vector", ss)
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
		sum := vecSum(vec)
		for _, g := range seen[sum] {
			if sameBits(ix.vec(g, d.parts), vec) {
				dec.Fail("two groups with one vector")
				return nil, dec.Err()
			}
		}
		s.vec = vec
		d.derive(s)
		g := uint32(noGroup)
		for _, id := range ids {
			idx := add(dec, id)
			if dec.Err() != nil {
				return nil, dec.Err()
			}
			if g == noGroup {
				ix.create(idx, s, d.parts, bands)
				g = ix.ref[idx]
				seen[sum] = append(seen[sum], g)
			} else {
				ix.join(g, idx)
			}
		}
	}
	if err := dec.Done(); err != nil {
		return nil, err
	}

	dec = snapshot.NewDec(zero)
	ids := dec.IDs(0)
	if dec.Err() != nil {
		return nil, dec.Err()
	}
	idxs := make([]uint32, len(ids))
	for i, id := range ids {
		idxs[i] = add(dec, id)
		if dec.Err() != nil {
			return nil, dec.Err()
		}
	}
	// The digests' tail, if any: what follows the IDs (a second decoder
	// over the IDs finds where they end).
	rest := snapshot.NewDec(zero)
	rest.IDs(0)
	if rest.Done() != nil {
		anyDig := false
		for _, idx := range idxs {
			if dec.Bool() {
				dig := dec.Bytes16()
				if dec.Err() != nil {
					return nil, dec.Err()
				}
				ix.joinText(idx, dig)
				anyDig = true
			}
			if dec.Err() != nil {
				return nil, dec.Err()
			}
		}
		if !anyDig {
			dec.Fail("a digest tail without a digest")
		}
	}
	if err := dec.Done(); err != nil {
		return nil, err
	}
	return ix, nil
}
