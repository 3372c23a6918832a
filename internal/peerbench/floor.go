package peerbench

import (
	"unicode"
	"unicode/utf8"

	"github.com/zeebo/xxh3"
)

// Floor mirrors internal/benchfloor/benchfloor.go of the main module
// (Floor, isWord, and the hashx.Bytes64 / hashx.Combine / hashx.Mix64 it
// calls, from internal/hashx/hashx.go), which a nested module cannot import
// because both packages are internal to the main module. Keep the two in
// step: it splits text on Unicode letter/digit runs, lower-cases each token,
// hashes it with xxh3 (seed 0) and combines word 3-shingle hashes, with zero
// allocations, and returns a value that depends on every shingle (so the
// compiler cannot drop the work).
func Floor(text string) uint64 {
	var buf [64]byte
	var h1, h2, acc uint64
	n := 0
	for i := 0; i < len(text); {
		// Skip separators.
		r, w := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(text[i:])
		}
		if !isWord(r) {
			i += w
			continue
		}
		// Lower-case the token into buf (truncated at 64 bytes).
		k := 0
		for i < len(text) {
			r, w = rune(text[i]), 1
			if r >= utf8.RuneSelf {
				r, w = utf8.DecodeRuneInString(text[i:])
			}
			if !isWord(r) {
				break
			}
			i += w
			if r < utf8.RuneSelf {
				if 'A' <= r && r <= 'Z' {
					r += 'a' - 'A'
				}
				if k < len(buf) {
					buf[k] = byte(r)
					k++
				}
				continue
			}
			if k+utf8.UTFMax <= len(buf) {
				k += utf8.EncodeRune(buf[k:], unicode.ToLower(r))
			}
		}
		h := xxh3.Hash(buf[:k]) // hashx.Bytes64(buf[:k], 0)
		n++
		if n >= 3 {
			acc += combine(combine(h1, h2), h)
		}
		h1, h2 = h2, h
	}
	return acc
}

func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// mix64 is hashx.Mix64, the SplitMix64 finaliser.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// combine is hashx.Combine.
func combine(h, x uint64) uint64 {
	return mix64(h*0x9e3779b97f4a7c15 ^ x)
}
