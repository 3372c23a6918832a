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
	ntok int      // tokens of the last text

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
	e.ntok = len(e.hs)
}

// shingles returns the sorted, de-duplicated hashes of the word w-shingles
// of text ("for each document, all substrings of size four are hashed",
// Varol 2012 §4.1.2). A text of fewer than w words but at least one has one
// shingle of all its words; a text without words has none. The result
// aliases e.out.
func (e *extractor) shingles(text string) []uint64 {
	e.tokens(text)
	e.out = appendShingles(e.out[:0], e.hs, e.cfg.Shingle, 1)
	slices.Sort(e.out)
	e.out = slices.Compact(e.out)
	return e.out
}

// appendShingles appends the hash of every stride-th w-shingle of the token
// hashes hs to dst, in position order.
func appendShingles(dst, hs []uint64, w, stride int) []uint64 {
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
	return dst
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
		e.out = appendShingles(e.out[:0], e.hs, cfg.Shingle, cfg.Stride)
		slices.Sort(e.out)
		e.out = slices.Compact(e.out)
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
	e.sup = appendShingles(e.sup[:0], sample, k, 1)
	slices.Sort(e.sup)
	e.sup = slices.Compact(e.sup)
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

// postings is an inverted index from a 64-bit feature to the groups of
// exact copies holding it, as plain integer slices. Most shingles occur in
// one group only, so a feature's first group is kept in the table value
// itself (flagged by single) and a slice is allocated only for a second
// one. This packed layout is why postings keeps its own deletion
// instead of engine.DeletePosting, whose lists are map values.
//
// The table ([hashtab.Map]) follows the live features down by itself;
// once deletions leave the features a quarter of their peak, shrink
// renumbers the lists so that their headers are given back too.
type postings struct {
	ids hashtab.Map // feature → list ID, or single|document
	docLists
	peak int // ids.Len() at its largest since the last renumbering
}

const single = 1 << 31

// minRenumber is the number of features below which postings never
// renumbers its lists: a small index costs little, and renumbering it
// often would.
const minRenumber = 1 << 12

// lookup returns the entry of f (absent is reported as 0 documents): pass
// it to entryLen and read to avoid a second probe.
func (p *postings) lookup(f uint64) (v uint32, ok bool) {
	return p.ids.Get(f)
}

// entryLen returns the number of documents of an entry from lookup.
func (p *postings) entryLen(v uint32, ok bool) int {
	switch {
	case !ok:
		return 0
	case v&single != 0:
		return 1
	}
	return len(p.lists[v])
}

// read returns the documents of an entry from lookup, using one for a
// feature of one document: searches that share the postings read them
// with scratch of their own. The slice is valid until the postings change.
func (p *postings) read(v uint32, ok bool, one *[1]uint32) []uint32 {
	switch {
	case !ok:
		return nil
	case v&single != 0:
		one[0] = v &^ single
		return one[:]
	}
	return p.lists[v]
}

// reserve makes room for n more features, so that a large document's
// insertion grows the table once.
func (p *postings) reserve(n int) {
	p.ids.Reserve(n)
}

// add records doc under f.
func (p *postings) add(f uint64, doc uint32) {
	v, ok := p.ids.Ref(f)
	switch {
	case !ok:
		*v = single | doc
		p.peak = max(p.peak, p.ids.Len())
	case *v&single != 0:
		*v = p.pair(*v&^single, doc)
	default:
		p.lists[*v] = append(p.lists[*v], doc)
	}
}

// remove deletes doc from f's list (order within a list is not kept).
func (p *postings) remove(f uint64, doc uint32) {
	v, ok := p.ids.Get(f)
	if !ok {
		return
	}
	if v&single != 0 {
		if v&^single == doc {
			p.ids.Delete(f)
		}
		return
	}
	switch n, one := p.drop(v, doc); n {
	case 0:
		p.ids.Delete(f)
	case 1:
		p.ids.Set(f, single|one)
	}
}

// docLists are the lists of two or more documents of postings and
// sigPosts, by list ID; freed IDs, and their small arrays, are reused.
type docLists struct {
	lists [][]uint32
	free  []uint32
}

// pair returns the ID of a new list holding a and b.
func (l *docLists) pair(a, b uint32) uint32 {
	id, ok := hashtab.Pop(&l.free)
	if !ok {
		id = uint32(len(l.lists))
		l.lists = append(l.lists, nil)
	}
	l.lists[id] = append(l.lists[id][:0], a, b)
	return id
}

// drop deletes doc from list v (the last entry moves into its place) and
// returns how many entries are left, and the one left when it is one. A
// list left with fewer than two is released, its entry to be kept by the
// caller; a large array that is less than a quarter used is given back.
func (l *docLists) drop(v, doc uint32) (n int, one uint32) {
	list := l.lists[v]
	if i := slices.Index(list, doc); i >= 0 {
		list[i] = list[len(list)-1]
		list = list[:len(list)-1]
	}
	if len(list) < 2 {
		if len(list) == 1 {
			one = list[0]
		}
		l.release(v)
		return len(list), one
	}
	if cap(list) > 64 && len(list) < cap(list)/4 {
		list = slices.Clip(slices.Clone(list))
	}
	l.lists[v] = list
	return len(list), 0
}

// release returns list v to the free list; a small array stays for reuse.
func (l *docLists) release(v uint32) {
	if cap(l.lists[v]) > 8 {
		l.lists[v] = nil
	} else {
		l.lists[v] = l.lists[v][:0]
	}
	l.free = append(l.free, v)
}

// shrink renumbers the lists once the live features are fewer than a
// quarter of the peak (call it after removes), so that the list headers
// follow them down as the table does. Its cost is amortised over those
// deletions.
func (p *postings) shrink() {
	if p.peak < minRenumber || p.ids.Len() >= p.peak/4 {
		return
	}
	var multi []uint64 // features of two or more documents
	for f, v := range p.ids.All() {
		if v&single == 0 {
			multi = append(multi, f)
		}
	}
	lists := make([][]uint32, 0, len(multi))
	for _, f := range multi {
		v, _ := p.ids.Ref(f)
		lists = append(lists, p.lists[*v])
		*v = uint32(len(lists) - 1)
	}
	p.lists, p.free, p.peak = lists, nil, p.ids.Len()
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
