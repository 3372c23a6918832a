// The soak runs a detector over an endless windowed stream and records
// its live heap, to show that memory comes back when documents leave.
//
// Every document is an article from a fixed pool with three tokens no
// other document has (the URLs, ids and numbers of real streams), so a
// detector that interns or counts every term it ever saw grows without
// bound, while one that forgets removed documents' terms stays flat.

package testkit

import (
	"cmp"
	"fmt"
	"runtime"
	"strconv"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// SoakConfig configures a soak run.
type SoakConfig struct {
	// Adds is the number of documents added in all.
	Adds int
	// Window is how many documents stay live: each Add past it removes the
	// document added Window Adds before.
	Window int
	// Every is how often, in Adds, the live heap is sampled.
	Every int
	// Pool is the number of distinct articles the texts are drawn from
	// (default 1000).
	Pool int
}

// SoakSample is the live heap after a number of Adds.
type SoakSample struct {
	Adds      int
	HeapBytes uint64
}

// Soak streams cfg.Adds documents through d, which must implement
// [detector.Remover], and returns the live heap (after a full GC) every
// cfg.Every Adds, starting with the heap once the window is full.
func Soak(d detector.Detector, cfg SoakConfig) ([]SoakSample, error) {
	r, ok := d.(detector.Remover)
	if !ok {
		return nil, fmt.Errorf("soak: %T does not implement detector.Remover", d)
	}
	if cfg.Adds < 1 || cfg.Window < 1 || cfg.Every < 1 {
		return nil, fmt.Errorf("soak: Adds, Window and Every must be positive: %+v", cfg)
	}
	pool := dataset.SynthDocs(cmp.Or(cfg.Pool, 1000), dataset.SynthConfig{Seed: 11})
	var out []SoakSample
	for i := range cfg.Adds {
		doc := detector.Doc{ID: "d" + strconv.Itoa(i), Text: Unique(pool[i%len(pool)].Text, i)}
		if _, err := d.Add(doc); err != nil {
			return out, fmt.Errorf("soak: Add %d: %w", i, err)
		}
		if i >= cfg.Window {
			if err := r.Remove("d" + strconv.Itoa(i-cfg.Window)); err != nil {
				return out, fmt.Errorf("soak: Remove %d: %w", i-cfg.Window, err)
			}
		}
		if n := i + 1; n >= cfg.Window && (n-cfg.Window)%cfg.Every == 0 {
			out = append(out, SoakSample{Adds: n, HeapBytes: LiveHeap()})
		}
	}
	return out, nil
}

// Unique returns text with three tokens that only document i has, one in
// the first sentence, one in the middle and one at the end.
func Unique(text string, i int) string {
	tok := func(k int) string { return "zq" + strconv.FormatInt(int64(i)*3+int64(k), 36) + "x" }
	mid := len(text) / 2
	for mid < len(text) && text[mid] != ' ' {
		mid++
	}
	return tok(0) + " " + text[:mid] + " " + tok(1) + text[mid:] + " " + tok(2) + "."
}

// LiveHeap returns the bytes of live heap objects after a full collection.
func LiveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// Growth returns how much the heap grew from the first sample to the
// largest of the later half of samples, in bytes (0 if it shrank).
func Growth(s []SoakSample) uint64 {
	if len(s) < 2 {
		return 0
	}
	var hi uint64
	for _, x := range s[len(s)/2:] {
		hi = max(hi, x.HeapBytes)
	}
	if hi <= s[0].HeapBytes {
		return 0
	}
	return hi - s[0].HeapBytes
}
