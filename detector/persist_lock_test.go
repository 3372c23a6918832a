package detector_test

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

// gate is a writer whose first Write blocks until it is released, as a
// stalled disk or network peer does.
type gate struct {
	entered, release chan struct{}
	once             sync.Once
	buf              bytes.Buffer
}

func newGate() *gate { return &gate{entered: make(chan struct{}), release: make(chan struct{})} }

func (g *gate) Write(p []byte) (int, error) {
	g.once.Do(func() {
		close(g.entered)
		<-g.release
	})
	return g.buf.Write(p)
}

// A combinator's WriteTo captures its state and writes it without holding
// its lock: an Add and a Remove complete while the caller's writer is
// blocked, and the snapshot holds the state from before them.
func TestWriteToDoesNotBlockAddsOnTheWriter(t *testing.T) {
	for _, p := range persistent {
		t.Run(p.name, func(t *testing.T) {
			d := p.build(t)
			defer d.Close()
			fill(t, d)
			before := d.(interface{ Len() int }).Len()
			g := newGate()
			wrote := make(chan error, 1)
			go func() {
				_, err := d.(detector.Persister).WriteTo(g)
				wrote <- err
			}()
			select {
			case <-g.entered:
			case err := <-wrote:
				t.Fatalf("WriteTo returned before writing: %v", err)
			}
			done := make(chan error, 1)
			go func() {
				if _, err := d.Add(detector.Doc{ID: "late", Text: unique("late")}); err != nil {
					done <- err
					return
				}
				done <- d.(detector.Remover).Remove("copy")
			}()
			select {
			case err := <-done:
				require.NoError(t, err)
			case <-time.After(10 * time.Second):
				close(g.release)
				t.Fatal("Add and Remove waited for the caller's writer")
			}
			close(g.release)
			require.NoError(t, <-wrote)
			r := p.build(t)
			defer r.Close()
			_, err := r.(detector.Persister).ReadFrom(bytes.NewReader(g.buf.Bytes()))
			require.NoError(t, err)
			assert.Equal(t, before, r.(interface{ Len() int }).Len(), "the snapshot is the state before the Add")
			_, err = r.Containers("copy")
			assert.NoError(t, err, "the snapshot is the state before the Remove")
			_, err = r.Containers("late")
			assert.ErrorIs(t, err, detector.ErrUnknownID)
		})
	}
}

// The same holds for a combinator nested in another.
func TestWriteToNestedDoesNotBlock(t *testing.T) {
	d := vote(t, 1, window(t, naive.New(naive.Config{}), detector.WindowConfig{Size: 9}), cascade(t, naive.New(naive.Config{Threshold: 0.2})))
	defer d.Close()
	fill(t, d)
	g := newGate()
	wrote := make(chan error, 1)
	go func() {
		_, err := d.(detector.Persister).WriteTo(g)
		wrote <- err
	}()
	<-g.entered
	done := make(chan error, 1)
	go func() {
		_, err := d.Add(detector.Doc{ID: "late", Text: unique("late")})
		done <- err
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		close(g.release)
		t.Fatal("Add waited for the caller's writer")
	}
	close(g.release)
	require.NoError(t, <-wrote)
}
