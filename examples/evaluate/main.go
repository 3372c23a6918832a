// Command evaluate runs detectors over a labelled JSONL collection and
// prints their quality. Every quality figure neardup publishes is produced
// by it.
//
//	go run ./examples/evaluate -data goldset-dev.jsonl -detector minhash,spotsigs
//	go run ./examples/evaluate -data clough-stevenson.jsonl -detector codet -set ETL=0.5
//	go run ./examples/evaluate -detector list
//
// Without flags it runs minhash over goldset-dev.jsonl. The file holds one
// JSON object per line with "id" and "text". A "cluster" field means
// documents in one cluster are near-duplicates: evaluate prints pair-level
// precision, recall and F1, strict and lenient (a reported pair across
// clusters named alike but for a trailing digit, which cover related
// stories, is not counted as an error), and the Matthews correlation. A
// "category"/"task" field, as in clough-stevenson.jsonl, means graded
// containment of answers in their task's "orig": evaluate prints the
// fraction of each category reported as contained, and precision/recall
// with cut and light as positives. Documents are added in file order. A
// -data name that is not a file is looked up in ../shared/data (or
// $NEARDUP_DATA).
//
// With -rank K it scores ranked lookup (detector.Ranker) instead: on a
// collection with clusters every document is looked up among all of them
// and its first K results are scored against its cluster mates (MAP,
// P@1, nDCG@10); on Clough-Stevenson every answer is looked up among the
// sources (own-source MRR of the derived answers, ROC AUC of the own
// source's score for derived against independent answers):
//
//	go run ./examples/evaluate -detector tweezer -rank 20
//
// -halves N adds, on a collection with clusters, the spread of MAP over
// both halves of N random splits of the clusters, each half ranked on its
// own: how far a held-back collection of other clusters may fall from the
// figure (a half has fewer distractors than the whole, so its MAP runs
// higher; compare detectors, not levels):
//
//	go run ./examples/evaluate -detector simhash -rank 20 -halves 20
//
// With -sweep Key=FROM:TO:STEP it runs each detector at every value of one
// option instead and prints precision, recall and F1 per value (strict
// pairs, or cut and light as positives); -svg draws them as a chart:
//
//	go run ./examples/evaluate -detector minhash -sweep Threshold=0.1:0.9:0.1 -svg minhash.svg
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/examples/internal/cli"
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
	sweep     string
	svg       string
	rank      int
	halves    int
}

var usage = cli.Usage{
	Synopsis: "go run ./examples/evaluate [-data FILE.jsonl] [-detector NAME[,NAME...]] [flags]",
	Does: "Runs detectors over a labelled collection and prints their quality: pair precision, recall, F1 and MCC " +
		"where documents carry a \"cluster\", the share of each category reported as contained where they carry " +
		"\"category\" and \"task\". With -sweep it runs a detector at every value of one option and prints, and with " +
		"-svg draws, precision, recall and F1 against it. Every quality figure neardup publishes comes from here. " +
		"Progress goes to stderr.",
	Reads: "Reads the JSONL file of -data (default goldset-dev.jsonl); a bare name that is not a file is looked up " +
		"among the labelled collections. " + cli.DataNote,
	Takes: "The default invocation (minhash on goldset-dev.jsonl) takes about 3 seconds on 2 cores; a sweep " +
		"takes about as long per value and detector.",
	Examples: []string{
		"go run ./examples/evaluate -detector list",
		"go run ./examples/evaluate -data clough-stevenson.jsonl -detector codet -set ETL=0.5",
		"go run ./examples/evaluate -detector minhash -sweep Threshold=0.1:0.9:0.05 -svg minhash.svg",
	},
}

func main() {
	var o options
	flag.StringVar(&o.data, "data", "goldset-dev.jsonl", "labelled JSONL file (a bare name is looked up in ../shared/data)")
	flag.StringVar(&o.detectors, "detector", "minhash", "comma-separated detector names, or 'list'")
	flag.StringVar(&o.pairs, "pairs", "", "write every reported pair as idA<TAB>idB<TAB>score (idA contains idB) to this file")
	flag.StringVar(&o.pool, "pool", "", "write the union of the pairs of all detectors (for human judgement, as in Varol 2012 §4.2) to this file")
	flag.StringVar(&o.lang, "lang", "en", "language of the collection, a BCP 47 tag: en, tr, or und (neutral)")
	flag.IntVar(&o.limit, "limit", 0, "use only the first N documents")
	flag.Func("set", "override a detector option, key=value (repeatable)", func(s string) error {
		o.set = append(o.set, s)
		return nil
	})
	flag.StringVar(&o.sweep, "sweep", "", "run at every value of one option, Key=FROM:TO:STEP (e.g. Threshold=0.1:0.9:0.05), and print P/R/F1 per value")
	flag.IntVar(&o.rank, "rank", 0, "score ranked lookup (Nearest) at this k instead: MAP, P@1, nDCG@10 on clusters; own-source MRR and AUC on categories")
	flag.IntVar(&o.halves, "halves", 0, "with -rank on clusters: also rank both halves of this many random splits of the clusters and print the spread of MAP")
	flag.StringVar(&o.svg, "svg", "", "with -sweep: draw precision, recall and F1 against the option in this SVG file")
	cli.Set(usage)
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
	// Each mode writes what it writes: a flag another mode reads is refused
	// rather than ignored.
	switch {
	case o.rank > 0 && (o.sweep != "" || o.pairs != "" || o.pool != ""):
		return fmt.Errorf("-rank scores ranked lookup only: drop -sweep, -pairs and -pool: %w", detector.ErrInvalidConfig)
	case o.sweep != "" && (o.pairs != "" || o.pool != ""):
		return fmt.Errorf("-sweep prints figures only: drop -pairs and -pool: %w", detector.ErrInvalidConfig)
	case o.halves > 0 && o.rank <= 0:
		return fmt.Errorf("-halves splits a ranking: it needs -rank K: %w", detector.ErrInvalidConfig)
	}
	var sw sweep
	switch {
	case o.sweep != "":
		if sw, err = parseSweep(o.sweep); err != nil {
			return err
		}
	case o.svg != "":
		return fmt.Errorf("-svg draws a sweep: it needs -sweep Key=FROM:TO:STEP: %w", detector.ErrInvalidConfig)
	}
	build := builder{tag: tag, set: set}
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
		if o.sweep != "" {
			key, err := sw.option(e, set)
			if err != nil {
				return err
			}
			for _, v := range []float64{sw.From, sw.To} { // a value the option's type cannot hold fails now
				d, err := build.with(e, key, strconv.FormatFloat(v, 'f', -1, 64))
				if err != nil {
					return fmt.Errorf("-sweep: %s: %w", e.Name, err)
				}
				d.Close()
			}
		}
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
	p := cli.NewProgress(stderr, "evaluate", 3*time.Second)
	if o.rank > 0 {
		return runRank(stdout, p, o, entries, build, recs)
	}
	if o.sweep != "" {
		return runSweep(stdout, p, o, sw, entries, build, recs, path)
	}

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
		edges, err := eval.Relations(d, docs, p.Docs(e.Name, len(docs)))
		elapsed := time.Since(start)
		p.Stage("%s: done in %s", e.Name, elapsed.Round(time.Millisecond))
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

// builder builds the detectors of a run: language and -set options.
type builder struct {
	tag language.Tag
	set map[string]string
}

// with builds e with the -set options and key=val besides.
func (b builder) with(e registry.Entry, key, val string) (detector.Detector, error) {
	set := maps.Clone(b.set)
	if set == nil {
		set = map[string]string{}
	}
	set[key] = val
	return e.New(b.tag, set)
}

// settings formats -set options as "Key=Value ...", sorted by key.
func settings(set map[string]string) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(set)) {
		out = append(out, k+"="+set[k])
	}
	return strings.Join(out, " ")
}

// truths returns the labels of recs: their clusters, and their
// categories and tasks (graded containment).
func truths(recs []dataset.Record) (eval.ClusterTruth, eval.ContainmentTruth) {
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
	return clusters, cont
}

func report(w io.Writer, e registry.Entry, recs []dataset.Record, edges []eval.Edge, elapsed time.Duration, set map[string]string) {
	name := e.Name
	if len(set) > 0 {
		name += " " + settings(set)
	}
	fmt.Fprintf(w, "\n%s: %d relations reported in %s (%.0f docs/s)\n", name,
		len(edges), elapsed.Round(time.Millisecond), float64(len(recs))/elapsed.Seconds())
	clusters, cont := truths(recs)
	if len(clusters) > 0 {
		found := eval.Pairs(edges)
		n := len(clusters) * (len(clusters) - 1) / 2
		for _, lenient := range []bool{false, true} {
			negatives := n // lenient: sibling pairs are neither negative nor positive
			if lenient {
				negatives -= clusters.SiblingPairs()
			}
			c := clusters.Score(found, lenient).WithNegatives(negatives)
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
