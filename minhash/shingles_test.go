package minhash

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/zeebo/xxh3"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// refShingles is Sketcher.shingles as it was before its fast paths: the
// terms of Analyzer.Words through Analyzer.AppendTerm (not Analyzer.Terms)
// and each shingle's hash chained over a ring of its w term hashes once the
// w-th arrives. It returns the shingle hashes, the
// first-term hash of each and the term hashes.
func refShingles(s *Sketcher, text string) (sh, first, terms []uint64) {
	w := s.cfg.Shingle
	var ring []uint64
	emit := func() {
		var x uint64
		for _, h := range ring {
			x = hashtab.Combine(x, h)
		}
		sh = append(sh, x)
		first = append(first, ring[0])
	}
	n := 0
	var buf []byte
	for sp := range s.an.Words(text) {
		var ok bool
		buf, ok = s.an.AppendTerm(buf[:0], text[sp.Start:sp.End])
		if !ok {
			continue
		}
		h := xxh3.Hash(buf)
		n++
		terms = append(terms, h)
		if len(ring) < w {
			ring = append(ring, h)
		} else {
			copy(ring, ring[1:])
			ring[w-1] = h
		}
		if len(ring) == w {
			emit()
		}
	}
	if n > 0 && n < w {
		emit()
	}
	return sh, first, terms
}

// TestShinglesMatchReference requires the shingle, first-term and term
// hashes of texts of 0 to 40 words (stopwords included, so some words
// give no term in English) to be those of refShingles, for shingles of 1
// to 9 words and the largest allowed.
func TestShinglesMatchReference(t *testing.T) {
	words := strings.Fields("the a of Kadın İSTANBUL'DA don't 1.500 東京都 x y z y x Ünlü ve bir")
	r := rand.New(rand.NewPCG(3, 4))
	for _, w := range []int{1, 2, 3, 4, 5, 9, maxShingle} {
		for _, lang := range []string{"", "en", "tr"} {
			s, err := NewSketcher(Config{Shingle: w, Language: lang, Mode: Weighted})
			require.NoError(t, err)
			for range 200 {
				var b strings.Builder
				for range r.IntN(40) {
					b.WriteString(words[r.IntN(len(words))])
					b.WriteByte(' ')
				}
				text := b.String()
				sh, first, terms := refShingles(s, text)
				s.shingles(text, true)
				require.Equal(t, sh, nilIfEmpty(s.sh), "w=%d %q", w, text)
				require.Equal(t, terms, nilIfEmpty(s.terms), "w=%d %q", w, text)
				for i := range first { // phrases relies on it
					require.Equal(t, first[i], s.terms[i], "w=%d %q: shingle %d begins with term %d", w, text, i, i)
				}
				s.shingles(text, false)
				require.Equal(t, sh, nilIfEmpty(s.sh), "w=%d %q without terms", w, text)
			}
		}
	}
}

func nilIfEmpty(s []uint64) []uint64 {
	if len(s) == 0 {
		return nil
	}
	return s
}
