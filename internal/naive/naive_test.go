package naive

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
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
