package codet

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// synthIDF returns an English IDF table frozen over n synthetic
// documents of another seed than the streams the tests add, so that the
// streams' common words are common in it too.
func synthIDF(t *testing.T, n int) *textproc.IDF {
	t.Helper()
	an, err := textproc.NewAnalyzer(textproc.FullConfig(language.English))
	require.NoError(t, err)
	var ref []string
	for _, d := range dataset.SynthDocs(n, dataset.SynthConfig{Seed: 2}) {
		ref = append(ref, d.Text)
	}
	return textproc.BuildIDF(an, ref, false)
}

// setAsidePair returns two detectors for cfg and idf: one that scans
// every visitor list (all) and one that sets long lists aside (aside).
func setAsidePair(t *testing.T, cfg Config, idf *textproc.IDF) (all, aside *Detector) {
	t.Helper()
	all, err := NewWithIDF(cfg, idf)
	require.NoError(t, err)
	all.ix().scanAll = true
	aside, err = NewWithIDF(cfg, idf)
	require.NoError(t, err)
	return all, aside
}

// requireSameSnapshot requires the snapshots of all and aside to be equal
// once aside's work counters, which count less work by design, are set
// to all's.
func requireSameSnapshot(t *testing.T, cfg Config, all, aside *Detector) {
	t.Helper()
	sa := all.Stats()
	aside.ix().stats.Increments, aside.ix().stats.Candidates = sa.Increments, sa.Candidates
	var a, b bytes.Buffer
	_, err := all.WriteTo(&a)
	require.NoError(t, err)
	_, err = aside.WriteTo(&b)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(a.Bytes(), b.Bytes()), "%+v: snapshots differ", cfg)
}

// TestSetAsideExact checks that setting long visitor lists aside changes
// no answer: a detector that scans every list and one that sets them aside
// return the same matches with the same scores (to the last bit) for every
// Add of a synthetic stream whose common words fill long lists, and save
// the same snapshot once the work counters are set equal. With NodeLimit 24,
// 32 and 40 many nodes are deactivated, so the samples are set aside too
// (from NodeLimit 32 under the bound of the active lists); with
// a time window the lower bounds of the visitors' SCS are recomputed as
// documents leave. NEARDUP_LONG adds three configurations of the rules'
// other switches (CollapseThreshold, MinScore and ETL, BothDirections
// with SCSPairs).
func TestSetAsideExact(t *testing.T) {
	// At 1,000 documents no sample the rule of the active nodes reads is
	// set aside, and the count below would check nothing.
	n := 3000
	idf := synthIDF(t, 3000)
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: 1, Vocabulary: 5000})
	samples := 0 // samples of deactivated nodes set aside
	read := 0    // of them, samples the rule of the active nodes reads
	cfgs := []Config{
		{Language: "en"},
		{Language: "en", NodeLimit: 24},
		{Language: "en", NodeLimit: sampleMin},
		{Language: "en", NodeLimit: 40, Collapse: CollapseNear},
		{Language: "en", Window: 1500, NodeLimit: 20},
	}
	if dataset.LongEnabled() { // the rules' other switches, set aside alike
		cfgs = append(cfgs,
			Config{Language: "en", Collapse: CollapseNear, CollapseThreshold: 0.5},
			Config{Language: "en", MinScore: -1, ETL: 0.05, NodeLimit: 60},
			Config{Language: "en", BothDirections: true, SCSPairs: true})
	}
	for _, cfg := range cfgs {
		all, aside := setAsidePair(t, cfg, idf)
		for _, doc := range docs {
			want, err := all.Add(doc)
			require.NoError(t, err)
			got, err := aside.Add(doc)
			require.NoError(t, err)
			require.Equal(t, want, got, "%+v: Add(%s)", cfg, doc.ID)
		}
		samples += aside.ix().work.asideSamp
		if aside.s.readSamples() {
			read += aside.ix().work.asideSamp
		}
		sa, sb := all.Stats(), aside.Stats()
		assert.Less(t, sb.Increments, sa.Increments, "%+v: lists set aside", cfg)
		t.Logf("NodeLimit %d Collapse %d: increments %d → %d, candidates %d → %d, deactivated %d", cfg.NodeLimit, cfg.Collapse,
			sa.Increments, sb.Increments, sa.Candidates, sb.Candidates, sa.Deactivated)
		requireSameSnapshot(t, cfg, all, aside)
	}
	assert.Positive(t, samples, "no sample was set aside")
	assert.Positive(t, read, "no sample read by the rule of the active nodes was set aside")
}

// TestSetAsideExactStream is TestSetAsideExact on the stream of
// BenchmarkScale (internal/dataset's synthetic stream, seed 1, with the frozen table of seed 2
// that benchmark builds), long enough for nodes to be deactivated at the
// default NodeLimit: every Add answer, the Containers of an earlier
// document after every seventh Add and the snapshot equal those of
// scanning every list. It runs with NEARDUP_LONG: 40,000 documents
// (about 30 s), or N with NEARDUP_LONG=N.
func TestSetAsideExactStream(t *testing.T) {
	dataset.SkipLong(t)
	if dataset.RaceEnabled {
		t.Skip("80,000 Adds: too slow under -race (TestSetAsideExact makes the comparison there)")
	}
	n := dataset.LongCount(40_000)
	idf := synthIDF(t, 20_000)
	docs := dataset.SynthDocs(n, dataset.SynthConfig{Seed: 1})
	for _, cfg := range []Config{
		{Language: "en"},
		{Language: "en", NodeLimit: 50, Collapse: CollapseNear},
	} {
		all, aside := setAsidePair(t, cfg, idf)
		for i, doc := range docs {
			want, err := all.Add(doc)
			require.NoError(t, err)
			got, err := aside.Add(doc)
			require.NoError(t, err)
			require.Equal(t, want, got, "%+v: Add(%s)", cfg, doc.ID)
			if i%7 != 6 {
				continue
			}
			// An earlier document's containers, which later Adds extend.
			w, err := all.Containers(docs[i/2].ID)
			require.NoError(t, err)
			g, err := aside.Containers(docs[i/2].ID)
			require.NoError(t, err)
			require.Equal(t, w, g, "%+v: Containers(%s)", cfg, docs[i/2].ID)
		}
		sa, sb := all.Stats(), aside.Stats()
		t.Logf("NodeLimit %d Collapse %d: increments %d → %d, deactivated %d, samples set aside %d",
			cfg.NodeLimit, cfg.Collapse, sa.Increments, sb.Increments, sa.Deactivated, aside.ix().work.asideSamp)
		requireSameSnapshot(t, cfg, all, aside)
	}
}
