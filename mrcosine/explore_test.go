package mrcosine

import (
	"context"
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

func TestExplore(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	recs := dataset.Reuters(t, 3000)
	var texts []string
	for _, r := range recs {
		texts = append(texts, r.Text)
	}
	start := time.Now()
	ref, err := Train(context.Background(), texts, TrainConfig{Generations: 2, Seed: 1}, func(p Progress) {
		t.Logf("gen %d best %.4f mean %.4f worst %.4f final %v hold %.4f  %v", p.Generation, p.Best, p.Mean, p.Worst, p.Final, p.Holdout, time.Since(start))
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("MAE on 300: %.4f", MeanAbsoluteError(ref, texts[2700:]))
	t.Logf("genes %v", ref.Genes()[:30])
}

func TestExploreWrite(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	recs := dataset.Reuters(t, 2000)
	var texts []string
	for _, r := range recs {
		texts = append(texts, r.Text)
	}
	ref, err := Train(context.Background(), texts, TrainConfig{Generations: 2, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ref.MarshalBinary()
	os.WriteFile("default.mrc", b, 0o644)
}

func TestExploreTrigramF1(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	truth := eval.ClusterTruth{}
	for _, r := range recs {
		truth[r.ID] = r.Cluster
	}
	for _, tc := range []TextConfig{{}} {
		var c counter
		ps := make([]profile, len(recs))
		for i, r := range recs {
			ps[i] = makeProfile(tc, r.Text, &c)
		}
		all := map[eval.Pair]float64{}
		for i := range ps {
			for j := i + 1; j < len(ps); j++ {
				all[eval.NewPair(recs[i].ID, recs[j].ID)] = ps[i].cosine(ps[j])
			}
		}
		best, bt := eval.Counts{FN: 1 << 30}, 0.0
		for th := 0.3; th < 1; th += 0.02 {
			found := map[eval.Pair]float64{}
			for p, s := range all {
				if s >= th {
					found[p] = s
				}
			}
			c := truth.Score(found, false)
			if c.F1() > best.F1() {
				best, bt = c, th
			}
		}
		t.Logf("%+v full trigram cosine best strict F1 at %.2f: %v", tc, bt, best)
	}
}

func unit(s []float32) []float64 {
	var n float64
	for _, x := range s {
		n += float64(x) * float64(x)
	}
	n = math.Sqrt(n)
	out := make([]float64, len(s))
	for i, x := range s {
		if n > 0 {
			out[i] = float64(x) / n
		}
	}
	return out
}

func cos64(a, b []float64) float64 {
	var d, na, nb float64
	for i := range a {
		d += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	return d / math.Sqrt(na*nb)
}

func TestExploreCentered(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	ref := Default()
	reu := dataset.Reuters(t, 3000)
	mu := make([]float64, ref.Parts())
	for _, r := range reu {
		for i, x := range unit(ref.Signature(r.Text)) {
			mu[i] += x / 3000
		}
	}
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	var raw, cen [][]float64
	for _, r := range recs {
		u := unit(ref.Signature(r.Text))
		c := make([]float64, len(u))
		for i := range u {
			c[i] = u[i] - mu[i]
		}
		raw = append(raw, u)
		cen = append(cen, c)
	}
	var above, bg, bgraw []float64
	for i := range raw {
		for j := i + 1; j < len(raw); j++ {
			r := cos64(raw[i], raw[j])
			c := cos64(cen[i], cen[j])
			if r >= 0.88 {
				above = append(above, c)
			}
			bg = append(bg, c)
			bgraw = append(bgraw, r)
		}
	}
	slices.Sort(above)
	slices.Sort(bg)
	slices.Sort(bgraw)
	q := func(s []float64, p float64) float64 { return s[int(p*float64(len(s)-1))] }
	t.Logf("pairs raw>=0.88: %d; centered cos quantiles 0.1%% %.3f 1%% %.3f 5%% %.3f 50%% %.3f", len(above), q(above, 0.001), q(above, 0.01), q(above, 0.05), q(above, 0.5))
	t.Logf("all pairs centered cos: 50%% %.3f 90%% %.3f 99%% %.3f; raw: 50%% %.3f 90%% %.3f 99%% %.3f", q(bg, 0.5), q(bg, 0.9), q(bg, 0.99), q(bgraw, 0.5), q(bgraw, 0.9), q(bgraw, 0.99))
}

func TestExploreVariants(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	recs := dataset.Reuters(t, 0)
	var train, ev []string
	for i, r := range recs {
		if i%2 == 0 {
			train = append(train, r.Text)
		}
		if i%48 == 0 {
			ev = append(ev, r.Text)
		}
	}
	name := os.Getenv("VARIANT")
	cfg := TrainConfig{Generations: 30, Seed: 1}
	switch name {
	case "fixed":
		cfg.Resample = false
	case "fixed400":
		cfg.Resample = false
		cfg.SampleDocs = 400
	case "resample400":
		cfg.SampleDocs = 400
		cfg.Resample = true
	case "ranksum":
		cfg.Ranking = RankSum
	}
	start := time.Now()
	ref, err := Train(context.Background(), train, cfg, func(p Progress) {
		if p.Generation%5 == 0 || p.Final {
			t.Logf("%s gen %d best %.4f mean %.4f final %v hold %.4f  eval %.4f %v", name, p.Generation, p.Best, p.Mean, p.Final, p.Holdout, MeanAbsoluteError(p.Reference, ev), time.Since(start))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s final eval MAE %.4f", name, MeanAbsoluteError(ref, ev))
}

func TestExploreCompare(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	ref := Default()
	reu := dataset.Reuters(t, 3000)
	mu := make([]float64, ref.Parts())
	for _, r := range reu {
		for i, x := range unit(ref.Signature(r.Text)) {
			mu[i] += x / 3000
		}
	}
	recs := dataset.ForTest(t, "goldset-dev.jsonl")
	truth := eval.ClusterTruth{}
	for _, r := range recs {
		truth[r.ID] = r.Cluster
	}
	var raw, cen, pear [][]float64
	for _, r := range recs {
		u := unit(ref.Signature(r.Text))
		c := make([]float64, len(u))
		p := make([]float64, len(u))
		var m float64
		for i := range u {
			m += u[i] / float64(len(u))
		}
		for i := range u {
			c[i] = u[i] - mu[i]
			p[i] = u[i] - m
		}
		raw = append(raw, u)
		cen = append(cen, c)
		pear = append(pear, p)
	}
	for name, vs := range map[string][][]float64{"raw": raw, "centered": cen, "pearson": pear} {
		all := map[eval.Pair]float64{}
		for i := range vs {
			for j := i + 1; j < len(vs); j++ {
				all[eval.NewPair(recs[i].ID, recs[j].ID)] = cos64(vs[i], vs[j])
			}
		}
		best, bt := eval.Counts{FN: 1 << 30}, 0.0
		for th := -0.5; th < 1; th += 0.01 {
			found := map[eval.Pair]float64{}
			for p, s := range all {
				if s >= th {
					found[p] = s
				}
			}
			c := truth.Score(found, false)
			if c.F1() > best.F1() {
				best, bt = c, th
			}
		}
		t.Logf("%s best strict F1 at %.2f: %v", name, bt, best)
	}
}
