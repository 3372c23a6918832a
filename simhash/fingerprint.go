package simhash

import "math/bits"

// Distance returns the Hamming distance between two fingerprints. It does
// not allocate.
func Distance(a, b uint64) int { return bits.OnesCount64(a ^ b) }

// Score returns the similarity 1 − Distance(a, b)/64 that Detector reports.
func Score(a, b uint64) float64 { return 1 - float64(Distance(a, b))/64 }

// Fingerprint is Charikar's construction over explicit features (Varol 2012
// §4.1.4, Table 4.2): V_i starts at 0; for each feature, "If the i-th bit of
// the hash value of t is zero, then it is decreased by the idf of w. It is
// increased by the idf otherwise"; bit i of the result is 1 iff V_i > 0 (a
// tie, V_i = 0, gives 0, as in Table 4.2). Bit i is bit i of the hashes
// (least significant first). Fingerprint panics if the slices differ in
// length.
func Fingerprint(hashes []uint64, weights []float64) uint64 {
	if len(hashes) != len(weights) {
		panic("simhash: Fingerprint: hashes and weights differ in length")
	}
	var v [64]float64
	for j, h := range hashes {
		w := weights[j]
		for i := range 64 {
			if h>>i&1 == 1 {
				v[i] += w
			} else {
				v[i] -= w
			}
		}
	}
	var fp uint64
	for i := range 64 {
		if v[i] > 0 {
			fp |= 1 << i
		}
	}
	return fp
}

// signs[b][k] is +1 if bit k of b is set, else −1: adding w·signs[b] to
// eight counters applies one byte of a feature hash without branches.
var signs = func() (t [256][8]float64) {
	for b := range 256 {
		for k := range 8 {
			t[b][k] = -1
			if b>>k&1 == 1 {
				t[b][k] = 1
			}
		}
	}
	return t
}()

// spread[b] holds bit k of b in byte k: adding spread[b] to a uint64 counts
// the set bits of one hash byte in eight byte-wide lanes at once.
var spread = func() (t [256]uint64) {
	for b := range 256 {
		for k := range 8 {
			if b>>k&1 == 1 {
				t[b] |= 1 << (8 * k)
			}
		}
	}
	return t
}()

// fingerprint returns the fingerprint of the features collected last (the
// dropped ones have tf 0), and false when no feature weighs anything.
func (s *Signer) fingerprint() (uint64, bool) {
	switch s.cfg.Weights {
	case WeightUnit, WeightTF:
		return s.fingerprintInt()
	}
	var v [64]float64
	any := false
	for _, f := range s.feats {
		if f.tf == 0 {
			continue
		}
		w := f.idf
		if s.cfg.Weights == WeightTFIDF {
			w *= float64(f.tf)
		}
		if w == 0 {
			continue
		}
		any = true
		h := f.h
		for b := 0; b < 64; b += 8 {
			sg := &signs[byte(h>>b)]
			vv := (*[8]float64)(v[b : b+8])
			vv[0] += w * sg[0]
			vv[1] += w * sg[1]
			vv[2] += w * sg[2]
			vv[3] += w * sg[3]
			vv[4] += w * sg[4]
			vv[5] += w * sg[5]
			vv[6] += w * sg[6]
			vv[7] += w * sg[7]
		}
	}
	if !any {
		return 0, false
	}
	var fp uint64
	for i := range 64 {
		if v[i] > 0 {
			fp |= 1 << i
		}
	}
	return fp, true
}

// fingerprintInt is the integer path of WeightUnit and WeightTF: the counts
// c_i of set bit i are accumulated eight lanes at a time, and V_i = 2c_i −
// total.
func (s *Signer) fingerprintInt() (uint64, bool) {
	var acc [8]uint64
	var cnt [64]int64
	var total int64
	inLanes := 0 // the most any byte lane of acc may hold
	flush := func() {
		for j := range 8 {
			a := acc[j]
			for k := range 8 {
				cnt[8*j+k] += int64(a >> (8 * k) & 0xff)
			}
			acc[j] = 0
		}
		inLanes = 0
	}
	for _, f := range s.feats {
		if f.tf == 0 {
			continue
		}
		w := 1
		if s.cfg.Weights == WeightTF {
			w = int(f.tf)
		}
		total += int64(w)
		for w > 0 {
			c := min(w, 255)
			if inLanes+c > 255 {
				flush()
			}
			h := f.h
			m := uint64(c)
			acc[0] += spread[byte(h)] * m
			acc[1] += spread[byte(h>>8)] * m
			acc[2] += spread[byte(h>>16)] * m
			acc[3] += spread[byte(h>>24)] * m
			acc[4] += spread[byte(h>>32)] * m
			acc[5] += spread[byte(h>>40)] * m
			acc[6] += spread[byte(h>>48)] * m
			acc[7] += spread[byte(h>>56)] * m
			inLanes += c
			w -= c
		}
	}
	if total == 0 {
		return 0, false
	}
	flush()
	var fp uint64
	for i := range 64 {
		if 2*cnt[i] > total {
			fp |= 1 << i
		}
	}
	return fp, true
}
