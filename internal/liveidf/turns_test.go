package liveidf

import (
	"errors"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/docset"
)

func TestTurns(t *testing.T) {
	var mu sync.Mutex
	docs := docset.New("x", 0)
	tr := NewTurns("x", false, &mu)
	doc := detector.Doc{ID: "a", Text: "t"}
	tk, err := tr.Enter(doc, docs, []string{"alpha", "beta"})
	require.NoError(t, err)
	assert.Equal(t, int64(1), tr.IDF().N(), "counted in its turn")
	tr.Leave()
	_, err = tr.Enter(doc, docs, []string{"alpha"})
	require.ErrorIs(t, err, detector.ErrDuplicateID, "an ID counted but not yet inserted is pending")
	assert.Equal(t, int64(1), tr.Table().IDF().N(), "a refused Add counts nothing")
	_, err = tr.Insert(tk, func(h int32) ([]detector.Match, error) {
		mu.Lock()
		defer mu.Unlock()
		tr.Settle(doc.ID)
		_, err := docs.Add(doc)
		return nil, err
	})
	require.NoError(t, err)
	_, err = tr.Enter(doc, docs, []string{"alpha"})
	require.ErrorIs(t, err, detector.ErrDuplicateID, "an inserted ID is refused by the docset")

	tk, err = tr.Enter(detector.Doc{ID: "b"}, docs, []string{"alpha"})
	require.NoError(t, err)
	tr.Leave()
	assert.Equal(t, int64(2), tr.IDF().DF("alpha"))
	_, err = tr.Insert(tk, func(int32) ([]detector.Match, error) { return nil, errors.New("closed") })
	require.Error(t, err)
	assert.Equal(t, int64(1), tr.IDF().DF("alpha"), "a failed insert uncounts its document")

	h := tk.h
	require.NoError(t, tr.Remove(func() (int32, error) { return 0, nil }))
	assert.Zero(t, tr.IDF().N(), "Remove uncounts the handle remove returns")
	require.Error(t, tr.Remove(func() (int32, error) { return h, errors.New("unknown") }))
	var nilTurns *Turns
	nilTurns.Settle("a") // a detector without its own table
}

// TestTurnsDo checks that Do runs after the insert of an earlier turn,
// and that EnterPacked keeps the packed string it is given.
func TestTurnsDo(t *testing.T) {
	var mu sync.Mutex
	docs := docset.New("x", 0)
	tr := NewTurns("x", false, &mu)
	terms := []string{"alpha", "beta"}
	packed := Pack(terms)
	tk, err := tr.EnterPacked(detector.Doc{ID: "a"}, docs, terms, packed)
	require.NoError(t, err)
	tr.Leave()
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
