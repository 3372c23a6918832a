package mrcosine

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// benchTexts is the news stream every speed figure is measured on.
var benchTexts = sync.OnceValue(func() []string { return synthTexts(1000, 42) })

// BenchmarkFloor is the floor every speed is reported against (internal/testkit).
func BenchmarkFloor(b *testing.B) { testkit.Run(b, benchTexts()) }

// BenchmarkAnalyzer is the textproc analyzer alone over the same texts.
func BenchmarkAnalyzer(b *testing.B) {
	testkit.RunAnalyzer(b, textproc.Config{}, benchTexts())
}

// BenchmarkSignature signs the same texts with the default reference.
func BenchmarkSignature(b *testing.B) {
	texts := benchTexts()
	ref := Default()
	buf := make([]float32, 0, ref.Parts())
	testkit.RunEach(b, texts, func(t string) { buf = ref.AppendSignature(buf[:0], t) })
}

// BenchmarkSignatureSize signs one text of 100 B, 4 KB and 100 KB.
func BenchmarkSignatureSize(b *testing.B) {
	all := strings.Join(benchTexts(), "\n\n")
	ref := Default()
	for _, n := range []int{100, 4 << 10, 100 << 10} {
		text := all[:n]
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			buf := make([]float32, 0, ref.Parts())
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				buf = ref.AppendSignature(buf[:0], text)
			}
		})
	}
}

// BenchmarkCosine compares two signatures.
func BenchmarkCosine(b *testing.B) {
	x, y := Default().Signature(benchTexts()[0]), Default().Signature(benchTexts()[1])
	b.ReportAllocs()
	var s float64
	for b.Loop() {
		s += Cosine(x, y)
	}
	_ = s
}

type signedDocs struct {
	docs []detector.Doc
	sigs [][]float32
}

var streams sync.Map // n → *signed

// signedStream returns n Reuters documents in date order with their
// signatures; past the 19,043 bodies it starts over with each body tagged as
// a re-publication, so a 100k stream holds about five near-duplicate copies
// of every story. The synthetic stream of internal/dataset is no use here: its
// invented words give every document the same trigram statistics, so all
// its signatures are within T2 of each other.
func signedStream(b *testing.B, n int) *signedDocs {
	if v, ok := streams.Load(n); ok {
		return v.(*signedDocs)
	}
	recs := dataset.Reuters(b, 0)
	s := &signedDocs{docs: make([]detector.Doc, n), sigs: make([][]float32, n)}
	for i := range s.docs {
		r := recs[i%len(recs)]
		text := r.Text
		if k := i / len(recs); k > 0 {
			text = fmt.Sprintf("%s\n\n(Republished, edition %d)", text, k+1)
		}
		s.docs[i] = detector.Doc{ID: fmt.Sprintf("r%06d", i), Text: text}
	}
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 2 {
				s.sigs[i] = Default().Signature(s.docs[i].Text)
			}
		}()
	}
	wg.Wait()
	streams.Store(n, s)
	return s
}

// fill returns a snapshot that holds the documents of s under their
// signatures, as Adds of them would leave d, to fill d without the search
// of every Add.
func fill(b *testing.B, d *Detector, s *signedDocs) []byte {
	var groups []engine.SnapshotGroup[sig]
	byVec := map[string]int{}
	var none []string
	sc := d.newSigned()
	for i, doc := range s.docs { // in ascending order of ID
		sc.raw = append(sc.raw[:0], s.sigs[i]...)
		d.prepare(sc)
		if sc.vec == nil {
			none = append(none, doc.ID)
			continue
		}
		k := vecKey(sc.vec)
		if j, ok := byVec[k]; ok {
			groups[j].IDs = append(groups[j].IDs, doc.ID)
			continue
		}
		byVec[k] = len(groups)
		groups = append(groups, engine.SnapshotGroup[sig]{F: &sig{vec: slices.Clone(sc.vec)}, IDs: []string{doc.ID}})
	}
	secs := algorithm{d}.EncodeSections(groups, none, nil)
	return testkit.Frame(b, d.header(), algorithm{d}.Sections(), secs, len(s.docs))
}

// BenchmarkQuery measures Containers of a random live document in a
// detector holding 10k and 100k Reuters documents (signedStream), through the LSH
// index (plain and Centered, default thresholds) and by exhaustive
// comparison (the all-pairs comparison of Mohammadi and Khasteh 2020 §3.5).
func BenchmarkQuery(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		for _, mode := range []string{"index", "centered", "exhaustive"} {
			b.Run(fmt.Sprintf("%d/%s", n, mode), func(b *testing.B) {
				s := signedStream(b, n)
				d, err := New(Config{Exhaustive: mode == "exhaustive", Centered: mode == "centered"})
				if err != nil {
					b.Fatal(err)
				}
				load := fill(b, d, s)
				if _, err := d.ReadFrom(bytes.NewReader(load)); err != nil {
					b.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(1, 1))
				d.ix().checked.Store(0)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := d.Containers(s.docs[rng.IntN(n)].ID); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(d.ix().checked.Load())/float64(b.N), "cosines/op")
			})
		}
	}
}

// BenchmarkTrainGeneration is one generation of the GA at the default sizes
// (population 100 + 100 children, 1000 genes, 150 parts, 200 sample
// documents, pool 9000) on GOMAXPROCS workers.
func BenchmarkTrainGeneration(b *testing.B) {
	texts := synthTexts(2000, 5)
	cfg := TrainConfig{Seed: 1}
	cfg.setDefaults()
	tc := TextConfig{}
	profs, err := profiles(context.Background(), tc, texts, cfg.Workers)
	if err != nil {
		b.Fatal(err)
	}
	all := make([]int, len(texts))
	for i := range all {
		all[i] = i
	}
	g := &ga{cfg: cfg, tc: tc, pool: rankPool(profs, all, cfg.PoolSize, cfg.Ranking), profs: profs}
	g.index(all)
	rng := rand.New(rand.NewPCG(1, 1))
	pop := make([][]int32, cfg.Population)
	for i := range pop {
		pop[i] = make([]int32, cfg.Genes)
		for k := range pop[i] {
			pop[i][k] = int32(rng.IntN(len(g.pool)))
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		kids := g.offspring(rng, pop)
		if _, err := g.evaluate(context.Background(), append(pop[:len(pop):len(pop)], kids...), g.sample(rng, all)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/generation")
}

// reutersBench is the stream the Add throughput is measured on: the first
// 5000 Reuters bodies in date order (as examples/table measures every
// detector).
func reutersBench(b *testing.B) []detector.Doc {
	return dataset.Docs(dataset.Reuters(b, 5000))
}

// BenchmarkFloorReuters is the floor over the Reuters stream of
// BenchmarkAddReuters, in the same run.
func BenchmarkFloorReuters(b *testing.B) {
	texts := dataset.Texts(dataset.Reuters(b, 5000))
	cpu := cpuTime()
	testkit.Run(b, texts)
	// Run passes over the texts once before timing: b.N+1 passes in all.
	if c := cpuTime() - cpu; c > 0 {
		b.ReportMetric(float64(len(texts))*float64(b.N+1)/c.Seconds(), "cpu-docs/s")
	}
}

// reportCPU reports docs per second of process CPU time since cpu.
func reportCPU(b *testing.B, cpu time.Duration, docs int) {
	if c := cpuTime() - cpu; c > 0 {
		b.ReportMetric(float64(docs)*float64(b.N)/c.Seconds(), "cpu-docs/s")
	}
}

// BenchmarkAddReuters adds the Reuters stream to a new detector per
// iteration (plain and Centered signatures, default thresholds): Add only,
// content filter on.
func BenchmarkAddReuters(b *testing.B) {
	docs := reutersBench(b)
	total := 0
	for _, d := range docs {
		total += len(d.Text)
	}
	for _, mode := range []string{"plain", "centered"} {
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				d, err := New(Config{Centered: mode == "centered"})
				if err != nil {
					b.Fatal(err)
				}
				for _, doc := range docs {
					if _, err := d.Add(doc); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
			reportCPU(b, cpu, len(docs))
		})
	}
}

// BenchmarkAddGoroutines adds the Reuters stream of BenchmarkAddReuters
// from 1 and 2 goroutines (document i from goroutine i mod g): signing and
// hashing run outside the lock, so 2 goroutines add faster on 2 cores.
func BenchmarkAddGoroutines(b *testing.B) {
	docs := reutersBench(b)
	for _, mode := range []string{"plain", "centered"} {
		for _, g := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/%d", mode, g), func(b *testing.B) {
				testkit.AddParallel(b, func() (detector.Detector, error) {
					return New(Config{Centered: mode == "centered"})
				}, docs, g)
			})
		}
	}
}
