package engine

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// words is the toy algorithm's features: the sorted distinct words of a
// text, and (with a counting index) the number of documents counted
// before it and whether Complete has run.
type words struct {
	w        []string
	n        int
	complete bool
}

// toy compares word sets by Jaccard similarity, reporting pairs of at
// least 0.5; exact copies are texts of one word set.
type toy struct {
	counting, preparing, finding bool
	prepared, settled            *atomic.Int64
	gate                         *sync.WaitGroup // when set, Features waits for gate
}

func (t toy) Features(text string) words {
	if t.gate != nil {
		t.gate.Done()
		t.gate.Wait()
	}
	w := strings.Fields(text)
	slices.Sort(w)
	return words{w: slices.Compact(w)}
}

func (toy) CopyKey(f *words) (string, bool) { return strings.Join(f.w, " "), len(f.w) > 0 }

func (t toy) NewIndex() Index[words] {
	ix := &toyIndex{post: map[string][]uint32{}}
	switch {
	case t.counting:
		return &countingIndex{toyIndex: ix, df: map[string]int{}, byHandle: map[int32][]string{}}
	case t.preparing:
		return &hookedIndex{toyIndex: ix, prepared: t.prepared, settled: t.settled}
	case t.finding:
		return &findingIndex{toyIndex: ix}
	}
	return ix
}

func (toy) EncodeGroup(e *snapshot.Enc, f *words) {
	e.Strings(f.w)
	e.Int(f.n)
}

func (toy) DecodeGroup(d *snapshot.Dec) words {
	return words{w: d.Strings(1, true, "words"), n: d.Int(1 << 30), complete: true}
}

type toyIndex struct {
	post map[string][]uint32
}

func (ix *toyIndex) Search(dst []Candidate, f *words, groups *Groups[words]) []Candidate {
	shared := map[uint32]int{}
	for _, w := range f.w {
		for _, g := range ix.post[w] {
			shared[g]++
		}
	}
	for g, n := range shared {
		j := float64(n) / float64(len(f.w)+len(groups.Features(g).w)-n)
		if j >= 0.5 {
			dst = append(dst, Candidate{Group: g, Score: j})
		}
	}
	return dst
}

func (ix *toyIndex) Insert(g uint32, f *words) {
	for _, w := range f.w {
		ix.post[w] = append(ix.post[w], g)
	}
}

func (ix *toyIndex) Delete(g uint32, f *words) {
	for _, w := range f.w {
		l := slices.DeleteFunc(ix.post[w], func(x uint32) bool { return x == g })
		if len(l) == 0 {
			delete(ix.post, w)
		} else {
			ix.post[w] = l
		}
	}
}

// countingIndex keeps document frequencies over the live documents, and
// completes features with the number of documents counted before them.
// It records the n of the groups in the order they are inserted.
type countingIndex struct {
	*toyIndex
	df       map[string]int
	n        int
	byHandle map[int32][]string
	next     int32
	inUse    atomic.Int32 // Count, Peek, Uncount or Recount running now
	inserted []int
}

func (c *countingIndex) Insert(g uint32, f *words) {
	if !f.complete {
		panic("Insert of features not completed")
	}
	c.inserted = append(c.inserted, f.n)
	c.toyIndex.Insert(g, f)
}

func (c *countingIndex) enter() func() {
	if c.inUse.Add(1) != 1 {
		panic("two Counter methods at once")
	}
	return func() { c.inUse.Add(-1) }
}

func (c *countingIndex) count(ws []string) int32 {
	c.n++
	for _, w := range ws {
		c.df[w]++
	}
	c.next++
	c.byHandle[c.next] = ws
	return c.next
}

func (c *countingIndex) Count(f *words) int32 {
	defer c.enter()()
	time.Sleep(20 * time.Microsecond) // a window for an overlapping call
	f.n = c.n
	return c.count(f.w)
}

func (c *countingIndex) Complete(f *words) {
	time.Sleep(time.Duration(len(f.w)%3) * 30 * time.Microsecond) // commits out of turn order, unless ordered
	f.complete = true
}

func (c *countingIndex) Peek(f *words) {
	defer c.enter()()
	f.n = c.n
	f.complete = true
}

func (c *countingIndex) Uncount(h int32) {
	defer c.enter()()
	c.n--
	for _, w := range c.byHandle[h] {
		if c.df[w]--; c.df[w] == 0 {
			delete(c.df, w)
		}
	}
	delete(c.byHandle, h)
}

func (c *countingIndex) Recount(f *words) int32 {
	defer c.enter()()
	if f == nil {
		return c.count(nil)
	}
	return c.count(f.w)
}

// findingIndex finds groups by their first word's posting list.
type findingIndex struct{ *toyIndex }

func (x *findingIndex) Find(f *words, groups *Groups[words]) (uint32, bool) {
	for _, g := range x.post[f.w[0]] {
		if slices.Equal(groups.Features(g).w, f.w) {
			return g, true
		}
	}
	return 0, false
}

// hookedIndex counts its Prepare and Settle calls.
type hookedIndex struct {
	*toyIndex
	prepared, settled *atomic.Int64
}

func (h *hookedIndex) Prepare(*words) { h.prepared.Add(1) }
func (h *hookedIndex) Settle()        { h.settled.Add(1) }

func newToy(t testing.TB, alg toy, maxResults int) *Engine[words, string] {
	t.Helper()
	return New(Spec{Name: "toy", Version: 1, Config: struct{ Level int }{1},
		NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: maxResults}, Algorithm[words, string](alg))
}

func add(t testing.TB, e *Engine[words, string], id, text string) []detector.Match {
	t.Helper()
	ms, err := e.Add(detector.Doc{ID: id, Text: text})
	require.NoError(t, err)
	return ms
}

func TestAddQueryContainersCopies(t *testing.T) {
	for _, alg := range []toy{{}, {finding: true}} {
		t.Run(fmt.Sprint("finding=", alg.finding), func(t *testing.T) { testAddQuery(t, alg) })
	}
}

func testAddQuery(t *testing.T, alg toy) {
	e := newToy(t, alg, 3)
	assert.Empty(t, add(t, e, "a", "x y z"))
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}}, add(t, e, "b", "z y x"), "an exact copy")
	assert.Equal(t, []detector.Match{{ID: "a", Score: 0.75}, {ID: "b", Score: 0.75}}, add(t, e, "c", "x y z w"))
	for _, id := range []string{"f", "e", "d"} {
		add(t, e, id, "x y z")
	}
	// Capped at 3, the strongest first, then by ID.
	ms, err := e.Containers("c")
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "a", Score: 0.75}, {ID: "b", Score: 0.75}, {ID: "d", Score: 0.75}}, ms)
	ms, err = e.Query(detector.Doc{ID: "a", Text: "x y z"})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "b", Score: 1}, {ID: "d", Score: 1}, {ID: "e", Score: 1}}, ms, "Query leaves out its own ID")
	cp, err := e.Copies("e")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "d", "f"}, cp)

	// A text without words is in no group and matches nothing.
	assert.Equal(t, []detector.Match{}, add(t, e, "blank", "  "))
	cp, err = e.Copies("blank")
	require.NoError(t, err)
	assert.Equal(t, []string{}, cp)
	ms, err = e.Query(detector.Doc{Text: ""})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{}, ms)
	u, err := e.Union("Cluster", "blank", nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"blank"}, u)
	u, err = e.Union("Cluster", "c", func(g uint32, f *words, ix Index[words]) []uint32 {
		if x, ok := ix.(*findingIndex); ok {
			return x.post["x"]
		}
		return ix.(*toyIndex).post["x"]
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c", "d", "e", "f"}, u)
	assert.Equal(t, 7, e.Len())
}

func TestErrors(t *testing.T) {
	e := newToy(t, toy{}, 5)
	add(t, e, "a", "x")
	for _, c := range []struct {
		doc  detector.Doc
		want error
		msg  string
	}{
		{detector.Doc{Text: "x"}, detector.ErrEmptyID, "toy: Add: "},
		{detector.Doc{ID: "big", Text: strings.Repeat("x", 101)}, detector.ErrTooLarge, `toy: Add("big"): 101 bytes over the limit of 100`},
		{detector.Doc{ID: "a", Text: "y"}, detector.ErrDuplicateID, `toy: Add("a")`},
	} {
		_, err := e.Add(c.doc)
		assert.ErrorIs(t, err, c.want)
		assert.ErrorContains(t, err, c.msg)
	}
	_, err := e.Query(detector.Doc{ID: "q", Text: strings.Repeat("x", 101)})
	assert.ErrorIs(t, err, detector.ErrTooLarge)
	_, err = e.Containers("nope")
	assert.ErrorIs(t, err, detector.ErrUnknownID)
	assert.ErrorIs(t, e.Remove("nope"), detector.ErrUnknownID)

	require.NoError(t, e.Close())
	require.NoError(t, e.Close(), "Close is idempotent")
	assert.Zero(t, e.Len())
	_, err = e.Add(detector.Doc{ID: "b", Text: "x"})
	assert.ErrorIs(t, err, detector.ErrClosed)
	_, err = e.Query(detector.Doc{Text: "x"})
	assert.ErrorIs(t, err, detector.ErrClosed)
	_, err = e.Containers("a")
	assert.ErrorIs(t, err, detector.ErrClosed)
	_, err = e.Copies("a")
	assert.ErrorIs(t, err, detector.ErrClosed)
	_, err = e.Union("Cluster", "a", nil)
	assert.ErrorIs(t, err, detector.ErrClosed)
	assert.ErrorIs(t, e.Remove("a"), detector.ErrClosed)
	_, err = e.WriteTo(&bytes.Buffer{})
	assert.ErrorIs(t, err, detector.ErrClosed)
	_, err = e.ReadFrom(&bytes.Buffer{})
	assert.ErrorIs(t, err, detector.ErrClosed)
}

// TestConcurrentAddsOfOneID: of several Adds of one new ID at once,
// exactly one indexes its document.
func TestConcurrentAddsOfOneID(t *testing.T) {
	var gate sync.WaitGroup
	for _, alg := range []toy{{gate: &gate}, {counting: true, gate: &gate}} {
		e := newToy(t, alg, 5)
		for round := range 50 {
			id := fmt.Sprint("id", round)
			var ok, dup atomic.Int32
			var wg sync.WaitGroup
			gate.Add(8) // every Add passes the first check before any commits
			for w := range 8 {
				wg.Go(func() {
					_, err := e.Add(detector.Doc{ID: id, Text: fmt.Sprint("x y ", w)})
					switch {
					case err == nil:
						ok.Add(1)
					case assert.ErrorIs(t, err, detector.ErrDuplicateID):
						dup.Add(1)
					}
				})
			}
			wg.Wait()
			require.EqualValues(t, 1, ok.Load())
			require.EqualValues(t, 7, dup.Load())
		}
		assert.Equal(t, 50, e.Len())
		if alg.counting {
			e.Inspect(func(ix Index[words], _ int) {
				assert.Equal(t, 50, ix.(*countingIndex).n, "refused Adds are uncounted")
			})
		}
	}
}

// TestRemoveGroups: the smallest member leaving promotes another, the
// last member takes the group out of the index, and its slot is reused.
func TestRemoveGroups(t *testing.T) {
	for _, alg := range []toy{{}, {finding: true}} {
		t.Run(fmt.Sprint("finding=", alg.finding), func(t *testing.T) { testRemoveGroups(t, alg) })
	}
}

func testRemoveGroups(t *testing.T, alg toy) {
	e := newToy(t, alg, 5)
	for _, id := range []string{"a", "b", "c"} {
		add(t, e, id, "x y")
	}
	add(t, e, "d", "p q")
	require.NoError(t, e.Remove("a"))
	ms, err := e.Containers("c")
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "b", Score: 1}}, ms)
	require.NoError(t, e.Remove("b"))
	require.NoError(t, e.Remove("c"))
	e.Inspect(func(ix Index[words], slots int) {
		assert.Equal(t, 2, slots)
		var post map[string][]uint32
		if x, ok := ix.(*findingIndex); ok {
			post = x.post
		} else {
			post = ix.(*toyIndex).post
		}
		assert.NotContains(t, post, "x", "the last member takes the group out")
	})
	add(t, e, "e", "r s")
	e.Inspect(func(_ Index[words], slots int) { assert.Equal(t, 2, slots, "a free slot is reused") })
	ms, err = e.Query(detector.Doc{Text: "x y"})
	require.NoError(t, err)
	assert.Empty(t, ms)
}

// TestCounterTurns: Adds from many goroutines count every document once,
// in turns (countingIndex panics on two Counter methods at once), commit
// in turn order after their features are completed, Query peeks without
// counting, Remove uncounts, and ReadFrom recounts every document.
func TestCounterTurns(t *testing.T) {
	e := newToy(t, toy{counting: true}, 5)
	assert.True(t, e.Counting())
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 40 {
				// Distinct texts of 1 to 3 extra words: every Add makes a
				// group, and Complete takes 0 to 60 µs.
				text := fmt.Sprint("common w", w, "-", i, strings.Repeat(" x", i%3))
				_, err := e.Add(detector.Doc{ID: fmt.Sprint(w, "-", i), Text: text})
				assert.NoError(t, err)
				_, err = e.Query(detector.Doc{Text: "common"})
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
	e.Inspect(func(ix Index[words], _ int) {
		inserted := ix.(*countingIndex).inserted
		require.Len(t, inserted, 320)
		assert.True(t, slices.IsSorted(inserted), "commits in turn order")
	})
	add(t, e, "blank", "")
	counted := func(e *Engine[words, string]) (n, common int) {
		e.Inspect(func(ix Index[words], _ int) {
			c := ix.(*countingIndex)
			n, common = c.n, c.df["common"]
		})
		return
	}
	n, common := counted(e)
	assert.Equal(t, 321, n, "a document in no group is counted too")
	assert.Equal(t, 320, common)
	require.NoError(t, e.Remove("0-0"))
	require.NoError(t, e.Remove("blank"))
	n, _ = counted(e)
	assert.Equal(t, 319, n)

	var buf bytes.Buffer
	_, err := e.WriteTo(&buf)
	require.NoError(t, err)
	f := newToy(t, toy{counting: true}, 5)
	_, err = f.ReadFrom(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	n, common = counted(f)
	assert.Equal(t, 319, n)
	assert.Equal(t, 319, common)
}

func TestPrepareAndSettle(t *testing.T) {
	var prepared, settled atomic.Int64
	e := newToy(t, toy{preparing: true, prepared: &prepared, settled: &settled}, 5)
	add(t, e, "a", "x")
	add(t, e, "b", "x")
	_, err := e.Add(detector.Doc{ID: "a", Text: "x"})
	require.ErrorIs(t, err, detector.ErrDuplicateID)
	_, err = e.Query(detector.Doc{Text: "x"})
	require.NoError(t, err)
	assert.EqualValues(t, 3, prepared.Load(), "Prepare runs for every Add that passes the first checks and for Query")
	assert.EqualValues(t, 2, settled.Load(), "Settle runs after each commit")
}

// snapshotOf returns the snapshot of an engine holding a few groups and
// a document without words.
func snapshotOf(t *testing.T) []byte {
	e := newToy(t, toy{}, 5)
	add(t, e, "b", "x y")
	add(t, e, "a", "y x")
	add(t, e, "c", "p q r")
	add(t, e, "blank", "")
	var buf bytes.Buffer
	_, err := e.WriteTo(&buf)
	require.NoError(t, err)
	return buf.Bytes()
}

func TestSnapshotRoundTrip(t *testing.T) {
	snap := snapshotOf(t)
	e := newToy(t, toy{}, 5)
	n, err := e.ReadFrom(bytes.NewReader(snap))
	require.NoError(t, err)
	assert.EqualValues(t, len(snap), n)
	assert.Equal(t, 4, e.Len())
	var again bytes.Buffer
	_, err = e.WriteTo(&again)
	require.NoError(t, err)
	assert.Equal(t, snap, again.Bytes(), "re-encodes byte for byte")
	cp, err := e.Copies("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, cp)

	_, err = e.ReadFrom(bytes.NewReader(snap))
	assert.ErrorIs(t, err, detector.ErrSnapshot, "only into an empty engine")
	other := New(Spec{Name: "toy", Version: 1, Config: struct{ Level int }{2}, NoGroup: "empty",
		MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5}, Algorithm[words, string](toy{}))
	_, err = other.ReadFrom(bytes.NewReader(snap))
	assert.ErrorIs(t, err, detector.ErrSnapshot, "another Config")
	assert.ErrorContains(t, err, "Config.Level")
	assert.Zero(t, other.Len())
}

// TestDecodeRefusesWhatEncodeNeverWrites: the shared sections are
// canonical.
func TestDecodeRefusesWhatEncodeNeverWrites(t *testing.T) {
	for _, alg := range []toy{{}, {finding: true}} {
		t.Run(fmt.Sprint("finding=", alg.finding), func(t *testing.T) { testDecodeRefuses(t, alg) })
	}
}

func testDecodeRefuses(t *testing.T, alg toy) {
	group := func(e *snapshot.Enc, ws []string, ids ...string) {
		e.Strings(ws)
		e.Int(0)
		e.Strings(ids)
	}
	groups := func(gs ...func(*snapshot.Enc)) []byte {
		var e snapshot.Enc
		e.Int(len(gs))
		for _, g := range gs {
			g(&e)
		}
		return e.B
	}
	ids := func(ss ...string) []byte {
		var e snapshot.Enc
		e.Strings(ss)
		return e.B
	}
	g := func(ws []string, ids ...string) func(*snapshot.Enc) {
		return func(e *snapshot.Enc) { group(e, ws, ids...) }
	}
	e := newToy(t, alg, 5)
	n, err := e.DecodeSections(groups(g([]string{"x"}, "a", "b"), g([]string{"y"}, "c")), ids("d"))
	require.NoError(t, err)
	assert.Equal(t, 4, n)
	for _, c := range []struct {
		name          string
		groups, empty []byte
		msg           string
	}{
		{"order", groups(g([]string{"x"}, "c"), g([]string{"y"}, "a")), ids(), "groups out of order"},
		{"key twice", groups(g([]string{"x"}, "a"), g([]string{"x"}, "b")), ids(), "two groups with one signature"},
		{"ID twice", groups(g([]string{"x"}, "a"), g([]string{"y"}, "b")), ids("a"), `document "a" twice`},
		{"members unsorted", groups(g([]string{"x"}, "b", "a")), ids(), "IDs"},
		{"no members", groups(g([]string{"x"})), ids(), "IDs"},
		{"trailing bytes", append(groups(g([]string{"x"}, "a")), 0), ids(), ""},
	} {
		_, err := e.DecodeSections(c.groups, c.empty)
		assert.ErrorIs(t, err, detector.ErrSnapshot, c.name)
		assert.ErrorContains(t, err, c.msg, c.name)
	}
}

func TestShared(t *testing.T) {
	var s Shared
	s.SetDefaults(textproc.ContentMain)
	assert.Equal(t, Shared{Content: textproc.ContentMain, MaxTextBytes: detector.DefaultMaxTextBytes, MaxResults: detector.DefaultMaxResults}, s)
	require.NoError(t, s.CheckLanguage("x"))
	require.NoError(t, s.CheckLimits("x"))
	for _, c := range []struct {
		s   Shared
		msg string
	}{
		{Shared{Language: "not a tag!", Content: textproc.ContentAll, MaxTextBytes: 1, MaxResults: 1}, `x: Language ("not a tag!")`},
		{Shared{Content: textproc.ContentAll, MaxTextBytes: -1, MaxResults: 1}, "x: MaxTextBytes (-1) must be ≥ 0"},
		{Shared{Content: textproc.ContentAll, MaxTextBytes: 1, MaxResults: -2}, "x: MaxResults (-2) must be ≥ 0"},
		{Shared{Content: 9, MaxTextBytes: 1, MaxResults: 1}, "x: Content (9) must be"},
	} {
		err := c.s.CheckLanguage("x")
		if err == nil {
			err = c.s.CheckLimits("x")
		}
		assert.ErrorIs(t, err, detector.ErrInvalidConfig, c.msg)
		assert.ErrorContains(t, err, c.msg)
	}
}

func TestShrink(t *testing.T) {
	m := map[int]int{}
	peak := 0
	for i := range 4096 {
		m[i] = i
		peak = max(peak, len(m))
	}
	for i := range 4000 {
		delete(m, i)
		m = Shrink(m, &peak)
	}
	assert.Len(t, m, 96)
	assert.Less(t, peak, 4096, "rebuilt when a quarter of the peak was left")
	for i := 4000; i < 4096; i++ {
		assert.Equal(t, i, m[i])
	}
}

// TestCloseDuringAdds closes an engine while Adds and Queries run: each
// either succeeds or returns ErrClosed, and nothing panics.
func TestCloseDuringAdds(t *testing.T) {
	for _, alg := range []toy{{}, {counting: true}} {
		e := newToy(t, alg, 5)
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				for i := range 200 {
					_, err := e.Add(detector.Doc{ID: fmt.Sprint(w, "-", i), Text: "a b c"})
					if err != nil {
						assert.ErrorIs(t, err, detector.ErrClosed)
					}
					if _, err := e.Query(detector.Doc{Text: "a b"}); err != nil {
						assert.ErrorIs(t, err, detector.ErrClosed)
					}
				}
			})
		}
		wg.Go(func() { require.NoError(t, e.Close()) })
		wg.Wait()
		assert.Zero(t, e.Len())
	}
}

// seeingIndex records, for each Search, how many groups the index held.
type seeingIndex struct {
	*toyIndex
	groups int
	seen   []int
}

func (x *seeingIndex) Search(dst []Candidate, f *words, groups *Groups[words]) []Candidate {
	x.seen = append(x.seen, x.groups)
	return x.toyIndex.Search(dst, f, groups)
}
func (x *seeingIndex) Insert(g uint32, f *words) { x.groups++; x.toyIndex.Insert(g, f) }
func (x *seeingIndex) Delete(g uint32, f *words) { x.groups--; x.toyIndex.Delete(g, f) }

// seeing is the toy algorithm over a seeingIndex.
type seeing struct{ toy }

func (seeing) NewIndex() Index[words] {
	return &seeingIndex{toyIndex: &toyIndex{post: map[string][]uint32{}}}
}

// TestSearchFirst: with Spec.SearchFirst an Add searches before its
// commit inserts a new group, and answers as an Add that searches after.
func TestSearchFirst(t *testing.T) {
	texts := [][2]string{{"a", "x y z"}, {"b", "z y x"}, {"c", "x y z w"}, {"d", "p q"}, {"blank", ""}, {"e", "x y z w"}}
	var answers [2][][]detector.Match
	for i, first := range []bool{false, true} {
		e := New(Spec{Name: "toy", Version: 1, Config: struct{ Level int }{1}, NoGroup: "empty",
			MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5, SearchFirst: first}, Algorithm[words, string](seeing{}))
		for _, d := range texts {
			answers[i] = append(answers[i], add(t, e, d[0], d[1]))
		}
		e.Inspect(func(ix Index[words], _ int) {
			want := []int{1, 1, 2, 3, 3} // the groups after each insertion
			if first {
				want = []int{0, 1, 1, 2, 3} // before it: a, b's copy of a, c, d, e's copy of c
			}
			assert.Equal(t, want, ix.(*seeingIndex).seen, "SearchFirst=%v", first)
		})
	}
	assert.Equal(t, answers[0], answers[1], "the same answers")
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}}, answers[1][1])
}

// releasing is the toy algorithm with Releaser: it counts the features
// it took back.
type releasing struct {
	toy
	released *atomic.Int64
}

func (r releasing) Release(*words) { r.released.Add(1) }

// TestRelease: the features of every Add and Query that computed them,
// whether or not it commits, are released once; those refused before
// Features are not.
func TestRelease(t *testing.T) {
	var released atomic.Int64
	e := New(Spec{Name: "toy", Version: 1, Config: struct{ Level int }{1}, NoGroup: "empty",
		MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5}, Algorithm[words, string](releasing{released: &released}))
	add(t, e, "a", "x y")
	add(t, e, "b", "y x")
	add(t, e, "blank", "")
	assert.EqualValues(t, 3, released.Load())
	_, err := e.Query(detector.Doc{Text: "x y"})
	require.NoError(t, err)
	assert.EqualValues(t, 4, released.Load())
	_, err = e.Add(detector.Doc{ID: "a", Text: "x"})
	require.ErrorIs(t, err, detector.ErrDuplicateID)
	assert.EqualValues(t, 4, released.Load(), "refused before Features")

	// Concurrent Adds of one new ID: each computed features, one commits.
	var wg sync.WaitGroup
	var ok atomic.Int64
	for range 8 {
		wg.Go(func() {
			if _, err := e.Add(detector.Doc{ID: "n", Text: "p q"}); err == nil {
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	assert.EqualValues(t, 1, ok.Load())
	assert.LessOrEqual(t, released.Load(), int64(4+8))
	assert.GreaterOrEqual(t, released.Load(), int64(5))
}

// laidOut is the toy algorithm with a Layout of its own: one section
// "all" with every group (words, then members) and one "none" with the
// documents in no group, in reverse order of IDs.
type laidOut struct{ toy }

func (laidOut) Sections() []string { return []string{"all", "none"} }

func (laidOut) EncodeSections(groups []SnapshotGroup[words], bare []string) [][]byte {
	var a, b snapshot.Enc
	a.Int(len(groups))
	for _, g := range groups {
		a.Strings(g.F.w)
		a.Strings(g.IDs)
	}
	b.Int(len(bare))
	for _, id := range slices.Backward(bare) {
		b.String(id)
	}
	return [][]byte{a.B, b.B}
}

func (laidOut) DecodeSections(secs [][]byte, group func(*snapshot.Dec, *words, []string), bare func(*snapshot.Dec, string)) error {
	d := snapshot.NewDec(secs[0])
	for range d.Len(3, 0) {
		f := words{w: d.Strings(1, true, "words")}
		ids := d.IDs(1)
		if d.Err() != nil {
			return d.Err()
		}
		if group(d, &f, ids); d.Err() != nil {
			return d.Err()
		}
	}
	if err := d.Done(); err != nil {
		return err
	}
	d = snapshot.NewDec(secs[1])
	for range d.Len(1, 0) {
		id := d.String()
		if d.Err() != nil {
			return d.Err()
		}
		if bare(d, id); d.Err() != nil {
			return d.Err()
		}
	}
	return d.Done()
}

// TestLayout: an Algorithm with a Layout writes its own sections, reads
// them back into an engine that answers as the original and re-encodes
// them byte for byte; the engine's checks of documents and groups hold.
func TestLayout(t *testing.T) {
	newLaid := func() *Engine[words, string] {
		return New(Spec{Name: "toy", Version: 1, Config: struct{ Level int }{1}, NoGroup: "empty",
			MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5}, Algorithm[words, string](laidOut{}))
	}
	e := newLaid()
	add(t, e, "b", "x y")
	add(t, e, "a", "y x")
	add(t, e, "c", "x y z")
	add(t, e, "blank", "")
	add(t, e, "blank2", " ")
	var buf bytes.Buffer
	_, err := e.WriteTo(&buf)
	require.NoError(t, err)
	secs, n, err := e.SectionList()
	require.NoError(t, err)
	assert.Equal(t, 5, n)
	payloads, _, _, err := snapshot.ReadAll(bytes.NewReader(buf.Bytes()), e.header(), "all", "none")
	require.NoError(t, err, "the Layout's sections, by name")
	assert.Equal(t, secs, payloads)

	f := newLaid()
	_, err = f.ReadFrom(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	var again bytes.Buffer
	_, err = f.WriteTo(&again)
	require.NoError(t, err)
	assert.Equal(t, buf.Bytes(), again.Bytes(), "re-encodes byte for byte")
	for _, id := range []string{"a", "c", "blank"} {
		want, err := e.Containers(id)
		require.NoError(t, err)
		got, err := f.Containers(id)
		require.NoError(t, err)
		assert.Equal(t, want, got, id)
	}
	cp, err := f.Copies("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, cp)

	enc := func(groups []SnapshotGroup[words], bare ...string) [][]byte {
		return laidOut{}.EncodeSections(groups, bare)
	}
	xy := &words{w: []string{"x", "y"}}
	for name, secs := range map[string][][]byte{
		"key twice":         enc([]SnapshotGroup[words]{{xy, []string{"a"}}, {xy, []string{"b"}}}),
		"ID twice":          enc([]SnapshotGroup[words]{{xy, []string{"a"}}}, "a"),
		"no key":            enc([]SnapshotGroup[words]{{&words{w: []string{}}, []string{"a"}}}),
		"one section short": secs[:1],
	} {
		_, err := newLaid().DecodeSectionList(secs)
		assert.ErrorIs(t, err, detector.ErrSnapshot, name)
	}
	_, err = newLaid().DecodeSectionList(secs)
	assert.NoError(t, err)
}
