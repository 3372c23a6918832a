package neardup

import (
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// BenchmarkServe is the service-shaped load, for every named detector at
// its defaults (English): Add of the first 2,000 Reuters-21578 bodies to a
// fresh detector, and Query of them against a detector holding them, each
// from 1 and from 8 goroutines. It reports docs/s (wall clock) and the
// process's CPU time per document ("cpu-µs/doc": user and system, every
// goroutine and the collector included), which a machine shared with
// other work disturbs less. A mechanism of a detector's own (a table, a
// pool, a lock) stays only where this benchmark shows it pays 10% or more.
//
//	go test -run XXX -bench Serve -benchtime 3x -count 6 .
func BenchmarkServe(b *testing.B) {
	docs := dataset.Docs(dataset.Reuters(b, 2000))
	for _, name := range Names() {
		if name == "reference" {
			continue // exact and quadratic by design
		}
		opts := withLanguageOpt(name, "en")
		b.Run(name, func(b *testing.B) { benchServe(b, name, opts, docs) })
	}
}

func benchServe(b *testing.B, name string, opts map[string]string, docs []detector.Doc) {
	report := func(b *testing.B, cpu time.Duration) {
		n := float64(len(docs)) * float64(b.N)
		b.ReportMetric(n/b.Elapsed().Seconds(), "docs/s")
		b.ReportMetric(float64(cpu.Microseconds())/n, "cpu-µs/doc")
	}
	for _, g := range []int{1, 8} {
		b.Run(fmt.Sprintf("Add/goroutines=%d", g), func(b *testing.B) {
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				d, err := New(name, opts)
				if err != nil {
					b.Fatal(err)
				}
				start := cpuTime()
				if err := eachDoc(docs, g, func(doc detector.Doc) error { _, err := d.Add(doc); return err }); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - start
				d.Close()
			}
			report(b, cpu)
		})
	}
	d, err := New(name, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	for _, doc := range docs {
		if _, err := d.Add(doc); err != nil {
			b.Fatal(err)
		}
	}
	q := d.(detector.Querier)
	for _, g := range []int{1, 8} {
		b.Run(fmt.Sprintf("Query/goroutines=%d", g), func(b *testing.B) {
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				start := cpuTime()
				if err := eachDoc(docs, g, func(doc detector.Doc) error { _, err := q.Query(doc); return err }); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - start
			}
			report(b, cpu)
		})
	}
}

// eachDoc runs fn on every document from g goroutines, each taking every
// g-th document.
func eachDoc(docs []detector.Doc, g int, fn func(detector.Doc) error) error {
	var wg sync.WaitGroup
	errs := make([]error, g)
	for w := range g {
		wg.Go(func() {
			for i := w; i < len(docs); i += g {
				if err := fn(docs[i]); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// cpuTime returns the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkNearest compares the cost of Nearest (k = 20) with that of
// Query, for every named detector at its defaults: each looks up 500
// Reuters-21578 bodies against a detector holding the 5,000 before them.
// It reports docs/s and CPU per lookup; the ratio of the two sub-benchmarks
// is Nearest's cost in Queries. A name is set up only when the -bench
// pattern selects it.
//
//	go test -run XXX -bench Nearest -benchtime 3x -count 6 .
func BenchmarkNearest(b *testing.B) {
	recs := dataset.Docs(dataset.Reuters(b, 5500))
	if len(recs) < 5500 {
		b.Skipf("want 5,500 Reuters documents, have %d", len(recs))
	}
	stored, probes := recs[:5000], recs[5000:]
	for _, name := range Names() {
		if name == "reference" {
			continue // exact and quadratic by design
		}
		b.Run(name, func(b *testing.B) {
			d, err := NewIndex(name, withLanguageOpt(name, "en"))
			if err != nil {
				b.Fatal(err)
			}
			for _, doc := range stored {
				if _, err := d.Add(doc); err != nil {
					b.Fatal(err)
				}
			}
			for _, op := range []string{"Query", "Nearest"} {
				b.Run(op, func(b *testing.B) {
					b.ReportAllocs()
					var cpu time.Duration
					for b.Loop() {
						start := cpuTime()
						for _, doc := range probes {
							var err error
							if op == "Query" {
								_, err = d.Query(doc)
							} else {
								_, err = d.Nearest(doc.Text, 20)
							}
							if err != nil {
								b.Fatal(err)
							}
						}
						cpu += cpuTime() - start
					}
					n := float64(len(probes)) * float64(b.N)
					b.ReportMetric(n/b.Elapsed().Seconds(), "docs/s")
					b.ReportMetric(float64(cpu.Microseconds())/n, "cpu-µs/doc")
				})
			}
			d.Close()
		})
	}
}
