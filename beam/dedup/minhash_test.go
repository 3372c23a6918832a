package dedup

import (
	"errors"
	"log/slog"
	"os"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/minhash"
)

func TestMain(m *testing.M) {
	// Prism logs every job at Info and every failed bundle at Error; the
	// tests read failures from the returned errors.
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4})))
	os.Exit(ptest.MainRet(m))
}

func pairScore(p Pair) float64 { return p.Score }

func init() { register.Function1x1(pairScore) }

func synthDocs(n int, seed uint64) []Doc {
	var out []Doc
	for _, d := range dataset.SynthDocs(n, dataset.SynthConfig{Seed: seed}) {
		out = append(out, Doc{ID: d.ID, Text: d.Text})
	}
	return out
}

// realDocs reads a file of ../shared/data, skipping the test without it.
func realDocs(t *testing.T, name string) []Doc {
	t.Helper()
	recs, err := dataset.Load(name)
	if errors.Is(err, dataset.ErrNoData) {
		t.Skipf("no %s: %v", name, err)
	}
	require.NoError(t, err)
	out := make([]Doc, len(recs))
	for i, r := range recs {
		out[i] = Doc{ID: r.ID, Text: r.Text}
	}
	return out
}

// memPairs returns the pairs a minhash.Detector reports for docs.
func memPairs(t testing.TB, cfg minhash.Config, docs []Doc) []Pair {
	t.Helper()
	// Every pair, as the pipeline reports them: the detector's result cap
	// (detector.DefaultMaxResults) would cut the Gold Set's large clusters.
	cfg.MaxResults = max(len(docs), 1)
	d, err := minhash.New(cfg)
	require.NoError(t, err)
	var out []Pair
	for _, doc := range docs {
		ms, err := d.Add(detector.Doc{ID: doc.ID, Text: doc.Text})
		require.NoError(t, err)
		for _, m := range ms {
			a, b := ordered(doc.ID, m.ID)
			out = append(out, Pair{A: a, B: b, Score: m.Score})
		}
	}
	return out
}

// run runs p on the test runner and returns the counters of Namespace.
func run(t *testing.T, p *beam.Pipeline) (map[string]int64, error) {
	t.Helper()
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, c := range res.Metrics().Query(func(r metrics.SingleResult) bool { return r.Namespace() == Namespace }).Counters() {
		out[c.Name()] += c.Result()
	}
	return out, nil
}

func minhashEquality(t *testing.T, docs []Doc, cfg minhash.Config) {
	t.Helper()
	want := memPairs(t, cfg, docs)
	require.NotEmpty(t, want)
	p, s := beam.NewPipelineWithRoot()
	pairs, err := MinHashPairs(s, beam.CreateList(s, docs), MinHashConfig{Sketch: cfg, MaxBucket: -1})
	require.NoError(t, err)
	passert.EqualsList(s, pairs, want)
	m, err := run(t, p)
	require.NoError(t, err)
	assert.Zero(t, m[MetricCappedBuckets])
	assert.Equal(t, int64(len(docs)), m[MetricDocs])
	t.Logf("%d docs, %d pairs, counters %v", len(docs), len(want), m)
}

func TestMinHashPairsEqualsDetector(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  minhash.Config
	}{
		{"t0.5", minhash.Config{Threshold: 0.5}},
		{"t0.3-seed7-3shingles", minhash.Config{Threshold: 0.3, Seed: 7, Shingle: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) { minhashEquality(t, synthDocs(3000, 1), tc.cfg) })
	}
}

func TestMinHashPairsEqualsDetectorGoldset(t *testing.T) {
	minhashEquality(t, realDocs(t, "goldset-dev.jsonl"), minhash.Config{})
}

// TestClustersGoldset: the Gold Set's pairs at the default threshold form
// large components (whole stories, site templates): both cluster
// pipelines must still equal a union-find over the detector's pairs.
func TestClustersGoldset(t *testing.T) {
	docs := realDocs(t, "goldset-dev.jsonl")
	pairs := memPairs(t, minhash.Config{}, docs)
	want := memClusters(pairs)
	p, s := beam.NewPipelineWithRoot()
	in := beam.CreateList(s, pairs)
	passert.EqualsList(s, Clusters(s, in), want)
	passert.EqualsList(s, StarClusters(s, in, 0), want)
	m, err := run(t, p)
	require.NoError(t, err)
	assert.Zero(t, m[MetricUnconverged])
	sizes := map[string]int{}
	for _, l := range want {
		sizes[l.Cluster]++
	}
	t.Logf("%d pairs, %d components, star changes %d", len(pairs), len(sizes), m[MetricStarChanges])
}

// TestMinHashPairsExactCopies: copies of one text are collapsed to one
// representative and every pair among their classes is still reported.
func TestMinHashPairsExactCopies(t *testing.T) {
	docs := synthDocs(300, 2)
	for i := range 40 { // 40 copies of a few texts, some of near-duplicates
		docs = append(docs, Doc{ID: "copy" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Text: docs[i%7].Text})
	}
	docs = append(docs, Doc{ID: "empty", Text: " ... "})
	cfg := minhash.Config{Threshold: 0.4}
	want := memPairs(t, cfg, docs)
	p, s := beam.NewPipelineWithRoot()
	pairs, err := MinHashPairs(s, beam.CreateList(s, docs), MinHashConfig{Sketch: cfg, MaxBucket: -1})
	require.NoError(t, err)
	passert.EqualsList(s, pairs, want)
	m, err := run(t, p)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, m[MetricCopies], int64(40))
	assert.Equal(t, int64(1), m[MetricNoWords])
}

// TestMinHashPairsNegativeControl: the equality check must notice one
// extra expected pair, and one changed score, on documents whose
// unedited expected set passes (so the failure is the mismatch).
func TestMinHashPairsNegativeControl(t *testing.T) {
	docs := synthDocs(1000, 3)
	cfg := minhash.Config{Threshold: 0.5}
	want := memPairs(t, cfg, docs)
	require.NotEmpty(t, want)
	for _, tc := range []struct {
		name string
		edit func([]Pair) []Pair
		fail bool
	}{
		{"unedited", func(ps []Pair) []Pair { return ps }, false},
		{"extra pair", func(ps []Pair) []Pair { return append(ps, Pair{A: docs[0].ID, B: docs[1].ID, Score: 0.75}) }, true},
		{"changed score", func(ps []Pair) []Pair { ps[0].Score -= 1.0 / 128; return ps }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := tc.edit(append([]Pair(nil), want...))
			p, s := beam.NewPipelineWithRoot()
			pairs, err := MinHashPairs(s, beam.CreateList(s, docs), MinHashConfig{Sketch: cfg, MaxBucket: -1})
			require.NoError(t, err)
			passert.EqualsList(s, pairs, bad)
			_, err = run(t, p)
			if tc.fail {
				require.Error(t, err, "a wrong expected set must fail the pipeline")
			} else {
				require.NoError(t, err)
			}
		})
	}
}

// TestMinHashPairsHotBucket: 60 documents that share one band value and
// differ elsewhere make a bucket of 60 > M = 10; it becomes a star from the
// smallest ID, is counted, and the candidates it yields are still verified.
func TestMinHashPairsHotBucket(t *testing.T) {
	var docs []Doc
	common := "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon"
	for i := range 60 {
		docs = append(docs, Doc{ID: "h" + string(rune('A'+i/26)) + string(rune('a'+i%26)),
			Text: common + " " + string(rune('a'+i%26)) + "x" + string(rune('a'+i/26)) + " tail"})
	}
	// Band with one row per band: every bin each text shares is a bucket of all 60.
	cfg := minhash.Config{Threshold: 0.5, Bands: 128, Rows: 1, Shingle: 2}
	want := memPairs(t, cfg, docs)
	require.Len(t, want, 60*59/2, "the uncapped detector pairs every document with every other")

	p, s := beam.NewPipelineWithRoot()
	pairs, err := MinHashPairs(s, beam.CreateList(s, docs), MinHashConfig{Sketch: cfg, MaxBucket: 10})
	require.NoError(t, err)
	// Every reported pair is still verified.
	passert.AllWithinBounds(s, beam.ParDo(s, pairScore, pairs), 0.5, 1)
	m, err := run(t, p)
	require.NoError(t, err)
	assert.Positive(t, m[MetricCappedBuckets], "the cap engaged and was counted")
	// The hot buckets became stars: far fewer candidates than the clique.
	assert.GreaterOrEqual(t, m[MetricDistinctPairs], int64(59))
	assert.Less(t, m[MetricDistinctPairs], int64(len(want))/4)
	t.Logf("capped %d buckets: %d distinct candidates instead of %d", m[MetricCappedBuckets], m[MetricDistinctPairs], len(want))

	// With no cap the same pipeline gives the detector's clique.
	p, s = beam.NewPipelineWithRoot()
	pairs, err = MinHashPairs(s, beam.CreateList(s, docs), MinHashConfig{Sketch: cfg, MaxBucket: -1})
	require.NoError(t, err)
	passert.EqualsList(s, pairs, want)
	m, err = run(t, p)
	require.NoError(t, err)
	assert.Zero(t, m[MetricCappedBuckets])
}

func TestMinHashPairsNoVerify(t *testing.T) {
	docs := synthDocs(1000, 4)
	cfg := minhash.Config{Threshold: 0.5}
	p, s := beam.NewPipelineWithRoot()
	pairs, err := MinHashPairs(s, beam.CreateList(s, docs), MinHashConfig{Sketch: cfg, NoVerify: true})
	require.NoError(t, err)
	// Unverified candidates score 0; exact copies are known to score 1.
	passert.AllWithinBounds(s, beam.ParDo(s, pairScore, pairs), 0, 1)
	m, err := run(t, p)
	require.NoError(t, err)
	want := memPairs(t, cfg, docs)
	// Every verified pair is a candidate; unverified there are at least as many.
	assert.GreaterOrEqual(t, m[MetricDistinctPairs], int64(len(want)))
}

func TestMinHashPairsBadInput(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	_, err := MinHashPairs(s, beam.CreateList(s, []Doc{{ID: "a", Text: "x"}}), MinHashConfig{Sketch: minhash.Config{Mode: minhash.Weighted}})
	require.ErrorIs(t, err, detector.ErrInvalidConfig)
	_, err = MinHashPairs(s, beam.CreateList(s, []Doc{{ID: "a", Text: "x"}}), MinHashConfig{Sketch: minhash.Config{Threshold: 2}})
	require.ErrorIs(t, err, detector.ErrInvalidConfig)

	for name, docs := range map[string][]Doc{
		"empty ID":     {{ID: "", Text: "some words here"}},
		"duplicate ID": {{ID: "a", Text: "some words here and there"}, {ID: "a", Text: "some words here and there"}},
	} {
		t.Run(name, func(t *testing.T) {
			p, s := beam.NewPipelineWithRoot()
			_, err := MinHashPairs(s, beam.CreateList(s, docs), MinHashConfig{})
			require.NoError(t, err)
			_, err = run(t, p)
			require.Error(t, err)
		})
	}
}
