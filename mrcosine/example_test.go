package mrcosine_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/mrcosine"
)

const (
	storm = "A powerful storm swept across the northern coast on Monday, cutting power to thousands of homes and forcing the closure of two ports. Emergency services said three people were injured by falling trees."
	// The same report as syndicated by another site: a new dateline and a
	// few words changed.
	stormCopy = "ISTANBUL (Reuters) - A powerful storm swept across the northern coast on Monday, cutting electricity to thousands of homes and forcing the closure of two ports. Emergency crews said three people were hurt by falling trees."
	budget    = "The finance ministry presented next year's budget to parliament, projecting a deficit of 2.1 percent of GDP and higher spending on schools, hospitals and rail lines."
)

// Example finds a syndicated copy of a news report with the default
// reference text.
func Example() {
	d, err := mrcosine.New(mrcosine.Config{})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	for _, doc := range []detector.Doc{{ID: "storm", Text: storm}, {ID: "budget", Text: budget}, {ID: "storm-copy", Text: stormCopy}} {
		ms, _ := d.Add(doc)
		for _, m := range ms {
			fmt.Printf("%s ~ %s: %.2f (%s)\n", doc.ID, m.ID, m.Score, d.Classify(m.Score))
		}
	}
	// Output:
	// storm-copy ~ storm: 0.92 (near-duplicate)
}

func ExampleNew() {
	// A stricter detector: only pairs of signature cosine ≥ 0.95 are
	// reported, ≥ 0.99 count as duplicates.
	d, err := mrcosine.New(mrcosine.Config{T1: 0.99, T2: 0.95})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	cfg := d.Config()
	fmt.Println(cfg.T1, cfg.T2, d.Reference().Parts())

	_, err = mrcosine.New(mrcosine.Config{T1: 0.5, T2: 0.9})
	fmt.Println(err)
	// Output:
	// 0.99 0.95 150
	// mrcosine: T1 (0.5) must be in [T2 (0.9), 1]: invalid config
}

func ExampleDetector_Containers() {
	d, _ := mrcosine.New(mrcosine.Config{})
	defer d.Close()
	d.Add(detector.Doc{ID: "storm", Text: storm})
	d.Add(detector.Doc{ID: "budget", Text: budget})
	// Containers also sees documents added later.
	d.Add(detector.Doc{ID: "storm-copy", Text: stormCopy})
	ms, _ := d.Containers("storm")
	fmt.Println(len(ms), ms[0].ID)
	// Output:
	// 1 storm-copy
}

// ExampleDetector_WriteTo saves a detector's documents and loads them into
// a new detector made with the same Config and reference text, which
// answers as the first one would; exact copies stay grouped.
func ExampleDetector_WriteTo() {
	d, _ := mrcosine.New(mrcosine.Config{})
	d.Add(detector.Doc{ID: "storm", Text: storm})
	d.Add(detector.Doc{ID: "storm-again", Text: storm})
	d.Add(detector.Doc{ID: "budget", Text: budget})
	var buf bytes.Buffer
	if _, err := d.WriteTo(&buf); err != nil {
		panic(err)
	}

	restored, _ := mrcosine.New(mrcosine.Config{})
	if _, err := restored.ReadFrom(&buf); err != nil {
		panic(err)
	}
	copies, _ := restored.Copies("storm")
	fmt.Println(restored.Len(), copies)
	ms, _ := restored.Add(detector.Doc{ID: "storm-copy", Text: stormCopy})
	for _, m := range ms {
		fmt.Printf("%s %.2f\n", m.ID, m.Score)
	}
	// Output:
	// 3 [storm-again]
	// storm 0.92
	// storm-again 0.92
}

// ExampleTrain builds a small reference text from a caller's collection and
// uses it to sign documents.
func ExampleTrain() {
	texts := []string{storm, stormCopy, budget,
		"Wheat prices rose on the Chicago exchange after dry weather hurt crops in Kansas.",
		"The central bank kept its key interest rate unchanged and said inflation was easing.",
		"Shares of the carmaker fell 4 percent after it cut its sales forecast for the year.",
		"Parliament approved a new law on water use after months of debate.",
		"Rescue teams reached the village cut off by floods on Sunday.",
	}
	cfg := mrcosine.TrainConfig{Genes: 40, Parts: 8, Population: 10, Generations: 5, PoolSize: 200, Seed: 1}
	generations := 0
	ref, err := mrcosine.Train(context.Background(), texts, cfg, func(p mrcosine.Progress) {
		if !p.Final {
			generations++
		}
	})
	if err != nil {
		panic(err)
	}
	a, b := ref.Signature(storm), ref.Signature(stormCopy)
	fmt.Println(generations, len(ref.Genes()), len(a), mrcosine.Cosine(a, b) > 0.9)
	// Output:
	// 6 40 8 true
}
