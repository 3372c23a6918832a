package dedup_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/seed-9ef9c1df/neardup/beam/dedup"
	"github.com/seed-9ef9c1df/neardup/minhash"
)

func formatPair(p dedup.Pair) string { return fmt.Sprintf("%s %s %.3f", p.A, p.B, p.Score) }

func init() { register.Function1x1(formatPair) }

// Near-duplicate pairs of three documents on the Prism runner, written to
// a text file and read back.
func ExampleMinHashPairs() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4})))
	dir, err := os.MkdirTemp("", "dedup")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "pairs.txt")

	p, s := beam.NewPipelineWithRoot()
	docs := beam.Create(s,
		dedup.Doc{ID: "a", Text: "The quick brown fox jumps over the lazy dog near the river bank today"},
		dedup.Doc{ID: "b", Text: "The quick brown fox jumps over the lazy dog near the river bank"},
		dedup.Doc{ID: "c", Text: "An entirely different sentence about markets and the weather"},
	)
	pairs, err := dedup.MinHashPairs(s, docs, dedup.MinHashConfig{Sketch: minhash.Config{Threshold: 0.5}})
	if err != nil {
		fmt.Println(err)
		return
	}
	textio.Write(s, out, beam.ParDo(s, formatPair, pairs))
	if _, err := beam.Run(context.Background(), "prism", p); err != nil {
		fmt.Println(err)
		return
	}
	b, err := os.ReadFile(out)
	if err != nil {
		fmt.Println(err)
		return
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	slices.Sort(lines) // a sink writes in no particular order
	for _, l := range lines {
		fmt.Println(l)
	}
	// Output:
	// a b 0.900
}
