// Command gen rebuilds a reference idf table of package refidf from the
// shared data directory (../shared/data beside the module root, or
// NEARDUP_DATA) and writes it to standard output:
//
//	go run ./internal/refidf/gen -lang en > internal/refidf/en.idf
//	go run ./internal/refidf/gen -lang tr > internal/refidf/tr.idf
//
// or, for both, go generate ./internal/refidf. (The command writes to
// standard output only, so that it needs no file I/O of its own.)
package main

import (
	"flag"
	"fmt"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/refidf"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

func main() {
	lang := flag.String("lang", "en", "language of the table: en or tr")
	flag.Parse()
	b, err := build(*lang)
	if err != nil {
		panic(fmt.Sprintf("gen: %v", err))
	}
	fmt.Print(string(b))
}

func build(lang string) ([]byte, error) {
	for _, src := range refidf.Sources {
		if src.Language != lang {
			continue
		}
		var texts []string
		for _, f := range src.Files {
			recs, err := dataset.Load(f)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			texts = append(texts, dataset.Texts(recs)...)
		}
		tag, err := language.Parse(src.Language)
		if err != nil {
			return nil, err
		}
		return refidf.Build(textproc.FullConfig(tag), texts, refidf.MinDF)
	}
	return nil, fmt.Errorf("no table for language %q", lang)
}
