package mrcosine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// variants returns n texts drawn from base: a third as they are, the
// rest edited (a few words dropped, or a sentence of another text
// appended), and a tenth of all copies of an earlier text, some in
// capitals (the same signature under Normalized text), so that a stream of
// them holds near-duplicates at every distance from the threshold and
// exact copies.
func variants(base []string, n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 3))
	out := make([]string, 0, n)
	for len(out) < n {
		if len(out) > 0 && rng.IntN(10) == 0 {
			t := out[rng.IntN(len(out))]
			if rng.IntN(2) == 0 {
				t = strings.ToUpper(t)
			}
			out = append(out, t)
			continue
		}
		words := strings.Fields(base[rng.IntN(len(base))])
		switch rng.IntN(3) {
		case 1:
			for range 1 + rng.IntN(max(1, len(words)/8)) {
				if len(words) > 2 {
					i := rng.IntN(len(words))
					words = append(words[:i], words[i+1:]...)
				}
			}
		case 2:
			other := strings.Fields(base[rng.IntN(len(base))])
			words = append(words, other[:min(len(other), 5+rng.IntN(20))]...)
		}
		out = append(out, strings.Join(words, " "))
	}
	return out
}

// linearized adds texts from G goroutines while another removes a third of
// the documents already added, and requires that every Add answered, and
// the detector ended, exactly as one goroutine making the same Adds and
// Removes in the order they took effect (the detector's turn hook records
// it under the exclusive lock): the same matches and scores, the same
// Containers of every live document, byte-identical snapshots.
func linearized(t *testing.T, cfg Config, texts []string, G int) {
	t.Helper()
	d := mustNew(t, cfg)
	type turn struct {
		op byte
		id string
	}
	var turns []turn // appended under d's exclusive lock
	d.turn = func(op byte, id string) { turns = append(turns, turn{op, id}) }

	text := make(map[string]string, len(texts))
	for i, s := range texts {
		text[fmt.Sprintf("d%05d", i)] = s
	}
	answers := make([][]detector.Match, len(texts))
	removals := make(chan string, len(texts))
	var wg sync.WaitGroup
	for w := range G {
		wg.Go(func() {
			for i := w; i < len(texts); i += G {
				id := fmt.Sprintf("d%05d", i)
				ms, err := d.Add(detector.Doc{ID: id, Text: texts[i]})
				if !assert.NoError(t, err) {
					return
				}
				answers[i] = ms
				if i%3 == 1 {
					removals <- id
				}
			}
		})
	}
	var rw sync.WaitGroup
	rw.Go(func() {
		for id := range removals {
			assert.NoError(t, d.Remove(id))
		}
	})
	wg.Wait()
	close(removals)
	rw.Wait()
	require.False(t, t.Failed())

	seq := mustNew(t, cfg)
	adds := 0
	for k, tu := range turns {
		if tu.op == 'r' {
			require.NoError(t, seq.Remove(tu.id), "turn %d", k)
			continue
		}
		adds++
		want, err := seq.Add(detector.Doc{ID: tu.id, Text: text[tu.id]})
		require.NoError(t, err)
		var i int
		fmt.Sscanf(tu.id, "d%d", &i)
		require.Equal(t, want, answers[i], "turn %d: Add(%s) against the sequential run", k, tu.id)
	}
	require.Equal(t, len(texts), adds, "every Add took one turn")
	require.Equal(t, seq.Len(), d.Len())
	for id := range text {
		want, err := seq.Containers(id)
		if err != nil {
			require.ErrorIs(t, err, detector.ErrUnknownID)
			continue
		}
		got, err := d.Containers(id)
		require.NoError(t, err)
		require.Equal(t, want, got, "Containers(%s)", id)
	}
	require.Equal(t, encode(t, seq), encode(t, d))
}

// linearConfigs are the Configs the linearisation tests run: every mode,
// with a cap that cuts and without, and plain signatures at a threshold
// high enough that most queries read their buckets rather than make the
// sequential pass, so both searches (and the switch between them) meet
// concurrent changes.
var linearConfigs = []struct {
	name string
	cfg  Config
}{
	{"Index", Config{MaxResults: 1 << 30}},
	{"IndexCap3", Config{MaxResults: 3}},
	{"IndexT2High", Config{T2: 0.99, T1: 0.995, MaxResults: 1 << 30}},
	{"Centered", Config{Centered: true, MaxResults: 1 << 30}},
	{"CenteredT2High", Config{Centered: true, T2: 0.9, T1: 0.95, MaxResults: 1 << 30}},
	{"Exhaustive", Config{Exhaustive: true, MaxResults: 1 << 30}},
	// Few narrow bands miss many pairs the sequential pass finds, so
	// which of the two a query takes shows in its answer.
	{"FewBands", Config{Rows: 12, Bands: 2, MaxResults: 1 << 30}},
	{"FewBandsCentered", Config{Centered: true, Rows: 10, Bands: 2, MaxResults: 1 << 30}},
}

func TestConcurrentAddsLinearized(t *testing.T) {
	texts := variants(synthTexts(60, 11), 400, 11)
	defer func(n int) { scanChunk = n }(scanChunk)
	for _, c := range linearConfigs {
		t.Run(c.name, func(t *testing.T) {
			for _, g := range []int{2, 4} {
				scanChunk = 1024
				linearized(t, c.cfg, texts, g)
				scanChunk = 8 // Adds and Removes between the chunks of a search
				linearized(t, c.cfg, texts, g)
			}
		})
	}
}

// TestConcurrentAddsLinearizedReuters is the same on news stories, whose
// signatures spread far more than synthetic texts' (the bucket search and
// the sequential pass both occur at the default thresholds).
func TestConcurrentAddsLinearizedReuters(t *testing.T) {
	recs := dataset.Reuters(t, 600)
	base := dataset.Texts(recs)
	texts := variants(base, 800, 12)
	for _, c := range linearConfigs {
		t.Run(c.name, func(t *testing.T) { linearized(t, c.cfg, texts, 2) })
	}
}

// TestLogReach checks that the log of creations answers for every search
// it still reaches back to, and refuses older ones.
func TestLogReach(t *testing.T) {
	d := mustNew(t, Config{})
	ix := d.ix
	s := d.newSigned()
	s.raw = append(s.raw[:0], Default().Signature("a first text to sign")...)
	d.prepare(s)
	for i := range 3 * logKeep {
		idx, err := ix.docs.Add(detector.Doc{ID: fmt.Sprint(i)})
		require.NoError(t, err)
		ix.register(idx)
		ix.create(idx, s, d.parts, d.bands()) // distinct groups need not differ here
	}
	require.Equal(t, uint64(3*logKeep), ix.seq)
	for _, from := range []uint64{0, logKeep, 2 * logKeep, 3*logKeep - 1, 3 * logKeep} {
		recent, ok := ix.since(from)
		if from < ix.logFrom {
			assert.False(t, ok, "since(%d) is older than the log", from)
			continue
		}
		require.True(t, ok, "since(%d)", from)
		require.Len(t, recent, int(ix.seq-from))
		for k, e := range recent {
			assert.Equal(t, from+uint64(k)+1, e.seq)
		}
	}
	assert.Positive(t, ix.logFrom)
	assert.LessOrEqual(t, len(ix.log), 2*logKeep)
}

// TestChangesBetweenSearchAndTurn makes other Adds and Removes at the one
// place a concurrent run can put them, between an Add's search under the
// shared lock and its exclusive turn (the between hook), in bursts large
// enough to flip the choice between the bucket search and the sequential
// pass and to reuse the group numbers of removed documents; every answer,
// Containers and the snapshot must equal those of the same operations in
// the same order on one goroutine. A fifth of the outer documents go
// through the insertion without a query (addSigned), whose exact-copy
// search is brought up to date the same way.
func TestChangesBetweenSearchAndTurn(t *testing.T) {
	texts := variants(synthTexts(60, 13), 450, 13)
	defer func(n int) { scanChunk = n }(scanChunk)
	for _, c := range linearConfigs {
		for _, chunk := range []int{1024, 16} {
			scanChunk = chunk // 16: the changes come between chunks of the sequential pass
			t.Run(fmt.Sprintf("%s/chunk%d", c.name, chunk), func(t *testing.T) {
				d, seq := mustNew(t, c.cfg), mustNew(t, c.cfg)
				rng := rand.New(rand.NewPCG(13, 13))
				var live []string
				textOf := map[string]string{}
				next := 0
				newID := func() string { next++; return fmt.Sprintf("d%05d", next) }
				// addBoth adds a document to d, then to seq: what d's between
				// hook does meanwhile reaches seq first, as its turns come
				// first.
				addBoth := func(id, text string, query bool) {
					var got []detector.Match
					var err error
					if query {
						got, err = d.Add(detector.Doc{ID: id, Text: text})
					} else {
						got, err = d.addSigned(detector.Doc{ID: id, Text: text}, d.ref.Signature(text), false)
					}
					require.NoError(t, err)
					want, err := seq.Add(detector.Doc{ID: id, Text: text})
					require.NoError(t, err)
					if !query {
						want = nil
					}
					require.Equal(t, want, got, "Add(%s)", id)
					live = append(live, id)
					textOf[id] = text
				}
				removeAt := func(k int) {
					id := live[k]
					live = append(live[:k], live[k+1:]...)
					require.NoError(t, seq.Remove(id))
					require.NoError(t, d.Remove(id))
				}
				removeOne := func() { removeAt(rng.IntN(len(live))) }
				// removeCopies removes every live copy of text (its group).
				removeCopies := func(text string) {
					for k := len(live) - 1; k >= 0; k-- {
						if strings.EqualFold(textOf[live[k]], text) {
							removeAt(k)
						}
					}
				}
				for i := 0; i < len(texts); i++ {
					id, text := newID(), texts[i]
					query := rng.IntN(5) != 0
					// What the other goroutines do meanwhile.
					var inner []func()
					if i > 0 && rng.IntN(4) == 0 {
						text = texts[rng.IntN(i)] // a copy: its group exists
					}
					switch r := rng.IntN(10); {
					case r < 3: // a few Adds
						for range 1 + rng.IntN(3) {
							j := rng.IntN(len(texts))
							inner = append(inner, func() { addBoth(newID(), texts[j], true) })
						}
					case r < 5 && len(live) > 40: // a burst of Removes
						for range 1 + rng.IntN(30) {
							inner = append(inner, removeOne)
						}
					case r < 6: // a burst of Adds
						for range 1 + rng.IntN(30) {
							j := rng.IntN(len(texts))
							inner = append(inner, func() { addBoth(newID(), texts[j], true) })
						}
					case r < 7: // an exact copy of this very text, under another ID
						inner = append(inner, func() { addBoth(newID(), strings.ToUpper(text), true) })
					case r < 8: // the group of this text deleted, then perhaps made again
						inner = append(inner, func() { removeCopies(text) })
						if rng.IntN(2) == 0 {
							inner = append(inner, func() { addBoth(newID(), strings.ToUpper(text), true) })
						}
					case r < 9 && len(live) > 0: // Adds and Removes mixed
						for range 1 + rng.IntN(4) {
							inner = append(inner, removeOne, func() { addBoth(newID(), texts[rng.IntN(len(texts))], true) })
						}
					}
					d.between = func() {
						d.between = nil // the inner Adds run straight through
						for _, f := range inner {
							f()
						}
					}
					addBoth(id, text, query)
					d.between = nil
				}
				require.Equal(t, seq.Len(), d.Len())
				for _, id := range live {
					want, err := seq.Containers(id)
					require.NoError(t, err)
					got, err := d.Containers(id)
					require.NoError(t, err)
					require.Equal(t, want, got, "Containers(%s)", id)
				}
				require.Equal(t, encode(t, seq), encode(t, d))
			})
		}
	}
}

// TestReadFromBetweenSearchAndTurn loads a snapshot into an empty detector
// while an Add waits for its turn after searching the empty index: the
// Add must search the loaded index again and answer as if it came after
// the load.
func TestReadFromBetweenSearchAndTurn(t *testing.T) {
	texts := variants(synthTexts(40, 14), 60, 14)
	for _, c := range linearConfigs {
		t.Run(c.name, func(t *testing.T) {
			src := mustNew(t, c.cfg)
			for i, text := range texts[:50] {
				_, err := src.Add(detector.Doc{ID: fmt.Sprint("s", i), Text: text})
				require.NoError(t, err)
			}
			snap := encode(t, src)
			want, err := src.Add(detector.Doc{ID: "new", Text: texts[3]})
			require.NoError(t, err)
			require.NotEmpty(t, want)

			d := mustNew(t, c.cfg)
			d.between = func() {
				d.between = nil
				_, err := d.ReadFrom(strings.NewReader(string(snap)))
				require.NoError(t, err)
			}
			got, err := d.Add(detector.Doc{ID: "new", Text: texts[3]})
			require.NoError(t, err)
			require.Equal(t, want, got)
			require.Equal(t, encode(t, src), encode(t, d))
		})
	}
}

// TestCloseBetweenSearchAndTurn closes the detector while an Add waits for
// its turn, after its search or between two chunks of it: the Add fails
// with ErrClosed and indexes nothing.
func TestCloseBetweenSearchAndTurn(t *testing.T) {
	texts := synthTexts(40, 15)
	defer func(n int) { scanChunk = n }(scanChunk)
	for _, chunk := range []int{1024, 4} {
		scanChunk = chunk
		for _, c := range linearConfigs {
			d := mustNew(t, c.cfg)
			for i, text := range texts {
				_, err := d.Add(detector.Doc{ID: fmt.Sprint(i), Text: text})
				require.NoError(t, err)
			}
			calls := 0
			d.between = func() {
				calls++
				require.NoError(t, d.Close())
			}
			_, err := d.Add(detector.Doc{ID: "new", Text: texts[0]})
			require.ErrorIs(t, err, detector.ErrClosed, c.name)
			assert.Zero(t, d.ix.groups, c.name)
			// Once between chunks and once before the turn at most: the
			// search stops at the first chunk after Close.
			assert.LessOrEqual(t, calls, 2, c.name)
		}
	}
}
