package simhash

import (
	"slices"
	"unicode/utf8"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// feat is one unique feature of the current document.
type feat struct {
	h   uint64
	idf float64
	tf  int32
}

// add counts one occurrence of feature h with idf w.
func (s *Signer) add(h uint64, w float64) {
	p, ok := s.seen.Ref(h)
	if ok {
		s.feats[*p].tf++
		return
	}
	*p = uint32(len(s.feats))
	s.feats = append(s.feats, feat{h: h, idf: w, tf: 1})
}

// collect fills s.feats with the unique features of the text analysed
// last, from the per-token inputs s.th, s.st and s.tidf (and s.toks for
// character n-grams).
func (s *Signer) collect() {
	s.feats = s.feats[:0]
	s.seen.Reset(len(s.th))
	switch s.cfg.Features {
	case FeatureWords:
		s.collectWords()
	case FeatureWordNGrams:
		s.collectWordNGrams()
	case FeatureSpots:
		s.collectSpots()
	case FeatureCharNGrams:
		s.collectCharNGrams()
	}
}

// idfAt returns the idf of token i, or 0 when the Config reads no idf.
func (s *Signer) idfAt(i int) float64 {
	if len(s.tidf) == 0 {
		return 0
	}
	return s.tidf[i]
}

// collectWords: each unique term is a feature weighing its idf.
func (s *Signer) collectWords() {
	for i, h := range s.th {
		s.add(h, s.idfAt(i))
	}
}

// collectWordNGrams: each run of N terms is a feature weighing the mean idf
// of its terms; a text shorter than N terms is one feature of all of them.
func (s *Signer) collectWordNGrams() {
	th := s.th
	n := s.cfg.N
	if len(th) > 0 && len(th) < n {
		n = len(th)
	}
	for i := 0; i+n <= len(th); i++ {
		h, w := uint64(n), 0.0
		for j := i; j < i+n; j++ {
			h = hashtab.Combine(h, th[j])
			w += s.idfAt(j)
		}
		s.add(h, w/float64(n))
	}
}

// collectSpots: for each antecedent (stopword) at i, the chain of the next
// N non-stopwords (spot distance 1) is a feature weighing their mean idf; a
// chain cut short by the end of the text is dropped. Time is O(n·N) for n
// tokens: chains jump from one non-stopword to the next through s.next, and
// the antecedents of one run of stopwords share one chain, built once.
func (s *Signer) collectSpots() {
	th, st := s.th, s.st
	n := s.cfg.N
	// s.next[k] is the first non-stopword at or after k, len(th) if none.
	s.next = slices.Grow(s.next[:0], len(th)+1)[:len(th)+1]
	s.next[len(th)] = int32(len(th))
	for k := len(th) - 1; k >= 0; k-- {
		if st[k] {
			s.next[k] = s.next[k+1]
		} else {
			s.next[k] = int32(k)
		}
	}
	var (
		h    uint64
		w    float64
		got  int
		from = -1 // first link of the chain in h, w, got
	)
	for i := range th {
		if !st[i] {
			continue
		}
		if start := int(s.next[i+1]); start != from {
			from = start
			h, w, got = uint64(n)+0x5b07, 0.0, 0
			for k := start; k < len(th) && got < n; k = int(s.next[k+1]) {
				s.spotSteps++
				h = hashtab.Combine(h, th[k])
				w += s.idfAt(k)
				got++
			}
		}
		s.spotSteps++
		if got == n {
			s.add(h, w/float64(n))
		}
	}
}

// collectCharNGrams: each run of N characters of the terms joined by one
// space is a feature weighing the idf of the term it starts in.
func (s *Signer) collectCharNGrams() {
	toks := s.toks
	s.chars, s.owner = s.chars[:0], s.owner[:0]
	for i := range toks {
		if i > 0 {
			s.chars = append(s.chars, ' ')
			s.owner = append(s.owner, int32(i))
		}
		s.chars = append(s.chars, toks[i].Term...)
		for range len(toks[i].Term) {
			s.owner = append(s.owner, int32(i))
		}
	}
	// Slide a window of N runes.
	end, runes := 0, 0
	for end < len(s.chars) && runes < s.cfg.N {
		_, w := utf8.DecodeRune(s.chars[end:])
		end += w
		runes++
	}
	for start := 0; start < len(s.chars); {
		s.add(hashtab.Bytes64(s.chars[start:end], s.cfg.Seed), s.idfAt(int(s.owner[start])))
		if end == len(s.chars) {
			break
		}
		_, a := utf8.DecodeRune(s.chars[start:])
		_, b := utf8.DecodeRune(s.chars[end:])
		start += a
		end += b
	}
}

// better orders features by idf, highest first, ties by ascending hash.
func better(a, b feat) bool { return a.idf > b.idf || a.idf == b.idf && a.h < b.h }

// chooseSkip drops (sets tf 0) the SkipTop features of highest idf ("First
// two words with the highest idf values are ignored", Varol 2012 §4.1.4),
// keeping the best in a small sorted array s.skip.
func (s *Signer) chooseSkip() {
	s.skip = s.skip[:0]
	limit := min(s.cfg.skip(), len(s.feats))
	for j := range s.feats {
		f := s.feats[j]
		if len(s.skip) == limit && (limit == 0 || !better(f, s.feats[s.skip[limit-1]])) {
			continue
		}
		k := len(s.skip)
		if k < limit {
			s.skip = append(s.skip, int32(j))
		} else {
			k--
		}
		for k > 0 && better(f, s.feats[s.skip[k-1]]) {
			s.skip[k] = s.skip[k-1]
			k--
		}
		s.skip[k] = int32(j)
	}
	for _, j := range s.skip {
		s.feats[j].tf = 0 // dropped
	}
}
