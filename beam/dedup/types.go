package dedup

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// Doc is one input document: the (id, text) of a JSONL line.
type Doc struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// Pair is a near-duplicate pair, A < B by byte order, with the similarity
// the pipeline verified (0 when verification is off).
type Pair struct {
	A, B  string
	Score float64
}

// Contained reports that Container contains Doc: the fraction Score of
// Doc's shingles found in Container reached the threshold.
type Contained struct {
	Doc, Container string
	Score          float64
}

// Label assigns a document to a cluster, named by the smallest ID in it.
type Label struct {
	ID, Cluster string
}

// The element types of the pipelines, registered so that workers of a
// distributed runner decode them by name.
func init() {
	for _, t := range []any{Doc{}, Pair{}, Contained{}, Label{}, Signed{}, sized{}, member{}, half{}, posting{}, Edge{}, termDF{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
}

// checkID returns an error wrapping detector.ErrEmptyID or
// detector.ErrInvalidConfig for an ID the pipelines cannot carry: empty, or
// holding a NUL byte (the separator of composite shuffle keys).
func checkID(id string) error {
	if id == "" {
		return fmt.Errorf("dedup: %w", detector.ErrEmptyID)
	}
	if strings.IndexByte(id, 0) >= 0 {
		return fmt.Errorf("dedup: document ID %q holds a NUL byte: %w", id, detector.ErrInvalidConfig)
	}
	return nil
}

// ordered returns a and b in byte order.
func ordered(a, b string) (string, string) {
	if b < a {
		return b, a
	}
	return a, b
}
