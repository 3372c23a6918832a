package shingle

import (
	"fmt"
	"math"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
)

// featuresFormat is the first byte of encoded [Features].
const featuresFormat = 1

// MarshalBinary encodes f, so that a [detector.Cascade] over shingle
// features can write a snapshot (it stores each live document's features
// this way): a format byte, Method, Sampling and Shingles, the hashes as
// gaps between ascending values, SpotSigs' counts, and DSC's
// super-shingles. It costs about one to two bytes per hash of a long
// document and never returns an error.
func (f Features) MarshalBinary() ([]byte, error) {
	e := snapshot.Enc{B: make([]byte, 0, 8+2*len(f.Hashes))}
	e.B = append(e.B, featuresFormat)
	e.Int(int(f.Method))
	e.Int(int(f.Sampling))
	e.Int(f.Shingles)
	e.Int(len(f.Hashes))
	prev := uint64(0) // the first hash is its gap from 0
	for _, h := range f.Hashes {
		e.Uvarint(h - prev)
		prev = h
	}
	if f.Method == SpotSigs {
		for _, c := range f.Counts {
			e.Uvarint(uint64(c))
		}
	}
	e.U64s(f.Super)
	return e.B, nil
}

// UnmarshalBinary decodes what [Features.MarshalBinary] wrote. It accepts
// only what MarshalBinary writes for features [Extract] can return (a known
// Method and Sampling, hashes ascending and distinct, a positive count per
// SpotSigs hash, super-shingles only for DSC) and returns an error wrapping
// [detector.ErrSnapshot] for anything else, leaving f unchanged.
func (f *Features) UnmarshalBinary(b []byte) error {
	if len(b) == 0 || b[0] != featuresFormat {
		return fmt.Errorf("shingle: Features: not format %d: %w", featuresFormat, detector.ErrSnapshot)
	}
	d := snapshot.NewDec(b[1:])
	var g Features
	g.Method = Method(d.Int(int(SpotSigs)))
	g.Sampling = Sampling(d.Int(int(SampleStride)))
	g.Shingles = d.Int(0)
	if n := d.Len(1, 0); n > 0 {
		g.Hashes = make([]uint64, n)
		for i := range g.Hashes {
			x := d.Uvarint()
			switch {
			case i == 0:
				g.Hashes[i] = x
			case x == 0 || x > math.MaxUint64-g.Hashes[i-1]:
				d.Fail("hash %d not above the one before", i)
			default:
				g.Hashes[i] = g.Hashes[i-1] + x
			}
		}
	}
	if g.Method == SpotSigs && len(g.Hashes) > 0 {
		g.Counts = make([]uint32, len(g.Hashes))
		for i := range g.Counts {
			c := d.Uvarint()
			if c == 0 || c > math.MaxUint32 {
				d.Fail("count %d of hash %d", c, i)
			}
			g.Counts[i] = uint32(c)
		}
	}
	if n := d.Len(8, 0); n > 0 {
		g.Super = make([]uint64, n)
		for i := range g.Super {
			g.Super[i] = d.U64()
		}
	}
	switch {
	case d.Err() != nil:
	case g.Method != DSC && g.Sampling != 0:
		d.Fail("sampling %v for %v", g.Sampling, g.Method)
	case g.Method != DSC && len(g.Super) > 0:
		d.Fail("super-shingles for %v", g.Method)
	case g.Method != DSC && g.Shingles != len(g.Hashes):
		d.Fail("%d shingles for %d hashes of %v", g.Shingles, len(g.Hashes), g.Method)
	case g.Shingles < len(g.Hashes):
		d.Fail("%d shingles for a sample of %d", g.Shingles, len(g.Hashes))
	}
	if err := d.Done(); err != nil {
		return fmt.Errorf("shingle: Features: %w", err)
	}
	*f = g
	return nil
}

// Verifier returns the pairwise check of a [detector.Cascade] over
// features from [Extract] under one Config: for full fingerprinting and
// DSC, the container contains the contained document when [Containment] of
// the contained in the container reaches threshold, the score being that
// containment; for SpotSigs, when their [Jaccard] similarity does. Features
// of different Methods or Samplings are never related (the check does not
// panic). Each call costs O(|a| + |c|) for the two features' sizes.
//
// Verifier returns an error wrapping [detector.ErrInvalidConfig] unless
// threshold is in (0, 1].
func Verifier(threshold float64) (func(container, contained Features) (float64, bool), error) {
	if !(threshold > 0 && threshold <= 1) {
		return nil, fmt.Errorf("shingle: Verifier: threshold (%v) must be in (0, 1]: %w", threshold, detector.ErrInvalidConfig)
	}
	return func(container, contained Features) (float64, bool) {
		if container.Method != contained.Method || container.Sampling != contained.Sampling {
			return 0, false
		}
		var s float64
		if contained.Method == SpotSigs {
			s = Jaccard(contained, container)
		} else {
			s = Containment(contained, container)
		}
		return s, s >= threshold
	}, nil
}
