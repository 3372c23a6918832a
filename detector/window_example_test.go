package detector_test

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

// A window of two documents: the first one leaves when the third
// arrives, and the hook learns that a document added after it contains
// it.
func ExampleNewWindow() {
	w, err := detector.NewWindow(naive.New(naive.Config{}), detector.WindowConfig{
		Size: 2,
		OnEvict: func(id string, containers []detector.Match) {
			fmt.Printf("evicted %s, contained in %v\n", id, containers)
		},
	})
	if err != nil {
		panic(err)
	}
	defer w.Close()
	w.Add(detector.Doc{ID: "wire", Text: "the council approved the new budget on monday after a long debate"})
	w.Add(detector.Doc{ID: "digest", Text: "morning digest: the council approved the new budget on monday after a long debate; rain expected"})
	w.Add(detector.Doc{ID: "sport", Text: "a late header gave the visitors a two to one win in the cup semi-final"})
	fmt.Println("live:", w.Len())
	// Output:
	// evicted wire, contained in [{digest 1}]
	// live: 2
}
