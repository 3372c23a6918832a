package neardup

import (
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/imatch"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
	"github.com/seed-9ef9c1df/neardup/minhash"
	"github.com/seed-9ef9c1df/neardup/mrcosine"
	"github.com/seed-9ef9c1df/neardup/shingle"
	"github.com/seed-9ef9c1df/neardup/simhash"
	"github.com/seed-9ef9c1df/neardup/tweezer"
)

// The config sweeps and reliability reports of the shared suite.

// sweepValues are the option values the registry sweep tries: zero,
// negative, one, huge, tiny, not a number, empty and junk.
var sweepValues = []string{
	"0", "-1", "1", "-0.5", "9223372036854775807", "-9223372036854775808", "4611686018427387903",
	"1.7976931348623157e308", "1e-300", "NaN", "+Inf", "", "junk",
}

// buildSafely calls New, turning a panic into an error that is not
// ErrInvalidConfig.
func buildSafely(name string, opts map[string]string) (d detector.Detector, err error) {
	defer func() {
		if r := recover(); r != nil {
			d, err = nil, fmt.Errorf("New panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return New(name, opts)
}

// TestEveryNameConfigSweep sets each option a name accepts, in turn, to
// sweepValues: New must refuse the value with an error wrapping
// ErrInvalidConfig, or build a detector that writes a snapshot and
// survives testkit.Survives's workload (no panic, no NaN or infinite
// score, no hang). Every name refuses some values and accepts some.
func TestEveryNameConfigSweep(t *testing.T) {
	everyName(t, func(t *testing.T, name string, opts map[string]string) {
		info, err := Lookup(name)
		require.NoError(t, err)
		base := englishOptions(t, name)
		if base == nil {
			base = map[string]string{}
		}
		for k, v := range opts {
			base[k] = v
		}
		rejected, accepted := 0, 0
		for _, o := range info.Options {
			if _, ok := opts[o]; ok {
				continue // the variant's own setting
			}
			for _, v := range sweepValues {
				label := fmt.Sprintf("%s=%q", o, v)
				d, err := buildSafely(name, with(base, o, v))
				if err != nil {
					require.ErrorIs(t, err, detector.ErrInvalidConfig, label)
					rejected++
					continue
				}
				accepted++
				if p, ok := d.(io.WriterTo); ok {
					_, err := p.WriteTo(io.Discard)
					assert.NoError(t, err, "%s: accepted, but WriteTo cannot write it", label)
				}
				assert.NoError(t, testkit.Survives(d), "%s: accepted, then", label)
			}
		}
		t.Logf("%d options: %d values refused, %d accepted", len(info.Options), rejected, accepted)
		assert.Positive(t, rejected)
		assert.Positive(t, accepted)
	})
}

// writable wraps a constructor so that every Config it accepts must also
// write a snapshot.
func writable[C any, D detector.Detector](t *testing.T, newFn func(C) (D, error)) func(C) (detector.Detector, error) {
	return func(cfg C) (detector.Detector, error) {
		d, err := newFn(cfg)
		if err != nil {
			return nil, err
		}
		if p, ok := any(d).(io.WriterTo); ok {
			if _, err := p.WriteTo(io.Discard); err != nil {
				t.Errorf("New(%+v) accepted a Config WriteTo cannot write: %v", cfg, err)
			}
		}
		return d, nil
	}
}

// sweepCase is one package Config swept by testkit.Sweep.
type sweepCase struct {
	name  string
	sweep func(t *testing.T) testkit.SweepCounts
}

// sweepOf sweeps base with the package constructor newFn.
func sweepOf[C any, D detector.Detector](name string, base C, newFn func(C) (D, error)) sweepCase {
	return sweepCase{name, func(t *testing.T) testkit.SweepCounts { return testkit.Sweep(t, base, writable(t, newFn)) }}
}

// TestEveryPackageConfigSweep runs testkit.Sweep over every package's
// Config, in the methods and modes that read different fields: each
// numeric field (the ones the registry fixes by name, Method and Mode,
// included) in turn at 0, -1, 1, the extremes of its kind, NaN and ±Inf,
// values the registry refuses before New sees them. New must refuse what
// Add cannot survive and what a snapshot cannot hold, and each Config
// both refuses and accepts some values.
func TestEveryPackageConfigSweep(t *testing.T) {
	if dataset.RaceEnabled {
		t.Skip("the sweep builds hundreds of detectors; it runs without -race")
	}
	for _, c := range []sweepCase{
		sweepOf("codet", codet.Config{Language: "en"}, codet.New),
		sweepOf("codet/CollapseNear/Pairwise", codet.Config{Language: "en", Collapse: codet.CollapseNear, Mode: codet.ModePairwise}, codet.New),
		sweepOf("shingle/ffp", shingle.Config{}, shingle.New),
		sweepOf("shingle/dsc", shingle.Config{Method: shingle.DSC}, shingle.New),
		sweepOf("shingle/dsc-min", shingle.Config{Method: shingle.DSC, Sampling: shingle.SampleMin}, shingle.New),
		sweepOf("shingle/dsc-stride-super", shingle.Config{Method: shingle.DSC, Sampling: shingle.SampleStride, SuperShingle: 2}, shingle.New),
		sweepOf("shingle/spotsigs", shingle.Config{Method: shingle.SpotSigs}, shingle.New),
		sweepOf("minhash/Jaccard", minhash.Config{Mode: minhash.Jaccard}, minhash.New),
		sweepOf("minhash/Weighted", minhash.Config{Mode: minhash.Weighted}, minhash.New),
		sweepOf("minhash/Containment", minhash.Config{Mode: minhash.Containment}, minhash.New),
		sweepOf("simhash", simhash.Config{}, simhash.New),
		sweepOf("imatch", imatch.Config{}, imatch.New),
		sweepOf("tweezer/Overlap", tweezer.Config{Mode: tweezer.Overlap, Language: "tr"}, tweezer.New),
		sweepOf("tweezer/Exact", tweezer.Config{Mode: tweezer.Exact, Language: "tr"}, tweezer.New),
		sweepOf("tweezer/Jaccard", tweezer.Config{Mode: tweezer.Jaccard, Language: "tr"}, tweezer.New),
		sweepOf("mrcosine", mrcosine.Config{}, mrcosine.New),
		sweepOf("mrcosine/Centered", mrcosine.Config{Centered: true}, mrcosine.New),
		sweepOf("mrcosine/Exhaustive", mrcosine.Config{Exhaustive: true}, mrcosine.New),
	} {
		t.Run(c.name, func(t *testing.T) {
			if dataset.RaceEnabled && strings.HasPrefix(c.name, "minhash/") {
				t.Skip("the MinHash sweep builds hundreds of detectors; it runs without -race")
			}
			t.Parallel()
			n := c.sweep(t)
			t.Logf("%d cases, %d rejected, %d accepted", n.Cases, n.Rejected, n.Accepted)
			assert.Equal(t, n.Cases, n.Rejected+n.Accepted)
			assert.Positive(t, n.Rejected)
			assert.Positive(t, n.Accepted)
		})
	}
}

// largeOptions are the options under which a name accepts the reports'
// hostile documents (20 MB each).
func largeOptions(t *testing.T, name string) map[string]string {
	info, err := Lookup(name)
	require.NoError(t, err)
	if !strings.Contains(" "+strings.Join(info.Options, " ")+" ", " MaxTextBytes ") {
		return nil
	}
	return map[string]string{"MaxTextBytes": fmt.Sprint(64 << 20)}
}

// eachNameInTurn runs fn for every registry name at its defaults, one at
// a time (the reports measure the live heap, which parallel subtests
// would share), but "reference", the quadratic baseline, on an empty
// detector of the name. With large, the detectors accept documents of
// 64 MiB.
func eachNameInTurn(t *testing.T, large bool, fn func(t *testing.T, d testkit.Detector)) {
	dataset.SkipSoak(t)
	for _, name := range Names() {
		if name == "reference" {
			continue // the quadratic baseline of the tests
		}
		t.Run(name, func(t *testing.T) {
			var opts map[string]string
			if large {
				if opts = largeOptions(t, name); opts == nil {
					t.Skipf("%s has no MaxTextBytes option for documents of 20 MB", name)
				}
			}
			fn(t, suiteNew(t, name, opts))
		})
	}
}

// TestEveryNameHostileMemoryReport (NEARDUP_LONG=1) adds three documents
// of 1.4M distinct tokens (20 MB each) to a detector holding 1000
// ordinary ones, removes them, and logs the live heap before and after.
func TestEveryNameHostileMemoryReport(t *testing.T) {
	eachNameInTurn(t, true, func(t *testing.T, d testkit.Detector) {
		for _, doc := range dataset.SynthDocs(1000, dataset.SynthConfig{Seed: 9}) {
			if _, err := d.Add(doc); err != nil {
				t.Fatal(err)
			}
		}
		before := testkit.LiveHeap()
		for i := range 3 {
			id := fmt.Sprint("hostile", i)
			if _, err := d.Add(detector.Doc{ID: id, Text: testkit.HostileText(strconv.Itoa(i), 1_400_000)}); err != nil {
				t.Fatal(err)
			}
			if err := d.Remove(id); err != nil {
				t.Fatal(err)
			}
		}
		after := testkit.LiveHeap()
		t.Logf("live heap: %.1f MB before, %.1f MB after three hostile documents added and removed", float64(before)/1e6, float64(after)/1e6)
		if _, err := d.Add(detector.Doc{ID: "last", Text: "still works"}); err != nil {
			t.Fatal(err)
		}
	})
}

// flatSoak lists the names whose soak must keep the live heap flat (a
// growth under a tenth of the first sample); the others' soaks are
// logged.
var flatSoak = map[string]bool{"mrcosine": true, "mrcosine-centered": true}

// TestEveryNameSoakReport (NEARDUP_LONG=1: 30,000 Adds a name, through a
// window of 3,000; NEARDUP_LONG=N: N Adds) streams documents with three
// fresh tokens each and logs the live heap every 3,000 Adds; the names
// of flatSoak run 100,000 Adds through a window of 1,000 and must keep it
// flat.
func TestEveryNameSoakReport(t *testing.T) {
	eachNameInTurn(t, false, func(t *testing.T, d testkit.Detector) {
		name := strings.TrimPrefix(t.Name(), "TestEveryNameSoakReport/")
		cfg := testkit.SoakConfig{Adds: 30_000, Window: 3_000, Every: 3_000}
		if flatSoak[name] {
			cfg = testkit.SoakConfig{Adds: 100_000, Window: 1_000, Every: 10_000}
		}
		cfg.Adds = dataset.LongCount(cfg.Adds)
		s, err := testkit.Soak(d, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range s {
			t.Logf("soak: %7d Adds: live heap %.1f MB", x.Adds, float64(x.HeapBytes)/1e6)
		}
		t.Logf("soak growth: %.1f MB", float64(testkit.Growth(s))/1e6)
		if flatSoak[name] && len(s) > 0 {
			assert.Less(t, float64(testkit.Growth(s)), 0.1*float64(s[0].HeapBytes), "live heap stays flat")
		}
	})
}

// TestEveryNameStallReport (NEARDUP_LONG=1) adds one document of 1.4M
// distinct tokens (20 MB) while another goroutine calls Containers and
// Len in a loop, and logs the longest of those calls: how long an Add
// stalls the detector's readers.
func TestEveryNameStallReport(t *testing.T) {
	eachNameInTurn(t, true, func(t *testing.T, d testkit.Detector) {
		docs := dataset.SynthDocs(1000, dataset.SynthConfig{Seed: 9})
		for _, doc := range docs {
			if _, err := d.Add(doc); err != nil {
				t.Fatal(err)
			}
		}
		hostile := testkit.HostileText("s", 1_400_000)
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
	})
}
