package detector

import (
	"bufio"
	"bytes"
)

// JournalHeaders returns the number of segment headers among the whole
// records of b.
func JournalHeaders(b []byte) int {
	br := bufio.NewReader(bytes.NewReader(b))
	var rec record
	var buf []byte
	headers, numbered := 0, false
	for {
		if _, err := readRecord(br, numbered, &rec, &buf); err != nil {
			return headers
		}
		if rec.op == opHeader {
			headers, numbered = headers+1, true
		}
	}
}
