package dedup

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzParseDoc: any line either decodes to one Doc or fails with an error;
// it never panics, and a blank line yields nothing.
func FuzzParseDoc(f *testing.F) {
	for _, s := range []string{`{"id":"a","text":"x y"}`, `{"id":1}`, ``, `{`, `[]`, `{"id":"a","text":"\u0000"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var got []Doc
		err := parseDoc(line, func(d Doc) { got = append(got, d) })
		if err != nil {
			require.Empty(t, got)
			return
		}
		require.LessOrEqual(t, len(got), 1)
		if line == "" {
			require.Empty(t, got)
		}
	})
}

// FuzzPairKey: the overlap stage decodes every key the posting stage
// writes, for any IDs without a NUL byte, and decides by the sizes.
func FuzzPairKey(f *testing.F) {
	f.Add("a", "b", 3, 5, 2)
	f.Add("reuters/1", "reuters/10", 1, 1, 1)
	f.Fuzz(func(t *testing.T, a, b string, na, nb, m int) {
		if checkID(a) != nil || checkID(b) != nil || a == b || na < 1 || nb < 1 || m < 1 || m > min(na, nb) {
			return
		}
		a, b = ordered(a, b)
		var got []Contained
		err := (&overlapFn{Threshold: 0.5, MinOverlap: 30}).ProcessElement(context.Background(), pairKey(posting{a, na}, posting{b, nb}), m,
			func(c Contained) { got = append(got, c) })
		require.NoError(t, err)
		for _, c := range got {
			require.True(t, c.Doc == a && c.Container == b || c.Doc == b && c.Container == a)
			require.GreaterOrEqual(t, c.Score, 0.5)
		}
		// The shingle detector's rule, written out: the share reaches the
		// threshold and C holds all of A, or they share at least 30
		// features (80% of the smaller set when it is short) and C is
		// not a part of A (90% of C in A while A is not 90% in C).
		want := 0
		for _, nc := range [][2]int{{na, nb}, {nb, na}} {
			n, c := float64(nc[0]), float64(nc[1])
			x := float64(m)
			evidence := x >= min(30, 0.8*min(n, c))-1e-9
			part := x >= 0.9*c && x < 0.9*n
			if x/n >= 0.5 && (x == n || evidence && !part) {
				want++
			}
		}
		require.Len(t, got, want)
	})
}

// FuzzIDFBinary: encodeIDF's output always decodes, to the given counts.
func FuzzIDFBinary(f *testing.F) {
	f.Add("alpha beta", int64(3), true)
	f.Fuzz(func(t *testing.T, words string, n int64, smooth bool) {
		if n < 0 || n > 1<<40 {
			return
		}
		df := map[string]int64{}
		for _, w := range strings.Fields(words) {
			df[w] = min(df[w]+1, n)
		}
		b, err := encodeIDF(n, df, smooth, true)
		require.NoError(t, err)
		idf, err := DecodeIDF(b)
		require.NoError(t, err)
		require.Equal(t, n, idf.N())
		require.True(t, idf.Frozen())
		for w, c := range df {
			require.Equal(t, c, idf.DF(w))
		}
	})
}
