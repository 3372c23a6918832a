package detector_test

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
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

var golden = flag.Bool("golden", false, "rewrite testdata/*.v1.snap")

// persistent lists the combinators whose layout the golden files pin,
// each built fresh over reference detectors.
var persistent = []struct {
	name  string
	build func(t testing.TB) detector.Detector
}{
	{"window", func(t testing.TB) detector.Detector {
		return window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: 3})
	}},
	{"vote", func(t testing.TB) detector.Detector {
		return vote(t, 1, naive.New(naive.Config{}), naive.New(naive.Config{Shingle: 3}))
	}},
	{"cascade", func(t testing.TB) detector.Detector { return cascade(t, naive.New(naive.Config{Threshold: 0.2})) }},
}

// fill adds a short fixed history, with an eviction for the window.
func fill(t testing.TB, d detector.Detector) {
	for _, doc := range []detector.Doc{{ID: "short", Text: short}, {ID: "other", Text: other}, {ID: "long", Text: long}, {ID: "copy", Text: short}} {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
}

// Do NOT make changes to the golden outputs: a snapshot written by this
// version must stay readable. Change a layout only with a new kind
// version, and regenerate with -golden deliberately.
func TestGoldenSnapshots(t *testing.T) {
	for _, p := range persistent {
		t.Run(p.name, func(t *testing.T) {
			d := p.build(t)
			defer d.Close()
			fill(t, d)
			var b bytes.Buffer
			_, err := d.(detector.Persister).WriteTo(&b)
			require.NoError(t, err)
			path := filepath.Join("testdata", p.name+".v1.snap")
			if *golden {
				require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, want, b.Bytes(), "the %s layout changed", p.name)
			r := p.build(t)
			defer r.Close()
			_, err = r.(detector.Persister).ReadFrom(bytes.NewReader(want))
			require.NoError(t, err)
			ms, err := r.Containers("copy")
			require.NoError(t, err)
			assert.NotEmpty(t, ms, "the restored %s finds copy's containers", p.name)
		})
	}
}

func FuzzCombinatorReadFrom(f *testing.F) {
	for _, p := range persistent {
		if b, err := os.ReadFile(filepath.Join("testdata", p.name+".v1.snap")); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, p := range persistent {
			d := p.build(t)
			_, err := d.(detector.Persister).ReadFrom(bytes.NewReader(b))
			if err != nil {
				if !errors.Is(err, detector.ErrSnapshot) {
					t.Fatalf("%s: an error that does not wrap ErrSnapshot: %v", p.name, err)
				}
				if n := d.(interface{ Len() int }).Len(); n != 0 {
					t.Fatalf("%s: %d documents after a failed ReadFrom", p.name, n)
				}
			}
			d.Close()
		}
	})
}
