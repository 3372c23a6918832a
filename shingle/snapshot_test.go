package shingle

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

func encodeSnap(t testing.TB, d *Detector) []byte { return testkit.Encode(t, d) }

func loadSnap(t testing.TB, cfg Config, snap []byte) *Detector {
	t.Helper()
	d, err := New(cfg)
	require.NoError(t, err)
	return testkit.Load(t, d, snap)
}

// TestSnapshotRoundTripRealData round-trips every Method on the first 300
// Reuters-21578 stories (1,000 with NEARDUP_LONG) with floods of copies,
// and logs the snapshot's bytes per document.
func TestSnapshotRoundTripRealData(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("compares every answer of two detectors on real data")
	}
	recs := dataset.Reuters(t, dataset.LongSize(300, 1000))
	ops := floodStream(dataset.Texts(recs), 4, 5)
	for _, method := range []Method{FullFingerprint, DSC, SpotSigs} {
		t.Run(method.String(), func(t *testing.T) {
			a, _, snap := testkit.RoundTrip(t, func() *Detector {
				d, err := New(Config{Language: "en", Method: method})
				require.NoError(t, err)
				return d
			}, ops, nil)
			t.Logf("%v: %d bytes for %d documents", method, len(snap), a.Len())
		})
	}
}

// smallSnapshot is a SpotSigs snapshot of a few documents: copies, a
// near-copy, a text too short to be counted (twice) and one without words.
func smallSnapshot(t testing.TB) (Config, []byte) {
	cfg := Config{Language: "en", Method: SpotSigs, MinSignatures: 2, MinIDF: -1, MaxIDF: 2, MinOverlap: 1}
	d, err := New(cfg)
	require.NoError(t, err)
	for _, doc := range smallDocs {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	return cfg, encodeSnap(t, d)
}

const smallStory = "The company said the sale was completed on Monday and the proceeds were used to repay debt. " +
	"The chairman said the board was pleased, and the shares of the company were up in the morning."

var smallDocs = []detector.Doc{
	{ID: "a", Text: smallStory},
	{ID: "b", Text: smallStory},
	{ID: "c", Text: smallStory + " The analyst said the outlook was good."},
	{ID: "d", Text: "It is the end."},
	{ID: "e", Text: "It is the end."},
	{ID: "f", Text: "..."},
}

// TestSnapshotNotCanonical feeds well-framed sections whose content the
// Config could not have produced, or not in canonical form.
func TestSnapshotNotCanonical(t *testing.T) {
	frame := func(cfg Config, groups, empty []byte, docs uint64) []byte {
		var b bytes.Buffer
		w := snapshot.NewWriter(&b, snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: cfg})
		w.Section("groups", groups)
		w.Section("empty", empty)
		_, err := w.Finish(docs)
		require.NoError(t, err)
		return b.Bytes()
	}
	ffp := func(size int, feats []uint64, ids ...string) []byte {
		var e snapshot.Enc
		e.Int(1)
		e.Int(size)
		e.Int(len(feats))
		for _, f := range feats {
			e.U64(f)
		}
		e.Strings(ids)
		return e.B
	}
	none := []byte{0}
	ffpCfg, err := Config{}.withDefaults()
	require.NoError(t, err)
	for name, snap := range map[string][]byte{
		"features out of order": frame(ffpCfg, ffp(2, []uint64{5, 3}, "a"), none, 1),
		"size not the features": frame(ffpCfg, ffp(3, []uint64{3, 5}, "a"), none, 1),
		"no feature":            frame(ffpCfg, ffp(0, nil, "a"), none, 1),
		"IDs out of order":      frame(ffpCfg, ffp(2, []uint64{3, 5}, "b", "a"), none, 2),
		"no member":             frame(ffpCfg, ffp(2, []uint64{3, 5}), none, 0),
		"document count":        frame(ffpCfg, ffp(2, []uint64{3, 5}, "a"), none, 2),
		"one ID twice":          frame(ffpCfg, ffp(2, []uint64{3, 5}, "a"), append([]byte{1, 1}, 'a'), 2),
	} {
		d, err := New(Config{})
		require.NoError(t, err)
		_, err = d.ReadFrom(bytes.NewReader(snap))
		require.ErrorIs(t, err, detector.ErrSnapshot, name)
		assert.Zero(t, d.Len(), name)
	}
	good := frame(ffpCfg, ffp(2, []uint64{3, 5}, "a", "b"), none, 2)
	d := loadSnap(t, Config{}, good)
	cp, err := d.Copies("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, cp)
}

func TestSnapshotConfigMismatch(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	for field, other := range map[string]Config{
		"Threshold":     {Language: "en", Method: SpotSigs, MinSignatures: 2, MinIDF: -1, MaxIDF: 2, MinOverlap: 1, Threshold: 0.5},
		"Method":        {Language: "en", MinSignatures: 2, MinIDF: -1, MaxIDF: 2, MinOverlap: 1},
		"Language":      {Language: "tr", Method: SpotSigs, MinSignatures: 2, MinIDF: -1, MaxIDF: 2, MinOverlap: 1},
		"MinSignatures": {Language: "en", Method: SpotSigs, MinIDF: -1, MaxIDF: 2, MinOverlap: 1},
	} {
		d, err := New(other)
		require.NoError(t, err)
		testkit.Mismatch(t, d, snap, field)
	}
	loadSnap(t, cfg, snap)
}

func FuzzReadFrom(f *testing.F) {
	cfg, snap := smallSnapshot(f)
	d := loadSnap(f, cfg, snap)
	groups, empty, _, err := d.e.Sections()
	require.NoError(f, err)
	f.Add(snap, groups, empty)
	f.Add([]byte("NEARDUP\x00"), []byte{0}, []byte{0})
	f.Add(snap[:len(snap)/2], groups[:len(groups)/2], empty)
	for _, c := range []Config{{}, {Method: DSC, SuperShingle: 2}} {
		e, err := New(c)
		require.NoError(f, err)
		for _, doc := range smallDocs {
			_, err := e.Add(doc)
			require.NoError(f, err)
		}
		g, em, _, err := e.e.Sections()
		require.NoError(f, err)
		f.Add(encodeSnap(f, e), g, em)
	}
	f.Fuzz(func(t *testing.T, raw, groups, empty []byte) {
		for _, c := range []Config{cfg, {}, {Method: DSC, SuperShingle: 2}} {
			d, err := New(c)
			require.NoError(t, err)
			if testkit.Read(t, d, raw, nil) == nil {
				_, err = d.Add(detector.Doc{ID: "fuzz-new", Text: smallStory})
				require.NoError(t, err)
			}
			// The sections alone, framed correctly.
			count, derr := d.e.DecodeSections(groups, empty)
			if derr != nil {
				require.ErrorIs(t, derr, detector.ErrSnapshot)
			}
			framed := testkit.Frame(t, snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: d.Config()},
				[]string{"groups", "empty"}, [][]byte{groups, empty}, count)
			e, err := New(c)
			require.NoError(t, err)
			if testkit.Read(t, e, framed, nil) == nil {
				require.NoError(t, derr)
				_, err = e.Add(detector.Doc{ID: "fuzz-new", Text: smallStory})
				require.NoError(t, err)
				_, err = e.Query(detector.Doc{Text: smallStory})
				require.NoError(t, err)
			}
		}
	})
}

// TestSnapshotDuringAdds takes snapshots while goroutines add and remove
// documents: each snapshot loads and re-encodes to the same bytes.
func TestSnapshotDuringAdds(t *testing.T) {
	texts := synthTexts(120, 8)
	for _, fc := range floodConfigs {
		t.Run(fc.name, func(t *testing.T) {
			d, err := New(fc.cfg)
			require.NoError(t, err)
			var wg sync.WaitGroup
			for w := range 2 {
				wg.Go(func() {
					for i, text := range texts {
						id := fmt.Sprintf("w%d-%d", w, i)
						if _, err := d.Add(detector.Doc{ID: id, Text: text}); err != nil {
							t.Error(err)
							return
						}
						// Copies of one text from both goroutines race into one group.
						if _, err := d.Add(detector.Doc{ID: id + "c", Text: texts[i%7]}); err != nil {
							t.Error(err)
							return
						}
						if i%3 == 0 {
							if err := d.Remove(id); err != nil {
								t.Error(err)
								return
							}
						}
					}
				})
			}
			for range 8 {
				var b bytes.Buffer
				_, err := d.WriteTo(&b)
				require.NoError(t, err)
				e := loadSnap(t, d.Config(), b.Bytes())
				require.Equal(t, b.Bytes(), encodeSnap(t, e))
			}
			wg.Wait()
			snap := encodeSnap(t, d)
			e := loadSnap(t, d.Config(), snap)
			assert.Equal(t, d.Len(), e.Len())
			assert.True(t, strings.HasPrefix(string(snap), snapshot.Magic))
		})
	}
}
