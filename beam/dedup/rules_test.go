package dedup

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/minhash"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

// notices returns n short texts written from one template (dividend
// notices whose slots vary): near each other by Jaccard, but sharing too
// few shingles for the detectors' evidence rule (MinOverlap) unless they
// are near-copies.
func notices(n int, seed uint64) []Doc {
	r := rand.New(rand.NewPCG(seed, 7))
	pick := func(ws ...string) string { return ws[r.IntN(len(ws))] }
	var out []Doc
	for i := range n {
		text := fmt.Sprintf("%s %s corp said its board declared a %s dividend of %d cents a share payable %s %d to holders of record %s %d the company said %s",
			pick("acme", "borden", "carlisle", "dexter", "elcor", "fedders"), pick("industries", "holdings", "group", "systems"),
			pick("quarterly", "regular", "semiannual", "special"), 5+r.IntN(40), pick("april", "may", "june", "july"), 1+r.IntN(28),
			pick("march", "april", "may", "june"), 1+r.IntN(28), pick("", "it raised the payout", "the prior payment was the same", "it paid a stock split"))
		out = append(out, Doc{ID: fmt.Sprintf("notice%03d", i), Text: text})
		if i%3 == 0 { // a near-copy: the same notice with a closing remark
			out = append(out, Doc{ID: fmt.Sprintf("notice%03d-b", i), Text: text + " in a statement"})
		}
	}
	return out
}

// TestMinHashPairsEvidenceRule: on short template notices the detector's
// evidence rule drops pairs above the threshold, and the pipeline drops
// the same ones.
func TestMinHashPairsEvidenceRule(t *testing.T) {
	docs := notices(300, 1)
	cfg := minhash.Config{Threshold: 0.3}
	off := cfg
	off.MinOverlap = 1
	require.Less(t, len(memPairs(t, cfg, docs)), len(memPairs(t, off, docs)), "the evidence rule must engage on these documents")
	minhashEquality(t, docs, cfg)
}

// TestContainmentEvidenceRules: a part does not contain its whole, and
// template notices share too few shingles to contain each other; the
// pipeline decides both as the detector does.
func TestContainmentEvidenceRules(t *testing.T) {
	docs := synthDocs(150, 8)
	for i := range 40 { // the first half of a text: contained in it, not its container
		words := strings.Fields(docs[i].Text)
		docs = append(docs, Doc{ID: fmt.Sprintf("half%02d", i), Text: strings.Join(words[:len(words)/2], " ")})
	}
	docs = append(docs, notices(200, 2)...)
	for _, cfg := range []shingle.Config{{}, {Method: shingle.DSC}} {
		t.Run(cfg.Method.String(), func(t *testing.T) {
			want := memContained(t, cfg, docs)
			off := cfg
			off.MinOverlap = 1
			require.Less(t, len(want), len(memContained(t, off, docs)), "MinOverlap must engage on these documents")
			// A half holds about half of its whole's shingles, above θ =
			// 0.25, yet is not reported as its container (unless the
			// whole repeats itself so that the half holds nearly all).
			has := map[Contained]bool{}
			for _, c := range want {
				has[Contained{Doc: c.Doc, Container: c.Container}] = true
			}
			parts := 0
			for i := range 40 {
				half := fmt.Sprintf("half%02d", i)
				if has[Contained{Doc: half, Container: docs[i].ID}] && !has[Contained{Doc: docs[i].ID, Container: half}] {
					parts++
				}
			}
			require.Positive(t, parts, "a part must not contain its whole")
			containmentEquality(t, docs, cfg)
		})
	}
}
