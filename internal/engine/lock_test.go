package engine

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// neverFree is a lock whose TryLock always fails: only Lock takes it.
type neverFree struct{ locked bool }

func (n *neverFree) TryLock() bool { return false }
func (n *neverFree) Lock()         { n.locked = true }

// TestLockSpinning: lockSpinning waits for a lock held longer than it
// spins, and blocks in Lock once it has tried for spinFor (which is what
// makes an RWMutex stop new readers for the writer).
func TestLockSpinning(t *testing.T) {
	var m sync.Mutex
	m.Lock()
	got := make(chan struct{})
	go func() {
		lockSpinning(&m)
		close(got)
	}()
	time.Sleep(3 * spinFor)
	select {
	case <-got:
		t.Fatal("took a lock that was held")
	default:
	}
	m.Unlock()
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("never took the lock after it was released")
	}
	m.Unlock()

	var n neverFree
	start := time.Now()
	done := make(chan struct{})
	go func() {
		lockSpinning(&n)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("spun on without blocking in Lock")
	}
	assert.True(t, n.locked, "Lock took the lock")
	assert.GreaterOrEqual(t, time.Since(start), spinFor, "tried for spinFor first")
}
