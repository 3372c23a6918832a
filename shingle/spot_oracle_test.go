package shingle

// The SpotSigs index as it was before it kept the idf band incrementally:
// a view of the filtered multisets under one snapshot of the document
// frequencies, rebuilt in O(total signatures) by refresh. Kept here, for
// tests only, as the oracle the incremental index must agree with
// (TestSpotMatchesRefreshedView): after a refresh it answers exactly under
// the live statistics.

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
)

// oldSpotDoc is one document's spot-signature multiset: signature IDs sorted
// ascending with their multiplicities.
type oldSpotDoc struct {
	sigs    []uint32
	cnt     []uint32
	total   int  // Σ cnt
	counted bool // total ≥ MinSignatures: counts towards df and N
}

// oldSpotIndex is the SpotSigs index (Theobald et al. 2008).
//
// Raw multisets and signature document frequencies are kept exactly and
// updated by every Add and Remove. The idf band filter makes each
// document's filtered multiset depend on the whole collection, so the
// searchable state is a view: the filtered multisets under one snapshot of
// the document frequencies, with posting lists sorted by descending
// filtered length. A refresh recomputes the view from the live statistics
// in O(total signatures); between refreshes, added documents are filtered
// with the snapshot's keep decisions (signatures first seen since then are
// judged by their live df against the snapshot's N) and inserted into the
// sorted lists.
type oldSpotIndex struct {
	cfg Config

	ids  map[uint64]uint32 // signature hash → signature ID
	df   []int32           // by signature ID: live counted documents holding it
	n    int               // live counted documents (the N of the idf)
	docs []oldSpotDoc      // by dense index

	live int // live documents, counted or not

	// The view.
	kept     []bool // by signature ID at the last refresh
	viewN    int
	viewLive int        // live documents at the last refresh
	changes  int        // Adds and Removes since the last refresh
	vsig     [][]uint32 // by dense index: filtered signature IDs
	vcnt     [][]uint32 // by dense index: their multiplicities
	flen     []int      // by dense index: filtered length, -1 outside the view
	post     [][]uint32 // by signature ID: documents by (flen desc, index asc)

	mark  marks
	order []int // scratch
	ids32 []uint32
	cnt32 []uint32
}

func (x *oldSpotIndex) grow(idx uint32) {
	for int(idx) >= len(x.docs) {
		x.docs = append(x.docs, oldSpotDoc{})
		x.vsig = append(x.vsig, nil)
		x.vcnt = append(x.vcnt, nil)
		x.flen = append(x.flen, -1)
	}
}

// keep reports whether a signature of document frequency df among n
// documents passes the band filter MinIDF ≤ ln((n+1)/df)/ln(n+1) ≤ MaxIDF
// (the release's SpotSigsIndexer: "Skip overly long (meaningless?) lists by
// global DF value").
func (x *oldSpotIndex) keep(df int32, n int) bool {
	if df <= 0 || n <= 0 {
		return false
	}
	idf := math.Log(float64(n+1)/float64(df)) / math.Log(float64(n+1))
	return idf >= x.cfg.MinIDF && idf <= x.cfg.MaxIDF
}

func (x *oldSpotIndex) kept1(s uint32) bool {
	if int(s) < len(x.kept) {
		return x.kept[s]
	}
	return x.keep(x.df[s], x.viewN)
}

// insert records document idx's raw multiset (hashes sorted, with counts).
func (x *oldSpotIndex) insert(idx uint32, hashes []uint64, cnt []uint32) {
	x.grow(idx)
	if x.ids == nil {
		x.ids = make(map[uint64]uint32)
	}
	x.ids32, x.cnt32 = x.ids32[:0], x.cnt32[:0]
	total := 0
	for i, h := range hashes {
		s, ok := x.ids[h]
		if !ok {
			s = uint32(len(x.df))
			x.ids[h] = s
			x.df = append(x.df, 0)
			x.post = append(x.post, nil)
		}
		x.ids32 = append(x.ids32, s)
		x.cnt32 = append(x.cnt32, cnt[i])
		total += int(cnt[i])
	}
	// Sort by signature ID, carrying the counts.
	x.order = x.order[:0]
	for i := range x.ids32 {
		x.order = append(x.order, i)
	}
	slices.SortFunc(x.order, func(i, j int) int { return cmp.Compare(x.ids32[i], x.ids32[j]) })
	d := oldSpotDoc{total: total, counted: total >= x.cfg.MinSignatures}
	d.sigs = make([]uint32, len(x.order))
	d.cnt = make([]uint32, len(x.order))
	for k, i := range x.order {
		d.sigs[k], d.cnt[k] = x.ids32[i], x.cnt32[i]
	}
	x.docs[idx] = d
	x.live++
	if d.counted {
		x.n++
		for _, s := range d.sigs {
			x.df[s]++
		}
	}
	x.changes++
	// Refresh once the collection has changed by an eighth since the last
	// refresh: amortised O(total signatures / N) per Add.
	if x.changes*8 > x.viewLive {
		x.refresh()
		return
	}
	x.enter(idx)
}

// filter sets document idx's filtered multiset under the view.
func (x *oldSpotIndex) filter(idx uint32) {
	d := &x.docs[idx]
	x.vsig[idx], x.vcnt[idx], x.flen[idx] = x.vsig[idx][:0], x.vcnt[idx][:0], -1
	if !d.counted {
		return
	}
	f := 0
	for i, s := range d.sigs {
		if x.kept1(s) {
			x.vsig[idx] = append(x.vsig[idx], s)
			x.vcnt[idx] = append(x.vcnt[idx], d.cnt[i])
			f += int(d.cnt[i])
		}
	}
	// "Threshold for min. amount of SpotSigs", applied after filtering too
	// (SpotSigsIndexer: "if (counter.totalCount >= SpotSigs.minSpotSigs)").
	if f >= x.cfg.MinSignatures {
		x.flen[idx] = f
	}
}

// before orders documents as the posting lists do: by descending filtered
// length, then ascending index.
func (x *oldSpotIndex) before(a, b uint32) int {
	if c := cmp.Compare(x.flen[b], x.flen[a]); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// enter filters document idx under the current view and inserts it into
// the sorted posting lists.
func (x *oldSpotIndex) enter(idx uint32) {
	x.filter(idx)
	if x.flen[idx] < 0 {
		return
	}
	for _, s := range x.vsig[idx] {
		l := x.post[s]
		i, _ := slices.BinarySearchFunc(l, idx, x.before)
		x.post[s] = slices.Insert(l, i, idx)
	}
}

// leave removes document idx from the view's posting lists.
func (x *oldSpotIndex) leave(idx uint32) {
	if x.flen[idx] < 0 {
		return
	}
	for _, s := range x.vsig[idx] {
		l := x.post[s]
		if i, ok := slices.BinarySearchFunc(l, idx, x.before); ok {
			x.post[s] = slices.Delete(l, i, i+1)
		}
	}
	x.flen[idx] = -1
}

// remove forgets document idx.
func (x *oldSpotIndex) remove(idx uint32) {
	if int(idx) >= len(x.docs) {
		return
	}
	x.leave(idx)
	d := &x.docs[idx]
	if d.counted {
		x.n--
		for _, s := range d.sigs {
			x.df[s]--
		}
	}
	*d = oldSpotDoc{}
	x.live--
	x.vsig[idx], x.vcnt[idx] = nil, nil
	x.changes++
}

// refresh rebuilds the view from the live document frequencies: every
// signature's keep decision, every filtered multiset, and the posting lists
// in (flen desc, index asc) order.
func (x *oldSpotIndex) refresh() {
	x.viewN, x.viewLive = x.n, x.live
	x.changes = 0
	x.kept = slices.Grow(x.kept[:0], len(x.df))[:len(x.df)]
	for s, df := range x.df {
		x.kept[s] = x.keep(df, x.n)
	}
	for s := range x.post {
		x.post[s] = x.post[s][:0]
	}
	var live []uint32
	for i := range x.docs {
		x.filter(uint32(i))
		if x.flen[i] >= 0 {
			live = append(live, uint32(i))
		}
	}
	slices.SortFunc(live, x.before)
	for _, i := range live {
		for _, s := range x.vsig[i] {
			x.post[s] = append(x.post[s], i)
		}
	}
}

// fresh brings the view up to date with every Add and Remove so far.
func (x *oldSpotIndex) fresh() {
	if x.changes > 0 {
		x.refresh()
	}
}

// similar returns the documents of the view (other than self) whose
// filtered multiset has Jaccard similarity ≥ τ with document self's, found
// through the inverted index with early termination (SpotSigs.java
// deduplicateIndex, with the bounds corrected):
//
//   - A's signatures are visited by ascending posting length; δ is A's
//     mass on the signatures visited so far. A document first met after
//     that has Σmin ≤ |A| − δ and Σmax ≥ |A|, so once δ > (1−τ)|A| no unseen
//     document can reach τ and the search stops.
//   - Lists are sorted by descending |B|. Documents with |B| > |A|/τ are
//     skipped by binary search (J ≤ |A|/|B|), and the scan of a list
//     breaks at the first |B| < τ|A| (J ≤ |B|/|A|, and every later B is
//     shorter). This is the release's length partitioning, applied per
//     query with exact bounds. (The release breaks at δ + |A| − |B| >
//     (1−τ)|A|, which is not a bound: it drops, e.g., |A| = 100, |B| = 92,
//     δ = 8 at τ = 0.85, a pair with J = 0.92.)
//   - A document met for the first time with m = min(|B|, |A|−δ) and
//     m / (|A| + |B| − m) < τ is skipped: it cannot reach τ.
//   - The pairwise comparison exits once (S−D)/(S+D) < τ, where S = |A|+|B|
//     and D the Σ|A_s − B_s| seen so far; J = (S−D)/(S+D) exactly at the
//     end. (The release's exit (max − D)/max < τ is not a bound.)
func (x *oldSpotIndex) similar(self uint32, ndocs int, dst []hit) []hit {
	a := x.flen[self]
	if a < 0 {
		return dst
	}
	tau := x.cfg.Threshold
	asig, acnt := x.vsig[self], x.vcnt[self]
	x.mark.next(ndocs)
	x.mark.visit(self)
	x.order = x.order[:0]
	for i := range asig {
		x.order = append(x.order, i)
	}
	slices.SortFunc(x.order, func(i, j int) int {
		return cmp.Or(cmp.Compare(len(x.post[asig[i]]), len(x.post[asig[j]])), cmp.Compare(i, j))
	})
	fa := float64(a)
	longest := fa/tau + eps
	delta := 0
	for _, i := range x.order {
		if float64(delta) > (1-tau)*fa+eps {
			break
		}
		l := x.post[asig[i]]
		lo, _ := slices.BinarySearchFunc(l, longest, func(b uint32, limit float64) int {
			if float64(x.flen[b]) > limit {
				return -1
			}
			return 1
		})
		for _, b := range l[lo:] {
			fb := x.flen[b]
			if float64(fb) < tau*fa-eps {
				break
			}
			if !x.mark.visit(b) {
				continue
			}
			m := min(fb, a-delta)
			if float64(m)/float64(a+fb-m) < tau-eps {
				continue
			}
			s := jaccard(asig, acnt, x.vsig[b], x.vcnt[b], a, fb, tau, nil, false, false)
			if s >= tau && (s == 1 || evidence.Enough(s/(1+s)*float64(a+fb), float64(min(a, fb)), float64(x.cfg.MinOverlap))) {
				dst = append(dst, hit{Group: b, Score: s})
			}
		}
		delta += int(acnt[i])
	}
	return dst
}

// compareWithOracle adds texts to an incremental index and to the
// refreshed-view oracle, removes every third document at the end, and at
// every checkpoint compares the answers of every live document. It
// returns how many documents' answers differ.
func compareWithOracle(t *testing.T, cfg Config, texts []string, every int, noRescue bool) (docs, differ int) {
	t.Helper()
	cfg, err := cfg.withDefaults()
	require.NoError(t, err)
	e, err := newExtractor(cfg)
	require.NoError(t, err)
	x := &spotIndex{cfg: cfg, noRescue: noRescue}
	o := &oldSpotIndex{cfg: cfg}
	live := map[uint32]bool{}
	check := func(when string) {
		o.fresh()
		for i := range live {
			got := x.similar(i, len(texts), nil, &spotQuery{})
			want := o.similar(i, len(texts), nil)
			slices.SortFunc(got, func(a, b hit) int { return cmp.Compare(a.Group, b.Group) })
			slices.SortFunc(want, func(a, b hit) int { return cmp.Compare(a.Group, b.Group) })
			docs++
			if !slices.Equal(got, want) {
				differ++
				if noRescue {
					t.Fatalf("%s: document %d: incremental %v, refreshed view %v", when, i, got, want)
				}
			}
		}
	}
	for i, text := range texts {
		h, c := e.spots(text)
		x.insert(uint32(i), h, c)
		o.insert(uint32(i), h, c)
		live[uint32(i)] = true
		if (i+1)%every == 0 {
			check("after " + strconv.Itoa(i+1) + " adds")
		}
	}
	check("after all adds")
	for i := range texts {
		if i%3 == 0 {
			x.remove(uint32(i))
			o.remove(uint32(i))
			delete(live, uint32(i))
		}
	}
	check("after removing every third")
	return docs, differ
}

// TestSpotMatchesRefreshedView: the incremental index answers exactly as
// the refreshed view did (the answer Containers gave before the index was
// incremental), on a synthetic stream with variants and on real news
// (the first 1,500 Reuters-21578 stories in date order, all of them with
// NEARDUP_LONG; goldset-dev). With the rescue of
// documents the band's upper edge empties, the differences are counted.
func TestSpotMatchesRefreshedView(t *testing.T) {
	syn := dataset.SynthDocs(3000, dataset.SynthConfig{Seed: 8})
	texts := make([]string, len(syn))
	for i, d := range syn {
		texts[i] = d.Text
	}
	type set struct {
		name  string
		cfg   Config
		texts []string
	}
	sets := []set{{"synthetic", Config{Method: SpotSigs, Language: "und", Antecedents: "ro,mi,tan,le"}, texts}}
	if !testing.Short() && !raceEnabled {
		for _, name := range []string{"reuters21578.jsonl", "goldset-dev.jsonl"} {
			recs, err := dataset.Load(name)
			if err != nil {
				t.Logf("%s: %v (skipped)", name, err)
				continue
			}
			if name == "reuters21578.jsonl" {
				dataset.SortByDate(recs)
				recs = recs[:dataset.LongSize(min(len(recs), 1500), len(recs))]
			}
			sets = append(sets, set{name, Config{Method: SpotSigs, Language: "en"}, dataset.Texts(recs)})
		}
	}
	for _, s := range sets {
		t.Run(s.name, func(t *testing.T) {
			every := max(len(s.texts)/4, 1)
			docs, _ := compareWithOracle(t, s.cfg, s.texts, every, true)
			t.Logf("%s: %d answers identical to the refreshed view", s.name, docs)
			docs, differ := compareWithOracle(t, s.cfg, s.texts, every, false)
			t.Logf("%s: with the rescue, %d of %d answers differ", s.name, differ, docs)
		})
	}
}
