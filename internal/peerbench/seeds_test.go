package peerbench

import (
	"flag"
	"fmt"
	"math"
	"testing"

	gominhash "github.com/dgryski/go-minhash"
	minhashlsh "github.com/ekzhu/minhash-lsh"
	"github.com/zeebo/xxh3"

	"github.com/seed-9ef9c1df/neardup/minhash"
)

var seedsFlag = flag.Int("seeds", 0, "TestRecallOverSeeds: number of hash seeds to average recall over (0 skips it)")

// seedStats accumulates, over the true pairs, what an LSH index with
// verification reports: a pair is found when the two signatures share a
// band and their estimate reaches Threshold.
type seedStats struct {
	band, est, found int
	bias, sq         float64 // sums of (estimate − J) and its square, pairs with J < 0.9
	n                int
}

func (s *seedStats) add(j, est float64, band bool) {
	if band {
		s.band++
	}
	if est >= Threshold {
		s.est++
	}
	if band && est >= Threshold {
		s.found++
	}
	if j < 0.9 {
		s.bias += est - j
		s.sq += (est - j) * (est - j)
		s.n++
	}
}

func shareBand[T comparable](a, b []T, bands, rows int) bool {
	for i := range bands {
		eq := true
		for r := range rows {
			if a[i*rows+r] != b[i*rows+r] {
				eq = false
				break
			}
		}
		if eq {
			return true
		}
	}
	return false
}

// TestRecallOverSeeds repeats the recall comparison of the benchmark over
// several hash seeds, on signatures alone (banding and verification as the
// indexes do them), so that a recall difference can be told from the luck
// of one seed. It also reports the bias and RMS error of each estimator on
// the true pairs with J < 0.9. Opt-in: go test -run RecallOverSeeds -seeds 8 -v.
func TestRecallOverSeeds(t *testing.T) {
	if *seedsFlag <= 0 {
		t.Skip("opt-in: -seeds N")
	}
	f := load(t)
	bands, rows, err := minhash.Params(Threshold, K, minhash.DefaultFalseWeight, minhash.DefaultFalseWeight)
	if err != nil {
		t.Fatal(err)
	}
	lsh := minhashlsh.NewMinhashLSH64(K, Threshold)
	pk, pl := lsh.Params()
	var ours, ekzhu, dgr seedStats
	for seed := range *seedsFlag {
		cfg := minhashConfig
		cfg.Seed = uint64(seed)
		sk, err := minhash.NewSketcher(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s2 := uint64(seed)*0x9e3779b97f4a7c15 + 1
		h1 := func(b []byte) uint64 { return xxh3.HashSeed(b, uint64(seed)) }
		h2 := func(b []byte) uint64 { return xxh3.HashSeed(b, s2) }
		var o, e, d seedStats
		for p, j := range f.truth {
			a, _ := sk.AppendSignature(nil, f.docs[p.A].Text)
			b, _ := sk.AppendSignature(nil, f.docs[p.B].Text)
			o.add(j, minhash.Similarity(a, b), shareBand(a, b, bands, rows))

			ma, mb := minhashlsh.NewMinhash(int64(seed+1), K), minhashlsh.NewMinhash(int64(seed+1), K)
			da, db := gominhash.NewMinWise(h1, h2, K), gominhash.NewMinWise(h1, h2, K)
			for _, s := range f.shingles[p.A] {
				ma.Push(s)
				da.Push(s)
			}
			for _, s := range f.shingles[p.B] {
				mb.Push(s)
				db.Push(s)
			}
			sa, sb := ma.Signature(), mb.Signature()
			e.add(j, similarity64(sa, sb), shareBand(sa, sb, pl, pk))
			sa, sb = da.Signature(), db.Signature()
			d.add(j, similarity64(sa, sb), shareBand(sa, sb, pl, pk))
		}
		t.Logf("seed %d: found (band ∧ estimate ≥ %.2f) of %d true pairs: ours %d, ekzhu %d, dgryski %d", seed, Threshold, len(f.truth), o.found, e.found, d.found)
		for _, x := range []struct{ sum, one *seedStats }{{&ours, &o}, {&ekzhu, &e}, {&dgr, &d}} {
			x.sum.band += x.one.band
			x.sum.est += x.one.est
			x.sum.found += x.one.found
			x.sum.bias += x.one.bias
			x.sum.sq += x.one.sq
			x.sum.n += x.one.n
		}
	}
	runs := float64(*seedsFlag)
	total := float64(len(f.truth)) * runs
	for _, x := range []struct {
		name string
		s    *seedStats
	}{{"ours (one-permutation + densification, 32-bit)", &ours}, {"ekzhu (FNV, h1 + i·h2, 64-bit)", &ekzhu}, {"dgryski (xxh3, h1 + i·h2, 64-bit)", &dgr}} {
		msg := fmt.Sprintf("%-48s mean recall %.4f (band %.4f, estimate ≥ t %.4f); estimate − J on %d pairs with J < 0.9: bias %+.4f, RMSE %.4f",
			x.name, float64(x.s.found)/total, float64(x.s.band)/total, float64(x.s.est)/total,
			x.s.n/(*seedsFlag), x.s.bias/float64(x.s.n), math.Sqrt(x.s.sq/float64(x.s.n)))
		t.Log(msg)
	}
	t.Logf("banding: ours %d×%d, peers %d×%d; %d seeds, %d documents", bands, rows, pl, pk, *seedsFlag, len(f.docs))
}
