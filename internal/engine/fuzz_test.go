package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
)

// FuzzGroups runs joins and leaves over a few groups against a reference
// of sorted slices, checking Size, IDs, Min and Smallest (with and
// without a member skipped) after every step.
func FuzzGroups(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 0x80, 0x81, 9, 10})
	f.Add([]byte{0x10, 0x11, 0x12, 0x90, 0x13, 0x91, 0x92, 0x93, 3, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		const nDocs, nGroups = 64, 3
		ids := make([]string, nDocs)
		for i := range ids {
			ids[i] = fmt.Sprintf("%02x", (i*29+7)%nDocs)
		}
		docs := docsOf(t, ids...)
		gs := newCopyGroups(docs)
		var ref [nGroups][]string // sorted IDs by group
		var first [nGroups]uint32 // the member of a group of one
		in := make([]int, nDocs)  // group of each document, -1 none
		for i := range in {
			in[i] = -1
		}
		for step, op := range ops {
			idx := uint32(op) % nDocs
			g := int(op/nDocs) % nGroups
			if op >= 0x80 || in[idx] >= 0 { // leave
				g = in[idx]
				if g < 0 {
					continue
				}
				if len(ref[g]) > 1 {
					if rest, alone := gs.Leave(uint32(g), idx); alone {
						first[g] = rest
					}
				}
				ref[g] = slices.DeleteFunc(ref[g], func(s string) bool { return s == docs.ID(idx) })
				in[idx] = -1
			} else { // join
				if len(ref[g]) == 0 {
					first[g] = idx
				} else {
					gs.Join(uint32(g), first[g], idx)
				}
				i, _ := slices.BinarySearch(ref[g], docs.ID(idx))
				ref[g] = slices.Insert(ref[g], i, docs.ID(idx))
				in[idx] = g
			}
			held := 0
			for g := range nGroups {
				want := ref[g]
				if len(want) == 0 {
					continue
				}
				if len(want) > 1 {
					held += len(want)
				}
				require.Equal(t, len(want), gs.Size(uint32(g)), "step %d", step)
				require.Equal(t, want, gs.IDs(uint32(g), first[g], none), "step %d", step)
				require.Equal(t, want[0], docs.ID(gs.Min(uint32(g), first[g])))
				for i, m := range gs.AppendMembers(nil, uint32(g), first[g]) {
					require.Equal(t, m, gs.Member(uint32(g), first[g], i), "step %d: Member %d", step, i)
				}
				skip := idx
				for _, n := range []int{0, 1, 3, len(want) - 1, len(want), len(want) + 1} {
					var got []string
					for _, m := range gs.Smallest(nil, uint32(g), first[g], n, skip, 1) {
						got = append(got, m.ID)
					}
					slices.Sort(got)
					var exp []string
					for _, s := range want {
						if len(exp) < n && s != docs.ID(skip) {
							exp = append(exp, s)
						}
					}
					require.Equal(t, exp, got, "step %d group %d n %d", step, g, n)
				}
			}
			require.Equal(t, held, gs.Held())
		}
	})
}

// FuzzSearchOrder runs Adds, Removes and Queries of texts over a small
// vocabulary (maskText, the empty text too) on two engines that differ only in Spec.SearchFirst, for
// indexes with and without Finder and Renewer, and checks that every
// call answers the same and that Containers agree at the end: an index
// whose Search is a pure function of the group features it compares may
// search before or after the insertion.
func FuzzSearchOrder(f *testing.F) {
	f.Add([]byte{0x01, 0x01, 0x03, 0x81, 0xc1, 0x07, 0x41, 0x0f})
	f.Add([]byte{0x05, 0x05, 0x05, 0x80, 0x05, 0x81, 0xc5, 0x0a})
	algs := map[string]Algorithm[words, string]{
		"toy": toy{}, "finding": toy{finding: true}, "renewing": renewingToy{},
	}
	f.Fuzz(func(t *testing.T, ops []byte) {
		for name, alg := range algs {
			spec := Spec{Name: "toy", Version: 1, NoGroup: "empty", MinGroupBytes: 3, MaxTextBytes: 100, MaxResults: 3}
			after := New(spec, alg)
			spec.SearchFirst = true
			first := New(spec, alg)
			var ids []string
			for step, op := range ops {
				var got, want []detector.Match
				var gerr, werr error
				switch op >> 6 {
				case 0, 1: // Add
					id := fmt.Sprint("d", step)
					ids = append(ids, id)
					doc := detector.Doc{ID: id, Text: maskText(uint(op))}
					want, werr = after.Add(doc)
					got, gerr = first.Add(doc)
				case 2: // Remove
					if len(ids) == 0 {
						continue
					}
					i := int(op) % len(ids)
					id := ids[i]
					ids = slices.Delete(ids, i, i+1)
					werr, gerr = after.Remove(id), first.Remove(id)
				default: // Query
					doc := detector.Doc{Text: maskText(uint(op))}
					want, werr = after.Query(doc)
					got, gerr = first.Query(doc)
				}
				require.Equal(t, werr, gerr, "%s step %d", name, step)
				require.Equal(t, want, got, "%s step %d (op %#x)", name, step, op)
			}
			for _, id := range ids {
				want, err := after.Containers(id)
				require.NoError(t, err)
				got, err := first.Containers(id)
				require.NoError(t, err)
				require.Equal(t, want, got, "%s: Containers(%s)", name, id)
			}
		}
	})
}
