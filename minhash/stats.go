package minhash

import (
	"cmp"
	"math"
	"slices"
	"sync"
)

// Stats holds the document frequencies Alonso et al. 2013 weigh phrases by:
// the df of every term (for "the document frequency of the first term in the
// window") and of every phrase, and the number of documents N (§4.3). It is
// built from a reference collection with [Stats.AddDocument], or kept
// online by a Weighted-mode [Detector] that was given none; such a Detector
// takes a removed document's terms and phrases out again, so the
// statistics describe the live documents and their memory follows them.
//
// A Stats is safe for concurrent use by multiple goroutines.
type Stats struct {
	mu     sync.RWMutex
	sk     *Sketcher
	termDF dfTable
	phrDF  dfTable
	n      int64
	hist   []int64 // hist[d] = number of phrases with df d
	nphr   int64
}

// NewStats returns empty statistics for the tokenising and phrase length of
// cfg (its Language and Shingle, DefaultPhraseLen in Weighted mode).
func NewStats(cfg Config) (*Stats, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return newStats(cfg), nil
}

func newStats(cfg Config) *Stats {
	return &Stats{sk: newSketcher(cfg)}
}

// AddDocument counts the distinct terms and phrases of text once each.
func (st *Stats) AddDocument(text string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.sk.phrases(text)
	st.addAll(st.sk.dterms, st.sk.keys)
	st.sk.shrink()
}

// addAll counts one document of the distinct terms and phrases given.
// Caller holds mu.
func (st *Stats) addAll(terms, phrases []uint64) {
	st.n++
	for _, h := range terms {
		st.termDF.inc(h)
	}
	for _, h := range phrases {
		st.tally(st.phrDF.inc(h))
	}
}

// tally moves one phrase from df x−1 to df x in the histogram.
func (st *Stats) tally(x int64) {
	if x > 1 {
		st.hist[x-1]--
	} else {
		st.nphr++
	}
	for int64(len(st.hist)) <= x {
		st.hist = append(st.hist, 0)
	}
	st.hist[x]++
}

// remove takes one document of the distinct terms and phrases given out of
// the counts, the inverse of addAll. Caller holds mu.
func (st *Stats) remove(terms, phrases []uint64) {
	st.n--
	for _, h := range terms {
		st.termDF.dec(h)
	}
	for _, h := range phrases {
		d := st.phrDF.get(h)
		if d == 0 {
			continue
		}
		st.phrDF.dec(h)
		st.hist[d]--
		if d > 1 {
			st.hist[d-1]++
		} else {
			st.nphr--
		}
	}
	// The histogram is as long as the largest df ever seen; trim its
	// zero tail so that an outlier's length does not stay.
	for len(st.hist) > 2 && st.hist[len(st.hist)-1] == 0 {
		st.hist = st.hist[:len(st.hist)-1]
	}
	if cap(st.hist) > 64 && 4*len(st.hist) < cap(st.hist) {
		st.hist = append([]int64(nil), st.hist...)
	}
}

// N returns the number of documents counted.
func (st *Stats) N() int64 {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.n
}

// count counts the document s.phrases found into stats and keeps the
// counts its weights need: the df of each phrase and term after its own
// count, the rare-phrase cut and N. Caller holds stats.mu.
func (s *Sketcher) count(stats *Stats) {
	s.phrDF = growInt64(s.phrDF, len(s.keys))
	s.tdf = growInt64(s.tdf, len(s.dterms))
	stats.termDF.reserve(len(s.dterms))
	stats.phrDF.reserve(len(s.keys))
	stats.termDF.prefetch(s.dterms)
	stats.phrDF.prefetch(s.keys)
	for t, h := range s.dterms {
		s.tdf[t] = stats.termDF.inc(h)
	}
	for i, h := range s.keys {
		s.phrDF[i] = stats.phrDF.inc(h)
	}
	stats.n++
	for _, x := range s.phrDF {
		stats.tally(x)
	}
	s.cut, s.n = stats.rareCut(s.cfg), stats.n
}

// rareCut returns the largest phrase df that is still rare.
func (st *Stats) rareCut(cfg Config) int64 {
	return st.rareCutAfter(cfg, 0, nil)
}

// rareCutAfter returns the rare-phrase cut the statistics would give with
// extra more documents counted, whose distinct phrases would then have the
// document frequencies newDF (their df now plus one), without counting
// them: what Query needs to weigh a document as Add would.
func (st *Stats) rareCutAfter(cfg Config, extra int64, newDF []int64) int64 {
	if cfg.RarePercent >= 100 {
		return math.MaxInt64
	}
	// A phrase shared by two documents is always rare (not in the paper): the
	// percentage rules are meant for large collections, and on a small one
	// they would zero the very phrases a duplicate pair shares.
	const minCut = 2
	if cfg.Rare == RareDocFraction {
		// §4.3: "occurs in at most n% of the documents".
		return max(minCut, int64(math.Floor(cfg.RarePercent/100*float64(st.n+extra))))
	}
	// §4.5: the bottom n% of phrases by df; phrases tied at the cut are in.
	// Each phrase of newDF moves from df x−1 to x in the histogram.
	nphr := st.nphr
	var moves []dfMove
	top := int64(len(st.hist)) - 1
	for _, x := range newDF {
		if x == 1 {
			nphr++
		} else {
			moves = append(moves, dfMove{x - 1, -1})
		}
		moves = append(moves, dfMove{x, 1})
		top = max(top, x)
	}
	slices.SortFunc(moves, func(a, b dfMove) int { return cmp.Compare(a.df, b.df) })
	want := int64(math.Ceil(cfg.RarePercent / 100 * float64(nphr)))
	var cum int64
	for d := int64(0); d <= top; d++ {
		if d < int64(len(st.hist)) {
			cum += st.hist[d]
		}
		for len(moves) > 0 && moves[0].df == d {
			cum += moves[0].by
			moves = moves[1:]
		}
		if cum >= want {
			return max(minCut, d)
		}
	}
	return math.MaxInt64
}

// dfMove is a change of one phrase count at a document frequency.
type dfMove struct{ df, by int64 }

// logWeight returns ln of the Alonso et al. 2013 weight of a phrase whose
// first term has df dfFirst and which itself has df dfPhrase, among n
// documents, or -Inf for weight 0. The combination is F(df_first) ·
// scale(df_phrase) · rare (§4.3; the §4.4 example "df⁴ … divided by the
// document frequency of the entire phrase" fixes that F applies to the
// first-term df alone). Frequencies below 1 (a text not in the statistics)
// count as 1.
func logWeight(cfg *Config, dfFirst, dfPhrase, n, cut int64) float64 {
	dfFirst, dfPhrase, n = max(dfFirst, 1), max(dfPhrase, 1), max(n, 1)
	if dfPhrase > cut {
		return math.Inf(-1) // a common phrase weighs 0 (§4.5)
	}
	d := float64(dfFirst)
	var lw float64
	switch cfg.Weighting {
	case WeightUniform:
		lw = 0
	case WeightDF:
		lw = lnCount(dfFirst)
	case WeightLnDF:
		lw = math.Log(lnCount(dfFirst))
	case WeightLnDFPow:
		lw = cfg.Power * math.Log(lnCount(dfFirst))
	case WeightDFPow:
		lw = cfg.Power * lnCount(dfFirst)
	case WeightIDF:
		lw = math.Log(math.Log(float64(n) / d))
	}
	switch cfg.Scale {
	case ScaleInverse:
		lw -= math.Log(float64(dfPhrase))
	case ScaleLogIDF:
		lw += math.Log(math.Log1p(float64(n) / float64(dfPhrase)))
	}
	if math.IsNaN(lw) {
		return math.Inf(-1)
	}
	return lw
}

// lnSmall[i] = ln i for the document frequencies most phrases have.
var lnSmall = func() (t [4096]float64) {
	for i := range t {
		t[i] = math.Log(float64(i))
	}
	return t
}()

// lnCount returns ln n for a count n ≥ 1, from a table when small.
func lnCount(n int64) float64 {
	if n < int64(len(lnSmall)) {
		return lnSmall[n]
	}
	return math.Log(float64(n))
}

// AppendWeightedSignature appends the weighted signature of the distinct
// phrases of text, weighted by the configured Alonso et al. 2013 weighting
// under stats and sampled by the configured Sampler, and returns it with
// the number of distinct phrases. A nil stats weighs every phrase 1 (the
// plain set). Phrases of weight 0 (common, or ln 1 = 0) are left out; a
// text none of whose phrases weigh anything has no signature (dst
// unchanged) but still its phrase count.
//
// It is O(n·K) for n phrases with IoffeICWS, O(n + K log K) with Darts
// (see [DartMinHash]).
func (s *Sketcher) AppendWeightedSignature(dst []uint32, text string, stats *Stats) ([]uint32, int) {
	s.phrases(text)
	s.weigh(stats)
	return s.sampleWeighted(dst), len(s.keys)
}

// phrases fills s.keys with the distinct phrase hashes of text, s.dterms
// with the distinct terms, and s.kfirst with the position in s.dterms of
// each phrase's first term (shingle i begins with term i).
func (s *Sketcher) phrases(text string) {
	s.shingles(text, true)
	s.set.reset(len(s.terms))
	s.dterms, s.tpos = s.dterms[:0], s.tpos[:0]
	for _, h := range s.terms {
		p, added := s.set.index(h, int64(len(s.dterms)))
		if added {
			s.dterms = append(s.dterms, h)
		}
		s.tpos = append(s.tpos, int32(p))
	}
	s.set.reset(len(s.sh))
	s.keys, s.kfirst = s.keys[:0], s.kfirst[:0]
	for i, h := range s.sh {
		if s.set.add(h) {
			s.keys = append(s.keys, h)
			s.kfirst = append(s.kfirst, s.tpos[i])
		}
	}
}

// weigh fills s.lw with the log-weights of the phrases s.phrases found,
// under stats (nil: every weight 1).
func (s *Sketcher) weigh(stats *Stats) {
	s.lw = s.lw[:0]
	if len(s.keys) == 0 {
		return
	}
	if stats == nil {
		for range s.keys {
			s.lw = append(s.lw, 0)
		}
		return
	}
	s.readCounts(stats, 0)
	s.weighCounted()
}

// readCounts keeps the counts of the document s.phrases found in stats,
// plus extra (1: those an Add would weigh it by if it were counted now,
// as count does, with stats left as it was; 0: not counted).
func (s *Sketcher) readCounts(stats *Stats, extra int64) {
	s.phrDF = growInt64(s.phrDF, len(s.keys))
	s.tdf = growInt64(s.tdf, len(s.dterms))
	stats.mu.RLock()
	defer stats.mu.RUnlock()
	for t, h := range s.dterms {
		s.tdf[t] = stats.termDF.get(h) + extra
	}
	for i, h := range s.keys {
		s.phrDF[i] = stats.phrDF.get(h) + extra
	}
	s.n = stats.n + extra
	if extra == 0 {
		s.cut = stats.rareCut(s.cfg)
	} else {
		s.cut = stats.rareCutAfter(s.cfg, extra, s.phrDF)
	}
}

// weighCounted fills s.lw from the counts weigh or count kept.
func (s *Sketcher) weighCounted() {
	s.lw = s.lw[:0]
	cut := floodCut(s.phrDF, s.cut)
	if s.cfg.Weighting == WeightDFPow && s.cfg.Scale == ScaleNone {
		// The default weighting, as logWeight computes it, without its
		// switches per phrase.
		for i, dfp := range s.phrDF[:len(s.keys)] {
			lw := math.Inf(-1)
			if max(dfp, 1) <= cut {
				lw = s.cfg.Power * lnCount(max(s.tdf[s.kfirst[i]], 1))
				if math.IsNaN(lw) {
					lw = math.Inf(-1)
				}
			}
			s.lw = append(s.lw, lw)
		}
		return
	}
	for i := range s.keys {
		s.lw = append(s.lw, logWeight(&s.cfg, s.tdf[s.kfirst[i]], s.phrDF[i], s.n, cut))
	}
}

// floodCut returns the rare-phrase cut for a document whose phrases have
// the document frequencies df: cut itself, unless more than half of them
// are common (df above cut), in which case no phrase of the document is cut.
//
// The rare-phrase rule (Alonso et al. 2013 §4.3, §4.5) zeroes the phrases
// that many different stories share, boilerplate beside each story's own
// text. A document most of whose phrases are common is not a story with
// some boilerplate but a copy of a story that fills much of the
// collection: cutting its phrases would leave only its edits, and a
// stream flooded with near-copies of one story (more than RarePercent of
// the documents) would stop finding them. Without the exception 2,000
// stories and 3,500 near-copies of one made the later copies find
// nothing (TestNearCopyFlood).
func floodCut(df []int64, cut int64) int64 {
	common := 0
	for _, d := range df {
		if d > cut {
			common++
		}
	}
	if 2*common > len(df) {
		return math.MaxInt64
	}
	return cut
}

// sampleWeighted appends the signature of s.keys under the log-weights
// s.lw (−Inf = absent) by the configured Sampler; log-weights keep df⁴/dfp
// from overflowing.
func (s *Sketcher) sampleWeighted(dst []uint32) []uint32 {
	if len(s.keys) == 0 {
		return dst
	}
	switch s.cfg.Sampler {
	case Darts:
		return s.darts.sample(dst, s.keys, s.lw, s.cfg.NumHashes, s.seedMix)
	case PackedDarts, DefaultSampler: // DefaultSampler: a Sketcher of another Mode
		return s.darts.samplePacked(dst, s.keys, s.lw, s.cfg.NumHashes, s.seedMix)
	}
	return icws(dst, s.keys, s.cfg.NumHashes, s.seedMix, func(e int) (float64, bool) {
		return s.lw[e], !math.IsInf(s.lw[e], -1) && !math.IsNaN(s.lw[e])
	})
}

func growInt64(s []int64, n int) []int64 {
	if cap(s) < n {
		return make([]int64, n)
	}
	return s[:n]
}

// countedIndex is the index of a Weighted Detector with online
// statistics, an engine Counter: an Add counts its terms and phrases in
// its turn (Count) and draws its signature after it (Complete), weighed
// by the counts of the documents before it and itself.
type countedIndex struct {
	*index
	stats *Stats

	// keysMu guards counted and free: Count and Uncount change them in
	// their turns, Renew and a snapshot read them under the engine's lock.
	keysMu  sync.Mutex
	counted []countedKeys // by handle
	free    []int32       // free handles
}

// countedKeys are the distinct terms and phrases a document added to the
// online statistics: keys[:terms] the terms, keys[terms:] the phrases,
// each part in text order after Add and ascending after ReadFrom (a
// snapshot stores them ascending, see countedKeys.sorted). Copies with
// equal keys share one array.
type countedKeys struct {
	keys  []uint64
	terms int
}

// hold keeps k under a new handle.
func (c *countedIndex) hold(k countedKeys) int32 {
	c.keysMu.Lock()
	defer c.keysMu.Unlock()
	if n := len(c.free); n > 0 {
		h := c.free[n-1]
		c.free = c.free[:n-1]
		c.counted[h] = k
		return h
	}
	c.counted = append(c.counted, k)
	return int32(len(c.counted) - 1)
}

// Count counts the document of f into the statistics.
func (c *countedIndex) Count(f *sketch) int32 {
	sk := f.sk
	c.stats.mu.Lock()
	sk.count(c.stats)
	c.stats.mu.Unlock()
	f.handle = c.hold(countedKeys{keys: sk.counted, terms: len(sk.dterms)})
	sk.counted = nil
	return f.handle
}

// Complete weighs and samples the document of f by the counts Count (or
// Peek) kept.
func (c *countedIndex) Complete(f *sketch) {
	sk := f.sk
	sk.weighCounted()
	sk.out = sk.sampleWeighted(sk.out[:0])
	f.sig = nonEmpty(sk.out)
	c.a.prepare(f)
}

// PeeksFreely marks Peek safe outside every lock and turn
// (engine.FreePeeker): it reads the statistics under their own read lock,
// as they are at that moment, so Queries run in parallel.
func (c *countedIndex) PeeksFreely() {}

// Peek weighs and samples f as if it were counted now: Complete on the
// counts readCounts keeps for it.
func (c *countedIndex) Peek(f *sketch) {
	if f.size == 0 {
		return
	}
	f.sk.readCounts(c.stats, 1)
	c.Complete(f)
}

// Uncount takes the document of handle h out of the statistics.
func (c *countedIndex) Uncount(h int32) {
	c.keysMu.Lock()
	k := c.counted[h]
	c.counted[h] = countedKeys{}
	c.free = append(c.free, h)
	c.keysMu.Unlock()
	c.stats.mu.Lock()
	c.stats.remove(k.keys[:k.terms], k.keys[k.terms:])
	c.stats.mu.Unlock()
}

// Recount counts a document of a snapshot without words.
func (c *countedIndex) Recount(*sketch) int32 {
	c.stats.addAll(nil, nil)
	return c.hold(countedKeys{keys: []uint64{}})
}

// keys returns the terms and phrases of the document of handle h.
func (c *countedIndex) keys(h int32) countedKeys {
	c.keysMu.Lock()
	defer c.keysMu.Unlock()
	return c.counted[h]
}

// RecountMember counts the i-th member of a snapshot's group f.
func (c *countedIndex) RecountMember(f *sketch, i int) int32 {
	k := (*f.load)[i]
	c.stats.addAll(k.keys[:k.terms], k.keys[k.terms:])
	h := c.hold(k)
	if i == 0 {
		f.handle = h
	}
	return h
}

// Renew re-signs the group g (index.Renew), and lets the document that
// joined it share the terms and phrases of its first member when they
// are equal, as they almost always are for a copy, rather than keep its
// own.
func (c *countedIndex) Renew(g uint32, group, f *sketch) {
	c.index.Renew(g, group, f)
	c.keysMu.Lock()
	defer c.keysMu.Unlock()
	a, b := &c.counted[f.handle], c.counted[group.handle]
	if a.terms == b.terms && slices.Equal(a.keys, b.keys) {
		a.keys = b.keys
	}
}
