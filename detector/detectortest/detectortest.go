// Package detectortest is the conformance suite every neardup detector runs,
// in the manner of testing/fstest: one call checks the contract of package
// detector against a fresh detector per check.
//
// A user who writes a detector of their own can run it too:
//
//	func TestConformance(t *testing.T) {
//		detectortest.Run(t, func() detector.Detector {
//			d, err := mypkg.New(mypkg.Config{})
//			if err != nil {
//				panic(err)
//			}
//			return d
//		}, detectortest.Options{Symmetric: true})
//	}
package detectortest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// Options describe the detector under test.
type Options struct {
	// Symmetric says the detector reports near-duplicates (a relation that
	// holds both ways). When false the detector must report containment
	// asymmetrically: a long article that contains a short one is reported
	// as its container, and not the reverse.
	Symmetric bool
	// NoRemove skips the Remove checks for a detector that does not
	// implement detector.Remover. Every neardup detector implements it.
	NoRemove bool
	// MaxTextBytes is the detector's size limit, if not
	// detector.DefaultMaxTextBytes; a negative value skips the check that a
	// larger text is rejected.
	MaxTextBytes int
}

// Run runs every check of the suite as a subtest of t, each on a new
// detector from newDetector.
func Run(t *testing.T, newDetector func() detector.Detector, opts Options) {
	s := suite{newDetector: newDetector, opts: opts}
	t.Run("ExactDuplicate", s.exactDuplicate)
	t.Run("Unrelated", s.unrelated)
	t.Run("NeverSelf", s.neverSelf)
	if opts.Symmetric {
		t.Run("Symmetric", s.symmetric)
	} else {
		t.Run("Asymmetric", s.asymmetric)
	}
	t.Run("LaterContainers", s.laterContainers)
	t.Run("Deterministic", s.deterministic)
	t.Run("Errors", s.errors)
	t.Run("Close", s.close)
	t.Run("EdgeInputs", s.edgeInputs)
	t.Run("Remove", s.remove)
	t.Run("Concurrent", s.concurrent)
}

type suite struct {
	newDetector func() detector.Detector
	opts        Options
}

func (s suite) fresh(t *testing.T) detector.Detector {
	t.Helper()
	d := s.newDetector()
	require.NotNil(t, d, "newDetector returned nil")
	t.Cleanup(func() { _ = d.Close() })
	return d
}

func add(t *testing.T, d detector.Detector, id, text string) []detector.Match {
	t.Helper()
	ms, err := d.Add(detector.Doc{ID: id, Text: text})
	require.NoError(t, err, "Add(%q)", id)
	checkOrder(t, "Add("+id+")", ms)
	return ms
}

func containers(t *testing.T, d detector.Detector, id string) []detector.Match {
	t.Helper()
	ms, err := d.Containers(id)
	require.NoError(t, err, "Containers(%q)", id)
	checkOrder(t, "Containers("+id+")", ms)
	return ms
}

// checkOrder asserts ms is ordered by detector.SortMatches and has no
// repeated ID.
func checkOrder(t *testing.T, call string, ms []detector.Match) {
	t.Helper()
	sorted := slices.Clone(ms)
	detector.SortMatches(sorted)
	assert.Equal(t, sorted, ms, "%s is not ordered by descending score, then ID", call)
	seen := map[string]bool{}
	for _, m := range ms {
		assert.False(t, seen[m.ID], "%s reports %q twice", call, m.ID)
		seen[m.ID] = true
	}
}

func ids(ms []detector.Match) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.ID)
	}
	slices.Sort(out)
	return out
}

func has(ms []detector.Match, id string) bool {
	return slices.ContainsFunc(ms, func(m detector.Match) bool { return m.ID == id })
}

func (s suite) exactDuplicate(t *testing.T) {
	for k, text := range articles {
		d := s.fresh(t)
		a, b := fmt.Sprintf("a%d", k), fmt.Sprintf("b%d", k)
		assert.Empty(t, add(t, d, a, text), "Add(%q) into an empty detector", a)
		got := add(t, d, b, text)
		assert.Equal(t, []string{a}, ids(got), "Add(%q), an exact duplicate of %q", b, a)
		for _, m := range got {
			assert.Greater(t, m.Score, 0.0, "Add(%q) score", b)
		}
		assert.Equal(t, []string{b}, ids(containers(t, d, a)), "Containers(%q)", a)
		assert.Equal(t, []string{a}, ids(containers(t, d, b)), "Containers(%q)", b)
	}
}

func (s suite) unrelated(t *testing.T) {
	d := s.fresh(t)
	for k, text := range articles {
		id := fmt.Sprintf("u%d", k)
		assert.Empty(t, add(t, d, id, text), "Add(%q) of an unrelated article", id)
	}
	assert.Empty(t, add(t, d, "ext", extension), "Add of unrelated text")
	for k := range articles {
		id := fmt.Sprintf("u%d", k)
		assert.Empty(t, containers(t, d, id), "Containers(%q) among unrelated articles", id)
	}
}

func (s suite) neverSelf(t *testing.T) {
	d := s.fresh(t)
	long := articles[0] + "\n\n" + extension
	for i, text := range []string{articles[0], articles[0], long, articles[1], strings.Repeat(articles[1]+"\n\n", 3)} {
		id := fmt.Sprintf("s%d", i)
		assert.False(t, has(add(t, d, id, text), id), "Add(%q) reports the document itself", id)
	}
	for i := range 5 {
		id := fmt.Sprintf("s%d", i)
		assert.False(t, has(containers(t, d, id), id), "Containers(%q) reports the document itself", id)
	}
}

// containment builds the long article: the storm report with new material
// before and after it.
func containment() (short, long string) {
	half := len(extension) / 2
	cut := strings.IndexByte(extension[half:], '\n') + half
	return articles[0], extension[:cut] + "\n\n" + articles[0] + "\n\n" + extension[cut+1:]
}

func (s suite) asymmetric(t *testing.T) {
	short, long := containment()
	t.Run("ShortFirst", func(t *testing.T) {
		d := s.fresh(t)
		add(t, d, "short", short)
		got := add(t, d, "long", long)
		assert.False(t, has(got, "short"), "Add(long) = %v: the short article does not contain the long one", got)
		assert.Equal(t, []string{"long"}, ids(containers(t, d, "short")), "Containers(short): long ⊇ short")
		assert.Empty(t, containers(t, d, "long"), "Containers(long)")
	})
	t.Run("LongFirst", func(t *testing.T) {
		d := s.fresh(t)
		add(t, d, "long", long)
		got := add(t, d, "short", short)
		assert.Equal(t, []string{"long"}, ids(got), "Add(short): long ⊇ short")
		assert.Empty(t, containers(t, d, "long"), "Containers(long)")
	})
}

// symmetric checks that every reported relation holds both ways.
func (s suite) symmetric(t *testing.T) {
	d := s.fresh(t)
	_, long := containment()
	docs := []string{articles[0], long, articles[1], articles[0], articles[2], articles[1]}
	for i, text := range docs {
		add(t, d, fmt.Sprintf("y%d", i), text)
	}
	for i := range docs {
		a := fmt.Sprintf("y%d", i)
		for _, m := range containers(t, d, a) {
			back := containers(t, d, m.ID)
			assert.True(t, has(back, a), "Containers(%q) has %q but Containers(%q) = %v lacks %q", a, m.ID, m.ID, back, a)
		}
	}
}

func (s suite) laterContainers(t *testing.T) {
	d := s.fresh(t)
	add(t, d, "first", articles[2])
	add(t, d, "other", articles[3])
	add(t, d, "second", articles[2])
	assert.Equal(t, []string{"second"}, ids(containers(t, d, "first")), "Containers(first) after a later duplicate")
	if !s.opts.Symmetric {
		short, long := containment()
		add(t, d, "short", short)
		add(t, d, "long", long)
		assert.Equal(t, []string{"long"}, ids(containers(t, d, "short")), "Containers(short) after a later container")
	}
}

// script is a fixed sequence of documents mixing duplicates, containment and
// unrelated texts.
func script() []detector.Doc {
	short, long := containment()
	texts := []string{articles[0], articles[1], long, articles[2], articles[1], short, articles[3], articles[4], articles[4], articles[5], long, articles[2]}
	docs := make([]detector.Doc, len(texts))
	for i, text := range texts {
		docs[i] = detector.Doc{ID: fmt.Sprintf("doc%02d", i), Text: text}
	}
	return docs
}

func (s suite) deterministic(t *testing.T) {
	run := func() [][]detector.Match {
		d := s.fresh(t)
		var out [][]detector.Match
		for _, doc := range script() {
			out = append(out, add(t, d, doc.ID, doc.Text))
		}
		for _, doc := range script() {
			out = append(out, containers(t, d, doc.ID))
		}
		return out
	}
	first, second := run(), run()
	assert.Equal(t, first, second, "two runs over the same documents differ")
}

func (s suite) errors(t *testing.T) {
	d := s.fresh(t)
	_, err := d.Add(detector.Doc{ID: "", Text: articles[0]})
	assert.ErrorIs(t, err, detector.ErrEmptyID, "Add with an empty ID")
	add(t, d, "x", articles[0])
	_, err = d.Add(detector.Doc{ID: "x", Text: articles[1]})
	assert.ErrorIs(t, err, detector.ErrDuplicateID, "Add with a live ID")
	// The rejected document must not have been indexed.
	assert.Empty(t, add(t, d, "y", articles[1]), "a rejected Add indexed its text")
	_, err = d.Containers("nope")
	assert.ErrorIs(t, err, detector.ErrUnknownID, "Containers of an unknown ID")
	if r, ok := d.(detector.Remover); ok && !s.opts.NoRemove {
		assert.ErrorIs(t, r.Remove("nope"), detector.ErrUnknownID, "Remove of an unknown ID")
	}
	if s.opts.MaxTextBytes >= 0 {
		limit := s.opts.MaxTextBytes
		if limit == 0 {
			limit = detector.DefaultMaxTextBytes
		}
		_, err = d.Add(detector.Doc{ID: "huge", Text: strings.Repeat("a", limit+1)})
		assert.ErrorIs(t, err, detector.ErrTooLarge, "Add of %d bytes", limit+1)
		_, err = d.Containers("huge")
		assert.ErrorIs(t, err, detector.ErrUnknownID, "a document rejected as too large was registered")
	}
}

func (s suite) close(t *testing.T) {
	d := s.fresh(t)
	add(t, d, "x", articles[0])
	require.NoError(t, d.Close(), "Close")
	assert.NoError(t, d.Close(), "a second Close")
	_, err := d.Add(detector.Doc{ID: "y", Text: articles[1]})
	assert.ErrorIs(t, err, detector.ErrClosed, "Add after Close")
	_, err = d.Containers("x")
	assert.ErrorIs(t, err, detector.ErrClosed, "Containers after Close")
	if r, ok := d.(detector.Remover); ok && !s.opts.NoRemove {
		assert.ErrorIs(t, r.Remove("x"), detector.ErrClosed, "Remove after Close")
	}
}

// noise returns about n bytes of text from the invented vocabulary.
func noise(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.Grow(n + 64)
	for b.Len() < n {
		words := 6 + r.IntN(14)
		for i := range words {
			if i > 0 {
				b.WriteByte(' ')
			}
			w := noiseWords[r.IntN(len(noiseWords))]
			if i == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
		}
		b.WriteString(". ")
		if r.IntN(8) == 0 {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

func (s suite) edgeInputs(t *testing.T) {
	d := s.fresh(t)
	invalid := strings.ReplaceAll(articles[1], " the ", " \xff\xfe ")
	edge := []struct{ id, text string }{
		{"empty", ""},
		{"empty2", ""},
		{"space", " \t\n\r\n  \u00a0 "},
		{"space2", "\n\n\n"},
		{"punct", "... ,,, !!! ??? --- ***"},
		{"bytes", "\xff\xfe\xfd\x00\x01\xc3"},
		{"invalid", invalid},
		{"repeated", strings.Repeat("buffalo ", 10000)},
		{"repeated2", strings.Repeat("buffalo ", 10000)},
		{"huge", noise(5<<20, 7)},
		{"oneword", "Ankara"},
	}
	for _, e := range edge {
		ms, err := d.Add(detector.Doc{ID: e.id, Text: e.text})
		require.NoError(t, err, "Add(%q)", e.id)
		checkOrder(t, "Add("+e.id+")", ms)
	}
	// Documents without indexable terms match nothing.
	for _, id := range []string{"empty", "empty2", "space", "space2", "punct"} {
		assert.Empty(t, containers(t, d, id), "Containers(%q) of a document with no terms", id)
	}
	// A real article is not related to any of them.
	got := add(t, d, "article", articles[2])
	assert.Empty(t, got, "Add(article) after the edge inputs")
	got = add(t, d, "article2", articles[1])
	assert.False(t, has(got, "huge"), "the 5 MB noise document is reported as related to an article")
	for _, e := range edge {
		containers(t, d, e.id) // must not fail
	}
}

func (s suite) remove(t *testing.T) {
	if s.opts.NoRemove {
		t.Skip("Options.NoRemove")
	}
	d := s.fresh(t)
	r, ok := d.(detector.Remover)
	require.True(t, ok, "%T does not implement detector.Remover", d)
	add(t, d, "a", articles[3])
	add(t, d, "b", articles[3])
	add(t, d, "c", articles[3])
	require.NoError(t, r.Remove("b"), "Remove(b)")
	assert.Equal(t, []string{"c"}, ids(containers(t, d, "a")), "Containers(a) after Remove(b)")
	assert.Equal(t, []string{"a"}, ids(containers(t, d, "c")), "Containers(c) after Remove(b)")
	_, err := d.Containers("b")
	assert.ErrorIs(t, err, detector.ErrUnknownID, "Containers of a removed ID")
	assert.ErrorIs(t, r.Remove("b"), detector.ErrUnknownID, "a second Remove(b)")
	// The removed document is forgotten in both directions; its ID is free.
	assert.Equal(t, []string{"a", "c"}, ids(add(t, d, "b", articles[3])), "Add(b) again")
	require.NoError(t, r.Remove("a"))
	require.NoError(t, r.Remove("b"))
	require.NoError(t, r.Remove("c"))
	assert.Empty(t, add(t, d, "d", articles[3]), "Add(d) after every copy was removed")
	if !s.opts.Symmetric {
		short, long := containment()
		add(t, d, "short", short)
		add(t, d, "long", long)
		require.NoError(t, r.Remove("long"))
		assert.Empty(t, containers(t, d, "short"), "Containers(short) after Remove(long)")
		assert.Equal(t, []string{"short"}, ids(add(t, d, "short2", short)), "Add(short2) after Remove(long)")
	}
}

// concurrent adds copies of every article from 8 goroutines while they read
// Containers, then checks that each copy's containers are exactly the other
// copies of the same article.
func (s suite) concurrent(t *testing.T) {
	d := s.fresh(t)
	const workers = 8
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k, text := range articles {
				id := fmt.Sprintf("g%d-a%d", g, k)
				if _, err := d.Add(detector.Doc{ID: id, Text: text}); err != nil {
					errs <- fmt.Errorf("Add(%q): %w", id, err)
					return
				}
				if _, err := d.Containers(id); err != nil {
					errs <- fmt.Errorf("Containers(%q): %w", id, err)
					return
				}
				if k > 0 {
					if _, err := d.Containers(fmt.Sprintf("g%d-a%d", g, k-1)); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
	for g := range workers {
		for k := range articles {
			id := fmt.Sprintf("g%d-a%d", g, k)
			var want []string
			for h := range workers {
				if h != g {
					want = append(want, fmt.Sprintf("g%d-a%d", h, k))
				}
			}
			got, err := d.Containers(id)
			if assert.NoError(t, err) {
				assert.Equal(t, want, ids(got), "Containers(%q) after concurrent adds", id)
			}
		}
	}
}
