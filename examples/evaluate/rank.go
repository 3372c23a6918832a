package main

import (
	"fmt"
	"io"
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
