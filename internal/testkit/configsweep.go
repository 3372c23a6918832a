// The Config sweep: [Sweep] sets each numeric field of a Config (fields
// of nested structs included) in turn to 0, -1, 1, the largest and
// smallest values of its kind, half the largest, and for floats NaN and
// ±Inf. A Config the constructor accepts must then run a short workload
// (distinct documents, an exact copy, a truncated copy, an empty text,
// Containers, Remove and Close) without panicking, without returning a
// NaN or infinite score, within a time limit. The rule it enforces: New
// rejects what Add cannot survive.

package testkit

import (
	"fmt"
	"math"
	"reflect"
	"runtime/debug"
	"slices"
	"time"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// SweepCounts reports what a sweep did.
type SweepCounts struct {
	// Cases is the number of Configs tried.
	Cases int
	// Rejected is how many the constructor refused.
	Rejected int
	// Accepted is how many it built and that then ran the workload.
	Accepted int
}

// SweepTimeout bounds the workload of one accepted Config.
const SweepTimeout = 20 * time.Second

// Reporter is the part of *testing.T that Sweep uses.
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// Sweep sweeps every numeric field of base through the extreme values and
// builds a detector from each Config with build. It fails t when build
// panics, or when an accepted Config makes the workload panic, return a
// non-finite score or run over [SweepTimeout]. Fields named in skip (dotted
// paths such as "Text.MaxTextBytes") are left alone.
func Sweep[C any](t Reporter, base C, build func(C) (detector.Detector, error), skip ...string) SweepCounts {
	t.Helper()
	var c SweepCounts
	for _, f := range fields(reflect.TypeOf(base), nil, "") {
		if slices.Contains(skip, f.name) {
			continue
		}
		for _, v := range extremes(f.typ) {
			cfg := base
			rv := reflect.ValueOf(&cfg).Elem().FieldByIndex(f.index)
			rv.Set(v)
			c.Cases++
			label := fmt.Sprintf("%s=%v", f.name, v.Interface())
			d, err, panicked := construct(build, cfg)
			if panicked != nil {
				t.Errorf("%s: constructor %v", label, panicked)
				continue
			}
			if err != nil {
				c.Rejected++
				continue
			}
			c.Accepted++
			if err := Survives(d); err != nil {
				t.Errorf("%s: accepted by the constructor, then %v", label, err)
			}
		}
	}
	return c
}

type field struct {
	name  string
	index []int
	typ   reflect.Type
}

// fields lists the exported numeric fields of t, descending into structs.
func fields(t reflect.Type, index []int, prefix string) []field {
	var out []field
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		idx := append(append([]int(nil), index...), i)
		name := prefix + sf.Name
		switch sf.Type.Kind() {
		case reflect.Struct:
			out = append(out, fields(sf.Type, idx, name+".")...)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64:
			out = append(out, field{name: name, index: idx, typ: sf.Type})
		}
	}
	return out
}

// extremes returns the values tried for a field of type t.
func extremes(t reflect.Type) []reflect.Value {
	var vals []any
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		hi := int64(1)<<(bits-1) - 1
		vals = []any{int64(0), int64(-1), int64(1), hi, hi / 2, -hi - 1}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		bits := t.Bits()
		hi := uint64(1)<<(bits-1) - 1 + uint64(1)<<(bits-1)
		vals = []any{uint64(0), uint64(1), hi, hi / 2}
	case reflect.Float32, reflect.Float64:
		vals = []any{0.0, -1.0, 1.0, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64, 1e-300}
	}
	out := make([]reflect.Value, len(vals))
	for i, v := range vals {
		out[i] = reflect.ValueOf(v).Convert(t)
	}
	return out
}

// construct calls build, turning a panic into the third result.
func construct[C any](build func(C) (detector.Detector, error), cfg C) (d detector.Detector, err, panicked error) {
	defer func() {
		if r := recover(); r != nil {
			panicked = fmt.Errorf("panicked: %v\n%s", r, debug.Stack())
		}
	}()
	d, err = build(cfg)
	return d, err, nil
}

// Survives runs the sweep's short workload on d (distinct documents, an
// exact copy, a truncated copy, an empty text, Containers, Remove and
// Close) and returns an error if it panics, returns a NaN or infinite
// score or runs over [SweepTimeout]; errors d returns on purpose are not
// failures. It costs about fifteen Adds and Containers calls.
func Survives(d detector.Detector) error {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("panicked: %v\n%s", r, debug.Stack())
			}
		}()
		done <- workload(d)
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(SweepTimeout):
		return fmt.Errorf("workload still running after %v", SweepTimeout)
	}
}

// workload exercises d; errors the detector returns on purpose (for
// example ErrTooLarge under a tiny size limit) are not failures, only
// panics and non-finite scores are.
func workload(d detector.Detector) error {
	docs := dataset.SynthDocs(12, dataset.SynthConfig{Seed: 7, Vocabulary: 2000})
	first := docs[0]
	docs = append(docs,
		detector.Doc{ID: "copy", Text: first.Text},
		detector.Doc{ID: "part", Text: first.Text[:len(first.Text)/2]},
		detector.Doc{ID: "empty", Text: ""},
	)
	for _, doc := range docs {
		ms, err := d.Add(doc)
		if err != nil {
			continue
		}
		if err := finite("Add", ms); err != nil {
			return err
		}
	}
	for _, doc := range docs {
		ms, err := d.Containers(doc.ID)
		if err != nil {
			continue
		}
		if err := finite("Containers", ms); err != nil {
			return err
		}
	}
	if r, ok := d.(detector.Remover); ok {
		for _, doc := range docs[:4] {
			_ = r.Remove(doc.ID)
		}
		if _, err := d.Add(first); err == nil {
			_ = r.Remove(first.ID)
		}
	}
	return d.Close()
}

func finite(call string, ms []detector.Match) error {
	for _, m := range ms {
		if math.IsNaN(m.Score) || math.IsInf(m.Score, 0) {
			return fmt.Errorf("%s returned score %v for %q", call, m.Score, m.ID)
		}
	}
	return nil
}
