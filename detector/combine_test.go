package detector_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// analyzers holds analyzers for the test's goroutines (an Analyzer is not
// safe for concurrent use).
var analyzers = sync.Pool{New: func() any {
	an, err := textproc.NewAnalyzer(textproc.Config{})
	if err != nil {
		panic(err)
	}
	return an
}}

func shingles(text string) map[uint64]struct{} {
	an := analyzers.Get().(*textproc.Analyzer)
	defer analyzers.Put(an)
	return naive.Shingles(an, text, 4)
}

// exact4 is an exact containment check over word 4-shingles at 0.6.
func exact4(container, contained string) (float64, bool) {
	a := shingles(contained)
	c := shingles(container)
	if len(a) == 0 {
		return 0, false
	}
	n := 0
	for h := range a {
		if _, ok := c[h]; ok {
			n++
		}
	}
	s := float64(n) / float64(len(a))
	return s, s >= 0.6
}

// noRemove hides the Remove method of the detector it wraps.
type noRemove struct{ detector.Detector }

// slow analyses the text before its lock, as the published detectors do, so
// that concurrent Adds reach its lock in any order.
type slow struct{ *naive.Detector }

func (s slow) Add(d detector.Doc) ([]detector.Match, error) {
	shingles(d.Text)
	return s.Detector.Add(d)
}

func cascade(t testing.TB, propose detector.Detector) detector.Detector {
	t.Helper()
	c, err := detector.Cascade(propose, detector.Identity, exact4)
	require.NoError(t, err)
	return c
}

func vote(t testing.TB, k int, ds ...detector.Detector) detector.Detector {
	t.Helper()
	v, err := detector.Vote(k, ds...)
	require.NoError(t, err)
	return v
}

func TestCascadeConformance(t *testing.T) {
	for _, tc := range []struct {
		name    string
		propose func() detector.Detector
	}{
		// A permissive proposer (containment ≥ 0.2) confirmed by the exact check.
		{"Naive", func() detector.Detector { return naive.New(naive.Config{Threshold: 0.2}) }},
		// A proposer that analyses outside its lock: same-ID Adds race in it.
		{"Slow", func() detector.Detector { return slow{naive.New(naive.Config{Threshold: 0.2})} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "Naive" {
				// Slow is the same proposer, analysing outside its lock.
				dataset.SkipLong(t)
			}
			detectortest.Run(t, func() detector.Detector { return cascade(t, tc.propose()) }, detectortest.Options{})
		})
	}
	t.Run("NoRemove", func(t *testing.T) {
		detectortest.Run(t, func() detector.Detector {
			return cascade(t, noRemove{naive.New(naive.Config{Threshold: 0.2})})
		}, detectortest.Options{NoRemove: true})
	})
}

func TestVoteConformance(t *testing.T) {
	detectortest.Run(t, func() detector.Detector {
		return vote(t, 2,
			naive.New(naive.Config{}),
			slow{naive.New(naive.Config{Shingle: 3})},
			naive.New(naive.Config{Shingle: 5, Threshold: 0.5}))
	}, detectortest.Options{})
	t.Run("NoRemove", func(t *testing.T) {
		detectortest.Run(t, func() detector.Detector {
			return vote(t, 1, naive.New(naive.Config{}), noRemove{naive.New(naive.Config{Shingle: 3})})
		}, detectortest.Options{NoRemove: true})
	})
}

func TestCascadeFilters(t *testing.T) {
	c := cascade(t, naive.New(naive.Config{Threshold: 0.01}))
	defer c.Close()
	_, err := c.Add(detector.Doc{ID: "a", Text: "one two three four five six seven eight nine ten"})
	require.NoError(t, err)
	ms, err := c.Add(detector.Doc{ID: "b", Text: "one two three four alpha beta gamma delta epsilon zeta"})
	require.NoError(t, err)
	assert.Empty(t, ms, "the proposer's weak candidate is rejected by the verifier")
	ms, err = c.Add(detector.Doc{ID: "c", Text: "one two three four five six seven eight nine ten"})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}}, ms)
}

// When several goroutines Add the same new ID at once, exactly one
// succeeds and the winner stays fully indexed: an exact copy of its text
// finds it. A losing Add used to delete the features the winner needed.
func TestCascadeSameIDStress(t *testing.T) {
	const trials, workers = 1000, 4
	lost, wins := 0, 0
	for trial := range trials {
		c := cascade(t, slow{naive.New(naive.Config{})})
		texts := make([]string, workers)
		ok := make([]bool, workers)
		errs := make([]error, workers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for g := range workers {
			texts[g] = strings.Repeat(fmt.Sprintf("alpha beta gamma delta epsilon zeta eta theta %d %d ", trial, g), 5+5*g)
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[g] = c.Add(detector.Doc{ID: "x", Text: texts[g]})
				ok[g] = errs[g] == nil
			}()
		}
		close(start)
		wg.Wait()
		winner := -1
		for g := range workers {
			if ok[g] {
				wins++
				winner = g
			} else {
				assert.ErrorIs(t, errs[g], detector.ErrDuplicateID, "trial %d: a losing Add", trial)
			}
		}
		if winner >= 0 {
			ms, err := c.Add(detector.Doc{ID: "copy", Text: texts[winner]})
			require.NoError(t, err)
			if len(ms) != 1 || ms[0].ID != "x" {
				lost++
			}
		}
		require.NoError(t, c.Close())
	}
	assert.Equal(t, trials, wins, "exactly one Add per trial succeeds")
	assert.Zero(t, lost, "trials in which an exact copy of the winner did not find it")
}

// countingFeatures counts the texts it analyses.
type countingFeatures struct{ n atomic.Int64 }

func (c *countingFeatures) features(text string) string { c.n.Add(1); return text }

// Add rejects a document it cannot take before it computes any features.
func TestCascadeChecksBeforeWork(t *testing.T) {
	var cf countingFeatures
	c, err := detector.Cascade(naive.New(naive.Config{}), cf.features, exact4)
	require.NoError(t, err)
	_, err = c.Add(detector.Doc{ID: "big", Text: strings.Repeat("a", detector.DefaultMaxTextBytes+1)})
	assert.ErrorIs(t, err, detector.ErrTooLarge)
	_, err = c.Add(detector.Doc{ID: "", Text: "one two"})
	assert.ErrorIs(t, err, detector.ErrEmptyID)
	_, err = c.Add(detector.Doc{ID: "a", Text: "one two three four"})
	require.NoError(t, err)
	_, err = c.Add(detector.Doc{ID: "a", Text: "five six seven eight"})
	assert.ErrorIs(t, err, detector.ErrDuplicateID)
	require.NoError(t, c.Close())
	_, err = c.Add(detector.Doc{ID: "b", Text: "one two three four"})
	assert.ErrorIs(t, err, detector.ErrClosed)
	assert.Equal(t, int64(1), cf.n.Load(), "texts analysed: only the one accepted document")
}

// A verify that returns NaN or an infinite score does not confirm.
func TestCascadeNonFiniteScores(t *testing.T) {
	for _, s := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		c, err := detector.Cascade(naive.New(naive.Config{}), detector.Identity,
			func(container, contained string) (float64, bool) { return s, true })
		require.NoError(t, err)
		_, err = c.Add(detector.Doc{ID: "a", Text: "one two three four five"})
		require.NoError(t, err)
		ms, err := c.Add(detector.Doc{ID: "b", Text: "one two three four five"})
		require.NoError(t, err)
		assert.Empty(t, ms, "verify score %v", s)
		ms, err = c.Containers("a")
		require.NoError(t, err)
		assert.Empty(t, ms, "verify score %v", s)
	}
}

// nanScores reports every match of the detector it wraps with a NaN score.
type nanScores struct{ *naive.Detector }

func (n nanScores) Add(d detector.Doc) ([]detector.Match, error) {
	ms, err := n.Detector.Add(d)
	for i := range ms {
		ms[i].Score = math.NaN()
	}
	return ms, err
}

func TestVoteIgnoresNonFiniteScores(t *testing.T) {
	v := vote(t, 1, naive.New(naive.Config{}), nanScores{naive.New(naive.Config{})})
	_, err := v.Add(detector.Doc{ID: "a", Text: "one two three four five"})
	require.NoError(t, err)
	ms, err := v.Add(detector.Doc{ID: "b", Text: "one two three four five"})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}}, ms, "the NaN vote is not counted, the other is")
}

func TestVoteUnionIntersection(t *testing.T) {
	strict := func() detector.Detector { return naive.New(naive.Config{Threshold: 0.99}) }
	loose := func() detector.Detector { return naive.New(naive.Config{Threshold: 0.3}) }
	texts := []string{"a b c d e f g h i j", "a b c d e f x y z w"}
	for _, tc := range []struct {
		k    int
		want int
	}{{1, 1}, {2, 0}} {
		v := vote(t, tc.k, strict(), loose())
		_, err := v.Add(detector.Doc{ID: "x", Text: texts[0]})
		require.NoError(t, err)
		ms, err := v.Add(detector.Doc{ID: "y", Text: texts[1]})
		require.NoError(t, err)
		assert.Len(t, ms, tc.want, "Vote(%d)", tc.k)
		require.NoError(t, v.Close())
	}
}

func TestConstructorErrors(t *testing.T) {
	a := naive.New(naive.Config{})
	var typedNil *naive.Detector
	inner := cascade(t, a)
	for _, tc := range []struct {
		name, prefix string
		build        func() (detector.Detector, error)
	}{
		{"VoteNilMember", "detector: Vote: ", func() (detector.Detector, error) { return detector.Vote(1, nil) }},
		{"VoteTypedNil", "detector: Vote: ", func() (detector.Detector, error) { return detector.Vote(1, a, typedNil) }},
		{"VoteNoMembers", "detector: Vote: ", func() (detector.Detector, error) { return detector.Vote(1) }},
		{"VoteKZero", "detector: Vote: ", func() (detector.Detector, error) { return detector.Vote(0, a) }},
		{"VoteKOver", "detector: Vote: ", func() (detector.Detector, error) { return detector.Vote(2, a) }},
		{"VoteSameTwice", "detector: Vote: ", func() (detector.Detector, error) { return detector.Vote(1, a, a) }},
		{"VoteSameInside", "detector: Vote: ", func() (detector.Detector, error) { return detector.Vote(1, inner, a) }},
		{"CascadeNilPropose", "detector: Cascade: ", func() (detector.Detector, error) {
			return detector.Cascade[string](nil, detector.Identity, exact4)
		}},
		{"CascadeTypedNil", "detector: Cascade: ", func() (detector.Detector, error) {
			return detector.Cascade(typedNil, detector.Identity, exact4)
		}},
		{"CascadeNilFuncs", "detector: Cascade: ", func() (detector.Detector, error) {
			return detector.Cascade[string](a, nil, nil)
		}},
		{"CascadeNilVerify", "detector: Cascade: ", func() (detector.Detector, error) {
			return detector.Cascade(a, detector.Identity, nil)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := tc.build()
			assert.Nil(t, d)
			require.ErrorIs(t, err, detector.ErrInvalidConfig)
			assert.True(t, strings.HasPrefix(err.Error(), tc.prefix), "error %q names the combinator", err)
		})
	}
	// Distinct detectors of a type that cannot be compared are accepted.
	v, err := detector.Vote(1, mapDetector{}, mapDetector{})
	require.NoError(t, err)
	require.NoError(t, v.Close())
}

// mapDetector is a detector of a type that cannot be compared with ==.
type mapDetector map[string]bool

func (mapDetector) Add(detector.Doc) ([]detector.Match, error)  { return nil, nil }
func (mapDetector) Containers(string) ([]detector.Match, error) { return nil, nil }
func (mapDetector) Close() error                                { return nil }

// Errors from a combinator name it, then the member's own context.
func TestErrorsNameCombinator(t *testing.T) {
	c := cascade(t, naive.New(naive.Config{}))
	v := vote(t, 1, naive.New(naive.Config{}), naive.New(naive.Config{}))
	for name, d := range map[string]detector.Detector{"Cascade": c, "Vote": v} {
		_, err := d.Add(detector.Doc{ID: "big", Text: strings.Repeat("a", detector.DefaultMaxTextBytes+1)})
		require.ErrorIs(t, err, detector.ErrTooLarge)
		assert.True(t, strings.HasPrefix(err.Error(), "detector: "+name+": "), "%s: %q", name, err)
		assert.Contains(t, err.Error(), "naive: ", "%s keeps the member's context", name)
		_, err = d.Containers("nope")
		require.ErrorIs(t, err, detector.ErrUnknownID)
		assert.True(t, strings.HasPrefix(err.Error(), "detector: "+name+": "), "%s: %q", name, err)
		require.NoError(t, d.Close())
		_, err = d.Add(detector.Doc{ID: "a", Text: "x"})
		require.ErrorIs(t, err, detector.ErrClosed)
		assert.True(t, strings.HasPrefix(err.Error(), "detector: "+name+": "), "%s: %q", name, err)
	}
}

// Combinators implement Remover exactly when everything they wrap does.
func TestRemoverExactly(t *testing.T) {
	rem := func() detector.Detector { return naive.New(naive.Config{}) }
	fixed := func() detector.Detector { return noRemove{naive.New(naive.Config{})} }
	for _, tc := range []struct {
		name string
		d    detector.Detector
		want bool
	}{
		{"Cascade(Remover)", cascade(t, rem()), true},
		{"Cascade(fixed)", cascade(t, fixed()), false},
		{"Vote(Remover, Remover)", vote(t, 1, rem(), rem()), true},
		{"Vote(Remover, fixed)", vote(t, 1, rem(), fixed()), false},
		{"Vote(Cascade(Remover), Remover)", vote(t, 1, cascade(t, rem()), rem()), true},
		{"Vote(Cascade(fixed), Remover)", vote(t, 1, cascade(t, fixed()), rem()), false},
		{"Cascade(Vote(Remover, Remover))", cascade(t, vote(t, 2, rem(), rem())), true},
	} {
		_, ok := tc.d.(detector.Remover)
		assert.Equal(t, tc.want, ok, "%s implements Remover", tc.name)
		require.NoError(t, tc.d.Close())
	}
}

// picky rejects documents whose ID starts with "bad".
type picky struct{ *naive.Detector }

func (p picky) Add(d detector.Doc) ([]detector.Match, error) {
	if strings.HasPrefix(d.ID, "bad") {
		return nil, fmt.Errorf("picky: Add(%q): %w", d.ID, detector.ErrTooLarge)
	}
	return p.Detector.Add(d)
}

// A member's rejection is undone in the members that accepted the
// document. A single member that cannot remove is given the document last,
// so it never holds a rejected one.
func TestVoteUndo(t *testing.T) {
	text := "one two three four five six"
	t.Run("OneFixed", func(t *testing.T) {
		first, fixed := naive.New(naive.Config{}), naive.New(naive.Config{})
		v := vote(t, 1, noRemove{fixed}, first, picky{naive.New(naive.Config{})})
		_, err := v.Add(detector.Doc{ID: "bad", Text: text})
		require.ErrorIs(t, err, detector.ErrTooLarge)
		assert.NotErrorIs(t, err, errors.ErrUnsupported)
		for _, d := range []*naive.Detector{first, fixed} {
			_, err = d.Containers("bad")
			assert.ErrorIs(t, err, detector.ErrUnknownID, "a member kept the rejected document")
		}
	})
	t.Run("TwoFixed", func(t *testing.T) {
		a, b := naive.New(naive.Config{}), naive.New(naive.Config{})
		v := vote(t, 1, noRemove{a}, noRemove{b}, noRemove{picky{naive.New(naive.Config{})}})
		_, err := v.Add(detector.Doc{ID: "bad", Text: text})
		require.ErrorIs(t, err, detector.ErrTooLarge)
		assert.ErrorIs(t, err, errors.ErrUnsupported, "a member that cannot remove keeps the document")
		// The stranded document is reported by nobody.
		ms, err := v.Add(detector.Doc{ID: "good", Text: text})
		require.NoError(t, err)
		assert.Empty(t, ms)
		_, err = v.Containers("bad")
		assert.ErrorIs(t, err, detector.ErrUnknownID)
	})
}

// Same-ID Adds on a Vote: exactly one succeeds, the winner is found.
func TestVoteSameIDStress(t *testing.T) {
	const trials, workers = 300, 4
	for trial := range trials {
		v := vote(t, 2, slow{naive.New(naive.Config{})}, slow{naive.New(naive.Config{Shingle: 3})})
		texts := make([]string, workers)
		errs := make([]error, workers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for g := range workers {
			texts[g] = strings.Repeat(fmt.Sprintf("alpha beta gamma delta epsilon %d %d ", trial, g), 3+3*g)
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[g] = v.Add(detector.Doc{ID: "x", Text: texts[g]})
			}()
		}
		close(start)
		wg.Wait()
		winner := -1
		for g, err := range errs {
			if err == nil {
				require.Equal(t, -1, winner, "trial %d: two Adds of x succeeded", trial)
				winner = g
			} else {
				require.ErrorIs(t, err, detector.ErrDuplicateID)
			}
		}
		require.GreaterOrEqual(t, winner, 0, "trial %d: no Add succeeded", trial)
		ms, err := v.Add(detector.Doc{ID: "copy", Text: texts[winner]})
		require.NoError(t, err)
		require.Equal(t, []detector.Match{{ID: "x", Score: 1}}, ms, "trial %d", trial)
		require.NoError(t, v.Close())
	}
}

// voteConfig holds Vote's one numeric option for the config sweep.
type voteConfig struct{ K int }

func TestConfigSweep(t *testing.T) {
	c := testkit.Sweep(t, voteConfig{K: 2}, func(cfg voteConfig) (detector.Detector, error) {
		return detector.Vote(cfg.K, naive.New(naive.Config{}), naive.New(naive.Config{Shingle: 3}), naive.New(naive.Config{Shingle: 5}))
	})
	t.Logf("Vote: %d cases, %d rejected, %d accepted", c.Cases, c.Rejected, c.Accepted)
	assert.Equal(t, 6, c.Cases)
	assert.Equal(t, 1, c.Accepted, "only K=1 of the swept values is in 1..3")
}

func TestMatchJSON(t *testing.T) {
	b, err := json.Marshal([]detector.Match{{ID: "a", Score: 0.5}})
	require.NoError(t, err)
	assert.JSONEq(t, `[{"id":"a","score":0.5}]`, string(b))
	var ms []detector.Match
	require.NoError(t, json.Unmarshal(b, &ms))
	assert.Equal(t, []detector.Match{{ID: "a", Score: 0.5}}, ms)
}

// Identity copies the text, so that a Cascade over texts holds no slice
// of a caller's larger buffer.
func TestIdentityCopies(t *testing.T) {
	buf := strings.Repeat("word ", 1000)
	text := buf[:100]
	got := detector.Identity(text)
	assert.Equal(t, text, got)
	assert.NotSame(t, unsafe.StringData(text), unsafe.StringData(got))
}
