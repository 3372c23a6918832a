package tweezer

import (
	"io"

	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// Snapshot layout, version 1 (docs/snapshot.md in the repository has the
// framing). The header's Config is the effective Config; tweezer has no
// caller-owned table. Two sections follow (the engine's shared layout,
// package internal/engine):
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

// WriteTo writes a snapshot of the live documents to w and returns the
// bytes written: their IDs and what the index keeps of their signatures,
// not their texts. Concurrent Adds and Removes are wholly in it or not.
// After Close the error wraps detector.ErrClosed.
func (d *Detector) WriteTo(w io.Writer) (int64, error) { return d.e.WriteTo(w) }

// ReadFrom loads a snapshot written by WriteTo into the empty d, made by
// New with the same Config, and returns the bytes read; on any error d
// stays empty. It costs the bytes read plus one index insertion per
// distinct signature; no text is signed. Errors wrap detector.ErrClosed
// after Close, otherwise detector.ErrSnapshot (d not empty, another
// layout or Config, damaged input).
func (d *Detector) ReadFrom(r io.Reader) (int64, error) { return d.e.ReadFrom(r) }

// EncodeGroup appends a group's signature: digest, Key, caseless flag and
// (set modes) the sorted shingle hashes.
func (a algorithm) EncodeGroup(e *snapshot.Enc, s *docSig) {
	e.Bytes16(s.digest)
	e.Bytes16(s.key)
	e.Bool(s.caseless)
	e.U64s(s.hashes)
}

// DecodeGroup reads what EncodeGroup wrote, checking that it is canonical:
// shingle hashes in the set modes only, strictly ascending.
func (a algorithm) DecodeGroup(dec *snapshot.Dec) docSig {
	setModes := a.s.cfg.Mode != Exact
	s := docSig{digest: dec.Bytes16(), key: dec.Bytes16(), caseless: dec.Bool()}
	nh := dec.Len(8, 0)
	if dec.Err() == nil && (nh == 0) == setModes {
		dec.Fail("group with %d shingle hashes in %v mode", nh, a.s.cfg.Mode)
	}
	s.hashes = dec.AscU64s(nh, "shingle hashes")
	return s
}
