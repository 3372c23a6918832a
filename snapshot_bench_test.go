package neardup

import (
	"bytes"
	"flag"
	"testing"
	"time"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/testkit"
)

var snapshotDocs = flag.Int("snapshot.docs", 100_000, "synthetic documents in BenchmarkSnapshot")

// BenchmarkSnapshot measures, for every named detector that persists, what
// a service restarting from a snapshot saves. Over -snapshot.docs synthetic
// English documents and over Reuters-21578 (when the shared data is
// present), all but the last 2,000 documents are added; then:
//
//   - "add-ns/doc": indexing the texts, the cost of a restart without a
//     snapshot;
//   - "snapB/doc", "writeMB/s", "readMB/s": the snapshot's size per
//     document and the speed of WriteTo and ReadFrom;
//   - "restore/add": ReadFrom's time as a fraction of adding the texts;
//   - "query/add": Query of the 2,000 held-out documents as a fraction of
//     adding them (they are removed again, untimed);
//   - "floor/add": the floor benchmark over the held-out texts as a
//     fraction of adding them, the machine's yardstick within the run.
//
// Every figure is from one iteration; run it alone:
//
//	go test -run XXX -bench Snapshot -benchtime 1x -count 5 .
func BenchmarkSnapshot(b *testing.B) {
	corpora := []struct {
		name string
		docs []detector.Doc
	}{{"synth", dataset.SynthDocs(*snapshotDocs, dataset.SynthConfig{Seed: 11})}}
	if recs, err := dataset.Load("reuters21578.jsonl"); err == nil {
		corpora = append(corpora, struct {
			name string
			docs []detector.Doc
		}{"reuters", dataset.Docs(recs)})
	} else {
		b.Logf("Reuters-21578 skipped: %v", err)
	}
	for _, name := range Names() {
		if name == "reference" {
			continue // quadratic by design
		}
		for _, c := range corpora {
			b.Run(name+"/"+c.name, func(b *testing.B) {
				for range b.N {
					snapshotRound(b, name, c.docs)
				}
			})
		}
	}
}

// snapshotRound runs one round of BenchmarkSnapshot and reports its
// metrics.
func snapshotRound(b *testing.B, name string, docs []detector.Doc) {
	const held = 2000
	base, probe := docs[:len(docs)-held], docs[len(docs)-held:]
	build := func() detector.Detector {
		d, err := New(name, withLanguageOpt(name, "en"))
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	d := build()
	defer d.Close()
	p, ok := d.(detector.Persister)
	if !ok {
		b.Skipf("%s does not implement detector.Persister", name)
	}
	start := time.Now()
	for _, doc := range base {
		if _, err := d.Add(doc); err != nil {
			b.Fatal(err)
		}
	}
	add := time.Since(start)

	var snap bytes.Buffer
	start = time.Now()
	if _, err := p.WriteTo(&snap); err != nil {
		b.Fatal(err)
	}
	write := time.Since(start)

	e := build()
	defer e.Close()
	start = time.Now()
	if _, err := e.(detector.Persister).ReadFrom(bytes.NewReader(snap.Bytes())); err != nil {
		b.Fatal(err)
	}
	read := time.Since(start)

	start = time.Now()
	for _, doc := range probe {
		if _, err := d.(detector.Querier).Query(doc); err != nil {
			b.Fatal(err)
		}
	}
	query := time.Since(start)
	start = time.Now()
	for _, doc := range probe {
		if _, err := d.Add(doc); err != nil {
			b.Fatal(err)
		}
	}
	addProbe := time.Since(start)
	for _, doc := range probe {
		if err := d.(detector.Remover).Remove(doc.ID); err != nil {
			b.Fatal(err)
		}
	}
	start = time.Now()
	for _, doc := range probe {
		testkit.Floor(doc.Text)
	}
	floor := time.Since(start)

	mb := float64(snap.Len()) / 1e6
	b.ReportMetric(float64(add.Nanoseconds())/float64(len(base)), "add-ns/doc")
	b.ReportMetric(float64(snap.Len())/float64(len(base)), "snapB/doc")
	b.ReportMetric(mb/write.Seconds(), "writeMB/s")
	b.ReportMetric(mb/read.Seconds(), "readMB/s")
	b.ReportMetric(read.Seconds()/add.Seconds(), "restore/add")
	b.ReportMetric(query.Seconds()/addProbe.Seconds(), "query/add")
	b.ReportMetric(floor.Seconds()/addProbe.Seconds(), "floor/add")
}
