package scratch

import (
	"errors"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

func TestPool(t *testing.T) {
	made, tidied := 0, 0
	p := Pool[*int]{
		New:  func() (*int, error) { made++; v := made; return &v, nil },
		Tidy: func(*int) { tidied++ },
	}
	a, err := p.Get()
	require.NoError(t, err)
	p.Put(a)
	b, err := p.Get()
	require.NoError(t, err)
	assert.Same(t, a, b, "an idle worker is reused")
	assert.Equal(t, 1, made)
	assert.Equal(t, 1, tidied)
	var ws []*int
	for range runtime.GOMAXPROCS(0) + 3 {
		w, err := p.Get()
		require.NoError(t, err)
		ws = append(ws, w)
	}
	for _, w := range ws {
		p.Put(w)
	}
	assert.Len(t, p.Idle(), runtime.GOMAXPROCS(0), "at most GOMAXPROCS idle workers")
	p.Close()
	assert.Empty(t, p.Idle())
	p.Put(b)
	assert.Empty(t, p.Idle(), "a closed Pool keeps nothing")

	bad := Pool[*int]{New: func() (*int, error) { return nil, errors.New("no") }}
	_, err = bad.Get()
	assert.Error(t, err)
}

func TestVocab(t *testing.T) {
	an, err := textproc.NewAnalyzer(textproc.Config{})
	require.NoError(t, err)
	v := NewVocab(4)
	v.Grow(3)
	v.Begin(3)
	assert.True(t, v.First(0))
	assert.False(t, v.First(0), "a second occurrence in one document")
	assert.True(t, v.First(1))
	v.Begin(2)
	assert.True(t, v.First(0), "a new document")
	assert.True(t, v.First(2))
	assert.False(t, v.Big(4))
	assert.True(t, v.Big(5))
	old := an
	assert.False(t, v.Renew(&an, textproc.Config{}, 4, false), "5 tokens, an empty analyzer: within the limit")
	assert.Same(t, old, an)
	require.True(t, v.Renew(&an, textproc.Config{}, 4, true), "a big document starts afresh")
	assert.NotSame(t, old, an)
	assert.Zero(t, v.Bytes(), "the per-term counts are dropped")
	assert.Equal(t, 4, v.limit, "one term recurred: the floor wins")

	v = NewVocab(1)
	v.Grow(3)
	for range 6 {
		v.Begin(3)
		for id := range uint32(3) {
			v.First(id)
		}
	}
	require.True(t, v.Renew(&an, textproc.Config{}, 1, false), "18 tokens: over 16 times the limit of 1")
	assert.Equal(t, 6, v.limit, "three recurring terms: a limit of 6")
}
