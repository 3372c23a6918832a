package detector

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/zeebo/xxh3"
)

// ErrJournal is wrapped by [Replay] for input that is not a journal this
// version writes: a bad record mark, a checksum that does not match, a
// length over the limit or a non-canonical length. A torn last record (a
// write cut short) is not an error: Replay drops it and reports it.
var ErrJournal = errors.New("corrupt journal")

// Journal record layout, lengths as canonical unsigned varints:
//
//	mark     1 byte, 0xA7
//	op       1 byte: 'A' add, 'R' remove, 'P' add at a position,
//	         'X' expire before a position (a [Window]'s AddAt and ExpireBefore)
//	len(id)                         0 in an expire record, and only there
//	len(text)                       0 in a remove or expire record
//	pos                             in 'P' and 'X' records only: zig-zag varint
//	header   4 bytes: the low 32 bits of xxh3-64 of op through pos, little endian
//	id, text
//	sum      8 bytes: xxh3-64 of op through text (header included), little endian
//
// The header checksum lets Replay trust the lengths before it reads what
// they announce, so a damaged length is an error while a record whose end
// is missing can only be a write cut short.
const (
	journalMark = 0xA7
	opAdd       = 'A'
	opRemove    = 'R'
	opAddAt     = 'P'
	opExpire    = 'X'
	// maxJournalID bounds an ID read back from a journal.
	maxJournalID = 1 << 20
)

// Journal appends a record of every Add and Remove a service applies to a
// detector, so that a snapshot plus the journal written since reproduces
// the detector ([Replay]). The library does no I/O: the caller supplies
// the writer (a file opened for append, a log service, ...) and decides
// when to sync it.
//
// Each record is written with one Write call and carries its own checksum.
// Record the operations in the order the detector applied them and only
// once they succeeded: detectors are deterministic, so replaying the same
// successful operations in the same order rebuilds the same state. With
// concurrent writers that means holding one lock across the detector call
// and the journal call, or accepting that concurrent Adds replay in the
// journal's order.
//
// A Journal is safe for concurrent use.
type Journal struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

// NewJournal returns a Journal that appends records to w.
func NewJournal(w io.Writer) *Journal { return &Journal{w: w} }

// Add records that d was added.
func (j *Journal) Add(d Doc) error { return j.write(opAdd, d.ID, d.Text, 0) }

// Remove records that id was removed.
func (j *Journal) Remove(id string) error { return j.write(opRemove, id, "", 0) }

// AddAt records that d was added to a [Window] at position pos.
func (j *Journal) AddAt(d Doc, pos int64) error { return j.write(opAddAt, d.ID, d.Text, pos) }

// ExpireBefore records that a [Window] expired the documents before pos.
func (j *Journal) ExpireBefore(pos int64) error { return j.write(opExpire, "", "", pos) }

func (j *Journal) write(op byte, id, text string, pos int64) error {
	if id == "" && op != opExpire {
		return fmt.Errorf("detector: Journal: %w", ErrEmptyID)
	}
	if len(id) > maxJournalID {
		return fmt.Errorf("detector: Journal: ID of %d bytes (limit %d): %w", len(id), maxJournalID, ErrTooLarge)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	b := append(j.buf[:0], journalMark, op)
	b = binary.AppendUvarint(b, uint64(len(id)))
	b = binary.AppendUvarint(b, uint64(len(text)))
	if op == opAddAt || op == opExpire {
		b = binary.AppendUvarint(b, zigzag(pos))
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(xxh3.Hash(b[1:])))
	b = append(b, id...)
	b = append(b, text...)
	b = binary.LittleEndian.AppendUint64(b, xxh3.Hash(b[1:]))
	_, err := j.w.Write(b)
	if cap(b) <= 1<<20 {
		j.buf = b // keep an ordinary buffer; let an outlier's go
	}
	if err != nil {
		return fmt.Errorf("detector: Journal: %w", err)
	}
	return nil
}

// Replayed reports what [Replay] read.
type Replayed struct {
	// Adds, Removes and Expires count the records applied (Adds
	// includes AddAt records).
	Adds, Removes, Expires int
	// Offset is the length of the journal's whole records: the point at
	// which a service truncates its file after a torn tail.
	Offset int64
	// Torn is the length of an incomplete last record that Replay dropped
	// (0 if the journal ended at a record boundary).
	Torn int64
}

// Replay applies the records of a journal written by [Journal] to d, in
// order, and stops at the end of r. A last record cut short is dropped and
// counted in Torn, never applied. A record that is complete but damaged
// stops the replay with an error wrapping [ErrJournal]; an error of d (a
// journal that does not match the snapshot d was restored from, for
// example) stops it with d's error. Texts longer than maxText bytes (0
// means [DefaultMaxTextBytes]) are an ErrJournal error: a damaged length
// never becomes a huge allocation. The Replayed value says how far it got
// in every case. AddAt and ExpireBefore records need d to be a [Window]
// (or to have its methods); a Window's OnEvict runs again for the
// documents those records evict, so a service should treat the hook as
// idempotent.
func Replay(r io.Reader, d Detector, maxText int) (Replayed, error) {
	if maxText <= 0 {
		maxText = DefaultMaxTextBytes
	}
	rm, _ := d.(Remover)
	br := bufio.NewReader(r)
	var st Replayed
	var rec []byte
	for {
		op, id, text, pos, n, err := readRecord(br, maxText, &rec)
		switch {
		case err == io.EOF && n == 0:
			return st, nil
		case err == io.ErrUnexpectedEOF:
			st.Torn = int64(n)
			return st, nil
		case err != nil:
			return st, fmt.Errorf("detector: Replay: record at offset %d: %w", st.Offset, err)
		}
		switch op {
		case opAdd:
			if _, err := d.Add(Doc{ID: id, Text: text}); err != nil {
				return st, fmt.Errorf("detector: Replay: add %q at offset %d: %w", id, st.Offset, err)
			}
			st.Adds++
		case opRemove:
			if rm == nil {
				return st, fmt.Errorf("detector: Replay: remove %q at offset %d: %T cannot remove: %w", id, st.Offset, d, errors.ErrUnsupported)
			}
			if err := rm.Remove(id); err != nil {
				return st, fmt.Errorf("detector: Replay: remove %q at offset %d: %w", id, st.Offset, err)
			}
			st.Removes++
		case opAddAt:
			w, ok := d.(interface {
				AddAt(Doc, int64) ([]Match, error)
			})
			if !ok {
				return st, fmt.Errorf("detector: Replay: add %q at %d, offset %d: %T has no AddAt: %w", id, pos, st.Offset, d, errors.ErrUnsupported)
			}
			if _, err := w.AddAt(Doc{ID: id, Text: text}, pos); err != nil {
				return st, fmt.Errorf("detector: Replay: add %q at %d, offset %d: %w", id, pos, st.Offset, err)
			}
			st.Adds++
		case opExpire:
			w, ok := d.(interface{ ExpireBefore(int64) (int, error) })
			if !ok {
				return st, fmt.Errorf("detector: Replay: expire before %d at offset %d: %T has no ExpireBefore: %w", pos, st.Offset, d, errors.ErrUnsupported)
			}
			if _, err := w.ExpireBefore(pos); err != nil {
				return st, fmt.Errorf("detector: Replay: expire before %d at offset %d: %w", pos, st.Offset, err)
			}
			st.Expires++
		}
		st.Offset += int64(n)
	}
}

// readRecord reads one record into *buf and returns its fields and its
// length in bytes. It returns io.EOF with n == 0 at a clean end, and
// io.ErrUnexpectedEOF with n > 0 for a record cut short.
func readRecord(br *bufio.Reader, maxText int, buf *[]byte) (op byte, id, text string, pos int64, n int, err error) {
	b := (*buf)[:0]
	defer func() { *buf = b[:0] }()
	fail := func(err error) (byte, string, string, int64, int, error) { return 0, "", "", 0, n, err }
	mark, err := br.ReadByte()
	if err != nil {
		return fail(err)
	}
	n = 1
	if mark != journalMark {
		return fail(fmt.Errorf("record mark %#x: %w", mark, ErrJournal))
	}
	if op, err = br.ReadByte(); err != nil {
		return fail(short(err))
	}
	n++
	if op != opAdd && op != opRemove && op != opAddAt && op != opExpire {
		return fail(fmt.Errorf("record kind %#x: %w", op, ErrJournal))
	}
	b = append(b, op)
	var lens [2]uint64
	for i := range lens {
		l, k, err := readUvarint(br)
		n += k
		if err != nil {
			return fail(err)
		}
		lens[i] = l
		b = binary.AppendUvarint(b, l)
	}
	if op == opAddAt || op == opExpire {
		z, k, err := readUvarint(br)
		n += k
		if err != nil {
			return fail(err)
		}
		pos = unzigzag(z)
		b = binary.AppendUvarint(b, z)
	}
	var hdr [4]byte
	k, err := io.ReadFull(br, hdr[:])
	n += k
	if err != nil {
		return fail(short(err))
	}
	switch {
	case binary.LittleEndian.Uint32(hdr[:]) != uint32(xxh3.Hash(b)):
		return fail(fmt.Errorf("header checksum mismatch: %w", ErrJournal))
	case op == opExpire && lens[0]+lens[1] != 0:
		return fail(fmt.Errorf("expire record with an ID or a text: %w", ErrJournal))
	case lens[0] == 0 && op != opExpire:
		return fail(fmt.Errorf("empty ID: %w", ErrJournal))
	case lens[0] > maxJournalID || lens[1] > uint64(maxText):
		return fail(fmt.Errorf("ID of %d bytes, text of %d (limits %d, %d): %w", lens[0], lens[1], maxJournalID, maxText, ErrJournal))
	case op == opRemove && lens[1] != 0:
		return fail(fmt.Errorf("remove record with a text: %w", ErrJournal))
	}
	b = append(b, hdr[:]...)
	start := len(b)
	b = append(b, make([]byte, lens[0]+lens[1]+8)...)
	k, err = io.ReadFull(br, b[start:])
	n += k
	if err != nil {
		return fail(short(err))
	}
	body, sum := b[:len(b)-8], b[len(b)-8:]
	if binary.LittleEndian.Uint64(sum) != xxh3.Hash(body) {
		return fail(fmt.Errorf("checksum mismatch: %w", ErrJournal))
	}
	id = string(body[start : start+int(lens[0])])
	text = string(body[start+int(lens[0]):])
	return op, id, text, pos, n, nil
}

// readUvarint reads a canonical unsigned varint (the shortest encoding),
// returning the bytes it consumed.
func readUvarint(br *bufio.Reader) (uint64, int, error) {
	var x uint64
	for i := 0; ; i++ {
		c, err := br.ReadByte()
		if err != nil {
			return 0, i, short(err)
		}
		if i == binary.MaxVarintLen64-1 && c > 1 {
			return 0, i + 1, fmt.Errorf("length overflows 64 bits: %w", ErrJournal)
		}
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			if c == 0 && i > 0 {
				return 0, i + 1, fmt.Errorf("non-canonical length: %w", ErrJournal)
			}
			return x, i + 1, nil
		}
	}
}

// short maps the end of input inside a record to io.ErrUnexpectedEOF (a
// torn record) and keeps any other read error.
func short(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
