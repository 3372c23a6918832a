package naive

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

var update = flag.Bool("update", false, "rewrite testdata/v1.snap")

const text = "the council approved the new budget on monday after a long debate about schools"

func filled(t testing.TB) *Detector {
	d := New(Config{})
	for _, doc := range []detector.Doc{{ID: "a", Text: text}, {ID: "b", Text: "morning briefing: " + text}, {ID: "c", Text: "one two"}, {ID: "empty"}} {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	return d
}

// Do NOT make changes to the golden outputs: a snapshot written by this
// version must stay readable. Change the layout only with a new kind
// version, and regenerate with -update deliberately.
func TestGoldenSnapshot(t *testing.T) {
	var b bytes.Buffer
	_, err := filled(t).WriteTo(&b)
	require.NoError(t, err)
	path := filepath.Join("testdata", "v1.snap")
	if *update {
		require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, want, b.Bytes())
	r := New(Config{})
	_, err = r.ReadFrom(bytes.NewReader(want))
	require.NoError(t, err)
	assert.Equal(t, 4, r.Len())
	ms, err := r.Containers("a")
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "b", Score: 1}}, ms)
	// Another Config is refused, naming the field.
	_, err = New(Config{Shingle: 3}).ReadFrom(bytes.NewReader(want))
	assert.ErrorIs(t, err, detector.ErrSnapshot)
	assert.ErrorContains(t, err, "Config.Shingle is 4 in the snapshot and 3 in the detector")
}

func TestQuery(t *testing.T) {
	d := filled(t)
	ms, err := d.Query(detector.Doc{ID: "a", Text: text})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "b", Score: 1}}, ms, "the live document a is not reported")
	assert.Equal(t, 4, d.Len(), "Query stores nothing")
}

func FuzzReadFrom(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "v1.snap")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d := New(Config{})
		if _, err := d.ReadFrom(bytes.NewReader(b)); err != nil {
			if !errors.Is(err, detector.ErrSnapshot) {
				t.Fatalf("an error that does not wrap ErrSnapshot: %v", err)
			}
			if d.Len() != 0 {
				t.Fatalf("%d documents after a failed ReadFrom", d.Len())
			}
			return
		}
		var out bytes.Buffer
		if _, err := d.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), b) {
			t.Fatalf("a snapshot that loads re-encodes differently")
		}
	})
}

// TestNewCheckedRejects: NewChecked refuses, naming the field, what a
// snapshot cannot hold or New cannot use; every Config it accepts writes a
// snapshot.
func TestNewCheckedRejects(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Threshold: math.NaN()}, "naive: Threshold (NaN) must be finite"},
		{Config{Threshold: math.Inf(1)}, "naive: Threshold (+Inf) must be finite"},
		{Config{Threshold: math.Inf(-1)}, "naive: Threshold (-Inf) must be finite"},
		{Config{Shingle: -1}, "naive: Shingle (-1) must be ≥ 0"},
		{Config{MaxResults: -1}, "naive: MaxResults (-1) must be ≥ 0"},
	} {
		d, err := NewChecked(tc.cfg)
		assert.Nil(t, d)
		require.ErrorIs(t, err, detector.ErrInvalidConfig)
		assert.Equal(t, tc.want+": invalid config", err.Error())
	}
	for _, cfg := range []Config{{}, {Threshold: 1}, {Threshold: -0.5, Symmetric: true}, {Shingle: 2, MaxResults: 3}, {Threshold: math.MaxFloat64}} {
		d, err := NewChecked(cfg)
		require.NoError(t, err, "%+v", cfg)
		_, err = d.Add(detector.Doc{ID: "a", Text: text})
		require.NoError(t, err)
		_, err = d.WriteTo(io.Discard)
		assert.NoError(t, err, "%+v", cfg)
	}
}

// TestMaxResults: a flood of copies is capped at MaxResults (default
// detector.DefaultMaxResults) in Add, Containers and Query, keeping the
// strongest in detector.SortMatches order; a snapshot does not record the
// cap, so it loads under another one.
func TestMaxResults(t *testing.T) {
	// A variant shares 10 of the 11 shingles of text: reported, with a
	// lower score than a copy, and with IDs that sort before the copies'.
	variant := strings.TrimSuffix(text, "schools") + "hospitals"
	all, err := NewChecked(Config{MaxResults: 1000})
	require.NoError(t, err)
	for i := range 5 {
		_, err := all.Add(detector.Doc{ID: fmt.Sprintf("copy%03d", i), Text: text})
		require.NoError(t, err)
		_, err = all.Add(detector.Doc{ID: fmt.Sprintf("b-variant%03d", i), Text: variant})
		require.NoError(t, err)
	}
	ms, err := all.Query(detector.Doc{ID: "q", Text: text})
	require.NoError(t, err)
	require.Len(t, ms, 10, "uncapped, the variants are reported too")
	assert.Equal(t, "copy000", ms[0].ID)
	assert.Equal(t, "b-variant000", ms[5].ID)
	assert.Less(t, ms[5].Score, 1.0)
	for _, limit := range []int{0, 7} {
		d, err := NewChecked(Config{MaxResults: limit})
		require.NoError(t, err)
		want := limit
		if want == 0 {
			want = detector.DefaultMaxResults
		}
		for i := range want + 40 {
			_, err := d.Add(detector.Doc{ID: fmt.Sprintf("copy%03d", i), Text: text})
			require.NoError(t, err)
			_, err = d.Add(detector.Doc{ID: fmt.Sprintf("b-variant%03d", i), Text: variant})
			require.NoError(t, err)
		}
		check := func(name string, ms []detector.Match, err error, self string) {
			t.Helper()
			require.NoError(t, err)
			require.Len(t, ms, want, "%s, MaxResults %d", name, limit)
			for i, m := range ms {
				assert.NotEqual(t, self, m.ID)
				assert.Equal(t, 1.0, m.Score, "%s: the strongest are kept", name)
				if i > 0 {
					assert.Less(t, ms[i-1].ID, m.ID, "%s: ties ordered by ID", name)
				}
			}
		}
		ms, err := d.Add(detector.Doc{ID: "new", Text: text})
		check("Add", ms, err, "new")
		assert.Equal(t, "copy000", ms[0].ID)
		ms, err = d.Containers("copy005")
		check("Containers", ms, err, "copy005")
		ms, err = d.Query(detector.Doc{ID: "q", Text: text})
		check("Query", ms, err, "q")
		// The variants are reported when the copies do not fill the cap.
		ms, err = d.Containers("b-variant000")
		require.NoError(t, err)
		require.Len(t, ms, want)
		assert.Equal(t, "b-variant001", ms[0].ID)
		assert.Equal(t, 1.0, ms[0].Score)

		var b bytes.Buffer
		_, err = d.WriteTo(&b)
		require.NoError(t, err)
		r, err := NewChecked(Config{MaxResults: 3})
		require.NoError(t, err)
		_, err = r.ReadFrom(&b)
		require.NoError(t, err, "a snapshot loads under another MaxResults")
		ms, err = r.Containers("copy000")
		require.NoError(t, err)
		assert.Len(t, ms, 3)
	}
}
