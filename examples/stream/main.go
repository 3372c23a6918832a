// Command stream runs a detector over an endless news stream in a bounded
// window: Reuters-21578 in date order, replayed with fresh IDs, where every
// document older than the window is removed (detector.Remover). It prints
// throughput and live heap as it goes, to show memory stays flat.
//
//	go run ./examples/stream -detector codet -window 2000 -n 60000
//
// Without ../shared/data it says so and streams synthetic news instead.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/examples/internal/registry"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
)

func main() {
	name := flag.String("detector", "codet", "detector name (go run ./examples/evaluate -detector list)")
	window := flag.Int("window", 2000, "documents kept live")
	n := flag.Int("n", 60000, "documents to stream in all")
	every := flag.Int("every", 10000, "report every this many documents")
	flag.Parse()
	if err := run(os.Stdout, os.Stderr, *name, *window, *n, *every); err != nil {
		fmt.Fprintln(os.Stderr, "stream:", err)
		os.Exit(1)
	}
}

// source returns the texts replayed by the stream.
func source(stderr io.Writer) ([]string, error) {
	recs, err := dataset.Load("reuters21578.jsonl")
	if errors.Is(err, dataset.ErrNoData) {
		fmt.Fprintln(stderr, "stream: ../shared/data/reuters21578.jsonl is absent; streaming synthetic news instead")
		docs := synth.Docs(20000, synth.Config{Seed: 1})
		out := make([]string, len(docs))
		for i, d := range docs {
			out[i] = d.Text
		}
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	dataset.SortByDate(recs)
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Text
	}
	return out, nil
}

func heapMB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

func run(stdout, stderr io.Writer, name string, window, n, every int) error {
	if window < 1 || n < 1 || every < 1 {
		return errors.New("-window, -n and -every must be positive")
	}
	e, err := registry.Lookup(name)
	if err != nil {
		return err
	}
	d, err := e.New(language.English, nil)
	if err != nil {
		return err
	}
	defer d.Close()
	r, ok := d.(detector.Remover)
	if !ok {
		return fmt.Errorf("%s does not implement detector.Remover", name)
	}
	texts, err := source(stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s over %d documents, window %d (replaying %d texts)\n", name, n, window, len(texts))
	fmt.Fprintf(stdout, "%10s %10s %12s %10s %12s\n", "documents", "live", "docs/s", "heap MB", "relations")
	start, last := time.Now(), time.Now()
	relations := 0
	id := func(i int) string { return fmt.Sprintf("r%d", i) }
	for i := range n {
		ms, err := d.Add(detector.Doc{ID: id(i), Text: texts[i%len(texts)]})
		if err != nil {
			return err
		}
		relations += len(ms)
		if i >= window {
			if err := r.Remove(id(i - window)); err != nil {
				return err
			}
		}
		if (i+1)%every == 0 {
			rate := float64(every) / time.Since(last).Seconds()
			fmt.Fprintf(stdout, "%10d %10d %12.0f %10.1f %12d\n", i+1, min(i+1, window), rate, heapMB(), relations)
			last = time.Now()
		}
	}
	fmt.Fprintf(stdout, "total %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}
