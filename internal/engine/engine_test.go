package engine

import (
	"bytes"
	"fmt"
	"maps"
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
	held     bool // from Features until Release (releasing)
	resolved bool // by Resolve (resolvingIndex)
}

// toy compares word sets by Jaccard similarity, reporting pairs of at
// least 0.5; exact copies are texts of one word set.
type toy struct {
	counting, preparing, finding bool
	membering                    bool
	prepared                     *atomic.Int64
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
		return &hookedIndex{toyIndex: ix, prepared: t.prepared}
	case t.finding:
		return &findingIndex{toyIndex: ix}
	case t.membering:
		return &memberIndex{toyIndex: ix, members: map[uint32]int{}}
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

// memberIndex counts the members of each group through Insert, Join,
// Leave and Delete.
type memberIndex struct {
	*toyIndex
	members map[uint32]int
}

func (m *memberIndex) Insert(g uint32, f *words) {
	if m.members[g] != 0 {
		panic("Insert of a live group")
	}
	m.members[g] = 1
	m.toyIndex.Insert(g, f)
}

func (m *memberIndex) Delete(g uint32, f *words) {
	if m.members[g] != 1 {
		panic(fmt.Sprintf("Delete of group %d with %d members", g, m.members[g]))
	}
	delete(m.members, g)
	m.toyIndex.Delete(g, f)
}

func (m *memberIndex) Join(g uint32, f *words) {
	if m.members[g] < 1 || len(f.w) == 0 {
		panic("Join of a group not live")
	}
	m.members[g]++
}

func (m *memberIndex) Leave(g uint32, f *words) {
	if m.members[g] < 2 || len(f.w) == 0 {
		panic("Leave of a group's last member")
	}
	m.members[g]--
}

// hookedIndex counts its Prepare calls.
type hookedIndex struct {
	*toyIndex
	prepared *atomic.Int64
}

func (h *hookedIndex) Prepare(*words) { h.prepared.Add(1) }

func newToy(t testing.TB, alg toy, maxResults int) *Engine[words, string] {
	t.Helper()
	return New(Spec{Name: "toy", Version: 1, Config: struct{ Level int }{1},
		NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: maxResults}, Algorithm[words, string](alg))
}

// maskText returns the text of the words "a" to "f" whose bits are set in
// mask (bit 0 for "a"); the higher bits are ignored.
func maskText(mask uint) string {
	var w []string
	for j, v := range []string{"a", "b", "c", "d", "e", "f"} {
		if mask>>j&1 == 1 {
			w = append(w, v)
		}
	}
	return strings.Join(w, " ")
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
	groups, members := e.Heaps()
	assert.Equal(t, 1, groups, "one heap of copies")
	assert.Equal(t, 3, members)
	require.NoError(t, e.Remove("a"))
	ms, err := e.Containers("c")
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "b", Score: 1}}, ms)
	require.NoError(t, e.Remove("b"))
	groups, members = e.Heaps()
	assert.Zero(t, groups, "a group of one keeps no heap")
	assert.Zero(t, members)
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
	assert.True(t, e.counting)
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

func TestPrepare(t *testing.T) {
	var prepared atomic.Int64
	e := newToy(t, toy{preparing: true, prepared: &prepared}, 5)
	add(t, e, "a", "x")
	add(t, e, "b", "x")
	_, err := e.Add(detector.Doc{ID: "a", Text: "x"})
	require.ErrorIs(t, err, detector.ErrDuplicateID)
	_, err = e.Query(detector.Doc{Text: "x"})
	require.NoError(t, err)
	assert.EqualValues(t, 2, prepared.Load(), "Prepare runs for every Add that passes the first checks, not for Query")
}

// TestMemberJoinLeave: a Member index sees every exact copy join and
// leave its group, through Add, Remove and ReadFrom, and Spec.Trace sees
// each commit in order.
func TestMemberJoinLeave(t *testing.T) {
	var trace []string
	spec := func() Spec {
		return Spec{Name: "toy", Version: 1, Config: struct{ Level int }{1}, NoGroup: "empty",
			MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5,
			Trace: func(remove bool, id string) { trace = append(trace, fmt.Sprint(remove, " ", id)) }}
	}
	e := New(spec(), Algorithm[words, string](toy{membering: true}))
	members := func(e *Engine[words, string]) map[uint32]int {
		var m map[uint32]int
		e.Inspect(func(ix Index[words], _ int) { m = maps.Clone(ix.(*memberIndex).members) })
		return m
	}
	add(t, e, "a", "x y")
	add(t, e, "b", "y x")
	add(t, e, "c", "x y")
	add(t, e, "d", "p q")
	add(t, e, "blank", "")
	assert.Equal(t, map[uint32]int{0: 3, 1: 1}, members(e))
	require.NoError(t, e.Remove("a"))
	require.NoError(t, e.Remove("blank"))
	assert.Equal(t, map[uint32]int{0: 2, 1: 1}, members(e))
	require.NoError(t, e.Remove("d"))
	assert.Equal(t, map[uint32]int{0: 2}, members(e))
	assert.Equal(t, []string{"false a", "false b", "false c", "false d", "false blank", "true a", "true blank", "true d"}, trace)

	var buf bytes.Buffer
	_, err := e.WriteTo(&buf)
	require.NoError(t, err)
	loaded := New(spec(), Algorithm[words, string](toy{membering: true}))
	_, err = loaded.ReadFrom(&buf)
	require.NoError(t, err)
	assert.Equal(t, map[uint32]int{0: 2}, members(loaded), "ReadFrom joins the further members")
	require.NoError(t, loaded.Remove("b"))
	require.NoError(t, loaded.Remove("c"))
	assert.Empty(t, members(loaded))
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

func TestDefaultsAndCheckLimits(t *testing.T) {
	content, maxText, maxResults := textproc.ContentDefault, 0, 0
	Defaults(&content, textproc.ContentMain, &maxText, &maxResults)
	assert.Equal(t, []int{int(textproc.ContentMain), detector.DefaultMaxTextBytes, detector.DefaultMaxResults},
		[]int{int(content), maxText, maxResults})
	require.NoError(t, CheckLimits(content, maxText, maxResults))
	content, maxText, maxResults = textproc.ContentAll, 7, 3
	Defaults(&content, textproc.ContentMain, &maxText, &maxResults)
	assert.Equal(t, []int{int(textproc.ContentAll), 7, 3}, []int{int(content), maxText, maxResults}, "set fields are kept")
	for _, c := range []struct {
		content            textproc.Content
		maxText, maxResult int
		msg                string
	}{
		{textproc.ContentAll, -1, 1, "MaxTextBytes (-1) must be ≥ 0"},
		{textproc.ContentAll, 1, -2, "MaxResults (-2) must be ≥ 0"},
		{9, 1, 1, "Content (9) must be"},
	} {
		assert.ErrorContains(t, CheckLimits(c.content, c.maxText, c.maxResult), c.msg)
	}
}

func TestShrinkMap(t *testing.T) {
	m := map[int]int{}
	peak := 0
	for i := range 4096 {
		m[i] = i
		peak = max(peak, len(m))
	}
	for i := range 4000 {
		delete(m, i)
		m = ShrinkMap(m, &peak)
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

// releasing is a toy whose features hold a resource from Features until
// Release, which must come once, before the features are stored.
type releasing struct {
	toy
	featured, released *atomic.Int64
}

func (r releasing) Features(text string) words {
	f := r.toy.Features(text)
	f.held = true
	r.featured.Add(1)
	return f
}

func (r releasing) Release(f *words) {
	if !f.held {
		panic("Release of features not held")
	}
	f.held = false
	r.released.Add(1)
}

func TestReleaseOncePerFeatures(t *testing.T) {
	for _, counting := range []bool{false, true} {
		t.Run(fmt.Sprint("counting=", counting), func(t *testing.T) {
			var featured, released atomic.Int64
			alg := releasing{toy: toy{counting: counting}, featured: &featured, released: &released}
			e := New(Spec{Name: "toy", Version: 1, NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5},
				Algorithm[words, string](alg))
			var wg sync.WaitGroup
			for w := range 4 {
				wg.Go(func() {
					for i := range 30 {
						// Every goroutine adds the same IDs: some are refused
						// before Features, some in the turn or at the commit.
						_, _ = e.Add(detector.Doc{ID: fmt.Sprint(i), Text: fmt.Sprint("w", i%7, " x")})
						_, err := e.Query(detector.Doc{Text: fmt.Sprint("w", (i+w)%7)})
						assert.NoError(t, err)
					}
				})
			}
			wg.Wait()
			assert.Equal(t, 30, e.Len())
			assert.Equal(t, featured.Load(), released.Load(), "one Release per Features")
			if counting { // without a Counter, Release comes after the commit
				for _, g := range e.st.groups.list {
					assert.False(t, g.f.held, "with a Counter, features are released before they are stored")
				}
			}
			require.NoError(t, e.Close())
			_, err := e.Query(detector.Doc{Text: "x"})
			require.ErrorIs(t, err, detector.ErrClosed)
			assert.Equal(t, featured.Load(), released.Load(), "one Release per Features")
		})
	}
}

// resolvingIndex is a countingIndex with a step before the turn.
type resolvingIndex struct {
	*countingIndex
	resolved *atomic.Int64
}

func (r *resolvingIndex) Resolve(f *words, _ *Groups[words]) {
	f.resolved = true
	r.resolved.Add(1)
}

func (r *resolvingIndex) Count(f *words) int32 {
	if !f.resolved {
		panic("Count before Resolve")
	}
	return r.countingIndex.Count(f)
}

type resolvingToy struct {
	toy
	resolved *atomic.Int64
}

func (r resolvingToy) NewIndex() Index[words] {
	return &resolvingIndex{countingIndex: r.toy.NewIndex().(*countingIndex), resolved: r.resolved}
}

func TestResolveBeforeTurn(t *testing.T) {
	var resolved atomic.Int64
	e := New(Spec{Name: "toy", Version: 1, NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5},
		Algorithm[words, string](resolvingToy{toy: toy{counting: true}, resolved: &resolved}))
	add(t, e, "a", "x y")
	add(t, e, "b", "x y")
	add(t, e, "c", "")
	ms, err := e.Query(detector.Doc{Text: "x y"})
	require.NoError(t, err)
	assert.Len(t, ms, 2)
	_, err = e.Add(detector.Doc{ID: "a", Text: "x"})
	require.ErrorIs(t, err, detector.ErrDuplicateID)
	assert.EqualValues(t, 3, resolved.Load(), "Resolve runs for each Add that passes the first checks, not for Query")
}

// TestTraceOrder: SetTrace's hook sees each committed Add once, in turn
// order, and no refused one.
func TestTraceOrder(t *testing.T) {
	e := newToy(t, toy{counting: true}, 5)
	var order []string
	e.SetTrace(func(remove bool, id string) {
		if !remove {
			order = append(order, id)
		}
	})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 20 {
				_, _ = e.Add(detector.Doc{ID: fmt.Sprint(w, "-", i%10), Text: fmt.Sprint("common w", w, "-", i)})
			}
		})
	}
	wg.Wait()
	require.Len(t, order, 40, "each committed document once, refused ones never")
	e.Inspect(func(ix Index[words], _ int) {
		assert.True(t, slices.IsSorted(ix.(*countingIndex).inserted), "commits in turn order")
	})
	got := slices.Clone(order)
	slices.Sort(got)
	assert.Equal(t, slices.Compact(got), got, "no ID twice")
}

// nested is a Layout under the shared section names that writes the
// groups section its own way: groups in descending order of their
// smallest member, each with a marker byte; the documents in no group as
// the shared layout does.
type nested struct{ toy }

func (nested) Sections() []string { return []string{"groups", "empty"} }

func (n nested) EncodeSections(groups []SnapshotGroup[words], bare []string, _ Counter[words]) [][]byte {
	var e, b snapshot.Enc
	e.Int(len(groups))
	for _, g := range slices.Backward(groups) {
		e.Int(7)
		n.EncodeGroup(&e, g.F)
		e.Strings(g.IDs)
	}
	b.Strings(bare)
	return [][]byte{e.B, b.B}
}

func (n nested) DecodeSections(secs [][]byte, group func(*snapshot.Dec, *words, []string), bare func(*snapshot.Dec, string)) error {
	d := snapshot.NewDec(secs[0])
	prev := ""
	for i := range d.Len(4, 0) {
		if d.Int(7) != 7 {
			d.Fail("no marker")
		}
		f := n.DecodeGroup(d)
		ids := d.IDs(1)
		if d.Err() != nil {
			return d.Err()
		}
		if i > 0 && ids[0] >= prev {
			d.Fail("groups out of order")
			return d.Err()
		}
		prev = ids[0]
		if group(d, &f, ids); d.Err() != nil {
			return d.Err()
		}
	}
	if err := d.Done(); err != nil {
		return err
	}
	d = snapshot.NewDec(secs[1])
	for _, id := range d.IDs(0) {
		if bare(d, id); d.Err() != nil {
			return d.Err()
		}
	}
	return d.Done()
}

// TestLayoutSharedNames: a Layout that keeps the shared section names and
// changes only the groups section (as imatch's does) writes it, reads it
// back, re-encodes it byte for byte, and the engine's checks of the
// documents and groups refuse what they did for the shared layout.
func TestLayoutSharedNames(t *testing.T) {
	newNested := func() *Engine[words, string] {
		return New(Spec{Name: "toy", Version: 1, NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5},
			Algorithm[words, string](nested{}))
	}
	e := newNested()
	add(t, e, "b", "x y")
	add(t, e, "a", "y x")
	add(t, e, "c", "p q r")
	add(t, e, "blank", "")
	groups, bare, n, err := e.Sections()
	require.NoError(t, err)
	assert.Equal(t, 4, n)
	var want snapshot.Enc
	want.Int(2)
	for _, g := range []struct {
		w   []string
		ids []string
	}{{[]string{"p", "q", "r"}, []string{"c"}}, {[]string{"x", "y"}, []string{"a", "b"}}} {
		want.Int(7)
		want.Strings(g.w)
		want.Int(0)
		want.Strings(g.ids)
	}
	assert.Equal(t, want.B, groups, "the Layout's groups section")
	var wantBare snapshot.Enc
	wantBare.Strings([]string{"blank"})
	assert.Equal(t, wantBare.B, bare, "the documents in no group")

	var buf bytes.Buffer
	_, err = e.WriteTo(&buf)
	require.NoError(t, err)
	f := newNested()
	_, err = f.ReadFrom(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	var again bytes.Buffer
	_, err = f.WriteTo(&again)
	require.NoError(t, err)
	assert.Equal(t, buf.Bytes(), again.Bytes(), "re-encodes byte for byte")
	cp, err := f.Copies("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, cp)

	group := func(e *snapshot.Enc, ws []string, ids ...string) {
		e.Int(7)
		e.Strings(ws)
		e.Int(0)
		e.Strings(ids)
	}
	for _, c := range []struct {
		name string
		enc  func(e *snapshot.Enc)
		msg  string
	}{
		{"order", func(e *snapshot.Enc) { e.Int(2); group(e, []string{"x"}, "a"); group(e, []string{"y"}, "c") }, "groups out of order"},
		{"key twice", func(e *snapshot.Enc) { e.Int(2); group(e, []string{"x"}, "b"); group(e, []string{"x"}, "a") }, "two groups with one signature"},
		{"ID twice", func(e *snapshot.Enc) { e.Int(2); group(e, []string{"x"}, "b"); group(e, []string{"y"}, "a", "b") }, `document "b" twice`},
		{"no key", func(e *snapshot.Enc) { e.Int(1); e.Int(7); e.Int(0); e.Int(0); e.Strings([]string{"a"}) }, "words"},
	} {
		var enc snapshot.Enc
		c.enc(&enc)
		_, err := newNested().DecodeSections(enc.B, bare)
		assert.ErrorIs(t, err, detector.ErrSnapshot, c.name)
		assert.ErrorContains(t, err, c.msg, c.name)
	}
}

func TestUnionGroupsAndHeaps(t *testing.T) {
	e := newToy(t, toy{}, 5)
	add(t, e, "a", "x y")
	add(t, e, "b", "y x")
	add(t, e, "c", "x y z")
	add(t, e, "d", "p")
	heaps, held := e.Heaps()
	assert.Equal(t, 1, heaps, "one group of two")
	assert.Equal(t, 2, held)
	// Every group sharing a word with any group of the union so far.
	closure := func(g uint32, groups *Groups[words], ix Index[words]) []uint32 {
		post := ix.(*toyIndex).post
		seen := map[uint32]bool{g: true}
		out := []uint32{g}
		for i := 0; i < len(out); i++ {
			for _, w := range groups.Features(out[i]).w {
				for _, o := range post[w] {
					if !seen[o] {
						seen[o] = true
						out = append(out, o)
					}
				}
			}
		}
		return out
	}
	ids, err := e.UnionGroups("Closure", "c", closure)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b", "c"}, ids)
	ids, err = e.UnionGroups("Closure", "d", closure)
	require.NoError(t, err)
	assert.Equal(t, []string{"d"}, ids)
	_, err = e.UnionGroups("Closure", "zz", closure)
	require.ErrorIs(t, err, detector.ErrUnknownID)
	for _, id := range []string{"a", "b", "c", "d"} {
		require.NoError(t, e.Remove(id))
	}
	heaps, held = e.Heaps()
	assert.Zero(t, heaps, "no heap outlives its group")
	assert.Zero(t, held)
}

// freeIndex is a counting index whose Peek runs outside the turns: its
// counts have a lock of their own, and Count waits on hold when set.
type freeIndex struct {
	*toyIndex
	mu   sync.Mutex
	n    int
	hold chan struct{}
	in   chan struct{}
}

func (x *freeIndex) PeeksFreely() {}

func (x *freeIndex) Count(f *words) int32 {
	if x.hold != nil {
		x.in <- struct{}{}
		<-x.hold
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.n++
	f.n = x.n
	return int32(x.n)
}

func (x *freeIndex) Complete(f *words) { f.complete = true }

func (x *freeIndex) Peek(f *words) {
	x.mu.Lock()
	defer x.mu.Unlock()
	f.n, f.complete = x.n+1, true
}

func (x *freeIndex) Uncount(int32) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.n--
}

func (x *freeIndex) Recount(*words) int32 { return x.Count(&words{}) }

type freeToy struct {
	toy
	ix *freeIndex
}

func (a freeToy) NewIndex() Index[words] { return a.ix }

// TestFreePeek: with a FreePeeker the Query of a counting Engine takes no
// turn, so it completes while an Add holds its turn; without one it waits.
func TestFreePeek(t *testing.T) {
	ix := &freeIndex{toyIndex: &toyIndex{post: map[string][]uint32{}}, hold: make(chan struct{}), in: make(chan struct{})}
	e := New(Spec{Name: "toy", Version: 1, NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5},
		Algorithm[words, string](freeToy{ix: ix}))
	require.True(t, e.counting)
	done := make(chan error)
	go func() {
		_, err := e.Add(detector.Doc{ID: "a", Text: "x y"})
		done <- err
	}()
	<-ix.in // the Add holds its turn
	queried := make(chan error)
	go func() {
		_, err := e.Query(detector.Doc{Text: "x y"})
		queried <- err
	}()
	select {
	case err := <-queried:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Query waited for an Add's turn")
	}
	close(ix.hold)
	require.NoError(t, <-done)
	ms, err := e.Query(detector.Doc{Text: "y x"})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}}, ms)
}

// TestTraceAndGroup: Spec.Trace sees each committed Add and Remove, in
// commit order, and Group reads the features of a document's group.
func TestTraceAndGroup(t *testing.T) {
	var order []string
	e := New(Spec{Name: "toy", Version: 1, NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5,
		Trace: func(remove bool, id string) { order = append(order, fmt.Sprint(remove, " ", id)) }}, Algorithm[words, string](toy{}))
	add(t, e, "b", "y x")
	add(t, e, "a", "x y")
	add(t, e, "blank", "")
	_, err := e.Add(detector.Doc{ID: "a", Text: "z"})
	require.ErrorIs(t, err, detector.ErrDuplicateID)
	require.NoError(t, e.Remove("b"))
	assert.Equal(t, []string{"false b", "false a", "false blank", "true b"}, order)

	var got []string
	require.NoError(t, e.Group("Fingerprint", "a", func(f *words) { got = f.w }))
	assert.Equal(t, []string{"x", "y"}, got)
	require.NoError(t, e.Group("Fingerprint", "blank", func(f *words) { assert.Nil(t, f) }))
	err = e.Group("Fingerprint", "nope", func(*words) { t.Fatal("fn called for an unknown ID") })
	require.ErrorIs(t, err, detector.ErrUnknownID)
	assert.ErrorContains(t, err, "Fingerprint")
}

// TestTablesNow: a snapshot's header holds the tables' fingerprints as
// TablesNow gives them at the WriteTo, and ReadFrom compares with them as
// they are at the ReadFrom.
func TestTablesNow(t *testing.T) {
	var fp atomic.Uint64
	spec := Spec{Name: "toy", Version: 1, NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5,
		TablesNow: func() map[string]uint64 { return map[string]uint64{"idf": fp.Load()} }}
	e := New(spec, Algorithm[words, string](toy{}))
	add(t, e, "a", "x y")
	fp.Store(7) // the caller's table changed after New
	var buf bytes.Buffer
	_, err := e.WriteTo(&buf)
	require.NoError(t, err)
	_, err = New(spec, Algorithm[words, string](toy{})).ReadFrom(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err, "the header holds the table as it is now")
	fp.Store(8)
	_, err = New(spec, Algorithm[words, string](toy{})).ReadFrom(bytes.NewReader(buf.Bytes()))
	require.ErrorIs(t, err, detector.ErrSnapshot)
	assert.ErrorContains(t, err, "idf")
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

// counted is the toy algorithm with Releaser: it counts the features
// it took back.
type counted struct {
	toy
	released *atomic.Int64
}

func (r counted) Release(*words) { r.released.Add(1) }

// TestReleaseCounts: the features of every Add and Query that computed them,
// whether or not it commits, are released once; those refused before
// Features are not.
func TestReleaseCounts(t *testing.T) {
	var released atomic.Int64
	e := New(Spec{Name: "toy", Version: 1, Config: struct{ Level int }{1}, NoGroup: "empty",
		MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5}, Algorithm[words, string](counted{released: &released}))
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

func (laidOut) EncodeSections(groups []SnapshotGroup[words], bare []string, _ Counter[words]) [][]byte {
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
		return laidOut{}.EncodeSections(groups, bare, nil)
	}
	xy := &words{w: []string{"x", "y"}}
	for name, secs := range map[string][][]byte{
		"key twice":         enc([]SnapshotGroup[words]{{F: xy, IDs: []string{"a"}}, {F: xy, IDs: []string{"b"}}}),
		"ID twice":          enc([]SnapshotGroup[words]{{F: xy, IDs: []string{"a"}}}, "a"),
		"no key":            enc([]SnapshotGroup[words]{{F: &words{w: []string{}}, IDs: []string{"a"}}}),
		"one section short": secs[:1],
	} {
		_, err := newLaid().DecodeSectionList(secs)
		assert.ErrorIs(t, err, detector.ErrSnapshot, name)
	}
	_, err = newLaid().DecodeSectionList(secs)
	assert.NoError(t, err)
}

// givenLaidOut is laidOut recording what EncodeSections is given.
type givenLaidOut struct {
	laidOut
	counter *Counter[words]
	handles *[][]int32
}

func (g givenLaidOut) EncodeSections(groups []SnapshotGroup[words], bare []string, c Counter[words]) [][]byte {
	*g.counter = c
	for _, gr := range groups {
		*g.handles = append(*g.handles, gr.Handles)
	}
	return g.laidOut.EncodeSections(groups, bare, c)
}

// TestLayoutGivenCounter: EncodeSections is given the index's Counter, nil
// without one, and the members' handles only with a MemberRecounter
// (TestLayoutCounter has one).
func TestLayoutGivenCounter(t *testing.T) {
	for _, counting := range []bool{false, true} {
		var c Counter[words]
		var handles [][]int32
		e := New(Spec{Name: "toy", Version: 1, NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5},
			Algorithm[words, string](givenLaidOut{laidOut{toy{counting: counting}}, &c, &handles}))
		add(t, e, "b", "x y")
		add(t, e, "a", "y x")
		add(t, e, "c", "p")
		_, n, err := e.SectionList()
		require.NoError(t, err)
		assert.Equal(t, 3, n)
		if counting {
			require.NotNil(t, c, "the Counter")
			assert.True(t, c == e.st.counter, "the index's Counter")
		} else {
			assert.Nil(t, c, "no Counter")
		}
		assert.Equal(t, [][]int32{nil, nil}, handles, "no handles without a MemberRecounter")
	}
}

// renewingIndex gives a group the features of the member that joins it.
type renewingIndex struct {
	*toyIndex
	renewed []string
}

func (r *renewingIndex) Renew(g uint32, group, f *words) {
	r.renewed = append(r.renewed, fmt.Sprint(g, ":", group.n, "->", f.n))
	group.n = f.n
}

type renewingToy struct{ toy }

func (renewingToy) NewIndex() Index[words] {
	return &renewingIndex{toyIndex: &toyIndex{post: map[string][]uint32{}}}
}

// TestRenewAndAddFeatures: an Add that joins a group renews it (after its
// search under SearchFirst), a ReadFrom does not; AddFeatures stores the
// features it is given.
func TestRenewAndAddFeatures(t *testing.T) {
	for _, first := range []bool{false, true} {
		newRenewing := func() *Engine[words, string] {
			return New(Spec{Name: "toy", Version: 1, NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5, SearchFirst: first},
				Algorithm[words, string](renewingToy{}))
		}
		e := newRenewing()
		for i, id := range []string{"a", "b", "c"} {
			_, err := e.AddFeatures(detector.Doc{ID: id}, words{w: []string{"x", "y"}, n: i + 1})
			require.NoError(t, err)
		}
		_, err := e.AddFeatures(detector.Doc{ID: "a"}, words{w: []string{"x"}})
		require.ErrorIs(t, err, detector.ErrDuplicateID)
		ix := e.st.ix.(*renewingIndex)
		assert.Equal(t, []string{"0:1->2", "0:2->3"}, ix.renewed, "SearchFirst=%v", first)
		require.NoError(t, e.Group("test", "a", func(f *words) { assert.Equal(t, 3, f.n, "the newest member's features") }))

		var buf bytes.Buffer
		_, err = e.WriteTo(&buf)
		require.NoError(t, err)
		f := newRenewing()
		_, err = f.ReadFrom(&buf)
		require.NoError(t, err)
		assert.Empty(t, f.st.ix.(*renewingIndex).renewed, "ReadFrom renews nothing")
		require.NoError(t, f.Group("test", "c", func(f *words) { assert.Equal(t, 3, f.n) }))
	}
}

// memberCounting is a countingIndex that a snapshot stores per member,
// and that checks its features are still held when Insert stores them.
type memberCounting struct {
	*countingIndex
	heldAtInsert int
	recounted    []int
}

func (m *memberCounting) Insert(g uint32, f *words) {
	if f.held {
		m.heldAtInsert++
	}
	f.held = false
	m.countingIndex.Insert(g, f)
}

func (m *memberCounting) RecountMember(f *words, i int) int32 {
	m.recounted = append(m.recounted, i)
	return m.countingIndex.Recount(f)
}

type countedLaidOut struct {
	laidOut
	featured, released *atomic.Int64
}

func (c countedLaidOut) Features(text string) words {
	c.featured.Add(1)
	f := c.laidOut.Features(text)
	f.held = true
	return f
}

func (c countedLaidOut) Release(f *words) {
	c.released.Add(1)
	f.held = false
}

func (countedLaidOut) HeldToCommit() {}

func (countedLaidOut) NewIndex() Index[words] {
	return &memberCounting{countingIndex: toy{counting: true}.NewIndex().(*countingIndex)}
}

// EncodeSections writes the all section with each member's counted words
// count after the groups.
func (c countedLaidOut) EncodeSections(groups []SnapshotGroup[words], bare []string, ctr Counter[words]) [][]byte {
	secs := c.laidOut.EncodeSections(groups, bare, ctr)
	var e snapshot.Enc
	for _, g := range groups {
		for _, h := range g.Handles {
			e.Int(len(ctr.(*memberCounting).byHandle[h]))
		}
	}
	return [][]byte{append(secs[0], e.B...), secs[1]}
}

func (c countedLaidOut) DecodeSections(secs [][]byte, group func(*snapshot.Dec, *words, []string), bare func(*snapshot.Dec, string)) error {
	d := snapshot.NewDec(secs[0])
	type pending struct {
		f   words
		ids []string
	}
	var gs []pending
	for range d.Len(3, 0) {
		gs = append(gs, pending{words{w: d.Strings(1, true, "words"), complete: true}, d.IDs(1)})
	}
	for _, g := range gs {
		for range g.ids {
			if d.Int(100) != len(g.f.w) {
				d.Fail("member count")
			}
		}
		if group(d, &g.f, g.ids); d.Err() != nil {
			return d.Err()
		}
	}
	if err := d.Done(); err != nil {
		return err
	}
	return c.laidOut.DecodeSections([][]byte{{0}, secs[1]}, group, bare)
}

// TestLayoutCounter: with HeldToCommit the features are held until their
// commit; a Layout over a MemberRecounter reads the members' handles in
// the Counter it is given, and ReadFrom recounts each member with its
// position.
func TestLayoutCounter(t *testing.T) {
	var featured, released atomic.Int64
	alg := countedLaidOut{featured: &featured, released: &released}
	newCounted := func() *Engine[words, string] {
		return New(Spec{Name: "toy", Version: 1, NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 5},
			Algorithm[words, string](alg))
	}
	e := newCounted()
	add(t, e, "b", "x y")
	add(t, e, "a", "y x")
	add(t, e, "c", "x y z")
	add(t, e, "blank", "")
	_, err := e.Add(detector.Doc{ID: "a", Text: "q"})
	require.ErrorIs(t, err, detector.ErrDuplicateID)
	assert.Equal(t, 2, e.st.ix.(*memberCounting).heldAtInsert, "held until the commit of each new group")
	assert.Equal(t, featured.Load(), released.Load(), "one Release per Features")

	var buf bytes.Buffer
	_, err = e.WriteTo(&buf)
	require.NoError(t, err)
	secs, _, _, err := snapshot.ReadAll(bytes.NewReader(buf.Bytes()), e.header(), "all", "none")
	require.NoError(t, err, "the Layout's sections, by name")
	var counts snapshot.Enc
	for _, n := range []int{2, 2, 3} { // a and b of x y, then c of x y z
		counts.Int(n)
	}
	assert.True(t, bytes.HasSuffix(secs[0], counts.B), "each member's count after the groups")
	f := newCounted()
	_, err = f.ReadFrom(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 0}, f.st.ix.(*memberCounting).recounted)
	var again bytes.Buffer
	_, err = f.WriteTo(&again)
	require.NoError(t, err)
	assert.Equal(t, buf.Bytes(), again.Bytes(), "re-encodes byte for byte")
	assert.Equal(t, 4, f.st.ix.(*memberCounting).n, "every document recounted")
}

// TestSearchFirstConcurrent: concurrent Adds under SearchFirst, with
// Removes between them, answer as the same calls made one by one in the
// order they took effect (Spec.Trace), and leave the same Containers.
func TestSearchFirstConcurrent(t *testing.T) {
	type event struct {
		remove bool
		id     string
	}
	var log []event // appended under the exclusive lock
	spec := Spec{Name: "toy", Version: 1, NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 50, SearchFirst: true}
	e := New(spec, Algorithm[words, string](toy{}))
	e.SetTrace(func(remove bool, id string) { log = append(log, event{remove, id}) })
	texts := map[string]string{}
	for i := range 200 {
		mask := uint(i) & 31
		for j := range 5 {
			if (i*7+j)%5 == 0 {
				mask |= 1 << j
			}
		}
		texts[fmt.Sprint("d", i)] = maskText(mask)
	}
	var mu sync.Mutex
	got := map[string][]detector.Match{}
	var wg sync.WaitGroup
	ids := slices.Sorted(maps.Keys(texts))
	for k := range 8 {
		wg.Go(func() {
			for i := k; i < len(ids); i += 8 {
				ms, err := e.Add(detector.Doc{ID: ids[i], Text: texts[ids[i]]})
				assert.NoError(t, err)
				mu.Lock()
				got[ids[i]] = ms
				mu.Unlock()
				if i%5 == 2 {
					assert.NoError(t, e.Remove(ids[i]))
				}
			}
		})
	}
	wg.Wait()
	seq := New(spec, Algorithm[words, string](toy{}))
	live := map[string]bool{}
	for _, ev := range log {
		if ev.remove {
			require.NoError(t, seq.Remove(ev.id))
			delete(live, ev.id)
			continue
		}
		assert.Equal(t, add(t, seq, ev.id, texts[ev.id]), got[ev.id], "Add(%s) in commit order", ev.id)
		live[ev.id] = true
	}
	for id := range live {
		want, err := seq.Containers(id)
		require.NoError(t, err)
		ms, err := e.Containers(id)
		require.NoError(t, err)
		assert.Equal(t, want, ms, "Containers(%s)", id)
	}
}
