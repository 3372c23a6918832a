// Command scale measures how a detector's cost grows with its collection:
// it adds a stream of synthetic news (internal/dataset's synthetic
// stream: base stories and variants of recent ones, Zipfian words) to a
// detector at its defaults and prints, at each checkpoint, the CPU time
// per Add over the documents since the previous checkpoint and the live
// heap per stored document.
//
//	go run ./examples/scale -detector ffp,minhash -n 10000,100000,1000000
//
// The live heap is measured after full collections (cli.LiveHeap), less
// the heap before the detector was built. CPU is the process's user and system time
// (getrusage; wall time where the system has none) spent while Adds run,
// so a detector's background work and the collections its allocations
// cause count too; generating the stream does not.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seed-9ef9c1df/neardup"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/examples/internal/cli"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

var usage = cli.Usage{
	Synopsis: "go run ./examples/scale [flags]",
	Does: "Adds a stream of synthetic news to each named detector at its defaults and prints, at every checkpoint " +
		"of -n, the CPU microseconds per Add since the previous checkpoint and the live heap bytes per stored " +
		"document: how cost grows with the collection. Progress goes to stderr.",
	Reads: "Reads nothing: the stream is generated (internal/dataset's synthetic news, seed 1).",
	Takes: "The default invocation (every detector but reference, 10,000 and 100,000 documents) takes about " +
		"7 minutes on 2 cores for the twelve names other than mrcosine's, whose Adds slow as the collection " +
		"grows: each of the two took 18 minutes to reach 100,000 documents in one run here, about 2 minutes to 30,000.",
	Examples: []string{
		"go run ./examples/scale -detector ffp,minhash -n 10000,100000,1000000",
	},
}

func main() {
	only := flag.String("detector", "", "comma-separated detector names (default: every name but reference)")
	ns := flag.String("n", "10000,100000", "comma-separated checkpoints, in documents")
	cli.Set(usage)
	flag.Parse()
	names, checkpoints, err := parse(*only, *ns)
	if err == nil {
		err = run(os.Stdout, cli.NewProgress(os.Stderr, "scale", 10*time.Second), names, checkpoints)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

// parse reads the -detector and -n flags.
func parse(only, ns string) ([]string, []int, error) {
	names := neardup.Names()
	if only != "" {
		names = strings.Split(only, ",")
	} else {
		names = slices.DeleteFunc(names, func(n string) bool { return n == "reference" })
	}
	var checkpoints []int
	for _, f := range strings.Split(ns, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, nil, fmt.Errorf("-n: %q is not a positive number of documents", f)
		}
		checkpoints = append(checkpoints, n)
	}
	for i := 1; i < len(checkpoints); i++ {
		if checkpoints[i] <= checkpoints[i-1] {
			return nil, nil, errors.New("-n: checkpoints must ascend")
		}
	}
	return names, checkpoints, nil
}

// run measures every name and writes one Markdown table.
func run(w io.Writer, p *cli.Progress, names []string, checkpoints []int) error {
	fmt.Fprintln(w, "| detector | documents | CPU µs per Add | live bytes per document |")
	fmt.Fprintln(w, "|---|---:|---:|---:|")
	stream := streamHeap(checkpoints) // the same stream for every name
	for _, name := range names {
		rows, err := measure(name, checkpoints, stream, p)
		if err != nil {
			return err
		}
		for _, r := range rows {
			fmt.Fprintf(w, "| %s | %d | %.1f | %.0f |\n", name, r.n, r.cpuPerAdd, r.bytesPerDoc)
		}
	}
	return nil
}

// row is one checkpoint of one detector.
type row struct {
	n           int
	cpuPerAdd   float64 // µs, over the documents since the previous checkpoint
	bytesPerDoc float64
}

// streamHeap returns the live heap the stream's generator holds at each
// checkpoint (its vocabulary and its recent stories, a few MB):
// measure leaves it out, so that bytes per document are the detector's.
func streamHeap(checkpoints []int) []int64 {
	base := cli.LiveHeap()
	s := dataset.NewSynth(dataset.SynthConfig{Seed: 1})
	var out []int64
	done := 0
	for _, n := range checkpoints {
		for ; done < n; done++ {
			s.Next()
		}
		out = append(out, int64(cli.LiveHeap())-int64(base))
	}
	runtime.KeepAlive(s)
	return out
}

// measure streams checkpoints[len-1] documents into a fresh detector;
// stream is the generator's own heap at each checkpoint (streamHeap).
func measure(name string, checkpoints []int, stream []int64, p *cli.Progress) ([]row, error) {
	base := cli.LiveHeap()
	d, err := neardup.New(name, nil)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	s := dataset.NewSynth(dataset.SynthConfig{Seed: 1})
	batch := make([]detector.Doc, 0, 1000)
	var rows []row
	done, from := 0, 0
	var spent float64 // CPU seconds in Add since the last checkpoint
	for i, n := range checkpoints {
		for done < n {
			// The stream is generated outside the measured span.
			batch = batch[:0]
			for range min(cap(batch), n-done) {
				batch = append(batch, s.Next().Doc)
			}
			before := cpuSeconds()
			for _, doc := range batch {
				if _, err := d.Add(doc); err != nil {
					return nil, fmt.Errorf("%s: Add(%s): %w", name, doc.ID, err)
				}
			}
			spent += cpuSeconds() - before
			done += len(batch)
			p.Tick("%s: %d/%d documents", name, done, checkpoints[len(checkpoints)-1])
		}
		clear(batch[:cap(batch)]) // the batch's texts are the stream's, not the detector's
		heap := int64(cli.LiveHeap()) - int64(base) - stream[i]
		rows = append(rows, row{n: n, cpuPerAdd: spent * 1e6 / float64(n-from), bytesPerDoc: float64(heap) / float64(n)})
		p.Stage("%s: %d documents", name, n)
		spent, from = 0, n
	}
	runtime.KeepAlive(d)
	return rows, nil
}
