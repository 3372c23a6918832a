package minhash

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSharedRoundSameSlots samples weighted sets with a sampler that
// always sees a goroutine waiting, and so offers each first round, while
// another goroutine helps with every round it finds: each signature must
// equal the one a sampler alone makes, and some rounds must have been
// helped (on 2 or more processors).
func TestSharedRoundSameSlots(t *testing.T) {
	var sh sharing
	sh.waiting.Store(1)
	stop := make(chan struct{})
	var helped atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		var hs dartScratch
		for {
			select {
			case <-stop:
				return
			default:
			}
			if r := sh.offered.Load(); r != nil && r.help(&hs) {
				helped.Add(1)
			} else {
				runtime.Gosched()
			}
		}
	})
	defer func() {
		close(stop)
		wg.Wait()
	}()

	r := rand.New(rand.NewPCG(21, 22))
	owner := dartScratch{share: &sh}
	var alone dartScratch
	docs := 0
	for ; docs < 3000 && (docs < 300 || helped.Load() == 0); docs++ {
		keys, wa, _ := weightedPair(r, 20+r.IntN(300), float64(docs%7), 0.5)
		lw := logWeights(wa)
		k := []int{16, 128, 500}[docs%3]
		want := alone.samplePacked(nil, keys, lw, k, uint64(docs))
		got := owner.samplePacked(nil, keys, lw, k, uint64(docs))
		require.Equal(t, want, got, "document %d (%d elements, k = %d)", docs, len(keys), k)
	}
	assert.Nil(t, sh.offered.Load(), "no round left on offer")
	if runtime.GOMAXPROCS(0) > 1 {
		assert.Positive(t, helped.Load(), "no round was helped in %d documents", docs)
	}
	t.Logf("%d of %d documents helped", helped.Load(), docs)
}

// TestSharedRoundLateHelper has a helper find a round whose chunks were
// all claimed (the elements of a real sampling, left in the sampler's
// scratch): it throws nothing, merges nothing and leaves active at 0.
func TestSharedRoundLateHelper(t *testing.T) {
	keys, wa, _ := weightedPair(rand.New(rand.NewPCG(23, 24)), 200, 3, 0.5)
	var owner dartScratch
	owner.samplePacked(nil, keys, logWeights(wa), 64, 1)
	merged := slices.Repeat([]uint64{packEmpty}, 64)
	late := &sharedRound{elems: owner.elems, merged: merged}
	late.next.Store(int32((len(owner.elems) + shareChunk - 1) / shareChunk))
	var hs dartScratch
	assert.False(t, late.help(&hs))
	assert.False(t, late.helped)
	assert.Zero(t, late.active.Load())
	assert.Equal(t, slices.Repeat([]uint64{packEmpty}, 64), merged)
}
