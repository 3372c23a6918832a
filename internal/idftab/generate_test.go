package idftab_test

import (
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/idftab"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

var update = flag.Bool("update", false, "rebuild the embedded reference tables (en.idf, tr.idf) from the shared data")

// TestGenerateTables rebuilds every reference table of [idftab.Sources] from
// the shared data directory (../shared/data beside the module root, or
// NEARDUP_DATA) and writes it to <language>.idf in this directory, when
// asked:
//
//	go test ./internal/idftab -run TestGenerateTables -count=1 -args -update
//
// or go generate ./internal/idftab. Without -update it is skipped;
// TestReproducible checks, on every run with the data, that the embedded
// tables are what this builds.
func TestGenerateTables(t *testing.T) {
	if !*update {
		t.Skip("skipping: regenerates en.idf and tr.idf only when asked: go test ./internal/idftab -run TestGenerateTables -count=1 -args -update")
	}
	for _, src := range idftab.Sources {
		var texts []string
		for _, f := range src.Files {
			recs, err := dataset.Load(f)
			require.NoError(t, err, "%s: the tables are built from the shared data", f)
			texts = append(texts, dataset.Texts(recs)...)
		}
		tag, err := language.Parse(src.Language)
		require.NoError(t, err)
		b, err := idftab.Build(textproc.FullConfig(tag), texts, idftab.MinDF)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(src.Language+".idf", b, 0o644))
		t.Logf("%s.idf: %d documents, %d bytes", src.Language, len(texts), len(b))
	}
}
