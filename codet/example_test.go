package codet_test

import (
	"bytes"
	"fmt"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
)

const (
	report = "The central bank raised its benchmark rate by half a point on Wednesday. " +
		"Governor Elena Marsh said inflation had spread to rents and services."
	article = "Markets fell sharply in early trading. " +
		"The central bank raised its benchmark rate by half a point on Wednesday. " +
		"Governor Elena Marsh said inflation had spread to rents and services. " +
		"Mortgage lenders expect monthly repayments to rise by forty euros. " +
		"Business groups warned that small manufacturers would suffer. " +
		"The currency strengthened against the dollar after the announcement. " +
		"Economists now forecast two further increases before the summer. " +
		"The next policy meeting is scheduled for early December."
)

func Example() {
	d, err := codet.New(codet.Config{Language: "en"})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	d.Add(detector.Doc{ID: "report", Text: report})
	// The article repeats the report and adds to it: it contains the
	// report, the report does not contain the article.
	ms, _ := d.Add(detector.Doc{ID: "article", Text: article})
	fmt.Println("containers of the article:", len(ms))
	ms, _ = d.Containers("report")
	for _, m := range ms {
		fmt.Printf("%s contains report (CS/SCS %.2f)\n", m.ID, m.Score)
	}
	// Output:
	// containers of the article: 0
	// article contains report (CS/SCS 1.00)
}

func ExampleNew() {
	d, err := codet.New(codet.Config{Language: "tr", ETL: 0.5})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	d.Add(detector.Doc{ID: "a", Text: "İSTANBUL'DA kar yağışı etkili oldu. Okullar tatil edildi."})
	ms, _ := d.Add(detector.Doc{ID: "b", Text: "İstanbul'da kar yağışı etkili oldu. Okullar tatil edildi."})
	fmt.Println(ms)
	_, err = codet.New(codet.Config{DepthThreshold: -1})
	fmt.Println(err)
	// Output:
	// [{a 1}]
	// codet: DepthThreshold (-1) must be in [0, 64]: invalid config
}

func ExampleDetector_Containers() {
	d, _ := codet.New(codet.Config{Language: "en"})
	defer d.Close()
	ms, _ := d.Add(detector.Doc{ID: "report", Text: report})
	fmt.Println("containers when added:", len(ms))
	// The article arrives later; it shows up among the report's containers.
	d.Add(detector.Doc{ID: "article", Text: article})
	ms, _ = d.Containers("report")
	fmt.Println(ms[0].ID)
	// Output:
	// containers when added: 0
	// article
}

func ExampleDetector_Matched() {
	d, _ := codet.New(codet.Config{Language: "en"})
	defer d.Close()
	d.Add(detector.Doc{ID: "report", Text: report})
	d.Add(detector.Doc{ID: "article", Text: article})
	spans, _ := d.Matched("article", "report")
	for _, s := range spans {
		fmt.Printf("%q %.2f\n", report[s.Start:s.End], s.Score)
	}
	// Output:
	// "The central bank raised its benchmark rate by half a point on Wednesday." 1.00
	// "Governor Elena Marsh said inflation had spread to rents and services." 1.00
}

// A detector saved with WriteTo and loaded with ReadFrom into a new one
// (same Config) answers as the original.
func ExampleDetector_WriteTo() {
	d, err := codet.New(codet.Config{Language: "en"})
	if err != nil {
		panic(err)
	}
	d.Add(detector.Doc{ID: "report", Text: report})
	d.Add(detector.Doc{ID: "wire", Text: report})
	var saved bytes.Buffer
	if _, err := d.WriteTo(&saved); err != nil {
		panic(err)
	}
	restored, err := codet.New(d.Config())
	if err != nil {
		panic(err)
	}
	if _, err := restored.ReadFrom(&saved); err != nil {
		panic(err)
	}
	copies, _ := restored.Copies("report")
	fmt.Println("copies of report:", copies)
	ms, _ := restored.Query(detector.Doc{Text: article})
	fmt.Println("containers of the article:", len(ms))
	ms, _ = restored.Add(detector.Doc{ID: "article", Text: article})
	fmt.Println("containers of the article:", len(ms))
	ms, _ = restored.Containers("report")
	for _, m := range ms {
		fmt.Printf("%s %.2f\n", m.ID, m.Score)
	}
	// Output:
	// copies of report: [wire]
	// containers of the article: 0
	// containers of the article: 0
	// article 1.00
	// wire 1.00
}
