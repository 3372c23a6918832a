package codet

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

var update = flag.Bool("update", false, "rewrite testdata/v1.snapshot")

// op is one step of a stream: an Add (text set) or a Remove.
type op = testkit.Op

// floodStream adds every text, an exact copy of an earlier text every
// copyEvery documents, and removes an earlier document every removeEvery
// documents.
func floodStream(texts []string, copyEvery, removeEvery int) []op {
	var ops []op
	var live []string
	for i, text := range texts {
		id := fmt.Sprintf("d%05d", i)
		ops = append(ops, op{ID: id, Text: text})
		live = append(live, id)
		if i%copyEvery == copyEvery-1 {
			cid := fmt.Sprintf("c%05d", i)
			ops = append(ops, op{ID: cid, Text: texts[i*7%(i+1)]})
			live = append(live, cid)
		}
		if i%removeEvery == removeEvery-1 && len(live) > 2 {
			k := i * 13 % (len(live) - 1)
			ops = append(ops, op{ID: live[k], Remove: true})
			live = append(live[:k], live[k+1:]...)
		}
	}
	return ops
}

// answers runs ops on d and returns everything they answer: each Add's
// matches, preceded by what Query returned for the same document.
func answers(t *testing.T, d *Detector, ops []op) []string {
	t.Helper()
	var out []string
	for _, o := range ops {
		if o.Remove {
			// With a time window the document may have left already.
			if err := d.Remove(o.ID); d.s.Window == 0 || !errors.Is(err, detector.ErrUnknownID) {
				require.NoError(t, err)
			}
			continue
		}
		doc := detector.Doc{ID: o.ID, Text: o.Text}
		q, err := d.Query(doc)
		require.NoError(t, err)
		ms, err := d.Add(doc)
		require.NoError(t, err)
		require.Equal(t, ms, q, "Query then Add(%s)", o.ID)
		out = append(out, fmt.Sprintf("%s %v", o.ID, ms))
	}
	return out
}

func encode(t testing.TB, d *Detector) []byte { return testkit.Encode(t, d) }

func build(t testing.TB, cfg Config, idf *textproc.IDF) *Detector {
	t.Helper()
	var d *Detector
	var err error
	if idf != nil {
		d, err = NewWithIDF(cfg, idf)
	} else {
		d, err = New(cfg)
	}
	require.NoError(t, err)
	return d
}

func load(t testing.TB, cfg Config, idf *textproc.IDF, snap []byte) *Detector {
	t.Helper()
	return testkit.Load(t, build(t, cfg, idf), snap)
}

// sameState requires a and b to answer Containers, Copies and Matched
// alike for every live document of ops, and to have the same Stats.
func sameState(t *testing.T, a, b *Detector, ops []op) {
	t.Helper()
	live := map[string]bool{}
	for _, o := range ops {
		live[o.ID] = !o.Remove
	}
	for id, ok := range live {
		if !ok {
			continue
		}
		ca, err := a.Containers(id)
		cb, errB := b.Containers(id)
		require.Equal(t, err == nil, errB == nil, "Containers(%s): %v, %v", id, err, errB)
		if err != nil && a.s.Window > 0 {
			require.ErrorIs(t, err, detector.ErrUnknownID) // left the window
			continue
		}
		require.NoError(t, err)
		require.Equal(t, ca, cb, "Containers(%s)", id)
		pa, err := a.Copies(id)
		require.NoError(t, err)
		pb, err := b.Copies(id)
		require.NoError(t, err)
		require.Equal(t, pa, pb, "Copies(%s)", id)
		if len(ca) > 0 {
			ma, err := a.Matched(ca[0].ID, id)
			require.NoError(t, err)
			mb, err := b.Matched(ca[0].ID, id)
			require.NoError(t, err)
			require.Equal(t, ma, mb, "Matched(%s, %s)", ca[0].ID, id)
		}
	}
	require.Equal(t, a.Stats(), b.Stats())
	require.Equal(t, a.Position(), b.Position())
}

// roundTrip snapshots a detector after the first part of ops, loads the
// snapshot into a new one, and requires both to answer the rest of ops
// (Query and Add) alike, to hold the same state, and to write
// byte-identical snapshots at both points.
func roundTrip(t *testing.T, cfg Config, idf *textproc.IDF, ops []op) {
	cut := len(ops) * 2 / 3
	a := build(t, cfg, idf)
	answers(t, a, ops[:cut])
	snap := encode(t, a)
	b := load(t, a.Config(), idf, snap)
	require.Equal(t, snap, encode(t, b), "re-encoding a loaded snapshot")
	sameState(t, a, b, ops[:cut])
	require.Equal(t, answers(t, a, ops[cut:]), answers(t, b, ops[cut:]), "answers after the load")
	sameState(t, a, b, ops)
	require.Equal(t, encode(t, a), encode(t, b))
}

// snapshotConfigs are the configurations the round trips run: every mode,
// online weights, node deactivation, a time window.
func snapshotConfigs() []struct {
	name string
	cfg  Config
} {
	return []struct {
		name string
		cfg  Config
	}{
		{"Default", Config{Language: "en"}},
		{"Online", Config{Language: "en", IDF: IDFOnline}},
		{"Pairwise", Config{Language: "en", Mode: ModePairwise, ETL: 0.3}},
		{"CollapseOff", Config{Language: "en", Collapse: CollapseOff}},
		{"CollapseNear", Config{Language: "en", Collapse: CollapseNear}},
		{"CollapseNearOnline", Config{Language: "en", Collapse: CollapseNear, IDF: IDFOnline}},
		{"NodeLimit3", Config{Language: "en", NodeLimit: 3, MaxResults: 5}},
		{"NodeLimit3Online", Config{Language: "en", NodeLimit: 3, IDF: IDFOnline}},
		{"Window", Config{Language: "en", Window: 40}},
		{"WindowOnline", Config{Language: "en", Window: 25, IDF: IDFOnline, SuffixCount: 2}},
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	docs := dataset.SynthDocs(150, dataset.SynthConfig{Seed: 9, VariantRate: 0.5, Vocabulary: 3000})
	var texts []string
	for _, d := range docs {
		texts = append(texts, d.Text)
	}
	texts = append(texts, "", "...", "the of and")
	ops := floodStream(texts, 4, 6)
	for _, c := range snapshotConfigs() {
		t.Run(c.name, func(t *testing.T) { roundTrip(t, c.cfg, nil, ops) })
	}
	// A caller's table, frozen and not frozen.
	ref := textproc.NewIDF(false)
	for _, text := range texts[:50] {
		require.NoError(t, ref.AddDocument(strings.Fields(text)))
	}
	t.Run("CallerTable", func(t *testing.T) { roundTrip(t, Config{Language: "en"}, ref, ops) })
	ref.Freeze()
	t.Run("CallerTableFrozen", func(t *testing.T) { roundTrip(t, Config{Language: "en", NodeLimit: 4}, ref, ops) })
	t.Run("Empty", func(t *testing.T) { roundTrip(t, Config{}, nil, nil) })
}

func TestSnapshotRoundTripRealData(t *testing.T) {
	if testing.Short() {
		t.Skip("real data round trips (skipped with -short)")
	}
	recs := dataset.Reuters(t, dataset.LongSize(300, 1200))
	ops := floodStream(dataset.Texts(recs), 5, 4)
	for _, c := range snapshotConfigs() {
		if c.name != "Default" && c.name != "Online" && c.name != "CollapseNear" && c.name != "Window" {
			continue
		}
		t.Run(c.name, func(t *testing.T) { roundTrip(t, c.cfg, nil, ops) })
	}
}

// TestSnapshotSize logs what a snapshot costs per live document on real
// news and bounds it.
func TestSnapshotSize(t *testing.T) {
	recs := dataset.Reuters(t, 2000)
	d := build(t, Config{Language: "en"}, nil)
	text := 0
	for _, doc := range dataset.Docs(recs) {
		_, err := d.Add(doc)
		require.NoError(t, err)
		text += len(doc.Text)
	}
	snap := encode(t, d)
	st := d.Stats()
	perDoc := float64(len(snap)) / float64(d.Len())
	t.Logf("%d documents (%d bytes of text), %d nodes, %d visitor entries, %d relations, %d terms: snapshot %d bytes, %.0f bytes/document (%.1f%% of the text)",
		d.Len(), text, st.Nodes, st.Visitors, st.Edges, st.Terms, len(snap), perDoc, 100*float64(len(snap))/float64(text))
	assert.Less(t, perDoc, 1000.0)
}

// smallSnapshot is a snapshot of two copies, a near copy and a document
// without terms, with online weights (a table in the snapshot).
const smallText = "The storm cut power to forty thousand homes on the northern coast. Ferries to the islands were cancelled on Monday."

func smallSnapshot(t testing.TB) (Config, []byte) {
	cfg := Config{Language: "en", IDF: IDFOnline, Collapse: CollapseNear, NodeLimit: 2}
	d := build(t, cfg, nil)
	text := smallText
	for _, doc := range []detector.Doc{
		{ID: "a", Text: text}, {ID: "b", Text: text},
		{ID: "c", Text: text + " Schools stayed closed."}, {ID: "e", Text: "..."},
		{ID: "f", Text: "Ferries to the islands were cancelled on Monday. The storm cut power."},
		{ID: "g", Text: "Power was cut to homes on the coast."},
	} {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	return d.Config(), encode(t, d)
}

// TestSnapshotDamage reads every truncation and every single-byte change
// of a small snapshot: each must fail with ErrSnapshot and leave the
// detector empty, so that the intact snapshot then loads into it.
func TestSnapshotDamage(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d := build(t, cfg, nil)
	testkit.Damage(t, d, snap, nil)
	assert.Equal(t, 6, d.Len())
}

func TestSnapshotMismatch(t *testing.T) {
	_, snap := smallSnapshot(t)
	for field, other := range map[string]Config{
		"ETL":       {Language: "en", IDF: IDFOnline, Collapse: CollapseNear, NodeLimit: 2, ETL: 0.5},
		"Collapse":  {Language: "en", IDF: IDFOnline, NodeLimit: 2},
		"IDF":       {Language: "en", Collapse: CollapseNear, NodeLimit: 2},
		"NodeLimit": {Language: "en", IDF: IDFOnline, Collapse: CollapseNear},
	} {
		d := build(t, other, nil)
		testkit.Mismatch(t, d, snap, field)
	}

	// Tables: a caller's table is identified by its content, and the
	// reference table of New is not a caller's.
	table := func(docs ...string) *textproc.IDF {
		idf := textproc.NewIDF(false)
		for _, doc := range docs {
			require.NoError(t, idf.AddDocument(strings.Fields(doc)))
		}
		idf.Freeze()
		return idf
	}
	mine, other := table("storm power", "power coast"), table("storm power")
	a := build(t, Config{Language: "en"}, mine)
	_, err := a.Add(detector.Doc{ID: "x", Text: "The storm cut power to the coast."})
	require.NoError(t, err)
	withTable := encode(t, a)
	_, err = build(t, Config{Language: "en"}, other).ReadFrom(bytes.NewReader(withTable))
	require.ErrorIs(t, err, detector.ErrSnapshot)
	assert.Contains(t, err.Error(), "idf table", "the error names the table")
	_, err = build(t, Config{Language: "en"}, nil).ReadFrom(bytes.NewReader(withTable))
	require.ErrorIs(t, err, detector.ErrSnapshot, "a caller's table into New")
	ref := build(t, Config{Language: "en"}, nil)
	_, err = ref.Add(detector.Doc{ID: "x", Text: "The storm cut power to the coast."})
	require.NoError(t, err)
	_, err = build(t, Config{Language: "en"}, mine).ReadFrom(bytes.NewReader(encode(t, ref)))
	require.ErrorIs(t, err, detector.ErrSnapshot, "the reference table into NewWithIDF")
	// The same content in another table object loads.
	_, err = build(t, Config{Language: "en"}, table("storm power", "power coast")).ReadFrom(bytes.NewReader(withTable))
	require.NoError(t, err)
}

func TestReadFromState(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d := build(t, cfg, nil)
	_, err := d.Add(detector.Doc{ID: "x", Text: "Ferries were cancelled."})
	require.NoError(t, err)
	testkit.NotEmpty(t, d, snap)
	// Emptied by Remove: it loads, and the online table is the snapshot's.
	require.NoError(t, d.Remove("x"))
	_, err = d.ReadFrom(bytes.NewReader(snap))
	require.NoError(t, err)
	require.Equal(t, snap, encode(t, d))
	testkit.Closed(t, d, snap, "Ferries were cancelled.", "x")
}

// TestSnapshotV1 reads the checked-in snapshot of layout version 1 and
// requires that the documents it was made from encode to the same bytes,
// so that a change of the format is deliberate. go test ./codet/ -run
// TestSnapshotV1 -args -update rewrites it (the header holds the effective
// Config, so a change of a default rewrites it too).
func TestSnapshotV1(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	stored := testkit.Golden(t, filepath.Join("testdata", "v1.snapshot"), snap, *update)
	d := load(t, cfg, nil, stored)
	assert.Equal(t, 6, d.Len())
	cp, err := d.Copies("a")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, cp)
	ms, err := d.Containers("a")
	require.NoError(t, err)
	require.NotEmpty(t, ms)
	assert.Equal(t, detector.Match{ID: "b", Score: 1}, ms[0])
	ms, err = d.Add(detector.Doc{ID: "h", Text: smallText})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, idsOf(ms)[:2])
}

func idsOf(ms []detector.Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

// readPayloads frames the section payloads with valid checksums (the
// trailer counting what they hold when they load) and reads them: a
// rejected snapshot wraps ErrSnapshot and leaves the detector empty; an
// accepted one re-encodes to the same bytes and takes further Queries,
// Adds, Copies and Removes.
func readPayloads(t *testing.T, cfg Config, secs [len(sectionNames)][]byte) {
	fresh := build(t, cfg, nil)
	n, err := fresh.eng.DecodeSectionList(secs[:])
	if err != nil {
		require.ErrorIs(t, err, detector.ErrSnapshot)
	}
	readAndUse(t, cfg, testkit.Frame(t, fresh.header(), sectionNames[:], secs[:], n))
}

func readAndUse(t *testing.T, cfg Config, in []byte) {
	d := build(t, cfg, nil)
	if testkit.Read(t, d, in, nil) != nil {
		return
	}
	var err error
	for _, text := range []string{smallText, "The storm cut power.", smallText + " Schools stayed closed.", "..."} {
		_, err = d.Query(detector.Doc{Text: text})
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "fuzz-" + text, Text: text})
		require.NoError(t, err)
	}
	for _, id := range []string{"a", "b", "c", "e", "fuzz-..."} {
		if _, err := d.Containers(id); err == nil {
			_, err = d.Copies(id)
			require.NoError(t, err)
			_, err = d.Matched("fuzz-The storm cut power.", id)
			require.NoError(t, err)
			require.NoError(t, d.Remove(id))
		}
	}
	_, err = d.Expire(d.Position())
	require.NoError(t, err)
}

// TestSnapshotPayloadDamage changes every byte of every section of a small
// snapshot behind valid framing, so that the checks of the decoder, not
// the checksums, must catch it: each change is refused or, when it still
// describes a consistent index, loads into a detector that works. Each
// byte is changed one of four ways in turn by default (xor 0x01, 0x02,
// 0x80, 0xff, as testkit.Damage does), all four with NEARDUP_LONG.
func TestSnapshotPayloadDamage(t *testing.T) {
	cfg, snap := smallSnapshot(t)
	d := load(t, cfg, nil, snap)
	secs := sectionsOf(t, d)
	masks := []byte{0x01, 0x02, 0x80, 0xff}
	for i := range secs {
		for k := range secs[i] {
			for j, x := range masks {
				if !dataset.LongEnabled() && j != k%len(masks) {
					continue
				}
				bad := secs
				bad[i] = bytes.Clone(secs[i])
				bad[i][k] ^= x
				readPayloads(t, cfg, bad)
			}
		}
	}
}

// FuzzReadFrom feeds ReadFrom arbitrary streams, and arbitrary section
// payloads framed with valid checksums (which random bytes never get
// past). It must never panic; a rejected input wraps ErrSnapshot and
// leaves the detector empty; an accepted one re-encodes to the same bytes
// and takes further Adds, Queries and Removes.
func FuzzReadFrom(f *testing.F) {
	cfg, snap := smallSnapshot(f)
	d := load(f, cfg, nil, snap)
	secs := sectionsOf(f, d)
	f.Add(snap, secs[0], secs[1], secs[2], secs[3], secs[4])
	f.Add([]byte("NEARDUP\x00"), []byte{0}, []byte{0}, []byte{0}, []byte{0, 0}, []byte{0, 0})
	f.Fuzz(func(t *testing.T, raw, state, terms, docs, nodes, groups []byte) {
		readAndUse(t, cfg, raw)
		readPayloads(t, cfg, [len(sectionNames)][]byte{state, terms, docs, nodes, groups})
	})
}

// TestConcurrentSnapshot writes snapshots while other goroutines add,
// query and remove: every snapshot loads, re-encodes identically and
// holds whole documents only.
func TestConcurrentSnapshot(t *testing.T) {
	docs := dataset.SynthDocs(80, dataset.SynthConfig{Seed: 3, VariantRate: 0.5, Vocabulary: 2000})
	cfg := Config{Language: "en", IDF: IDFOnline}
	d := build(t, cfg, nil)
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for i, doc := range docs {
				id := fmt.Sprintf("g%d-%d", g, i)
				if _, err := d.Query(detector.Doc{ID: id, Text: doc.Text}); err != nil {
					t.Error(err)
					return
				}
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
		e := load(t, cfg, nil, b.Bytes())
		require.Equal(t, b.Bytes(), encode(t, e))
	}
	wg.Wait()
}

// TestQueryCopy checks the path Query takes when the eviction of a full
// window would compact the index: the answer of a private copy equals
// what Add then returns.
func TestQueryCopy(t *testing.T) {
	docs := dataset.SynthDocs(60, dataset.SynthConfig{Seed: 4, VariantRate: 0.7, Vocabulary: 1500})
	for _, cfg := range []Config{
		{Language: "en", Window: 10},
		{Language: "en", Window: 7, IDF: IDFOnline, Collapse: CollapseNear},
	} {
		d := build(t, cfg, nil)
		for i, doc := range docs {
			if i%4 == 3 {
				doc.Text = docs[i/2].Text
			}
			before := encode(t, d)
			x := d.ix()
			self := noGroup
			if i%5 == 0 && x.docs.Len() > 0 { // the ID of a live document
				self = x.queue[len(x.queue)-1].idx
				doc.ID = x.docs.ID(self)
			}
			x.copyLookups = true
			q, err := d.Query(doc)
			x.copyLookups = false
			require.NoError(t, err)
			require.Equal(t, before, encode(t, d))
			if self != noGroup {
				doc.ID = fmt.Sprintf("new%d", i)
			}
			ms, err := d.Add(doc)
			require.NoError(t, err)
			if self == noGroup {
				require.Equal(t, ms, q, "Add(%s)", doc.ID)
			}
		}
	}
}

// sectionsOf returns the payloads of the sections of d's snapshot.
func sectionsOf(t testing.TB, d *Detector) (secs [len(sectionNames)][]byte) {
	list, _, err := d.eng.SectionList()
	require.NoError(t, err)
	copy(secs[:], list)
	return secs
}
