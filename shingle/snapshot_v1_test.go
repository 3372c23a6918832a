package shingle_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

// v1Configs are the Configs of the checked-in version 1 snapshots: one
// snapshot per Method, stored one after the other in this order.
var v1Configs = []shingle.Config{
	{Language: "en"},
	{Language: "en", Method: shingle.DSC, SuperShingle: 2},
	{Language: "en", Method: shingle.SpotSigs, MinSignatures: 2, MinIDF: -1, MaxIDF: 2, MinOverlap: 1},
}

func v1Docs() []detector.Doc {
	return []detector.Doc{
		{ID: "report", Text: report}, {ID: "copy", Text: report}, {ID: "roundup", Text: roundup},
		{ID: "other", Text: other}, {ID: "empty", Text: "..."},
	}
}

// TestSnapshotV1 reads testdata/v1.snapshot, written by this version: the
// layout must stay readable, and the same documents must encode to the
// same bytes (a new layout needs a new KindVersion). Regenerate with
// `go test ./shingle -run TestSnapshotV1 -args -update` only for an
// intended change.
func TestSnapshotV1(t *testing.T) {
	var all bytes.Buffer
	var sizes []int
	for _, cfg := range v1Configs {
		d, err := shingle.New(cfg)
		require.NoError(t, err)
		for _, doc := range v1Docs() {
			_, err := d.Add(doc)
			require.NoError(t, err)
		}
		n, err := d.WriteTo(&all)
		require.NoError(t, err)
		sizes = append(sizes, int(n))
	}
	stored := testkit.Golden(t, filepath.Join("testdata", "v1.snapshot"), all.Bytes(), *update)

	off := 0
	for i, cfg := range v1Configs {
		d, err := shingle.New(cfg)
		require.NoError(t, err)
		n, err := d.ReadFrom(bytes.NewReader(stored[off : off+sizes[i]]))
		off += sizes[i]
		require.NoError(t, err, "snapshot %d", i)
		assert.EqualValues(t, sizes[i], n)
		assert.Equal(t, 5, d.Len())
		cp, err := d.Copies("report")
		require.NoError(t, err)
		assert.Equal(t, []string{"copy"}, cp)
		ms, err := d.Containers("report")
		require.NoError(t, err)
		require.NotEmpty(t, ms)
		assert.Equal(t, detector.Match{ID: "copy", Score: 1}, ms[0])
		ms, err = d.Add(detector.Doc{ID: "third", Text: report})
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(ms), 2)
		assert.Equal(t, []detector.Match{{ID: "copy", Score: 1}, {ID: "report", Score: 1}}, ms[:2])
	}
}
