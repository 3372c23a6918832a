package simhash

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

func encode(t testing.TB, d *Detector) []byte { return testkit.Encode(t, d) }

func load(t testing.TB, d *Detector, snap []byte) *Detector { return testkit.Load(t, d, snap) }

// roundTrip runs [testkit.RoundTrip] (the same answers to the rest
// of ops after a load, the same Containers, Copies and Query of every live
// document, byte-identical snapshots) and requires besides the same
// Fingerprint of every live document and the same online table (every
// later fingerprint depends on it). It returns the first snapshot.
func roundTrip(t *testing.T, mk func() *Detector, ops []op) []byte {
	tableAt := -1 // the Len at which the tables were last compared
	_, _, snap := testkit.RoundTrip(t, mk, ops, func(a, b *Detector, id, _ string) {
		if a.own && a.Len() != tableAt {
			tableAt = a.Len()
			require.Equal(t, a.IDF().Fingerprint(), b.IDF().Fingerprint(), "the online table is restored")
		}
		fa, ha, err := a.Fingerprint(id)
		require.NoError(t, err)
		fb, hb, err := b.Fingerprint(id)
		require.NoError(t, err)
		require.Equal(t, []any{fa, ha}, []any{fb, hb}, "Fingerprint(%s)", id)
	})
	return snap
}

func TestSnapshotRoundTrip(t *testing.T) {
	texts := synthTexts(100)
	ops := floodStream(texts, 3, 20)
	for _, b := range append(builds(texts), build{"Unfrozen", func(t testing.TB, cfg Config) *Detector {
		return withTable(t, cfg, texts, false)
	}}) {
		t.Run(b.name, func(t *testing.T) {
			snap := roundTrip(t, func() *Detector { return b.new(t, Config{Language: "en", MaxResults: 7}) }, ops)
			t.Logf("%d bytes", len(snap))
		})
	}
	t.Run("Empty", func(t *testing.T) {
		roundTrip(t, func() *Detector { return builds(nil)[0].new(t, Config{}) }, nil)
	})
}

// TestSnapshotRoundTripRealData round-trips Reuters-21578 with floods of
// copies, and reports the snapshot's bytes per live document.
func TestSnapshotRoundTripRealData(t *testing.T) {
	recs := dataset.Reuters(t, dataset.LongSize(500, 3000))
	texts := dataset.Texts(recs)
	ops := floodStream(texts, 4, 5)
	for _, b := range builds(texts) {
		t.Run(b.name, func(t *testing.T) {
			mk := func() *Detector { return b.new(t, Config{Language: "en"}) }
			roundTrip(t, mk, ops)
			// Bytes per document of a snapshot of distinct texts.
			d := mk()
			for i, text := range texts {
				_, err := d.Add(detector.Doc{ID: fmt.Sprintf("reuters-%05d", i), Text: text})
				require.NoError(t, err)
			}
			snap := encode(t, d)
			t.Logf("%s: %d documents, %d bytes, %.1f bytes/doc", b.name, d.Len(), len(snap), float64(len(snap))/float64(d.Len()))
		})
	}
}

// smallSnapshot is a snapshot of a few documents of a Detector with its
// own online table: a group of copies (one in capitals), a distinct text,
// a text with terms but no fingerprint, a text without terms.
func smallSnapshot(t testing.TB) (Config, []byte) {
	// WeightIDF, the default when the golden snapshot was written.
	cfg := Config{Language: "en", Features: FeatureWordNGrams, N: 4, Weights: WeightIDF}
	d, err := New(cfg)
	require.NoError(t, err)
	story := "The central bank raised its benchmark interest rate by half a point on Wednesday."
	for _, doc := range []detector.Doc{
		{ID: "a", Text: story}, {ID: "b", Text: story}, {ID: "c", Text: strings.ToUpper(story)},
		{ID: "d", Text: "A late header gave the visitors a two to one win in the cup semi-final."},
		{ID: "e", Text: "short text"}, {ID: "f", Text: "..."},
	} {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	return cfg, encode(t, d)
}

// TestSnapshotDamage reads every truncation and every single-byte change
// of a small snapshot: each must fail with ErrSnapshot and leave the
// detector empty, so that the intact snapshot then loads into it.
func TestSnapshotDamage(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d, err := New(cfg)
	require.NoError(t, err)
	testkit.Damage(t, d, snap, func(what string) { require.Zero(t, d.IDF().N(), what) })
	assert.Equal(t, 6, d.Len())
	assert.Equal(t, int64(5), d.IDF().N(), "the documents with terms are counted")
}

func TestSnapshotConfigMismatch(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	for field, other := range map[string]Config{
		"Seed":     {Language: "en", Features: FeatureWordNGrams, N: 4, Seed: 5},
		"N":        {Language: "en", Features: FeatureWordNGrams},
		"Language": {Features: FeatureWordNGrams, N: 4},
	} {
		d, err := New(other)
		require.NoError(t, err)
		testkit.Mismatch(t, d, snap, field)
	}
	d, err := New(cfg)
	require.NoError(t, err)
	load(t, d, snap)
}

// TestSnapshotTableMismatch loads snapshots into detectors with another
// caller table, or a table where the snapshot had the Detector's own, and
// the other way round: the error names the table.
func TestSnapshotTableMismatch(t *testing.T) {
	cfg, own := smallSnapshot(t)
	table := func(docs ...string) *textproc.IDF {
		idf := textproc.NewIDF(false)
		for _, doc := range docs {
			require.NoError(t, idf.AddDocument(strings.Fields(doc)))
		}
		idf.Freeze()
		return idf
	}
	withIDF := func(idf *textproc.IDF) *Detector {
		d, err := NewWithIDF(cfg, idf)
		require.NoError(t, err)
		return d
	}
	a := withIDF(table("bank rate", "cup win"))
	_, err := a.Add(detector.Doc{ID: "x", Text: "The bank raised its rate again on Monday, by a quarter point."})
	require.NoError(t, err)
	snap := encode(t, a)
	load(t, withIDF(table("bank rate", "cup win")), snap) // the same content
	for what, d := range map[string]*Detector{
		"another table": withIDF(table("bank rate")),
		"own table":     func() *Detector { d, _ := New(cfg); return d }(),
	} {
		_, err := d.ReadFrom(bytes.NewReader(snap))
		require.ErrorIs(t, err, detector.ErrSnapshot, what)
		assert.Contains(t, err.Error(), "idf table", what)
		assert.Zero(t, d.Len())
	}
	_, err = withIDF(table("bank rate")).ReadFrom(bytes.NewReader(own))
	require.ErrorIs(t, err, detector.ErrSnapshot)
	assert.Contains(t, err.Error(), "idf table")
}

func TestReadFromState(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d, err := New(cfg)
	require.NoError(t, err)
	_, err = d.Add(detector.Doc{ID: "x", Text: "The bank raised its rate again on Monday, by a quarter point."})
	require.NoError(t, err)
	testkit.NotEmpty(t, d, snap)
	assert.Equal(t, int64(1), d.IDF().N())
	testkit.Closed(t, d, snap, "The bank raised its rate again on Monday, by a quarter point.", "x")
}

// TestSnapshotV1 reads the checked-in snapshot of layout version 1 and
// requires that the documents it was made from encode to the same bytes,
// so that a change of the format is deliberate. go test ./simhash/ -run
// TestSnapshotV1 -args -update rewrites it (the header holds the effective
// Config, so a change of a default rewrites it too).
func TestSnapshotV1(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	stored := testkit.Golden(t, filepath.Join("testdata", "v1.snapshot"), snap, *update)
	d, err := New(cfg)
	require.NoError(t, err)
	load(t, d, stored)
	assert.Equal(t, 6, d.Len())
	cp, err := d.Copies("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "c"}, cp)
	ms, err := d.Containers("a")
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "b", Score: 1}, {ID: "c", Score: 1}}, ms)
	ms, err = d.Containers("e")
	require.NoError(t, err)
	assert.Empty(t, ms, "a text of terms without a fingerprint matches its digest only")
	ms, err = d.Add(detector.Doc{ID: "g", Text: "Short text."})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "e", Score: 1}}, ms)
}

// TestSnapshotWeightsNumbers checks that headers keep the numbers Weights
// had when layout version 1 was written (WeightIDF 0, WeightTFIDF 3), so
// that a snapshot loads only into a detector of the same weights.
func TestSnapshotWeightsNumbers(t *testing.T) {
	text := "The central bank raised its benchmark interest rate by half a point on Wednesday."
	snaps := map[Weights][]byte{}
	for w, stored := range map[Weights]string{WeightTFIDF: `"Weights":3`, WeightUnit: `"Weights":1`, WeightTF: `"Weights":2`, WeightIDF: `"Weights":0`} {
		d, err := New(Config{Weights: w})
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "a", Text: text})
		require.NoError(t, err)
		snaps[w] = encode(t, d)
		assert.Contains(t, string(snaps[w]), stored, "Weights %d", w)
	}
	for w, snap := range snaps {
		for other := range snaps {
			d, err := New(Config{Weights: other})
			require.NoError(t, err)
			_, err = d.ReadFrom(bytes.NewReader(snap))
			if other == w {
				require.NoError(t, err)
				assert.Equal(t, 1, d.Len())
			} else {
				require.ErrorIs(t, err, detector.ErrSnapshot, "a snapshot of Weights %d loaded into Weights %d", w, other)
			}
		}
	}
}

// FuzzReadFrom feeds ReadFrom arbitrary streams, and arbitrary section
// payloads framed with valid checksums (which random bytes never get past).
// It must never panic; a rejected input wraps ErrSnapshot and leaves the
// detector empty (its table too); an accepted one re-encodes to the same
// bytes and gives a working detector.
func FuzzReadFrom(f *testing.F) {
	cfg, snap := smallSnapshot(f)
	d, err := New(cfg)
	require.NoError(f, err)
	load(f, d, snap)
	groups, bare, _, err := d.e.Sections()
	require.NoError(f, err)
	f.Add(snap, groups, bare)
	f.Add([]byte("NEARDUP\x00"), []byte{0}, []byte{0})
	f.Add(snap[:len(snap)/2], groups[:len(groups)/2], bare)
	f.Fuzz(func(t *testing.T, raw, groups, bare []byte) {
		read := func(in []byte) error {
			d, err := New(cfg)
			require.NoError(t, err)
			if err := testkit.Read(t, d, in, func(d *Detector) {
				require.Zero(t, d.IDF().N(), "a rejected snapshot leaves the table empty")
			}); err != nil {
				return err
			}
			_, err = d.Add(detector.Doc{ID: "fuzz-new", Text: "The central bank raised its benchmark interest rate."})
			require.NoError(t, err)
			for _, id := range []string{"a", "b"} {
				if _, err := d.Containers(id); err == nil {
					require.NoError(t, d.Remove(id))
				}
			}
			return nil
		}
		_ = read(raw)
		// The payloads behind valid framing, with the trailer's count of
		// what they hold when they decode.
		d, err := New(cfg)
		require.NoError(t, err)
		count := 0
		n, derr := d.e.DecodeSections(groups, bare)
		if derr != nil {
			require.ErrorIs(t, derr, detector.ErrSnapshot)
		} else {
			count = n
		}
		header := snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: storedConfig(d.Config())}
		err = read(testkit.Frame(t, header, []string{"groups", "bare"}, [][]byte{groups, bare}, count))
		require.Equal(t, derr == nil, err == nil, "ReadFrom accepts exactly the payloads decode accepts")
	})
}

// TestConcurrentSnapshot writes snapshots while other goroutines add and
// remove: every snapshot loads, re-encodes identically, holds whole
// documents only, and restores a table that counts exactly the documents
// it holds.
func TestConcurrentSnapshot(t *testing.T) {
	texts := synthTexts(60)
	d, err := New(Config{Language: "en"})
	require.NoError(t, err)
	fresh := func() *Detector {
		e, err := New(Config{Language: "en"})
		require.NoError(t, err)
		return e
	}
	testkit.ConcurrentSnapshot(t, d, texts, fresh, func(e *Detector) {
		// The restored table counts the restored documents with terms.
		_, bare, live, err := e.e.Sections()
		require.NoError(t, err)
		dec := snapshot.NewDec(bare)
		n := live - len(dec.IDs(0))
		require.NoError(t, dec.Done())
		require.Equal(t, int64(n), e.IDF().N())
	})
	e, err := New(Config{Language: "en"})
	require.NoError(t, err)
	load(t, e, encode(t, d))
	require.Equal(t, d.IDF().Fingerprint(), e.IDF().Fingerprint(), "after the writers: the same table")
}
