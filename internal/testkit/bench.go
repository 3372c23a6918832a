package testkit

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// Build names a configuration of a detector for the benchmarks.
type Build struct {
	Name string
	New  func() detector.Detector
}

// MustBuild returns a Build named name whose New fails b when build does.
func MustBuild(b *testing.B, name string, build func() (detector.Detector, error)) Build {
	return Build{Name: name, New: func() detector.Detector {
		d, err := build()
		if err != nil {
			b.Fatal(err)
		}
		return d
	}}
}

// AddParallelBuilds runs [AddParallel] over texts (IDs "0", "1", ...)
// from 1 and from 2 goroutines, for each build, with the floor in the
// same run: the ratio G1/G2 is the speed-up of concurrent Adds.
func AddParallelBuilds(b *testing.B, texts []string, builds []Build) {
	b.Run("Floor", func(b *testing.B) { Run(b, texts) })
	docs := make([]detector.Doc, len(texts))
	for i, t := range texts {
		docs[i] = detector.Doc{ID: strconv.Itoa(i), Text: t}
	}
	for _, tc := range builds {
		for _, g := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/G%d", tc.Name, g), func(b *testing.B) {
				AddParallel(b, func() (detector.Detector, error) { return tc.New(), nil }, docs, g)
			})
		}
	}
}

// SerialShare measures, in one run per build, a full Add (sub-benchmark
// Name/Add) and the part of it that runs outside the detector's locks
// (Name/Outside, each text given to the function outside returns for the
// build): the rest is the serial share s, which bounds the speed-up of g
// goroutines by 1/(s + (1−s)/g) whatever the machine's load.
func SerialShare(b *testing.B, docs []string, builds []Build, outside func(b *testing.B, build Build) func(text string)) {
	for _, tc := range builds {
		b.Run(tc.Name+"/Add", func(b *testing.B) {
			n := 0
			var d detector.Detector
			RunEach(b, docs, func(t string) {
				if n%len(docs) == 0 {
					d = tc.New()
				}
				n++
				if _, err := d.Add(detector.Doc{ID: strconv.Itoa(n), Text: t}); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(tc.Name+"/Outside", func(b *testing.B) {
			RunEach(b, docs, outside(b, tc))
		})
	}
}

// afterHostile keeps the detectors of AfterHostile for the process, so
// that -count does not add the hostile document again.
var afterHostile = map[string]Detector{}

// AfterHostile measures an ordinary Add (and Remove) of each of probe on a
// detector holding docs, fresh and after one hostile document of 1.4M
// distinct tokens (20 MB) was added and removed, or added and kept:
// scratch space sized by the outlier must not slow every later Add. build
// returns an empty detector that accepts the hostile document (a
// MaxTextBytes of 64 MiB). The detectors are built once per process (each
// ordinary Add is removed again).
func AfterHostile(b *testing.B, docs, probe []string, build func() (Detector, error)) {
	for _, mode := range []string{"Fresh", "HostileRemoved", "HostileLive"} {
		b.Run(mode, func(b *testing.B) {
			d := afterHostile[mode]
			if d == nil {
				d = buildAfterHostile(b, mode, docs, build)
				afterHostile[mode] = d
			}
			RunEach(b, probe, func(t string) {
				if _, err := d.Add(detector.Doc{ID: "p", Text: t}); err != nil {
					b.Fatal(err)
				}
				if err := d.Remove("p"); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
	b.Run("Floor", func(b *testing.B) { Run(b, probe) })
}

// buildAfterHostile returns a detector holding docs, after the hostile
// document of mode (RunEach warms it with the probe texts).
func buildAfterHostile(b *testing.B, mode string, docs []string, build func() (Detector, error)) Detector {
	d, err := build()
	if err != nil {
		b.Fatal(err)
	}
	for i, t := range docs {
		if _, err := d.Add(detector.Doc{ID: strconv.Itoa(i), Text: t}); err != nil {
			b.Fatal(err)
		}
	}
	if mode != "Fresh" {
		if _, err := d.Add(detector.Doc{ID: "hostile", Text: HostileText("h", 1_400_000)}); err != nil {
			b.Fatal(err)
		}
		if mode == "HostileRemoved" {
			if err := d.Remove("hostile"); err != nil {
				b.Fatal(err)
			}
		}
	}
	return d
}
