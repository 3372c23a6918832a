package shingle

import (
	"io"

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
// The framing and the sections are the engine's (internal/engine); the
// group features are this package's (EncodeGroup, DecodeGroup). The
// trailer counts the live documents. What is rebuilt on read:
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

// storedConfig returns the Config a snapshot header stores for the
// effective Config cfg: MaxTextBytes 0 where it is the default, as
// headers stored it before Config reported it filled in, so that
// snapshots written then re-encode to the same bytes. (A snapshot written
// then by a detector given the default explicitly still loads, since a
// header's MaxTextBytes need not match; it re-encodes with 0.)
func storedConfig(cfg Config) Config {
	if cfg.MaxTextBytes == detector.DefaultMaxTextBytes {
		cfg.MaxTextBytes = 0
	}
	return cfg
}

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs and features (shingle hashes, the DSC sample,
// or the spot-signature multiset and token digest) once per group of
// exact copies, not their texts. Concurrent Adds and Removes are wholly
// in it or not. After Close the error wraps detector.ErrClosed.
func (d *Detector) WriteTo(w io.Writer) (int64, error) { return d.e.WriteTo(w) }

// ReadFrom loads a snapshot written by WriteTo into the empty d, made by
// New with the same Config, and returns the bytes read; on any error d
// stays empty. It costs the bytes read plus one index insertion per group
// and, for SpotSigs, O(n) per further copy of n signatures; no text is
// analysed. Errors wrap detector.ErrClosed after Close, otherwise
// detector.ErrSnapshot (d not empty, another layout or Config, damaged
// input, features the Config could not have produced).
func (d *Detector) ReadFrom(r io.Reader) (int64, error) { return d.e.ReadFrom(r) }

// EncodeGroup appends one group's features in the layout above.
func (alg *algorithm) EncodeGroup(e *snapshot.Enc, f *features) {
	if alg.cfg.Method != SpotSigs {
		e.Int(f.size)
		e.U64s(f.set)
		return
	}
	e.U64(f.key)
	e.Int(len(f.set)) // none for a text too short to be counted (see Insert)
	for i, h := range f.set {
		e.U64(h)
		e.Int(int(f.cnt[i]))
	}
}

// DecodeGroup reads one group's features and checks that the Config could
// have produced them.
func (alg *algorithm) DecodeGroup(dec *snapshot.Dec) features {
	cfg := alg.cfg
	a := features{self: noGroup}
	if cfg.Method == SpotSigs {
		a.key = dec.U64()
		if dec.Err() == nil && a.key&1 == 0 {
			dec.Fail("digest %#x is not a group key", a.key)
		}
		ns := dec.Len(9, 0)
		if ns == 0 {
			return a
		}
		a.set, a.cnt = make([]uint64, ns), make([]uint32, ns)
		total := 0
		for k := range ns {
			a.set[k] = dec.U64()
			c := dec.Int(1 << 30)
			a.cnt[k] = uint32(c)
			total += c
			if dec.Err() == nil && (c == 0 || k > 0 && a.set[k] <= a.set[k-1]) {
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
	a.set = dec.AscU64s(nf, "features")
	if cfg.Method == DSC && cfg.SuperShingle > 0 {
		a.super = shingleSet(nil, a.set, cfg.SuperShingle, 1)
	}
	a.key = setKey(a.set, a.size)
	return a
}
