package imatch

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/benchfloor"
	"github.com/seed-9ef9c1df/neardup/internal/configsweep"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/soak"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
)

// hostileText returns a text of n (at most 36^4) distinct tokens that no
// other text has (tag keeps the tokens of different texts apart) and that
// stay distinct under first-5 stemming: the worst case for a vocabulary,
// about 14 bytes per token.
func hostileText(tag string, n int) string {
	var b strings.Builder
	b.Grow(n * 14)
	for i := range n {
		w := strconv.FormatInt(int64(i), 36)
		b.WriteString("q")
		b.WriteString("0000"[len(w):])
		b.WriteString(w)
		b.WriteString(tag)
		b.WriteString("z ")
	}
	return b.String()
}

func TestConfigSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("the sweep builds a detector per value")
	}
	c := configsweep.Run(t, Config{}, func(cfg Config) (detector.Detector, error) { return New(cfg) })
	t.Logf("config sweep: %d cases, %d rejected, %d accepted", c.Cases, c.Rejected, c.Accepted)
	assert.Positive(t, c.Rejected)
	assert.Positive(t, c.Accepted)
}

// TestConcurrentSameID adds the same new ID from several goroutines at
// once: exactly one Add succeeds, the others get ErrDuplicateID, and the
// winner is fully indexed (an exact copy added later finds it).
func TestConcurrentSameID(t *testing.T) {
	docs := synth.Docs(40, synth.Config{Seed: 3})
	trials := 60
	if raceEnabled || testing.Short() {
		trials = 15
	}
	for trial := range trials {
		d, err := New(Config{})
		require.NoError(t, err)
		for _, doc := range docs[:20] {
			_, err := d.Add(doc)
			require.NoError(t, err)
		}
		text := docs[20+trial%20].Text
		const g = 4
		var wins, dups atomic.Int32
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range g {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, err := d.Add(detector.Doc{ID: "same", Text: text})
				switch {
				case err == nil:
					wins.Add(1)
				case assert.ErrorIs(t, err, detector.ErrDuplicateID):
					dups.Add(1)
				}
			}()
		}
		close(start)
		wg.Wait()
		require.Equal(t, int32(1), wins.Load(), "trial %d", trial)
		require.Equal(t, int32(g-1), dups.Load(), "trial %d", trial)
		ms, err := d.Add(detector.Doc{ID: "copy", Text: text})
		require.NoError(t, err)
		require.NotEmpty(t, ms)
		assert.Equal(t, "same", ms[0].ID, "trial %d: the exact copy finds the winner", trial)
		assert.Equal(t, 1.0, ms[0].Score)
		require.Equal(t, 22, d.Len())
		require.NoError(t, d.Close())
	}
}

// BenchmarkAddParallel adds the first 5000 Reuters-21578 bodies into a
// fresh detector per iteration from 1 and from 2 goroutines, with the
// floor in the same run: the ratio G1/G2 is the speed-up of concurrent
// Adds.
func BenchmarkAddParallel(b *testing.B) {
	docs := dataset.Texts(dataset.Reuters(b, 5000))
	b.Run("Floor", func(b *testing.B) { benchfloor.Run(b, docs) })
	for _, tc := range benchDetectors(b) {
		for _, g := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/G%d", tc.name, g), func(b *testing.B) {
				total := 0
				for _, t := range docs {
					total += len(t)
				}
				b.SetBytes(int64(total))
				b.ReportAllocs()
				for b.Loop() {
					d := tc.build()
					var next atomic.Int64
					var wg sync.WaitGroup
					for range g {
						wg.Add(1)
						go func() {
							defer wg.Done()
							for {
								i := int(next.Add(1)) - 1
								if i >= len(docs) {
									return
								}
								if _, err := d.Add(detector.Doc{ID: strconv.Itoa(i), Text: docs[i]}); err != nil {
									b.Error(err)
									return
								}
							}
						}()
					}
					wg.Wait()
				}
				b.ReportMetric(float64(len(docs))*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
			})
		}
	}
}

// BenchmarkAfterHostile measures an ordinary Add (and Remove) on a detector
// holding 2000 Reuters bodies, fresh and after one hostile document of 1.4M
// distinct tokens (20 MB) was added and removed, or added and kept: scratch
// space sized by the outlier must not slow every later Add. The detectors
// are built once per process (each ordinary Add is removed again), so that
// -count does not add the hostile document again.
func BenchmarkAfterHostile(b *testing.B) {
	recs := dataset.Reuters(b, 3000)
	docs := dataset.Texts(recs)
	probe := docs[2000:]
	for _, mode := range []string{"Fresh", "HostileRemoved", "HostileLive"} {
		b.Run(mode, func(b *testing.B) {
			d := hostileDetectors[mode]
			if d == nil {
				d = buildAfterHostile(b, mode, docs[:2000], probe)
				hostileDetectors[mode] = d
			}
			benchfloor.RunEach(b, probe, func(t string) {
				if _, err := d.Add(detector.Doc{ID: "p", Text: t}); err != nil {
					b.Fatal(err)
				}
				if err := d.Remove("p"); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
	b.Run("Floor", func(b *testing.B) { benchfloor.Run(b, probe) })
}

var hostileDetectors = map[string]*Detector{}

// buildAfterHostile returns a detector holding docs, after the hostile
// document of mode, warmed with the probe texts.
func buildAfterHostile(b *testing.B, mode string, docs, probe []string) *Detector {
	d, err := New(Config{MaxTextBytes: 64 << 20})
	if err != nil {
		b.Fatal(err)
	}
	for i, t := range docs {
		if _, err := d.Add(detector.Doc{ID: strconv.Itoa(i), Text: t}); err != nil {
			b.Fatal(err)
		}
	}
	if mode != "Fresh" {
		if _, err := d.Add(detector.Doc{ID: "hostile", Text: hostileText("h", 1_400_000)}); err != nil {
			b.Fatal(err)
		}
		if mode == "HostileRemoved" {
			if err := d.Remove("hostile"); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, t := range probe {
		if _, err := d.Add(detector.Doc{ID: "p", Text: t}); err != nil {
			b.Fatal(err)
		}
		if err := d.Remove("p"); err != nil {
			b.Fatal(err)
		}
	}
	return d
}

// TestHostileMemoryReport (NEARDUP_SOAK=1) adds three documents of 1.4M
// distinct tokens (20 MB each) to a detector holding 1000 ordinary ones,
// removes them, and logs the live heap before and after.
func TestHostileMemoryReport(t *testing.T) {
	if os.Getenv("NEARDUP_SOAK") == "" {
		t.Skip("set NEARDUP_SOAK=1 to run the hostile-document memory report")
	}
	d, err := New(Config{MaxTextBytes: 64 << 20})
	require.NoError(t, err)
	for _, doc := range synth.Docs(1000, synth.Config{Seed: 9}) {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	before := soak.LiveHeap()
	for i := range 3 {
		id := fmt.Sprint("hostile", i)
		_, err := d.Add(detector.Doc{ID: id, Text: hostileText(strconv.Itoa(i), 1_400_000)})
		require.NoError(t, err)
		require.NoError(t, d.Remove(id))
	}
	after := soak.LiveHeap()
	t.Logf("live heap: %.1f MB before, %.1f MB after three hostile documents added and removed", float64(before)/1e6, float64(after)/1e6)
	_, err = d.Add(detector.Doc{ID: "last", Text: "still works"})
	require.NoError(t, err)
}

// TestSoakReport (NEARDUP_SOAK=Adds) streams Adds documents with three
// fresh tokens each through a window of 10,000 and logs the live heap
// every 100,000 Adds.
func TestSoakReport(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("NEARDUP_SOAK"))
	if n <= 1 {
		t.Skip("set NEARDUP_SOAK to a number of Adds (e.g. 300000) to run the soak report")
	}
	d, err := New(Config{})
	require.NoError(t, err)
	s, err := soak.Run(d, soak.Config{Adds: n, Window: 10_000, Every: 100_000})
	require.NoError(t, err)
	for _, x := range s {
		t.Logf("soak: %7d Adds: live heap %.1f MB", x.Adds, float64(x.HeapBytes)/1e6)
	}
	t.Logf("soak growth: %.1f MB", float64(soak.Growth(s))/1e6)
}

// TestStallReport (NEARDUP_SOAK=1) adds one document of 1.4M distinct
// tokens (20 MB) while another goroutine calls Containers and Len in a
// loop, and logs the longest of those calls: how long an Add stalls the
// Detector's readers.
func TestStallReport(t *testing.T) {
	if os.Getenv("NEARDUP_SOAK") == "" {
		t.Skip("set NEARDUP_SOAK=1 to run the stall report")
	}
	d, err := New(Config{MaxTextBytes: 64 << 20})
	require.NoError(t, err)
	docs := synth.Docs(1000, synth.Config{Seed: 9})
	for _, doc := range docs {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	hostile := hostileText("s", 1_400_000)
	done := make(chan time.Duration)
	go func() {
		start := time.Now()
		_, err := d.Add(detector.Doc{ID: "hostile", Text: hostile})
		assert.NoError(t, err)
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
		_, err := d.Containers(docs[calls%len(docs)].ID)
		require.NoError(t, err)
		d.Len()
		worst = max(worst, time.Since(start))
		calls++
	}
}
