package textproc

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"
)

func TestIDF(t *testing.T) {
	idf := NewIDF(false)
	assert.Zero(t, idf.Weight("x"), "empty table")
	require.NoError(t, idf.AddDocument([]string{"a", "b", "a"}))
	require.NoError(t, idf.AddDocument([]string{"a", "c"}))
	require.NoError(t, idf.AddDocument([]string{"a"}))
	require.NoError(t, idf.AddDocument([]string{"d"}))
	assert.EqualValues(t, 4, idf.N())
	assert.EqualValues(t, 3, idf.DF("a"), "repeats within a document count once")
	assert.InDelta(t, math.Log(4.0/3), idf.Weight("a"), 1e-12)
	assert.InDelta(t, math.Log(4.0), idf.Weight("c"), 1e-12)
	assert.InDelta(t, math.Log(4.0), idf.Weight("unseen"), 1e-12, "unseen terms count as df = 1")
	require.NoError(t, idf.RemoveDocument([]string{"d"}))
	assert.EqualValues(t, 3, idf.N())
	assert.Zero(t, idf.DF("d"))

	idf.Freeze()
	assert.True(t, idf.Frozen())
	assert.ErrorIs(t, idf.AddDocument([]string{"z"}), ErrFrozen)

	smooth := NewIDF(true)
	require.NoError(t, smooth.AddDocument([]string{"a"}))
	assert.InDelta(t, math.Log(2), smooth.Weight("a"), 1e-12, "smoothed weight stays positive")
}

func TestIDFMarshal(t *testing.T) {
	idf := NewIDF(true)
	require.NoError(t, idf.AddDocument([]string{"ankara", "istanbul"}))
	require.NoError(t, idf.AddDocument([]string{"ankara", "izmir"}))
	idf.Freeze()
	b, err := idf.MarshalBinary()
	require.NoError(t, err)
	var got IDF
	require.NoError(t, got.UnmarshalBinary(b))
	assert.Equal(t, idf.N(), got.N())
	assert.True(t, got.Frozen())
	for _, w := range []string{"ankara", "istanbul", "izmir", "bursa"} {
		assert.Equal(t, idf.Weight(w), got.Weight(w), w)
	}
	b2, err := got.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, b, b2, "round trip is byte-exact")
	for i := range b {
		assert.Error(t, new(IDF).UnmarshalBinary(b[:i]), "truncated at %d", i)
	}
	assert.Error(t, new(IDF).UnmarshalBinary(append(b, 0)), "trailing byte")
}

func TestIDFConcurrent(t *testing.T) {
	idf := NewIDF(false)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				_ = idf.AddDocument([]string{"common", string(rune('a' + g)), string(rune('a' + i%26))})
				_ = idf.Weight("common")
			}
		}()
	}
	wg.Wait()
	assert.EqualValues(t, 1600, idf.N())
	assert.EqualValues(t, 1600, idf.DF("common"))
}

func TestBuildIDF(t *testing.T) {
	a, err := NewAnalyzer(FullConfig(language.English))
	require.NoError(t, err)
	idf := BuildIDF(a, []string{"The cats sat.", "A cat! The CATS.", "Dogs"}, false)
	assert.True(t, idf.Frozen())
	assert.Equal(t, int64(3), idf.N())
	assert.Equal(t, int64(2), idf.DF("cats"), "counted once per document, after the pipeline")
	assert.Equal(t, int64(0), idf.DF("the"), "stopwords removed by the analyzer")
	assert.ErrorIs(t, idf.AddDocument([]string{"x"}), ErrFrozen)
}

func ExampleBuildIDF() {
	a, _ := NewAnalyzer(FullConfig(language.Turkish))
	idf := BuildIDF(a, []string{"İstanbul'da yağmur", "Ankara'da kar", "İstanbul'a kar"}, false)
	fmt.Printf("%.3f %.3f\n", idf.Weight("istan"), idf.Weight("ankar"))
	// Output:
	// 0.405 1.099
}

// TestIDFWeightRacesUnmarshal reads weights while another goroutine
// replaces the table: under -race, every field Weight reads must be read
// under the lock.
func TestIDFWeightRacesUnmarshal(t *testing.T) {
	src := NewIDF(true)
	require.NoError(t, src.AddDocument([]string{"a", "b"}))
	b, err := src.MarshalBinary()
	require.NoError(t, err)
	var idf IDF
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for range 200 {
			_ = idf.UnmarshalBinary(b)
		}
	}()
	go func() {
		defer wg.Done()
		for range 200 {
			_ = idf.Weight("a")
		}
	}()
	wg.Wait()
	assert.InDelta(t, math.Log1p(1), idf.Weight("a"), 1e-12)
}

// TestIDFZeroValue: the zero IDF is an empty, unsmoothed, unfrozen table.
func TestIDFZeroValue(t *testing.T) {
	var idf IDF
	assert.Zero(t, idf.Weight("x"))
	require.NoError(t, idf.AddDocument([]string{"a", "b"}))
	require.NoError(t, idf.AddDocument([]string{"a"}))
	assert.EqualValues(t, 2, idf.N())
	assert.InDelta(t, math.Log(2), idf.Weight("b"), 1e-12)
	require.NoError(t, idf.RemoveDocument([]string{"a"}))
	var zero IDF
	require.NoError(t, zero.RemoveDocument([]string{"a"}), "removing from the zero table")
	b, err := zero.MarshalBinary()
	require.NoError(t, err)
	require.NoError(t, new(IDF).UnmarshalBinary(b))
	zero.Freeze()
	assert.ErrorIs(t, zero.AddDocument([]string{"x"}), ErrFrozen)
}

func TestIDFFingerprint(t *testing.T) {
	build := func(docs ...[]string) *IDF {
		idf := NewIDF(false)
		for _, d := range docs {
			require.NoError(t, idf.AddDocument(d))
		}
		return idf
	}
	a := build([]string{"a", "b"}, []string{"b"})
	// Same content, built in another order: same fingerprint.
	assert.Equal(t, a.Fingerprint(), build([]string{"b"}, []string{"b", "a"}).Fingerprint())
	for name, other := range map[string]*IDF{
		"another frequency": build([]string{"a", "b"}, []string{"a"}),
		"another N":         build([]string{"a", "b"}, []string{"b"}, []string{"c"}),
		"smoothed":          NewIDF(true),
		"empty":             NewIDF(false),
	} {
		assert.NotEqual(t, a.Fingerprint(), other.Fingerprint(), name)
	}
	frozen := build([]string{"a", "b"}, []string{"b"})
	frozen.Freeze()
	assert.NotEqual(t, a.Fingerprint(), frozen.Fingerprint(), "the frozen flag is part of the content")
	var zero IDF
	assert.Equal(t, NewIDF(false).Fingerprint(), zero.Fingerprint(), "a zero IDF is an empty table")
}
