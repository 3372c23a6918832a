package shingle

import (
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Token classes of SpotSigs, as bit flags (0 is a plain word).
const (
	classStop       uint8 = 1 << 0
	classAntecedent uint8 = 1 << 1
)

// extractor turns text into the features of one Method: sorted shingle
// hashes (or a DSC sample of them), or a spot-signature multiset. It owns a
// textproc.Analyzer and scratch buffers, so it is not safe for concurrent
// use; a Detector keeps a pool of them, one per concurrent Add.
//
// Terms are hashed as they come ([textproc.Analyzer.Terms]), never
// interned: an extractor's memory does not grow with the vocabulary of the
// texts it has seen, only with the largest text (see release).
type extractor struct {
	cfg     Config
	an      *textproc.Analyzer
	classes map[string]uint8 // SpotSigs: stopword and antecedent flags by term

	hs   []uint64 // scratch: token hashes of the current text
	cls  []uint8  // scratch: token classes of the current text (SpotSigs)
	out  []uint64 // scratch: features
	cnt  []uint32 // scratch: multiplicities (SpotSigs)
	sup  []uint64 // scratch: super-shingles
	next []int32  // scratch: per token, the first non-stopword at or after it (SpotSigs)
	hash uint64   // digest of the token sequence of the last text

	// spotSteps counts the chain links spots has visited, for tests: it
	// grows linearly with the tokens.
	spotSteps int
}

func newExtractor(cfg Config) (*extractor, error) {
	tcfg, err := engine.Pipeline(cfg.Language, cfg.KeepStopwords, cfg.Stemmer, textproc.StemPrefix, cfg.PrefixLen)
	if err != nil {
		return nil, err
	}
	tag := tcfg.Language
	if cfg.Method == SpotSigs {
		tcfg = textproc.Config{Language: tag}
	}
	tcfg.Content = cfg.Content
	an, err := textproc.NewAnalyzer(tcfg)
	if err != nil {
		return nil, err
	}
	e := &extractor{cfg: cfg, an: an}
	if cfg.Method == SpotSigs {
		e.classes = map[string]uint8{}
		stop := textproc.Stopwords(tag)
		for _, w := range stop {
			e.classes[w] |= classStop
		}
		for _, w := range antecedentList(cfg.Antecedents) {
			if term, ok := an.AppendTerm(nil, w); ok {
				e.classes[string(term)] |= classAntecedent
				if len(stop) == 0 {
					// No stopword list: the antecedents are the
					// language's function words the chains skip.
					e.classes[string(term)] |= classStop
				}
			}
		}
	}
	return e, nil
}

// largeScratch is the scratch capacity, in elements, above which an
// extractor lets its buffers go after use (see release).
const largeScratch = 1 << 16

// release drops scratch buffers an outlier text grew beyond largeScratch,
// so one huge document does not pin its buffers for the life of the
// detector. It reports whether the extractor is worth keeping: after a text
// of more than 1 MB the analyzer's own buffers are large too, and a fresh
// extractor is cheaper than what this one holds.
func (e *extractor) release(textLen int) bool {
	if textLen > 1<<20 {
		return false
	}
	if cap(e.hs) > largeScratch {
		e.hs, e.cls, e.next = nil, nil, nil
	}
	if cap(e.out) > largeScratch {
		e.out, e.cnt = nil, nil
	}
	if cap(e.sup) > largeScratch {
		e.sup = nil
	}
	return true
}

// tokens analyses text and fills e.hs with one hash per token (and, for
// SpotSigs, e.cls with its class).
func (e *extractor) tokens(text string) {
	e.hs, e.cls = e.hs[:0], e.cls[:0]
	spot := e.classes != nil
	var digest uint64 = 0x5350_4f54 // digest of the token sequence
	for _, term := range e.an.Terms(text) {
		h := hashtab.Bytes64(term, 0) | 1
		e.hs = append(e.hs, h)
		if spot {
			e.cls = append(e.cls, e.classes[string(term)])
		}
		digest = hashtab.Combine(digest, h)
	}
	e.hash = hashtab.Combine(digest, uint64(len(e.hs)))
}

// shingles returns the sorted, de-duplicated hashes of the word w-shingles
// of text ("for each document, all substrings of size four are hashed",
// Varol 2012 §4.1.2). A text of fewer than w words but at least one has one
// shingle of all its words; a text without words has none. The result
// aliases e.out.
func (e *extractor) shingles(text string) []uint64 {
	e.tokens(text)
	e.out = shingleSet(e.out[:0], e.hs, e.cfg.Shingle, 1)
	return e.out
}

// shingleSet returns the hashes of every stride-th w-shingle of the token
// hashes hs, sorted and de-duplicated, in the storage of the empty dst.
func shingleSet(dst, hs []uint64, w, stride int) []uint64 {
	if len(hs) == 0 {
		return dst
	}
	if len(hs) < w {
		w = len(hs)
	}
	for i := 0; i+w <= len(hs); i += stride {
		var h uint64
		for _, x := range hs[i : i+w] {
			h = hashtab.Combine(h, x)
		}
		dst = append(dst, h)
	}
	slices.Sort(dst)
	return slices.Compact(dst)
}

// sample returns DSC's sample of text: sorted, de-duplicated shingle hashes
// chosen by cfg.Sampling, and the number of distinct shingles it was drawn
// from. The result aliases e.out.
func (e *extractor) sample(text string) ([]uint64, int) {
	cfg := e.cfg
	if cfg.Sampling == SampleStride {
		// Reading (a) of Varol 2012 §4.1.1: shingles at positions
		// 0, Stride, 2·Stride, ... of the token sequence.
		e.tokens(text)
		e.out = shingleSet(e.out[:0], e.hs, cfg.Shingle, cfg.Stride)
		return e.out, len(e.out)
	}
	all := e.shingles(text)
	n := len(all)
	switch cfg.Sampling {
	case SampleMin:
		// MIN_s(W): the s smallest elements of π(W) (Broder 1997); the
		// xxh3-based shingle hash stands in for the random permutation π.
		if len(all) > cfg.SampleSize {
			e.out = all[:cfg.SampleSize]
		}
	default:
		// MOD_m(W): the elements of π(W) that are ≡ 0 mod m (Broder 1997).
		m := uint64(cfg.Modulus)
		k := 0
		for _, h := range all {
			if hashtab.Mix64(h)%m == 0 {
				all[k] = h
				k++
			}
		}
		if k == 0 && n > 0 {
			// Keep the smallest shingle of a text too short to have a
			// selected one, so its exact duplicates are still found.
			k = 1
		}
		e.out = all[:k]
	}
	return e.out, n
}

// superShingles returns the DSC-SS super-shingles of a sorted sample:
// the hashes of every window of k consecutive sample hashes (Broder et al.
// 1997: "the sorted sketch is shingled again"). A sample shorter than k
// has one super-shingle of all of it. The result aliases e.sup.
func (e *extractor) superShingles(sample []uint64, k int) []uint64 {
	e.sup = shingleSet(e.sup[:0], sample, k, 1)
	return e.sup
}

// spots returns the spot-signature multiset of text as sorted signature
// hashes with their multiplicities (Theobald et al. 2008):
// for each token that is an antecedent, a chain of ChainLength non-stopword
// tokens, the first SpotDistance tokens after the antecedent and each next
// one SpotDistance tokens after the previous, stopwords skipped. Time is
// O(n·ChainLength) for n tokens: a chain skips stopwords through e.next, an
// index of the next non-stopword, instead of scanning them. The results
// alias e.out and e.cnt.
func (e *extractor) spots(text string) ([]uint64, []uint32) {
	e.tokens(text)
	cfg := e.cfg
	n := len(e.hs)
	stop := func(k int) bool { return e.cls[k]&classStop != 0 }
	// e.next[k] is the first non-stopword at or after k, n if none.
	e.next = slices.Grow(e.next[:0], n+1)[:n+1]
	e.next[n] = int32(n)
	for k := n - 1; k >= 0; k-- {
		if stop(k) {
			e.next[k] = e.next[k+1]
		} else {
			e.next[k] = int32(k)
		}
	}
	raw := e.sup[:0] // scratch for the unsorted signature hashes
	for i := 0; i < n-1; i++ {
		if e.cls[i]&classAntecedent == 0 {
			continue
		}
		var h uint64 = 0x5350_4f54_5349_4753
		if cfg.IncludeAntecedent {
			h = hashtab.Combine(h, e.hs[i])
		}
		links := 0
		k := i + cfg.SpotDistance
		for j := 0; j < cfg.ChainLength && k < n; j++ {
			e.spotSteps++
			w := int(e.next[k])
			if w >= n {
				break
			}
			h = hashtab.Combine(h, e.hs[w])
			links++
			if cfg.ReleaseChains && w != k {
				// The release's walk (SpotSigs.java tokenize): when it
				// skips stopwords, its skip loop re-reads the current word
				// and leaves k one past the word it accepts, so the next
				// step lands at found+1+d.
				w++
			}
			k = w + cfg.SpotDistance
		}
		if links > 0 {
			raw = append(raw, h)
		}
	}
	e.sup = raw
	slices.Sort(raw)
	e.out, e.cnt = e.out[:0], e.cnt[:0]
	for i := 0; i < len(raw); {
		j := i + 1
		for j < len(raw) && raw[j] == raw[i] {
			j++
		}
		e.out = append(e.out, raw[i])
		e.cnt = append(e.cnt, uint32(j-i))
		i = j
	}
	return e.out, e.cnt
}

// marks is a per-query visited set over dense document indexes: a stamp
// array that needs no clearing between queries.
type marks struct {
	stamp []uint32
	cur   uint32
}

// next starts a new query over n documents.
func (m *marks) next(n int) {
	if n > len(m.stamp) {
		m.stamp = append(m.stamp, make([]uint32, n-len(m.stamp))...)
	}
	m.cur++
	if m.cur == 0 {
		clear(m.stamp)
		m.cur = 1
	}
}

// visit marks i and reports whether it was unmarked.
func (m *marks) visit(i uint32) bool {
	if m.stamp[i] == m.cur {
		return false
	}
	m.stamp[i] = m.cur
	return true
}

// intersect counts |a ∩ c| of two sorted sets, giving up (returning a value
// below need) as soon as the elements of a still unexamined cannot lift the
// count to need. It gallops through c when c is much longer than a.
func intersect(a, c []uint64, need int) int {
	n := 0
	if len(c) > 16*len(a) {
		for i, x := range a {
			if n+len(a)-i < need {
				return n
			}
			if _, ok := slices.BinarySearch(c, x); ok {
				n++
			}
		}
		return n
	}
	i, j := 0, 0
	for i < len(a) && j < len(c) {
		if n+len(a)-i < need {
			return n
		}
		switch {
		case a[i] < c[j]:
			i++
		case a[i] > c[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}
