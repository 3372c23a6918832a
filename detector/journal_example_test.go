package detector_test

import (
	"bytes"
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

// A service journals what it adds; after a crash cut the last record
// short, Replay rebuilds the detector from the whole records and says
// where to truncate the journal before appending again.
func ExampleReplay() {
	var file bytes.Buffer // a file opened for append, in a service
	journal := detector.NewJournal(&file)
	d := naive.New(naive.Config{})
	for _, doc := range []detector.Doc{
		{ID: "a", Text: "the council approved the new budget on monday after a long debate"},
		{ID: "b", Text: "morning briefing: the council approved the new budget on monday after a long debate"},
	} {
		if _, err := d.Add(doc); err != nil {
			panic(err)
		}
		if err := journal.Add(doc); err != nil {
			panic(err)
		}
	}
	crashed := file.Bytes()[:file.Len()-5] // the last write was cut short

	restarted := naive.New(naive.Config{})
	st, err := detector.Replay(bytes.NewReader(crashed), restarted, 0)
	fmt.Printf("adds %d, torn %d bytes, truncate at %d, err %v\n", st.Adds, st.Torn, st.Offset, err)
	// Output:
	// adds 1, torn 95 bytes, truncate at 82, err <nil>
}
