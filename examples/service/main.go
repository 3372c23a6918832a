// Command service shows a detector a service can keep: it snapshots the
// detector (detector.WriteSnapshot), journals every Add after the snapshot
// (detector.NewJournalAt, which names the snapshot), is killed with SIGKILL
// in the middle of writing a journal record, and restarts from the snapshot
// and the journal (detector.ReadSnapshot, detector.ReplayContext, which
// checks that the journal continues the snapshot, detects the torn last
// record and drops it).
// It then checks that the restarted service answers exactly as one that
// never stopped.
//
//	go run ./examples/service [-detector NAME]
//
// The default detector is the first of neardup.Names() that implements
// detector.Persister ("reference", the exact baseline, if none does).
// State lives in a temporary directory, removed at the end.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seed-9ef9c1df/neardup"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/examples/internal/cli"
	"github.com/seed-9ef9c1df/neardup/examples/internal/sample"
)

// The child process is this program run again with these variables set.
const (
	envDir      = "NEARDUP_SERVICE_DIR"
	envDetector = "NEARDUP_SERVICE_DETECTOR"
)

const (
	snapshotAt = 10 // the first service snapshots after this many documents
	tornAt     = 17 // and is killed while journalling this document
)

var usage = cli.Usage{
	Synopsis: "go run ./examples/service [-detector NAME]",
	Does: "Shows a detector a service can keep: it snapshots the detector, journals every Add after the snapshot, " +
		"is killed with SIGKILL while it writes a journal record, restarts from the snapshot and the journal " +
		"(the torn last record dropped), and checks that it answers exactly as a service that never stopped.",
	Reads: "Reads the news sample embedded in the program; state lives in a temporary directory, removed at the end.",
	Takes: "The default invocation takes about a second on 2 cores.",
}

func main() {
	if os.Getenv(envDir) != "" {
		os.Exit(childMain())
	}
	name := flag.String("detector", "", "detector name (default: the first of neardup.Names() that persists)")
	cli.Set(usage)
	flag.Parse()
	if err := run(os.Stdout, *name); err != nil {
		fmt.Fprintln(os.Stderr, "service:", err)
		os.Exit(1)
	}
}

// stream is what clients send: the sample articles, then a copy of each.
func stream() []detector.Doc {
	var out []detector.Doc
	for _, a := range sample.Articles() {
		out = append(out, a.Doc())
	}
	for _, a := range sample.Articles() {
		out = append(out, detector.Doc{ID: a.ID + "/again", Text: a.Text})
	}
	return out
}

// defaultName returns the first named detector that implements Persister.
func defaultName() (string, error) {
	for _, name := range neardup.Names() {
		d, err := neardup.New(name, nil)
		if err != nil {
			return "", err
		}
		_, ok := d.(detector.Persister)
		d.Close()
		if ok {
			return name, nil
		}
	}
	return "reference", nil
}

// service is a detector kept in dir: snapshot.N holds its state after
// generation N's snapshot, journal.N every Add since. A new snapshot starts
// a new generation, so a crash while snapshotting leaves the previous
// generation whole.
type service struct {
	d       detector.Detector
	dir     string
	gen     int
	snap    detector.SnapshotID // the snapshot of generation gen
	file    *os.File
	journal *detector.Journal
}

func (s *service) path(kind string, gen int) string {
	return filepath.Join(s.dir, kind+"."+strconv.Itoa(gen))
}

// open restores the service from the latest generation in dir, printing
// what it restored to log (nil: silent).
func open(dir, name string, log io.Writer) (*service, error) {
	if log == nil {
		log = io.Discard
	}
	d, err := neardup.New(name, nil)
	if err != nil {
		return nil, err
	}
	s := &service{d: d, dir: dir}
	snaps, err := filepath.Glob(filepath.Join(dir, "snapshot.*"))
	if err != nil {
		return nil, err
	}
	for _, p := range snaps { // generation 0 has no snapshot
		if n, err := strconv.Atoi(strings.TrimPrefix(filepath.Ext(p), ".")); err == nil {
			s.gen = max(s.gen, n)
		}
	}
	if f, err := os.Open(s.path("snapshot", s.gen)); err == nil {
		var n int64
		s.snap, n, err = detector.ReadSnapshot(context.Background(), d.(detector.Persister), bufio.NewReader(f))
		f.Close()
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "restored snapshot.%d: %d bytes, %s documents\n", s.gen, n, count(d))
	}
	if s.file, err = os.OpenFile(s.path("journal", s.gen), os.O_RDWR|os.O_CREATE, 0o644); err != nil {
		return nil, err
	}
	st, err := detector.ReplayContext(context.Background(), s.file, d, s.snap)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "replayed journal.%d: %d adds, %d removes; torn last record of %d bytes dropped\n", s.gen, st.Adds, st.Removes, st.Torn)
	// Cut the torn tail so that new records follow the last whole one.
	if err := s.file.Truncate(st.Offset); err != nil {
		return nil, err
	}
	if _, err := s.file.Seek(st.Offset, io.SeekStart); err != nil {
		return nil, err
	}
	s.journal = detector.NewJournalAt(s.file, st.Snapshot, st.Records())
	return s, nil
}

// count returns the number of live documents of d, if it says.
func count(d detector.Detector) string {
	if l, ok := d.(interface{ Len() int }); ok {
		return strconv.Itoa(l.Len())
	}
	return "?"
}

// add indexes doc and journals it; the client is answered only once the
// record is on disk.
func (s *service) add(doc detector.Doc) ([]detector.Match, error) {
	ms, err := s.d.Add(doc)
	if err != nil {
		return nil, err
	}
	if err := s.journal.Add(doc); err != nil {
		return nil, err
	}
	return ms, s.file.Sync()
}

// snapshot writes generation gen+1 and removes generation gen.
func (s *service) snapshot() error {
	next := s.gen + 1
	tmp := s.path("snapshot", next) + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	id, _, err := detector.WriteSnapshot(s.d.(detector.Persister), w)
	err = errors.Join(err, w.Flush(), f.Sync(), f.Close())
	if err != nil {
		return err
	}
	journal, err := os.Create(s.path("journal", next))
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, s.path("snapshot", next)); err != nil {
		return err
	}
	s.file.Close()
	os.Remove(s.path("journal", s.gen))
	os.Remove(s.path("snapshot", s.gen))
	s.gen, s.snap, s.file, s.journal = next, id, journal, detector.NewJournalAt(journal, id, 0)
	return nil
}

func (s *service) close() error { return errors.Join(s.d.Close(), s.file.Close()) }

// childMain is the first service: it adds the stream, snapshots, and
// stops for good in the middle of writing a journal record.
func childMain() int {
	s, err := open(os.Getenv(envDir), os.Getenv(envDetector), nil)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	for i, doc := range stream()[:tornAt+1] {
		if i == snapshotAt {
			if err := s.snapshot(); err != nil {
				fmt.Println("error:", err)
				return 1
			}
		}
		if i == tornAt {
			// The disk takes half the record; the parent kills us then.
			s.journal = detector.NewJournalAt(tearing{s.file}, s.snap, s.journal.Records())
		}
		if _, err := s.add(doc); err != nil {
			fmt.Println("error:", err)
			return 1
		}
	}
	return 1 // unreachable: tearing never returns
}

// tearing writes the first half of a record, says so, and waits to be
// killed.
type tearing struct{ f *os.File }

func (t tearing) Write(b []byte) (int, error) {
	t.f.Write(b[:len(b)/2])
	fmt.Println("torn")
	for {
		time.Sleep(time.Hour)
	}
}

func run(stdout io.Writer, name string) error {
	if name == "" {
		var err error
		if name, err = defaultName(); err != nil {
			return err
		}
	}
	d, err := neardup.New(name, nil)
	if err != nil {
		return err
	}
	_, ok := d.(detector.Persister)
	d.Close()
	if !ok {
		return fmt.Errorf("detector %q does not implement detector.Persister", name)
	}
	dir, err := os.MkdirTemp("", "neardup-service-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintf(stdout, "detector %s\n", name)

	// 1. The first service runs in a child process until SIGKILL.
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envDir+"="+dir, envDetector+"="+name)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "torn\n" {
		cmd.Wait()
		return fmt.Errorf("child service: %q", line)
	}
	if err := cmd.Process.Kill(); err != nil {
		return err
	}
	cmd.Wait()
	fmt.Fprintf(stdout, "killed the service (SIGKILL) while it wrote the record of document %d; it had snapshotted after %d\n", tornAt+1, snapshotAt)

	// 2. Restart: snapshot + journal. The client resends what was not
	// acknowledged: the torn document onwards.
	s, err := open(dir, name, stdout)
	if err != nil {
		return err
	}
	defer s.close()
	docs := stream()
	var got [][]detector.Match
	for _, doc := range docs[tornAt:] {
		ms, err := s.add(doc)
		if err != nil {
			return err
		}
		got = append(got, ms)
	}

	// 3. A service that never stopped.
	ref, err := neardup.New(name, nil)
	if err != nil {
		return err
	}
	defer ref.Close()
	var want [][]detector.Match
	for i, doc := range docs {
		ms, err := ref.Add(doc)
		if err != nil {
			return err
		}
		if i >= tornAt {
			want = append(want, ms)
		}
	}
	for _, doc := range docs {
		a, err1 := s.d.Containers(doc.ID)
		b, err2 := ref.Containers(doc.ID)
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		got, want = append(got, a), append(want, b)
	}
	equal := slices.EqualFunc(got, want, slices.Equal)
	fmt.Fprintf(stdout, "%s documents live; %d answers (Adds after the restart, Containers of every document) equal an uninterrupted run's: %v\n",
		count(s.d), len(got), equal)
	if !equal {
		return errors.New("the restarted service answers differently")
	}
	return nil
}
