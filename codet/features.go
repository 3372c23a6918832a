package codet

import (
	"slices"
	"strings"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// weighter gives the idf weight of a term.
type weighter interface {
	weight(id uint32, term string) float64
	// hash is a 64-bit hash of the term, for the content signature: it
	// must depend on the term alone, not on the analyzer's IDs.
	hash(id uint32, term string) uint64
}

type tokw struct {
	id   uint32
	w    float64
	term string
}

// seqBuf holds the word sequences of one document as flat slices (no
// allocation per document once grown).
type seqBuf struct {
	terms []uint32  // term IDs of every sequence, concatenated
	w     []float64 // their weights
	off   []int32   // sequence k is terms[off[k]:off[k+1]]
	sent  []uint32  // sentence ordinal of each sequence
	spans []uint32  // start, end byte offsets of each sentence with a sequence
	tok   []tokw
	hs    []uint64
	// sig is a 128-bit hash of the document's content as the tree sees
	// it: each sentence's multiset of terms, in sentence order. It does not
	// depend on idf, so a copy is recognised however the weights drifted.
	sig [2]uint64
}

func (b *seqBuf) reset() {
	b.terms, b.w, b.sent, b.spans = b.terms[:0], b.w[:0], b.sent[:0], b.spans[:0]
	b.off = append(b.off[:0], 0)
	b.sig = hashSeed
}

func (b *seqBuf) n() int { return len(b.off) - 1 }

func (b *seqBuf) seq(k int) ([]uint32, []float64) {
	lo, hi := b.off[k], b.off[k+1]
	return b.terms[lo:hi], b.w[lo:hi]
}

// build fills b with the sequences CoDet inserts for an analysed document
// (Varol 2012 §3.2 and Alg. 1): for each sentence, its words sorted by
// idf, descending (WS, §5.2.3; ties by term, ours), then the first PSC
// suffixes of that order (§5.2.1), each truncated to DT words (§5.2.2;
// Alg. 2 creates a node at depth DT+1 but never scores it, so it is
// omitted).
func (s *settings) build(b *seqBuf, doc *textproc.Document, wf weighter) {
	b.reset()
	for _, sen := range doc.Sentences {
		b.tok = b.tok[:0]
		for _, t := range sen.Tokens {
			w := wf.weight(t.ID, t.Term)
			b.tok = append(b.tok, tokw{id: t.ID, w: w, term: t.Term})
		}
		if len(b.tok) == 0 {
			continue
		}
		b.hs = b.hs[:0]
		for _, t := range b.tok {
			b.hs = append(b.hs, wf.hash(t.id, t.term))
		}
		slices.Sort(b.hs)
		b.sig[0] = hashtab.Combine(b.sig[0], uint64(len(b.hs)))
		b.sig[1] = hashtab.Combine(b.sig[1], uint64(len(b.hs))^0x5bd1e995)
		for _, h := range b.hs {
			b.sig = hashStep(b.sig, h)
		}
		if !s.NoWordSort {
			// Not stable: two entries that compare equal have the same
			// term, hence the same ID and weight, so the order is the same.
			slices.SortFunc(b.tok, func(x, y tokw) int {
				switch {
				case x.w > y.w:
					return -1
				case x.w < y.w:
					return 1
				}
				return strings.Compare(x.term, y.term)
			})
		}
		ord := uint32(len(b.spans) / 2)
		for p := 0; p < s.psc && p < len(b.tok); p++ {
			end := min(p+s.dt, len(b.tok))
			for _, t := range b.tok[p:end] {
				b.terms = append(b.terms, t.id)
				b.w = append(b.w, t.w)
			}
			b.off = append(b.off, int32(len(b.terms)))
			b.sent = append(b.sent, ord)
		}
		b.spans = append(b.spans, uint32(sen.Start), uint32(sen.End))
	}
}

// Sequence is one word sequence a document inserts into the corpus tree: a
// sentence's terms sorted by idf (descending), or one of its first PSC
// suffixes, truncated to DT terms, with the byte offsets of the sentence in
// the original text.
type Sequence struct {
	// Terms are the processed terms (case-folded, stemmed), at most DT.
	Terms []string
	// Weights are the idf weights of Terms.
	Weights []float64
	// Start and End are the byte offsets of the sentence in the text.
	Start, End int
}

type funcWeighter func(term string) float64

func (f funcWeighter) hash(_ uint32, term string) uint64 {
	return termHash(term)
}

func (f funcWeighter) weight(_ uint32, term string) float64 {
	if f == nil {
		return 1
	}
	return f(term)
}

// Sequences returns the word sequences the corpus tree would insert for
// text under cfg, weighting terms with idf (nil weighs every term 1): the
// pure per-document part of CoDet, to score pairs with [Score] without
// the index. It allocates a text analyzer per call, and returns an error
// wrapping [detector.ErrInvalidConfig] for an invalid cfg.
func Sequences(text string, cfg Config, idf func(term string) float64) ([]Sequence, error) {
	s, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	an, err := textproc.NewAnalyzer(s.tc)
	if err != nil {
		return nil, err
	}
	var b seqBuf
	s.build(&b, an.Analyze(text), funcWeighter(idf))
	out := make([]Sequence, b.n())
	for k := range out {
		ids, ws := b.seq(k)
		terms := make([]string, len(ids))
		for i, id := range ids {
			terms[i] = an.TermOf(id)
		}
		o := b.sent[k]
		out[k] = Sequence{Terms: terms, Weights: slices.Clone(ws), Start: int(b.spans[2*o]), End: int(b.spans[2*o+1])}
	}
	return out, nil
}

// Score returns the containment similarity CS(container, contained) of
// Eq. 3.1, truncated at DT and with depth power DSP as cfg says:
//
//	cs(s_i, s_j) = Σ_{k=1}^{min(len f(s_i,s_j), DT)} k^DSP × idf(w_{f,k})   (Eq. 3.2)
//	CS(d_C, d_A) = Σ_{s_i ∈ S_C} Σ_{s_j ∈ S_A} cs(s_i, s_j)               (Eq. 3.1)
//
// with f the longest common word prefix and the contained document's
// weights, and SCS(contained) = CS(contained, contained) (Eq. 3.3):
// what [ModePairwise] computes in the tree without node deactivation.
// Score is O(|S_C|·|S_A|·DT). It returns an error wrapping
// [detector.ErrInvalidConfig] for an invalid cfg.
func Score(container, contained []Sequence, cfg Config) (cs, scs float64, err error) {
	s, err := cfg.resolve()
	if err != nil {
		return 0, 0, err
	}
	pair := func(a, c Sequence) float64 {
		v := 0.0
		for k := 0; k < len(a.Terms) && k < len(c.Terms) && k < s.dt; k++ {
			if a.Terms[k] != c.Terms[k] {
				break
			}
			v += a.Weights[k] * s.pow[k+1]
		}
		return v
	}
	for _, a := range contained {
		for _, c := range container {
			cs += pair(a, c)
		}
		for _, c := range contained {
			scs += pair(a, c)
		}
	}
	return cs, scs, nil
}
