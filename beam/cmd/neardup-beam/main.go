// Command neardup-beam finds near-duplicate pairs, clusters or containment
// relations in a JSONL collection (one {"id": ..., "text": ...} object per
// line) with the pipelines of package dedup, on any Apache Beam runner:
// Prism, in process, by default; Dataflow, Flink or Spark by --runner and
// that runner's flags (see beam/README.md).
//
// Usage:
//
//	neardup-beam --input docs.jsonl --output pairs.jsonl [--mode pairs|clusters|star|containment|nearest] [flags]
//
// Output is JSONL: {"a","b","score"} per pair, {"id","cluster"} per
// clustered document, {"doc","container","score"} per containment,
// {"id","neighbours":[{"id","score"}...]} per document ranked by nearest. With
// the text sink of the Beam Go SDK, the output is one file, written by one
// worker.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/seed-9ef9c1df/neardup/beam/dedup"
	"github.com/seed-9ef9c1df/neardup/minhash"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

var (
	input      = flag.String("input", "", "JSONL file (or glob) of {\"id\", \"text\"} objects (required)")
	output     = flag.String("output", "", "JSONL file to write (required)")
	mode       = flag.String("mode", "pairs", "pairs (MinHash near-duplicates), clusters (their connected components, union-find on one worker), star (the same by large-star/small-star rounds), containment (full fingerprinting) or nearest (each document's top --top_k MinHash neighbours)")
	threshold  = flag.Float64("threshold", 0, "Jaccard threshold (pairs, clusters, star) or containment threshold; 0 means the detector's default")
	shingleLen = flag.Int("shingle", 0, "words per shingle; 0 means the detector's default")
	numHashes  = flag.Int("num_hashes", 0, "MinHash signature length K; 0 means 128")
	seed       = flag.Uint64("seed", 0, "MinHash hash-family seed")
	language   = flag.String("language", "", "BCP 47 language of the texts (\"en\", \"tr\"); empty means language-neutral for MinHash and English for containment")
	maxBucket  = flag.Int("max_bucket", 0, "largest LSH bucket expanded into all its pairs (bigger ones become a star); 0 means 1000, -1 never caps")
	maxDF      = flag.Int("max_df", 0, "containment: shingles in more documents than this are left out; 0 means 1000, -1 never caps")
	noVerify   = flag.Bool("no_verify", false, "pairs: report LSH candidates unverified (score 0)")
	starRounds = flag.Int("star_rounds", 0, "star: large-star/small-star rounds; 0 means 6")
	topK       = flag.Int("top_k", 10, "nearest: neighbours per document")
)

func init() {
	register.Function1x1(formatPair)
	register.Function1x1(formatLabel)
	register.Function1x1(formatContained)
	register.Function1x2(formatNeighbours)
}

func formatNeighbours(n dedup.Neighbours) (string, error) {
	b, err := json.Marshal(n)
	return string(b), err
}

func formatPair(p dedup.Pair) string {
	b, _ := json.Marshal(struct {
		A     string  `json:"a"`
		B     string  `json:"b"`
		Score float64 `json:"score"`
	}{p.A, p.B, p.Score})
	return string(b)
}

func formatLabel(l dedup.Label) string {
	b, _ := json.Marshal(struct {
		ID      string `json:"id"`
		Cluster string `json:"cluster"`
	}{l.ID, l.Cluster})
	return string(b)
}

func formatContained(c dedup.Contained) string {
	b, _ := json.Marshal(struct {
		Doc       string  `json:"doc"`
		Container string  `json:"container"`
		Score     float64 `json:"score"`
	}{c.Doc, c.Container, c.Score})
	return string(b)
}

// ownFlags are the command's flags, which --help lists (sorted by name)
// before the flags of the Beam SDK and its runners.
var ownFlags = []string{"input", "output", "mode", "threshold", "shingle", "num_hashes", "seed",
	"language", "max_bucket", "max_df", "no_verify", "star_rounds", "top_k"}

// usage prints what the command does and its own flags, then the Beam
// SDK's and the runners' flags.
func usage() {
	out := flag.CommandLine.Output()
	fmt.Fprint(out, `Usage: neardup-beam --input docs.jsonl --output out.jsonl [--mode pairs|clusters|star|containment|nearest] [flags]

Finds near-duplicate pairs, clusters, containment relations or each
document's nearest neighbours in a JSONL
collection (one {"id": ..., "text": ...} object per line) on an Apache Beam
runner: Prism, in process, by default. See beam/README.md for a sample input
and figures.

Flags of neardup-beam:
`)
	own := flag.NewFlagSet("neardup-beam", flag.ContinueOnError)
	own.SetOutput(out)
	for _, name := range ownFlags {
		f := flag.Lookup(name)
		own.Var(f.Value, f.Name, f.Usage)
	}
	own.PrintDefaults()
	fmt.Fprint(out, "\nFlags of the Beam SDK and its runners (--runner, and each runner's own):\n")
	rest := flag.NewFlagSet("beam", flag.ContinueOnError)
	rest.SetOutput(out)
	flag.VisitAll(func(f *flag.Flag) {
		if !slices.Contains(ownFlags, f.Name) {
			rest.Var(f.Value, f.Name, f.Usage)
		}
	})
	rest.PrintDefaults()
}

// checkInput returns an error when glob names no file: textio.Read of a
// pattern that matches nothing reads nothing, and the pipeline would
// succeed with an empty output.
func checkInput(ctx context.Context, glob string) error {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return fmt.Errorf("neardup-beam: --input %q: %w", glob, err)
	}
	defer fs.Close()
	files, err := fs.List(ctx, glob)
	if err != nil {
		return fmt.Errorf("neardup-beam: --input %q: %w", glob, err)
	}
	if len(files) == 0 {
		return fmt.Errorf("neardup-beam: --input %q matches no file", glob)
	}
	return nil
}

// build adds the pipeline the flags ask for to s, after checking that
// --input names at least one file.
func build(ctx context.Context, s beam.Scope) error {
	if *input == "" || *output == "" {
		return errors.New("neardup-beam: --input and --output are required")
	}
	if err := checkInput(ctx, *input); err != nil {
		return err
	}
	docs := dedup.ReadDocs(s, *input)
	var lines beam.PCollection
	switch *mode {
	case "pairs", "clusters", "star":
		cfg := dedup.MinHashConfig{
			Sketch: minhash.Config{Threshold: *threshold, Shingle: *shingleLen, NumHashes: *numHashes,
				Seed: *seed, Language: *language},
			MaxBucket: *maxBucket,
			NoVerify:  *noVerify,
		}
		pairs, err := dedup.MinHashPairs(s, docs, cfg)
		if err != nil {
			return err
		}
		switch *mode {
		case "pairs":
			lines = beam.ParDo(s, formatPair, pairs)
		case "clusters":
			lines = beam.ParDo(s, formatLabel, dedup.Clusters(s, pairs))
		default:
			lines = beam.ParDo(s, formatLabel, dedup.StarClusters(s, pairs, *starRounds))
		}
	case "containment":
		cfg := dedup.ContainmentConfig{
			Shingle: shingle.Config{Threshold: *threshold, Shingle: *shingleLen, Language: *language},
			MaxDF:   *maxDF,
		}
		got, err := dedup.Containment(s, docs, cfg)
		if err != nil {
			return err
		}
		lines = beam.ParDo(s, formatContained, got)
	case "nearest":
		cfg := dedup.NearestConfig{
			Sketch: minhash.Config{Threshold: *threshold, Shingle: *shingleLen, NumHashes: *numHashes,
				Seed: *seed, Language: *language},
			K: *topK,
		}
		got, err := dedup.Nearest(s, docs, cfg)
		if err != nil {
			return err
		}
		lines = beam.ParDo(s, formatNeighbours, got)
	default:
		return fmt.Errorf("neardup-beam: unknown --mode %q (pairs, clusters, star, containment, nearest)", *mode)
	}
	textio.Write(s, *output, lines)
	return nil
}

func main() {
	flag.Usage = usage
	flag.Parse()
	beam.Init()
	// An interrupt or SIGTERM cancels the pipeline's context: the runner
	// stops the job and the command exits non-zero.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p, s := beam.NewPipelineWithRoot()
	if err := build(ctx, s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := beamx.Run(ctx, p); err != nil {
		log.Fatalf("neardup-beam: %v", err)
	}
}
