package spin_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/seed-9ef9c1df/neardup/internal/spin"
)

// TestExclusion runs writers and readers of both types at once: a writer
// holds the lock alone (the race detector and the count check it), and
// readers share it with each other only.
func TestExclusion(t *testing.T) {
	var rw spin.RWMutex
	var m spin.Mutex
	var shared, plain int
	var readers atomic.Int32
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for range 2000 {
				if g%2 == 0 {
					rw.Lock()
					readersNow := readers.Load()
					shared++
					rw.Unlock()
					assert.Zero(t, readersNow, "a writer shares the lock")
				} else {
					rw.RLock()
					readers.Add(1)
					_ = shared
					readers.Add(-1)
					rw.RUnlock()
				}
				m.Lock()
				plain++
				m.Unlock()
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 4*2000, shared)
	assert.Equal(t, 8*2000, plain)
}

// TestBlocksAfterYields holds the lock longer than the yields last: the
// waiter must fall back to blocking and get the lock once it is released.
func TestBlocksAfterYields(t *testing.T) {
	var rw spin.RWMutex
	rw.Lock()
	got := make(chan struct{})
	go func() {
		rw.RLock()
		close(got)
		rw.RUnlock()
	}()
	select {
	case <-got:
		t.Fatal("RLock returned while the write lock was held")
	default:
	}
	rw.Unlock()
	<-got
}

// TestUntil: Until returns as soon as the condition holds, and gives up
// after Yields yields (one last look included) when it never does.
func TestUntil(t *testing.T) {
	calls := 0
	assert.True(t, spin.Until(func() bool { calls++; return calls == 3 }))
	assert.Equal(t, 3, calls)
	calls = 0
	assert.False(t, spin.Until(func() bool { calls++; return false }))
	assert.Equal(t, spin.Yields+1, calls)
}

func Example() {
	var mu spin.RWMutex // as a sync.RWMutex, waiting by yielding first
	count := 0
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			mu.Lock()
			count++
			mu.Unlock()
		})
	}
	wg.Wait()
	mu.RLock()
	fmt.Println(count)
	mu.RUnlock()
	// Output: 4
}
