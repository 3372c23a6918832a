package dedup

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/direct" // -runner=direct
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/minhash"
)

// The benchmarks run each stage prefix of a pipeline once per iteration on
// the test runner (Prism by default) and report documents per second and
// shuffle payload bytes per document; a stage's own cost is the difference
// between consecutive prefixes. Run with -benchtime 1x: one run of a
// pipeline over -docs documents is the unit of work.
var benchDocs = flag.Int("docs", 10000, "synthetic documents per benchmark run")

// countFn and countKVFn end every prefix: they count what reaches them.
type countFn struct{ n beam.Counter }

func (f *countFn) Setup() { f.n = beam.NewCounter(Namespace, "sink") }

func (f *countFn) ProcessElement(ctx context.Context, _ beam.T) { f.n.Inc(ctx, 1) }

type countKVFn struct{ n beam.Counter }

func (f *countKVFn) Setup() { f.n = beam.NewCounter(Namespace, "sink") }

func (f *countKVFn) ProcessElement(ctx context.Context, _ beam.X, _ beam.Y) { f.n.Inc(ctx, 1) }

func init() {
	beam.RegisterType(reflect.TypeOf((*countFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*countKVFn)(nil)).Elem())
}

// writeJSONL writes docs to a temporary JSONL file for ReadDocs.
func writeJSONL(b *testing.B, docs []Doc) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "docs.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

func benchMinHash(b *testing.B, docs []Doc, cfg minhash.Config) {
	path := writeJSONL(b, docs)
	for _, st := range []struct {
		name string
		last int // −1: read only
	}{{"read", -1}, {"sign", stageSign}, {"collapse", stageCollapse}, {"band", stageBand}, {"verify", stageVerify}} {
		b.Run(st.name, func(b *testing.B) {
			var m map[string]int64
			start := time.Now()
			for range b.N {
				p, s := beam.NewPipelineWithRoot()
				in := ReadDocs(s, path)
				if st.last < 0 {
					beam.ParDo0(s, &countFn{}, in)
				} else {
					out, err := minhashStages(s, in, MinHashConfig{Sketch: cfg}, st.last)
					if err != nil {
						b.Fatal(err)
					}
					switch st.last {
					case stageSign:
						beam.ParDo0(s, &countKVFn{}, out.signed)
					case stageCollapse:
						beam.ParDo0(s, &countKVFn{}, out.bandRecs)
					case stageBand:
						beam.ParDo0(s, &countKVFn{}, out.cands)
					default:
						beam.ParDo0(s, &countFn{}, out.pairs)
					}
				}
				var err error
				if m, err = runCounters(p); err != nil {
					b.Fatal(err)
				}
			}
			sec := time.Since(start).Seconds() / float64(b.N)
			n := float64(len(docs))
			b.ReportMetric(n/sec, "docs/s")
			for _, c := range []string{MetricShuffleCollapse, MetricShuffleBands, MetricShuffleJoin1, MetricShuffleJoin2} {
				if v, ok := m[c]; ok {
					b.ReportMetric(float64(v)/n, c[len("shuffle_bytes_"):]+"-B/doc")
				}
			}
			if v, ok := m[MetricBandRecords]; ok {
				b.ReportMetric(float64(v)/n, "bandrec/doc")
			}
			if v, ok := m[MetricDistinctPairs]; ok {
				b.ReportMetric(float64(v)/n, "cand/doc")
			}
			if v, ok := m["sink"]; ok && st.last == stageVerify {
				b.ReportMetric(float64(v)/n, "pairs/doc")
			}
		})
	}
}

// runCounters runs p on the test runner and returns the counters of
// Namespace.
func runCounters(p *beam.Pipeline) (map[string]int64, error) {
	res, err := ptest.RunWithMetrics(p) // -runner, Prism by default

	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() == Namespace {
			out[c.Name()] += c.Result()
		}
	}
	return out, nil
}

// BenchmarkMinHashStages measures MinHashPairs on -docs synthetic
// documents at threshold 0.5 (25 bands... as minhash.Params derives).
func BenchmarkMinHashStages(b *testing.B) {
	benchMinHash(b, synthDocs(*benchDocs, 11), minhash.Config{Threshold: 0.5})
}

// BenchmarkMinHashStagesReuters measures the same on Reuters-21578.
func BenchmarkMinHashStagesReuters(b *testing.B) {
	recs, err := dataset.Load("reuters21578.jsonl")
	if errors.Is(err, dataset.ErrNoData) {
		b.Skipf("no Reuters: %v", err)
	}
	if err != nil {
		b.Fatal(err)
	}
	docs := make([]Doc, len(recs))
	for i, r := range recs {
		docs[i] = Doc{ID: r.ID, Text: r.Text}
	}
	benchMinHash(b, docs, minhash.Config{Threshold: 0.5})
}
