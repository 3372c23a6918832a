package minhash

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// benchDocs is the Reuters prefix every speed figure is measured on.
const benchDocs = 5000

// peerConfig is the analyzer and signature setting of the peer
// comparison in internal/peerbench: tokenise and lower-case, word
// 3-shingles, K = 128.
var peerConfig = Config{Shingle: 3, NumHashes: 128}

func reutersTexts(b *testing.B) ([]string, []detector.Doc, int64) {
	recs := dataset.Reuters(b, benchDocs)
	texts := make([]string, len(recs))
	var total int64
	for i, r := range recs {
		texts[i] = r.Text
		total += int64(len(r.Text))
	}
	return texts, dataset.Docs(recs), total
}

// BenchmarkFloor is the floor every figure is a multiple of (same run).
func BenchmarkFloor(b *testing.B) {
	texts, _, _ := reutersTexts(b)
	testkit.Run(b, texts)
}

// BenchmarkAnalyzer is the textproc Analyzer alone over the same texts.
func BenchmarkAnalyzer(b *testing.B) {
	texts, _, total := reutersTexts(b)
	an, err := textproc.NewAnalyzer(textproc.Config{})
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range texts {
		an.Analyze(t)
	}
	b.SetBytes(total)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, t := range texts {
			n += len(an.Analyze(t).Tokens)
		}
	}
}

func benchSignatures(b *testing.B, cfg Config) {
	texts, _, total := reutersTexts(b)
	sk, err := NewSketcher(cfg)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]uint32, 0, cfg.NumHashes)
	for _, t := range texts {
		sk.AppendSignature(dst[:0], t)
	}
	b.SetBytes(total)
	b.ReportAllocs()
	var sink uint32
	for b.Loop() {
		for _, t := range texts {
			sig, _ := sk.AppendSignature(dst[:0], t)
			if len(sig) > 0 {
				sink += sig[0]
			}
		}
	}
	testkit.Sink += uint64(sink)
	b.ReportMetric(float64(len(texts))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkSignature: one-permutation hashing with densification, the
// peers' setting.
func BenchmarkSignature(b *testing.B) { benchSignatures(b, peerConfig) }

// BenchmarkSignatureKHash: classic 128-hash MinHash, for comparison.
func BenchmarkSignatureKHash(b *testing.B) {
	cfg := peerConfig
	cfg.Scheme = KHash
	benchSignatures(b, cfg)
}

// BenchmarkPipeline: signatures + LSH build + query, i.e. Add of every
// document into a fresh detector (Add signs, queries and inserts).
func BenchmarkPipeline(b *testing.B) {
	for _, th := range []float64{0.5, DefaultThreshold} {
		b.Run(fmt.Sprintf("t=%.2f", th), func(b *testing.B) {
			_, docs, total := reutersTexts(b)
			cfg := peerConfig
			cfg.Threshold = th
			b.SetBytes(total)
			b.ReportAllocs()
			found := 0
			for b.Loop() {
				d, err := New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				for _, doc := range docs {
					ms, err := d.Add(doc)
					if err != nil {
						b.Fatal(err)
					}
					found += len(ms)
				}
			}
			b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
			b.ReportMetric(float64(found)/float64(b.N), "matches")
		})
	}
}

// BenchmarkQueryScaling measures Containers (band probes + verification)
// on synthetic collections of growing size: the cost per query should stay
// flat. NEARDUP_BENCH_MAX is not read; sizes above 100k run only without
// -short.
func BenchmarkQueryScaling(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			if n > 100_000 && testing.Short() {
				b.Skip("-short")
			}
			cfg := peerConfig
			cfg.Threshold = 0.5
			d, err := New(cfg)
			if err != nil {
				b.Fatal(err)
			}
			s := dataset.NewSynth(dataset.SynthConfig{Seed: 1})
			ids := make([]string, 0, 1000)
			for i := range n {
				it := s.Next()
				if _, err := d.Add(it.Doc); err != nil {
					b.Fatal(err)
				}
				if i%(n/1000) == 0 {
					ids = append(ids, it.Doc.ID)
				}
			}
			b.ReportAllocs()
			i, found := 0, 0
			for b.Loop() {
				ms, err := d.Containers(ids[i%len(ids)])
				if err != nil {
					b.Fatal(err)
				}
				found += len(ms)
				i++
			}
			b.ReportMetric(float64(found)/float64(b.N), "matches/query")
		})
	}
}

// BenchmarkVsFloor interleaves the floor and the measured work on the same
// texts within each iteration and reports their time ratio (x-floor), so
// that load from other processes hits both alike. The median ratio over
// iterations is reported.
func BenchmarkVsFloor(b *testing.B) {
	texts, docs, total := reutersTexts(b)
	sk, _ := NewSketcher(peerConfig)
	kcfg := peerConfig
	kcfg.Scheme = KHash
	skK, _ := NewSketcher(kcfg)
	an, _ := textproc.NewAnalyzer(textproc.Config{})
	work := map[string]func(){
		"Signature": func() {
			dst := make([]uint32, 0, peerConfig.NumHashes)
			for _, t := range texts {
				sig, _ := sk.AppendSignature(dst[:0], t)
				if len(sig) > 0 {
					testkit.Sink += uint64(sig[0])
				}
			}
		},
		"SignatureKHash": func() {
			dst := make([]uint32, 0, peerConfig.NumHashes)
			for _, t := range texts {
				sig, _ := skK.AppendSignature(dst[:0], t)
				if len(sig) > 0 {
					testkit.Sink += uint64(sig[0])
				}
			}
		},
		"Analyzer": func() {
			for _, t := range texts {
				testkit.Sink += uint64(len(an.Analyze(t).Tokens))
			}
		},
	}
	for _, th := range []float64{0.5, DefaultThreshold} {
		cfg := peerConfig
		cfg.Threshold = th
		work[fmt.Sprintf("Pipeline-t=%.2f", th)] = func() {
			d, _ := New(cfg)
			for _, doc := range docs {
				ms, _ := d.Add(doc)
				testkit.Sink += uint64(len(ms))
			}
		}
	}
	names := []string{"Analyzer", "Signature", "SignatureKHash", "Pipeline-t=0.50", fmt.Sprintf("Pipeline-t=%.2f", DefaultThreshold)}
	for _, name := range names {
		fn := work[name]
		b.Run(name, func(b *testing.B) {
			fn() // warm up buffers and the analyzer's vocabulary
			b.SetBytes(total)
			var ratios []float64
			for b.Loop() {
				t0 := time.Now()
				for _, t := range texts {
					testkit.Sink += testkit.Floor(t)
				}
				t1 := time.Now()
				fn()
				t2 := time.Now()
				ratios = append(ratios, float64(t2.Sub(t1))/float64(t1.Sub(t0)))
			}
			slices.Sort(ratios)
			b.ReportMetric(ratios[len(ratios)/2], "x-floor")
		})
	}
}

// BenchmarkWeighted is Add of every Reuters document into a fresh
// Weighted-mode Detector at the package defaults (online statistics), by
// each sampler; Default is Config{Mode: Weighted} (PackedDarts).
func BenchmarkWeighted(b *testing.B) {
	for _, s := range []struct {
		name    string
		sampler Sampler
	}{{"Default", DefaultSampler}, {"Darts", Darts}, {"PackedDarts", PackedDarts}, {"ICWS", IoffeICWS}} {
		b.Run(s.name, func(b *testing.B) {
			_, docs, total := reutersTexts(b)
			b.SetBytes(total)
			b.ReportAllocs()
			found := 0
			for b.Loop() {
				d, err := New(Config{Mode: Weighted, Sampler: s.sampler})
				if err != nil {
					b.Fatal(err)
				}
				for _, doc := range docs {
					ms, err := d.Add(doc)
					if err != nil {
						b.Fatal(err)
					}
					found += len(ms)
				}
			}
			b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
			b.ReportMetric(float64(found)/float64(b.N), "matches")
		})
	}
}
