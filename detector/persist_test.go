package detector_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/internal/naive"
)

// shingleSet is a features type that encodes itself: a Cascade over it
// can persist.
type shingleSet map[uint64]struct{}

func (s shingleSet) MarshalBinary() ([]byte, error) {
	var b []byte
	for _, h := range slices.Sorted(maps.Keys(s)) {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	return b, nil
}

func (s *shingleSet) UnmarshalBinary(b []byte) error {
	if len(b)%8 != 0 {
		return errors.New("shingleSet: length not a multiple of 8")
	}
	*s = shingleSet{}
	for ; len(b) > 0; b = b[8:] {
		(*s)[binary.LittleEndian.Uint64(b)] = struct{}{}
	}
	return nil
}

func setFeatures(text string) shingleSet { return shingles(text) }

func setContainment(container, contained shingleSet) (float64, bool) {
	if len(contained) == 0 {
		return 0, false
	}
	n := 0
	for h := range contained {
		if _, ok := container[h]; ok {
			n++
		}
	}
	s := float64(n) / float64(len(contained))
	return s, s >= 0.6
}

// unencodable is a features type a Cascade cannot persist.
type unencodable struct{ set map[uint64]struct{} }

func TestCascadeEncodedFeaturesConformance(t *testing.T) {
	detectortest.Run(t, func() detector.Detector {
		c, err := detector.Cascade(naive.New(naive.Config{Threshold: 0.2}), setFeatures, setContainment)
		require.NoError(t, err)
		return c
	}, detectortest.Options{})
}

// onlyRemove hides every optional method but Remove.
type onlyRemove struct{ d *naive.Detector }

func (o onlyRemove) Add(d detector.Doc) ([]detector.Match, error)   { return o.d.Add(d) }
func (o onlyRemove) Containers(id string) ([]detector.Match, error) { return o.d.Containers(id) }
func (o onlyRemove) Remove(id string) error                         { return o.d.Remove(id) }
func (o onlyRemove) Close() error                                   { return o.d.Close() }

// rankOnly is onlyRemove that ranks too, but answers no Query.
type rankOnly struct{ onlyRemove }

func (r rankOnly) Nearest(text string, k int) ([]detector.Match, error) { return r.d.Nearest(text, k) }

// Combinators implement each optional interface exactly when what they
// wrap does, except that Cascade never lists copies and persists only
// features it can encode, and Vote ranks only members that also answer
// Query (it tallies both).
func TestOptionalInterfacesExactly(t *testing.T) {
	full := func() detector.Detector { return naive.New(naive.Config{}) }
	bare := func() detector.Detector { return onlyRemove{naive.New(naive.Config{})} }
	unenc, err := detector.Cascade(full(), func(text string) unencodable { return unencodable{shingles(text)} },
		func(c, a unencodable) (float64, bool) { return setContainment(c.set, a.set) })
	require.NoError(t, err)
	type want struct{ query, persist, copies, rank bool }
	for _, tc := range []struct {
		name string
		d    detector.Detector
		want want
	}{
		{"Cascade(naive, string)", cascade(t, full()), want{true, true, false, true}},
		{"Cascade(naive, BinaryMarshaler)", func() detector.Detector {
			c, err := detector.Cascade(full(), setFeatures, setContainment)
			require.NoError(t, err)
			return c
		}(), want{true, true, false, true}},
		{"Cascade(naive, unencodable)", unenc, want{true, false, false, true}},
		{"Cascade(copying)", cascade(t, newCopying()), want{true, false, false, false}},
		{"Cascade(bare)", cascade(t, bare()), want{}},
		{"Vote(naive, naive)", vote(t, 1, full(), naive.New(naive.Config{Shingle: 3})), want{true, true, true, true}},
		{"Vote(naive, bare)", vote(t, 1, full(), bare()), want{}},
		{"Vote(copying, copying)", vote(t, 1, newCopying(), newCopying()), want{true, false, true, false}},
		{"Vote(rankOnly, rankOnly)", vote(t, 1, rankOnly{onlyRemove{naive.New(naive.Config{})}}, rankOnly{onlyRemove{naive.New(naive.Config{})}}), want{}},
		{"Window(naive)", window(t, full(), detector.WindowConfig{}), want{true, true, true, true}},
		{"Window(copying)", window(t, newCopying(), detector.WindowConfig{}), want{true, false, true, false}},
		{"Window(bare)", window(t, bare(), detector.WindowConfig{}), want{}},
		{"Vote(Window(naive), Cascade(naive))", vote(t, 2, window(t, full(), detector.WindowConfig{Size: 9}), cascade(t, full())), want{true, true, false, true}},
	} {
		_, q := tc.d.(detector.Querier)
		_, p := tc.d.(detector.Persister)
		_, c := tc.d.(detector.CopyLister)
		_, rk := tc.d.(detector.Ranker)
		_, r := tc.d.(detector.Remover)
		_, l := tc.d.(interface{ Len() int })
		assert.Equal(t, tc.want, want{q, p, c, rk}, tc.name)
		assert.True(t, r && l, "%s: Remover and Len", tc.name)
		require.NoError(t, tc.d.Close())
	}
}

func TestVoteCopiesIntersect(t *testing.T) {
	v := vote(t, 1, newCopying(), newCopying())
	defer v.Close()
	for _, id := range []string{"a", "b", "c"} {
		_, err := v.Add(detector.Doc{ID: id, Text: short})
		require.NoError(t, err)
	}
	got, err := v.(detector.CopyLister).Copies("b")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "c"}, got)
}

// A Vote whose second member rejects its section (another Config) leaves
// the first member empty again.
func TestVoteReadFromRollsBack(t *testing.T) {
	a := vote(t, 1, naive.New(naive.Config{}), naive.New(naive.Config{Shingle: 3}))
	defer a.Close()
	for _, id := range []string{"x", "y"} {
		_, err := a.Add(detector.Doc{ID: id, Text: short})
		require.NoError(t, err)
	}
	var snap bytes.Buffer
	_, err := a.(detector.Persister).WriteTo(&snap)
	require.NoError(t, err)

	first := naive.New(naive.Config{})
	b := vote(t, 1, first, naive.New(naive.Config{Shingle: 5}))
	defer b.Close()
	_, err = b.(detector.Persister).ReadFrom(bytes.NewReader(snap.Bytes()))
	require.ErrorIs(t, err, detector.ErrSnapshot)
	assert.ErrorContains(t, err, "member 1")
	assert.ErrorContains(t, err, "Config.Shingle is 3 in the snapshot and 5 in the detector")
	assert.Equal(t, 0, first.Len(), "member 0 was emptied again")
	assert.Equal(t, 0, b.(interface{ Len() int }).Len())
	// The vote still works.
	_, err = b.Add(detector.Doc{ID: "x", Text: short})
	require.NoError(t, err)
}

// A Cascade restored from a snapshot answers Query as the original.
func TestCascadeQueryAfterRestore(t *testing.T) {
	a := cascade(t, naive.New(naive.Config{Threshold: 0.2}))
	defer a.Close()
	_, err := a.Add(detector.Doc{ID: "long", Text: long})
	require.NoError(t, err)
	var snap bytes.Buffer
	_, err = a.(detector.Persister).WriteTo(&snap)
	require.NoError(t, err)
	b := cascade(t, naive.New(naive.Config{Threshold: 0.2}))
	defer b.Close()
	_, err = b.(detector.Persister).ReadFrom(&snap)
	require.NoError(t, err)
	for _, d := range []detector.Detector{a, b} {
		ms, err := d.(detector.Querier).Query(detector.Doc{Text: short})
		require.NoError(t, err)
		assert.Equal(t, []string{"long"}, ids(ms))
		ms, err = d.(detector.Querier).Query(detector.Doc{Text: other})
		require.NoError(t, err)
		assert.Empty(t, ms)
	}
}
