// The floor benchmark every detector's speed is
// reported against: the least work any word-shingle detector must do.
//
// [Floor] splits text on Unicode letter/digit runs, lower-cases each token,
// hashes it with xxh3 and combines word 3-shingle hashes, with zero
// allocations. Each package's benchmarks run [Run] in the same process, so a
// detector's cost is stated as a multiple of the floor measured on the same
// machine in the same run.

package testkit

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Floor processes text and returns a value that depends on every shingle
// (so the compiler cannot drop the work).
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
		h := hashtab.Bytes64(buf[:k], 0)
		n++
		if n >= 3 {
			acc += hashtab.Combine(hashtab.Combine(h1, h2), h)
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

// Sink keeps benchmark results alive.
var Sink uint64

// Run benchmarks Floor over texts.
func Run(b *testing.B, texts []string) {
	RunEach(b, texts, func(t string) { Sink += Floor(t) })
}

// RunEach benchmarks fn over texts the way every speed figure of the
// library is taken: fn sees every text once before timing (vocabularies and
// caches reach their steady state), then one iteration calls fn on every
// text. It reports allocations, b.SetBytes of the total size and a docs/s
// metric.
func RunEach(b *testing.B, texts []string, fn func(string)) {
	total := 0
	for _, t := range texts {
		total += len(t)
		fn(t)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			fn(t)
		}
	}
	b.ReportMetric(float64(len(texts))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

// RunAnalyzer benchmarks the textproc Analyzer alone over texts with cfg:
// the baseline detectors' signature costs are compared with.
func RunAnalyzer(b *testing.B, cfg textproc.Config, texts []string) {
	an, err := textproc.NewAnalyzer(cfg)
	if err != nil {
		b.Fatal(err)
	}
	RunEach(b, texts, func(t string) { an.Analyze(t) })
}
