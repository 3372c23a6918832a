package codet

// Matched spans: which sentences of a contained document a container
// has (Varol 2012 §3.1, "also detects similar parts").

import (
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// Span is a sentence of a contained document and how much of it was found in
// a container (see [Detector.Matched]).
type Span struct {
	// Start and End are the byte offsets of the sentence in the text given
	// to Add.
	Start, End int
	// Score is the best cs(s, t)/cs(s, s) over the container's sequences t
	// (Eq. 3.2 truncated at DT): 1 when the sentence's DT most significant
	// words all appear, in the same idf order, in one sentence of the
	// container.
	Score float64
}

// Matched returns the sentences of the document contained that were found
// in the document container: the byte offsets (into the text given to Add)
// of every sentence of contained that shares a scored prefix with a
// sentence of container, with the fraction of its self-similarity found,
// ordered by Start. It works for any two live documents, whether or not
// container ⊇ contained was decided. Matched time is O((|S_A| + |S_C|)·DT).
// It returns an error wrapping [detector.ErrUnknownID] or
// [detector.ErrClosed].
func (d *Detector) Matched(container, contained string) (spans []Span, err error) {
	d.inspect(func(x *index) { spans, err = x.matched(container, contained) })
	return spans, err
}

// matched is Matched under the lock.
func (d *index) matched(container, contained string) ([]Span, error) {
	ci, err := d.docs.Lookup("Matched", container)
	if err != nil {
		return nil, err
	}
	ai, err := d.docs.Lookup("Matched", contained)
	if err != nil {
		return nil, err
	}
	if d.v.Group(ci) == noGroup || d.v.Group(ai) == noGroup || ci == ai {
		return nil, nil
	}
	// The prefixes of the container's sequences, by hash: a sequence of A
	// shares a prefix of length L with some sequence of C iff its prefix of
	// length L is in the set (prefix-closed).
	onC := make(map[[2]uint64]struct{})
	cTerms, _ := d.sequencesOf(ci)
	for _, seq := range cTerms {
		h := hashSeed
		for _, t := range seq {
			h = hashStep(h, uint64(t))
			onC[h] = struct{}{}
		}
	}
	spans := d.docSpans[ai]
	best := make([]float64, len(spans)/2)
	aTerms, aSent := d.sequencesOf(ai)
	for k, seq := range aTerms {
		self, found := 0.0, 0.0
		matching := true
		h := hashSeed
		for i, t := range seq {
			imp := d.weightNow(t) * d.s.pow[i+1]
			self += imp
			h = hashStep(h, uint64(t))
			if _, ok := onC[h]; ok && matching {
				found += imp
			} else {
				matching = false
			}
		}
		if self > 0 && found > 0 {
			o := aSent[k]
			best[o] = max(best[o], found/self)
		}
	}
	var out []Span
	for o, sc := range best {
		if sc > 0 {
			out = append(out, Span{Start: int(spans[2*o]), End: int(spans[2*o+1]), Score: sc})
		}
	}
	return out, nil
}

// hashSeed starts a 128-bit running hash: a content signature
// (seqBuf.sig) or a prefix of terms (Matched).
var hashSeed = [2]uint64{0x9e3779b97f4a7c15, 0xc2b2ae3d27d4eb4f}

// hashStep adds x to the 128-bit running hash h.
func hashStep(h [2]uint64, x uint64) [2]uint64 {
	return [2]uint64{hashtab.Combine(h[0], x), hashtab.Combine(h[1], x+0x27d4eb2f165667c5)}
}

// sequencesOf returns the term sequences of live document idx and the
// sentence ordinal of each: read up the tree from its group's sequence
// ends, or from its near content.
func (d *index) sequencesOf(idx uint32) ([][]uint32, []uint32) {
	f := d.v.Features(d.v.Group(idx))
	if nr := f.nr; nr != noGroup {
		x := &d.nears[nr]
		out := make([][]uint32, len(x.off)-1)
		for k := range out {
			out[k] = x.terms[x.off[k]:x.off[k+1]]
		}
		return out, x.sent
	}
	gr := &d.groups[f.g]
	out := make([][]uint32, len(gr.ends))
	for k, e := range gr.ends {
		var seq []uint32
		for c := e; c != 0; c = d.nodes.at(c).parent {
			seq = append(seq, d.nodes.at(c).term)
		}
		slices.Reverse(seq)
		out[k] = seq
	}
	return out, gr.sent
}
