package mrcosine

import (
	"bytes"
	"flag"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

var update = flag.Bool("update", false, "rewrite testdata/v1.snapshot")

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

// TestSnapshotRoundTripRealData round-trips the first 400 Reuters-21578
// stories (2,000 with NEARDUP_LONG) with floods of copies and removals,
// and reports the snapshot's size per document.
func TestSnapshotRoundTripRealData(t *testing.T) {
	if raceEnabled {
		t.Skip("real data (skipped with -race; TestSnapshotRoundTrip and TestConcurrentSnapshot run)")
	}
	recs := dataset.Reuters(t, dataset.LongSize(400, 2000))
	ops := floodStream(dataset.Texts(recs), 4, 5)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			snap := roundTrip(t, m.cfg, ops)
			e := load(t, m.cfg, snap)
			size, docs, groups := len(snap), e.Len(), e.ix().groups
			t.Logf("%d documents (%d distinct signatures): %d bytes, %.0f bytes per document", docs, groups, size, float64(size)/float64(docs))
		})
	}
}

// smallSnapshot is a snapshot of a few documents: a group of copies (one
// in capitals), another text, a document with the zero signature.
func smallSnapshot(t testing.TB) (Config, []byte) {
	cfg := Config{}
	d, err := New(cfg)
	require.NoError(t, err)
	for _, doc := range smallDocs {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	return cfg, encode(t, d)
}

var smallDocs = []detector.Doc{
	{ID: "a", Text: "Oil prices rose sharply on Monday after the pipeline closed."},
	{ID: "b", Text: "Oil prices rose sharply on Monday after the pipeline closed."},
	{ID: "c", Text: "OIL PRICES ROSE SHARPLY ON MONDAY AFTER THE PIPELINE CLOSED."},
	{ID: "d", Text: "Oil prices rose on Monday after the northern pipeline was closed."},
	{ID: "e", Text: "..."},
}

// TestSnapshotPayloadChecks frames payloads with valid checksums that
// decode must refuse: what the framing cannot catch.
func TestSnapshotPayloadChecks(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d := load(t, cfg, snap)
	groups, zero, _, err := d.encode()
	require.NoError(t, err)
	vec := groups[1 : 1+4*d.parts] // the first group's vector
	for name, bad := range map[string][2][]byte{
		"not a unit vector": {bytes.Replace(groups, vec, make([]byte, len(vec)), 1), zero},
		"a zero ID twice":   {groups, append([]byte{2}, append(zero[1:], zero[1:]...)...)},
		"an ID in both":     {groups, []byte{1, 1, 'a'}},
		"a trailing byte":   {append(bytes.Clone(groups), 0), zero},
	} {
		fresh, err := New(cfg)
		require.NoError(t, err)
		_, err = fresh.decode(bad[0], bad[1])
		require.ErrorIs(t, err, detector.ErrSnapshot, name)
	}
}

func TestSnapshotConfigMismatch(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d, err := New(cfg)
	require.NoError(t, err)
	eff := d.Config() // one field changed at a time, defaults pinned
	with := func(f func(c *Config)) Config { c := eff; f(&c); return c }
	for field, other := range map[string]Config{
		"T2":         with(func(c *Config) { c.T2 = 0.9 }),
		"Centered":   with(func(c *Config) { c.Centered = true }),
		"Exhaustive": with(func(c *Config) { c.Exhaustive = true }),
		"Seed":       with(func(c *Config) { c.Seed = 5 }),
		"Bands":      with(func(c *Config) { c.Bands = 3 }),
		"Content":    with(func(c *Config) { c.Content = textproc.ContentAll }),
	} {
		d, err := New(other)
		require.NoError(t, err)
		testkit.Mismatch(t, d, snap, field)
	}
	d, err = New(eff)
	require.NoError(t, err)
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.NoError(t, err)
}

// TestSnapshotReferenceMismatch loads a snapshot into detectors of the
// same Config with another reference text: another center, other genes.
func TestSnapshotReferenceMismatch(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	def := Default()
	recentered := def.Centered([]string{"a different collection to center on", "and another text"})
	other, err := NewReference(def.Genes()[1:], DefaultParts, def.TextConfig())
	require.NoError(t, err)
	other = other.Centered([]string{"a different collection to center on"})
	for name, ref := range map[string]*Reference{"center": recentered, "genes": other} {
		d, err := NewWithReference(cfg, ref)
		require.NoError(t, err)
		_, err = d.ReadFrom(bytes.NewReader(snap))
		require.ErrorIs(t, err, detector.ErrSnapshot, name)
		assert.Contains(t, err.Error(), "reference table", name)
		assert.Zero(t, d.Len())
	}
	// The same reference text, decoded anew, is the same table.
	b, err := def.MarshalBinary()
	require.NoError(t, err)
	var same Reference
	require.NoError(t, same.UnmarshalBinary(b))
	d, err := NewWithReference(cfg, &same)
	require.NoError(t, err)
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.NoError(t, err)
}

// TestSnapshotV1 reads the checked-in snapshot of layout version 1 and
// requires that the documents it was made from encode to the same bytes,
// so that a change of the format is deliberate. go test ./mrcosine/ -run
// TestSnapshotV1 -args -update rewrites it (the header holds the effective
// Config and the reference's fingerprint, so a change of a default or of
// the default reference rewrites it too).
func TestSnapshotV1(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	stored := testkit.Golden(t, filepath.Join("testdata", "v1.snapshot"), snap, *update)
	d := load(t, cfg, stored)
	assert.Equal(t, 5, d.Len())
	cp, err := d.Copies("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "c"}, cp)
	orig, err := New(cfg)
	require.NoError(t, err)
	for _, doc := range smallDocs {
		_, err := orig.Add(doc)
		require.NoError(t, err)
	}
	for _, id := range []string{"a", "d", "e"} {
		want, err := orig.Containers(id)
		require.NoError(t, err)
		got, err := d.Containers(id)
		require.NoError(t, err)
		assert.Equal(t, want, got, "Containers(%s)", id)
	}
	ms, err := d.Containers("a")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(ms), 2)
	assert.Equal(t, []string{"b", "c"}, []string{ms[0].ID, ms[1].ID})
	doc := detector.Doc{ID: "f", Text: smallDocs[3].Text}
	want, err := orig.Add(doc)
	require.NoError(t, err)
	got, err := d.Add(doc)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// FuzzReadFrom feeds ReadFrom arbitrary streams, and arbitrary section
// payloads framed with valid checksums (which random bytes never get past).
// It must never panic; a rejected input wraps ErrSnapshot and leaves the
// detector empty; an accepted one re-encodes to the same bytes and gives a
// working detector.
func FuzzReadFrom(f *testing.F) {
	cfg, snap := smallSnapshot(f)
	d := load(f, cfg, snap)
	groups, zero, _, err := d.encode()
	require.NoError(f, err)
	f.Add(snap, groups, zero)
	f.Add([]byte("NEARDUP\x00"), []byte{0}, []byte{0})
	f.Add(snap[:len(snap)/2], groups[:len(groups)/2], zero)
	f.Fuzz(func(t *testing.T, raw, groups, zero []byte) {
		read := func(in []byte) error {
			d, err := New(cfg)
			require.NoError(t, err)
			if err := testkit.Read(t, d, in, nil); err != nil {
				return err
			}
			ms, err := d.Add(detector.Doc{ID: "fuzz-new", Text: smallDocs[0].Text})
			require.NoError(t, err)
			for _, m := range ms {
				require.False(t, m.Score != m.Score, "NaN score")
			}
			return nil
		}
		_ = read(raw)
		// The payloads behind valid framing, with the trailer's count of
		// what they hold when they decode.
		count := 0
		n, derr := d.decode(groups, zero)
		if derr != nil {
			require.ErrorIs(t, derr, detector.ErrSnapshot)
		} else {
			count = n
		}
		framed := testkit.Frame(t, d.header(), []string{"groups", "zero"}, [][]byte{groups, zero}, count)
		err := read(framed)
		require.Equal(t, derr == nil, err == nil, "ReadFrom accepts exactly the payloads decode accepts")
	})
}
func roundTrip(t *testing.T, cfg Config, ops []op) []byte {
	t.Helper()
	_, _, snap := testkit.RoundTrip(t, func() *Detector { return mustNew(t, cfg) }, ops, nil)
	return snap
}
