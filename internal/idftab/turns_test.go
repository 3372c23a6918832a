package idftab

import (
	"errors"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/engine"
)

func TestTurns(t *testing.T) {
	var mu sync.RWMutex
	docs := engine.NewSet("x", 0)
	tr := NewTurns("x", false, &mu)
	doc := detector.Doc{ID: "a", Text: "t"}
	terms := []string{"alpha", "beta"}
	tk, df, err := tr.Enter(doc, docs, Terms{Terms: terms}, Pack(terms), nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{1, 1}, df, "the frequencies after the count")
	assert.Equal(t, int64(1), tk.N)
	assert.Equal(t, int64(1), tr.Table().N(), "counted in its turn")
	_, _, err = tr.Enter(doc, docs, Terms{Terms: []string{"alpha"}}, Pack([]string{"alpha"}), nil)
	require.ErrorIs(t, err, detector.ErrDuplicateID, "an ID counted but not yet inserted is pending")
	assert.Equal(t, int64(1), tr.Table().N(), "a refused Add counts nothing")
	_, err = tr.Insert(tk, func(h int32) ([]detector.Match, error) {
		mu.Lock()
		defer mu.Unlock()
		tr.Settle(doc.ID)
		_, err := docs.Add(doc)
		return nil, err
	})
	require.NoError(t, err)
	_, _, err = tr.Enter(doc, docs, Terms{Terms: []string{"alpha"}}, Pack([]string{"alpha"}), nil)
	require.ErrorIs(t, err, detector.ErrDuplicateID, "an inserted ID is refused by the docset")
	tk, df, err = tr.Enter(detector.Doc{ID: "b"}, docs, Terms{Terms: []string{"alpha"}}, Pack([]string{"alpha"}), nil)
	require.NoError(t, err)
	assert.Equal(t, []int64{2}, df)
	assert.Equal(t, int64(2), tk.N)
	assert.Equal(t, int64(2), tr.IDFOr(nil).DF("alpha"))
	_, err = tr.Insert(tk, func(int32) ([]detector.Match, error) { return nil, errors.New("closed") })
	require.Error(t, err)
	assert.Equal(t, int64(1), tr.IDFOr(nil).DF("alpha"), "a failed insert uncounts its document")
	h := tk.h
	require.NoError(t, tr.Remove(func() (int32, error) { return 0, nil }))
	assert.Zero(t, tr.IDFOr(nil).N(), "Remove uncounts the handle remove returns")
	require.Error(t, tr.Remove(func() (int32, error) { return h, errors.New("unknown") }))
	var nilTurns *Turns
	nilTurns.Settle("a") // a detector without its own table
	assert.Nil(t, nilTurns.IDFOr(nil))
}

// TestOnCounted checks that the hook runs in the turn, after the count:
// another Enter waits for it, a reader of the table does not.
func TestOnCounted(t *testing.T) {
	var mu sync.RWMutex
	docs := engine.NewSet("x", 0)
	tr := NewTurns("x", false, &mu)
	release := make(chan struct{})
	entered := make(chan struct{})
	tr.OnCounted = func() {
		tr.OnCounted = nil // the second Enter runs no hook
		close(entered)
		<-release
	}
	go func() {
		_, _, err := tr.Enter(detector.Doc{ID: "a"}, docs, Terms{Terms: []string{"x"}}, Pack([]string{"x"}), nil)
		assert.NoError(t, err)
	}()
	<-entered
	assert.Equal(t, int64(1), tr.Table().N(), "a reader does not wait for the turn")
	second := make(chan struct{})
	go func() {
		_, _, err := tr.Enter(detector.Doc{ID: "b"}, docs, Terms{Terms: []string{"x"}}, Pack([]string{"x"}), nil)
		assert.NoError(t, err)
		close(second)
	}()
	select {
	case <-second:
		t.Fatal("a second Enter ran during the first's turn")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	<-second
	assert.Equal(t, int64(2), tr.Table().N())
}

// TestTurnsDo checks that Do runs after the insert of an earlier turn,
// and that Enter keeps the packed string it is given.
func TestTurnsDo(t *testing.T) {
	var mu sync.RWMutex
	docs := engine.NewSet("x", 0)
	tr := NewTurns("x", false, &mu)
	terms := []string{"alpha", "beta"}
	packed := Pack(terms)
	tk, _, err := tr.Enter(detector.Doc{ID: "a"}, docs, Terms{Terms: terms}, packed, nil)
	require.NoError(t, err)
	assert.Same(t, unsafe.StringData(packed), unsafe.StringData(tr.Table().docs[tk.h]), "the table keeps the caller's string")

	inserted := make(chan struct{})
	done := make(chan bool)
	go func() {
		var sawInsert bool
		_ = tr.Do(func() error {
			select {
			case <-inserted:
				sawInsert = true
			default:
			}
			return nil
		})
		done <- sawInsert
	}()
	_, err = tr.Insert(tk, func(int32) ([]detector.Match, error) {
		time.Sleep(20 * time.Millisecond) // a Do that did not wait would run now
		close(inserted)
		return nil, nil
	})
	require.NoError(t, err)
	assert.True(t, <-done, "Do ran before the earlier turn's insert")
	want := errors.New("fn's error")
	assert.Equal(t, want, tr.Do(func() error { return want }))
}
