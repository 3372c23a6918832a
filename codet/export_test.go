package codet

import "github.com/seed-9ef9c1df/neardup/internal/snapshot"

// Work returns the work counters of d (work.go) by name, for the tests
// and benchmarks of package codet_test.
func Work(d *Detector) map[string]int {
	var w workCounters
	d.inspect(func(x *index) { w = x.work })
	return map[string]int{
		"probes": w.probes, "visits": w.visits, "lookups": w.lookups,
		"found": w.found, "distinct": w.distinct, "scanned": w.scanned, "samples": w.samples,
		"aside": w.aside, "asideNodes": w.asideNodes, "asideSamples": w.asideSamp, "checks": w.checks,
		"resolved": w.resolved, "walked": w.walked, "rescanned": w.rescanned,
		"inserts": w.inserts, "enters": w.enters, "purged": w.purged,
	}
}

// ix returns the detector's index (the engine's, replaced by ReadFrom),
// for the tests that read or set it while no other call runs.
func (d *Detector) ix() *index {
	var x *index
	d.inspect(func(i *index) { x = i })
	return x
}

// header returns the snapshot header of d, as the engine writes it: its
// effective Config and the fingerprint of its idf table.
func (d *Detector) header() snapshot.Header {
	return snapshot.Header{Kind: snapshotKind, KindVersion: snapshotVersion, Config: d.s.Config, Tables: d.alg.tables()}
}
