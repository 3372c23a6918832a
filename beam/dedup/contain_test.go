package dedup

import (
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

// memContained returns the triples a shingle.Detector reports by
// Containers for every document.
func memContained(t testing.TB, cfg shingle.Config, docs []Doc) []Contained {
	t.Helper()
	d, err := shingle.New(cfg)
	require.NoError(t, err)
	for _, doc := range docs {
		_, err := d.Add(detector.Doc{ID: doc.ID, Text: doc.Text})
		require.NoError(t, err)
	}
	var out []Contained
	for _, doc := range docs {
		ms, err := d.Containers(doc.ID)
		require.NoError(t, err)
		for _, m := range ms {
			out = append(out, Contained{Doc: doc.ID, Container: m.ID, Score: m.Score})
		}
	}
	return out
}

func containmentEquality(t *testing.T, docs []Doc, cfg shingle.Config) {
	t.Helper()
	want := memContained(t, cfg, docs)
	require.NotEmpty(t, want)
	p, s := beam.NewPipelineWithRoot()
	got, err := Containment(s, beam.CreateList(s, docs), ContainmentConfig{Shingle: cfg, MaxDF: -1})
	require.NoError(t, err)
	passert.EqualsList(s, got, want)
	m, err := run(t, p)
	require.NoError(t, err)
	assert.Zero(t, m[MetricCappedShingles])
	t.Logf("%d docs, %d triples, counters %v", len(docs), len(want), m)
}

func TestContainmentEqualsDetector(t *testing.T) {
	docs := synthDocs(1500, 5)
	for _, tc := range []struct {
		name string
		cfg  shingle.Config
	}{
		{"full fingerprint", shingle.Config{}},
		{"full fingerprint 3 words 0.8", shingle.Config{Threshold: 0.8, Shingle: 3}},
		{"DSC modulus", shingle.Config{Method: shingle.DSC}},
	} {
		t.Run(tc.name, func(t *testing.T) { containmentEquality(t, docs, tc.cfg) })
	}
}

func TestContainmentEqualsDetectorCloughStevenson(t *testing.T) {
	containmentEquality(t, realDocs(t, "clough-stevenson.jsonl"), shingle.Config{})
}

// TestContainmentNegativeControl: one extra expected triple fails the
// pipeline whose unedited expected set passes.
func TestContainmentNegativeControl(t *testing.T) {
	docs := synthDocs(500, 6)
	want := memContained(t, shingle.Config{}, docs)
	require.NotEmpty(t, want)
	bad := append(append([]Contained(nil), want...), Contained{Doc: docs[0].ID, Container: docs[1].ID, Score: 0.9})
	for _, tc := range []struct {
		name   string
		expect []Contained
		fail   bool
	}{
		{"unedited", want, false},
		{"extra triple", bad, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, s := beam.NewPipelineWithRoot()
			got, err := Containment(s, beam.CreateList(s, docs), ContainmentConfig{MaxDF: -1})
			require.NoError(t, err)
			passert.EqualsList(s, got, tc.expect)
			_, err = run(t, p)
			if tc.fail {
				require.Error(t, err, "an expected set with one extra triple must fail")
			} else {
				require.NoError(t, err)
			}
		})
	}
}

// TestContainmentMaxDF: a shingle shared by more documents than MaxDF is
// counted and left out, so overlap through it alone is not reported.
func TestContainmentMaxDF(t *testing.T) {
	var docs []Doc
	for i := range 30 {
		docs = append(docs, Doc{ID: string(rune('a' + i)), Text: "quarterly earnings boilerplate disclaimer statement appears verbatim everywhere"})
	}
	p, s := beam.NewPipelineWithRoot()
	got, err := Containment(s, beam.CreateList(s, docs), ContainmentConfig{MaxDF: 10})
	require.NoError(t, err)
	passert.Empty(s, got)
	m, err := run(t, p)
	require.NoError(t, err)
	assert.Positive(t, m[MetricCappedShingles])
}

func TestContainmentBadConfig(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	docs := beam.CreateList(s, []Doc{{ID: "a", Text: "x"}})
	_, err := Containment(s, docs, ContainmentConfig{Shingle: shingle.Config{Method: shingle.SpotSigs}})
	require.ErrorIs(t, err, detector.ErrInvalidConfig)
	_, err = Containment(s, docs, ContainmentConfig{Shingle: shingle.Config{Threshold: 1.5}})
	require.ErrorIs(t, err, detector.ErrInvalidConfig)
}
