package minhash

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/evidence"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// op is one step of a stream: an Add or a Remove.
type op = testkit.Op

// floodStream interleaves the texts with bursts of exact copies of earlier
// texts (of removed ones too), one after every seventh text, and removes
// random live documents, representatives of groups included.
func floodStream(texts []string, seed uint64, copies int) []op {
	return testkit.FloodStream(texts, seed, 1, 7, copies)
}

// streamTexts returns synthetic news with near-duplicates (edited,
// truncated and merged copies), and documents without words.
func streamTexts(n int, seed uint64) []string {
	var texts []string
	for _, d := range dataset.SynthDocs(n, dataset.SynthConfig{Seed: seed}) {
		texts = append(texts, d.Text)
	}
	return append(texts, "", "...", "one", "one two three")
}

// refDoc is what the reference keeps of a live document.
type refDoc struct {
	sig    []uint32
	size   int
	digest uint64
	keys   countedKeys // online statistics
}

// reference is the Detector without groups, tables or caps: it compares a
// document with every live document, one by one, by the rule of LSH
// banding (a candidate shares minHit band keys, or in Containment mode a
// band key of the level chosen for its size partition), and verifies each
// as the Detector does. In Weighted mode, whose weights drift, the copies
// of a text all take the signature of the newest of them. In Weighted mode with online statistics it counts every document
// into statistics of its own, as sequential Adds do.
type reference struct {
	d     *Detector // for its Config, banding and signing
	sk    *Sketcher
	stats *Stats
	live  map[string]*refDoc
	level map[[2]int8]int // Containment: memoised containmentLevel
}

func newReference(d *Detector) *reference {
	r := &reference{d: d, sk: newSketcher(d.a.cfg), live: map[string]*refDoc{}, level: map[[2]int8]int{}}
	if d.a.online {
		r.stats = newStats(d.a.cfg)
	}
	return r
}

// sign returns the reference document of text, counting it when online.
func (r *reference) sign(text string) *refDoc {
	if r.stats == nil {
		var sig []uint32
		var size int
		var digest uint64
		if r.d.a.cfg.Mode == Weighted {
			sig, size = r.sk.AppendWeightedSignature(nil, text, r.d.a.stats)
			digest = setDigest(r.sk.keys)
		} else {
			sig, size = r.sk.AppendSignature(nil, text)
		}
		return &refDoc{sig: sig, size: size, digest: digest}
	}
	sk := r.sk
	sk.phrases(text)
	keys := append(slices.Clone(sk.dterms), sk.keys...)
	slices.Sort(keys[:len(sk.dterms)])
	slices.Sort(keys[len(sk.dterms):])
	countWhole(sk, r.stats)
	sk.weighCounted()
	sig := slices.Clone(sk.sampleWeighted(nil))
	return &refDoc{sig: sig, size: len(sk.keys), digest: setDigest(sk.keys), keys: countedKeys{keys, len(sk.dterms)}}
}

// countWhole is what count does, the plain way: it counts the document
// sk.phrases found into stats holding them whole, and reads its counts
// back. The reference for count.
func countWhole(sk *Sketcher, stats *Stats) {
	stats.addAll(sk.dterms, sk.keys)
	sk.phrDF = growInt64(sk.phrDF, len(sk.keys))
	for i, h := range sk.keys {
		sk.phrDF[i] = stats.phrDF.get(h)
	}
	sk.tdf = growInt64(sk.tdf, len(sk.dterms))
	for t, h := range sk.dterms {
		sk.tdf[t] = stats.termDF.get(h)
	}
	sk.cut, sk.n = stats.rareCut(sk.cfg), stats.n
}

// identical reports whether a and b are one content as the Detector reads it.
func (r *reference) identical(a, b *refDoc) bool {
	if r.d.a.cfg.Mode == Weighted {
		return a.digest == b.digest
	}
	return a.size == b.size && slices.Equal(a.sig, b.sig)
}

// add registers doc under id; in Weighted mode its live copies take its
// signature.
func (r *reference) add(id string, doc *refDoc) {
	for _, o := range r.live {
		if o.size > 0 && doc.size > 0 && r.identical(o, doc) {
			o.sig = doc.sig
		}
	}
	r.live[id] = doc
}

func (r *reference) remove(id string) {
	if r.stats != nil {
		k := r.live[id].keys
		r.stats.remove(k.keys[:k.terms], k.keys[k.terms:])
	}
	delete(r.live, id)
}

// matches returns every live document other than self related to q,
// sorted, uncapped.
func (r *reference) matches(q *refDoc, self string) []detector.Match {
	out := []detector.Match{}
	if q.size == 0 {
		return out
	}
	cfg := r.d.a.cfg
	for id, o := range r.live {
		if id == self || o.size == 0 {
			continue
		}
		same := r.identical(o, q)
		if !same && !r.candidate(q, o) {
			continue
		}
		var score float64
		switch {
		case cfg.Mode == Weighted && same:
			score = 1
		case len(q.sig) > 0 && len(o.sig) > 0:
			score = Similarity(q.sig, o.sig)
		}
		sa, sb := float64(q.size), float64(o.size)
		var shared float64
		if cfg.Mode == Containment {
			score = ContainmentOf(score, q.size, o.size)
			if evidence.PartOf(score*sa, sb, sa) {
				continue
			}
			shared = score * sa
		} else {
			shared = score / (1 + score) * (sa + sb)
		}
		if score >= cfg.Threshold && (score == 1 || evidence.Enough(shared, min(sa, sb), float64(cfg.MinOverlap))) {
			out = append(out, detector.Match{ID: id, Score: score})
		}
	}
	detector.SortMatches(out)
	return out
}

// candidate applies the banding rule to q and o.
func (r *reference) candidate(q, o *refDoc) bool {
	if len(q.sig) == 0 || len(o.sig) == 0 {
		return false
	}
	cfg := r.d.a.cfg
	shares := func(bands, rows int) int {
		a, b := AppendBandKeys(nil, q.sig, bands, rows), AppendBandKeys(nil, o.sig, bands, rows)
		n := 0
		for i := range a {
			if a[i] == b[i] {
				n++
			}
		}
		return n
	}
	if cfg.Mode != Containment {
		return shares(r.d.a.bands, r.d.a.rows) >= r.d.a.minHit
	}
	p := partition(o.size)
	if upper := float64(int(1)<<(p+1)) - 1; upper < cfg.Threshold*float64(q.size) {
		return false
	}
	key := [2]int8{partition(q.size), p}
	l, ok := r.level[key]
	if !ok {
		l = int(containmentLevel(cfg, float64(int(1)<<key[0]), float64(int(1)<<(p+1))-1))
		r.level[key] = l
	}
	rows := containmentLevels[l]
	return shares(cfg.NumHashes/rows, rows) > 0
}

func capped(ms []detector.Match, n int) []detector.Match {
	if len(ms) > n {
		return ms[:n]
	}
	return ms
}

// checkAgainstReference runs ops through a Detector and the reference,
// comparing every Add, and the Containers, Query and Copies of a random
// live document after every tenth step.
func checkAgainstReference(t *testing.T, d *Detector, ops []op) {
	t.Helper()
	ref := newReference(d)
	limit := d.a.cfg.MaxResults
	texts := map[string]string{}
	var ids []string
	rng := rand.New(rand.NewPCG(9, 9))
	for step, o := range ops {
		if o.Remove {
			require.NoError(t, d.Remove(o.ID))
			ref.remove(o.ID)
			delete(texts, o.ID)
			ids = slices.DeleteFunc(ids, func(s string) bool { return s == o.ID })
		} else {
			doc := ref.sign(o.Text)
			want := capped(ref.matches(doc, ""), limit)
			got, err := d.Add(detector.Doc{ID: o.ID, Text: o.Text})
			require.NoError(t, err)
			require.Equal(t, want, got, "step %d: Add(%s)", step, o.ID)
			ref.add(o.ID, doc)
			texts[o.ID] = o.Text
			ids = append(ids, o.ID)
		}
		if step%10 != 0 || len(ids) == 0 {
			continue
		}
		id := ids[rng.IntN(len(ids))]
		me := ref.live[id]
		want := capped(ref.matches(me, id), limit)
		got, err := d.Containers(id)
		require.NoError(t, err)
		require.Equal(t, want, got, "step %d: Containers(%s)", step, id)
		if !d.a.online { // online, a Query weighs the text as a new document
			got, err = d.Query(detector.Doc{ID: id, Text: texts[id]})
			require.NoError(t, err)
			require.Equal(t, want, got, "step %d: Query(%s)", step, id)
		}
		cp, err := d.Copies(id)
		require.NoError(t, err)
		wantCopies := []string{}
		for o, od := range ref.live {
			if o != id && me.size > 0 && od.size > 0 && ref.identical(od, me) {
				wantCopies = append(wantCopies, o)
			}
		}
		slices.Sort(wantCopies)
		assert.Equal(t, wantCopies, cp, "step %d: Copies(%s)", step, id)
	}
	assert.Equal(t, len(ref.live), d.Len())
}

// referenceConfigs are the configurations the differential tests run.
func referenceConfigs(stats *Stats) []struct {
	name  string
	cfg   Config
	stats *Stats
} {
	return []struct {
		name  string
		cfg   Config
		stats *Stats
	}{
		{"Jaccard", Config{}, nil},
		{"Supershingles", Config{Supershingles: 16, Threshold: 0.5}, nil},
		{"Containment", Config{Mode: Containment}, nil},
		{"WeightedOnline", Config{Mode: Weighted}, nil},
		{"WeightedStats", Config{Mode: Weighted}, stats},
	}
}

// TestFloodMatchesReference checks the grouped, capped index against the
// reference on synthetic news (120 stories, 250 with NEARDUP_LONG) with
// bursts of exact copies and removals, uncapped and with a cap smaller
// than the bursts, in every mode.
func TestFloodMatchesReference(t *testing.T) {
	texts := streamTexts(dataset.LongSize(120, 250), 4)
	ops := floodStream(texts, 1, 12)
	stats, err := NewStats(Config{Mode: Weighted})
	require.NoError(t, err)
	for _, text := range texts[:100] {
		stats.AddDocument(text)
	}
	for _, tc := range referenceConfigs(stats) {
		for _, limit := range []int{1 << 30, 3} {
			t.Run(fmt.Sprintf("%s/cap%d", tc.name, limit), func(t *testing.T) {
				cfg := tc.cfg
				cfg.MaxResults = limit
				d, err := NewWithStats(cfg, tc.stats)
				require.NoError(t, err)
				checkAgainstReference(t, d, ops)
			})
		}
	}
}

// TestRealDataMatchesReference checks the grouped index against the
// reference on the first 150 Reuters-21578 stories (800 with
// NEARDUP_LONG), whose wire stories repeat, under the default cap.
func TestRealDataMatchesReference(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("compares every Add with a linear scan")
	}
	recs := dataset.Reuters(t, dataset.LongSize(150, 800))
	texts := dataset.Texts(recs)
	ops := floodStream(texts, 2, 5)
	stats, err := NewStats(Config{Mode: Weighted, Language: "en"})
	require.NoError(t, err)
	for _, text := range texts[:min(len(texts), 300)] {
		stats.AddDocument(text)
	}
	for _, tc := range referenceConfigs(stats) {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Language = "en"
			d, err := NewWithStats(cfg, tc.stats)
			require.NoError(t, err)
			checkAgainstReference(t, d, ops)
		})
	}
}

// liveGroups returns the numbers of the live groups of d.
func liveGroups(d *Detector) []uint32 {
	var out []uint32
	d.inspect(func(ix *index, _ *countedIndex) {
		for g, n := range ix.members {
			if n > 0 {
				out = append(out, uint32(g))
			}
		}
	})
	return out
}

// chainsHoldOnce requires that every chain of every band table holds one
// group: the flood's copies did not enter the tables.
func chainsHoldOnce(t *testing.T, d *Detector, g uint32) {
	t.Helper()
	d.inspect(func(ix *index, _ *countedIndex) {
		for _, tb := range ix.tables {
			for b := range tb.bands {
				assert.Equal(t, int32(-1), tb.next.of(g)[b], "band %d: the chain holds one group", b)
				assert.Equal(t, int32(-1), tb.prev.of(g)[b])
				head, ok := tb.get(b, bandKey(ix.sigs.of(g), b, tb.rows))
				assert.True(t, ok)
				assert.Equal(t, int32(g), head)
				assert.Equal(t, 1, tb.heads[b].n, "band %d holds one key", b)
			}
		}
	})
}

// TestFloodCostFlat adds 2,000 identical copies in every mode and checks
// that the work per Add does not grow with the copies: the index holds one
// group, each band chain and the exact-copy map hold it once, and each
// Add reads only the members that make the cap (the five smallest IDs).
// The answers of the flood (capped, smallest IDs first, Query, Copies,
// the promotion of the next member, Len) are the shared suite's for the
// registry's modes (TestEveryNameExactFlood in the root package: minhash,
// minhash-weighted, minhash-containment); they are checked here only for
// the settings it does not build (Supershingles, WeightedStats).
func TestFloodCostFlat(t *testing.T) {
	text := dataset.SynthDocs(1, dataset.SynthConfig{Seed: 11})[0].Text
	stats, err := NewStats(Config{Mode: Weighted})
	require.NoError(t, err)
	stats.AddDocument(text)
	n := 2000
	if raceEnabled {
		n = 300
	}
	for _, tc := range referenceConfigs(stats) {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.MaxResults = 5
			d, err := NewWithStats(cfg, tc.stats)
			require.NoError(t, err)
			answers := tc.name == "Supershingles" || tc.stats != nil // else the shared suite's
			id := func(i int) string { return fmt.Sprintf("c%04d", i) }
			for i := range n {
				ms, err := d.Add(detector.Doc{ID: id(i), Text: text})
				require.NoError(t, err)
				if !answers {
					continue
				}
				require.Len(t, ms, min(i, 5))
				if i > 0 {
					assert.Equal(t, detector.Match{ID: "c0000", Score: 1}, ms[0])
				}
			}
			groups := liveGroups(d)
			require.Len(t, groups, 1, "one group for the copies")
			g := groups[0]
			d.inspect(func(ix *index, c *countedIndex) {
				assert.Equal(t, 1, ix.exact.Len(), "the exact-copy map holds the group once")
				assert.EqualValues(t, n, ix.members[g])
				if c != nil {
					require.Len(t, c.counted, n)
					first := &c.counted[0].keys[0]
					for h := range n {
						require.Same(t, first, &c.counted[h].keys[0], "copies share their terms and phrases")
					}
				}
			})
			heaps, held := d.e.Heaps()
			assert.Equal(t, 1, heaps)
			assert.Equal(t, n, held)
			chainsHoldOnce(t, d, g)
			// Removing the representative (the smallest ID, the heap's
			// root) promotes another copy: nothing is lost.
			require.NoError(t, d.Remove("c0000"))
			if answers {
				ms, err := d.Containers("c0001")
				require.NoError(t, err)
				assert.Equal(t, []detector.Match{{ID: "c0002", Score: 1}, {ID: "c0003", Score: 1}, {ID: "c0004", Score: 1},
					{ID: "c0005", Score: 1}, {ID: "c0006", Score: 1}}, ms)
				q, err := d.Query(detector.Doc{Text: text})
				require.NoError(t, err)
				assert.Equal(t, []detector.Match{{ID: "c0001", Score: 1}, {ID: "c0002", Score: 1}, {ID: "c0003", Score: 1},
					{ID: "c0004", Score: 1}, {ID: "c0005", Score: 1}}, q)
				cp, err := d.Copies(id(n - 1))
				require.NoError(t, err)
				assert.Len(t, cp, n-2)
				assert.Equal(t, "c0001", cp[0])
			}
			for i := 1; i < n; i++ {
				require.NoError(t, d.Remove(id(i)))
			}
			assert.Empty(t, liveGroups(d))
			heaps, held = d.e.Heaps()
			assert.Zero(t, heaps)
			assert.Zero(t, held)
			d.inspect(func(ix *index, _ *countedIndex) {
				assert.Zero(t, ix.exact.Len())
				for _, tb := range ix.tables {
					for b := range tb.bands {
						assert.Zero(t, tb.heads[b].n)
					}
				}
			})
			if answers {
				assert.Zero(t, d.Len())
			}
			if d.a.online {
				assert.Zero(t, d.liveStats().N(), "the statistics are empty again")
			}
		})
	}
}

// TestExactKeyCollisions makes the keys of the exact-copy map collide (a
// 64-bit hash of signature and size, which in practice never does): groups
// of different contents with one key must stay apart, be found, leave and
// round-trip as with distinct keys.
func TestExactKeyCollisions(t *testing.T) {
	defer func(m uint64) { exactKeyMask = m }(exactKeyMask)
	exactKeyMask = 0b11
	texts := streamTexts(60, 9)
	ops := floodStream(texts, 7, 6)
	for _, cfg := range []Config{{MaxResults: 3}, {Mode: Containment}} {
		t.Run(fmt.Sprint(cfg.Mode), func(t *testing.T) {
			d, err := New(cfg)
			require.NoError(t, err)
			checkAgainstReference(t, d, ops)
			d.inspect(func(ix *index, _ *countedIndex) { assert.NotEmpty(t, ix.clash, "keys collided") })
			roundTrip(t, cfg, nil, ops)
		})
	}
}
