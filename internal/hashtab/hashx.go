// Package hashtab holds what the detectors hash with and look hashes up
// in: the seeded xxh3 helpers every detector hashes with, in place of the
// SHA1 and Rabin fingerprints of the papers (results depend on hash values
// only through equality): 64-bit feature hashes, 128-bit document digests
// over an unambiguous encoding, and a cheap 64-bit mixer for deriving many
// hash values from one; and [Map], an open-addressing table from 64-bit
// keys to 32-bit values that follows its live keys down as well as up,
// for the hot lookups a Go map costs too much in (one probe, usually one
// cache line), with [FreshSlice] for the slots of such tables.
//
// A Map is not safe for concurrent use; readers may share it only while
// nothing writes it (callers hold their own lock). The zero Map is empty
// and ready to use. The hash functions are safe for concurrent use.
package hashtab

import (
	"encoding/binary"
	"math"

	"github.com/zeebo/xxh3"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// String64 returns the seeded 64-bit xxh3 hash of s. It does not allocate.
func String64(s string, seed uint64) uint64 {
	if seed == 0 {
		return xxh3.HashString(s)
	}
	return xxh3.HashStringSeed(s, seed)
}

// Bytes64 returns the seeded 64-bit xxh3 hash of b. It does not allocate.
func Bytes64(b []byte, seed uint64) uint64 {
	if seed == 0 {
		return xxh3.Hash(b)
	}
	return xxh3.HashSeed(b, seed)
}

// Digest is a 128-bit document digest (I-Match, Tweezer).
type Digest [16]byte

// Bytes128 returns the 128-bit xxh3 digest of b.
func Bytes128(b []byte) Digest {
	return xxh3.Hash128(b).Bytes()
}

// AppendField appends s to buf in the unambiguous encoding digests are
// computed over: a uvarint length, then the bytes. Concatenating fields this
// way never makes two different lists encode alike ("ab"+"c" ≠ "a"+"bc").
func AppendField(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// Mix64 is the SplitMix64 finaliser: a bijective, well-mixed 64-bit
// permutation, used to derive independent-looking values from one hash.
func Mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Combine hashes an ordered pair of 64-bit values into one (used for word
// n-gram shingle hashes from token hashes). It is not commutative.
func Combine(h, x uint64) uint64 {
	return Mix64(h*0x9e3779b97f4a7c15 ^ x)
}

// TokensDigest returns the 128-bit digest of the term sequence of toks in the
// unambiguous field encoding, using buf as scratch (returned for reuse).
// Detectors index it so that byte-identical texts always match, whatever
// their signatures do.
func TokensDigest(buf []byte, toks []textproc.Token) ([]byte, Digest) {
	buf = buf[:0]
	for _, t := range toks {
		buf = AppendField(buf, t.Term)
	}
	return buf, xxh3.Hash128Seed(buf, math.MaxUint64).Bytes()
}
