package detector_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

// stalling delivers its bytes a few at a time; after stall bytes it
// calls at (if set), then, if block, blocks until release is closed.
type stalling struct {
	b       []byte
	n       int
	stall   int
	at      func()
	block   bool
	blocked chan struct{} // closed when it blocks
	release chan struct{}
}

func newStalling(b []byte, stall int, block bool) *stalling {
	return &stalling{b: b, stall: stall, block: block, blocked: make(chan struct{}), release: make(chan struct{})}
}

func (s *stalling) Read(p []byte) (int, error) {
	if s.n == s.stall {
		if s.at != nil {
			s.at()
			s.at = nil
		}
		if s.block {
			close(s.blocked)
			<-s.release
			return 0, errors.New("released")
		}
	}
	if s.n == len(s.b) {
		return 0, io.EOF
	}
	end := len(s.b)
	if s.n < s.stall {
		end = s.stall
	}
	k := copy(p[:min(len(p), 7)], s.b[s.n:end])
	s.n += k
	return k, nil
}

// within fails the test if f does not return within a generous time.
func within[T any](t *testing.T, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(30 * time.Second):
		t.Fatal("did not return after the context was cancelled")
		panic("unreachable")
	}
}

func snapshotOf(t *testing.T, n int) (*naive.Detector, []byte, detector.SnapshotID) {
	t.Helper()
	d := naive.New(naive.Config{})
	for _, doc := range testDocs(n) {
		_, err := d.Add(doc)
		require.NoError(t, err)
	}
	var buf bytes.Buffer
	id, _, err := detector.WriteSnapshot(d, &buf)
	require.NoError(t, err)
	return d, buf.Bytes(), id
}

type loaded struct {
	id  detector.SnapshotID
	n   int64
	err error
}

func TestReadSnapshotContext(t *testing.T) {
	orig, snap, id := snapshotOf(t, 40)
	require.Greater(t, len(snap), 200)

	t.Run("whole", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		d := naive.New(naive.Config{})
		got, n, err := detector.ReadSnapshot(ctx, d, newStalling(snap, len(snap), false))
		require.NoError(t, err)
		assert.Equal(t, id, got)
		assert.Equal(t, int64(len(snap)), n)
		sameAnswers(t, orig, d, testDocs(40))
	})
	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		d := naive.New(naive.Config{})
		_, _, err := detector.ReadSnapshot(ctx, d, bytes.NewReader(snap))
		require.ErrorIs(t, err, context.Canceled)
		assert.Zero(t, d.Len())
	})
	t.Run("cancelled while reading", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		d := naive.New(naive.Config{})
		r := newStalling(snap, len(snap)/2, false)
		r.at = cancel // the bytes keep coming, slowly
		_, _, err := detector.ReadSnapshot(ctx, d, r)
		require.ErrorIs(t, err, context.Canceled)
		require.ErrorIs(t, err, detector.ErrSnapshot)
		assert.Zero(t, d.Len())
	})
	t.Run("a Read that blocks", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		d := naive.New(naive.Config{})
		r := newStalling(snap, len(snap)/2, true)
		defer close(r.release)
		go func() {
			<-r.blocked
			cancel()
		}()
		res := within(t, func() loaded {
			id, n, err := detector.ReadSnapshot(ctx, d, r)
			return loaded{id, n, err}
		})
		require.ErrorIs(t, res.err, context.Canceled)
		require.ErrorIs(t, res.err, detector.ErrSnapshot)
		assert.Zero(t, d.Len())
		// The detector is usable: the snapshot loads afterwards.
		got, _, err := detector.ReadSnapshot(context.Background(), d, bytes.NewReader(snap))
		require.NoError(t, err)
		assert.Equal(t, id, got)
	})
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
		defer cancel()
		d := naive.New(naive.Config{})
		r := newStalling(snap, 10, true)
		defer close(r.release)
		res := within(t, func() loaded {
			id, n, err := detector.ReadSnapshot(ctx, d, r)
			return loaded{id, n, err}
		})
		require.ErrorIs(t, res.err, context.DeadlineExceeded)
		assert.Zero(t, d.Len())
	})
}

func TestReplayContext(t *testing.T) {
	data, ends := journalAt(t, 9, ops)

	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var l log
		st, err := detector.ReplayContext(ctx, bytes.NewReader(data), &l, 9)
		require.ErrorIs(t, err, context.Canceled)
		assert.Empty(t, l.ops)
		assert.Zero(t, st.Offset)
	})
	t.Run("cancelled between records", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		l := &cancelling{after: 3, cancel: cancel}
		st, err := detector.ReplayContext(ctx, bytes.NewReader(data), l, 9)
		require.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, ops[:3], l.ops, "it stops before the next record")
		assert.Equal(t, int64(ends[3]), st.Offset)
	})
	t.Run("a Read that blocks", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		r := newStalling(data, ends[4]+5, true)
		defer close(r.release)
		go func() {
			<-r.blocked
			cancel()
		}()
		var l log
		type replayed struct {
			st  detector.Replayed
			err error
		}
		res := within(t, func() replayed {
			st, err := detector.ReplayContext(ctx, r, &l, 9)
			return replayed{st, err}
		})
		require.ErrorIs(t, res.err, context.Canceled)
		assert.Equal(t, ops[:4], l.ops)
		assert.Equal(t, int64(ends[4]), res.st.Offset)
		assert.Zero(t, res.st.Torn, "a stopped replay is not a torn tail")
	})
	t.Run("slow and whole", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var l log
		st, err := detector.ReplayContext(ctx, newStalling(data, len(data), false), &l, 9)
		require.NoError(t, err)
		assert.Equal(t, ops, l.ops)
		assert.Equal(t, int64(len(data)), st.Offset)
	})
}

// cancelling is a log that cancels after a number of operations.
type cancelling struct {
	log
	after  int
	cancel func()
}

func (c *cancelling) Add(d detector.Doc) ([]detector.Match, error) {
	ms, err := c.log.Add(d)
	if len(c.ops) == c.after {
		c.cancel()
	}
	return ms, err
}

func (c *cancelling) Remove(id string) error {
	err := c.log.Remove(id)
	if len(c.ops) == c.after {
		c.cancel()
	}
	return err
}
