// Package spin provides the locks of the detectors' Add paths: the locks
// of package sync, which try again for a few yields of the processor
// before they block.
//
// The sections an Add waits for (another Add's commit, a turn, a short
// search) last microseconds, while a goroutine that blocks is woken through
// the operating system, which on an idle virtual core costs tens of
// microseconds, during which the core that could run it stays idle. On a
// 2-core machine, Adds from 2 goroutines into mrcosine spent most of their
// waiting that way (the scheduler-latency profile of go tool trace) and ran
// no faster than from 1. A yield returns at once when nothing else of the
// process is runnable, so the retries last some microseconds, and they give
// way to other goroutines when there are.
package spin

import (
	"runtime"
	"sync"
)

// Yields bounds how many times a waiter yields the processor, trying the
// lock again after each yield, before it blocks. 512 yields last about a
// tenth of a millisecond when nothing else is runnable. On 2 cores, Adds
// from 2 goroutines ran as fast with 512 as with 2,048 and clearly faster
// than with 64 (docs/concurrency.md).
const Yields = 512

// Lock locks mu for writing, trying without blocking for up to [Yields]
// yields first. The lock is mu's: only the waiting differs.
func Lock(mu *sync.RWMutex) {
	for range Yields {
		if mu.TryLock() {
			return
		}
		runtime.Gosched()
	}
	mu.Lock()
}

// RLock locks mu for reading as [Lock] locks it for writing.
func RLock(mu *sync.RWMutex) {
	for range Yields {
		if mu.TryRLock() {
			return
		}
		runtime.Gosched()
	}
	mu.RLock()
}

// LockMutex locks mu as [Lock] locks a RWMutex.
func LockMutex(mu *sync.Mutex) {
	for range Yields {
		if mu.TryLock() {
			return
		}
		runtime.Gosched()
	}
	mu.Lock()
}

// Until yields the processor until ready reports true, up to [Yields]
// times, and reports whether it did: a waiter for a condition (a turn,
// a ticket) spins as the locks do before it parks on its sync.Cond.
func Until(ready func() bool) bool {
	for range Yields {
		if ready() {
			return true
		}
		runtime.Gosched()
	}
	return ready()
}

// RWMutex is a sync.RWMutex whose Lock and RLock wait as [Lock] and
// [RLock] do. The zero value is unlocked.
type RWMutex struct{ sync.RWMutex }

// Lock locks m for writing (see [Lock]).
func (m *RWMutex) Lock() { Lock(&m.RWMutex) }

// RLock locks m for reading (see [RLock]).
func (m *RWMutex) RLock() { RLock(&m.RWMutex) }

// Mutex is a sync.Mutex whose Lock waits as [LockMutex] does. The zero
// value is unlocked.
type Mutex struct{ sync.Mutex }

// Lock locks m (see [LockMutex]).
func (m *Mutex) Lock() { LockMutex(&m.Mutex) }
