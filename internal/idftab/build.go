package idftab

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Build analyses texts with cfg and returns a frozen, unsmoothed
// [textproc.IDF] table of them in its binary form ([textproc.IDF.AppendBinary]:
// version 2, with a checksum), leaving out the terms whose document
// frequency is below minDF (an IDF counts a missing term as seen in one
// document, so minDF = 2 changes no weight). The counts go through
// [textproc.NewIDFFromCounts], so the table is written by textproc itself
// and follows its format.
func Build(cfg textproc.Config, texts []string, minDF int64) ([]byte, error) {
	an, err := textproc.NewAnalyzer(cfg)
	if err != nil {
		return nil, fmt.Errorf("refidf: %w", err)
	}
	df := make(map[string]int64)
	seen := make(map[string]struct{})
	for _, text := range texts {
		clear(seen)
		for _, tok := range an.Tokens(text) {
			if _, dup := seen[tok.Term]; dup {
				continue
			}
			seen[tok.Term] = struct{}{}
			df[tok.Term]++
		}
	}
	for k, v := range df {
		if v < minDF {
			delete(df, k)
		}
	}
	t, err := textproc.NewIDFFromCounts(int64(len(texts)), df, false)
	if err != nil {
		return nil, fmt.Errorf("refidf: %w", err)
	}
	t.Freeze()
	return t.MarshalBinary()
}
