package tweezer

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// stressTexts returns n distinct texts with named entities, so that every
// mode signs them by their NE shingles.
func stressTexts(n int) []string {
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: 3, Vocabulary: 3000})
	out := make([]string, n)
	for i, d := range docs {
		out[i] = fmt.Sprintf("Başbakan Mesut Yılmaz'ın %d. açıklamasına göre Ankara Valiliği dün toplandı. %s", i, d.Text)
	}
	return out
}

// TestConcurrentSameID adds one new ID from several goroutines at once,
// each with a different text, in every mode: exactly one Add succeeds, the
// others return ErrDuplicateID, and the winner is fully indexed (an exact
// copy of its text added later finds it; Containers and Cluster see it).
func TestConcurrentSameID(t *testing.T) {
	const goroutines, trials = 4, 60
	texts := stressTexts(goroutines + 8)
	for _, mode := range []Mode{Overlap, Exact, Jaccard} {
		t.Run(mode.String(), func(t *testing.T) {
			for trial := range trials {
				d, err := New(Config{Mode: mode, Language: "tr"})
				require.NoError(t, err)
				for i, text := range texts[goroutines:] {
					_, err := d.Add(detector.Doc{ID: fmt.Sprint("other", i), Text: text})
					require.NoError(t, err)
				}
				errs := make([]error, goroutines)
				var start, wg sync.WaitGroup
				start.Add(1)
				for g := range goroutines {
					wg.Go(func() {
						start.Wait()
						_, errs[g] = d.Add(detector.Doc{ID: "x", Text: texts[g]})
					})
				}
				start.Done()
				wg.Wait()
				winner := -1
				for g, err := range errs {
					switch {
					case err == nil:
						require.Equal(t, -1, winner, "trial %d: two Adds of one ID succeeded", trial)
						winner = g
					default:
						require.ErrorIs(t, err, detector.ErrDuplicateID, "trial %d: goroutine %d", trial, g)
					}
				}
				require.NotEqual(t, -1, winner, "trial %d: no Add succeeded", trial)
				ms, err := d.Add(detector.Doc{ID: "copy", Text: texts[winner]})
				require.NoError(t, err)
				assert.Equal(t, []detector.Match{{ID: "x", Score: 1}}, ms, "trial %d: an exact copy of the winner", trial)
				ms, err = d.Containers("x")
				require.NoError(t, err)
				assert.Equal(t, []detector.Match{{ID: "copy", Score: 1}}, ms, "trial %d: Containers(winner)", trial)
				cl, err := d.Cluster("x")
				require.NoError(t, err)
				assert.Equal(t, []string{"copy", "x"}, cl, "trial %d", trial)
				assert.Equal(t, len(texts)-goroutines+2, d.Len())
				require.NoError(t, d.Close())
			}
		})
	}
}

// TestConcurrentMatchesSequential adds documents, near-copies among them,
// from four goroutines and from one: every document's Containers and
// Cluster are the same either way.
func TestConcurrentMatchesSequential(t *testing.T) {
	texts := stressTexts(40)
	var docs []detector.Doc
	for i, text := range texts {
		docs = append(docs, detector.Doc{ID: fmt.Sprint("d", i), Text: text})
		if i%3 == 0 {
			docs = append(docs, detector.Doc{ID: fmt.Sprint("copy", i), Text: text + " Kaynak: Anadolu Ajansı."})
		}
	}
	for _, mode := range []Mode{Overlap, Exact, Jaccard} {
		// Turkish texts: under the Turkish content filter the source line
		// added to the copies is boilerplate, so Exact finds them too.
		seq, err := New(Config{Mode: mode, Language: "tr"})
		require.NoError(t, err)
		for _, doc := range docs {
			_, err := seq.Add(doc)
			require.NoError(t, err)
		}
		par, err := New(Config{Mode: mode, Language: "tr"})
		require.NoError(t, err)
		var wg sync.WaitGroup
		errs := make(chan error, len(docs))
		for g := range 4 {
			wg.Go(func() {
				for i := g; i < len(docs); i += 4 {
					if _, err := par.Add(docs[i]); err != nil {
						errs <- err
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
		related := 0
		for _, doc := range docs {
			want, err := seq.Containers(doc.ID)
			require.NoError(t, err)
			got, err := par.Containers(doc.ID)
			require.NoError(t, err)
			assert.Equal(t, want, got, "%v: Containers(%q)", mode, doc.ID)
			related += len(want)
			wc, _ := seq.Cluster(doc.ID)
			gc, _ := par.Cluster(doc.ID)
			assert.Equal(t, wc, gc, "%v: Cluster(%q)", mode, doc.ID)
		}
		assert.Positive(t, related, "%v: the near-copies must be found", mode)
	}
}

// TestAddChecksFirst checks the order of Add's checks: a closed
// detector, an empty ID, a text over the size limit and a duplicate ID are
// refused before the text is read.
func TestAddChecksFirst(t *testing.T) {
	d, err := New(Config{MaxTextBytes: 100})
	require.NoError(t, err)
	_, err = d.Add(detector.Doc{ID: "a", Text: "Ankara"})
	require.NoError(t, err)
	for _, c := range []struct {
		doc  detector.Doc
		want error
	}{
		{detector.Doc{ID: "", Text: "x"}, detector.ErrEmptyID},
		{detector.Doc{ID: "b", Text: string(make([]byte, 101))}, detector.ErrTooLarge},
		{detector.Doc{ID: "a", Text: "İzmir"}, detector.ErrDuplicateID},
	} {
		_, err := d.Add(c.doc)
		assert.ErrorIs(t, err, c.want, "Add(%q)", c.doc.ID)
	}
	require.NoError(t, d.Close())
	_, err = d.Add(detector.Doc{ID: "c", Text: "Bursa"})
	assert.True(t, errors.Is(err, detector.ErrClosed), "Add after Close: %v", err)
}
