// Package testkit holds the test and benchmark helpers the detector
// packages share, all built on package testing: the floor benchmark every
// detector's speed is reported against ([Floor], [Run], [AddParallel]),
// and the reliability checks and benchmarks that detectors with
// the same guarantees run from their own tests ([Sweep], [Soak], the
// concurrency and memory checks, [AddParallelBuilds],
// [CheckExactDuplicates]). Its tests also hold the module-wide import
// guards (no I/O in the library, package testing only in test support).
// Only tests, benchmarks and the peer benchmark module import it.
package testkit
