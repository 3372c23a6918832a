package shingle

import (
	"cmp"
	"math"
	"slices"

	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/internal/hashtab"
)

// eps is the slack of every pruning test: a bound must undercut τ by more
// than eps before a pair is pruned, so floating-point rounding can only
// make the search look at more pairs, never fewer.
const eps = 1e-9

// spotDoc is one counted document's spot-signature multiset: signature
// IDs sorted ascending with their multiplicities, and its mass inside and
// above the idf band under the live document frequencies.
type spotDoc struct {
	sigs    []uint32
	cnt     []uint32
	band    int  // Σ cnt of the signatures inside the band
	above   int  // Σ cnt of the signatures too common for the band
	counted bool // Σ cnt ≥ MinSignatures: counts towards df and N
}

// Where a signature's document frequency puts it against the idf band.
const (
	sigBelow uint8 = iota // too rare: idf above MaxIDF
	sigBand               // kept
	sigAbove              // too common: idf below MinIDF
)

// spotIndex is the SpotSigs index (Theobald et al. 2008).
//
// The idf band keeps a signature of document frequency df among N counted
// documents when MinIDF ≤ ln((N+1)/df)/ln(N+1) ≤ MaxIDF. The idf falls as
// df grows, so the band is an interval of df, [lo(N), hi(N)], and the
// index keeps every signature's place against it (below, in, above) under
// the live statistics: an Add or Remove moves the df of its own
// signatures by one, and moves lo and hi by at most a step, so only the
// signatures at the edges change place, found through a bucket of
// signatures per df. A change of place updates the band and above masses
// of the documents holding the signature. Searches then read the live
// state directly: no view to refresh, and Add and Containers answer alike.
//
// A document keeps the signatures in the band. One left with fewer than
// MinSignatures of them because the rest are too common (a story copied
// more often than the band's upper edge, N^(1−MinIDF), allows) keeps its
// too-common signatures as well, so a flood of near-copies does not make
// the story invisible; other documents are unaffected.
type spotIndex struct {
	cfg Config

	ids   hashtab.Map // signature hash → signature ID
	hash  []uint64    // by signature ID: its hash
	df    []int32     // by signature ID: counted live documents holding it (0: free ID)
	post  sigPosts    // by signature ID: those documents
	place []uint8     // by signature ID: sigBelow, sigBand or sigAbove
	bpos  []int32     // by signature ID: position in byDF[df]
	byDF  [][]uint32  // by df ≥ 1: the signatures with that df
	free  []uint32    // free signature IDs
	frees uint64      // signature IDs freed so far (see resolve)
	// The signature map shrinks by itself (hashtab.Map); the per-ID arrays keep
	// the length of the most distinct signatures ever live at once, and
	// freed IDs are reused.

	n      int // live counted documents (the N of the idf)
	lo, hi int // the band: lo ≤ df ≤ hi
	docs   []spotDoc

	// releaseBounds makes similar use the reference release's two unsound
	// bounds, for tests that measure what they cost (never set otherwise).
	releaseBounds bool
	// noRescue turns off the rescue of documents the band's upper edge
	// leaves without signatures, for tests that compare with the plain
	// band (never set otherwise).
	noRescue bool

	order []int // scratch of insert
	ids32 []uint32

	keys copyKeys                // groups by token digest
	qs   engine.Pool[*spotQuery] // one per concurrent search
}

// spotQuery is the scratch of one search. Searches only read the index, so
// several may run at once (under the engine's read lock), each with its
// own spotQuery.
type spotQuery struct {
	mark  marks
	order []int

	// The state a Query reads (see view): the places that an Add of the
	// queried text would change, by signature ID, and the changes of the
	// masses of the groups holding those signatures, by group.
	over  map[uint32]uint8
	delta map[uint32][2]int32 // band, above
	isA   map[uint32]bool     // the queried text's signatures
	sigs  []uint32            // the queried text's signature IDs, ascending
	ord   []int
}

func newSpotIndex(cfg Config) *spotIndex {
	x := &spotIndex{cfg: cfg}
	x.qs.New = func() (*spotQuery, error) { return new(spotQuery), nil }
	return x
}

// The spotIndex as the engine's index: its entries are the groups of
// exact copies, each counted in the statistics once per member.

// Find returns the live group whose features are f's (engine.Finder): the
// same token digest and signature multiset, or for a text too short to be
// counted the same digest.
func (x *spotIndex) Find(f *features, groups *engine.Groups[features]) (uint32, bool) {
	return x.keys.find(f, groups, func(g, f *features) bool {
		if !x.docs[g.self].counted {
			return !x.countable(f.cnt)
		}
		return slices.Equal(g.set, f.set) && slices.Equal(g.cnt, f.cnt)
	})
}

// Prepare looks up the IDs of the signatures of f the index already holds
// (under the read lock, before an Add's commit), so that Insert looks up
// only the others. A Query's view, under one read lock, looks them up
// itself into its pooled scratch.
func (x *spotIndex) Prepare(f *features) {
	if f.key != 0 {
		f.sids, f.sidsAt = x.resolve(f.set, slices.Grow(f.sids[:0], len(f.set)))
	}
}

// prepared returns the signature IDs Prepare found for f, or nil when
// IDs were freed since.
func (x *spotIndex) prepared(f *features) []uint32 {
	if f.sids != nil && f.sidsAt == x.frees {
		return f.sids
	}
	return nil
}

// Insert counts and indexes the new group g of features f. The stored
// features keep the raw multiset of a counted text (the snapshot's), the
// digest only of one too short to be counted.
func (x *spotIndex) Insert(g uint32, f *features) {
	f.self = g
	x.keys.add(f.key, g)
	x.insertIDs(g, f.set, f.cnt, x.prepared(f))
	f.sids = nil
	if !x.docs[g].counted {
		f.set, f.cnt = nil, nil
	}
}

// Delete forgets the group g of features f, whose last member left.
func (x *spotIndex) Delete(g uint32, f *features) {
	x.remove(g)
	x.keys.drop(f.key, g)
}

// Join counts a further member of the live group g (engine.Member): its
// signatures' document frequencies and N grow by one, as for an Add of its
// text, but no posting list grows (the group is on them once). O(n) plus
// the edge crossings, as for insert.
func (x *spotIndex) Join(g uint32, _ *features) {
	if int(g) >= len(x.docs) || !x.docs[g].counted {
		return
	}
	x.setN(x.n + 1)
	for _, s := range x.docs[g].sigs {
		df := int(x.df[s]) + 1
		x.setDF(s, df)
		x.replace(s, x.placeOf(df))
	}
}

// Leave counts a member fewer of the live group g, which keeps others: the
// reverse of Join.
func (x *spotIndex) Leave(g uint32, _ *features) {
	if int(g) >= len(x.docs) || !x.docs[g].counted {
		return
	}
	for _, s := range x.docs[g].sigs {
		df := int(x.df[s]) - 1
		x.setDF(s, df)
		x.replace(s, x.placeOf(df))
	}
	x.setN(x.n - 1)
}

// Search appends to dst the near-duplicates of a text of features f: of a
// stored group under the live statistics (similar), of a searched text
// under the statistics its Add would leave (view), and the groups of its
// token digest, score 1.
func (x *spotIndex) Search(dst []hit, f *features, _ *engine.Groups[features]) []hit {
	q, _ := x.qs.Get() // New never fails
	if f.self != noGroup {
		dst = x.similar(f.self, len(x.docs), dst, q)
	} else if sigs, cnt, mass, rescued := x.view(f.set, f.cnt, x.prepared(f), q); mass >= 0 {
		dst = x.search(sigs, cnt, mass, rescued, noGroup, len(x.docs), dst, q, true, false)
	}
	x.qs.Put(q)
	return x.exact(dst, f.key)
}

// Rank appends to dst every group whose filtered multiset shares a
// signature with a text of features f, scored as Search scores it (their
// multiset Jaccard), below the threshold too, and the groups of its token
// digest: the candidates of Nearest. It reads every posting list of the
// text's signatures in the band, where Search stops once the threshold is
// out of reach.
func (x *spotIndex) Rank(dst []hit, f *features, _ *engine.Groups[features], _ int) []hit {
	q, _ := x.qs.Get() // New never fails
	if sigs, cnt, mass, rescued := x.view(f.set, f.cnt, x.prepared(f), q); mass >= 0 {
		dst = x.search(sigs, cnt, mass, rescued, noGroup, len(x.docs), dst, q, true, true)
	}
	x.qs.Put(q)
	return x.exact(dst, f.key)
}

// exact adds to hits the groups whose token digest is key, with score 1:
// exact duplicates, whatever their signatures.
func (x *spotIndex) exact(hits []hit, key uint64) []hit {
	for _, o := range x.keys.keys[key] {
		if i := slices.IndexFunc(hits, func(h hit) bool { return h.Group == o }); i >= 0 {
			hits[i].Score = 1
		} else {
			hits = append(hits, hit{Group: o, Score: 1})
		}
	}
	return hits
}

// countable reports whether a multiset of multiplicities cnt has the
// MinSignatures signatures a document needs to be counted.
func (x *spotIndex) countable(cnt []uint32) bool {
	total := 0
	for _, c := range cnt {
		total += int(c)
	}
	return total >= x.cfg.MinSignatures
}

// idf is the normalised idf ln((n+1)/df)/ln(n+1) of the release's
// SpotSigsIndexer.
func idf(df, n int) float64 {
	return math.Log(float64(n+1)/float64(df)) / math.Log(float64(n+1))
}

// placeOf returns where df lies against the current band.
func (x *spotIndex) placeOf(df int) uint8 { return placeAt(df, x.lo, x.hi) }

// placeAt returns where df lies against the band [lo, hi].
func placeAt(df, lo, hi int) uint8 {
	switch {
	case df > hi:
		return sigAbove
	case df < lo:
		return sigBelow
	}
	return sigBand
}

// mass returns the mass of document b's filtered multiset and whether it
// is rescued (keeps its too-common signatures), or -1 when b is outside
// the search (not counted, or too few signatures left).
func (x *spotIndex) mass(b uint32) (int, bool) {
	d := &x.docs[b]
	if !d.counted {
		return -1, false
	}
	return x.massOf(d.band, d.above)
}

// massOf returns the mass and rescue of a counted document whose masses
// inside and above the band are band and above (see mass).
func (x *spotIndex) massOf(band, above int) (int, bool) {
	if band >= x.cfg.MinSignatures {
		return band, false
	}
	// "Threshold for min. amount of SpotSigs", applied after filtering too
	// (SpotSigsIndexer: "if (counter.totalCount >= SpotSigs.minSpotSigs)").
	if !x.noRescue && above > 0 && band+above >= x.cfg.MinSignatures {
		return band + above, true
	}
	return -1, false
}

// massIn is mass under the live state (hypo false), or under the one an
// Add of the queried text would leave, which q describes (see view).
func (x *spotIndex) massIn(b uint32, q *spotQuery, hypo bool) (int, bool) {
	if !hypo {
		return x.mass(b)
	}
	d := &x.docs[b]
	if !d.counted {
		return -1, false
	}
	dd := q.delta[b]
	return x.massOf(d.band+int(dd[0]), d.above+int(dd[1]))
}

// in reports whether signature s is in the filtered multiset of a document
// that is rescued or not.
func in(place uint8, rescued bool) bool {
	return place == sigBand || rescued && place == sigAbove
}

// sigID returns the ID of signature hash h, allocating one.
func (x *spotIndex) sigID(h uint64) uint32 {
	p, ok := x.ids.Ref(h)
	if ok {
		return *p
	}
	s, ok := hashtab.Pop(&x.free)
	if !ok {
		s = uint32(len(x.df))
		x.hash = append(x.hash, 0)
		x.df = append(x.df, 0)
		x.post.grow()
		x.place = append(x.place, sigBelow)
		x.bpos = append(x.bpos, 0)
	}
	*p = s
	x.hash[s], x.df[s], x.place[s] = h, 0, sigBelow
	return s
}

// setDF moves signature s to document frequency df, keeping byDF.
func (x *spotIndex) setDF(s uint32, df int) {
	if old := x.df[s]; old > 0 {
		b := x.byDF[old]
		p := x.bpos[s]
		last := b[len(b)-1]
		b[p], x.bpos[last] = last, p
		x.byDF[old] = b[:len(b)-1]
	}
	x.df[s] = int32(df)
	if df > 0 {
		for df >= len(x.byDF) {
			x.byDF = append(x.byDF, nil)
		}
		x.bpos[s] = int32(len(x.byDF[df]))
		x.byDF[df] = append(x.byDF[df], s)
	}
}

// count returns the multiplicity of signature s in document b.
func (x *spotIndex) count(b, s uint32) int {
	d := &x.docs[b]
	if i, ok := slices.BinarySearch(d.sigs, s); ok {
		return int(d.cnt[i])
	}
	return 0
}

// replace moves signature s to place p and updates the masses of the
// documents on its posting list.
func (x *spotIndex) replace(s uint32, p uint8) {
	old := x.place[s]
	if old == p {
		return
	}
	x.place[s] = p
	for _, b := range x.post.of(s) {
		c := x.count(b, s)
		d := &x.docs[b]
		switch old {
		case sigBand:
			d.band -= c
		case sigAbove:
			d.above -= c
		}
		switch p {
		case sigBand:
			d.band += c
		case sigAbove:
			d.above += c
		}
	}
}

// boundsNear returns the band [lo, hi] of df among n documents: lo the
// first df with idf ≤ MaxIDF, hi the last with idf ≥ MinIDF (idf falls as
// df grows, so keep(df, n) ⟺ lo ≤ df ≤ hi). It steps from lo and hi, the
// band of a nearby number of documents (x.n, at most one away for an Add
// or a Remove): a few logarithms where two binary searches took two dozen,
// in the Add's exclusive turn. Since idf falls as df grows, the steps stop
// at the same edges whatever they start from (TestSpotBounds,
// TestSpotBoundsNear).
func (x *spotIndex) boundsNear(n, lo, hi int) (int, int) {
	if n <= 0 {
		return 1, 0
	}
	lo, hi = min(max(lo, 1), n+1), min(max(hi, 0), n)
	for lo > 1 && idf(lo-1, n) <= x.cfg.MaxIDF {
		lo--
	}
	for lo <= n && idf(lo, n) > x.cfg.MaxIDF {
		lo++
	}
	for hi < n && idf(hi+1, n) >= x.cfg.MinIDF {
		hi++
	}
	for hi > 0 && idf(hi, n) < x.cfg.MinIDF {
		hi--
	}
	return lo, hi
}

// setN moves the band to n counted documents: the signatures whose df lies
// between the old and the new edges change place.
func (x *spotIndex) setN(n int) {
	lo, hi := x.boundsNear(n, x.lo, x.hi)
	oldLo, oldHi := x.lo, x.hi
	x.n, x.lo, x.hi = n, lo, hi
	visit := func(from, to int) {
		for df := max(from, 1); df <= to && df < len(x.byDF); df++ {
			for _, s := range x.byDF[df] {
				x.replace(s, x.placeOf(df))
			}
		}
	}
	// A df changes place only if it lies between the old and new lower
	// edges, or between the old and new upper edges.
	visit(min(lo, oldLo), max(lo, oldLo)-1)
	visit(min(hi, oldHi)+1, max(hi, oldHi))
}

// noSig marks a signature that resolve did not find.
const noSig = math.MaxUint32

// resolve looks up the IDs of the signatures hashes that the index
// already holds, noSig for the others, into dst, and returns them with
// the count of freed signature IDs at that moment. It only reads the
// index, so an Add runs it under the read lock, before its exclusive
// turn; the IDs stay valid as long as no ID is freed (frees unchanged).
func (x *spotIndex) resolve(hashes []uint64, dst []uint32) ([]uint32, uint64) {
	dst = dst[:0]
	for _, h := range hashes {
		s, ok := x.ids.Get(h)
		if !ok {
			s = noSig
		}
		dst = append(dst, s)
	}
	return dst, x.frees
}

// insertIDs records document idx's raw multiset (hashes sorted, with
// counts), given the signature IDs resolve found (nil: none): only the
// others are looked up, and allocated, here. A document of fewer than
// MinSignatures signatures is not counted: it neither counts towards the
// statistics nor is searched.
func (x *spotIndex) insertIDs(idx uint32, hashes []uint64, cnt []uint32, pre []uint32) {
	for int(idx) >= len(x.docs) {
		x.docs = append(x.docs, spotDoc{})
	}
	if !x.countable(cnt) {
		x.docs[idx] = spotDoc{}
		return
	}
	x.ids32 = x.ids32[:0]
	for i, h := range hashes {
		if pre != nil && pre[i] != noSig {
			x.ids32 = append(x.ids32, pre[i])
		} else {
			x.ids32 = append(x.ids32, x.sigID(h))
		}
	}
	// Sort by signature ID, carrying the counts.
	x.order = x.order[:0]
	for i := range x.ids32 {
		x.order = append(x.order, i)
	}
	slices.SortFunc(x.order, func(i, j int) int { return cmp.Compare(x.ids32[i], x.ids32[j]) })
	d := spotDoc{counted: true, sigs: make([]uint32, len(x.order)), cnt: make([]uint32, len(x.order))}
	for k, i := range x.order {
		d.sigs[k], d.cnt[k] = x.ids32[i], cnt[i]
	}
	x.setN(x.n + 1)
	for k, s := range d.sigs {
		df := int(x.df[s]) + 1
		x.setDF(s, df)
		x.replace(s, x.placeOf(df))
		x.post.add(s, idx)
		switch x.place[s] {
		case sigBand:
			d.band += int(d.cnt[k])
		case sigAbove:
			d.above += int(d.cnt[k])
		}
	}
	x.docs[idx] = d
	if cap(x.order) > largeScratch { // an outlier text's scratch goes
		x.order, x.ids32 = nil, nil
	}
}

// remove forgets document idx.
func (x *spotIndex) remove(idx uint32) {
	if int(idx) >= len(x.docs) || !x.docs[idx].counted {
		return
	}
	d := x.docs[idx]
	x.docs[idx] = spotDoc{}
	for _, s := range d.sigs {
		x.post.remove(s, idx)
		df := int(x.df[s]) - 1
		x.setDF(s, df)
		if df == 0 {
			x.freeSig(s)
			continue
		}
		x.replace(s, x.placeOf(df))
	}
	x.setN(x.n - 1)
}

// freeSig forgets signature s, whose last document left.
func (x *spotIndex) freeSig(s uint32) {
	x.ids.Delete(x.hash[s])
	x.frees++
	x.place[s] = sigBelow
	x.free = append(x.free, s)
}

// similar returns the documents (other than self) whose filtered multiset
// has Jaccard similarity ≥ τ with document self's, found through the
// inverted index with early termination (SpotSigs.java deduplicateIndex,
// with the bounds corrected):
//
//   - A's signatures are visited by ascending document frequency; δ is A's
//     mass on the signatures visited so far. A posting list holds every
//     document with the signature, so a document first met after that has
//     Σmin ≤ |A| − δ and Σmax ≥ |A|; once δ > (1−τ)|A| no unseen document
//     can reach τ and the search stops.
//   - Documents with |B| > |A|/τ (J ≤ |A|/|B|) or |B| < τ|A| (J ≤ |B|/|A|)
//     are skipped: the release's length partitioning, applied per query
//     with exact bounds. (The release breaks off a list at δ + |A| − |B| >
//     (1−τ)|A|, which is not a bound: it drops, e.g., |A| = 100, |B| = 92,
//     δ = 8 at τ = 0.85, a pair with J = 0.92.)
//   - A document met for the first time with m = min(|B|, |A|−δ) and
//     m / (|A| + |B| − m) < τ is skipped: it cannot reach τ.
//   - The pairwise comparison exits once (S−D)/(S+D) < τ, where S = |A|+|B|
//     and D the Σ|A_s − B_s| seen so far; J = (S−D)/(S+D) exactly at the
//     end. (The release's exit (max − D)/max < τ is not a bound.)
func (x *spotIndex) similar(self uint32, ndocs int, dst []hit, q *spotQuery) []hit {
	if int(self) >= len(x.docs) {
		return dst
	}
	a, arescued := x.mass(self)
	if a < 0 {
		return dst
	}
	d := &x.docs[self]
	return x.search(d.sigs, d.cnt, a, arescued, self, ndocs, dst, q, false, false)
}

// search is similar for a document with the multiset asig, acnt (IDs
// ascending) of mass a: a live one (self, hypo false), or the queried text
// under the state an Add of it would leave (self noGroup, hypo true,
// after view). With rank it lists every document sharing a signature, by
// its Jaccard, whatever the threshold.
func (x *spotIndex) search(asig, acnt []uint32, a int, arescued bool, self uint32, ndocs int, dst []hit, q *spotQuery, hypo, rank bool) []hit {
	p := placer{place: x.place}
	if hypo {
		p.over = q.over
	}
	dfA := func(s uint32) int32 {
		switch {
		case !hypo:
			return x.df[s]
		case int(s) < len(x.df):
			return x.df[s] + 1
		}
		return 1
	}
	tau := x.cfg.Threshold
	if rank {
		tau = 0 // no bound prunes: every document sharing a signature
	}
	q.mark.next(ndocs)
	if self != noGroup {
		q.mark.visit(self)
	}
	q.order = q.order[:0]
	for i, s := range asig {
		if in(p.at(s), arescued) {
			q.order = append(q.order, i)
		}
	}
	slices.SortFunc(q.order, func(i, j int) int {
		return cmp.Or(cmp.Compare(dfA(asig[i]), dfA(asig[j])), cmp.Compare(i, j))
	})
	fa := float64(a)
	longest := fa/tau + eps
	delta := 0
	for _, i := range q.order {
		if float64(delta) > (1-tau)*fa+eps {
			break
		}
		if int(asig[i]) >= x.post.ids() {
			delta += int(acnt[i])
			continue // a signature only the queried text has
		}
		for _, b := range x.post.of(asig[i]) {
			fb, brescued := x.massIn(b, q, hypo)
			if fb < 0 || float64(fb) > longest || float64(fb) < tau*fa-eps {
				continue
			}
			if x.releaseBounds && !rank && fb <= a && float64(delta+a-fb) > (1-tau)*fa {
				continue // SpotSigs.java: "Early threshold break for index list traversal"
			}
			if !q.mark.visit(b) {
				continue
			}
			m := min(fb, a-delta)
			if float64(m)/float64(a+fb-m) < tau-eps {
				continue
			}
			var s float64
			if x.releaseBounds {
				s = x.releaseJaccard(asig, acnt, b, a, fb, brescued, tau, q.order, p)
			} else {
				bd := &x.docs[b]
				s = jaccardP(asig, acnt, bd.sigs, bd.cnt, a, fb, tau, p, arescued, brescued)
			}
			if rank {
				if s > 0 {
					dst = append(dst, hit{Group: b, Score: s})
				}
			} else if s >= tau && (s == 1 || evidence.Enough(s/(1+s)*float64(a+fb), float64(min(a, fb)), float64(x.cfg.MinOverlap))) {
				dst = append(dst, hit{Group: b, Score: s})
			}
		}
		delta += int(acnt[i])
	}
	if cap(q.order) > largeScratch {
		q.order = nil
	}
	return dst
}

// jaccardP is jaccard with the places p reads.
func jaccardP(asig, acnt, bsig, bcnt []uint32, a, b int, tau float64, p placer, arescued, brescued bool) float64 {
	s := float64(a + b)
	d := 0 // Σ|A_s − B_s| so far
	smin := 0
	counts := p.counts
	i, j := 0, 0
	for i < len(asig) || j < len(bsig) {
		ca, cb := 0, 0
		switch {
		case j >= len(bsig) || i < len(asig) && asig[i] < bsig[j]:
			if counts(asig[i], arescued) {
				ca = int(acnt[i])
			}
			i++
		case i >= len(asig) || bsig[j] < asig[i]:
			if counts(bsig[j], brescued) {
				cb = int(bcnt[j])
			}
			j++
		default:
			if counts(asig[i], arescued) {
				ca = int(acnt[i])
			}
			if counts(bsig[j], brescued) {
				cb = int(bcnt[j])
			}
			i++
			j++
		}
		if ca == 0 && cb == 0 {
			continue
		}
		smin += min(ca, cb)
		d += max(ca, cb) - min(ca, cb)
		// Σmin = (S−D)/2 and Σmax = (S+D)/2 at the end, and D only grows.
		if tau > 0 && (s-float64(d))/(s+float64(d)) < tau-eps {
			return 0
		}
	}
	if a+b-smin == 0 {
		return 0
	}
	return float64(smin) / float64(a+b-smin)
}

// releaseJaccard is SpotSigs.java getJaccard: it walks A's signatures in the
// query's order and exits with 0 once (max(|A|,|B|) − D)/max(|A|,|B|) < τ,
// D summing |A_s − B_s| over A's signatures only. That exit is not a bound
// (for |A| = |B| = 100 and D = 20, J = 0.818 but the exit test reads 0.80);
// it exists to measure what it drops.
func (x *spotIndex) releaseJaccard(asig, acnt []uint32, b uint32, a, fb int, brescued bool, tau float64, order []int, p placer) float64 {
	bsig, bcnt := x.docs[b].sigs, x.docs[b].cnt
	upper := float64(max(a, fb))
	d, smin := 0, 0
	for _, i := range order {
		ca, cb := int(acnt[i]), 0
		if j, ok := slices.BinarySearch(bsig, asig[i]); ok && in(p.at(asig[i]), brescued) {
			cb = int(bcnt[j])
		}
		smin += min(ca, cb)
		d += max(ca, cb) - min(ca, cb)
		if (upper-float64(d))/upper < tau {
			return 0
		}
	}
	return float64(smin) / float64(a+fb-smin)
}
