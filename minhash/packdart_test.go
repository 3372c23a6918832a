package minhash

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

// TestPackedDartUnbiased checks the packed-dart collision rate against the
// exact weighted Jaccard over many seeds for weights far below 1, around 1
// and far above, and its consistency.
func TestPackedDartUnbiased(t *testing.T) {
	for _, scale := range []float64{1e-200, 0.01, 1, 1e6, 1e200} {
		t.Run(fmt.Sprint(scale), func(t *testing.T) { checkUnbiased(t, PackedDartMinHash, scale) })
	}
	t.Run("Consistent", func(t *testing.T) {
		keys := []uint64{1, 2, 3}
		a := PackedDartMinHash(nil, keys, []float64{1, 2, 3}, 32, 5)
		require.Len(t, a, 32)
		assert.Equal(t, a, PackedDartMinHash(nil, keys, []float64{1, 2, 3}, 32, 5), "same input, same samples")
		assert.Equal(t, a, PackedDartMinHash(nil, []uint64{3, 1, 2}, []float64{3, 1, 2}, 32, 5), "order does not matter")
		assert.Equal(t, a, PackedDartMinHash(nil, []uint64{3, 1, 2, 4}, []float64{3, 1, 2, 0}, 32, 5), "a zero weight is absence")
		assert.NotEqual(t, a, PackedDartMinHash(nil, keys, []float64{1, 2, 3}, 32, 6), "another seed, other samples")
		assert.NotEqual(t, a, DartMinHash(nil, keys, []float64{1, 2, 3}, 32, 5), "not the dart sampler's samples")
		assert.Empty(t, PackedDartMinHash(nil, keys, []float64{0, -1, math.NaN()}, 32, 5), "no positive weight, no sample")
		assert.Empty(t, PackedDartMinHash(nil, keys, []float64{1, 2, 3}, 0, 5), "k = 0")
		for _, v := range a {
			assert.Zero(t, v&densifiedBit, "31-bit values")
		}
	})
}

// TestPackedPoissonCount checks the table lookup of a cell's dart count
// against the search at every threshold, on both sides, and on random
// hashes, and that the table is the Poisson(packCell) distribution.
func TestPackedPoissonCount(t *testing.T) {
	us := []uint64{0, 1<<32 - 1}
	for _, th := range packCounts.cum {
		us = append(us, th-1, th, th+1)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for range 100000 {
		us = append(us, r.Uint64()>>32)
	}
	for _, u := range us {
		if u >= 1<<32 {
			continue
		}
		require.Equal(t, packCounts.search(u), packCounts.count(u), "u = %d", u)
	}
	assert.InDelta(t, math.Exp(-packCell)*(1<<32), float64(packCounts.cum[0]), 1)
	assert.InDelta(t, 1<<32, float64(packCounts.cum[len(packCounts.cum)-1]), 1)
}

// TestPackedSampler checks that Config.Sampler = PackedDarts reaches the
// packed sampler, that the zero Sampler means it, and that its signature
// of a text differs from Darts'.
func TestPackedSampler(t *testing.T) {
	text := "the quick brown fox jumps over the lazy dog while the cat sleeps on the warm mat by the door"
	sk, err := NewSketcher(Config{Mode: Weighted, Sampler: PackedDarts, Shingle: 3})
	require.NoError(t, err)
	sig, _ := sk.Signature(text)
	require.Len(t, sig, DefaultNumHashes)
	again, _ := sk.Signature(text)
	assert.Equal(t, sig, again, "consistent")
	def, err := NewSketcher(Config{Mode: Weighted, Shingle: 3})
	require.NoError(t, err)
	assert.Equal(t, PackedDarts, def.Config().Sampler, "the default sampler")
	dsig, _ := def.Signature(text)
	assert.Equal(t, sig, dsig, "the default is PackedDarts")
	dk, err := NewSketcher(Config{Mode: Weighted, Shingle: 3, Sampler: Darts})
	require.NoError(t, err)
	other, _ := dk.Signature(text)
	assert.Less(t, Similarity(sig, other), 0.2, "packed and dart samples do not compare")
	near, _ := sk.Signature(text + " and more")
	assert.Greater(t, Similarity(sig, near), 0.5, "a near copy stays near")
}

// FuzzPackedDart feeds random weighted sets (weights near 0, huge, one
// element, NaN and ±Inf, which count as absent) to the packed sampler: it
// never panics, always returns k values or none, is deterministic and
// independent of the order of the elements.
func FuzzPackedDart(f *testing.F) {
	f.Add([]byte{}, uint8(16), uint64(1))
	f.Add(binary.LittleEndian.AppendUint64(nil, math.Float64bits(1)), uint8(1), uint64(2))
	f.Add(binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.MaxFloat64)), uint8(128), uint64(3))
	f.Add(binary.LittleEndian.AppendUint64(nil, math.Float64bits(5e-324)), uint8(64), uint64(4))
	f.Add(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.NaN())), math.Float64bits(math.Inf(1))), uint8(8), uint64(5))
	f.Fuzz(func(t *testing.T, data []byte, kb uint8, seed uint64) {
		k := int(kb)
		var keys []uint64
		var ws []float64
		for i := 0; i+8 <= len(data) && len(keys) < 300; i += 8 {
			keys = append(keys, uint64(len(keys))*0x9e3779b97f4a7c15+1)
			ws = append(ws, math.Float64frombits(binary.LittleEndian.Uint64(data[i:])))
		}
		present := 0
		for _, w := range ws {
			if w > 0 && !math.IsInf(w, 0) {
				present++
			}
		}
		a := PackedDartMinHash(nil, keys, ws, k, seed)
		if present == 0 || k == 0 {
			require.Empty(t, a)
			return
		}
		require.Len(t, a, k)
		require.Equal(t, a, PackedDartMinHash(nil, keys, ws, k, seed), "deterministic")
		rk, rw := make([]uint64, len(keys)), make([]float64, len(ws))
		for i := range keys {
			rk[len(keys)-1-i], rw[len(ws)-1-i] = keys[i], ws[i]
		}
		require.Equal(t, a, PackedDartMinHash(nil, rk, rw, k, seed), "order-independent")
		for _, v := range a {
			require.Zero(t, v&densifiedBit)
		}
	})
}

// BenchmarkSampler is Add of the Reuters documents into a fresh
// Weighted-mode Detector at the defaults, from one goroutine, by each
// sampler, with the floor in the same run (ICWS, about 20 times slower,
// is BenchmarkWeighted/ICWS).
func BenchmarkSampler(b *testing.B) {
	texts, docs, _ := reutersTexts(b)
	b.Run("floor", func(b *testing.B) { testkit.Run(b, texts) })
	for _, s := range []struct {
		name    string
		sampler Sampler
	}{{"Darts", Darts}, {"PackedDarts", PackedDarts}} {
		b.Run(s.name, func(b *testing.B) {
			testkit.AddParallel(b, func() (detector.Detector, error) {
				return New(Config{Mode: Weighted, Sampler: s.sampler})
			}, docs, 1)
		})
	}
}

// reutersWeighted returns the phrase keys and log-weights of the Reuters
// documents under statistics of all of them (the default weighting).
func reutersWeighted(b *testing.B) (keys [][]uint64, lws [][]float64) {
	texts, _, _ := reutersTexts(b)
	cfg := Config{Mode: Weighted}
	st, err := NewStats(cfg)
	require.NoError(b, err)
	for _, t := range texts {
		st.AddDocument(t)
	}
	sk, err := NewSketcher(cfg)
	require.NoError(b, err)
	for _, t := range texts {
		sk.phrases(t)
		sk.weigh(st)
		keys = append(keys, append([]uint64(nil), sk.keys...))
		lws = append(lws, append([]float64(nil), sk.lw...))
	}
	return keys, lws
}

// BenchmarkSamplerCPU is the weighted sampling alone of the Reuters
// documents' phrases at their default weights (statistics of all of
// them), per sampler, timed by the thread's CPU time (getrusage), which a
// loaded machine disturbs less than wall time: ns/doc per sampler and the
// dart sampler's time over the packed one's.
func BenchmarkSamplerCPU(b *testing.B) {
	keys, lws := reutersWeighted(b)
	var ds dartScratch
	dst := make([]uint32, 0, DefaultNumHashes)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	var tDart, tPack time.Duration
	for b.Loop() {
		t0 := cpu()
		for i := range keys {
			dst = ds.sample(dst[:0], keys[i], lws[i], DefaultNumHashes, 1)
		}
		t1 := cpu()
		for i := range keys {
			dst = ds.samplePacked(dst[:0], keys[i], lws[i], DefaultNumHashes, 1)
		}
		t2 := cpu()
		tDart += t1 - t0
		tPack += t2 - t1
	}
	n := float64(len(keys) * b.N)
	b.ReportMetric(float64(tDart)/n, "darts-ns/doc")
	b.ReportMetric(float64(tPack)/n, "packed-ns/doc")
	b.ReportMetric(float64(tDart)/float64(tPack), "speedup")
}

// TestDartsConformance runs the detector conformance suite on Weighted
// mode with the Darts sampler (the default, PackedDarts, runs in
// TestConformance), online and with fixed statistics.
func TestDartsConformance(t *testing.T) {
	if raceEnabled {
		t.Skip("the suite's 5 MB input is slow under -race; TestPackedConcurrent covers the locking")
	}
	cfg := WeightedConfig()
	cfg.Sampler = Darts
	stats, err := NewStats(cfg)
	require.NoError(t, err)
	for _, doc := range dataset.SynthDocs(100, dataset.SynthConfig{Seed: 4}) {
		stats.AddDocument(doc.Text)
	}
	for _, st := range []*Stats{nil, stats} {
		t.Run(fmt.Sprint("stats=", st != nil), func(t *testing.T) {
			if st != nil {
				// TestConformance/WeightedStats checks a weighted detector
				// fed statistics by default; with darts, NEARDUP_LONG.
				dataset.SkipLong(t)
			}
			detectortest.Run(t, func() detector.Detector {
				d, err := NewWithStats(cfg, st)
				require.NoError(t, err)
				return d
			}, detectortest.Options{Symmetric: true})
		})
	}
}

// TestPackedConcurrent signs documents with the PackedDarts and Darts
// samplers from several goroutines, each with its own Sketcher, against fixed
// statistics: every signature equals the one a single goroutine makes.
func TestPackedConcurrent(t *testing.T) {
	for _, sampler := range []Sampler{PackedDarts, Darts} {
		testSignConcurrent(t, Config{Mode: Weighted, Sampler: sampler})
	}
}

func testSignConcurrent(t *testing.T, cfg Config) {
	docs := dataset.SynthDocs(120, dataset.SynthConfig{Seed: 6})
	st, err := NewStats(cfg)
	require.NoError(t, err)
	for _, d := range docs {
		st.AddDocument(d.Text)
	}
	sk, err := NewSketcher(cfg)
	require.NoError(t, err)
	want := make([][]uint32, len(docs))
	for i, d := range docs {
		want[i], _ = sk.AppendWeightedSignature(nil, d.Text, st)
	}
	got := make([][]uint32, len(docs))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			sk, err := NewSketcher(cfg)
			if !assert.NoError(t, err) {
				return
			}
			for i := w; i < len(docs); i += 4 {
				got[i], _ = sk.AppendWeightedSignature(nil, docs[i].Text, st)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, want, got)
}

// BenchmarkAddCPU is Add of the Reuters documents into a fresh
// Weighted-mode Detector at the defaults from one goroutine, per
// sampler, and the floor over the same texts, each timed by the thread's
// CPU time (getrusage), which a loaded machine disturbs less than wall
// time; it reports each sampler's CPU per document as a multiple of the
// floor's.
func BenchmarkAddCPU(b *testing.B) {
	texts, docs, _ := reutersTexts(b)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	samplers := []Sampler{Darts, PackedDarts}
	spent := make([]time.Duration, len(samplers))
	var floor time.Duration
	for b.Loop() {
		t0 := cpu()
		for _, t := range texts {
			testkit.Sink += testkit.Floor(t)
		}
		floor += cpu() - t0
		for i, s := range samplers {
			d, err := New(Config{Mode: Weighted, Sampler: s})
			require.NoError(b, err)
			t0 := cpu()
			for _, doc := range docs {
				if _, err := d.Add(doc); err != nil {
					b.Fatal(err)
				}
			}
			spent[i] += cpu() - t0
		}
	}
	n := float64(len(docs) * b.N)
	b.ReportMetric(float64(floor)/n, "floor-ns/doc")
	b.ReportMetric(float64(spent[0])/float64(floor), "darts-x-floor")
	b.ReportMetric(float64(spent[1])/float64(floor), "packed-x-floor")
}

// TestPackedDartStable pins the packed sampler's values on fixed weighted
// sets: signatures stored in snapshots compare only with signatures made
// the same way, so a change of layout must be a new Sampler, not a silent
// change of PackedDarts. The digest changes only when some value does.
func TestPackedDartStable(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var digest uint64
	for i := range 20 {
		keys, wa, _ := weightedPair(r, 1+i*17, float64(i%9), 0.5)
		for _, v := range PackedDartMinHash(nil, keys, wa, 64, uint64(i)) {
			digest = digest*0x100000001b3 ^ uint64(v)
		}
	}
	assert.Equal(t, uint64(0x47c0d7f1a95658d4), digest, "PackedDarts values changed: a new layout needs a new Sampler value")
}
