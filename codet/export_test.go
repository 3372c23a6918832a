package codet

// Work returns the work counters of d (work.go) by name, for the tests
// and benchmarks of package codet_test.
func Work(d *Detector) map[string]int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	w := d.work
	return map[string]int{
		"probes": w.probes, "visits": w.visits, "lookups": w.lookups,
		"found": w.found, "distinct": w.distinct, "scanned": w.scanned, "samples": w.samples,
		"aside": w.aside, "asideNodes": w.asideNodes, "asideSamples": w.asideSamp, "checks": w.checks,
		"resolved": w.resolved, "walked": w.walked, "rescanned": w.rescanned,
		"inserts": w.inserts, "enters": w.enters, "purged": w.purged,
	}
}
