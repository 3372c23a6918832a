package ner

import "slices"

// Bounds that keep Find linear in the length of its text. A candidate is a
// maximal run of capitalised words, as long as the text in the worst case
// ("T1a2b T3c4d ..."); the rules look up sub-spans of it in the gazetteer
// and the memory, and split it into parts they classify again. Every
// look-up is therefore bounded by the longest key the map can hold, and
// every question "is there a word of this kind in the range" is answered
// from per-word indexes built once per text, so that a candidate of k
// words costs O(k) map look-ups of at most a few words each, whatever k.

// memMaxWords is the longest sub-span of an entity that the memory
// registers for partial matching. Real entities are shorter: the longest
// the recogniser finds in the Turkish NER gold standard (Tür et al. 2003)
// has 10 words; a longer sub-span would hardly be written again anyway.
const memMaxWords = 12

// maxRunWords is the longest run of candidate words classified as one:
// a longer run is classified in pieces of maxRunWords words. The longest
// run in the Turkish NER gold standard (Tür et al. 2003) has 12 words; the bound
// keeps the recursion of classify, which can go one level deeper per word
// ("Ankara Ankara Ankara ..."), to a few hundred kilobytes of stack.
const maxRunWords = 256

// wordIndex answers range questions in O(1): for word k, where the
// nearest word of each kind lies before or after it. Indexes are int32: a
// text of 2³¹ words would need a words slice of some 100 GB first.
type wordIndex struct {
	prevSuf   int32 // last word <= k that is a location or organization suffix word, or -1
	prevDigit int32 // last word <= k whose key starts with a digit, or -1
	nextPSuf  int32 // first word >= k that is a person suffix word, or len(words)
	nextApos  int32 // first word >= k with an apostrophe suffix, or len(words)
	nextName  int32 // first word >= k that may name a person (in none of the not-person, not-name, prefix and modifier lists), or len(words)
}

// Word kinds of Recognizer.kinds: one map look-up per word tells all the
// rule lists a word belongs to.
const (
	kindSuffix   uint8 = 1 << iota // a location or organization suffix word
	kindPSuffix                    // a person suffix word
	kindNoPerson                   // a word that names no person: in a not-person, not-name, prefix or modifier list
)

// buildKinds fills r.kinds from the rule and gazetteer sets.
func (r *Recognizer) buildKinds() {
	r.kinds = map[string]uint8{}
	for _, set := range []struct {
		m    map[string]bool
		kind uint8
	}{
		{r.locSuf, kindSuffix}, {r.orgSuf, kindSuffix}, {r.personSuf, kindPSuffix},
		{r.notPersons, kindNoPerson}, {r.notNames, kindNoPerson}, {r.prefixes, kindNoPerson}, {r.modifiers, kindNoPerson},
	} {
		for k := range set.m {
			r.kinds[k] |= set.kind
		}
	}
}

// index fills d.idx.
func (r *Recognizer) index(d *doc) {
	ws := d.words
	n := len(ws)
	d.idx = slices.Grow(d.idx[:0], n)[:n]
	d.kinds = slices.Grow(d.kinds[:0], n)[:n]
	kinds := d.kinds
	prevSuf, prevDigit := int32(-1), int32(-1)
	for k := range ws {
		key := ws[k].key
		kinds[k] = r.kinds[key]
		if kinds[k]&kindSuffix != 0 {
			prevSuf = int32(k)
		}
		if isDigitStart(key) {
			prevDigit = int32(k)
		}
		d.idx[k].prevSuf, d.idx[k].prevDigit = prevSuf, prevDigit
	}
	nextPSuf, nextApos, nextName := int32(n), int32(n), int32(n)
	for k := n - 1; k >= 0; k-- {
		if kinds[k]&kindPSuffix != 0 {
			nextPSuf = int32(k)
		}
		if ws[k].apos {
			nextApos = int32(k)
		}
		if kinds[k]&kindNoPerson == 0 {
			nextName = int32(k)
		}
		d.idx[k].nextPSuf, d.idx[k].nextApos, d.idx[k].nextName = nextPSuf, nextApos, nextName
	}
}

// isLocation reports whether the words [i, j) are a place of the gazetteer.
func (r *Recognizer) isLocation(d *doc, i, j int) bool {
	return j-i <= r.locMaxWords && r.locations[string(d.keyBytes(i, j))]
}

// isOrg reports whether the words [i, j) are an organization of the
// gazetteer.
func (r *Recognizer) isOrg(d *doc, i, j int) bool {
	return j-i <= r.orgMaxWords && r.orgs[string(d.keyBytes(i, j))]
}

// isFullPerson reports whether the words [i, j) are a full name of the
// gazetteer.
func (r *Recognizer) isFullPerson(d *doc, i, j int) bool {
	return j-i <= r.personMaxWords && r.fullPersons[string(d.keyBytes(i, j))]
}

// remembered returns the type the memory holds for the words [i, j), or 0.
func (r *Recognizer) remembered(d *doc, i, j int) Type {
	if j-i > r.memLookupMax {
		return 0
	}
	return d.mem[string(d.keyBytes(i, j))]
}
