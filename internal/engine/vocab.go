package engine

import "github.com/seed-9ef9c1df/neardup/textproc"

// Vocab is the rule by which a Signer's interned vocabulary (its
// analyzer's terms and its caches per term ID) gives back what an endless
// stream of new words made it grow. It counts, per term ID, the documents
// a term was seen in (up to 2), and the tokens analysed since the last
// fresh start. A Signer starts afresh when its vocabulary
// exceeds the limit, when it has analysed 16 times the limit in tokens
// (which bounds the surface forms the analyzer keeps), or after a single
// document of more tokens than the limit. The limit is twice the terms seen
// in at least two documents since the last fresh start (the recurring
// vocabulary), and at least a floor: memory follows the recurring
// vocabulary, and a document of millions of distinct tokens is forgotten
// once it is signed ([Vocab.Renew]).
//
// Vocab also tells the first occurrence of a term in the current document
// ([Vocab.First]), which the Signer needs for its distinct terms anyway.
type Vocab struct {
	stamp  []uint32 // serial of the last document the term was seen in
	uses   []uint8  // documents the term was seen in since the last fresh start, saturating at 2
	serial uint32
	limit  int // vocabulary size that triggers a fresh start
	tokens int // tokens analysed since the last fresh start
}

// NewVocab returns an empty Vocab whose limit is floor.
func NewVocab(floor int) Vocab { return Vocab{limit: floor} }

// Grow extends the per-term counts to a vocabulary of n term IDs.
func (v *Vocab) Grow(n int) {
	if n <= len(v.stamp) {
		return
	}
	v.stamp = append(v.stamp, make([]uint32, n-len(v.stamp))...)
	v.uses = append(v.uses, make([]uint8, n-len(v.uses))...)
}

// Begin starts a document of n tokens.
func (v *Vocab) Begin(n int) {
	v.tokens += n
	v.serial++
	if v.serial == 0 { // wrapped: reset stamps
		clear(v.stamp)
		v.serial = 1
	}
}

// First reports whether term id is seen for the first time in the current
// document, and counts the document for it if so.
func (v *Vocab) First(id uint32) bool {
	if v.stamp[id] == v.serial {
		return false
	}
	v.stamp[id] = v.serial
	v.uses[id] = min(v.uses[id]+1, 2)
	return true
}

// Big reports whether a document of n tokens is an outlier: more tokens
// than the limit.
func (v *Vocab) Big(n int) bool { return n > v.limit }

// Renew runs after a document is signed, big (see Big) or not: when the
// vocabulary of *an is past the limit (or the document was big, or the
// tokens analysed since the last fresh start are 16 times the limit), it
// starts afresh: *an becomes a new analyzer for tc, and v an empty Vocab
// whose limit is twice the terms it saw in at least two documents, at
// least floor. It reports whether it did; the caller then drops its own
// per-term caches and anything that holds the old analyzer's terms.
func (v *Vocab) Renew(an **textproc.Analyzer, tc textproc.Config, floor int, big bool) bool {
	if !big && (*an).VocabularySize() <= v.limit && v.tokens <= 16*v.limit {
		return false
	}
	fresh, err := textproc.NewAnalyzer(tc)
	if err != nil {
		return false // cannot happen: the same Config built the first one
	}
	recurring := 0
	for _, u := range v.uses {
		if u >= 2 {
			recurring++
		}
	}
	*an = fresh
	*v = NewVocab(max(floor, 2*recurring))
	return true
}

// Bytes returns the bytes held by the per-term counts.
func (v *Vocab) Bytes() int { return 4*cap(v.stamp) + cap(v.uses) }
