package neardup

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// The flood families of the shared suite: floods of exact and of near
// copies, their cost counted (allocations, snapshot bytes, answer
// lengths; never wall time), and the MaxResults cap. Each package keeps
// the checks of its own index (its groups, posting lists and statistics)
// in its flood_test.go.

// floodCap is the MaxResults of the floods: well below their size.
const floodCap = 5

// floodID names the i-th copy of a flood.
func floodID(i int) string { return fmt.Sprintf("c%04d", i) }

// exactMatches returns the matches a flood's Add, Query or Containers
// owes: the floodCap smallest of the live IDs but self, at Score 1.
func exactMatches(live []string, self string) []detector.Match {
	out := []detector.Match{}
	for _, id := range live {
		if id != self && len(out) < floodCap {
			out = append(out, detector.Match{ID: id, Score: 1})
		}
	}
	return out
}

// floodSize is the length of a flood: full with NEARDUP_LONG, sample
// otherwise and under -race (the long run without it checks the full
// length; the race detector checks the concurrent families).
func floodSize(sample, full int) int {
	if dataset.RaceEnabled {
		return sample
	}
	return dataset.LongSize(sample, full)
}

// TestEveryNameExactFlood adds copies of one text, in ascending and in
// descending order of ID: each Add
// answers the floodCap smallest earlier IDs at Score 1, Query the
// smallest live ones, Copies every other copy in order; removing the
// smallest ID promotes the next, and removing every copy leaves Len 0
// and a later copy alone.
func TestEveryNameExactFlood(t *testing.T) {
	n := floodSize(300, 3000)
	text := suiteTexts(4, 11)[0]
	everyName(t, func(t *testing.T, name string, opts map[string]string) {
		longForReference(t, name)
		for _, order := range []string{"ascending", "descending"} {
			t.Run(order, func(t *testing.T) {
				d := suiteNew(t, name, with(opts, "MaxResults", strconv.Itoa(floodCap)))
				var live []string
				for k := range n {
					i := k
					if order == "descending" {
						i = n - 1 - k
					}
					ms, err := d.Add(detector.Doc{ID: floodID(i), Text: text})
					require.NoError(t, err)
					require.Equal(t, exactMatches(live, ""), ms, "Add(%s)", floodID(i))
					live = append(live, floodID(i))
					slices.Sort(live)
				}
				require.Equal(t, n, d.Len())
				q, err := d.Query(detector.Doc{Text: text})
				require.NoError(t, err)
				assert.Equal(t, exactMatches(live, ""), q, "Query")
				cp, err := d.Copies(floodID(0))
				require.NoError(t, err)
				assert.Equal(t, live[1:], cp, "Copies lists every other copy, sorted")
				// Removing the smallest ID (a group's first member) promotes
				// the next: nothing is lost.
				require.NoError(t, d.Remove(floodID(0)))
				live = live[1:]
				ms, err := d.Containers(floodID(1))
				require.NoError(t, err)
				assert.Equal(t, exactMatches(live, floodID(1)), ms, "Containers after the first member left")
				cp, err = d.Copies(floodID(n - 1))
				require.NoError(t, err)
				assert.Equal(t, live[:len(live)-1], cp, "Copies after the first member left")
				for _, id := range live {
					require.NoError(t, d.Remove(id))
				}
				assert.Zero(t, d.Len())
				ms, err = d.Add(detector.Doc{ID: "again", Text: text})
				require.NoError(t, err)
				assert.Empty(t, ms, "the removed copies are gone")
				cp, err = d.Copies("again")
				require.NoError(t, err)
				assert.Empty(t, cp)
			})
		}
	})
}

// nearFloodCopy returns text with k of its words replaced by words no
// other text has: a near copy, "a few words changed".
func nearFloodCopy(r *rand.Rand, text string, k, i int) string {
	w := strings.Fields(text)
	for j := range k {
		w[r.IntN(len(w))] = "zv" + strconv.Itoa(i) + "x" + strconv.Itoa(j)
	}
	return strings.Join(w, " ")
}

// wellFormed requires ms to be a capped answer in the detector's order
// (score descending, then ID) with no repeated ID, no self and every score
// in (0, 1].
func wellFormed(t *testing.T, ms []detector.Match, self, what string) {
	t.Helper()
	require.LessOrEqual(t, len(ms), floodCap, "%s: answers capped at MaxResults", what)
	sorted := slices.Clone(ms)
	detector.SortMatches(sorted)
	require.Equal(t, sorted, ms, "%s: answers sorted", what)
	seen := map[string]bool{}
	for _, m := range ms {
		require.False(t, seen[m.ID], "%s: %s twice", what, m.ID)
		seen[m.ID] = true
		require.NotEqual(t, self, m.ID, "%s reports itself", what)
		require.True(t, m.Score > 0 && m.Score <= 1, "%s: score %v of %s", what, m.Score, m.ID)
	}
}

// TestEveryNameNearFlood adds other texts, then a flood of near copies
// of one of them (three words changed each): every Add, Query and
// Containers answer stays capped and sorted, and the flood holds every
// copy.
func TestEveryNameNearFlood(t *testing.T) {
	n := floodSize(200, 2000)
	texts := suiteTexts(40, 12)
	everyName(t, func(t *testing.T, name string, opts map[string]string) {
		longForReference(t, name)
		d := suiteNew(t, name, with(opts, "MaxResults", strconv.Itoa(floodCap)))
		for i, text := range texts {
			ms, err := d.Add(detector.Doc{ID: fmt.Sprint("s", i), Text: text})
			require.NoError(t, err)
			wellFormed(t, ms, "", "Add")
		}
		r := rand.New(rand.NewPCG(3, 4))
		for i := range n {
			text := nearFloodCopy(r, texts[7], 3, i)
			ms, err := d.Add(detector.Doc{ID: floodID(i), Text: text})
			require.NoError(t, err)
			wellFormed(t, ms, "", "Add("+floodID(i)+")")
			if i%25 == 24 {
				ms, err = d.Query(detector.Doc{Text: text})
				require.NoError(t, err)
				wellFormed(t, ms, "", "Query")
				id := floodID(r.IntN(i + 1))
				ms, err = d.Containers(id)
				require.NoError(t, err)
				wellFormed(t, ms, id, "Containers("+id+")")
			}
		}
		assert.Equal(t, len(texts)+n, d.Len())
	})
}

// floodCost adds copies of text to d, from copy from up to copy to, and
// returns the heap allocations and bytes allocated per Add.
func floodCost(t *testing.T, d counted, text string, from, to int) (allocs, bytes float64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := from; i < to; i++ {
		_, err := d.Add(detector.Doc{ID: floodID(i), Text: text})
		require.NoError(t, err)
	}
	runtime.ReadMemStats(&after)
	n := float64(to - from)
	return float64(after.Mallocs-before.Mallocs) / n, float64(after.TotalAlloc-before.TotalAlloc) / n
}

// TestEveryNameFloodCostFlat counts what a further exact copy costs, early
// in a flood and late: the allocations of its Add do not grow with the
// copies, and the snapshot bytes per copy do not grow either and stay a
// fraction of the first copy's (the copies' features are held once). It runs the names one at a time, so that the allocation
// counts are their own ("reference", the quadratic baseline, keeps every
// text and is left out).
func TestEveryNameFloodCostFlat(t *testing.T) {
	if dataset.RaceEnabled {
		t.Skip("allocation counts: the race detector adds its own")
	}
	n := dataset.LongSize(1000, 4000)
	text := suiteTexts(4, 13)[0]
	for _, name := range Names() {
		if name == "reference" {
			continue
		}
		for _, opts := range append([]map[string]string{nil}, variants[name]...) {
			t.Run(strings.TrimSuffix(fmt.Sprint(name, " ", opts), " map[]"), func(t *testing.T) {
				d := suiteNew(t, name, with(opts, "MaxResults", strconv.Itoa(floodCap)))
				empty := len(testkit.Encode(t, d))
				floodCost(t, d, text, 0, 1)
				one := len(testkit.Encode(t, d))
				floodCost(t, d, text, 1, 50)
				early, earlyBytes := floodCost(t, d, text, 50, 150)
				floodCost(t, d, text, 150, n/2)
				half := len(testkit.Encode(t, d))
				floodCost(t, d, text, n/2, n-100)
				late, lateBytes := floodCost(t, d, text, n-100, n)
				full := len(testkit.Encode(t, d))
				first := float64(half-one) / float64(n/2-1)
				second := float64(full-half) / float64(n-n/2)
				t.Logf("per Add: %.1f allocations (%.0f bytes) at copy 50, %.1f (%.0f bytes) at copy %d; snapshot bytes: %d empty, %d for the first copy, %.1f per copy to copy %d, %.1f per copy after",
					early, earlyBytes, late, lateBytes, n-100, empty, one-empty, first, n/2, second)
				assert.LessOrEqual(t, late, early*1.2+3, "the allocations of an Add grow with the flood")
				assert.LessOrEqual(t, lateBytes, earlyBytes*1.5+512, "the bytes an Add allocates grow with the flood")
				assert.LessOrEqual(t, second, first*1.1+2, "the snapshot bytes per copy grow with the flood")
				assert.Less(t, 4*second, float64(one-empty), "a snapshot holds the features of every copy")
			})
		}
	}
}

// configOf returns the MaxResults of d's effective Config, if d has a
// Config method returning a struct with that field.
func configOf(d detector.Detector) (int, bool) {
	m := reflect.ValueOf(d).MethodByName("Config")
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		return 0, false
	}
	c := m.Call(nil)[0]
	if c.Kind() != reflect.Struct {
		return 0, false
	}
	f := c.FieldByName("MaxResults")
	if !f.IsValid() || !f.CanInt() {
		return 0, false
	}
	return int(f.Int()), true
}

// TestEveryNameMaxResults: a negative cap is an invalid Config, refused
// by the registry and by the package's New (which names the field and
// value); zero takes detector.DefaultMaxResults, which a flood of more
// copies than that fills.
func TestEveryNameMaxResults(t *testing.T) {
	text := suiteTexts(4, 14)[0]
	everyName(t, func(t *testing.T, name string, opts map[string]string) {
		e, err := find(name)
		require.NoError(t, err)
		base := with(englishOptions(t, name), "MaxResults", "-1")
		for k, v := range opts {
			base[k] = v
		}
		_, err = New(name, base)
		require.ErrorIs(t, err, detector.ErrInvalidConfig)
		assert.Contains(t, err.Error(), "MaxResults")
		_, err = e.build(base, true)
		require.ErrorIs(t, err, detector.ErrInvalidConfig)
		assert.Contains(t, err.Error(), "MaxResults (-1)")

		d := suiteNew(t, name, with(opts, "MaxResults", "0"))
		if got, ok := configOf(d); ok {
			assert.Equal(t, detector.DefaultMaxResults, got, "Config reports the effective cap")
		}
		var ms []detector.Match
		for i := range detector.DefaultMaxResults + 5 {
			ms, err = d.Add(detector.Doc{ID: floodID(i), Text: text})
			require.NoError(t, err)
		}
		assert.Len(t, ms, detector.DefaultMaxResults)
	})
}
