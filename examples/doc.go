// Package examples holds runnable programs that use the library; the library
// itself does no I/O. Run them from the repository root:
//
//	go run ./examples/newsdedup   # every detector over an embedded news stream
//	go run ./examples/service     # snapshot, journal, SIGKILL, restart: nothing lost
//	go run ./examples/evaluate    # precision, recall and F1 on a labelled collection
//	go run ./examples/defaults    # the procedure that chose every default
//
// Programs that read the labelled collections of ../shared/data say so when
// the directory is absent.
package examples
