// Package snapshot writes and reads the framed, checksummed stream every
// detector's WriteTo and ReadFrom share; docs/snapshot.md in the
// repository describes the format.
//
// A stream is a header, named sections in a fixed order, and a trailer:
//
//	header  = "NEARDUP\x00" formatVersion:uvarint kind:str kindVersion:uvarint
//	          config:bytes tables:uvarint (name:str fingerprint:u64)* sum:u64
//	section = 'S' name:str payload:bytes sum:u64
//	trailer = 'T' sections:uvarint documents:uvarint sum:u64
//
// where str and bytes are a canonical uvarint length and the bytes, u64 is
// 8 bytes little endian, a header or section sum is xxh3-64 of its bytes
// after the magic or the 'S', and the trailer's sum is xxh3-64 of every
// byte before it. Readers accept only canonical encodings, so a stream that
// decodes re-encodes to the same bytes.
package snapshot

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/zeebo/xxh3"
)

// ErrSnapshot is the sentinel every error of a [Reader] wraps. Package
// detector exports it as ErrSnapshot; it is defined here so that
// package detector can use this package for its combinators' snapshots
// without an import cycle.
var ErrSnapshot = errors.New("not a readable snapshot")

// Magic opens every snapshot.
const Magic = "NEARDUP\x00"

// FormatVersion is the version of the framing this package writes and
// the only one it reads.
const FormatVersion = 1

// Header identifies what a snapshot holds.
type Header struct {
	// Kind names the detector ("minhash", "codet", ...), KindVersion the
	// version of its sections' layout.
	Kind        string
	KindVersion uint64
	// Config is the detector's effective Config; it is stored as JSON and
	// must equal the receiving detector's.
	Config any
	// Tables fingerprint the caller-owned tables the detector was built
	// with (an IDF table, a reference text), by name.
	Tables map[string]uint64
}

// Writer writes one snapshot. Errors are sticky: the first is returned by
// every later call.
type Writer struct {
	w        io.Writer
	hash     *xxh3.Hasher
	n        int64
	sections uint64
	err      error
	buf      []byte
}

// NewWriter writes the header of a snapshot to w.
func NewWriter(w io.Writer, h Header) *Writer {
	sw := &Writer{w: w, hash: xxh3.New()}
	cfg, err := json.Marshal(h.Config)
	if err != nil {
		sw.err = fmt.Errorf("snapshot: encoding the Config: %w", err)
		return sw
	}
	b := []byte(Magic)
	b = binary.AppendUvarint(b, FormatVersion)
	b = appendString(b, h.Kind)
	b = binary.AppendUvarint(b, h.KindVersion)
	b = appendString(b, string(cfg))
	b = binary.AppendUvarint(b, uint64(len(h.Tables)))
	for _, name := range slices.Sorted(maps.Keys(h.Tables)) {
		b = appendString(b, name)
		b = binary.LittleEndian.AppendUint64(b, h.Tables[name])
	}
	b = binary.LittleEndian.AppendUint64(b, xxh3.Hash(b[len(Magic):]))
	sw.write(b)
	return sw
}

// Section writes a named section.
func (w *Writer) Section(name string, payload []byte) {
	b := append(w.buf[:0], 'S')
	b = appendString(b, name)
	b = binary.AppendUvarint(b, uint64(len(payload)))
	h := xxh3.New()
	h.Write(b[1:])
	h.Write(payload)
	w.write(b)
	w.write(payload)
	w.write(binary.LittleEndian.AppendUint64(b[:0], h.Sum64()))
	w.buf = b[:0]
	w.sections++
}

// Finish writes the trailer with the number of documents the snapshot
// holds, and returns the bytes written in all.
func (w *Writer) Finish(documents uint64) (int64, error) {
	b := []byte{'T'}
	b = binary.AppendUvarint(b, w.sections)
	b = binary.AppendUvarint(b, documents)
	w.write(b)
	if w.err == nil {
		w.write(binary.LittleEndian.AppendUint64(nil, w.hash.Sum64()))
	}
	return w.n, w.err
}

func (w *Writer) write(b []byte) {
	if w.err != nil {
		return
	}
	w.hash.Write(b)
	n, err := w.w.Write(b)
	w.n += int64(n)
	if err != nil {
		w.err = fmt.Errorf("snapshot: %w", err)
	}
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Reader reads one snapshot. Every error wraps [ErrSnapshot]
// (read errors of the underlying reader too, which it also wraps).
type Reader struct {
	r        io.Reader
	hash     *xxh3.Hasher
	n        int64
	sections uint64
}

// NewReader reads the header of a snapshot from r and checks it against
// want: the magic, the format version, the kind and its version, every
// Config field and every table fingerprint. A difference is an error that
// names it.
func NewReader(r io.Reader, want Header) (*Reader, error) {
	sr := &Reader{r: r, hash: xxh3.New()}
	magic, err := sr.read(len(Magic))
	if err != nil {
		return nil, err
	}
	if string(magic) != Magic {
		return nil, corrupt("not a neardup snapshot (magic %q)", magic)
	}
	h := xxh3.New()
	tee := func(b []byte) []byte { h.Write(b); return b }
	version, err := sr.uvarint(tee)
	if err != nil {
		return nil, err
	}
	if version != FormatVersion {
		return nil, corrupt("format version %d (this library reads %d)", version, FormatVersion)
	}
	kind, err := sr.str(tee, 256)
	if err != nil {
		return nil, err
	}
	if kind != want.Kind {
		return nil, corrupt("a %q snapshot, not %q", kind, want.Kind)
	}
	kv, err := sr.uvarint(tee)
	if err != nil {
		return nil, err
	}
	if kv != want.KindVersion {
		return nil, corrupt("%s layout version %d (this library reads %d)", kind, kv, want.KindVersion)
	}
	cfg, err := sr.str(tee, 1<<20)
	if err != nil {
		return nil, err
	}
	nt, err := sr.uvarint(tee)
	if err != nil {
		return nil, err
	}
	if nt > 64 {
		return nil, corrupt("%d tables", nt)
	}
	tables := map[string]uint64{}
	prev := ""
	for i := range nt {
		name, err := sr.str(tee, 256)
		if err != nil {
			return nil, err
		}
		if i > 0 && name <= prev {
			return nil, corrupt("tables out of order")
		}
		prev = name
		fp, err := sr.read(8)
		if err != nil {
			return nil, err
		}
		tables[name] = binary.LittleEndian.Uint64(tee(fp))
	}
	sum, err := sr.read(8)
	if err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint64(sum) != h.Sum64() {
		return nil, corrupt("header checksum mismatch")
	}
	if err := sameConfig(cfg, want.Config); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(want.Tables)) {
		got, ok := tables[name]
		switch {
		case !ok:
			return nil, corrupt("written without the %s table the detector has", name)
		case got != want.Tables[name]:
			return nil, corrupt("written with another %s table (fingerprint %016x, the detector's %016x)", name, got, want.Tables[name])
		}
	}
	for name := range tables {
		if _, ok := want.Tables[name]; !ok {
			return nil, corrupt("written with a %s table the detector does not have", name)
		}
	}
	return sr, nil
}

// CallLimits are the Config fields that bound what a call accepts or
// returns but not what a detector stores: a snapshot loads into a detector
// whose limits differ, so that a service can change them across a restart.
var CallLimits = []string{"MaxResults", "MaxTextBytes"}

// sameConfig compares the stored Config with the detector's, except for
// CallLimits, naming the first differing field.
func sameConfig(stored string, want any) error {
	wb, err := json.Marshal(want)
	if err != nil {
		return fmt.Errorf("snapshot: encoding the Config: %w", err)
	}
	if stored == string(wb) {
		return nil
	}
	// Raw values: numbers decoded as float64 would make two seeds above
	// 2^53 compare equal.
	var a, b map[string]json.RawMessage
	if json.Unmarshal([]byte(stored), &a) != nil || json.Unmarshal(wb, &b) != nil {
		return corrupt("Config differs: snapshot %s, detector %s", stored, wb)
	}
	for _, k := range CallLimits {
		delete(a, k)
		delete(b, k)
	}
	keys := slices.Sorted(maps.Keys(b))
	for k := range a {
		if _, ok := b[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		x, _ := json.Marshal(a[k])
		y, _ := json.Marshal(b[k])
		if !bytes.Equal(x, y) {
			return corrupt("Config.%s is %s in the snapshot and %s in the detector", k, x, y)
		}
	}
	return nil
}

// Section reads the next section, which must be called name. Its payload
// is read in pieces, so a damaged length cannot allocate more than the
// stream holds.
func (r *Reader) Section(name string) ([]byte, error) {
	tag, err := r.read(1)
	if err != nil {
		return nil, err
	}
	if tag[0] != 'S' {
		return nil, corrupt("expected section %q, found tag %#x", name, tag[0])
	}
	h := xxh3.New()
	tee := func(b []byte) []byte { h.Write(b); return b }
	got, err := r.str(tee, 256)
	if err != nil {
		return nil, err
	}
	if got != name {
		return nil, corrupt("expected section %q, found %q", name, got)
	}
	n, err := r.uvarint(tee)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := io.CopyN(&buf, io.TeeReader(r.r, multi{r.hash, h}), int64(min(n, 1<<62))); err != nil {
		return nil, wrapRead(err)
	}
	r.n += int64(n)
	sum, err := r.read(8)
	if err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint64(sum) != h.Sum64() {
		return nil, corrupt("section %q checksum mismatch", name)
	}
	r.sections++
	return buf.Bytes(), nil
}

// Finish reads the trailer, checks the section count, the stream's
// checksum and that nothing follows, and returns the number of documents
// the trailer states and the bytes read in all.
func (r *Reader) Finish() (documents uint64, n int64, err error) {
	tag, err := r.read(1)
	if err != nil {
		return 0, r.n, err
	}
	if tag[0] != 'T' {
		return 0, r.n, corrupt("expected the trailer, found tag %#x", tag[0])
	}
	ns, err := r.uvarint(nil)
	if err != nil {
		return 0, r.n, err
	}
	if ns != r.sections {
		return 0, r.n, corrupt("trailer counts %d sections, read %d", ns, r.sections)
	}
	docs, err := r.uvarint(nil)
	if err != nil {
		return 0, r.n, err
	}
	want := r.hash.Sum64()
	sum, err := r.read(8)
	if err != nil {
		return 0, r.n, err
	}
	if binary.LittleEndian.Uint64(sum) != want {
		return 0, r.n, corrupt("stream checksum mismatch")
	}
	var one [1]byte
	if k, _ := io.ReadFull(r.r, one[:]); k != 0 {
		return 0, r.n, corrupt("bytes after the trailer")
	}
	return docs, r.n, nil
}

// read reads exactly n bytes, hashing them into the stream checksum.
func (r *Reader) read(n int) ([]byte, error) {
	b := make([]byte, n)
	k, err := io.ReadFull(r.r, b)
	r.n += int64(k)
	if err != nil {
		return nil, wrapRead(err)
	}
	r.hash.Write(b)
	return b, nil
}

// uvarint reads a canonical uvarint, passing its bytes to tee.
func (r *Reader) uvarint(tee func([]byte) []byte) (uint64, error) {
	var x uint64
	for i := 0; ; i++ {
		b, err := r.read(1)
		if err != nil {
			return 0, err
		}
		if tee != nil {
			tee(b)
		}
		c := b[0]
		if i == binary.MaxVarintLen64-1 && c > 1 {
			return 0, corrupt("varint overflows 64 bits")
		}
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			if c == 0 && i > 0 {
				return 0, corrupt("non-canonical varint")
			}
			return x, nil
		}
	}
}

// str reads a length-prefixed string of at most limit bytes.
func (r *Reader) str(tee func([]byte) []byte, limit int) (string, error) {
	n, err := r.uvarint(tee)
	if err != nil {
		return "", err
	}
	if n > uint64(limit) {
		return "", corrupt("string of %d bytes (limit %d)", n, limit)
	}
	b, err := r.read(int(n))
	if err != nil {
		return "", err
	}
	return string(tee(b)), nil
}

type multi [2]*xxh3.Hasher

func (m multi) Write(b []byte) (int, error) {
	m[0].Write(b)
	return m[1].Write(b)
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("snapshot: "+format+": %w", append(args, ErrSnapshot)...)
}

func wrapRead(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("snapshot: truncated: %w", ErrSnapshot)
	}
	return fmt.Errorf("snapshot: reading: %w (%w)", err, ErrSnapshot)
}

// ReadAll reads a whole snapshot of the sections names, in that order, and
// returns their payloads, the number of documents the trailer states and
// the bytes read: NewReader, Section for each name, then Finish.
func ReadAll(r io.Reader, want Header, names ...string) (payloads [][]byte, documents uint64, n int64, err error) {
	sr, err := NewReader(r, want)
	if err != nil {
		return nil, 0, 0, err
	}
	payloads = make([][]byte, len(names))
	for i, name := range names {
		if payloads[i], err = sr.Section(name); err != nil {
			return nil, 0, 0, err
		}
	}
	documents, n, err = sr.Finish()
	if err != nil {
		return nil, 0, 0, err
	}
	return payloads, documents, n, nil
}

// Load is the ReadFrom every detector shares. check says whether the
// detector can load (open and empty); the sections names are read in
// order; decode builds from their payloads a fresh state holding docs
// documents, which must be the trailer's count, and returns the function
// that installs it (under the detector's lock, checking again). Errors of
// reading, decoding and the count are prefixed "pkg: ReadFrom:"; those of
// check and install are returned as they are. It returns the bytes read.
func Load(pkg string, r io.Reader, want Header, names []string, check func() error,
	decode func(payloads [][]byte) (docs int, install func() error, err error)) (int64, error) {
	if err := check(); err != nil {
		return 0, err
	}
	fail := func(err error) (int64, error) { return 0, fmt.Errorf("%s: ReadFrom: %w", pkg, err) }
	payloads, trailer, n, err := ReadAll(r, want, names...)
	if err != nil {
		return fail(err)
	}
	docs, install, err := decode(payloads)
	if err != nil {
		return fail(err)
	}
	if trailer != uint64(docs) {
		return fail(corrupt("trailer counts %d documents, the sections hold %d", trailer, docs))
	}
	if err := install(); err != nil {
		return 0, err
	}
	return n, nil
}
