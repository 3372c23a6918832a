package textproc

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/zeebo/xxh3"
)

// TestContentSweep reruns the measurement the content filter's thresholds
// were chosen by (NEARDUP_LONG=1 go test ./textproc -run TestContentSweep
// -v): exact word 5-shingle Jaccard over all pairs of Gold Set dev, the best
// pair F1 and the F1 at fixed thresholds, with pages read whole, filtered
// by the English thresholds and by the language-neutral rule; then the
// share of each clean collection's bytes the filter keeps.
func TestContentSweep(t *testing.T) {
	dataset.SkipLong(t)
	gold := dataset.ForTest(t, "goldset-dev.jsonl")
	for _, c := range []struct {
		name string
		f    *ContentFilter
	}{{"whole pages", nil}, {"filter, English", NewContentFilter(language.English)}, {"filter, neutral", NewContentFilter(language.Und)}} {
		best, at, fixed := goldJaccardF1(gold, c.f)
		t.Logf("%-16s best F1 %.3f at J=%.3f; F1 at J=0.1 %.3f, 0.2 %.3f, 0.3 %.3f, 0.4 %.3f, 0.5 %.3f",
			c.name, best, at, fixed[0], fixed[1], fixed[2], fixed[3], fixed[4])
	}
	for _, c := range []struct {
		file string
		lang language.Tag
	}{{"reuters21578.jsonl", language.English}, {"bbc.jsonl", language.English},
		{"ttc3600.jsonl", language.Turkish}, {"clough-stevenson.jsonl", language.English}, {"goldset-dev.jsonl", language.English}} {
		recs := dataset.ForTest(t, c.file)
		f := NewContentFilter(c.lang)
		kept, total := 0, 0
		var spans []Span
		for _, r := range recs {
			spans = f.Spans(spans[:0], r.Text)
			for _, s := range spans {
				kept += s.End - s.Start
			}
			total += len(r.Text)
		}
		t.Logf("%-24s keeps %.3f of its bytes", c.file, float64(kept)/float64(total))
	}
}

// goldJaccardF1 returns the best pair F1 of exact word 5-shingle Jaccard
// over all pairs of recs (clusters as truth), the Jaccard it is reached at,
// and the F1 at Jaccard 0.1, 0.2, 0.3, 0.4 and 0.5, reading each text
// through f (whole when f is nil).
func goldJaccardF1(recs []dataset.Record, f *ContentFilter) (best, at float64, fixed [5]float64) {
	sets := make([][]uint64, len(recs))
	for i, r := range recs {
		spans := []Span{{0, len(r.Text)}}
		if f != nil {
			spans = f.Spans(nil, r.Text)
		}
		var words []string
		for _, s := range spans {
			for w := range Words(r.Text[s.Start:s.End]) {
				words = append(words, strings.ToLower(r.Text[s.Start+w.Start:s.Start+w.End]))
			}
		}
		for k := 0; k+5 <= len(words); k++ {
			sets[i] = append(sets[i], xxh3.HashString(strings.Join(words[k:k+5], " ")))
		}
		slices.Sort(sets[i])
		sets[i] = slices.Compact(sets[i])
	}
	type pair struct {
		j   float64
		pos bool
	}
	var pairs []pair
	positives := 0
	for i := range recs {
		for j := i + 1; j < len(recs); j++ {
			pos := recs[i].Cluster == recs[j].Cluster
			if pos {
				positives++
			}
			if s := jaccardSorted(sets[i], sets[j]); s > 0.02 || pos {
				pairs = append(pairs, pair{s, pos})
			}
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int { return cmp.Compare(b.j, a.j) })
	tp := 0
	for k, p := range pairs {
		if p.pos {
			tp++
		}
		prec, rec := float64(tp)/float64(k+1), float64(tp)/float64(positives)
		f1 := 2 * prec * rec / (prec + rec)
		if f1 > best {
			best, at = f1, p.j
		}
		for n, th := range []float64{0.1, 0.2, 0.3, 0.4, 0.5} {
			if p.j >= th && (k+1 == len(pairs) || pairs[k+1].j < th) {
				fixed[n] = f1
			}
		}
	}
	return best, at, fixed
}

func jaccardSorted(a, b []uint64) float64 {
	i, j, n := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n, i, j = n+1, i+1, j+1
		}
	}
	if u := len(a) + len(b) - n; u > 0 {
		return float64(n) / float64(u)
	}
	return 0
}
