package minhash

import (
	"bytes"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite testdata/v1.snapshot")

func encode(t testing.TB, d *Detector) []byte { return testkit.Encode(t, d) }

func mustNew(t testing.TB, cfg Config, stats *Stats) *Detector {
	t.Helper()
	d, err := NewWithStats(cfg, stats)
	require.NoError(t, err)
	return d
}

func load(t testing.TB, cfg Config, stats *Stats, snap []byte) *Detector {
	t.Helper()
	return testkit.Load(t, mustNew(t, cfg, stats), snap)
}

// roundTrip runs [testkit.RoundTrip] on ops followed by an Add of
// every removed ID again: a snapshot taken after the first part loads into
// a new detector that then answers the rest (Adds, Removes, removed IDs
// added again) alike, with the same online statistics, the same
// Containers, Copies and Query of every live document (under no ID and
// under its own), and byte-identical snapshots at both points. It returns
// the snapshot.
func roundTrip(t *testing.T, cfg Config, stats *Stats, ops []op) []byte {
	t.Helper()
	all := slices.Clone(ops)
	for _, o := range ops { // removed IDs come back
		if o.Remove {
			all = append(all, op{ID: o.ID, Text: "again " + o.ID})
		}
	}
	same := func(a, b *Detector, id, text string) {
		if a.a.online {
			require.Equal(t, a.liveStats().fingerprint(), b.liveStats().fingerprint(), "the online statistics are rebuilt")
		}
		qa, err := a.Query(detector.Doc{ID: id, Text: text})
		require.NoError(t, err)
		qb, err := b.Query(detector.Doc{ID: id, Text: text})
		require.NoError(t, err)
		require.Equal(t, qa, qb, "Query(%s)", id)
	}
	_, _, snap := testkit.RoundTrip(t, func() *Detector { return mustNew(t, cfg, stats) }, all, same)
	return snap
}

// TestSnapshotRoundTrip round-trips a stream of 100 synthetic texts (200
// with NEARDUP_LONG) with floods of copies and removals, in every
// reference Config.
func TestSnapshotRoundTrip(t *testing.T) {
	texts := streamTexts(dataset.LongSize(100, 200), 6)
	ops := floodStream(texts, 3, 8)
	stats, err := NewStats(Config{Mode: Weighted})
	require.NoError(t, err)
	for _, text := range texts[:80] {
		stats.AddDocument(text)
	}
	cfgs := referenceConfigs(stats)
	cfgs = append(cfgs, struct {
		name  string
		cfg   Config
		stats *Stats
	}{"ICWSPercentile", Config{Mode: Weighted, Sampler: IoffeICWS, Rare: RarePercentile, NumHashes: 32, MaxResults: 4}, nil},
		struct {
			name  string
			cfg   Config
			stats *Stats
		}{"KHashCap", Config{Scheme: KHash, NumHashes: 64, MaxResults: 2}, nil})
	for _, tc := range cfgs {
		t.Run(tc.name, func(t *testing.T) {
			roundTrip(t, tc.cfg, tc.stats, ops)
		})
	}
	t.Run("empty", func(t *testing.T) {
		roundTrip(t, Config{Mode: Weighted}, nil, nil)
	})
}

// TestSnapshotRoundTripRealData round-trips the first 150 Reuters-21578
// stories (3,000 with NEARDUP_LONG) with bursts of copies and logs the
// snapshot's bytes per live document.
func TestSnapshotRoundTripRealData(t *testing.T) {
	if raceEnabled {
		t.Skip("slow under -race; TestSnapshotRoundTrip covers the locking")
	}
	recs := dataset.Reuters(t, dataset.LongSize(150, 3000))
	ops := floodStream(dataset.Texts(recs), 4, 5)
	for _, tc := range referenceConfigs(nil)[:4] {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Language = "en"
			snap := roundTrip(t, cfg, nil, ops)
			d := load(t, cfg, nil, snap)
			t.Logf("%s: %d bytes for %d live documents in %d groups: %.0f bytes per document", tc.name, len(snap), d.Len(),
				len(liveGroups(d)), float64(len(snap))/float64(d.Len()))
		})
	}
}

// smallSnapshot is a snapshot of a few documents in Weighted mode with
// online statistics: a group of copies, a near-copy, a document without
// words, a removed document.
func smallSnapshot(t testing.TB) (Config, []byte) {
	// Darts and df⁴, the defaults when version 1 was written: the
	// checked-in snapshot (whose header says Sampler 0 and holds the
	// effective Power) must keep loading into it.
	cfg := Config{Mode: Weighted, NumHashes: 16, Sampler: Darts, Power: 4}
	d, err := New(cfg)
	require.NoError(t, err)
	docs := dataset.SynthDocs(3, dataset.SynthConfig{Seed: 21})
	for _, doc := range []detector.Doc{
		{ID: "a", Text: docs[0].Text}, {ID: "b", Text: docs[0].Text}, {ID: "c", Text: docs[0].Text + " and one more sentence"},
		{ID: "d", Text: docs[1].Text}, {ID: "e", Text: "..."}, {ID: "f", Text: docs[2].Text},
	} {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	require.NoError(t, d.Remove("f"))
	return d.Config(), encode(t, d)
}

// TestSnapshotDamage reads every truncation and every single-byte change
// of a small snapshot: each must fail with ErrSnapshot and leave the
// detector empty, so that the intact snapshot then loads into it.
func TestSnapshotDamage(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d, err := New(cfg)
	require.NoError(t, err)
	testkit.Damage(t, d, snap, func(what string) { require.Zero(t, d.liveStats().N(), what) })
	assert.Equal(t, 5, d.Len())
	assert.Equal(t, int64(5), d.liveStats().N())
}

func TestSnapshotConfigMismatch(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	for field, change := range map[string]func(*Config){
		"Threshold": func(c *Config) { c.Threshold = 0.5 },
		"Mode":      func(c *Config) { c.Mode = Jaccard },
		"NumHashes": func(c *Config) { c.NumHashes = 32 },
		"Seed":      func(c *Config) { c.Seed = 7 },
	} {
		other := cfg
		change(&other)
		d, err := New(other)
		require.NoError(t, err)
		testkit.Mismatch(t, d, snap, field)
	}
	d, err := New(cfg)
	require.NoError(t, err)
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.NoError(t, err)
}

// TestSnapshotStatsMismatch requires the caller-owned statistics of the
// loading Detector to be the saving one's: other counts, or none, are an
// error naming the Stats table.
func TestSnapshotStatsMismatch(t *testing.T) {
	docs := dataset.SynthDocs(40, dataset.SynthConfig{Seed: 5})
	cfg := Config{Mode: Weighted}
	stats, err := NewStats(cfg)
	require.NoError(t, err)
	for _, doc := range docs[:20] {
		stats.AddDocument(doc.Text)
	}
	d, err := NewWithStats(cfg, stats)
	require.NoError(t, err)
	for _, doc := range docs[20:] {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	snap := encode(t, d)

	same, err := NewStats(cfg)
	require.NoError(t, err)
	for i := 19; i >= 0; i-- { // the same counts in another order
		same.AddDocument(docs[i].Text)
	}
	b := load(t, cfg, same, snap)
	assert.Equal(t, 20, b.Len())

	other, err := NewStats(cfg)
	require.NoError(t, err)
	for _, doc := range docs[:19] {
		other.AddDocument(doc.Text)
	}
	for name, st := range map[string]*Stats{"other counts": other, "online statistics": nil} {
		e, err := NewWithStats(cfg, st)
		require.NoError(t, err)
		_, err = e.ReadFrom(bytes.NewReader(snap))
		require.ErrorIs(t, err, detector.ErrSnapshot, name)
		assert.Contains(t, err.Error(), "Stats", name)
		assert.Zero(t, e.Len())
	}
	// The caller updates its statistics: the snapshot no longer matches.
	stats.AddDocument(docs[30].Text)
	e, err := NewWithStats(cfg, stats)
	require.NoError(t, err)
	_, err = e.ReadFrom(bytes.NewReader(snap))
	require.ErrorIs(t, err, detector.ErrSnapshot)
}

// TestSnapshotV1 reads the checked-in snapshot of layout version 1 and
// requires that the documents it was made from encode to the same bytes,
// so that a change of the format is deliberate. go test ./minhash/ -run
// TestSnapshotV1 -args -update rewrites it (the header holds the effective
// Config, so a change of a default rewrites it too).
func TestSnapshotV1(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	stored := testkit.Golden(t, filepath.Join("testdata", "v1.snapshot"), snap, *update)
	d := load(t, cfg, nil, stored)
	assert.Equal(t, stored, encode(t, d), "the golden re-encodes byte for byte")
	assert.Equal(t, 5, d.Len())
	assert.Equal(t, int64(5), d.liveStats().N())
	cp, err := d.Copies("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, cp)
	ms, err := d.Containers("a")
	require.NoError(t, err)
	require.NotEmpty(t, ms)
	assert.Equal(t, detector.Match{ID: "b", Score: 1}, ms[0])
	docs := dataset.SynthDocs(3, dataset.SynthConfig{Seed: 21})
	ms, err = d.Add(detector.Doc{ID: "g", Text: docs[0].Text})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}, {ID: "b", Score: 1}}, ms[:2])
	// Written while Darts and df⁴ were the defaults, it says Sampler 0 and
	// Power 4: it must not load into a detector of today's default sampler
	// or power, whose signatures it would silently mix with its own.
	for field, cfg := range map[string]Config{
		"Sampler": {Mode: Weighted, NumHashes: 16, Power: 4},
		"Power":   {Mode: Weighted, NumHashes: 16},
	} {
		def := mustNew(t, cfg, nil)
		_, err = def.ReadFrom(bytes.NewReader(stored))
		require.ErrorIs(t, err, detector.ErrSnapshot, field)
		assert.Contains(t, err.Error(), field)
		assert.Zero(t, def.Len(), field)
	}
}

// FuzzReadFrom feeds ReadFrom arbitrary streams, and arbitrary section
// payloads framed with valid checksums (which random bytes never get
// past). It must never panic; a rejected input wraps ErrSnapshot and
// leaves the detector empty; an accepted one re-encodes to the same bytes
// and gives a working detector.
func FuzzReadFrom(f *testing.F) {
	cfg, snap := smallSnapshot(f)
	d := load(f, cfg, nil, snap)
	secs, _, err := d.e.SectionList()
	require.NoError(f, err)
	groups, empty := secs[0], secs[1]
	f.Add(snap, groups, empty)
	f.Add([]byte("NEARDUP\x00"), []byte{0}, []byte{0})
	f.Add(snap[:len(snap)/2], groups[:len(groups)/2], empty)
	f.Fuzz(func(t *testing.T, raw, groups, empty []byte) {
		read := func(in []byte) error {
			d, err := New(cfg)
			require.NoError(t, err)
			if err := testkit.Read(t, d, in, func(d *Detector) { require.Zero(t, d.liveStats().N()) }); err != nil {
				return err
			}
			_, err = d.Add(detector.Doc{ID: "fuzz-new", Text: "a text of a few words to add"})
			require.NoError(t, err)
			for _, id := range []string{"a", "b", "e"} {
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
		count, derr := d.e.DecodeSectionList([][]byte{groups, empty})
		if derr != nil {
			require.ErrorIs(t, derr, detector.ErrSnapshot)
		}
		header := snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: storedConfig(d.a.cfg)}
		framed := testkit.Frame(t, header, []string{"groups", "empty"}, [][]byte{groups, empty}, count)
		err = read(framed)
		require.Equal(t, derr == nil, err == nil, "ReadFrom accepts exactly the payloads decode accepts")
	})
}

// TestConcurrentSnapshot writes snapshots while other goroutines add and
// remove: every snapshot loads, re-encodes identically and holds whole
// documents only.
func TestConcurrentSnapshot(t *testing.T) {
	var texts []string
	for _, doc := range dataset.SynthDocs(80, dataset.SynthConfig{Seed: 13}) {
		texts = append(texts, doc.Text)
	}
	for _, cfg := range []Config{{}, {Mode: Weighted}, {Mode: Containment}} {
		t.Run(fmt.Sprint(cfg.Mode), func(t *testing.T) {
			d, err := New(cfg)
			require.NoError(t, err)
			testkit.ConcurrentSnapshot(t, d, texts, func() *Detector { return mustNew(t, d.Config(), nil) }, nil)
			e := load(t, d.Config(), nil, encode(t, d))
			for g := range 2 {
				for i := range texts {
					id := fmt.Sprintf("g%d-%d", g, i)
					x, errX := d.Containers(id)
					y, errY := e.Containers(id)
					require.Equal(t, errX == nil, errY == nil)
					require.Equal(t, x, y, "Containers(%s)", id)
				}
			}
		})
	}
}
