package testkit

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

type inner struct{ Scale float64 }

type fakeConfig struct {
	Slots int
	Inner inner
	Name  string
}

// fake is a detector whose Add divides by Slots and scales scores by
// Inner.Scale: a constructor that checks nothing lets both through.
type fake struct {
	cfg fakeConfig
	detector.Detector
}

func (f fake) Add(d detector.Doc) ([]detector.Match, error) {
	_ = make([]int, 10/f.cfg.Slots) // panics on 0, and on -1
	ms, err := f.Detector.Add(d)
	for i := range ms {
		ms[i].Score *= f.cfg.Inner.Scale
	}
	return ms, err
}

type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func build(check bool) func(fakeConfig) (detector.Detector, error) {
	return func(c fakeConfig) (detector.Detector, error) {
		if check && (c.Slots < 1 || c.Slots > 10 || math.IsNaN(c.Inner.Scale) || math.IsInf(c.Inner.Scale, 0) || math.Abs(c.Inner.Scale) > 1) {
			return nil, errors.New("bad config")
		}
		return fake{cfg: c, Detector: naive.New(naive.Config{Symmetric: true, Threshold: 0.5})}, nil
	}
}

func TestRunCatchesUncheckedConfigs(t *testing.T) {
	var r recorder
	c := Sweep(&r, fakeConfig{Slots: 4, Inner: inner{Scale: 1}}, build(false))
	require.NotEmpty(t, r.errs, "a constructor that checks nothing must fail the sweep")
	joined := fmt.Sprint(r.errs)
	assert.Contains(t, joined, "Slots=0")
	assert.Contains(t, joined, "Inner.Scale=NaN")
	assert.Equal(t, c.Cases, c.Accepted)
}

func TestRunPassesCheckedConfigs(t *testing.T) {
	var r recorder
	c := Sweep(&r, fakeConfig{Slots: 4, Inner: inner{Scale: 1}}, build(true))
	assert.Empty(t, r.errs)
	assert.Equal(t, 6+9, c.Cases, "six int values, nine float values")
	assert.Positive(t, c.Rejected)
	assert.Positive(t, c.Accepted)
}

func TestSkip(t *testing.T) {
	var r recorder
	c := Sweep(&r, fakeConfig{Slots: 4, Inner: inner{Scale: 1}}, build(false), "Slots", "Inner.Scale")
	assert.Empty(t, r.errs)
	assert.Zero(t, c.Cases)
}
