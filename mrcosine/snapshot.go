package mrcosine

import (
	"io"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
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

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs and compared vectors (4·Parts bytes per
// distinct signature plus each ID), not their texts nor the reference
// text, which the snapshot identifies by fingerprint. Concurrent Adds and
// Removes are wholly in it or not. After Close the error wraps
// detector.ErrClosed.
func (d *Detector) WriteTo(w io.Writer) (int64, error) { return d.e.WriteTo(w) }

// ReadFrom loads a snapshot written by WriteTo into the empty d, made with
// the same Config and reference text, and returns the bytes read; on any
// error d stays empty. It costs the bytes read plus, per distinct
// signature, its band keys and sketch (O(Parts·log Parts + Bands·Rows))
// and one insertion; no text is signed. Errors wrap detector.ErrClosed
// after Close, otherwise detector.ErrSnapshot (d not empty, another
// layout or Config, another reference text, named as table "reference",
// damaged input).
func (d *Detector) ReadFrom(r io.Reader) (int64, error) { return d.e.ReadFrom(r) }

// The snapshot layout predates the engine's shared one (text groups are
// listed with the documents in no group), so the algorithm keeps it as an
// engine.Layout.

// Sections names the two sections.
func (a algorithm) Sections() []string { return []string{"groups", "zero"} }

// EncodeSections writes the vector groups into "groups" and the members of
// the text groups, with the documents in no group, into "zero".
func (a algorithm) EncodeSections(groups []engine.SnapshotGroup[sig], none []string, _ engine.Counter[sig]) [][]byte {
	var bare []string
	digs := map[string]hashtab.Digest{}
	var e snapshot.Enc
	nvec := 0
	for _, g := range groups {
		if !g.F.text {
			nvec++
		}
	}
	e.Int(nvec)
	for _, g := range groups {
		if g.F.text {
			for _, id := range g.IDs {
				bare = append(bare, id)
				digs[id] = g.F.dig
			}
			continue
		}
		a.EncodeGroup(&e, g.F)
		e.Strings(g.IDs)
	}
	groupsSec := e.B
	bare = append(bare, none...)
	slices.Sort(bare)
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
	return [][]byte{groupsSec, e.B}
}

// EncodeGroup appends the compared vector of a vector group: Parts × u32,
// the IEEE 754 bits of each float32.
func (a algorithm) EncodeGroup(e *snapshot.Enc, f *sig) {
	for _, x := range f.vec {
		e.U32(math.Float32bits(x))
	}
}

// DecodeGroup reads what EncodeGroup wrote into scratch of the pool, which
// the features hold (see Release). DecodeSections reads the groups; the
// engine calls DecodeGroup only for its shared layout, which this
// algorithm does not use.
func (a algorithm) DecodeGroup(dec *snapshot.Dec) sig {
	s, _ := a.d.scratch.Get() // New never fails
	a.decodeVec(dec, s)
	return sig{s: s, vec: s.vec}
}

// decodeVec reads a compared vector into s and derives from it what the
// index keeps, failing dec on a vector that is not a unit vector of
// components in range (non-negative unless Centered).
func (a algorithm) decodeVec(dec *snapshot.Dec, s *signed) {
	d := a.d
	vec := s.vecBuf
	var ss float64
	for j := range vec {
		x := math.Float32frombits(dec.U32())
		vec[j] = x
		ss += float64(x) * float64(x)
		if !(x >= -1 && x <= 1) || x < 0 && !d.cfg.Centered {
			dec.Fail("vector component %g", x)
		}
	}
	if dec.Err() == nil && !(math.Abs(ss-1) <= 1e-3) {
		dec.Fail("vector of squared length %g, not a unit vector", ss)
	}
	s.vec = vec
	if dec.Err() == nil {
		d.derive(s)
	}
}

// vecSum is a digest of a vector's bits.
func vecSum(v []float32) uint64 {
	h := uint64(0x6d72636f73696e65) // "mrcosine"
	for _, x := range v {
		h = hashtab.Combine(h, uint64(math.Float32bits(x)))
	}
	return h
}

// DecodeSections reads the two sections, checking that they are
// canonical: what it accepts, EncodeSections writes back byte for byte.
func (a algorithm) DecodeSections(secs [][]byte, group func(*snapshot.Dec, *sig, []string), bare func(*snapshot.Dec, string)) error {
	d := a.d
	s := d.newSigned()
	// A group takes 4·Parts bytes, a count and at least one ID.
	err := engine.DecodeGroups(secs[0], 4*d.parts+3, func(dec *snapshot.Dec) sig {
		a.decodeVec(dec, s)
		return sig{s: s, vec: s.vec}
	}, group)
	if err != nil {
		return err
	}

	dec := snapshot.NewDec(secs[1])
	ids := dec.IDs(0)
	if dec.Err() != nil {
		return dec.Err()
	}
	// The digests' tail, if any: what follows the IDs (a second decoder
	// over the IDs finds where they end).
	rest := snapshot.NewDec(secs[1])
	rest.IDs(0)
	tail := rest.Done() != nil
	byDig := map[hashtab.Digest][]string{}
	var order []hashtab.Digest // the digests in the order of their first ID
	for _, id := range ids {
		if !tail || !dec.Bool() {
			if bare(dec, id); dec.Err() != nil {
				return dec.Err()
			}
			continue
		}
		dig := dec.Bytes16()
		if dec.Err() != nil {
			return dec.Err()
		}
		if _, ok := byDig[dig]; !ok {
			order = append(order, dig)
		}
		byDig[dig] = append(byDig[dig], id)
	}
	if tail && len(order) == 0 {
		dec.Fail("a digest tail without a digest")
	}
	if err := dec.Done(); err != nil {
		return err
	}
	for _, dig := range order {
		if group(dec, &sig{text: true, dig: dig}, byDig[dig]); dec.Err() != nil {
			return dec.Err()
		}
	}
	return nil
}
