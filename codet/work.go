package codet

// workCounters count the units of work of the tree part of Add, so that
// the cost per document can be split into how much work it does and how
// fast each unit runs (docs/notes/codet-history.md, "Cost per document
// as the collection grows"). They are plain increments under the exclusive
// lock, read by the package's tests and benchmarks.
type workCounters struct {
	probes     int // documents probed against the tree
	visits     int // visits of a probe (sequence positions walked)
	lookups    int // children-table lookups of a probe
	found      int // of them, an existing node
	distinct   int // distinct existing nodes of a probe
	scanned    int // visitor entries scanned by probe's main loop
	samples    int // of them, in the samples of deactivated nodes
	aside      int // visitor entries of lists set aside
	asideNodes int // nodes whose lists were set aside
	asideSamp  int // of them, samples of deactivated nodes
	checks     int // long lists considered for setting aside
	resolved   int // groups completed by resolve
	walked     int // tree nodes walked up by resolve
	rescanned  int // visitor entries scanned again (resolveScan, resolveSat)
	inserts    int // nodes created by commit
	enters     int // visitor-list entries made or bumped by commit
	purged     int // nodes walked by purge (Remove, Expire, Window)
	stale      int // Adds whose terms were resolved before a compaction
	rankBound  int // Nearest calls that left lists set aside (nearest.go)
	rankAll    int // Nearest calls that scanned every active list again
}
