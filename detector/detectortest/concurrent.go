package detectortest

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
)

const workers = 8

// sameIDTrials is how often SameID races its goroutines. A detector that
// loses the winner in one race of 20 (a rate measured on a combinator
// whose losing Adds deleted the winner's state) fails it with probability
// 1 - 0.95^200 > 0.99997.
const sameIDTrials = 200

// collector gathers failures from goroutines, which must not call t.Fatal.
type collector struct {
	mu   sync.Mutex
	errs []string
}

func (c *collector) errorf(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.errs) < 20 {
		c.errs = append(c.errs, fmt.Sprintf(format, args...))
	}
}

// recover turns a panic of the calling goroutine into a failure.
func (c *collector) recover(who string) {
	if r := recover(); r != nil {
		c.errorf("%s panicked: %v\n%s", who, r, debug.Stack())
	}
}

func (c *collector) report(t *testing.T) {
	t.Helper()
	for _, e := range c.errs {
		t.Error(e)
	}
}

// concurrent adds copies of every article from 8 goroutines while they read
// Containers and add and remove a temporary copy, then checks that each
// copy's containers are exactly the other goroutines' copies.
func (s suite) concurrent(t *testing.T) {
	d := s.fresh(t)
	r := s.remover(d)
	var c collector
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			defer c.recover(fmt.Sprintf("goroutine %d", g))
			for k, text := range articles {
				id := fmt.Sprintf("g%d-a%d", g, k)
				if _, err := d.Add(detector.Doc{ID: id, Text: text}); err != nil {
					c.errorf("Add(%q): %v", id, err)
					return
				}
				if _, err := d.Containers(id); err != nil {
					c.errorf("Containers(%q): %v", id, err)
					return
				}
				if k > 0 {
					prev := fmt.Sprintf("g%d-a%d", g, k-1)
					if _, err := d.Containers(prev); err != nil {
						c.errorf("Containers(%q): %v", prev, err)
						return
					}
				}
				if r == nil {
					continue
				}
				tmp := fmt.Sprintf("g%d-t%d", g, k)
				if _, err := d.Add(detector.Doc{ID: tmp, Text: text}); err != nil {
					c.errorf("Add(%q): %v", tmp, err)
					return
				}
				if err := r.Remove(tmp); err != nil {
					c.errorf("Remove(%q): %v", tmp, err)
					return
				}
			}
		})
	}
	wg.Wait()
	c.report(t)
	for g := range workers {
		for k := range articles {
			id := fmt.Sprintf("g%d-a%d", g, k)
			var want []string
			for h := range workers {
				if h != g {
					want = append(want, fmt.Sprintf("g%d-a%d", h, k))
				}
			}
			got, err := d.Containers(id)
			if err != nil {
				t.Errorf("Containers(%q) after concurrent adds: %v", id, err)
				continue
			}
			wantIDs(t, fmt.Sprintf("Containers(%q) after concurrent adds", id), got, want...)
		}
	}
}

// closeRounds is how often ConcurrentClose races Close with the other
// calls, each time on a fresh detector: a call caught mid-way by Close is
// rare in one round on a machine with few cores.
const closeRounds = 20

// concurrentClose runs Add, Containers and Remove from 8 goroutines while
// two more close the detector. Before Close every call succeeds or fails
// with ErrClosed (it raced Close); once Close has returned, every call
// fails with ErrClosed.
func (s suite) concurrentClose(t *testing.T) {
	for range closeRounds {
		s.closeRound(t)
		if t.Failed() {
			return
		}
	}
}

func (s suite) closeRound(t *testing.T) {
	d := s.fresh(t)
	r := s.remover(d)
	var (
		c        collector
		wg       sync.WaitGroup
		closed   atomic.Bool           // set once a Close has returned
		closedCh = make(chan struct{}) // closed then too
		calls    atomic.Int64          // calls made so far, to close mid-stream
	)
	// check reports err of call unless it is nil before Close or wraps
	// ErrClosed; after tells whether the call started after Close
	// returned. It reports whether err wraps ErrClosed.
	check := func(call string, after bool, err error) bool {
		calls.Add(1)
		switch {
		case after && !errors.Is(err, detector.ErrClosed):
			c.errorf("%s after Close returned: error %v, want one wrapping %q", call, err, detector.ErrClosed)
		case err != nil && !errors.Is(err, detector.ErrClosed):
			c.errorf("%s racing Close: %v", call, err)
		}
		return errors.Is(err, detector.ErrClosed)
	}
	for g := range workers {
		wg.Go(func() {
			defer c.recover(fmt.Sprintf("goroutine %d", g))
			sawClosed := false
			for i := 0; i < 1000; i++ {
				after := closed.Load()
				id := fmt.Sprintf("g%d-%d", g, i)
				_, err := d.Add(detector.Doc{ID: id, Text: articles[(g+i)%len(articles)]})
				sawClosed = check(fmt.Sprintf("Add(%q)", id), after, err) || sawClosed
				added := err == nil

				after = closed.Load()
				_, err = d.Containers(id)
				if !added && errors.Is(err, detector.ErrUnknownID) {
					err = nil // its Add failed (racing Close)
				}
				sawClosed = check(fmt.Sprintf("Containers(%q)", id), after, err) || sawClosed

				if r != nil && added && i%2 == 1 {
					after = closed.Load()
					sawClosed = check(fmt.Sprintf("Remove(%q)", id), after, r.Remove(id)) || sawClosed
				}
				if after {
					return // a round of calls that all started after Close
				}
				if sawClosed {
					<-closedCh
				}
			}
		})
	}
	for calls.Load() < 3*workers {
		runtime.Gosched()
	}
	var closers sync.WaitGroup
	for i := range 2 {
		closers.Go(func() {
			defer c.recover(fmt.Sprintf("Close %d", i))
			if err := d.Close(); err != nil {
				c.errorf("Close racing Add, Containers and Remove: %v", err)
			}
		})
	}
	closers.Wait()
	closed.Store(true)
	close(closedCh)
	wg.Wait()
	c.report(t)
	_, err := d.Add(detector.Doc{ID: "late", Text: articles[0]})
	wantErr(t, "Add after Close", err, detector.ErrClosed)
	_, err = d.Containers("g0-0")
	wantErr(t, "Containers after Close", err, detector.ErrClosed)
	if r != nil {
		wantErr(t, "Remove after Close", r.Remove("g0-0"), detector.ErrClosed)
	}
}

// sameID races goroutines that Add the same new ID, each with a different
// article: exactly one succeeds, the others fail with ErrDuplicateID, and
// the winner is fully indexed (an exact copy of its text finds it, both
// ways) while nothing of a loser is (a copy of a loser's text does not
// find the ID).
func (s suite) sameID(t *testing.T) {
	n := len(articles)
	var d detector.Detector
	var r detector.Remover
	for trial := range sameIDTrials {
		if r == nil { // without Remove, a fresh detector per trial
			d = s.fresh(t)
			r = s.remover(d)
		}
		id := fmt.Sprintf("same%d", trial)
		errs := make([]error, n)
		var c collector
		var wg sync.WaitGroup
		start := make(chan struct{})
		for g := range n {
			wg.Go(func() {
				defer c.recover(fmt.Sprintf("goroutine %d", g))
				<-start
				_, errs[g] = d.Add(detector.Doc{ID: id, Text: articles[(trial+g)%n]})
			})
		}
		close(start)
		wg.Wait()
		c.report(t)
		winner := -1
		for g, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("trial %d: %d goroutines Add(%q) at once: two succeeded", trial, n, id)
			case err == nil:
				winner = g
			case !errors.Is(err, detector.ErrDuplicateID):
				t.Errorf("trial %d: a losing Add(%q): error %v, want one wrapping %q", trial, id, err, detector.ErrDuplicateID)
			}
		}
		if winner < 0 {
			t.Fatalf("trial %d: %d goroutines Add(%q) at once: none succeeded", trial, n, id)
		}
		winText, loseText := articles[(trial+winner)%n], articles[(trial+winner+1)%n]
		copyID, otherID := fmt.Sprintf("copy%d", trial), fmt.Sprintf("other%d", trial)
		if ms := add(t, d, copyID, winText); !has(ms, id) {
			t.Fatalf("trial %d: Add(%q), an exact copy of the winning Add(%q), = %v: the winner was lost", trial, copyID, id, ms)
		}
		if ms := containers(t, d, id); !has(ms, copyID) {
			t.Fatalf("trial %d: Containers(%q) = %v lacks its exact copy %q", trial, id, ms, copyID)
		}
		if ms := add(t, d, otherID, loseText); has(ms, id) {
			t.Fatalf("trial %d: Add(%q), a copy of a losing Add's text, = %v finds %q", trial, otherID, ms, id)
		}
		if r == nil {
			_ = d.Close()
			continue
		}
		for _, x := range []string{id, copyID, otherID} {
			if err := r.Remove(x); err != nil {
				t.Fatalf("trial %d: Remove(%q): %v", trial, x, err)
			}
		}
	}
}
