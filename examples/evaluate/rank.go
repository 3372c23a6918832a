package main

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/examples/internal/cli"
	"github.com/seed-9ef9c1df/neardup/examples/internal/registry"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// runRank scores each detector's Nearest at k: on a collection with
// clusters, every document looked up among all (MAP, P@1, nDCG@10 against
// its cluster mates); on one with categories and tasks, every answer
// looked up among the sources (own-source MRR of the derived answers, and
// the ROC AUC of the own source's score, derived against independent).
func runRank(w io.Writer, p *cli.Progress, o options, entries []registry.Entry, build builder, recs []dataset.Record) error {
	docs := dataset.Docs(recs)
	clusters, cont := truths(recs)
	for _, e := range entries {
		name := e.Name
		if len(build.set) > 0 {
			name += " " + settings(build.set)
		}
		if len(clusters) > 0 {
			d, err := e.New(build.tag, build.set)
			if err != nil {
				return fmt.Errorf("%s: %w", e.Name, err)
			}
			start := time.Now()
			s, err := eval.ClusterRanking(d, docs, clusters, o.rank, p.Docs(e.Name, len(docs)))
			d.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", e.Name, err)
			}
			fmt.Fprintf(w, "\n%s: Nearest k=%d over %d queries in %s\n  MAP %.3f  P@1 %.3f  nDCG@10 %.3f\n",
				name, o.rank, s.Queries, time.Since(start).Round(time.Millisecond), s.MAP, s.P1, s.NDCG10)
			if o.halves > 0 {
				maps, err := halfRanking(e, build, recs, clusters, o.rank, o.halves)
				if err != nil {
					return fmt.Errorf("%s: %w", e.Name, err)
				}
				q := func(f float64) float64 { return maps[int(f*float64(len(maps)-1))] }
				fmt.Fprintf(w, "  %d halves of %d splits: MAP min %.3f  p10 %.3f  median %.3f  max %.3f\n",
					len(maps), o.halves, maps[0], q(0.1), q(0.5), maps[len(maps)-1])
			}
		}
		if len(cont.Category) > 0 {
			d, err := e.New(build.tag, build.set)
			if err != nil {
				return fmt.Errorf("%s: %w", e.Name, err)
			}
			s, err := eval.SourceRanking(d, docs, cont, o.rank, "cut", "light", "heavy")
			d.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", e.Name, err)
			}
			fmt.Fprintf(w, "\n%s: Nearest k=%d, answers among sources\n  own-source MRR %.3f (%d derived)  AUC derived vs non %.3f (%d non)\n",
				name, o.rank, s.MRR, s.Derived, s.AUC, s.Independent)
		}
	}
	return nil
}

// halfRanking ranks both halves of n random splits of the clusters (seeded
// by the split's number, so runs agree), each half on its own, and returns
// the MAPs of the halves with a query (a cluster of two pages or more) in
// ascending order.
func halfRanking(e registry.Entry, build builder, recs []dataset.Record, clusters eval.ClusterTruth, k, n int) ([]float64, error) {
	var names []string
	for _, r := range recs {
		names = append(names, r.Cluster)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	var maps []float64
	for split := range n {
		perm := rand.New(rand.NewPCG(uint64(split), 0)).Perm(len(names))
		first := map[string]bool{}
		for _, i := range perm[:len(names)/2] {
			first[names[i]] = true
		}
		for _, side := range []bool{true, false} {
			var half []dataset.Record
			for _, r := range recs {
				if first[r.Cluster] == side {
					half = append(half, r)
				}
			}
			d, err := e.New(build.tag, build.set)
			if err != nil {
				return nil, err
			}
			s, err := eval.ClusterRanking(d, dataset.Docs(half), clusters, k, nil)
			d.Close()
			if err != nil {
				return nil, err
			}
			if s.Queries > 0 { // a half of single-page clusters has no MAP
				maps = append(maps, s.MAP)
			}
		}
	}
	if len(maps) == 0 {
		return nil, errors.New("-halves: no half has a cluster of two pages or more")
	}
	slices.Sort(maps)
	return maps, nil
}
