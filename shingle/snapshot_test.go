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

// roundTrip runs the first half of ops, snapshots the detector, loads the
// snapshot into a new one and requires both to give the same answers to
// the rest of ops (Query before each Add, the Add, Containers, Query and
// Copies of live documents), with byte-identical snapshots before and
// after. It returns the snapshot's size and the documents it holds.
func roundTrip(t *testing.T, cfg Config, ops []op) (bytes, docs int) {
	t.Helper()
	a, err := New(cfg)
	require.NoError(t, err)
	half := len(ops) / 2
	texts := map[string]string{}
	run := func(d *Detector, o op) []detector.Match {
		if o.Remove {
			require.NoError(t, d.Remove(o.ID))
			return nil
		}
		ms, err := d.Add(detector.Doc{ID: o.ID, Text: o.Text})
		require.NoError(t, err)
		return ms
	}
	for _, o := range ops[:half] {
		run(a, o)
		if !o.Remove {
			texts[o.ID] = o.Text
		}
	}
	snap := encodeSnap(t, a)
	b := loadSnap(t, cfg, snap)
	require.Equal(t, snap, encodeSnap(t, b), "a decoded snapshot re-encodes to the same bytes")
	require.Equal(t, a.Len(), b.Len())
	docs = a.Len()
	same := func(step int) {
		k := 0
		for id, text := range texts {
			if _, err := a.Copies(id); err != nil {
				continue // removed
			}
			if k++; step < len(ops) && k%4 != 0 {
				continue // a sample, but every document at the end
			}
			ca, err := a.Containers(id)
			require.NoError(t, err)
			cb, err := b.Containers(id)
			require.NoError(t, err)
			require.Equal(t, ca, cb, "step %d: Containers(%s)", step, id)
			pa, _ := a.Copies(id)
			pb, err := b.Copies(id)
			require.NoError(t, err)
			require.Equal(t, pa, pb, "step %d: Copies(%s)", step, id)
			qa, err := a.Query(detector.Doc{ID: id, Text: text})
			require.NoError(t, err)
			qb, err := b.Query(detector.Doc{ID: id, Text: text})
			require.NoError(t, err)
			require.Equal(t, qa, qb, "step %d: Query(%s)", step, id)
		}
	}
	same(half)
	for i, o := range ops[half:] {
		if !o.Remove {
			doc := detector.Doc{ID: o.ID, Text: o.Text}
			qa, err := a.Query(doc)
			require.NoError(t, err)
			qb, err := b.Query(doc)
			require.NoError(t, err)
			require.Equal(t, qa, qb, "step %d: Query(%s)", half+i, o.ID)
			texts[o.ID] = o.Text
		}
		require.Equal(t, run(a, o), run(b, o), "step %d: %+v", half+i, o.ID)
		if i%50 == 0 {
			same(half + i)
		}
	}
	same(len(ops))
	end := encodeSnap(t, a)
	require.Equal(t, end, encodeSnap(t, b), "both detectors hold the same state at the end")
	return len(snap), docs
}

// TestSnapshotRoundTrip round-trips every Method on the synthetic flood
// stream, and an empty detector.
func TestSnapshotRoundTrip(t *testing.T) {
	ops := floodStream(synthTexts(120, 5), 5, 8)
	for _, fc := range floodConfigs {
		t.Run(fc.name, func(t *testing.T) {
			cfg := fc.cfg
			cfg.MaxResults = 7
			size, docs := roundTrip(t, cfg, ops)
			t.Logf("%s: %d bytes for %d documents", fc.name, size, docs)
		})
	}
	t.Run("empty", func(t *testing.T) {
		roundTrip(t, Config{}, nil)
		roundTrip(t, Config{Method: SpotSigs}, nil)
	})
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
			size, docs := roundTrip(t, Config{Language: "en", Method: method}, ops)
			t.Logf("%v: %d bytes for %d documents, %.0f bytes per document", method, size, docs, float64(size)/float64(docs))
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

func TestSnapshotDamage(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d, err := New(cfg)
	require.NoError(t, err)
	testkit.Damage(t, d, snap, nil)
	assert.Equal(t, len(smallDocs), d.Len())
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

func TestReadFromState(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d, err := New(cfg)
	require.NoError(t, err)
	_, err = d.Add(detector.Doc{ID: "x", Text: smallStory})
	require.NoError(t, err)
	testkit.NotEmpty(t, d, snap)
	testkit.Closed(t, d, snap, smallStory, "x")
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
