// Command defaults reruns the procedure that chose every detector's
// defaults. For each detector it tries a small grid of settings (content
// filter, threshold, and where it matters shingle size or mode) on four
// inputs and keeps the setting with the best Gold Set F1 among those that
// hold on the others:
//
//   - goldset-dev.jsonl, news pages with their boilerplate (English): strict
//     pair F1, the quantity maximised;
//   - reuters21578.jsonl, clean wire copy (English, date order): clusters
//     are the connected components of the reported pairs (for a
//     containment detector, of the pairs reported both ways: a round-up
//     that contains many stories does not make them one), and a setting is
//     rejected when one is made of more than 20 different stories
//     (-maxcluster), counted as distinct headlines: the collection repeats
//     some notices word for word every day under one headline ("HOG AND
//     CATTLE SLAUGHTER GUESSTIMATES"), which are copies, while template
//     notices of different events ("X SETS QUARTERLY DIVIDEND") are not.
//     The five largest clusters by that count are printed with headlines;
//   - ttc3600.jsonl, Turkish news: a setting is rejected unless every pair
//     of byte-identical texts is reported;
//   - clough-stevenson.jsonl, graded reuse (English): the share of cut,
//     light, heavy and non answers reported as contained in their source;
//     a containment detector's setting is rejected when non exceeds 0.05.
//
// Among the settings that hold and are within 0.005 of the best F1 of those,
// the one that finds more of the cut and light Clough-Stevenson answers
// wins; then the one listed first. Settings are -set options of
// examples/evaluate (Config field names), so any line can be reproduced:
//
//	go run ./examples/defaults                       # every detector
//	go run ./examples/defaults -detector minhash,ffp # some
//	go run ./examples/evaluate -data goldset-dev.jsonl -detector minhash -set Threshold=0.3
//	go run ./examples/defaults -detector codet -try "ETL=0.13 MinScore=62" # the default and this setting only
//
// The data is read from ../shared/data (or NEARDUP_DATA).
package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/examples/internal/cli"
	"github.com/seed-9ef9c1df/neardup/examples/internal/registry"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// grids lists, per detector, the settings tried; the empty setting is the
// package default and is always tried first.
var grids = map[string][]string{
	"codet": {"MinScore=-1", "ETL=0.5 MinScore=-1", "ETL=0.4 MinScore=-1", "Content=1",
		"MinScore=5", "MinScore=10", "MinScore=40", "MinScore=80",
		"ETL=0.2", "ETL=0.2 MinScore=40", "ETL=0.3", "ETL=0.3 MinScore=40"},
	"ffp": {"MinOverlap=1", "Content=1", "Content=1 Threshold=0.3",
		"Threshold=0.5", "Threshold=0.4", "Threshold=0.3", "Threshold=0.25",
		"Threshold=0.4 MinOverlap=30", "Threshold=0.3 MinOverlap=30", "Threshold=0.25 MinOverlap=30",
		"Threshold=0.3 MinOverlap=20", "Threshold=0.3 MinOverlap=40", "Shingle=3 Threshold=0.3 MinOverlap=30"},
	"dsc": {"MinOverlap=1", "Content=1", "Threshold=0.5", "Threshold=0.4",
		"Modulus=4 Threshold=0.5", "Modulus=4 Threshold=0.4", "Modulus=4 Threshold=0.3",
		"Modulus=4 Threshold=0.4 MinOverlap=8", "Modulus=4 Threshold=0.3 MinOverlap=8",
		"Modulus=4 Threshold=0.4 MinOverlap=12", "Modulus=4 Threshold=0.3 MinOverlap=12", "Modulus=4 Threshold=0.3 MinOverlap=16", "Modulus=4 Threshold=0.3 MinOverlap=10", "Modulus=4 Threshold=0.25 MinOverlap=10"},
	"spotsigs": {"MinOverlap=1", "Content=1", "Content=1 MinOverlap=1",
		"MinOverlap=2", "MinOverlap=3", "MinOverlap=4", "MinOverlap=5", "MinOverlap=6",
		"Threshold=0.2 MinOverlap=3", "Threshold=0.2 MinOverlap=5"},
	"minhash": {"MinOverlap=1", "Content=1", "Content=1 MinOverlap=1",
		"Threshold=0.3", "Threshold=0.2", "Threshold=0.15", "Threshold=0.1",
		"MinOverlap=30", "MinOverlap=40", "MinOverlap=80", "Threshold=0.1 MinOverlap=30",
		"Shingle=3", "Shingle=3 Threshold=0.1"},
	"minhash-weighted": {"MinOverlap=1", "Content=1", "Threshold=0.15", "Threshold=0.2", "Threshold=0.3",
		"MinOverlap=80", "Threshold=0.05", "Threshold=0.06", "Power=1", "Power=1.25 Threshold=0.07", "Power=2", "Power=2 Threshold=0.06",
		"Power=2 Threshold=0.08", "Power=4 Threshold=0.08"},
	"minhash-containment": {"MinOverlap=1", "Content=1", "Threshold=0.6", "Threshold=0.5", "Threshold=0.4",
		"Threshold=0.5 MinOverlap=30", "Threshold=0.4 MinOverlap=30", "Threshold=0.3 MinOverlap=30"},
	"simhash": {"Content=1", "Weights=idf", "K=4", "K=5", "K=6", "K=10",
		"Features=word-ngrams Weights=unit K=10", "Features=word-ngrams Weights=unit K=15",
		"Features=word-ngrams Weights=unit K=20", "Features=word-ngrams Weights=unit K=24"},
	"imatch": {"Content=1"},
	"tweezer": {"Content=1", "Mode=1", "Mode=2", "Mode=2 MinOverlap=1", "MinOverlap=1", "MinOverlap=2",
		"MinOverlap=5", "MinOverlap=10", "Threshold=0.1", "Threshold=0.2"},
	"mrcosine": {"Content=1", "T2=0.95", "T2=0.9", "T2=0.85", "Centered=true", "Centered=true T2=0.5",
		"Centered=true T2=0.4", "Centered=true T2=0.3", "Content=1 Centered=true"},
}

// order is the order detectors are reported in.
var order = []string{"codet", "ffp", "dsc", "spotsigs", "minhash", "minhash-weighted", "minhash-containment",
	"simhash", "imatch", "tweezer", "mrcosine"}

var usage = cli.Usage{
	Synopsis: "go run ./examples/defaults [flags]",
	Does: "Reruns the procedure that chose every detector's defaults: each setting of a small grid per detector " +
		"runs over four labelled collections, and the best Gold Set F1 among the settings that hold on the others wins. " +
		"It prints one table per detector and the setting chosen. Progress goes to stderr.",
	Reads: "Reads goldset-dev.jsonl, reuters21578.jsonl, ttc3600.jsonl and clough-stevenson.jsonl. " + cli.DataNote,
	Takes: "The default invocation (all eleven detectors) takes about 17 minutes on 2 cores, more than half of it " +
		"mrcosine's (about 9 minutes) and ffp's (2.5); -detector imatch takes 5 seconds, -reuters 2000 shortens every run.",
	Examples: []string{
		"go run ./examples/defaults -detector minhash,ffp",
		`go run ./examples/defaults -detector codet -try "ETL=0.13 MinScore=62"`,
	},
}

type options struct {
	detectors  string
	maxCluster int
	content    bool
	reuters    int
	try        []string // settings tried instead of the grid (beside the default)
}

func main() {
	var o options
	flag.StringVar(&o.detectors, "detector", strings.Join(order, ","), "comma-separated detector names")
	flag.IntVar(&o.maxCluster, "maxcluster", 20, "most stories (distinct headlines) a Reuters cluster may hold")
	flag.BoolVar(&o.content, "content", false, "also try every setting with the whole text read (Content=1)")
	flag.IntVar(&o.reuters, "reuters", 0, "use only the first N Reuters documents in date order (0: all)")
	flag.Func("try", `try this setting ("Key=Val Key=Val", as -set of examples/evaluate) instead of the grid, beside the default (repeatable)`, func(v string) error {
		o.try = append(o.try, strings.TrimSpace(v))
		return nil
	})
	cli.Set(usage)
	flag.Parse()
	if err := run(os.Stdout, os.Stderr, o); err != nil {
		fmt.Fprintln(os.Stderr, "defaults:", err)
		os.Exit(2)
	}
}

// input is one of the four collections.
type input struct {
	name string
	lang language.Tag
	recs []dataset.Record
}

// result is one setting's figures on the four inputs.
type result struct {
	setting  string
	gold     eval.Counts
	cs       map[string]float64
	clusters []eval.Cluster // Reuters, most stories first
	stories  []int          // distinct headlines of each of clusters
	ttc      eval.Counts
	elapsed  time.Duration
	err      error
}

func run(w, stderr io.Writer, o options) error {
	inputs, err := load(o)
	if err != nil {
		return err
	}
	p := cli.NewProgress(stderr, "defaults", 10*time.Second)
	titles := map[string]string{}
	for _, r := range inputs[1].recs {
		titles[r.ID] = r.Title
	}
	for _, name := range strings.Split(o.detectors, ",") {
		e, err := registry.Lookup(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		settings := settingsFor(e.Name, o)
		p.Stage("%s: %d settings on %d inputs", e.Name, len(settings), len(inputs))
		results := measure(e, settings, inputs, p)
		report(w, e, results, titles, o.maxCluster)
		p.Stage("%s: done", e.Name)
	}
	return nil
}

// settingsFor returns the settings tried for the detector name: the
// package default first, then its grid or the -try settings, each also
// with the whole text read under -content.
func settingsFor(name string, o options) []string {
	tried := grids[name]
	if len(o.try) > 0 {
		tried = o.try
	}
	settings := append([]string{""}, tried...)
	if o.content {
		for _, s := range settings {
			settings = append(settings, strings.TrimSpace("Content=1 "+s))
		}
	}
	return settings
}

func load(o options) ([]input, error) {
	var ins []input
	for _, c := range []struct {
		file string
		lang language.Tag
	}{
		{"goldset-dev.jsonl", language.English},
		{"reuters21578.jsonl", language.English},
		{"ttc3600.jsonl", language.Turkish},
		{"clough-stevenson.jsonl", language.English},
	} {
		recs, err := dataset.Load(c.file)
		if err != nil {
			return nil, err
		}
		if c.file == "reuters21578.jsonl" {
			dataset.SortByDate(recs)
			if o.reuters > 0 && o.reuters < len(recs) {
				recs = recs[:o.reuters]
			}
		}
		ins = append(ins, input{c.file, c.lang, recs})
	}
	return ins, nil
}

// measure runs every setting on every input, in parallel over the cores,
// ticking p (which may be nil) as runs end.
func measure(e registry.Entry, settings []string, inputs []input, p *cli.Progress) []result {
	results := make([]result, len(settings))
	type job struct{ s, in int }
	jobs := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				res, err := one(e, settings[j.s], inputs[j.in], p)
				mu.Lock()
				done++
				p.Tick("%s: %d/%d runs done", e.Name, done, len(settings)*len(inputs))
				r := &results[j.s]
				r.setting = settings[j.s]
				if err != nil && r.err == nil {
					r.err = err
				}
				r.elapsed += res.elapsed
				switch j.in {
				case 0:
					r.gold = res.gold
				case 1:
					r.clusters, r.stories = res.clusters, res.stories
				case 2:
					r.ttc = res.ttc
				case 3:
					r.cs = res.cs
				}
				mu.Unlock()
			}
		}()
	}
	for s := range settings {
		for in := range inputs {
			jobs <- job{s, in}
		}
	}
	close(jobs)
	wg.Wait()
	return results
}

// one runs one setting on one input, ticking p (which may be nil) as
// documents are added.
func one(e registry.Entry, setting string, in input, p *cli.Progress) (result, error) {
	set, err := registry.ParseSet(strings.Fields(setting))
	if err != nil {
		return result{}, err
	}
	d, err := e.New(in.lang, set)
	if err != nil {
		return result{}, err
	}
	defer d.Close()
	start := time.Now()
	what := fmt.Sprintf("%s %q on %s", e.Name, setting, in.name)
	edges, err := eval.Relations(d, dataset.Docs(in.recs), p.Docs(what, len(in.recs)))
	if err != nil {
		return result{}, err
	}
	res := result{elapsed: time.Since(start)}
	found := eval.Pairs(edges)
	switch in.name {
	case "goldset-dev.jsonl":
		truth := eval.ClusterTruth{}
		for _, r := range in.recs {
			truth[r.ID] = r.Cluster
		}
		res.gold = truth.Score(found, false)
	case "reuters21578.jsonl":
		ids := make([]string, len(in.recs))
		for i, r := range in.recs {
			ids[i] = r.ID
		}
		title := map[string]string{}
		for _, r := range in.recs {
			title[r.ID] = r.Title
		}
		stories := func(c eval.Cluster) int {
			seen := map[string]bool{}
			for _, id := range c.Members {
				seen[title[id]] = true
			}
			return len(seen)
		}
		cl := eval.Clusters(ids, edges, !e.Containment)
		slices.SortStableFunc(cl, func(a, b eval.Cluster) int {
			return cmp.Or(cmp.Compare(stories(b), stories(a)), cmp.Compare(len(b.Members), len(a.Members)))
		})
		res.clusters = cl[:min(5, len(cl))]
		for _, c := range res.clusters {
			res.stories = append(res.stories, stories(c))
		}
	case "ttc3600.jsonl":
		res.ttc = dataset.ExactTruth(in.recs).Score(found, false)
	case "clough-stevenson.jsonl":
		truth := eval.ContainmentTruth{Category: map[string]string{}, Task: map[string]string{}}
		for _, r := range in.recs {
			truth.Category[r.ID], truth.Task[r.ID] = r.Category, r.Task
		}
		res.cs, _ = truth.Rates(edges, "cut", "light")
	}
	return res, nil
}

// feasible says why a result is rejected, or "" when it holds.
func feasible(e registry.Entry, r result, maxCluster int) string {
	switch {
	case r.err != nil:
		return r.err.Error()
	case len(r.stories) > 0 && r.stories[0] > maxCluster:
		return fmt.Sprintf("Reuters cluster of %d stories", r.stories[0])
	case r.ttc.FN > 0:
		return fmt.Sprintf("TTC-3600 missed %d identical pairs", r.ttc.FN)
	case e.Containment && r.cs["non"] > 0.05:
		return fmt.Sprintf("Clough-Stevenson non %.2f", r.cs["non"])
	}
	return ""
}

// choose returns the index of the setting the procedure keeps, or -1 when
// none holds: among the feasible results within 0.005 of the best feasible
// Gold Set F1, the one with the most cut and light Clough-Stevenson answers
// found in their source, then the one listed first.
func choose(e registry.Entry, results []result, maxCluster int) int {
	best := math.Inf(-1)
	for _, r := range results {
		if feasible(e, r, maxCluster) == "" {
			best = max(best, r.gold.F1())
		}
	}
	found := func(r result) float64 { return r.cs["cut"] + r.cs["light"] }
	chosen := -1
	for i, r := range results {
		if feasible(e, r, maxCluster) != "" || r.gold.F1() < best-0.005-1e-12 {
			continue
		}
		if chosen < 0 || found(r) > found(results[chosen])+1e-9 {
			chosen = i
		}
	}
	return chosen
}

func report(w io.Writer, e registry.Entry, results []result, titles map[string]string, maxCluster int) {
	fmt.Fprintf(w, "\n## %s\n\n", e.Name)
	fmt.Fprintf(w, "%-34s %-21s %-23s %-28s %s\n", "setting", "Gold Set P/R/F1", "CS cut/light/heavy/non", "Reuters stories/docs, top 5", "verdict")
	chosen, best := choose(e, results, maxCluster), -1
	for i, r := range results {
		verdict := "ok"
		if why := feasible(e, r, maxCluster); why != "" {
			verdict = "rejected: " + why
		}
		if r.err == nil && (best < 0 || r.gold.F1() > results[best].gold.F1()) {
			best = i
		}
		var sizes []string
		for i, c := range r.clusters {
			sizes = append(sizes, fmt.Sprintf("%d/%d", r.stories[i], len(c.Members)))
		}
		setting := r.setting
		if setting == "" {
			setting = "(package default)"
		}
		figures := fmt.Sprintf("%.3f/%.3f/%.3f   %.2f/%.2f/%.2f/%.2f  ",
			r.gold.Precision(), r.gold.Recall(), r.gold.F1(), r.cs["cut"], r.cs["light"], r.cs["heavy"], r.cs["non"])
		if r.err != nil { // a setting that did not run has no figures
			figures = fmt.Sprintf("%-41s", "-")
		}
		fmt.Fprintf(w, "%-34s %s   %-28s %s (%s)\n", setting, figures,
			strings.Join(sizes, ","), verdict, r.elapsed.Round(time.Millisecond))
	}
	if chosen < 0 {
		fmt.Fprintf(w, "\nno setting holds on every input\n")
		return
	}
	c := results[chosen]
	fmt.Fprintf(w, "\nchosen: %q, Gold Set F1 %.3f (best on the file %.3f, %q: %.3f from the best)\n",
		c.setting, c.gold.F1(), results[best].gold.F1(), results[best].setting, results[best].gold.F1()-c.gold.F1())
	fmt.Fprintf(w, "its five largest Reuters clusters:\n")
	for i, cl := range c.clusters {
		var ts []string
		for _, id := range cl.Members[:min(4, len(cl.Members))] {
			ts = append(ts, fmt.Sprintf("%q", titles[id]))
		}
		fmt.Fprintf(w, "  %3d stories, %3d documents: %s\n", c.stories[i], len(cl.Members), strings.Join(ts, ", "))
	}
}
