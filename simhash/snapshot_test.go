package simhash

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

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

func encode(t testing.TB, d *Detector) []byte {
	t.Helper()
	var b bytes.Buffer
	n, err := d.WriteTo(&b)
	require.NoError(t, err)
	require.Equal(t, int64(b.Len()), n)
	return b.Bytes()
}

func load(t testing.TB, d *Detector, snap []byte) *Detector {
	t.Helper()
	n, err := d.ReadFrom(bytes.NewReader(snap))
	require.NoError(t, err)
	require.Equal(t, int64(len(snap)), n)
	return d
}

// roundTrip snapshots a detector after the first part of ops, loads the
// snapshot into a new one, and requires both to give the same answers to
// the rest of ops (the online table included: every later fingerprint
// depends on it), the same Containers, Copies, Fingerprint and Query of
// every live document, and byte-identical snapshots at both points. It
// returns the first snapshot.
func roundTrip(t *testing.T, mk func() *Detector, ops []op) []byte {
	cut := len(ops) * 2 / 3
	a := mk()
	apply(t, a, ops[:cut])
	snap := encode(t, a)
	b := load(t, mk(), snap)
	require.Equal(t, a.Len(), b.Len())
	require.Equal(t, snap, encode(t, b), "re-encoding a loaded snapshot")
	if a.turns != nil {
		require.Equal(t, a.IDF().Fingerprint(), b.IDF().Fingerprint(), "the online table is restored")
	}
	require.Equal(t, apply(t, a, ops[cut:]), apply(t, b, ops[cut:]), "answers after the load")
	require.Equal(t, encode(t, a), encode(t, b))
	live := map[string]bool{}
	texts := map[string]string{}
	for _, o := range ops {
		live[o.id] = !o.remove
		if !o.remove {
			texts[o.id] = o.text
		}
	}
	for id, ok := range live {
		if !ok {
			continue
		}
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
		qa, err := a.Query(detector.Doc{Text: texts[id]})
		require.NoError(t, err)
		qb, err := b.Query(detector.Doc{Text: texts[id]})
		require.NoError(t, err)
		require.Equal(t, qa, qb, "Query of %s's text", id)
		fa, ha, err := a.Fingerprint(id)
		require.NoError(t, err)
		fb, hb, err := b.Fingerprint(id)
		require.NoError(t, err)
		require.Equal(t, []any{fa, ha}, []any{fb, hb}, "Fingerprint(%s)", id)
	}
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
	recs := dataset.Reuters(t, 3000)
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
	cfg := Config{Language: "en", Features: FeatureWordNGrams, N: 4}
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
	check := func(bad []byte, what string) {
		_, err := d.ReadFrom(bytes.NewReader(bad))
		require.ErrorIs(t, err, detector.ErrSnapshot, what)
		require.Zero(t, d.Len(), what)
		require.Zero(t, d.IDF().N(), what)
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
	load(t, d, snap)
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
		_, err = d.ReadFrom(bytes.NewReader(snap))
		require.ErrorIs(t, err, detector.ErrSnapshot, field)
		assert.Contains(t, err.Error(), "Config."+field, "the error names the field")
		assert.Zero(t, d.Len())
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
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.ErrorIs(t, err, detector.ErrSnapshot, "into a detector that is not empty")
	assert.Equal(t, 1, d.Len())
	assert.Equal(t, int64(1), d.IDF().N())
	require.NoError(t, d.Close())
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.ErrorIs(t, err, detector.ErrClosed)
	_, err = d.WriteTo(&bytes.Buffer{})
	require.ErrorIs(t, err, detector.ErrClosed)
}

// TestSnapshotV1 reads the checked-in snapshot of layout version 1 and
// requires that the documents it was made from encode to the same bytes,
// so that a change of the format is deliberate. go test ./simhash/ -run
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
	groups, bare, _, err := d.encode()
	require.NoError(f, err)
	f.Add(snap, groups, bare)
	f.Add([]byte("NEARDUP\x00"), []byte{0}, []byte{0})
	f.Add(snap[:len(snap)/2], groups[:len(groups)/2], bare)
	f.Fuzz(func(t *testing.T, raw, groups, bare []byte) {
		read := func(in []byte) error {
			d, err := New(cfg)
			require.NoError(t, err)
			if _, err := d.ReadFrom(bytes.NewReader(in)); err != nil {
				require.ErrorIs(t, err, detector.ErrSnapshot)
				require.Zero(t, d.Len(), "a rejected snapshot leaves the detector empty")
				require.Zero(t, d.IDF().N(), "and its table")
				return err
			}
			require.Equal(t, in, encode(t, d), "an accepted snapshot re-encodes to the same bytes")
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
		st, _, derr := d.decode(groups, bare)
		if derr != nil {
			require.ErrorIs(t, derr, detector.ErrSnapshot)
		} else {
			count = st.docs.Len()
		}
		var framed bytes.Buffer
		w := snapshot.NewWriter(&framed, d.header())
		w.Section("groups", groups)
		w.Section("bare", bare)
		_, err = w.Finish(uint64(count))
		require.NoError(t, err)
		err = read(framed.Bytes())
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
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for i, text := range texts {
				id := fmt.Sprintf("g%d-%d", g, i)
				if _, err := d.Add(detector.Doc{ID: id, Text: text}); err != nil {
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
		e, err := New(Config{Language: "en"})
		require.NoError(t, err)
		load(t, e, b.Bytes())
		require.Equal(t, b.Bytes(), encode(t, e))
		// The restored table counts the restored documents with terms.
		var n int64
		for i := range e.st.hasDig {
			if e.st.docs.Live(uint32(i)) && e.st.hasDig[i] {
				n++
			}
		}
		require.Equal(t, n, e.IDF().N())
	}
	wg.Wait()
	e, err := New(Config{Language: "en"})
	require.NoError(t, err)
	load(t, e, encode(t, d))
	require.Equal(t, d.IDF().Fingerprint(), e.IDF().Fingerprint(), "after the writers: the same table")
}
