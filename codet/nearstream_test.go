package codet_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// TestNearCopyStreamRecall adds 2,000 Reuters stories in date order, then
// n copies of one of them (story 7, five sentences), copy i with its word
// i mod len replaced by a token of its own, and requires each new copy to
// find on average at least 90% of the earlier copies it may report: for
// copy i, recall is |returned ∩ earlier copies| / min(i, MaxResults), all
// copies being near-duplicates of each other (two copies share 50-80% of
// their SCS), and Add returning at most MaxResults (100). A node passing
// NodeLimit (200) visitors was read only by the near-duplicate rule (0.9
// of each SCS shared), which such copies never reach: once the copies had
// deactivated the story's nodes, a new copy found almost none of them
// (mean recall 0.35 at n = 1,000). The three streams take about 4 s.
func TestNearCopyStreamRecall(t *testing.T) {
	if raceEnabled {
		t.Skip("near-copy stream: 3,000+ Adds of real text (skipped under -race)")
	}
	recs := dataset.Reuters(t, 2000)
	words := strings.Fields(recs[7].Text)
	for _, n := range []int{300, 1000, 3000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			if n == 3000 {
				dataset.SkipLong(t)
			}
			d := mustNew(t, codet.Config{Language: "en"})
			defer d.Close()
			for _, r := range recs {
				_, err := d.Add(r.Doc())
				require.NoError(t, err)
			}
			maxResults := d.Config().MaxResults
			earlier := map[string]bool{}
			sum, worstBlock, block, lastRecall := 0.0, 1.0, 0.0, 0.0
			var last time.Duration
			for i := range n {
				w := append([]string(nil), words...)
				w[i%len(w)] = "zqv" + strconv.Itoa(i) + "copy"
				id := "copy" + strconv.Itoa(i)
				start := time.Now()
				ms, err := d.Add(detector.Doc{ID: id, Text: strings.Join(w, " ")})
				if i >= n-100 {
					last += time.Since(start)
				}
				require.NoError(t, err)
				if i > 0 {
					hits := 0
					for _, m := range ms {
						if earlier[m.ID] {
							hits++
						}
					}
					r := float64(hits) / float64(min(i, maxResults))
					sum, lastRecall = sum+r, r
					block += r
				}
				earlier[id] = true
				if (i+1)%100 == 0 {
					worstBlock = min(worstBlock, block/100)
					block = 0
				}
			}
			mean := sum / float64(n-1)
			t.Logf("n = %d: mean recall %.3f, worst block of 100 copies %.3f, last copy %.2f, last 100 Adds %v each",
				n, mean, worstBlock, lastRecall, last/100)
			assert.GreaterOrEqual(t, mean, 0.90, "mean recall of the earlier copies, n = %d", n)
			assert.GreaterOrEqual(t, lastRecall, 0.90, "recall of the last copy, n = %d", n)
		})
	}
}

// TestSampleRuleShare is the other side of TestNearCopyStreamRecall: pages
// of one site that share eight boilerplate sentences and differ in 28
// hold 0.22 of each other, above ETL with the MinScore evidence, and
// are related while the boilerplate's nodes are active. Once more than
// NodeLimit pages have deactivated them, the samples those nodes keep do
// not relate a new page to the recent ones: the rule on samples needs each
// document to hold at least a quarter of the other, which versions of one
// story do and pages sharing a site's frame do not.
func TestSampleRuleShare(t *testing.T) {
	const pages, own, frame = 240, 28, 8
	sents, ref := nearCorpus(t, frame+own*pages)
	d, err := codet.NewWithIDF(codet.Config{Language: "en"}, ref)
	require.NoError(t, err)
	defer d.Close()
	for i := range pages {
		body := sents[frame+own*i : frame+own*(i+1)]
		text := strings.Join(sents[:frame], " ") + " " + strings.Join(body, " ")
		ms := add(t, d, fmt.Sprintf("p%03d", i), text)
		switch {
		case i > 0 && i < codet.DefaultNodeLimit:
			require.Len(t, ms, min(i, 100), "page %d: the frame's nodes are active", i)
			assert.InDelta(t, float64(frame)/(frame+own), ms[0].Score, 0.01)
		case i > codet.DefaultNodeLimit:
			require.Empty(t, ms, "page %d: related through the frame's samples", i)
		}
	}
	assert.Positive(t, d.Stats().Deactivated)
}
