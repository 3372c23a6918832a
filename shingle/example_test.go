package shingle_test

import (
	"bytes"
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/shingle"
)

const (
	report = "The council approved the new budget on Monday after a long debate. " +
		"Spending on schools and roads will rise by four percent next year, the mayor said."
	roundup = "Weather: rain is expected all week across the region. " + report +
		" In sport, the city club won its third match in a row."
	other = "A rare comet will be visible in the northern sky this weekend, astronomers said, " +
		"best seen an hour after sunset away from city lights."
)

// Full fingerprinting (the zero Config) reports a long round-up as the
// container of the short report it quotes, and not the reverse.
func Example() {
	d, err := shingle.New(shingle.Config{})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	for _, doc := range []detector.Doc{{ID: "report", Text: report}, {ID: "other", Text: other}} {
		if _, err := d.Add(doc); err != nil {
			panic(err)
		}
	}
	ms, _ := d.Add(detector.Doc{ID: "roundup", Text: roundup})
	fmt.Println("containers of roundup:", ms)
	ms, _ = d.Containers("report")
	fmt.Printf("containers of report: %s %.2f\n", ms[0].ID, ms[0].Score)
	// Output:
	// containers of roundup: []
	// containers of report: roundup 1.00
}

// SpotSigs is symmetric: two copies of a story under different site
// templates are each other's near-duplicates. The content filter skips the
// templates' menu and footer, so the copies score 1; read whole
// (Content: textproc.ContentAll), the chains of the story's last sentence
// run into the second site's footer and they score 0.69.
func ExampleNew() {
	d, err := shingle.New(shingle.Config{Method: shingle.SpotSigs, MinSignatures: 2, MinIDF: -1, MaxIDF: 2})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	story := "The storm was the worst in decades, officials said. The river was expected to peak on Friday, " +
		"and the army was sent to the valley. The mayor said the town is ready for the flood."
	d.Add(detector.Doc{ID: "site-a", Text: "Home | News | Sport\n\n" + story})
	d.Add(detector.Doc{ID: "comet", Text: other})
	ms, _ := d.Add(detector.Doc{ID: "site-b", Text: story + "\n\nShare this article. Subscribe to our newsletter."})
	for _, m := range ms {
		fmt.Printf("%s %.2f\n", m.ID, m.Score)
	}
	// Output:
	// site-a 1.00
}

// Containers sees containers added after the document.
func ExampleDetector_Containers() {
	d, err := shingle.New(shingle.Config{Method: shingle.DSC, Modulus: 2})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	d.Add(detector.Doc{ID: "report", Text: report})
	d.Add(detector.Doc{ID: "roundup", Text: roundup})
	d.Add(detector.Doc{ID: "other", Text: other})
	ms, _ := d.Containers("report")
	for _, m := range ms {
		fmt.Printf("%s ⊇ report (%.2f)\n", m.ID, m.Score)
	}
	ms, _ = d.Containers("roundup")
	fmt.Println("containers of roundup:", len(ms))
	// Output:
	// roundup ⊇ report (1.00)
	// containers of roundup: 0
}

// A detector's state is saved with WriteTo and loaded into a new detector
// of the same Config with ReadFrom; the loaded one answers as the original
// would, exact copies included.
func ExampleDetector_WriteTo() {
	cfg := shingle.Config{Method: shingle.SpotSigs}
	d, err := shingle.New(cfg)
	if err != nil {
		panic(err)
	}
	for _, doc := range []detector.Doc{{ID: "a", Text: report}, {ID: "b", Text: report}, {ID: "c", Text: other}} {
		if _, err := d.Add(doc); err != nil {
			panic(err)
		}
	}
	var buf bytes.Buffer
	if _, err := d.WriteTo(&buf); err != nil {
		panic(err)
	}

	e, err := shingle.New(cfg)
	if err != nil {
		panic(err)
	}
	if _, err := e.ReadFrom(&buf); err != nil {
		panic(err)
	}
	copies, _ := e.Copies("a")
	fmt.Println("documents:", e.Len(), "copies of a:", copies)
	ms, _ := e.Add(detector.Doc{ID: "d", Text: report})
	fmt.Println("d matches:", ms)
	// Output:
	// documents: 3 copies of a: [b]
	// d matches: [{a 1} {b 1}]
}
