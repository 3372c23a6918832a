// Command stream runs a detector over an endless news stream in a bounded
// window: Reuters-21578 in date order, replayed with fresh IDs, through
// detector.NewWindow, which evicts every document older than the window.
// It prints throughput and live heap as it goes, to show memory stays
// flat, and with -svg draws both over the stream.
//
//	go run ./examples/stream -detector codet -window 2000 -n 60000 -svg stream.svg
//
// Without ../shared/data it says so and streams synthetic news instead.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/seed-9ef9c1df/neardup"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/examples/internal/cli"
	"github.com/seed-9ef9c1df/neardup/examples/internal/plot"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

var usage = cli.Usage{
	Synopsis: "go run ./examples/stream [flags]",
	Does: "Streams news through a detector kept in a bounded window (detector.NewWindow): Reuters-21578 in date order, " +
		"replayed with fresh IDs until -n documents have passed, the oldest evicted once -window are live. " +
		"It prints documents per second, live heap and relations found every -every documents, to show memory stays " +
		"flat; -svg draws heap and rate over the stream. Progress goes to stderr.",
	Reads: "Reads reuters21578.jsonl (without it, synthetic news). " + cli.DataNote,
	Takes: "The default invocation (codet, 60000 documents, window 2000) takes about 15 seconds on 2 cores; time " +
		"grows with -n.",
	Examples: []string{
		"go run ./examples/stream -detector minhash -n 20000 -every 2000 -svg stream.svg",
	},
}

type options struct {
	name             string
	window, n, every int
	svg              string
	progressEvery    time.Duration
}

func main() {
	o := options{progressEvery: 5 * time.Second}
	flag.StringVar(&o.name, "detector", "codet", "detector name (go run ./examples/evaluate -detector list); it must implement detector.Remover")
	flag.IntVar(&o.window, "window", 2000, "documents kept live")
	flag.IntVar(&o.n, "n", 60000, "documents to stream in all")
	flag.IntVar(&o.every, "every", 10000, "report every this many documents")
	flag.StringVar(&o.svg, "svg", "", "draw live heap and documents per second over the stream in this SVG file (sampled 5 times per report)")
	cli.Set(usage)
	flag.Parse()
	if err := run(os.Stdout, os.Stderr, o); err != nil {
		fmt.Fprintln(os.Stderr, "stream:", err)
		os.Exit(1)
	}
}

// source returns the texts replayed by the stream.
func source(stderr io.Writer) ([]string, error) {
	recs, err := dataset.Load("reuters21578.jsonl")
	if errors.Is(err, dataset.ErrNoData) {
		fmt.Fprintln(stderr, "stream: ../shared/data/reuters21578.jsonl is absent; streaming synthetic news instead")
		docs := dataset.SynthDocs(20000, dataset.SynthConfig{Seed: 1})
		out := make([]string, len(docs))
		for i, d := range docs {
			out[i] = d.Text
		}
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, errors.New("../shared/data/reuters21578.jsonl holds no documents")
	}
	dataset.SortByDate(recs)
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Text
	}
	return out, nil
}

// open builds the named detector (in English where it takes a language)
// inside a window of size documents, counting evictions in *evicted.
func open(name string, size int, evicted *int) (detector.Window, error) {
	info, err := neardup.Lookup(name)
	if err != nil {
		return nil, err
	}
	opts := map[string]string{}
	if slices.Contains(info.Options, "Language") {
		opts["Language"] = "en"
	}
	d, err := neardup.New(name, opts)
	if err != nil {
		return nil, err
	}
	w, err := detector.NewWindow(d, detector.WindowConfig{Size: size, OnEvict: func(string, []detector.Match) { *evicted++ }})
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return w, nil
}

// sample is one point of the chart.
type sample struct {
	docs       int
	rate, heap float64
}

func run(stdout, stderr io.Writer, o options) error {
	if o.window < 1 || o.n < 1 || o.every < 1 {
		return fmt.Errorf("-window, -n and -every must be positive: %w", detector.ErrInvalidConfig)
	}
	evicted := 0 // OnEvict runs in the goroutine that adds: this one
	w, err := open(o.name, o.window, &evicted)
	if err != nil {
		return err
	}
	defer w.Close()
	texts, err := source(stderr)
	if err != nil {
		return err
	}
	p := cli.NewProgress(stderr, "stream", o.progressEvery)
	step := o.every // documents between samples
	if o.svg != "" {
		step = max(1, o.every/5)
	}
	fmt.Fprintf(stdout, "%s over %d documents, window %d (replaying %d texts)\n", o.name, o.n, o.window, len(texts))
	fmt.Fprintf(stdout, "%10s %10s %10s %12s %10s %12s\n", "documents", "live", "evicted", "docs/s", "heap MB", "relations")
	start, last := time.Now(), time.Now()
	relations, lastDone := 0, 0
	var samples []sample
	for i := range o.n {
		ms, err := w.Add(detector.Doc{ID: fmt.Sprintf("r%d", i), Text: texts[i%len(texts)]})
		if err != nil {
			return err
		}
		relations += len(ms)
		done := i + 1
		p.Tick("%d/%d documents", done, o.n)
		if done%step != 0 && done%o.every != 0 {
			continue
		}
		// The rate covers the documents since the last sample; the
		// collection before the heap reading is not counted in it.
		s := sample{docs: done, rate: float64(done-lastDone) / time.Since(last).Seconds(), heap: float64(cli.LiveHeap()) / (1 << 20)}
		samples = append(samples, s)
		if done%o.every == 0 {
			fmt.Fprintf(stdout, "%10d %10d %10d %12.0f %10.1f %12d\n", done, w.Len(), evicted, s.rate, s.heap, relations)
		}
		last, lastDone = time.Now(), done
	}
	fmt.Fprintf(stdout, "total %s\n", time.Since(start).Round(time.Millisecond))
	if o.svg == "" {
		return nil
	}
	if err := draw(o, samples); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "chart written to %s\n", o.svg)
	return nil
}

// draw writes the heap and rate charts.
func draw(o options, samples []sample) error {
	var x, rate, heap []float64
	for _, s := range samples {
		x, rate, heap = append(x, float64(s.docs)), append(rate, s.rate), append(heap, s.heap)
	}
	title := fmt.Sprintf("%s, window of %d documents", o.name, o.window)
	f, err := os.Create(o.svg)
	if err != nil {
		return err
	}
	err = plot.WriteSVG(f,
		plot.Chart{Title: title + ": live heap", XLabel: "documents streamed", YLabel: "heap after GC (MB)", YFromZero: true,
			Series: []plot.Series{{Name: "heap MB", X: x, Y: heap}}},
		plot.Chart{Title: title + ": throughput", XLabel: "documents streamed", YLabel: "documents per second", YFromZero: true,
			Series: []plot.Series{{Name: "docs/s", X: x, Y: rate}}})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
