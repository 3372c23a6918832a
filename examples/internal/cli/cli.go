// Package cli holds what the example programs share on the command line:
// the text -h prints before the flags, and progress lines on stderr for
// the programs that run longer than a few seconds.
package cli

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"
)

// LiveHeap returns the bytes of live heap objects after two full
// collections (the second drops what sync.Pools kept through the first):
// what the programs that report memory per document subtract.
func LiveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// DataNote is the sentence a program that reads the labelled collections
// puts in its usage text.
const DataNote = "The labelled collections are read from ../shared/data beside the repository root, or from the directory $NEARDUP_DATA names."

// Usage describes a program for its -h.
type Usage struct {
	// Synopsis is the command line, e.g. "go run ./examples/stream [flags]".
	Synopsis string
	// Does says what the program does, in a sentence or two.
	Does string
	// Reads says what it reads (files, embedded data).
	Reads string
	// Takes says how long its default invocation runs, and where it was
	// measured.
	Takes string
	// Examples are further command lines, one a line.
	Examples []string
}

// Write prints the usage text, then fs's flags.
func (u Usage) Write(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: %s\n\n", u.Synopsis)
	for _, p := range []string{u.Does, u.Reads, u.Takes} {
		if p != "" {
			fmt.Fprintf(w, "%s\n\n", wrap(p, 76))
		}
	}
	if len(u.Examples) > 0 {
		fmt.Fprintln(w, "Examples:")
		for _, e := range u.Examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "Flags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// Set makes u the usage text of the command line's flags ([flag.Usage]).
func Set(u Usage) {
	flag.Usage = func() { u.Write(flag.CommandLine.Output(), flag.CommandLine) }
}

// wrap breaks s into lines of at most width runes, at spaces.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		l := len([]rune(word))
		switch {
		case i == 0:
		case n+1+l > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += l
	}
	return b.String()
}

// Progress writes progress lines to a writer (stderr: results go to
// stdout), each with the time elapsed since [NewProgress]. It is safe for
// concurrent use; a nil *Progress writes nothing.
type Progress struct {
	w      io.Writer
	prefix string
	every  time.Duration

	mu          sync.Mutex
	start, last time.Time
}

// NewProgress returns a Progress writing to w, each line starting with
// prefix and a colon, [Progress.Tick] lines at most once per every.
func NewProgress(w io.Writer, prefix string, every time.Duration) *Progress {
	now := time.Now()
	return &Progress{w: w, prefix: prefix, every: every, start: now, last: now}
}

// Stage always writes a line: a stage has begun or ended.
func (p *Progress) Stage(format string, args ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.write(format, args...)
}

// Tick writes a line if the last one was written at least every ago.
func (p *Progress) Tick(format string, args ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.last) >= p.every {
		p.write(format, args...)
	}
}

// Docs returns a callback for [eval.Relations] that ticks "what: done/total
// documents"; nil if p is nil.
func (p *Progress) Docs(what string, total int) func(done int) {
	if p == nil {
		return nil
	}
	return func(done int) { p.Tick("%s: %d/%d documents", what, done, total) }
}

func (p *Progress) write(format string, args ...any) {
	p.last = time.Now()
	fmt.Fprintf(p.w, "%s: %s (%s elapsed)\n", p.prefix, fmt.Sprintf(format, args...), p.last.Sub(p.start).Round(100*time.Millisecond))
}
