package minhash

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
)

var update = flag.Bool("update", false, "rewrite testdata/v1.snapshot")

func encode(t testing.TB, d *Detector) []byte {
	t.Helper()
	var b bytes.Buffer
	n, err := d.WriteTo(&b)
	require.NoError(t, err)
	require.Equal(t, int64(b.Len()), n)
	return b.Bytes()
}

func load(t testing.TB, cfg Config, stats *Stats, snap []byte) *Detector {
	t.Helper()
	d, err := NewWithStats(cfg, stats)
	require.NoError(t, err)
	n, err := d.ReadFrom(bytes.NewReader(snap))
	require.NoError(t, err)
	require.Equal(t, int64(len(snap)), n)
	return d
}

// apply runs ops on d and returns the answers: each Add's matches.
func apply(t *testing.T, d *Detector, ops []op) [][]detector.Match {
	t.Helper()
	out := make([][]detector.Match, len(ops))
	for i, o := range ops {
		if o.remove {
			require.NoError(t, d.Remove(o.id))
			continue
		}
		ms, err := d.Add(detector.Doc{ID: o.id, Text: o.text})
		require.NoError(t, err)
		out[i] = ms
	}
	return out
}

// roundTrip snapshots a detector after the first part of ops, loads the
// snapshot into a new one, and requires both to give the same answers to
// the rest of ops (Adds, Removes, removed IDs added again), the same
// Containers, Copies and Query of every live document, and byte-identical
// snapshots at both points. It returns the snapshot.
func roundTrip(t *testing.T, cfg Config, stats *Stats, ops []op) []byte {
	t.Helper()
	cut := len(ops) * 2 / 3
	a, err := NewWithStats(cfg, stats)
	require.NoError(t, err)
	apply(t, a, ops[:cut])
	snap := encode(t, a)
	b := load(t, cfg, stats, snap)
	require.Equal(t, a.Len(), b.Len())
	require.Equal(t, snap, encode(t, b), "re-encoding a loaded snapshot")
	if a.online {
		require.Equal(t, a.stats.fingerprint(), b.stats.fingerprint(), "the online statistics are rebuilt")
	}
	rest := ops[cut:]
	for _, o := range ops[:cut] { // removed IDs come back
		if o.remove {
			rest = append(rest, op{id: o.id, text: "again " + o.id})
		}
	}
	require.Equal(t, apply(t, a, rest), apply(t, b, rest), "answers after the load")
	require.Equal(t, encode(t, a), encode(t, b))
	live := map[string]string{}
	for _, o := range append(ops, rest...) {
		if o.remove {
			delete(live, o.id)
		} else {
			live[o.id] = o.text
		}
	}
	for id, text := range live {
		ca, err := a.Containers(id)
		require.NoError(t, err)
		cb, err := b.Containers(id)
		require.NoError(t, err)
		require.Equal(t, ca, cb, "Containers(%s)", id)
		pa, err := a.Copies(id)
		require.NoError(t, err)
		pb, err := b.Copies(id)
		require.NoError(t, err)
		require.Equal(t, pa, pb, "Copies(%s)", id)
		qa, err := a.Query(detector.Doc{ID: id, Text: text})
		require.NoError(t, err)
		qb, err := b.Query(detector.Doc{ID: id, Text: text})
		require.NoError(t, err)
		require.Equal(t, qa, qb, "Query(%s)", id)
	}
	return snap
}

func TestSnapshotRoundTrip(t *testing.T) {
	texts := streamTexts(200, 6)
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

// TestSnapshotRoundTripRealData round-trips Reuters-21578 with bursts of
// copies and logs the snapshot's bytes per live document.
func TestSnapshotRoundTripRealData(t *testing.T) {
	if raceEnabled {
		t.Skip("slow under -race; TestSnapshotRoundTrip covers the locking")
	}
	recs := dataset.Reuters(t, 3000)
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
	cfg := Config{Mode: Weighted, NumHashes: 16}
	d, err := New(cfg)
	require.NoError(t, err)
	docs := synth.Docs(3, synth.Config{Seed: 21})
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
	check := func(bad []byte, what string) {
		_, err := d.ReadFrom(bytes.NewReader(bad))
		require.ErrorIs(t, err, detector.ErrSnapshot, what)
		require.Zero(t, d.Len(), what)
		require.Zero(t, d.stats.N(), what)
	}
	for n := range len(snap) {
		check(snap[:n], fmt.Sprintf("truncated to %d bytes", n))
	}
	check(append(bytes.Clone(snap), 0), "a byte after the trailer")
	for i := range snap {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(snap)
			bad[i] ^= x
			check(bad, fmt.Sprintf("byte %d ^ %#x", i, x))
		}
	}
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.NoError(t, err)
	assert.Equal(t, 5, d.Len())
	assert.Equal(t, int64(5), d.stats.N())
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
		_, err = d.ReadFrom(bytes.NewReader(snap))
		require.ErrorIs(t, err, detector.ErrSnapshot, field)
		assert.Contains(t, err.Error(), "Config."+field, "the error names the field")
		assert.Zero(t, d.Len())
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
	docs := synth.Docs(40, synth.Config{Seed: 5})
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

func TestReadFromState(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d, err := New(cfg)
	require.NoError(t, err)
	_, err = d.Add(detector.Doc{ID: "x", Text: "some words here"})
	require.NoError(t, err)
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.ErrorIs(t, err, detector.ErrSnapshot, "into a detector that is not empty")
	assert.Equal(t, 1, d.Len())
	require.NoError(t, d.Close())
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.ErrorIs(t, err, detector.ErrClosed)
	_, err = d.WriteTo(&bytes.Buffer{})
	require.ErrorIs(t, err, detector.ErrClosed)
	_, err = d.Query(detector.Doc{Text: "some words here"})
	require.ErrorIs(t, err, detector.ErrClosed)
	_, err = d.Copies("x")
	require.ErrorIs(t, err, detector.ErrClosed)
}

// TestSnapshotV1 reads the checked-in snapshot of layout version 1 and
// requires that the documents it was made from encode to the same bytes,
// so that a change of the format is deliberate. go test ./minhash/ -run
// TestSnapshotV1 -args -update rewrites it (the header holds the effective
// Config, so a change of a default rewrites it too).
func TestSnapshotV1(t *testing.T) {
	path := filepath.Join("testdata", "v1.snapshot")
	cfg, snap := smallSnapshot(t)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, snap, 0o644))
		t.Logf("wrote %s (%d bytes)", path, len(snap))
	}
	stored, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, stored, snap, "the encoding of the same documents has changed: a new layout needs a new KindVersion")
	d := load(t, cfg, nil, stored)
	assert.Equal(t, 5, d.Len())
	assert.Equal(t, int64(5), d.stats.N())
	cp, err := d.Copies("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, cp)
	ms, err := d.Containers("a")
	require.NoError(t, err)
	require.NotEmpty(t, ms)
	assert.Equal(t, detector.Match{ID: "b", Score: 1}, ms[0])
	docs := synth.Docs(3, synth.Config{Seed: 21})
	ms, err = d.Add(detector.Doc{ID: "g", Text: docs[0].Text})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}, {ID: "b", Score: 1}}, ms[:2])
}

// FuzzReadFrom feeds ReadFrom arbitrary streams, and arbitrary section
// payloads framed with valid checksums (which random bytes never get
// past). It must never panic; a rejected input wraps ErrSnapshot and
// leaves the detector empty; an accepted one re-encodes to the same bytes
// and gives a working detector.
func FuzzReadFrom(f *testing.F) {
	cfg, snap := smallSnapshot(f)
	d := load(f, cfg, nil, snap)
	groups, empty, _, err := d.encode()
	require.NoError(f, err)
	f.Add(snap, groups, empty)
	f.Add([]byte("NEARDUP\x00"), []byte{0}, []byte{0})
	f.Add(snap[:len(snap)/2], groups[:len(groups)/2], empty)
	f.Fuzz(func(t *testing.T, raw, groups, empty []byte) {
		read := func(in []byte) error {
			d, err := New(cfg)
			require.NoError(t, err)
			_, err = d.ReadFrom(bytes.NewReader(in))
			if err != nil {
				require.ErrorIs(t, err, detector.ErrSnapshot)
				require.Zero(t, d.Len(), "a rejected snapshot leaves the detector empty")
				require.Zero(t, d.stats.N())
				return err
			}
			require.Equal(t, in, encode(t, d), "an accepted snapshot re-encodes to the same bytes")
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
		count := 0
		ix, _, derr := d.decode(groups, empty)
		if derr != nil {
			require.ErrorIs(t, derr, detector.ErrSnapshot)
		} else {
			count = ix.docs.Len()
		}
		var framed bytes.Buffer
		w := snapshot.NewWriter(&framed, d.header())
		w.Section("groups", groups)
		w.Section("empty", empty)
		_, err = w.Finish(uint64(count))
		require.NoError(t, err)
		err = read(framed.Bytes())
		require.Equal(t, derr == nil, err == nil, "ReadFrom accepts exactly the payloads decode accepts")
	})
}

// TestConcurrentSnapshot writes snapshots while other goroutines add and
// remove: every snapshot loads, re-encodes identically and holds whole
// documents only.
func TestConcurrentSnapshot(t *testing.T) {
	docs := synth.Docs(80, synth.Config{Seed: 13})
	for _, cfg := range []Config{{}, {Mode: Weighted}, {Mode: Containment}} {
		t.Run(fmt.Sprint(cfg.Mode), func(t *testing.T) {
			d, err := New(cfg)
			require.NoError(t, err)
			var wg sync.WaitGroup
			for g := range 2 {
				wg.Go(func() {
					for i, doc := range docs {
						id := fmt.Sprintf("g%d-%d", g, i)
						if _, err := d.Add(detector.Doc{ID: id, Text: doc.Text}); err != nil {
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
			for range 10 {
				var b bytes.Buffer
				_, err := d.WriteTo(&b)
				require.NoError(t, err)
				e := load(t, d.Config(), nil, b.Bytes())
				require.Equal(t, b.Bytes(), encode(t, e))
			}
			wg.Wait()
			e := load(t, d.Config(), nil, encode(t, d))
			for g := range 2 {
				for i := range docs {
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
