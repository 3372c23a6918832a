// Command gen rebuilds the reference idf tables of package refidf from the
// shared data directory (../shared/data beside the module root, or
// NEARDUP_DATA): one file per language, named LANG.idf, written to -out.
//
//	go run ./internal/refidf/gen [-out internal/refidf]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/refidf"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

func main() {
	out := flag.String("out", filepath.Join("internal", "refidf"), "directory to write LANG.idf files to")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	for _, src := range refidf.Sources {
		var texts []string
		for _, f := range src.Files {
			recs, err := dataset.Load(f)
			if err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			texts = append(texts, dataset.Texts(recs)...)
		}
		tag, err := language.Parse(src.Language)
		if err != nil {
			return err
		}
		b, err := refidf.Build(textproc.FullConfig(tag), texts, refidf.MinDF)
		if err != nil {
			return err
		}
		p := filepath.Join(out, src.Language+".idf")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
		fmt.Printf("%s: %d documents, %d bytes\n", p, len(texts), len(b))
	}
	return nil
}
