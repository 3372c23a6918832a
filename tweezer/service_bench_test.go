package tweezer

import (
	"bytes"
	"testing"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/benchfloor"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/internal/soak"
	"github.com/seed-9ef9c1df/neardup/internal/synth"
)

// serviceCorpora returns the corpora the service benchmarks run on: 100,000
// synthetic English documents (internal/synth) and, when the shared data is
// present, the Reuters-21578 bodies.
func serviceCorpora(b *testing.B) map[string][]detector.Doc {
	out := map[string][]detector.Doc{"synth100k": synth.Docs(100_000, synth.Config{Seed: 11})}
	recs, err := dataset.Load("reuters21578.jsonl")
	if err != nil {
		b.Logf("Reuters-21578 skipped: %v", err)
		return out
	}
	out["reuters"] = dataset.Docs(recs)
	return out
}

// BenchmarkMemoryPerDoc adds 20,000 synthetic English documents in each
// Mode and reports the live heap the detector holds per document
// ("B/doc").
func BenchmarkMemoryPerDoc(b *testing.B) {
	docs := synth.Docs(20_000, synth.Config{Seed: 11})
	for _, mode := range []Mode{Overlap, Exact} {
		b.Run(mode.String(), func(b *testing.B) {
			for range b.N {
				before := soak.LiveHeap()
				d, err := New(Config{Language: "en", Mode: mode})
				if err != nil {
					b.Fatal(err)
				}
				for _, doc := range docs {
					if _, err := d.Add(doc); err != nil {
						b.Fatal(err)
					}
				}
				after := soak.LiveHeap()
				b.ReportMetric(float64(int64(after)-int64(before))/float64(len(docs)), "B/doc")
				d.Close()
			}
		})
	}
}

// BenchmarkSnapshot measures what a service restarting from a snapshot
// saves, on 100,000 synthetic documents and on Reuters-21578 (all but the
// last 2,000 documents indexed, default Config, English):
//
//   - add: indexing the texts (MB/s of text), what a restart costs without
//     a snapshot;
//
//   - write, read: WriteTo and ReadFrom (MB/s of snapshot; "snapB/doc" is
//     the snapshot's size per document);
//
//   - query, add-probe: Query and Add of the 2,000 documents held out
//     (MB/s of text; add-probe removes them again, untimed);
//
//   - floor: the floor benchmark over the held-out texts.
//
//     go test -run XXX -bench Snapshot -benchtime 1x -count 5 ./tweezer/
func BenchmarkSnapshot(b *testing.B) {
	corpora := serviceCorpora(b)
	for _, name := range []string{"synth100k", "reuters"} {
		docs, ok := corpora[name]
		if !ok {
			continue
		}
		const held = 2000
		base, probe := docs[:len(docs)-held], docs[len(docs)-held:]
		var baseBytes, probeBytes int64
		probeTexts := make([]string, len(probe))
		for _, d := range base {
			baseBytes += int64(len(d.Text))
		}
		for i, d := range probe {
			probeBytes += int64(len(d.Text))
			probeTexts[i] = d.Text
		}
		cfg := Config{Language: "en"}
		var d *Detector
		b.Run(name+"/add", func(b *testing.B) {
			b.SetBytes(baseBytes)
			for range b.N {
				var err error
				if d, err = New(cfg); err != nil {
					b.Fatal(err)
				}
				for _, doc := range base {
					if _, err := d.Add(doc); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(base)), "ns/doc")
		})
		if d == nil {
			continue
		}
		var snap bytes.Buffer
		b.Run(name+"/write", func(b *testing.B) {
			for range b.N {
				snap.Reset()
				if _, err := d.WriteTo(&snap); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(snap.Len()))
			b.ReportMetric(float64(snap.Len())/float64(len(base)), "snapB/doc")
		})
		b.Run(name+"/read", func(b *testing.B) {
			b.SetBytes(int64(snap.Len()))
			for range b.N {
				e, err := New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := e.ReadFrom(bytes.NewReader(snap.Bytes())); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(base)), "ns/doc")
		})
		b.Run(name+"/query", func(b *testing.B) {
			b.SetBytes(probeBytes)
			for range b.N {
				for _, doc := range probe {
					if _, err := d.Query(doc); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(probe)), "ns/doc")
		})
		b.Run(name+"/add-probe", func(b *testing.B) {
			b.SetBytes(probeBytes)
			for range b.N {
				for _, doc := range probe {
					if _, err := d.Add(doc); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				for _, doc := range probe {
					if err := d.Remove(doc.ID); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(probe)), "ns/doc")
		})
		b.Run(name+"/floor", func(b *testing.B) { benchfloor.Run(b, probeTexts) })
		d.Close()
	}
}
