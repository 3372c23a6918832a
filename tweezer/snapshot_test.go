package tweezer

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

func encode(t testing.TB, d *Detector) []byte { return testkit.Encode(t, d) }

func mustNew(t testing.TB, cfg Config) *Detector {
	t.Helper()
	d, err := New(cfg)
	require.NoError(t, err)
	return d
}

func load(t testing.TB, cfg Config, snap []byte) *Detector {
	t.Helper()
	return testkit.Load(t, mustNew(t, cfg), snap)
}

func TestSnapshotRoundTripRealData(t *testing.T) {
	recs := dataset.Reuters(t, dataset.LongSize(500, 3000))
	ops := floodStream(dataset.Texts(recs), 4, 5)
	roundTrip(t, Config{Language: "en"}, ops)
}

// smallSnapshot is a snapshot of a few documents: a group of copies, a
// caseless copy, a document without words, in Overlap mode.
func smallSnapshot(t testing.TB) (Config, []byte) {
	// MinOverlap 3, the default when the golden snapshot was written.
	cfg := Config{Language: "tr", MinOverlap: 3}
	d, err := New(cfg)
	require.NoError(t, err)
	for _, doc := range []detector.Doc{
		{ID: "a", Text: fig41}, {ID: "b", Text: fig41}, {ID: "c", Text: strings.ToUpper(fig41)},
		{ID: "d", Text: "bu metinde hiç özel isim yok."}, {ID: "e", Text: "..."},
	} {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	return cfg, encode(t, d)
}

func TestSnapshotConfigMismatch(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	for field, other := range map[string]Config{
		"Threshold": {Language: "tr", MinOverlap: 3, Threshold: 0.5},
		"Mode":      {Language: "tr", MinOverlap: 3, Mode: Exact},
		"Language":  {Language: "en", MinOverlap: 3},
	} {
		d, err := New(other)
		require.NoError(t, err)
		testkit.Mismatch(t, d, snap, field)
	}
	d, err := New(cfg)
	require.NoError(t, err)
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.NoError(t, err)

	// The limits bound calls, not what is stored: a service may change
	// them across a restart.
	limited := cfg
	limited.MaxResults, limited.MaxTextBytes = 1, 1<<10
	e, err := New(limited)
	require.NoError(t, err)
	_, err = e.ReadFrom(bytes.NewReader(snap))
	require.NoError(t, err)
	assert.Equal(t, d.Len(), e.Len())
}

// TestSnapshotV1 reads the checked-in snapshot of layout version 1 and
// requires that the documents it was made from encode to the same bytes,
// so that a change of the format is deliberate. go test ./tweezer/ -run
// TestSnapshotV1 -args -update rewrites it (the header holds the effective
// Config, so a change of a default rewrites it too).
func TestSnapshotV1(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	stored := testkit.Golden(t, filepath.Join("testdata", "v1.snapshot"), snap, *update)
	d := load(t, cfg, stored)
	assert.Equal(t, 5, d.Len())
	cp, err := d.Copies("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, cp)
	ms, err := d.Containers("a")
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "b", Score: 1}, {ID: "c", Score: 1}}, ms)
	ms, err = d.Add(detector.Doc{ID: "f", Text: fig41})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}, {ID: "b", Score: 1}, {ID: "c", Score: 1}}, ms)
}

// FuzzReadFrom feeds ReadFrom arbitrary streams, and arbitrary section
// payloads framed with valid checksums (which random bytes never get past).
// It must never panic; a rejected input wraps ErrSnapshot and leaves the
// detector empty; an accepted one re-encodes to the same bytes and gives a
// working detector.
func FuzzReadFrom(f *testing.F) {
	cfg, snap := smallSnapshot(f)
	d := load(f, cfg, snap)
	groups, empty, _, err := d.e.Sections()
	require.NoError(f, err)
	f.Add(snap, groups, empty)
	f.Add([]byte("NEARDUP\x00"), []byte{0}, []byte{0})
	f.Add(snap[:len(snap)/2], groups[:len(groups)/2], empty)
	// Detectors share one Signer: building the recogniser of each would
	// cost more than the rest of an execution.
	signer := d.signer
	fresh := func() *Detector { return newDetector(signer) }
	f.Fuzz(func(t *testing.T, raw, groups, empty []byte) {
		read := func(in []byte) (*Detector, error) {
			d := fresh()
			if err := testkit.Read(t, d, in, nil); err != nil {
				return nil, err
			}
			_, err := d.Add(detector.Doc{ID: "fuzz-new", Text: fig41})
			require.NoError(t, err)
			return d, nil
		}
		read(raw)
		// The payloads behind valid framing, with the trailer's count
		// of what they hold when they decode.
		d := fresh()
		count, derr := d.e.DecodeSections(groups, empty)
		if derr != nil {
			require.ErrorIs(t, derr, detector.ErrSnapshot)
		}
		framed := testkit.Frame(t, snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: d.Config()},
			[]string{"groups", "empty"}, [][]byte{groups, empty}, count)
		_, err := read(framed)
		require.Equal(t, derr == nil, err == nil, "ReadFrom accepts exactly the payloads decode accepts")
	})
}
func roundTrip(t *testing.T, cfg Config, ops []op) {
	testkit.RoundTrip(t, func() *Detector { return mustNew(t, cfg) }, ops, nil)
}
