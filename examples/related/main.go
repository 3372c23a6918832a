// Command related shows what a newsroom tool would show beside a story:
// the stored stories nearest to it, best first, with each detector's
// score, whether the detector calls it a duplicate or a container, and
// for codet the story's sentences found in each neighbour. It adds a
// labelled collection to a detector and looks one story up with
// detector.Ranker's Nearest.
//
//	go run ./examples/related -detector codet -id Adobe/a2 -k 5
//
// Without -id it shows the first story of the collection.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/seed-9ef9c1df/neardup"
	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/examples/internal/cli"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

var usage = cli.Usage{
	Synopsis: "go run ./examples/related [-detector NAME] [-data FILE.jsonl] [-id ID] [-k N]",
	Does: "Adds a collection to a detector and prints, for one story, the stored stories nearest to it with their " +
		"scores (detector.Ranker), marking those the detector reports as related (Query), and with codet the " +
		"story's sentences each neighbour holds. Progress goes to stderr.",
	Reads: "Reads the JSONL file of -data (default goldset-dev.jsonl, web pages in clusters of one story); a bare " +
		"name is looked up among the labelled collections. " + cli.DataNote,
	Takes: "The default invocation (codet, 1,077 pages) takes about 10 seconds on 2 cores.",
	Examples: []string{
		"go run ./examples/related -detector minhash -id Adobe/a2",
		"go run ./examples/related -data clough-stevenson.jsonl -id g0pA_taska -k 3",
	},
}

type options struct {
	name, data, id string
	lang           string
	k              int
}

func main() {
	var o options
	flag.StringVar(&o.name, "detector", "codet", "detector name (go run ./examples/evaluate -detector list)")
	flag.StringVar(&o.data, "data", "goldset-dev.jsonl", "JSONL file with id and text per line (a bare name is looked up in ../shared/data)")
	flag.StringVar(&o.id, "id", "", "the story to look up (default: the first of the file)")
	flag.StringVar(&o.lang, "lang", "en", "language of the collection, a BCP 47 tag")
	flag.IntVar(&o.k, "k", 5, "how many neighbours to show")
	cli.Set(usage)
	flag.Parse()
	if err := run(os.Stdout, os.Stderr, o); err != nil {
		fmt.Fprintln(os.Stderr, "related:", err)
		os.Exit(2)
	}
}

func run(stdout, stderr io.Writer, o options) error {
	if o.k < 1 {
		return fmt.Errorf("-k %d: show at least one neighbour", o.k)
	}
	path := o.data
	if _, err := os.Stat(path); err != nil {
		if path, err = dataset.Path(o.data); err != nil {
			return fmt.Errorf("-data %q: not a file, and %w", o.data, err)
		}
	}
	recs, err := dataset.LoadFile(path)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s holds no documents", path)
	}
	story := recs[0]
	if o.id != "" {
		found := false
		for _, r := range recs {
			if r.ID == o.id {
				story, found = r, true
				break
			}
		}
		if !found {
			return fmt.Errorf("-id %q is not in %s", o.id, path)
		}
	}
	info, err := neardup.Lookup(o.name)
	if err != nil {
		return err
	}
	opts := map[string]string{}
	if slices.Contains(info.Options, "Language") {
		opts["Language"] = o.lang
	}
	d, err := neardup.New(o.name, opts)
	if err != nil {
		return err
	}
	defer d.Close()
	r, ok := d.(detector.Ranker)
	if !ok {
		return fmt.Errorf("%s does not rank (detector.Ranker): %w", o.name, errors.ErrUnsupported)
	}
	p := cli.NewProgress(stderr, "related", 3*time.Second)
	progress := p.Docs(o.name, len(recs))
	for i, rec := range recs {
		if _, err := d.Add(rec.Doc()); err != nil {
			return err
		}
		progress(i + 1)
	}
	near, err := r.Nearest(story.Text, o.k+1)
	if err != nil {
		return err
	}
	related := map[string]bool{}
	if q, ok := d.(detector.Querier); ok {
		ms, err := q.Query(story.Doc())
		if err != nil {
			return err
		}
		for _, m := range ms {
			related[m.ID] = true
		}
	}
	fmt.Fprintf(stdout, "%s (%s, %d stored): %s\n\n", story.ID, o.name, len(recs), title(story.Text))
	cd, _ := d.(*codet.Detector)
	shown := 0
	for _, m := range near {
		if m.ID == story.ID || shown == o.k {
			continue
		}
		shown++
		mark := ""
		if related[m.ID] {
			mark = "  [related]"
		}
		fmt.Fprintf(stdout, "%2d. %.3f  %s%s\n    %s\n", shown, m.Score, m.ID, mark, title(textOf(recs, m.ID)))
		if cd != nil {
			spans, err := cd.Matched(m.ID, story.ID)
			if err != nil {
				return err
			}
			for i, s := range spans {
				if i == 3 {
					fmt.Fprintf(stdout, "      … and %d more sentences\n", len(spans)-3)
					break
				}
				fmt.Fprintf(stdout, "      %.2f  %s\n", s.Score, clip(story.Text[s.Start:s.End], 90))
			}
		}
	}
	if shown == 0 {
		fmt.Fprintln(stdout, "no stored story shares evidence with it")
	}
	return nil
}

// textOf returns the text of the record id.
func textOf(recs []dataset.Record, id string) string {
	for _, r := range recs {
		if r.ID == id {
			return r.Text
		}
	}
	return ""
}

// title returns the first non-blank line of text, clipped.
func title(text string) string {
	for line := range strings.Lines(text) {
		if l := strings.TrimSpace(line); l != "" {
			return clip(l, 90)
		}
	}
	return ""
}

// clip returns s on one line, at most n runes.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
