package testkit

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// The reports below run only with NEARDUP_LONG (internal/dataset),
// and not under -race: they take minutes and log figures rather than check
// them.

// HostileMemoryReport (NEARDUP_LONG=1) adds three documents of 1.4M
// distinct tokens (20 MB each) to a detector holding 1000 ordinary ones,
// removes them, and logs the live heap before and after. build returns an
// empty detector that accepts them (a MaxTextBytes of 64 MiB).
func HostileMemoryReport(t *testing.T, build func() (Detector, error)) {
	dataset.SkipSoak(t)
	d := mustBuild(t, build)
	for _, doc := range dataset.SynthDocs(1000, dataset.SynthConfig{Seed: 9}) {
		if _, err := d.Add(doc); err != nil {
			t.Fatal(err)
		}
	}
	before := LiveHeap()
	for i := range 3 {
		id := fmt.Sprint("hostile", i)
		if _, err := d.Add(detector.Doc{ID: id, Text: HostileText(strconv.Itoa(i), 1_400_000)}); err != nil {
			t.Fatal(err)
		}
		if err := d.Remove(id); err != nil {
			t.Fatal(err)
		}
	}
	after := LiveHeap()
	t.Logf("live heap: %.1f MB before, %.1f MB after three hostile documents added and removed", float64(before)/1e6, float64(after)/1e6)
	if _, err := d.Add(detector.Doc{ID: "last", Text: "still works"}); err != nil {
		t.Fatal(err)
	}
}

// SoakReport (NEARDUP_LONG=1: cfg.Adds Adds; NEARDUP_LONG=N: N Adds)
// streams documents with three fresh tokens each through a window of
// cfg.Window, logs the live heap every cfg.Every Adds and returns the
// samples (nil when skipped). It costs cfg.Adds Adds and Removes.
func SoakReport(t *testing.T, build func() (Detector, error), cfg SoakConfig) []SoakSample {
	dataset.SkipSoak(t)
	cfg.Adds = dataset.LongCount(cfg.Adds)
	d := mustBuild(t, build)
	s, err := Soak(d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range s {
		t.Logf("soak: %7d Adds: live heap %.1f MB", x.Adds, float64(x.HeapBytes)/1e6)
	}
	t.Logf("soak growth: %.1f MB", float64(Growth(s))/1e6)
	return s
}

// StallReport (NEARDUP_LONG=1) adds one document of 1.4M distinct tokens
// (20 MB) while another goroutine calls Containers and Len in a loop, and
// logs the longest of those calls: how long an Add stalls the detector's
// readers. build returns an empty detector that accepts the document (a
// MaxTextBytes of 64 MiB).
func StallReport(t *testing.T, build func() (Detector, error)) {
	dataset.SkipSoak(t)
	d := mustBuild(t, build)
	docs := dataset.SynthDocs(1000, dataset.SynthConfig{Seed: 9})
	for _, doc := range docs {
		if _, err := d.Add(doc); err != nil {
			t.Fatal(err)
		}
	}
	hostile := HostileText("s", 1_400_000)
	done := make(chan time.Duration)
	go func() {
		start := time.Now()
		_, err := d.Add(detector.Doc{ID: "hostile", Text: hostile})
		if err != nil {
			t.Error(err)
		}
		done <- time.Since(start)
	}()
	var worst time.Duration
	calls := 0
	for {
		select {
		case took := <-done:
			t.Logf("stall: a 20 MB Add took %v; the longest of %d Containers+Len calls meanwhile took %v", took, calls, worst)
			return
		default:
		}
		start := time.Now()
		if _, err := d.Containers(docs[calls%len(docs)].ID); err != nil {
			t.Fatal(err)
		}
		d.Len()
		worst = max(worst, time.Since(start))
		calls++
	}
}

func mustBuild(t *testing.T, build func() (Detector, error)) Detector {
	t.Helper()
	d, err := build()
	if err != nil {
		t.Fatal(err)
	}
	return d
}
