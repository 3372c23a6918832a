package tweezer

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
)

// apply runs ops on d and returns the answers: each Add's matches, or
// the error of a Remove.
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

func load(t testing.TB, cfg Config, snap []byte) *Detector {
	t.Helper()
	d, err := New(cfg)
	require.NoError(t, err)
	n, err := d.ReadFrom(bytes.NewReader(snap))
	require.NoError(t, err)
	require.Equal(t, int64(len(snap)), n)
	return d
}

// roundTrip snapshots a detector after the first part of ops, loads the
// snapshot into a new one, and requires both to give the same answers to
// the rest of ops, the same Containers and Copies of every live document,
// and byte-identical snapshots at both points.
func roundTrip(t *testing.T, cfg Config, ops []op) {
	cut := len(ops) * 2 / 3
	a, err := New(cfg)
	require.NoError(t, err)
	apply(t, a, ops[:cut])
	snap := encode(t, a)
	b := load(t, cfg, snap)
	require.Equal(t, a.Len(), b.Len())
	require.Equal(t, snap, encode(t, b), "re-encoding a loaded snapshot")
	require.Equal(t, apply(t, a, ops[cut:]), apply(t, b, ops[cut:]), "answers after the load")
	require.Equal(t, encode(t, a), encode(t, b))
	live := map[string]bool{}
	for _, o := range ops {
		live[o.id] = !o.remove
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
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	texts := stressTexts(100)
	texts = append(texts, "", "bu metinde hiç özel isim yok.", "...")
	ops := floodStream(texts, 3, 20)
	for _, mode := range []Mode{Overlap, Exact, Jaccard} {
		t.Run(mode.String(), func(t *testing.T) {
			roundTrip(t, Config{Language: "tr", Mode: mode, MaxResults: 7}, ops)
		})
	}
	t.Run("empty", func(t *testing.T) {
		roundTrip(t, Config{}, nil)
	})
}

func TestSnapshotRoundTripRealData(t *testing.T) {
	recs := dataset.Reuters(t, 3000)
	ops := floodStream(dataset.Texts(recs), 4, 5)
	roundTrip(t, Config{Language: "en"}, ops)
}

// smallSnapshot is a snapshot of a few documents: a group of copies, a
// caseless copy, a document without words, in Overlap mode.
func smallSnapshot(t testing.TB) (Config, []byte) {
	cfg := Config{Language: "tr"}
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
}

func TestSnapshotConfigMismatch(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	for field, other := range map[string]Config{
		"Threshold": {Language: "tr", Threshold: 0.5},
		"Mode":      {Language: "tr", Mode: Exact},
		"Language":  {Language: "en"},
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

func TestReadFromState(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d, err := New(cfg)
	require.NoError(t, err)
	_, err = d.Add(detector.Doc{ID: "x", Text: fig41})
	require.NoError(t, err)
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.ErrorIs(t, err, detector.ErrSnapshot, "into a detector that is not empty")
	assert.Equal(t, 1, d.Len())
	require.NoError(t, d.Close())
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.ErrorIs(t, err, detector.ErrClosed)
	_, err = d.WriteTo(&bytes.Buffer{})
	require.ErrorIs(t, err, detector.ErrClosed)
	_, err = d.Query(detector.Doc{Text: fig41})
	require.ErrorIs(t, err, detector.ErrClosed)
	_, err = d.Copies("x")
	require.ErrorIs(t, err, detector.ErrClosed)
}

// TestSnapshotV1 reads the checked-in snapshot of layout version 1 and
// requires that the documents it was made from encode to the same bytes,
// so that a change of the format is deliberate. go test ./tweezer/ -run
// TestSnapshotV1 -args -update rewrites it (the header holds the effective
// Config, so a change of a default rewrites it too).
func TestSnapshotV1(t *testing.T) {
	path := filepath.Join("testdata", "v1.snapshot")
	cfg, snap := smallSnapshot(t)
	if *update {
		require.NoError(t, os.WriteFile(path, snap, 0o644))
		t.Logf("wrote %s (%d bytes)", path, len(snap))
	}
	stored, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, stored, snap, "the encoding of the same documents has changed: a new layout needs a new KindVersion")
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
	groups, empty, _, err := d.encode()
	require.NoError(f, err)
	f.Add(snap, groups, empty)
	f.Add([]byte("NEARDUP\x00"), []byte{0}, []byte{0})
	f.Add(snap[:len(snap)/2], groups[:len(groups)/2], empty)
	// Detectors share one Signer: building the recogniser of each would
	// cost more than the rest of an execution.
	signer := d.signer
	fresh := func() *Detector { return &Detector{signer: signer, ix: newIndex(signer.cfg.MaxTextBytes)} }
	f.Fuzz(func(t *testing.T, raw, groups, empty []byte) {
		read := func(in []byte) (*Detector, error) {
			d := fresh()
			_, err := d.ReadFrom(bytes.NewReader(in))
			if err != nil {
				require.ErrorIs(t, err, detector.ErrSnapshot)
				require.Zero(t, d.Len(), "a rejected snapshot leaves the detector empty")
				return nil, err
			}
			require.Equal(t, in, encode(t, d), "an accepted snapshot re-encodes to the same bytes")
			_, err = d.Add(detector.Doc{ID: "fuzz-new", Text: fig41})
			require.NoError(t, err)
			return d, nil
		}
		read(raw)
		// The payloads behind valid framing, with the trailer's count
		// of what they hold when they decode.
		d := fresh()
		count := 0
		ix, derr := d.decode(groups, empty)
		if derr != nil {
			require.ErrorIs(t, derr, detector.ErrSnapshot)
		} else {
			count = ix.docs.Len()
		}
		var framed bytes.Buffer
		w := snapshot.NewWriter(&framed, snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: d.Config()})
		w.Section("groups", groups)
		w.Section("empty", empty)
		_, err := w.Finish(uint64(count))
		require.NoError(t, err)
		_, err = read(framed.Bytes())
		require.Equal(t, derr == nil, err == nil, "ReadFrom accepts exactly the payloads decode accepts")
	})
}

// TestConcurrentSnapshot writes snapshots while other goroutines add and
// remove: every snapshot loads, re-encodes identically and holds whole
// documents only.
func TestConcurrentSnapshot(t *testing.T) {
	texts := stressTexts(60)
	d, err := New(Config{Language: "tr"})
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
		e := load(t, d.Config(), b.Bytes())
		require.Equal(t, b.Bytes(), encode(t, e))
	}
	wg.Wait()
}
