// The synthetic collection: a deterministic synthetic news stream with known
// ground truth, for tests and for benchmarks at any size (10k to 1M
// documents and beyond).
//
// The stream mixes fresh base articles with variants of recent ones, as a
// news portal receives them: syndicated copies with small word edits and a
// site's boilerplate, edited versions with sentences deleted and a new
// headline, truncated versions (contained in their source) and merged round-
// ups of two articles (which contain both). Words come from an invented
// vocabulary with a Zipf distribution, so term statistics look like text.
//
// Synthetic data is never the only data: tests that can read ../shared/data
// use the real collections too.

package dataset

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// SynthKind says how a generated document relates to earlier ones.
type SynthKind int

const (
	// Base is a fresh article related to nothing earlier.
	Base SynthKind = iota
	// Copy is a syndicated copy of Sources[0]: a few words replaced and a
	// site's boilerplate added. A near-duplicate.
	Copy
	// Edited is Sources[0] with a new headline and some sentences deleted.
	// Its source contains it.
	Edited
	// Truncated is the first part of Sources[0]. Its source contains it.
	Truncated
	// Merged is Sources[0] followed by Sources[1]. It contains both.
	Merged
)

func (k SynthKind) String() string {
	return [...]string{"base", "copy", "edited", "truncated", "merged"}[k]
}

// SynthItem is one generated document with its ground truth.
type SynthItem struct {
	Doc     detector.Doc
	Kind    SynthKind
	Sources []string // IDs of the earlier documents it derives from
}

// SynthConfig configures a SynthStream. Zero fields take the defaults in brackets.
type SynthConfig struct {
	Seed       uint64  // [0]
	Vocabulary int     // distinct words [50000]
	Zipf       float64 // exponent of word frequencies [1.0]
	// VariantRate is the fraction of documents that derive from a recent
	// base article [0.3].
	VariantRate float64
	// Recent is how many recent base articles variants are drawn from [500].
	Recent int
	// Sentences is the range of sentences per base article [8, 24].
	MinSentences, MaxSentences int
	// Prefix names the documents: Prefix + sequence number ["s"].
	Prefix string
}

// SynthStream generates documents one at a time. It is not safe for concurrent
// use.
type SynthStream struct {
	cfg     SynthConfig
	r       *rand.Rand
	words   []string
	cdf     []float64
	recent  []recentDoc
	n       int
	sites   [][2]string
	scratch []string
}

type recentDoc struct {
	id        string
	headline  string
	sentences []string
}

var syllables = []string{
	"ka", "ro", "mi", "tan", "le", "su", "vor", "di", "pe", "nal", "zu", "ber",
	"o", "ti", "gra", "mo", "sel", "ve", "an", "kru", "da", "lin", "fo", "ya",
	"es", "ur", "pol", "chi", "ne", "bas", "qui", "tor",
}

// word returns the invented word of rank i: a deterministic syllable string.
func word(i int) string {
	var b strings.Builder
	n := i + 1
	for n > 0 {
		b.WriteString(syllables[n%len(syllables)])
		n /= len(syllables)
	}
	return b.String()
}

// NewSynth returns a stream for cfg.
func NewSynth(cfg SynthConfig) *SynthStream {
	if cfg.Vocabulary <= 0 {
		cfg.Vocabulary = 50000
	}
	if cfg.Zipf <= 0 {
		cfg.Zipf = 1.0
	}
	cfg.VariantRate = cmp.Or(cfg.VariantRate, 0.3)
	if cfg.Recent <= 0 {
		cfg.Recent = 500
	}
	if cfg.MinSentences <= 0 {
		cfg.MinSentences = 8
	}
	if cfg.MaxSentences < cfg.MinSentences {
		cfg.MaxSentences = max(24, cfg.MinSentences)
	}
	cfg.Prefix = cmp.Or(cfg.Prefix, "s")
	s := &SynthStream{cfg: cfg, r: rand.New(rand.NewPCG(cfg.Seed, 0x5eed))}
	s.words = make([]string, cfg.Vocabulary)
	s.cdf = make([]float64, cfg.Vocabulary)
	total := 0.0
	for i := range s.words {
		s.words[i] = word(i)
		total += 1 / math.Pow(float64(i+1), cfg.Zipf)
		s.cdf[i] = total
	}
	for i := range s.cdf {
		s.cdf[i] /= total
	}
	for i := range 20 {
		s.sites = append(s.sites, [2]string{
			s.sentence(12) + " " + s.sentence(6),
			s.sentence(10) + " " + s.sentence(8) + fmt.Sprintf(" Site %d.", i),
		})
	}
	return s
}

func (s *SynthStream) randomWord() string {
	i, _ := slices.BinarySearch(s.cdf, s.r.Float64())
	return s.words[min(i, len(s.words)-1)]
}

func (s *SynthStream) sentence(n int) string {
	s.scratch = s.scratch[:0]
	for range n {
		s.scratch = append(s.scratch, s.randomWord())
	}
	w := s.scratch[0]
	s.scratch[0] = strings.ToUpper(w[:1]) + w[1:]
	return strings.Join(s.scratch, " ") + "."
}

func (s *SynthStream) text(headline string, sentences []string) string {
	return headline + "\n\n" + strings.Join(sentences, " ")
}

// Next returns the next document of the stream.
func (s *SynthStream) Next() SynthItem {
	id := fmt.Sprintf("%s%d", s.cfg.Prefix, s.n)
	s.n++
	if len(s.recent) < 2 || s.r.Float64() >= s.cfg.VariantRate {
		return s.base(id)
	}
	src := s.recent[s.r.IntN(len(s.recent))]
	switch k := s.r.IntN(4); k {
	case 0: // syndicated copy
		sent := slices.Clone(src.sentences)
		for range 1 + s.r.IntN(3) {
			i := s.r.IntN(len(sent))
			ws := strings.Fields(sent[i])
			ws[s.r.IntN(len(ws))] = s.randomWord()
			sent[i] = strings.Join(ws, " ")
		}
		site := s.sites[s.r.IntN(len(s.sites))]
		text := site[0] + "\n\n" + s.text(src.headline, sent) + "\n\n" + site[1]
		return SynthItem{Doc: detector.Doc{ID: id, Text: text}, Kind: Copy, Sources: []string{src.id}}
	case 1: // edited: new headline, some sentences deleted
		var sent []string
		for _, x := range src.sentences {
			if s.r.IntN(5) != 0 {
				sent = append(sent, x)
			}
		}
		if len(sent) == 0 {
			sent = src.sentences[:1]
		}
		return SynthItem{Doc: detector.Doc{ID: id, Text: s.text(s.sentence(7), sent)}, Kind: Edited, Sources: []string{src.id}}
	case 2: // truncated
		k := max(2, len(src.sentences)/2)
		return SynthItem{Doc: detector.Doc{ID: id, Text: s.text(src.headline, src.sentences[:k])}, Kind: Truncated, Sources: []string{src.id}}
	default: // merged round-up
		other := s.recent[s.r.IntN(len(s.recent))]
		if other.id == src.id {
			return s.base(id)
		}
		text := s.text(s.sentence(8), src.sentences) + "\n\n" + s.text(other.headline, other.sentences)
		return SynthItem{Doc: detector.Doc{ID: id, Text: text}, Kind: Merged, Sources: []string{src.id, other.id}}
	}
}

func (s *SynthStream) base(id string) SynthItem {
	n := s.cfg.MinSentences + s.r.IntN(s.cfg.MaxSentences-s.cfg.MinSentences+1)
	sent := make([]string, n)
	for i := range sent {
		sent[i] = s.sentence(8 + s.r.IntN(18))
	}
	d := recentDoc{id: id, headline: s.sentence(6 + s.r.IntN(5)), sentences: sent}
	if len(s.recent) < s.cfg.Recent {
		s.recent = append(s.recent, d)
	} else {
		s.recent[s.r.IntN(len(s.recent))] = d
	}
	return SynthItem{Doc: detector.Doc{ID: id, Text: s.text(d.headline, sent)}, Kind: Base}
}

// SynthDocs returns the first n documents of the stream for cfg.
func SynthDocs(n int, cfg SynthConfig) []detector.Doc {
	s := NewSynth(cfg)
	out := make([]detector.Doc, n)
	for i := range out {
		out[i] = s.Next().Doc
	}
	return out
}
