package imatch

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
	"github.com/seed-9ef9c1df/neardup/textproc"
)

var update = flag.Bool("update", false, "rewrite testdata/v1.snapshot")

// header is the snapshot header d writes, for framing payloads.
func header(d *Detector) snapshot.Header {
	h := snapshot.Header{Kind: "imatch", KindVersion: snapshotVersion, Config: d.cfg}
	if d.idf != nil {
		name := "idf"
		if d.alg.exact {
			name = "idf-unfrozen"
		}
		h.Tables = map[string]uint64{name: d.idf.Fingerprint()}
	}
	return h
}

func apply(t *testing.T, d *Detector, ops []op) [][]detector.Match {
	return testkit.Apply(t, d, ops)
}

func encode(t testing.TB, d *Detector) []byte { return testkit.Encode(t, d) }

func loadInto(t testing.TB, d *Detector, snap []byte) *Detector {
	return testkit.Load(t, d, snap)
}

// sameSignature is the check of this package that
// [testkit.RoundTrip] adds for every live document: the same
// Signature, and an online table that counts the same documents.
func sameSignature(t *testing.T) func(a, b *Detector, id, text string) {
	return func(a, b *Detector, id, _ string) {
		if a.alg.own {
			require.Equal(t, a.IDF().N(), b.IDF().N(), "the online table counts the same documents")
		}
		sa, err := a.Signature(id)
		require.NoError(t, err)
		sb, err := b.Signature(id)
		require.NoError(t, err)
		require.Equal(t, sa, sb, "Signature(%s)", id)
	}
}

// sameGone requires a and b to answer alike for the IDs of ops that are
// not live: the same errors of Containers, Copies and Signature, and the
// same Query of their texts.
func sameGone(t *testing.T, a, b *Detector, ops []op) {
	t.Helper()
	for _, o := range ops {
		if _, err := a.Copies(o.ID); err == nil {
			continue // live: testkit.SameLookups checked it
		}
		ca, ea := a.Containers(o.ID)
		cb, eb := b.Containers(o.ID)
		require.Equal(t, ea == nil, eb == nil, o.ID)
		require.Equal(t, ca, cb, "Containers(%s)", o.ID)
		pa, _ := a.Copies(o.ID)
		pb, _ := b.Copies(o.ID)
		require.Equal(t, pa, pb, "Copies(%s)", o.ID)
		sa, _ := a.Signature(o.ID)
		sb, _ := b.Signature(o.ID)
		require.Equal(t, sa, sb, "Signature(%s)", o.ID)
		if o.Text != "" {
			qa, err := a.Query(detector.Doc{Text: o.Text})
			require.NoError(t, err)
			qb, err := b.Query(detector.Doc{Text: o.Text})
			require.NoError(t, err)
			require.Equal(t, qa, qb, "Query of %s's text", o.ID)
		}
	}
}

// roundTrip runs [testkit.RoundTrip] (a snapshot taken after the
// first part of ops loads into a new detector made the same way, which
// then answers the rest of ops and every lookup alike, with
// byte-identical snapshots at both points) with the checks of this
// package, and returns the size of the snapshot.
func roundTrip(t *testing.T, build func() *Detector, ops []op) int {
	a, b, snap := testkit.RoundTrip(t, build, ops, sameSignature(t))
	sameGone(t, a, b, ops)
	return len(snap)
}

// TestSnapshotRoundTrip round-trips floods of copies with removals, for
// every way a Detector is built, both selections and lexicons; the
// restored online table must weigh later documents exactly as the
// original's (band selection reads N as well as the frequencies).
func TestSnapshotRoundTrip(t *testing.T) {
	texts := floodTexts()
	ops := floodStream(texts, 4, 20)
	for _, cfg := range []Config{{}, {Selection: SelectBand, Lexicons: 3, MaxResults: 4}} {
		for name, build := range builds(t, cfg, texts) {
			t.Run(fmt.Sprintf("%s/sel%d", name, cfg.Selection), func(t *testing.T) {
				roundTrip(t, build, ops)
			})
		}
	}
}

// TestSnapshotRoundTripRealData round-trips the first 250 documents (500
// with NEARDUP_LONG) of the Gold Set and Reuters-21578 with copies, and reports the snapshot's bytes per live
// document (the own table stores each content's distinct terms).
func TestSnapshotRoundTripRealData(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("real data: not under -short or -race")
	}
	for _, file := range []string{"goldset-dev.jsonl", "reuters21578.jsonl"} {
		t.Run(file, func(t *testing.T) {
			recs := dataset.ForTest(t, file)
			texts := dataset.Texts(recs[:min(len(recs), dataset.LongSize(250, 500))])
			ops := floodStream(texts, 5, 4)
			for name, build := range builds(t, Config{Language: "en"}, texts) {
				t.Run(name, func(t *testing.T) {
					roundTrip(t, build, ops)
					d := build()
					apply(t, d, ops)
					size := len(encode(t, d))
					t.Logf("%s, %s: %d live documents, snapshot %d bytes, %.0f bytes/document",
						file, name, d.Len(), size, float64(size)/float64(d.Len()))
				})
			}
		})
	}
}

const (
	snapA = "The central bank raised its benchmark interest rate by half a percentage point on Wednesday, the fourth increase this year, as policymakers tried to cool inflation that has stayed above eight percent since the spring."
	snapB = "A late header from the veteran defender gave the visitors a two to one win in Saturday's cup semi-final, ending the home side's unbeaten run of fourteen matches in front of a sold-out stadium."
)

// smallSnapshot is the snapshot of a Detector of New with two lexicons
// holding a, its exact copy b, its copy in capitals c, another story d
// and an empty text e; x was removed.
func smallSnapshot(t testing.TB) (Config, []byte) {
	cfg := Config{Language: "en", Lexicons: 2}
	d, err := New(cfg)
	require.NoError(t, err)
	for _, doc := range []detector.Doc{
		{ID: "a", Text: snapA}, {ID: "x", Text: snapB}, {ID: "b", Text: snapA},
		{ID: "c", Text: "THE CENTRAL BANK RAISED ITS BENCHMARK INTEREST RATE BY HALF A PERCENTAGE POINT ON WEDNESDAY, THE FOURTH INCREASE THIS YEAR, AS POLICYMAKERS TRIED TO COOL INFLATION THAT HAS STAYED ABOVE EIGHT PERCENT SINCE THE SPRING."},
		{ID: "d", Text: snapB}, {ID: "e", Text: ""},
	} {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	require.NoError(t, d.Remove("x"))
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
	assert.Equal(t, 5, d.Len())
	assert.Equal(t, int64(4), d.IDF().N(), "a, b, c and d are counted; e has no terms")
}

func TestSnapshotConfigMismatch(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	for field, other := range map[string]Config{
		"Lexicons":  {Language: "en", Lexicons: 3},
		"Selection": {Language: "en", Lexicons: 2, Selection: SelectBand},
		"Language":  {Lexicons: 2},
	} {
		d, err := New(other)
		require.NoError(t, err)
		testkit.Mismatch(t, d, snap, field)
	}
	d, err := New(cfg)
	require.NoError(t, err)
	loadInto(t, d, snap)
}

// TestSnapshotTableMismatch: a snapshot names the caller's IDF table by
// fingerprint and frozen state, and loads only into a Detector with the
// same; one of New has no caller table.
func TestSnapshotTableMismatch(t *testing.T) {
	one := idfOf(t, 4, map[string]int{"central": 1, "bank": 2})
	other := idfOf(t, 4, map[string]int{"central": 2, "bank": 2})
	loose := textproc.NewIDF(false)
	require.NoError(t, loose.AddDocument([]string{"central", "bank"}))
	cfg := Config{Language: "en", MinTerms: 1}
	write := func(idf *textproc.IDF) []byte {
		d, err := NewWithIDF(cfg, idf)
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "a", Text: snapA})
		require.NoError(t, err)
		return encode(t, d)
	}
	for _, tc := range []struct {
		name      string
		from, to  *textproc.IDF // nil: New
		wantError string
	}{
		{"other frozen table", one, other, "written with another idf table"},
		{"frozen into unfrozen", one, loose, "written without the idf-unfrozen table the detector has"},
		{"unfrozen into frozen", loose, one, "written without the idf table the detector has"},
		{"caller table into New", one, nil, "written with a idf table the detector does not have"},
		{"New into a caller table", nil, one, "written without the idf table the detector has"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var snap []byte
			if tc.from == nil {
				d, err := New(cfg)
				require.NoError(t, err)
				snap = encode(t, d)
			} else {
				snap = write(tc.from)
			}
			var d *Detector
			var err error
			if tc.to == nil {
				d, err = New(cfg)
			} else {
				d, err = NewWithIDF(cfg, tc.to)
			}
			require.NoError(t, err)
			_, err = d.ReadFrom(bytes.NewReader(snap))
			require.ErrorIs(t, err, detector.ErrSnapshot)
			assert.Contains(t, err.Error(), tc.wantError)
			assert.Zero(t, d.Len())
		})
	}
	d, err := NewWithIDF(cfg, one)
	require.NoError(t, err)
	loadInto(t, d, write(one))
	assert.Equal(t, 1, d.Len())

	// A table frozen after the Detector was built: the Detector still
	// indexes the exact-content key of every document, and its snapshot
	// says so; a Detector built over the frozen table does not, and
	// refuses it.
	later := textproc.NewIDF(false)
	require.NoError(t, later.AddDocument([]string{"central"}))
	early, err := NewWithIDF(cfg, later)
	require.NoError(t, err)
	_, err = early.Add(detector.Doc{ID: "a", Text: snapA})
	require.NoError(t, err)
	later.Freeze()
	snap := encode(t, early)
	d, err = NewWithIDF(cfg, later)
	require.NoError(t, err)
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.ErrorIs(t, err, detector.ErrSnapshot)
	assert.Contains(t, err.Error(), "written without the idf table the detector has")
}

func TestReadFromState(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d, err := New(cfg)
	require.NoError(t, err)
	_, err = d.Add(detector.Doc{ID: "x", Text: snapA})
	require.NoError(t, err)
	testkit.NotEmpty(t, d, snap)
	assert.Equal(t, int64(1), d.IDF().N(), "the refused load counted nothing")
	// Emptied by Remove, it loads.
	require.NoError(t, d.Remove("x"))
	loadInto(t, d, snap)
	assert.Equal(t, 5, d.Len())
	testkit.Closed(t, d, snap, snapA, "a")
}

// TestSnapshotV1 reads the checked-in snapshot of layout version 1 and
// requires that the documents it was made from encode to the same bytes,
// so that a change of the format is deliberate. go test ./imatch/ -run
// TestSnapshotV1 -args -update rewrites it (the header holds the effective
// Config, so a change of a default rewrites it too).
func TestSnapshotV1(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	stored := testkit.Golden(t, filepath.Join("testdata", "v1.snapshot"), snap, *update)
	d, err := New(cfg)
	require.NoError(t, err)
	loadInto(t, d, stored)
	assert.Equal(t, 5, d.Len())
	assert.Equal(t, int64(4), d.IDF().N())
	cp, err := d.Copies("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "c"}, cp)
	ms, err := d.Containers("d")
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{}, ms)
	ms, err = d.Add(detector.Doc{ID: "f", Text: snapA})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "a", Score: 1}, {ID: "b", Score: 1}, {ID: "c", Score: 1}}, ms)
	ms, err = d.Add(detector.Doc{ID: "g", Text: snapB})
	require.NoError(t, err)
	assert.Equal(t, []detector.Match{{ID: "d", Score: 1}}, ms)
	cp, err = d.Copies("e")
	require.NoError(t, err)
	assert.Empty(t, cp, "a document without terms has no copies")
}

// FuzzReadFrom feeds ReadFrom arbitrary streams, and arbitrary section
// payloads framed with valid checksums (which random bytes never get past).
// It must never panic; a rejected input wraps ErrSnapshot and leaves the
// detector empty (its online table too); an accepted one re-encodes to the
// same bytes and gives a working detector.
func FuzzReadFrom(f *testing.F) {
	cfg, snap := smallSnapshot(f)
	d, err := New(cfg)
	require.NoError(f, err)
	loadInto(f, d, snap)
	groups, empty, _, err := d.e.Sections()
	require.NoError(f, err)
	f.Add(snap, groups, empty)
	f.Add([]byte("NEARDUP\x00"), []byte{0}, []byte{0})
	f.Add(snap[:len(snap)/2], groups[:len(groups)/2], empty)
	f.Fuzz(func(t *testing.T, raw, groups, empty []byte) {
		read := func(in []byte) error {
			d, err := New(cfg)
			require.NoError(t, err)
			if err := testkit.Read(t, d, in, func(d *Detector) {
				require.Zero(t, d.IDF().N(), "a rejected snapshot leaves the table empty")
			}); err != nil {
				return err
			}
			_, err = d.Add(detector.Doc{ID: "fuzz-new", Text: snapA})
			require.NoError(t, err)
			for _, o := range []string{"a", "b", "fuzz-new"} {
				if _, err := d.Containers(o); err == nil {
					require.NoError(t, d.Remove(o))
				}
			}
			return nil
		}
		_ = read(raw)
		// The payloads behind valid framing, with the trailer's count
		// of what they hold when they decode.
		count := 0
		n, derr := d.e.DecodeSections(groups, empty)
		if derr != nil {
			require.ErrorIs(t, derr, detector.ErrSnapshot)
		} else {
			count = n
		}
		err := read(testkit.Frame(t, header(d), []string{"groups", "empty"}, [][]byte{groups, empty}, count))
		require.Equal(t, derr == nil, err == nil, "ReadFrom accepts exactly the payloads decode accepts")
	})
}

// TestConcurrentSnapshot writes snapshots while other goroutines add and
// remove: every snapshot loads, re-encodes identically and holds whole
// documents only, and a restored online table counts exactly the
// documents the snapshot holds.
func TestConcurrentSnapshot(t *testing.T) {
	texts := floodTexts()
	for name, build := range builds(t, Config{}, texts) {
		t.Run(name, func(t *testing.T) {
			d := build()
			testkit.ConcurrentSnapshot(t, d, texts, build, func(e *Detector) {
				if e.alg.own {
					// Every live document is counted but those without
					// terms (the "empty" section).
					_, empty, n, err := e.e.Sections()
					require.NoError(t, err)
					require.Equal(t, int64(n-len(snapshot.NewDec(empty).IDs(0))), e.IDF().N())
				}
			})
			final := loadInto(t, build(), encode(t, d))
			var ids []string
			for g := range 2 {
				for i, text := range texts {
					if i%3 != 0 {
						ids = append(ids, fmt.Sprintf("g%d-%d", g, i))
						_ = text
					}
				}
			}
			slices.Sort(ids)
			for _, id := range ids {
				a, err := d.Containers(id)
				require.NoError(t, err)
				b, err := final.Containers(id)
				require.NoError(t, err)
				require.Equal(t, a, b, id)
			}
		})
	}
}
