package neardup

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// The shared suite: the Query, copy and snapshot families every detector
// shares, run once here for every registry name. Each detector package
// keeps the tests of its own algorithm (its statistics, its tables, its
// variants); detectortest holds the public contract.

// stateful lists the names whose analysis of a text depends on what they
// hold at their defaults (online document frequencies): a stored
// document's Containers may then differ from a Query of its text, and the
// answers of two detectors fed the same documents in another order may
// differ. The other names are checked for both.
var stateful = map[string]bool{"imatch": true, "simhash": true, "simhash-spots": true, "minhash-weighted": true, "spotsigs": true}

// suiteTexts returns n texts of the synthetic stream (near-duplicates of
// graded similarity) made to read enough like English for every detector
// to find its features in them: an English function word after every
// third word (spot signatures and stopword filters) and some words
// capitalised, always the same ones (named entities), and three edge
// texts: none, punctuation only, and an upper-cased copy.
func suiteTexts(n int, seed uint64) []string {
	stop := []string{"the", "of", "and", "to", "in", "that", "is", "for"}
	var out []string
	for _, d := range dataset.SynthDocs(n, dataset.SynthConfig{Seed: seed, Vocabulary: 3000}) {
		words := strings.Fields(d.Text)
		var b strings.Builder
		for i, w := range words {
			if i > 0 {
				b.WriteByte(' ')
			}
			if len(w) > 3 && (w[0]+w[1])%5 == 0 {
				r := []rune(w)
				r[0] = unicode.ToUpper(r[0])
				w = string(r)
			}
			b.WriteString(w)
			if i%3 == 2 {
				b.WriteString(" " + stop[(i/3)%len(stop)])
			}
		}
		out = append(out, b.String())
	}
	return append(out, "", "...", strings.ToUpper(out[3]))
}

// counted is an Index that counts what it holds, as every registry
// name's detector does.
type counted interface {
	Index
	Len() int
}

// suiteNew returns a new detector of name read in English, with the
// given options besides.
func suiteNew(t testing.TB, name string, opts map[string]string) counted {
	t.Helper()
	all := englishOptions(t, name)
	if all == nil {
		all = map[string]string{}
	}
	for k, v := range opts {
		all[k] = v
	}
	ix, err := NewIndex(name, all)
	require.NoError(t, err)
	t.Cleanup(func() { ix.Close() })
	c, ok := ix.(counted)
	require.True(t, ok, "%s has no Len", name)
	return c
}

// variants are settings of a name that change how it stores and looks
// up documents, run beside its defaults by every family of the suite.
var variants = map[string][]map[string]string{
	"tweezer":  {{"Mode": "Jaccard"}},
	"mrcosine": {{"Exhaustive": "true"}},
	"dsc":      {{"Sampling": "min"}, {"Sampling": "stride"}, {"SuperShingle": "2"}},
}

// longForReference skips t for "reference", the quadratic baseline of the
// tests, unless NEARDUP_LONG is set: the families whose streams cost it
// most (about a fifth of the package's test time) check it in the long
// run, while every package's differential tests compare with it in the
// default run.
func longForReference(t *testing.T, name string) {
	t.Helper()
	if name == "reference" {
		dataset.SkipLong(t)
	}
}

// everyName runs fn as a parallel subtest for every registry name at its
// defaults and in its variants, with the variant's options.
func everyName(t *testing.T, fn func(t *testing.T, name string, opts map[string]string)) {
	for _, name := range Names() {
		for _, opts := range append([]map[string]string{nil}, variants[name]...) {
			sub := name
			for _, k := range slices.Sorted(maps.Keys(opts)) {
				sub += fmt.Sprintf(",%s=%s", k, opts[k])
			}
			t.Run(sub, func(t *testing.T) {
				t.Parallel()
				fn(t, name, opts)
			})
		}
	}
}

// A Query stores nothing and changes no later answer: every Query equals
// the Add after it, and the snapshots of a detector that was queried at
// every step and of one that was not are the same bytes. A stream of 50
// texts with its copies and removals by default, 80 with NEARDUP_LONG.
func TestEveryNameQueryChangesNothing(t *testing.T) {
	texts := suiteTexts(dataset.LongSize(50, 80), 5)
	ops := testkit.FloodStream(texts, 5, 3, 5, 10)
	probe := func(step int) string { return texts[step%len(texts)] }
	everyName(t, func(t *testing.T, name string, opts map[string]string) {
		longForReference(t, name)
		opts = with(opts, "MaxResults", "4")
		testkit.QueryChangesNothing(t, suiteNew(t, name, opts), suiteNew(t, name, opts), ops, probe, !stateful[name])
	})
}

// Queries running beside Adds never report one another, and the Adds
// count (and, where the answers do not depend on the order of the Adds,
// answer) as a sequential run.
func TestEveryNameConcurrentQueryAdd(t *testing.T) {
	texts := suiteTexts(40, 6)
	everyName(t, func(t *testing.T, name string, opts map[string]string) {
		opts = with(opts, "MaxResults", "1000")
		testkit.ConcurrentQueryAdd(t, suiteNew(t, name, opts), suiteNew(t, name, opts), texts, !stateful[name])
	})
}

// Query, Copies and Nearest refuse what Add refuses: a text over
// MaxTextBytes, an unknown ID, a closed detector; an empty text is an
// empty answer, not nil.
func TestEveryNameLookupErrors(t *testing.T) {
	everyName(t, func(t *testing.T, name string, opts map[string]string) {
		info, err := Lookup(name)
		require.NoError(t, err)
		limited := slices.Contains(info.Options, "MaxTextBytes")
		if limited {
			opts = with(opts, "MaxTextBytes", "10")
		}
		d := suiteNew(t, name, opts)
		if limited {
			_, err = d.Query(detector.Doc{Text: strings.Repeat("x ", 6)})
			require.ErrorIs(t, err, detector.ErrTooLarge)
			_, err = d.Nearest(strings.Repeat("x ", 6), 3)
			require.ErrorIs(t, err, detector.ErrTooLarge)
		}
		ms, err := d.Query(detector.Doc{})
		require.NoError(t, err)
		assert.NotNil(t, ms)
		assert.Empty(t, ms)
		_, err = d.Copies("nope")
		require.ErrorIs(t, err, detector.ErrUnknownID)
		require.NoError(t, d.Close())
		_, err = d.Query(detector.Doc{Text: "x"})
		require.ErrorIs(t, err, detector.ErrClosed)
		_, err = d.Copies("x")
		require.ErrorIs(t, err, detector.ErrClosed)
		_, err = d.Nearest("x", 3)
		require.ErrorIs(t, err, detector.ErrClosed)
	})
}

// A snapshot taken mid-stream loads into a new detector that re-encodes
// it to the same bytes and answers the rest of the stream, and every
// lookup, as the original; so does the snapshot of an empty detector.
func TestEveryNameSnapshotRoundTrip(t *testing.T) {
	texts := suiteTexts(60, 7)
	ops := testkit.FloodStream(texts, 7, 3, 5, 6)
	everyName(t, func(t *testing.T, name string, opts map[string]string) {
		longForReference(t, name)
		opts = with(opts, "MaxResults", "7")
		build := func() counted { return suiteNew(t, name, opts) }
		testkit.RoundTrip(t, build, ops, nil)
		testkit.RoundTrip(t, build, nil, nil)
	})
}

// Every damaged, truncated or extended snapshot is refused with
// ErrSnapshot and leaves the detector empty; a detector that holds
// documents refuses a snapshot and keeps them; a closed one refuses it
// with ErrClosed.
func TestEveryNameSnapshotRefusals(t *testing.T) {
	texts := suiteTexts(4, 8)
	everyName(t, func(t *testing.T, name string, opts map[string]string) {
		longForReference(t, name)
		a := suiteNew(t, name, opts)
		for i, text := range []string{texts[0], texts[1], texts[2], texts[0]} {
			_, err := a.Add(detector.Doc{ID: fmt.Sprint("d", i), Text: text})
			require.NoError(t, err)
		}
		snap := testkit.Encode(t, a)
		b := testkit.Damage(t, suiteNew(t, name, opts), snap, nil)
		assert.Equal(t, a.Len(), b.Len())
		testkit.NotEmpty(t, b, snap)
		testkit.Closed(t, b, snap, texts[0], "d0")
	})
}

// Snapshots written while other goroutines add and remove hold whole
// documents only: each loads and re-encodes to the same bytes.
func TestEveryNameConcurrentSnapshot(t *testing.T) {
	texts := suiteTexts(40, 9)
	everyName(t, func(t *testing.T, name string, opts map[string]string) {
		fresh := func() counted { return suiteNew(t, name, opts) }
		testkit.ConcurrentSnapshot(t, fresh(), texts, fresh, nil)
	})
}

// Goroutines adding one new ID at once, each with another text: exactly
// one succeeds, the others get ErrDuplicateID, and the winner is fully
// indexed: 20 trials a name by default, 60 with NEARDUP_LONG.
func TestEveryNameConcurrentSameID(t *testing.T) {
	trials := dataset.LongSize(20, 60)
	if testing.Short() {
		trials = 15
	}
	docs := dataset.SynthDocs(44, dataset.SynthConfig{Seed: 3, VariantRate: 1e-9})
	everyName(t, func(t *testing.T, name string, opts map[string]string) {
		for trial := range trials {
			d := suiteNew(t, name, opts)
			for _, doc := range docs[:20] {
				if _, err := d.Add(doc); err != nil {
					t.Fatal(err)
				}
			}
			const g = 4
			var texts [g]string
			for i := range texts {
				texts[i] = docs[20+(trial*g+i)%24].Text
			}
			var errs [g]error
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range g {
				wg.Go(func() {
					<-start
					_, errs[i] = d.Add(detector.Doc{ID: "same", Text: texts[i]})
				})
			}
			close(start)
			wg.Wait()
			winner := -1
			for i, err := range errs {
				switch {
				case err == nil && winner >= 0:
					t.Fatalf("trial %d: two Adds of one new ID succeeded", trial)
				case err == nil:
					winner = i
				case !errors.Is(err, detector.ErrDuplicateID):
					t.Fatalf("trial %d: Add: %v, want an error wrapping ErrDuplicateID", trial, err)
				}
			}
			if winner < 0 {
				t.Fatalf("trial %d: no Add of the new ID succeeded", trial)
			}
			ms, err := d.Add(detector.Doc{ID: "copy", Text: texts[winner]})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(ms, detector.Match{ID: "same", Score: 1}) {
				t.Errorf("trial %d: the exact copy of the winner's text found %v, want the winner with score 1", trial, ms)
			}
			if n := d.Len(); n != 22 {
				t.Fatalf("trial %d: Len %d, want 22", trial, n)
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
		}
	})
}
