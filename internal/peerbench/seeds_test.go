package peerbench

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	gominhash "github.com/dgryski/go-minhash"
	minhashlsh "github.com/ekzhu/minhash-lsh"
	"github.com/zeebo/xxh3"

	"github.com/seed-9ef9c1df/neardup/minhash"
)

var benchSeeds = flag.Int("seeds", 8, "hash seeds the recall comparison averages over (TestRecallOverSeeds and the BenchmarkPeers summary); 0 skips it")

// seedStats accumulates, over the true pairs, what an LSH index with
// verification reports: a pair is found when the two signatures share a
// band and their estimate reaches Threshold.
type seedStats struct {
	band, est, found int
	bias, sq         float64 // sums of (estimate − J) and its square, pairs with J < 0.9
	n                int
	perSeed          []int // found per seed
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

// meanSE returns the mean found per seed and its standard error.
func (s *seedStats) meanSE() (float64, float64) {
	k := float64(len(s.perSeed))
	var sum, sq float64
	for _, v := range s.perSeed {
		sum += float64(v)
	}
	mean := sum / k
	for _, v := range s.perSeed {
		sq += (float64(v) - mean) * (float64(v) - mean)
	}
	if k < 2 {
		return mean, 0
	}
	return mean, math.Sqrt(sq / (k - 1) / k)
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

// seedReport is the recall comparison over several hash seeds.
type seedReport struct {
	seeds, truth   int
	bands, rows    int // ours
	pBands, pRows  int // the peers' (ekzhu's parameter search)
	ours, ekzhu, d seedStats
	// The peers' signatures and verification under our banding: how much
	// of a recall difference the banding explains.
	ekzhuOurBands, dOurBands seedStats
}

// recallOverSeeds repeats the recall comparison of the benchmark over
// several hash seeds, on signatures alone (banding and verification as the
// indexes do them: ours by Similarity, the peers by the fraction of equal
// values), so that a recall difference can be told from the luck of one
// seed. It also measures the bias and RMS error of each estimator on the
// true pairs with J < 0.9.
func recallOverSeeds(f *fixture, seeds int) *seedReport {
	bands, rows, err := minhash.Params(Threshold, K, minhash.DefaultFalsePositiveWeight, minhash.DefaultFalseNegativeWeight)
	if err != nil {
		panic(err)
	}
	lsh := minhashlsh.NewMinhashLSH64(K, Threshold)
	pk, pl := lsh.Params()
	rep := &seedReport{seeds: seeds, truth: len(f.truth), bands: bands, rows: rows, pBands: pl, pRows: pk}
	for seed := range seeds {
		cfg := minhashConfig
		cfg.Seed = uint64(seed)
		sk, err := minhash.NewSketcher(cfg)
		if err != nil {
			panic(err)
		}
		s2 := uint64(seed)*0x9e3779b97f4a7c15 + 1
		h1 := func(b []byte) uint64 { return xxh3.HashSeed(b, uint64(seed)) }
		h2 := func(b []byte) uint64 { return xxh3.HashSeed(b, s2) }
		var o, e, d, e2, d2 seedStats
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
			e2.add(j, similarity64(sa, sb), shareBand(sa, sb, bands, rows))
			sa, sb = da.Signature(), db.Signature()
			d.add(j, similarity64(sa, sb), shareBand(sa, sb, pl, pk))
			d2.add(j, similarity64(sa, sb), shareBand(sa, sb, bands, rows))
		}
		for _, x := range []struct{ sum, one *seedStats }{{&rep.ours, &o}, {&rep.ekzhu, &e}, {&rep.d, &d}, {&rep.ekzhuOurBands, &e2}, {&rep.dOurBands, &d2}} {
			x.sum.band += x.one.band
			x.sum.est += x.one.est
			x.sum.found += x.one.found
			x.sum.bias += x.one.bias
			x.sum.sq += x.one.sq
			x.sum.n += x.one.n
			x.sum.perSeed = append(x.sum.perSeed, x.one.found)
		}
	}
	return rep
}

func (r *seedReport) String() string {
	var sb strings.Builder
	total := float64(r.truth) * float64(r.seeds)
	fmt.Fprintf(&sb, "\nrecall over %d hash seeds (signature level: shares a band and estimate ≥ %.2f; %d true pairs; banding ours %d×%d, peers %d×%d):\n",
		r.seeds, Threshold, r.truth, r.bands, r.rows, r.pBands, r.pRows)
	om, ose := r.ours.meanSE()
	for _, x := range []struct {
		name string
		s    *seedStats
	}{
		{"ours (one-permutation + densification, Li estimator)", &r.ours},
		{"ekzhu (FNV, h1 + i·h2, 64-bit)", &r.ekzhu},
		{"dgryski (xxh3, h1 + i·h2, 64-bit)", &r.d},
		{fmt.Sprintf("ekzhu signatures, our %d×%d banding", r.bands, r.rows), &r.ekzhuOurBands},
		{fmt.Sprintf("dgryski signatures, our %d×%d banding", r.bands, r.rows), &r.dOurBands},
	} {
		m, se := x.s.meanSE()
		fmt.Fprintf(&sb, "  %-53s recall %.4f ± %.4f (band %.4f, estimate ≥ t %.4f); estimate − J on %d pairs with J < 0.9: bias %+.4f, RMSE %.4f",
			x.name, m/float64(r.truth), se/float64(r.truth), float64(x.s.band)/total, float64(x.s.est)/total,
			x.s.n/r.seeds, x.s.bias/float64(x.s.n), math.Sqrt(x.s.sq/float64(x.s.n)))
		if x.s != &r.ours {
			diff, dse := om-m, math.Hypot(ose, se)
			verdict := "ours higher"
			switch {
			case diff < 0 && -diff <= 2*dse:
				verdict = "ours lower, within 2 standard errors"
			case diff < 0:
				verdict = "ours lower"
			case diff == 0:
				verdict = "equal"
			}
			fmt.Fprintf(&sb, "; ours − this %+.4f ± %.4f: %s", diff/float64(r.truth), dse/float64(r.truth), verdict)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// TestRecallOverSeeds prints the recall comparison over -seeds hash seeds
// (default 8; go test -run RecallOverSeeds -v -args -seeds 32) and checks
// that ours is not lower than either peer's beyond two standard errors.
func TestRecallOverSeeds(t *testing.T) {
	if *benchSeeds <= 0 {
		t.Skip("-seeds 0")
	}
	f := load(t)
	rep := recallOverSeeds(f, *benchSeeds)
	t.Log(rep.String())
	om, ose := rep.ours.meanSE()
	for name, s := range map[string]*seedStats{"ekzhu": &rep.ekzhu, "dgryski": &rep.d} {
		m, se := s.meanSE()
		if om < m-2*math.Hypot(ose, se) {
			t.Errorf("ours finds %.1f true pairs per seed, %s %.1f: lower beyond two standard errors", om, name, m)
		}
	}
}
