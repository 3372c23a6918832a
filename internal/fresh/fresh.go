// Package fresh allocates the tables that the module's open-addressing
// maps grow into (or are made at a size for), written once per memory
// page before anything reads them. Every such table of the module that
// is probed before it is filled takes its slots from [Slice].
//
// A large allocation may come straight from the operating system, and
// Linux maps a fresh page that is first read to its shared zero page: the
// write that follows faults again, copies, and flushes the old mapping
// from the TLB of every core the process runs on, an interrupt to each.
// A rehash probes its new table (reads a slot) before it writes there, so
// it took both faults on every page. With two goroutines adding at once
// on a 2-core virtual machine, the page-table lock and the flushes'
// inter-processor interrupts (each a VM exit) made minhash's
// Containment-mode Add from 2 goroutines hardly faster than from one
// (1.06-1.12 times; with the collector off, a third of the CPU samples
// were in the kernel's fault path, under the rehash of the band maps). A
// page whose first access is a write takes one fault and no flush: the
// same Adds ran 1.25-1.29 times as fast as one goroutine's
// (docs/concurrency.md).
package fresh

import "unsafe"

// pageBytes is the smallest page size of the platforms the module runs
// on; touching more often than a page costs a store per step, no fault.
const pageBytes = 4096

// Slice returns make([]T, n), zeroed as ever, with one element in every
// page of it written (with its zero value) before it is returned.
func Slice[T any](n int) []T {
	s := make([]T, n)
	var zero T
	step := 1
	if size := int(unsafe.Sizeof(zero)); size > 0 && size < pageBytes {
		step = pageBytes / size
	}
	for i := 0; i < n; i += step {
		s[i] = zero
	}
	return s
}
