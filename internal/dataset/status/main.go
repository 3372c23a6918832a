// Command status prints one line saying whether `go test ./...` finds the
// labelled data of ../shared/data and whether it runs the long tests.
//
// A passing `go test ./...` prints only an "ok" line per package and hides
// every skip message, so a run without the data would look like a run
// with it; the README's test command therefore ends with this command:
//
//	go test ./... && go run ./internal/dataset/status
//
// It finds the data as the tests do (internal/dataset: ../shared/data
// beside the module root, or $NEARDUP_DATA) and reads the same
// NEARDUP_LONG switch (internal/dataset). It always exits 0.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// files are the collections the tests read, in the order the data's
// README lists them.
var files = []string{
	"goldset-dev.jsonl", "clough-stevenson.jsonl", "ttc3600.jsonl",
	"reuters21578.jsonl", "bbc.jsonl", "tr-ner.train.txt",
}

func main() {
	fmt.Println(line(dataset.Dir, dataset.LongEnabled()))
}

// line describes the data found by dir (dataset.Dir in the command) and
// the long-test switch.
func line(dir func() (string, error), long bool) string {
	longNote := "long tests (soaks, whole-collection sweeps) skipped: " + dataset.LongEnv + "=1 runs them."
	if long {
		longNote = "long tests on (" + dataset.LongEnv + ")."
	}
	d, err := dir()
	if err != nil {
		return "neardup tests: NO DATA: ../shared/data beside the repository (or $NEARDUP_DATA) not found, " +
			"so every test that reads it SKIPPED (not passed); " + longNote
	}
	if real, err := filepath.EvalSymlinks(d); err == nil {
		d = real
	}
	var missing []string
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(d, f)); err != nil {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return fmt.Sprintf("neardup tests: data at %s lacks %s, so the tests that read them SKIPPED (not passed); %s",
			d, strings.Join(missing, ", "), longNote)
	}
	return fmt.Sprintf("neardup tests: data found at %s: the tests that read it ran; %s", d, longNote)
}
