// Command evaluate runs detectors over a labelled JSONL collection and
// prints their quality. Every quality figure neardup publishes is produced
// by it.
//
//	go run ./examples/evaluate -data goldset-dev.jsonl -detector minhash,spotsigs
//	go run ./examples/evaluate -data clough-stevenson.jsonl -detector codet -set ETL=0.5
//	go run ./examples/evaluate -detector list
//
// The file holds one JSON object per line with "id" and "text". A "cluster"
// field means documents in one cluster are near-duplicates: evaluate prints
// pair-level precision, recall and F1, strict and lenient (a reported pair
// across clusters named alike but for a trailing digit, which cover related
// stories, is not counted as an error), and the Matthews
// correlation. A "category"/"task" field, as in clough-stevenson.jsonl, means
// graded containment of answers in their task's "orig": evaluate prints the
// fraction of each category reported as contained, and precision/recall
// with cut and light as positives. Documents are added in file order. A
// -data name that is not a file is looked up in ../shared/data.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/examples/internal/registry"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

type options struct {
	data      string
	detectors string
	pairs     string
	pool      string
	lang      string
	limit     int
	set       []string
}

func main() {
	var o options
	flag.StringVar(&o.data, "data", "", "labelled JSONL file (a bare name is looked up in ../shared/data)")
	flag.StringVar(&o.detectors, "detector", "", "comma-separated detector names, or 'list'")
	flag.StringVar(&o.pairs, "pairs", "", "write every reported pair as idA<TAB>idB<TAB>score (idA contains idB) to this file")
	flag.StringVar(&o.pool, "pool", "", "write the union of the pairs of all detectors (for human judgement, as in Varol 2012 §4.2) to this file")
	flag.StringVar(&o.lang, "lang", "en", "language of the collection, a BCP 47 tag: en, tr, or und (neutral)")
	flag.IntVar(&o.limit, "limit", 0, "use only the first N documents")
	flag.Func("set", "override a detector option, key=value (repeatable)", func(s string) error {
		o.set = append(o.set, s)
		return nil
	})
	flag.Parse()
	if err := run(os.Stdout, os.Stderr, o); err != nil {
		fmt.Fprintln(os.Stderr, "evaluate:", err)
		os.Exit(2)
	}
}

func run(stdout, stderr io.Writer, o options) error {
	if o.detectors == "list" {
		for _, e := range registry.All() {
			kind := "near-duplicate"
			if e.Containment {
				kind = "containment"
			}
			fmt.Fprintf(stdout, "%-14s %-15s %s\n%14s options: %s\n", e.Name, kind, e.Summary, "", strings.Join(e.Options, ", "))
		}
		return nil
	}
	if o.data == "" || o.detectors == "" {
		return errors.New("need -data FILE.jsonl and -detector NAME[,NAME...] (or -detector list)")
	}
	set, err := registry.ParseSet(o.set)
	if err != nil {
		return err
	}
	tag, err := textproc.ParseLanguage(o.lang)
	if err != nil {
		return fmt.Errorf("-lang: %v", err)
	}
	// Build every detector once before reading data, so a bad name or
	// option fails at once.
	var entries []registry.Entry
	for _, name := range strings.Split(o.detectors, ",") {
		e, err := registry.Lookup(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		d, err := e.New(tag, set)
		if err != nil {
			return fmt.Errorf("%s: %w", e.Name, err)
		}
		d.Close()
		entries = append(entries, e)
	}
	path := o.data
	if _, err := os.Stat(path); err != nil {
		p, perr := dataset.Path(o.data)
		if perr != nil {
			return fmt.Errorf("-data %q: not a file, and %v", o.data, perr)
		}
		path = p
	}
	recs, err := dataset.LoadFile(path)
	if err != nil {
		return err
	}
	if o.limit > 0 && o.limit < len(recs) {
		recs = recs[:o.limit]
	}
	docs := dataset.Docs(recs)
	fmt.Fprintf(stdout, "%s: %d documents\n", path, len(docs))

	var pairsOut *bufio.Writer
	if o.pairs != "" {
		f, err := os.Create(o.pairs)
		if err != nil {
			return err
		}
		defer f.Close()
		pairsOut = bufio.NewWriter(f)
		defer pairsOut.Flush()
	}
	var pooled []map[eval.Pair]float64
	for _, e := range entries {
		d, err := e.New(tag, set)
		if err != nil {
			return fmt.Errorf("%s: %w", e.Name, err)
		}
		start := time.Now()
		last := start
		edges, err := eval.Relations(d, docs, func(done int) {
			if time.Since(last) > 2*time.Second || done == len(docs) && time.Since(start) > 2*time.Second {
				last = time.Now()
				fmt.Fprintf(stderr, "%s: %d/%d documents\n", e.Name, done, len(docs))
			}
		})
		elapsed := time.Since(start)
		d.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", e.Name, err)
		}
		report(stdout, e, recs, edges, elapsed, set)
		if pairsOut != nil {
			for _, edge := range edges {
				fmt.Fprintf(pairsOut, "%s\t%s\t%g\n", edge.Container, edge.Contained, edge.Score)
			}
		}
		pooled = append(pooled, eval.Pairs(edges))
	}
	if o.pool != "" {
		f, err := os.Create(o.pool)
		if err != nil {
			return err
		}
		defer f.Close()
		w := bufio.NewWriter(f)
		pool := eval.Pool(pooled...)
		for _, p := range pool {
			fmt.Fprintf(w, "%s\t%s\n", p.A, p.B)
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "pool: %d pairs nominated by %d detectors written to %s\n", len(pool), len(pooled), o.pool)
	}
	return nil
}

func report(w io.Writer, e registry.Entry, recs []dataset.Record, edges []eval.Edge, elapsed time.Duration, set map[string]string) {
	var settings []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range set {
			if !yield(k) {
				return
			}
		}
	}) {
		settings = append(settings, k+"="+set[k])
	}
	fmt.Fprintf(w, "\n%s %s: %d relations reported in %s (%.0f docs/s)\n", e.Name, strings.Join(settings, " "),
		len(edges), elapsed.Round(time.Millisecond), float64(len(recs))/elapsed.Seconds())
	clusters := eval.ClusterTruth{}
	cont := eval.ContainmentTruth{Category: map[string]string{}, Task: map[string]string{}}
	for _, r := range recs {
		if r.Cluster != "" {
			clusters[r.ID] = r.Cluster
		}
		if r.Category != "" && r.Task != "" {
			cont.Category[r.ID] = r.Category
			cont.Task[r.ID] = r.Task
		}
	}
	if len(clusters) > 0 {
		found := eval.Pairs(edges)
		n := len(clusters) * (len(clusters) - 1) / 2
		for _, lenient := range []bool{false, true} {
			c := clusters.Score(found, lenient).WithNegatives(n)
			mode := "strict "
			if lenient {
				mode = "lenient"
			}
			fmt.Fprintf(w, "  pairs %s  P %.3f  R %.3f  F1 %.3f  MCC %.3f  (TP %d FP %d FN %d)\n",
				mode, c.Precision(), c.Recall(), c.F1(), c.MCC(), c.TP, c.FP, c.FN)
		}
	}
	if len(cont.Category) > 0 {
		rates, c := cont.Rates(edges, "cut", "light")
		fmt.Fprintf(w, "  contained in their source:")
		for _, cat := range []string{"cut", "light", "heavy", "non"} {
			if r, ok := rates[cat]; ok {
				fmt.Fprintf(w, "  %s %.2f", cat, r)
			}
		}
		fmt.Fprintf(w, "\n  cut+light as positive  P %.3f  R %.3f  F1 %.3f  (TP %d FP %d FN %d TN %d)\n",
			c.Precision(), c.Recall(), c.F1(), c.TP, c.FP, c.FN, c.TN)
	}
}
