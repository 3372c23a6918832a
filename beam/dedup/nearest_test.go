package dedup

import (
	"cmp"
	"encoding/json"
	"slices"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/minhash"
)

func neighboursJSON(n Neighbours) (string, error) {
	b, err := json.Marshal(n)
	return string(b), err
}

func init() { register.Function1x2(neighboursJSON) }

// memNearest returns, as JSONL lines, each document's Nearest(text, k+1)
// from a minhash.Detector holding docs added in ascending ID order, the
// document itself dropped and the rest cut to k; documents without words
// are left out, as the pipeline leaves them out. It also returns how many
// documents got more neighbours than Query reports for them.
func memNearest(t *testing.T, cfg minhash.Config, docs []Doc, k int) ([]string, int) {
	t.Helper()
	d, err := minhash.New(cfg)
	require.NoError(t, err)
	sorted := slices.Clone(docs)
	slices.SortFunc(sorted, func(a, b Doc) int { return cmp.Compare(a.ID, b.ID) })
	for _, doc := range sorted {
		_, err := d.Add(detector.Doc{ID: doc.ID, Text: doc.Text})
		require.NoError(t, err)
	}
	sk, err := minhash.NewSketcher(cfg)
	require.NoError(t, err)
	var out []string
	widened := 0
	for _, doc := range sorted {
		if _, size := sk.AppendSignature(nil, doc.Text); size == 0 {
			continue
		}
		ms, err := d.Nearest(doc.Text, k+1)
		require.NoError(t, err)
		n := Neighbours{ID: doc.ID, Neighbours: []Neighbour{}}
		for _, m := range ms {
			if m.ID != doc.ID && len(n.Neighbours) < k {
				n.Neighbours = append(n.Neighbours, Neighbour{ID: m.ID, Score: m.Score})
			}
		}
		q, err := d.Query(detector.Doc{ID: doc.ID, Text: doc.Text})
		require.NoError(t, err)
		if len(n.Neighbours) > len(q) {
			widened++
		}
		line, err := neighboursJSON(n)
		require.NoError(t, err)
		out = append(out, line)
	}
	return out, widened
}

// TestNearestEqualsDetector runs Nearest on synthetic news with
// near-duplicates, exact copies and a text without words, under the
// default banding (35 bands of one row) and a narrow one (8 bands of 8
// rows, where the Detector widens often), and requires each document's
// JSONL line to equal the in-memory Detector's Nearest.
func TestNearestEqualsDetector(t *testing.T) {
	docs := synthDocs(300, 3)
	for i := range 20 {
		docs = append(docs, Doc{ID: "copy" + string(rune('a'+i)), Text: docs[i%5].Text})
	}
	docs = append(docs, Doc{ID: "empty", Text: " ... "})
	for _, tc := range []struct {
		name string
		cfg  minhash.Config
		k    int
	}{
		{"default-k5", minhash.Config{}, 5},
		{"narrow-k10", minhash.Config{Bands: 8, Rows: 8}, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, widened := memNearest(t, tc.cfg, docs, tc.k)
			require.Len(t, want, len(docs)-1)
			t.Logf("%d documents, %d with more neighbours than Query reports", len(want), widened)
			p, s := beam.NewPipelineWithRoot()
			got, err := Nearest(s, beam.CreateList(s, docs), NearestConfig{Sketch: tc.cfg, K: tc.k})
			require.NoError(t, err)
			passert.EqualsList(s, beam.ParDo(s, neighboursJSON, got), want)
			_, err = run(t, p)
			require.NoError(t, err)
		})
	}
}

// TestNearestEqualsDetectorControl: one changed score in the expected
// lines must make the pipeline fail.
func TestNearestEqualsDetectorControl(t *testing.T) {
	docs := synthDocs(100, 4)
	want, _ := memNearest(t, minhash.Config{}, docs, 3)
	var n Neighbours
	i := slices.IndexFunc(want, func(l string) bool {
		require.NoError(t, json.Unmarshal([]byte(l), &n))
		return len(n.Neighbours) > 0
	})
	require.GreaterOrEqual(t, i, 0)
	n.Neighbours[0].Score += 1e-9
	line, err := neighboursJSON(n)
	require.NoError(t, err)
	want[i] = line
	p, s := beam.NewPipelineWithRoot()
	got, err := Nearest(s, beam.CreateList(s, docs), NearestConfig{K: 3})
	require.NoError(t, err)
	passert.EqualsList(s, beam.ParDo(s, neighboursJSON, got), want)
	_, err = run(t, p)
	require.Error(t, err)
}

func TestNearestConfigErrors(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	docs := beam.CreateList(s, []Doc{{ID: "a", Text: "a b c"}})
	_, err := Nearest(s, docs, NearestConfig{K: 0})
	require.ErrorIs(t, err, detector.ErrInvalidConfig)
	_, err = Nearest(s, docs, NearestConfig{Sketch: minhash.Config{Mode: minhash.Containment}, K: 3})
	require.ErrorIs(t, err, detector.ErrInvalidConfig)
}
