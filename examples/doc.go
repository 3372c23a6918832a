// Package examples holds runnable programs that use the library; the library
// itself does no I/O. Run them from the repository root; -h tells what each
// does, what it reads and how long it runs:
//
//	go run ./examples/newsdedup   # every detector over an embedded Turkish/English news stream
//	go run ./examples/service     # snapshot, journal, SIGKILL, restart: nothing lost
//	go run ./examples/compose     # a MinHash cascade in front of full fingerprinting, against it alone
//	go run ./examples/stream      # a detector in a bounded window over a long stream: flat memory (-svg draws it)
//	go run ./examples/related     # the stories nearest to one story, with scores and (codet) the sentences they share
//	go run ./examples/evaluate    # precision, recall and F1 on a labelled collection; -sweep draws them against an option
//	go run ./examples/table       # the README's comparison table of every detector
//	go run ./examples/scale       # CPU per Add and live bytes per document as the collection grows
//	go run ./examples/defaults    # the procedure that chose every default
//
// Programs that read the labelled collections find them in ../shared/data
// beside the repository root, or where $NEARDUP_DATA says, and say so when
// they are absent. Results go to stdout, progress to stderr.
package examples
