package dedup

import (
	"encoding/json"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths; gcs and others by their own import
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.Function2x1(parseDoc)
}

// ReadDocs reads JSONL files matching glob, one {"id": ..., "text": ...}
// object per line (other fields are ignored, blank lines skipped), as a
// PCollection of [Doc]. The pipeline fails on a line that is not a JSON
// object. Local paths work as they are; for another file system (gs://,
// s3://) import its package from beam/io/filesystem, as the Beam SDK's
// textio.Read requires (it panics on an unregistered scheme).
func ReadDocs(s beam.Scope, glob string) beam.PCollection {
	s = s.Scope("dedup.ReadDocs")
	return beam.ParDo(s, parseDoc, textio.Read(s, glob))
}

func parseDoc(line string, emit func(Doc)) error {
	if len(line) == 0 {
		return nil
	}
	var d Doc
	if err := json.Unmarshal([]byte(line), &d); err != nil {
		return fmt.Errorf("dedup: bad JSONL line %.80q: %w", line, err)
	}
	emit(d)
	return nil
}
