// Command table measures every detector at its defaults and prints the
// comparison table of the README: Gold Set dev quality, Clough-Stevenson
// containment, throughput and memory per document on Reuters. With -write
// it replaces the table in README.md between the markers
// "<!-- table:begin -->" and "<!-- table:end -->", so no figure in it is
// typed by hand.
//
//	go run ./examples/table -write README.md
//
// It needs ../shared/data (or $NEARDUP_DATA) and says so when it is
// absent. Progress goes to stderr; stdout holds only the table.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/eval"
	"github.com/seed-9ef9c1df/neardup/examples/internal/cli"
	"github.com/seed-9ef9c1df/neardup/examples/internal/registry"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

const (
	begin = "<!-- table:begin -->"
	end   = "<!-- table:end -->"
)

var usage = cli.Usage{
	Synopsis: "go run ./examples/table [flags]",
	Does: "Measures every detector at its defaults and prints the README's comparison table (Markdown) on stdout: " +
		"Gold Set dev quality, Clough-Stevenson containment, throughput and live heap per document on Reuters. " +
		"-write README.md splices it between the README's table markers. Progress goes to stderr.",
	Reads: "Reads goldset-dev.jsonl, clough-stevenson.jsonl and reuters21578.jsonl. " + cli.DataNote,
	Takes: "The default invocation (every detector but reference) takes about 20 seconds on " +
		"2 cores; " +
		"-detector NAME for one takes a fraction of it.",
	Examples: []string{
		"go run ./examples/table -write README.md",
		"go run ./examples/table -detector minhash,simhash",
	},
}

func main() {
	write := flag.String("write", "", "replace the table in this file (README.md)")
	only := flag.String("detector", "", "comma-separated detector names (default: all but reference)")
	speedDocs := flag.Int("speed", 5000, "Reuters documents (in date order) for the throughput and memory figures")
	cli.Set(usage)
	flag.Parse()
	var b strings.Builder
	if err := run(&b, os.Stderr, *only, *speedDocs); err != nil {
		fmt.Fprintln(os.Stderr, "table:", err)
		os.Exit(1)
	}
	fmt.Print(b.String())
	if *write != "" {
		if err := splice(*write, b.String()); err != nil {
			fmt.Fprintln(os.Stderr, "table:", err)
			os.Exit(1)
		}
	}
}

func splice(path, table string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(old)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %s ... %s markers", path, begin, end)
	}
	s = s[:i+len(begin)] + "\n" + table + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}

type row struct {
	e                 registry.Entry
	strict, lenient   eval.Counts
	rates             map[string]float64
	docsPerSec, bytes float64
}

func run(w, stderr io.Writer, only string, speedDocs int) error {
	gold, err := dataset.Load("goldset-dev.jsonl")
	if errors.Is(err, dataset.ErrNoData) {
		return fmt.Errorf("the table needs ../shared/data beside the repository: %w", err)
	}
	if err != nil {
		return err
	}
	clough, err := dataset.Load("clough-stevenson.jsonl")
	if err != nil {
		return err
	}
	reuters, err := dataset.Load("reuters21578.jsonl")
	if err != nil {
		return err
	}
	dataset.SortByDate(reuters)
	if speedDocs < len(reuters) {
		reuters = reuters[:speedDocs]
	}
	var entries []registry.Entry
	for _, e := range registry.All() {
		if only == "" && e.Name != "reference" || only != "" && strings.Contains(","+only+",", ","+e.Name+",") {
			entries = append(entries, e)
		}
	}
	var rows []row
	p := cli.NewProgress(stderr, "table", 5*time.Second)
	for i, e := range entries {
		p.Stage("%s (%d/%d): Gold Set dev", e.Name, i+1, len(entries))
		r := row{e: e}
		edges, err := relations(e, gold, p.Docs(e.Name+" on Gold Set dev", len(gold)))
		if err != nil {
			return err
		}
		truth := eval.ClusterTruth{}
		for _, rec := range gold {
			truth[rec.ID] = rec.Cluster
		}
		found := eval.Pairs(edges)
		r.strict, r.lenient = truth.Score(found, false), truth.Score(found, true)
		p.Stage("%s: Clough-Stevenson", e.Name)
		if edges, err = relations(e, clough, nil); err != nil {
			return err
		}
		ct := eval.ContainmentTruth{Category: map[string]string{}, Task: map[string]string{}}
		for _, rec := range clough {
			ct.Category[rec.ID], ct.Task[rec.ID] = rec.Category, rec.Task
		}
		r.rates, _ = ct.Rates(edges, "cut", "light")
		p.Stage("%s: speed on %d Reuters documents", e.Name, len(reuters))
		if r.docsPerSec, r.bytes, err = speed(e, reuters); err != nil {
			return err
		}
		rows = append(rows, r)
	}
	fmt.Fprintf(w, "Measured %s on a %d-core machine (`go run ./examples/table`); quality from the same code path as `go run ./examples/evaluate -data FILE -detector NAME`. Every detector runs at its package defaults: the content filter on (main content only), codet with its embedded English reference IDF table, the others with their online statistics; the defaults were chosen by `go run ./examples/defaults` (see \"How the defaults were chosen\"). `tweezer-exact`, `simhash-spots` and `mrcosine-centered` are non-default presets (registry.go). Reuters figures: the first %d documents in date order, Add only; bytes/doc is the live heap growth per stored document.\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(), speedDocs)
	fmt.Fprintln(w, "| detector | detects | Gold Set dev strict P / R / F1 | lenient F1 | Clough-Stevenson contained: cut / light / heavy / non | Reuters docs/s | bytes/doc | use it when |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		kind := "near-duplicate"
		if r.e.Containment {
			kind = "containment"
		}
		fmt.Fprintf(w, "| `%s` | %s | %.3f / %.3f / %.3f | %.3f | %.2f / %.2f / %.2f / %.2f | %.0f | %.0f | %s |\n",
			r.e.Name, kind, r.strict.Precision(), r.strict.Recall(), r.strict.F1(), r.lenient.F1(),
			r.rates["cut"], r.rates["light"], r.rates["heavy"], r.rates["non"], r.docsPerSec, r.bytes, r.e.UseWhen)
	}
	return nil
}

func relations(e registry.Entry, recs []dataset.Record, progress func(int)) ([]eval.Edge, error) {
	d, err := e.New(language.English, nil)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return eval.Relations(d, dataset.Docs(recs), progress)
}

// speed adds docs to a fresh detector and returns documents per second and
// live heap bytes per stored document.
func speed(e registry.Entry, recs []dataset.Record) (float64, float64, error) {
	docs := dataset.Docs(recs)
	before := cli.LiveHeap()
	d, err := e.New(language.English, nil)
	if err != nil {
		return 0, 0, err
	}
	defer d.Close()
	start := time.Now()
	for _, doc := range docs {
		if _, err := d.Add(detector.Doc{ID: doc.ID, Text: doc.Text}); err != nil {
			return 0, 0, err
		}
	}
	elapsed := time.Since(start)
	after := cli.LiveHeap()
	runtime.KeepAlive(d)
	return float64(len(docs)) / elapsed.Seconds(), float64(int64(after)-int64(before)) / float64(len(docs)), nil
}
