package detector_test

import (
	"bytes"
	"context"
	"fmt"
	"io"

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

// A service snapshots its detector and journals what it adds after the
// snapshot, naming the snapshot in the journal. On restart it loads the
// snapshot and replays the journal; a journal file that went missing is
// refused, not replayed with a hole.
func ExampleReplayContext() {
	ctx := context.Background()
	docs := []detector.Doc{
		{ID: "a", Text: "the council approved the new budget on monday after a long debate"},
		{ID: "b", Text: "morning briefing: the council approved the new budget on monday after a long debate"},
		{ID: "c", Text: "evening briefing: the council approved the new budget on monday after a long debate"},
	}
	d := naive.New(naive.Config{})
	if _, err := d.Add(docs[0]); err != nil {
		panic(err)
	}
	var snapshot bytes.Buffer // files, in a service
	var files [2]bytes.Buffer
	id, _, err := detector.WriteSnapshot(d, &snapshot)
	if err != nil {
		panic(err)
	}
	journal := detector.NewJournalAt(&files[0], id, 0)
	for i, doc := range docs[1:] {
		if i == 1 { // a new journal file
			journal = detector.NewJournalAt(&files[1], id, journal.Records())
		}
		if _, err := d.Add(doc); err != nil {
			panic(err)
		}
		if err := journal.Add(doc); err != nil {
			panic(err)
		}
	}

	restart := func(journal io.Reader) {
		restarted := naive.New(naive.Config{})
		id, _, err := detector.ReadSnapshot(ctx, restarted, bytes.NewReader(snapshot.Bytes()))
		if err != nil {
			panic(err)
		}
		st, err := detector.ReplayContext(ctx, journal, restarted, id)
		fmt.Printf("%d documents, %d records replayed, err %v\n", restarted.Len(), st.Records(), err)
	}
	restart(io.MultiReader(bytes.NewReader(files[0].Bytes()), bytes.NewReader(files[1].Bytes())))
	restart(bytes.NewReader(files[1].Bytes())) // the first file lost
	// Output:
	// 3 documents, 2 records replayed, err <nil>
	// 1 documents, 0 records replayed, err detector: Replay: the journal segment at offset 0 starts at record 1: record 0 is missing: journal does not continue the detector's state
}
