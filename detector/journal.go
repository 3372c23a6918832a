package detector

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/seed-9ef9c1df/neardup/internal/snapshot"
	"io"
	"sync"

	"github.com/zeebo/xxh3"
)

// ErrJournal is wrapped by [Replay] and [ReplayContext] for input that is
// not a journal this version reads: a bad record mark, a checksum that does
// not match, a length over the format's bound, a non-canonical length or an
// unknown format version. A torn last record (a write cut short) is not an
// error: Replay drops it and reports it.
var ErrJournal = errors.New("corrupt journal")

// ErrJournalGap is wrapped by [Replay] and [ReplayContext] for an intact
// journal that does not continue the state it is replayed onto: it follows
// another snapshot, or records are missing (at its start or between two
// segments), or a record repeats one already applied. The error names the
// snapshots or the missing record numbers. Replaying such a journal would
// leave the detector with a hole, so it stops before the first record out
// of place.
var ErrJournalGap = errors.New("journal does not continue the detector's state")

// Journal format, version 2. A journal is a sequence of segments; each
// segment is a header record followed by numbered records. Lengths are
// canonical unsigned varints.
//
//	header   mark 0xA7, op 'J'
//	         version   uvarint, 2
//	         snapshot  8 bytes, little endian: the SnapshotID the journal continues
//	         seq       uvarint: the number of the segment's first record
//	         sum       8 bytes: xxh3-64 of op through seq, little endian
//	record   mark 0xA7
//	         op        1 byte: 'A' add, 'R' remove, 'P' add at a position,
//	                   'X' expire before a position (a [Window]'s AddAt and ExpireBefore)
//	         seq       uvarint: the record's number, counted from 0 after the snapshot
//	         len(id)   0 in an expire record, and only there
//	         len(text) 0 in a remove or expire record
//	         pos       in 'P' and 'X' records only: zig-zag varint
//	         check     4 bytes: the low 32 bits of xxh3-64 of op through pos, little endian
//	         id, text
//	         sum       8 bytes: xxh3-64 of op through text (check included), little endian
//
// A Journal writes its segment's header with its first record, in one
// Write. The check lets Replay trust the lengths before it reads what they
// announce, so a damaged length is an error while a record whose end is
// missing can only be a write cut short; texts are read in pieces, so a
// length that passes the check by chance allocates no more than the journal
// holds.
//
// Version 1 (before headers) had no seq field and no header; Replay still
// reads its records, which carry nothing to check the state against, and a
// version 2 segment may follow them (a journal appended to after an
// upgrade).
const (
	journalMark    = 0xA7
	journalVersion = 2
	opHeader       = 'J'
	opAdd          = 'A'
	opRemove       = 'R'
	opAddAt        = 'P'
	opExpire       = 'X'
	// maxJournalID bounds an ID in a journal.
	maxJournalID = 1 << 20
	// maxJournalText bounds a text in a journal: the format's own bound,
	// far above any detector's MaxTextBytes, so that a record written under
	// one limit reads back under any other.
	maxJournalText = 1<<31 - 1
	// readPiece is the most Replay allocates ahead of the bytes it has read.
	readPiece = 1 << 20
)

// Journal appends a record of every Add and Remove a service applies to a
// detector, so that a snapshot plus the journal written since reproduces
// the detector ([ReplayContext]). The library does no I/O: the caller
// supplies the writer (a file opened for append, a log service, ...) and
// decides when to sync it.
//
// A journal names the snapshot it continues ([SnapshotID], from
// [WriteSnapshot]) and numbers its records from that snapshot on, so that
// a replay onto another snapshot, or with records missing, is an error
// ([ErrJournalGap]) instead of a detector with a hole. Each record is
// written with one Write call and carries its own checksum. A record whose
// Write fails still takes its number: the operation it records was
// applied, so a journal that goes on after the failure has a gap, and
// Replay reports it.
//
// Record the operations in the order the detector applied them and only
// once they succeeded: detectors are deterministic, so replaying the same
// successful operations in the same order rebuilds the same state. With
// concurrent writers that means holding one lock across the detector call
// and the journal call, or accepting that concurrent Adds replay in the
// journal's order.
//
// A Journal is safe for concurrent use.
type Journal struct {
	mu     sync.Mutex
	w      io.Writer
	buf    []byte
	snap   SnapshotID
	next   uint64 // the number the next record takes
	headed bool   // the segment's header is written
	v1     bool   // write format 1 (NewJournal)
}

// NewJournal returns a Journal that appends records of format version 1 to
// w: without a header or record numbers, as this package wrote them before
// version 2, so that a service that reopens its journal with NewJournal
// goes on as before. Replay cannot tell whether such a journal continues
// the detector or lost records; [NewJournalAt] writes one it can check.
func NewJournal(w io.Writer) *Journal { return &Journal{w: w, v1: true} }

// NewJournalAt returns a Journal that appends to w the records that follow
// the first n records after snapshot id: n is 0 for the journal of a
// snapshot just written ([WriteSnapshot]), [Replayed.Records] to go on
// with a journal after a restart (once its torn tail is truncated at
// [Replayed.Offset]), and [Journal.Records] to start a new segment in
// another file. Its first record is preceded by a segment header.
// NewJournalAt panics if n < 0.
func NewJournalAt(w io.Writer, id SnapshotID, n int64) *Journal {
	if n < 0 {
		panic(fmt.Sprintf("detector: NewJournalAt: negative record count %d", n))
	}
	return &Journal{w: w, snap: id, next: uint64(n)}
}

// Records returns the number of records written since the snapshot the
// journal continues, failed writes included: the n of [NewJournalAt] for
// a segment that continues this one.
func (j *Journal) Records() int64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return int64(j.next)
}

// Add records that d was added.
func (j *Journal) Add(d Doc) error { return j.write(opAdd, d.ID, d.Text, 0) }

// Remove records that id was removed.
func (j *Journal) Remove(id string) error { return j.write(opRemove, id, "", 0) }

// AddAt records that d was added to a [Window] at position pos.
func (j *Journal) AddAt(d Doc, pos int64) error { return j.write(opAddAt, d.ID, d.Text, pos) }

// ExpireBefore records that a [Window] expired the documents before pos.
func (j *Journal) ExpireBefore(pos int64) error { return j.write(opExpire, "", "", pos) }

func (j *Journal) write(op byte, id, text string, pos int64) error {
	switch {
	case id == "" && op != opExpire:
		return fmt.Errorf("detector: Journal: %w", ErrEmptyID)
	case len(id) > maxJournalID:
		return fmt.Errorf("detector: Journal: ID of %d bytes (limit %d): %w", len(id), maxJournalID, ErrTooLarge)
	case len(text) > maxJournalText:
		return fmt.Errorf("detector: Journal: text of %d bytes (limit %d): %w", len(text), maxJournalText, ErrTooLarge)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	b := j.buf[:0]
	if !j.headed && !j.v1 {
		b = appendHeader(b, j.snap, j.next)
	}
	b = appendRecord(b, !j.v1, j.next, op, id, text, pos)
	j.next++
	_, err := j.w.Write(b)
	if cap(b) <= 1<<20 {
		j.buf = b // keep an ordinary buffer; let an outlier's go
	}
	if err != nil {
		return fmt.Errorf("detector: Journal: record %d: %w", j.next-1, err)
	}
	j.headed = true
	return nil
}

// appendHeader appends a segment header.
func appendHeader(b []byte, snap SnapshotID, seq uint64) []byte {
	b = append(b, journalMark)
	at := len(b)
	b = append(b, opHeader)
	b = binary.AppendUvarint(b, journalVersion)
	b = binary.LittleEndian.AppendUint64(b, uint64(snap))
	b = binary.AppendUvarint(b, seq)
	return binary.LittleEndian.AppendUint64(b, xxh3.Hash(b[at:]))
}

// appendRecord appends a record, with its number seq if numbered (format
// 2) and without (format 1).
func appendRecord(b []byte, numbered bool, seq uint64, op byte, id, text string, pos int64) []byte {
	b = append(b, journalMark)
	at := len(b)
	b = append(b, op)
	if numbered {
		b = binary.AppendUvarint(b, seq)
	}
	b = binary.AppendUvarint(b, uint64(len(id)))
	b = binary.AppendUvarint(b, uint64(len(text)))
	if op == opAddAt || op == opExpire {
		b = binary.AppendUvarint(b, zigzag(pos))
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(xxh3.Hash(b[at:])))
	b = append(b, id...)
	b = append(b, text...)
	return binary.LittleEndian.AppendUint64(b, xxh3.Hash(b[at:]))
}

// Replayed reports what [ReplayContext] or [Replay] read.
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
	// Snapshot is the snapshot the journal continues: the one its header
	// names, or, for a journal without one (empty, or of format version 1),
	// the one ReplayContext was given (0 for Replay).
	Snapshot SnapshotID
}

// Records returns the number of records applied: the n of [NewJournalAt]
// that goes on with the journal.
func (st Replayed) Records() int64 { return int64(st.Adds + st.Removes + st.Expires) }

// ReplayContext applies the records of a journal written by [Journal] to
// d, in order, and stops at the end of r. d holds the snapshot after
// (as loaded by [ReadSnapshot]; 0 for a detector that started empty), and
// the journal must continue it: a journal whose header names another
// snapshot, or whose records are not numbered from 0 without a gap, stops
// the replay before the first record out of place with an error wrapping
// [ErrJournalGap]. The records of format version 1 ([NewJournal]) carry
// nothing to check: they are applied as they come.
//
// A last record cut short is dropped and counted in Torn, never applied. A
// record that is complete but damaged stops the replay with an error
// wrapping [ErrJournal]; an error of d stops it with d's error. Records
// were accepted when they were written: the detectors of this module apply
// them whatever their MaxTextBytes is now. AddAt and ExpireBefore records
// need d to be a [Window] (or to have its methods); a Window's OnEvict runs
// again for the documents those records evict, so a service should treat
// the hook as idempotent. The Replayed value says how far it got in every
// case.
//
// When ctx is done, ReplayContext stops before the next record, or while
// a Read of r blocks (that Read is left to finish on its own goroutine and
// its bytes are dropped), and returns an error wrapping ctx.Err(); d then
// holds the records before Offset, and is best discarded for a new replay
// from the snapshot. Time is that of the detector calls, plus one pass
// over r.
func ReplayContext(ctx context.Context, r io.Reader, d Detector, after SnapshotID) (Replayed, error) {
	return replay(ctx, r, d, after, true)
}

// Replay is [ReplayContext] without a context and without knowing the
// snapshot d was loaded from: it checks that no record is missing, from
// the journal's first record on, but not which snapshot the journal
// continues. maxText is not used: records were accepted when written, so
// the format alone bounds their texts (Replay of format version 1 took it
// as a limit, which made an intact journal written under a larger
// MaxTextBytes look corrupt).
func Replay(r io.Reader, d Detector, maxText int) (Replayed, error) {
	return replay(context.Background(), r, d, 0, false)
}

func replay(ctx context.Context, r io.Reader, d Detector, after SnapshotID, bound bool) (Replayed, error) {
	rm, _ := d.(Remover)
	if ctx.Done() != nil {
		r = newCtxReader(ctx, r)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	st := Replayed{Snapshot: after}
	var (
		rec      record
		buf      []byte
		count    uint64 // records applied
		numbered bool   // a header was read: records carry their number
		pending  int64  // bytes of a header not yet followed by a whole record
		before   = st.Snapshot
	)
	if seq, ok := headless(br); ok {
		if seq == 0 {
			return st, fmt.Errorf("detector: Replay: the journal starts with record 0 without its segment header, which names the snapshot it continues: %w", ErrJournalGap)
		}
		return st, fmt.Errorf("detector: Replay: the journal starts with record %d without its segment header: %w", seq, gap(seq, 0))
	}
	for {
		if err := ctx.Err(); err != nil {
			return st, fmt.Errorf("detector: Replay: stopped at offset %d: %w", st.Offset, err)
		}
		n, err := readRecord(br, numbered, &rec, &buf)
		at := st.Offset + pending
		switch {
		case err == io.EOF && n == 0, err == io.ErrUnexpectedEOF:
			// A header is written with its first record: without it,
			// the header is torn too.
			st.Torn = pending + int64(n)
			if pending > 0 {
				st.Snapshot = before
			}
			return st, nil
		case err != nil:
			return st, fmt.Errorf("detector: Replay: record at offset %d: %w", at, err)
		}
		if rec.op == opHeader {
			switch {
			case numbered && rec.snap != st.Snapshot:
				return st, fmt.Errorf("detector: Replay: the journal segment at offset %d continues %v, the segments before it %v: %w", at, rec.snap, st.Snapshot, ErrJournalGap)
			case bound && rec.snap != st.Snapshot:
				return st, fmt.Errorf("detector: Replay: the journal continues %v, the detector holds %v: %w", rec.snap, st.Snapshot, ErrJournalGap)
			case rec.seq != count:
				return st, fmt.Errorf("detector: Replay: the journal segment at offset %d starts at record %d: %w", at, rec.seq, gap(rec.seq, count))
			}
			before, st.Snapshot, numbered = st.Snapshot, rec.snap, true
			pending += int64(n)
			continue
		}
		if numbered && rec.seq != count {
			return st, fmt.Errorf("detector: Replay: record at offset %d is number %d: %w", at, rec.seq, gap(rec.seq, count))
		}
		if err := apply(d, rm, &rec, at); err != nil {
			return st, err
		}
		switch rec.op {
		case opAdd, opAddAt:
			st.Adds++
		case opRemove:
			st.Removes++
		case opExpire:
			st.Expires++
		}
		count++
		st.Offset = at + int64(n)
		pending = 0
	}
}

// headless reports whether the journal br starts with a record of format
// 2 that is not preceded by a header (the journal lost its start, header
// included), and the record's number. Such a record's check would not
// match as format 1, so without this Replay would call the journal
// corrupt.
func headless(br *bufio.Reader) (uint64, bool) {
	p, _ := br.Peek(2 + 4*binary.MaxVarintLen64 + 4)
	if len(p) < 2 || p[0] != journalMark {
		return 0, false
	}
	k := 2 // varints after op in format 1: len(id), len(text)
	switch p[1] {
	case opAdd, opRemove:
	case opAddAt, opExpire:
		k = 3 // and pos
	default:
		return 0, false
	}
	// check reports whether p starts with the fields of a record with n
	// varints after op and their check, and returns the first varint.
	check := func(n int) (uint64, bool) {
		q, first := p[2:], uint64(0)
		for i := range n {
			x, w := binary.Uvarint(q)
			if w <= 0 {
				return 0, false
			}
			if i == 0 {
				first = x
			}
			q = q[w:]
		}
		end := len(p) - len(q)
		return first, len(q) >= 4 && binary.LittleEndian.Uint32(q) == uint32(xxh3.Hash(p[1:end]))
	}
	if _, ok := check(k); ok {
		return 0, false // a record of format 1
	}
	return check(k + 1)
}

// gap describes a record numbered got where the record numbered want
// belongs.
func gap(got, want uint64) error {
	if got > want {
		if got == want+1 {
			return fmt.Errorf("record %d is missing: %w", want, ErrJournalGap)
		}
		return fmt.Errorf("records %d to %d are missing: %w", want, got-1, ErrJournalGap)
	}
	return fmt.Errorf("record %d was applied already (%d records are): %w", got, want, ErrJournalGap)
}

// apply applies one record to d; at is its offset, for errors.
func apply(d Detector, rm Remover, rec *record, at int64) error {
	id, text, pos := rec.id, rec.text, rec.pos
	switch rec.op {
	case opAdd:
		release := snapshot.MarkReplayed(text)
		_, err := d.Add(Doc{ID: id, Text: text})
		release()
		if err != nil {
			return fmt.Errorf("detector: Replay: add %q at offset %d: %w", id, at, err)
		}
	case opRemove:
		if rm == nil {
			return fmt.Errorf("detector: Replay: remove %q at offset %d: %T cannot remove: %w", id, at, d, errors.ErrUnsupported)
		}
		if err := rm.Remove(id); err != nil {
			return fmt.Errorf("detector: Replay: remove %q at offset %d: %w", id, at, err)
		}
	case opAddAt:
		w, ok := d.(interface {
			AddAt(Doc, int64) ([]Match, error)
		})
		if !ok {
			return fmt.Errorf("detector: Replay: add %q at %d, offset %d: %T has no AddAt: %w", id, pos, at, d, errors.ErrUnsupported)
		}
		release := snapshot.MarkReplayed(text)
		_, err := w.AddAt(Doc{ID: id, Text: text}, pos)
		release()
		if err != nil {
			return fmt.Errorf("detector: Replay: add %q at %d, offset %d: %w", id, pos, at, err)
		}
	case opExpire:
		w, ok := d.(interface{ ExpireBefore(int64) (int, error) })
		if !ok {
			return fmt.Errorf("detector: Replay: expire before %d at offset %d: %T has no ExpireBefore: %w", pos, at, d, errors.ErrUnsupported)
		}
		if _, err := w.ExpireBefore(pos); err != nil {
			return fmt.Errorf("detector: Replay: expire before %d at offset %d: %w", pos, at, err)
		}
	}
	return nil
}

// record is one record read back.
type record struct {
	op       byte
	seq      uint64 // a header's first record number, or a numbered record's own
	id, text string
	pos      int64
	snap     SnapshotID // a header's
}

// readRecord reads one record into *rec, using *buf, and returns its length
// in bytes; numbered says the records carry their number (format 2). It
// returns io.EOF with n == 0 at a clean end, and io.ErrUnexpectedEOF with
// n > 0 for a record cut short.
func readRecord(br *bufio.Reader, numbered bool, rec *record, buf *[]byte) (n int, err error) {
	b := (*buf)[:0]
	defer func() { *buf = b[:0] }()
	*rec = record{}
	mark, err := br.ReadByte()
	if err != nil {
		return 0, err
	}
	n = 1
	if mark != journalMark {
		return n, fmt.Errorf("record mark %#x: %w", mark, ErrJournal)
	}
	op, err := br.ReadByte()
	if err != nil {
		return n, short(err)
	}
	n++
	b = append(b, op)
	uvarint := func() (uint64, error) {
		x, k, err := readUvarint(br)
		n += k
		b = binary.AppendUvarint(b, x)
		return x, err
	}
	fixed := func(k int) ([]byte, error) {
		start := len(b)
		b = append(b, make([]byte, k)...)
		got, err := io.ReadFull(br, b[start:])
		n += got
		return b[start:], short(err)
	}
	switch op {
	case opHeader:
		version, err := uvarint()
		if err != nil {
			return n, err
		}
		snap, err := fixed(8)
		if err != nil {
			return n, err
		}
		if rec.seq, err = uvarint(); err != nil {
			return n, err
		}
		body := len(b)
		sum, err := fixed(8)
		if err != nil {
			return n, err
		}
		switch {
		case binary.LittleEndian.Uint64(sum) != xxh3.Hash(b[:body]):
			return n, fmt.Errorf("header checksum mismatch: %w", ErrJournal)
		case version != journalVersion:
			return n, fmt.Errorf("journal format version %d (this version reads 1 and %d): %w", version, journalVersion, ErrJournal)
		}
		rec.op, rec.snap = op, SnapshotID(binary.LittleEndian.Uint64(snap))
		return n, nil
	case opAdd, opRemove, opAddAt, opExpire:
	default:
		return n, fmt.Errorf("record kind %#x: %w", op, ErrJournal)
	}
	if numbered {
		if rec.seq, err = uvarint(); err != nil {
			return n, err
		}
	}
	var lens [2]uint64
	for i := range lens {
		if lens[i], err = uvarint(); err != nil {
			return n, err
		}
	}
	if op == opAddAt || op == opExpire {
		z, err := uvarint()
		if err != nil {
			return n, err
		}
		rec.pos = unzigzag(z)
	}
	head := len(b)
	check, err := fixed(4)
	if err != nil {
		return n, err
	}
	switch {
	case binary.LittleEndian.Uint32(check) != uint32(xxh3.Hash(b[:head])):
		return n, fmt.Errorf("header checksum mismatch: %w", ErrJournal)
	case op == opExpire && lens[0]+lens[1] != 0:
		return n, fmt.Errorf("expire record with an ID or a text: %w", ErrJournal)
	case lens[0] == 0 && op != opExpire:
		return n, fmt.Errorf("empty ID: %w", ErrJournal)
	case lens[0] > maxJournalID || lens[1] > maxJournalText:
		return n, fmt.Errorf("ID of %d bytes, text of %d (limits %d, %d): %w", lens[0], lens[1], maxJournalID, maxJournalText, ErrJournal)
	case op == opRemove && lens[1] != 0:
		return n, fmt.Errorf("remove record with a text: %w", ErrJournal)
	}
	// Read id, text and sum in pieces: a length that passed the check by
	// chance allocates no more than the journal holds.
	start := len(b)
	for left := int(lens[0] + lens[1] + 8); left > 0; {
		k := min(left, readPiece)
		if _, err := fixed(k); err != nil {
			return n, err
		}
		left -= k
	}
	body, sum := b[:len(b)-8], b[len(b)-8:]
	if binary.LittleEndian.Uint64(sum) != xxh3.Hash(body) {
		return n, fmt.Errorf("checksum mismatch: %w", ErrJournal)
	}
	rec.op = op
	rec.id = string(body[start : start+int(lens[0])])
	rec.text = string(body[start+int(lens[0]):])
	return n, nil
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
