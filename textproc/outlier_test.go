package textproc

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// heapAlloc returns the live heap after a full collection.
func heapAlloc() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// hostileSize is the number of distinct tokens of the hostile document:
// 400,000 (about 6 MB of text), 1.4 million with NEARDUP_LONG, 200,000
// under the race detector.
func hostileSize() int {
	switch {
	case raceEnabled || testing.Short():
		return 200_000
	case dataset.LongEnabled():
		return 1_400_000
	}
	return 400_000
}

// hostileText returns n distinct tokens, in lines of 10 tokens with a
// blank line after every line and a full stop after every token: every
// buffer of the pipeline (tokens, sentences, content blocks, the
// vocabulary) grows with it.
func hostileText(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("Token")
		b.WriteString(strconv.Itoa(10_000_000 + i)[1:])
		b.WriteString(". ")
		if i%10 == 9 {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

const normalText = "Copper prices rose sharply on Monday. The company said output fell by 3.5 percent.\n\n" +
	"Analysts expect the market to recover next year, according to a Reuters poll of traders."

// TestAnalyzerScratchAfterOutlier: after one huge document, an ordinary
// one leaves the Analyzer holding its vocabulary and nothing of the huge
// document's scratch; Reset gives the vocabulary back too.
func TestAnalyzerScratchAfterOutlier(t *testing.T) {
	n := hostileSize()
	text := hostileText(n)
	for _, cfg := range []Config{{Language: language.English}, FullConfig(language.English), {Language: language.English, Content: ContentMain}} {
		a, err := NewAnalyzer(cfg)
		require.NoError(t, err)
		a.Analyze(normalText)
		base := heapAlloc()
		a.Analyze(text)
		a.Analyze(normalText)
		kept := heapAlloc() - base
		t.Logf("%+v: %.1f MB of text, %d distinct tokens: %.1f MB kept, vocabulary %d terms",
			cfg, float64(len(text))/(1<<20), n, float64(kept)/(1<<20), a.VocabularySize())
		// What the vocabulary must hold: its terms, the map of them, and
		// the bounded cache of surface forms.
		vocab := int64(a.VocabularySize())*200 + maxSurface*80
		assert.Less(t, kept, vocab, "%+v: heap kept after the outlier, vocabulary of %d terms", cfg, a.VocabularySize())
		a.Reset()
		a.Analyze(normalText)
		kept = heapAlloc() - base
		assert.Less(t, kept, int64(4<<20), "%+v: heap kept after Reset", cfg)
		t.Logf("after Reset: %.1f MB kept", float64(kept)/(1<<20))
		runtime.KeepAlive(a)
	}
}

// TestScratchAfterOutlier: the buffers of the Analyzer, content filter
// and Folder that a huge text with few distinct words grows (tokens,
// sentences, blocks, a huge word) are not kept.
func TestScratchAfterOutlier(t *testing.T) {
	many := strings.Repeat("a b. c\n\n", 1<<19)          // 4 MB: 1.5M tokens, 0.5M sentences and blocks
	word := strings.Repeat("É", 1<<20) + " " + "x\n\nyz" // one 2 MB word, not ASCII
	a, err := NewAnalyzer(Config{Language: language.English, Content: ContentMain})
	require.NoError(t, err)
	f := NewContentFilter(language.English)
	fold := NewFolder(language.Turkish)
	a.Analyze(normalText)
	f.Text(normalText)
	base := heapAlloc()
	for _, text := range []string{many, word} {
		a.Analyze(text)
		a.Tokens(text)
		f.Text(text)
		a.Analyze(normalText)
		f.Text(normalText)
	}
	_ = fold.Fold(word)
	kept := heapAlloc() - base
	assert.Less(t, kept, int64(4<<20), "heap kept after huge texts")
	runtime.KeepAlive(a)
	runtime.KeepAlive(f)
}

// TestIDFGivesMemoryBack: a document of many distinct terms, added and
// removed, leaves an online table as small as before.
func TestIDFGivesMemoryBack(t *testing.T) {
	terms := make([]string, 300_000)
	for i := range terms {
		terms[i] = "tok" + strconv.Itoa(i)
	}
	idf := NewIDF(false)
	require.NoError(t, idf.AddDocument([]string{"a", "b"}))
	base := heapAlloc()
	require.NoError(t, idf.AddDocument(terms))
	grown := heapAlloc() - base
	require.NoError(t, idf.RemoveDocument(terms))
	require.NoError(t, idf.AddDocument([]string{"a", "c"}))
	kept := heapAlloc() - base
	assert.Less(t, kept, int64(1<<20), "heap kept after the document was removed (%d bytes while it was counted)", grown)
	assert.EqualValues(t, 2, idf.N())
	assert.EqualValues(t, 2, idf.DF("a"))
	assert.Zero(t, idf.DF("tok1"))
	t.Logf("%d distinct terms: %.1f bytes per term while counted (keys included), %d bytes kept after removal",
		len(terms), float64(grown)/float64(len(terms)), kept)
	runtime.KeepAlive(terms)
}

// TestIDFCopiesTerms: the table never keeps a reference into the caller's
// text (a term that is a substring of a huge document would keep all of
// it alive).
func TestIDFCopiesTerms(t *testing.T) {
	text := strings.Repeat("x", 1<<16)
	var idf IDF
	require.NoError(t, idf.AddDocument([]string{text[:3], text[5:9]}))
	fromCounts, err := NewIDFFromCounts(1, map[string]int64{text[:2]: 1}, false)
	require.NoError(t, err)
	for _, tb := range []*IDF{&idf, fromCounts} {
		for k := range tb.df {
			p := uintptr(unsafe.Pointer(unsafe.StringData(k)))
			start := uintptr(unsafe.Pointer(unsafe.StringData(text)))
			assert.False(t, p >= start && p < start+uintptr(len(text)), "key %q points into the text", k)
		}
	}
}
