package refidf

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// idfMagic is the magic and version of the binary form of [textproc.IDF]
// (its AppendBinary documents the layout).
const idfMagic = "NDIDF\x01"

// Build analyses texts with cfg and returns a frozen, unsmoothed
// [textproc.IDF] table of them in its versioned binary form, leaving out
// the terms whose document frequency is below minDF (an IDF counts a
// missing term as seen in one document, so minDF = 2 changes no weight).
//
// textproc.IDF has no way to drop terms, so Build writes the layout of
// [textproc.IDF.AppendBinary] itself: magic and version, flags (1 =
// frozen), N, the number of terms, then each term (length-prefixed) and its
// document frequency, in sorted term order, all counts as uvarints. The
// result is checked by reading it back with [textproc.IDF.UnmarshalBinary].
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
	keys := make([]string, 0, len(df))
	for k, v := range df {
		if v >= minDF {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	b := append([]byte(idfMagic), 1) // frozen, not smoothed
	b = binary.AppendUvarint(b, uint64(len(texts)))
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
		b = binary.AppendUvarint(b, uint64(df[k]))
	}
	if err := textproc.NewIDF(false).UnmarshalBinary(b); err != nil {
		return nil, fmt.Errorf("refidf: built table does not read back: %w", err)
	}
	return b, nil
}
