package codet

import "github.com/seed-9ef9c1df/neardup/internal/hashtab"

// vocabTable maps a term to its detector term ID (the strings are
// Detector.terms). Unlike a Go map, the hash is computed once per term
// and worker, outside the lock, and interning under the exclusive lock is
// one probe. A slot holds 32 bits of the hash and the ID; the string is
// compared on a hash match. Parts as in [childTable]; terms are never
// deleted one by one (compaction builds a new table). It stays a table of
// its own because its keys are strings, compared in full: hashtab.Map
// holds 64-bit keys, on which two terms may collide.
//
// No code iterates over the table, so its layout cannot change an answer.
type vocabTable struct {
	parts *[tableParts]vocabPart
}

// vocabSlot is one term: tag is the low 32 bits of its hash, odd (0 marks
// an empty slot), and its bits above the lowest choose the home slot.
type vocabSlot struct {
	tag, id uint32
}

type vocabPart struct {
	slots []vocabSlot // a power of two long, or empty
	n     int
}

// termHash is the 64-bit hash of a term: the vocabulary's and the content
// signature's ([worker.hash] caches it). It is odd.
func termHash(term string) uint64 { return hashtab.String64(term, 0x5bd1e995) | 1 }

// makeVocabTable returns an empty table sized for n terms.
func makeVocabTable(n int) vocabTable {
	t := vocabTable{parts: new([tableParts]vocabPart)}
	if size := partSlots(n); size > 0 {
		for i := range t.parts {
			t.parts[i].slots = hashtab.FreshSlice[vocabSlot](size)
		}
	}
	return t
}

// get returns the ID of term, of hash h ([termHash]); terms are the
// detector's terms by ID.
func (t *vocabTable) get(term string, h uint64, terms []string) (uint32, bool) {
	if t.parts == nil {
		return 0, false
	}
	pt := &t.parts[h>>(64-tablePartBits)]
	if len(pt.slots) == 0 {
		return 0, false
	}
	x, ok := pt.find(term, uint32(h), terms)
	return x.id, ok
}

// intern returns the ID of term, of hash h, and false if the table holds
// it; otherwise it records term with ID next and returns next and true
// (the caller then appends term to its terms).
func (t *vocabTable) intern(term string, h uint64, terms []string, next uint32) (uint32, bool) {
	if t.parts == nil {
		t.parts = new([tableParts]vocabPart)
	}
	pt := &t.parts[h>>(64-tablePartBits)]
	if 4*(pt.n+1) > 3*len(pt.slots) {
		pt.grow()
	}
	x, ok := pt.find(term, uint32(h), terms)
	if ok {
		return x.id, false
	}
	*x = vocabSlot{tag: uint32(h), id: next}
	pt.n++
	return next, true
}

// find returns the slot of term, of tag tag, and true, or the empty slot
// that ends its probe and false. The part must have slots.
func (pt *vocabPart) find(term string, tag uint32, terms []string) (*vocabSlot, bool) {
	mask := uint32(len(pt.slots) - 1)
	for i := (tag >> 1) & mask; ; i = (i + 1) & mask {
		x := &pt.slots[i]
		if x.tag == 0 {
			return x, false
		}
		if x.tag == tag && terms[x.id] == term {
			return x, true
		}
	}
}

// grow doubles the part (to tableMinSlots when empty) and reinserts its
// terms, each at the home slot its tag gives.
func (pt *vocabPart) grow() {
	old := pt.slots
	pt.slots = hashtab.FreshSlice[vocabSlot](max(tableMinSlots, 2*len(old)))
	mask := uint32(len(pt.slots) - 1)
	for _, x := range old {
		if x.tag == 0 {
			continue
		}
		i := (x.tag >> 1) & mask
		for pt.slots[i].tag != 0 {
			i = (i + 1) & mask
		}
		pt.slots[i] = x
	}
}
