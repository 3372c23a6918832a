package simhash

import (
	"io"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/internal/idftab"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Snapshot layout, version 1 (docs/snapshot.md in the repository has the
// framing). The header's Config is the effective Config; its tables are
// the caller's IDF table of [NewWithIDF] ("idf", by textproc's
// IDF.Fingerprint) when the Config reads idf weights, and none otherwise.
// Two sections follow (the engine's shared layout, package
// internal/engine):
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

// storedConfig returns the Config a snapshot header stores for the
// effective Config cfg: cfg with Weights numbered as when layout version 1
// was written, WeightIDF 0 (then the default) and WeightTFIDF 3, so that a
// snapshot written before the default changed loads into a detector whose
// Config says WeightIDF, and into no other.
func storedConfig(cfg Config) Config {
	switch cfg.Weights {
	case WeightIDF:
		cfg.Weights = 0
	case WeightTFIDF:
		cfg.Weights = 3
	}
	return cfg
}

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs, fingerprints and content digests once per
// group of exact copies and, for a Detector from [New] with its own online
// table, the distinct terms that table counts; not their texts.
// Concurrent Adds and Removes are wholly in it or not. After Close the
// error wraps detector.ErrClosed.
func (d *Detector) WriteTo(w io.Writer) (int64, error) { return d.e.WriteTo(w) }

// ReadFrom loads a snapshot written by WriteTo into the empty d, made by
// the same constructor with the same Config (and, for [NewWithIDF], an IDF
// table of the same content), and returns the bytes read; on any error d
// stays empty. It costs the bytes read plus one index insertion per group
// and, with an online table, counting each document's terms; nothing is
// analysed or signed. Errors wrap detector.ErrClosed after Close,
// otherwise detector.ErrSnapshot (d not empty, another layout, Config or
// IDF table, damaged input).
func (d *Detector) ReadFrom(r io.Reader) (int64, error) { return d.e.ReadFrom(r) }

// EncodeGroup appends a group's key: whether it has a fingerprint, the
// fingerprint, the content digest and (own table) its distinct terms.
func (a algorithm) EncodeGroup(e *snapshot.Enc, f *sig) {
	e.Bool(f.has)
	e.U64(f.fp)
	e.Bytes16(f.dig)
	if a.own {
		e.Strings(idftab.Unpack(nil, f.packed))
	}
}

// DecodeGroup reads what EncodeGroup wrote, checking that it is canonical:
// no fingerprint bits without a fingerprint, and (own table) at least one
// term, each once.
func (a algorithm) DecodeGroup(dec *snapshot.Dec) sig {
	f := sig{has: dec.Bool(), fp: dec.U64(), dig: hashtab.Digest(dec.Bytes16()), hasDig: true}
	if dec.Err() == nil && !f.has && f.fp != 0 {
		dec.Fail("fingerprint %#x of a group without one", f.fp)
	}
	if a.own {
		if terms := dec.Strings(1, false, "terms"); dec.Err() == nil {
			f.packed = idftab.Pack(terms)
		}
	}
	return f
}
