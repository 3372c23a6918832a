package engine

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// neverFree is a lock whose TryLock always fails: only Lock takes it.
type neverFree struct {
	tries  int
	locked bool
}

func (n *neverFree) TryLock() bool { n.tries++; return false }
func (n *neverFree) Lock()         { n.locked = true }

// TestLockSpinning: lockSpinning waits for a lock held longer than it
// tries, and blocks in Lock after spinTries tries (which is what makes an
// RWMutex stop new readers for the writer).
func TestLockSpinning(t *testing.T) {
	var m sync.Mutex
	m.Lock()
	got := make(chan struct{})
	go func() {
		lockSpinning(&m)
		close(got)
	}()
	time.Sleep(20 * time.Millisecond)
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
	lockSpinning(&n)
	assert.True(t, n.locked, "Lock took the lock")
	assert.Equal(t, spinTries, n.tries, "tried spinTries times first")
}
