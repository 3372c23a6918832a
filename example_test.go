package neardup_test

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup"
	"github.com/seed-9ef9c1df/neardup/detector"
)

// A service that reads its detector from configuration builds it by name.
func ExampleNew() {
	d, err := neardup.New("ffp", map[string]string{"Language": "en", "Threshold": "0.5"})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	story := "The city council approved the new budget on Monday after a long debate. " +
		"Spending on schools rises by four percent and the bus network gets twelve new lines. " +
		"The mayor said the plan keeps taxes flat for a third year."
	roundup := "Morning briefing. " + story + " In sport, the home team won again on Sunday night."
	if _, err := d.Add(detector.Doc{ID: "story", Text: story}); err != nil {
		panic(err)
	}
	if _, err := d.Add(detector.Doc{ID: "roundup", Text: roundup}); err != nil {
		panic(err)
	}
	ms, err := d.Containers("story")
	if err != nil {
		panic(err)
	}
	for _, m := range ms {
		fmt.Printf("story is contained in %s (%.2f)\n", m.ID, m.Score)
	}
	_, err = neardup.New("ffp", map[string]string{"Method": "2"})
	fmt.Println(err)
	// Output:
	// story is contained in roundup (1.00)
	// neardup: ffp: option Method is fixed by the name (use another name): invalid config
}

// Options are the Config fields a name reads, set by strings: choices by
// name (or number), numbers in decimal. A field the name does not read is
// an error that lists the ones it does.
func ExampleNew_options() {
	d, err := neardup.New("minhash-weighted", map[string]string{
		"Language": "en", "Content": "all", "Sampler": "icws", "Threshold": " 0.2",
	})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	_, err = neardup.New("ffp", map[string]string{"ChainLength": "2"})
	fmt.Println(err)
	_, err = neardup.New("minhash", map[string]string{"NumHashes": "0x80"})
	fmt.Println(err)
	// Output:
	// neardup: ffp: option ChainLength is not used by ffp (its options: Language, KeepStopwords, Stemmer, PrefixLen, Threshold, Shingle, MinOverlap, Content, MaxTextBytes, MaxResults): invalid config
	// neardup: minhash: option NumHashes: "0x80" is not a number (want a decimal integer in [0, 4096]): invalid config
}
