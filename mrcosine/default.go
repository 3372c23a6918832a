package mrcosine

import (
	_ "embed"
	"fmt"
	"sync"
)

// defaultRef is the marshalled default reference text. It was trained by
// [Train] with TrainConfig{Seed: 1} (every other field at its default:
// 1000 genes, 150 parts, population 100, 50 generations, a fixed sample of
// 200 documents, pool of the 9000 trigrams of highest summed TF-IDF,
// normalized text, term-frequency cosine; its center measured on the
// training part) on all 19,043 bodies of the Reuters-21578 newswire
// collection (1987; research use), on 2026-11-22, and is regenerated from
// reuters21578.jsonl (see the repository README for the data) with
//
//	MRCOSINE_TRAIN_DEFAULT=1 go test -run TestGenerateDefault -timeout 60m -v ./mrcosine/
//
// which writes default.mrc. No test needs the data to use it.
//
//go:embed default.mrc
var defaultRef []byte

var defaultOnce = sync.OnceValue(func() *Reference {
	var r Reference
	if err := r.UnmarshalBinary(defaultRef); err != nil {
		panic(fmt.Sprintf("mrcosine: embedded default.mrc: %v", err)) // unreachable: TestDefault
	}
	return &r
})

// Default returns the default reference text, trained on English newswire
// (Reuters-21578) by this package's genetic algorithm: 1000 trigram genes in
// 150 parts, Normalized text, term-frequency cosine, with a center for
// [Config].Centered. Every call returns a new Reference sharing the
// default's read-only tables (O(1)), so a caller that replaces its value
// (UnmarshalBinary) changes neither the default nor detectors made with it.
func Default() *Reference { return defaultOnce().clone() }
