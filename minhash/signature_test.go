package minhash

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
)

// TestHashSignatureMatchesText: signing a text's own shingle hashes gives
// the text's signature and size, for both schemes.
func TestHashSignatureMatchesText(t *testing.T) {
	for _, scheme := range []Scheme{OnePermutation, KHash} {
		sk, err := NewSketcher(Config{Scheme: scheme, Shingle: 3})
		require.NoError(t, err)
		for _, text := range []string{"one", "a b", "the cat sat on the mat and the cat sat again", story()} {
			want, wantN := sk.Signature(text)
			hs := sk.Shingles(nil, text)
			got, n := sk.AppendHashSignature(nil, append(hs, hs...)) // repeats do not count
			assert.Equal(t, want, got, "scheme %d %q", scheme, text)
			assert.Equal(t, wantN, n)
		}
		sig, n := sk.AppendHashSignature([]uint32{7}, nil)
		assert.Equal(t, []uint32{7}, sig)
		assert.Zero(t, n)
	}
}

func story() string {
	return "The central bank raised its key interest rate by half a point on Tuesday, citing inflation."
}

// TestAddSignatureMatchesAdd: a detector fed signatures from a Sketcher
// reports exactly what one fed the texts reports, in Jaccard and
// Containment modes, including after removals.
func TestAddSignatureMatchesAdd(t *testing.T) {
	docs := dataset.SynthDocs(300, dataset.SynthConfig{Seed: 5})
	for _, cfg := range []Config{{Threshold: 0.5}, {Mode: Containment}} {
		a, err := New(cfg)
		require.NoError(t, err)
		b, err := New(cfg)
		require.NoError(t, err)
		sk, err := NewSketcher(cfg)
		require.NoError(t, err)
		found := 0
		for i, doc := range docs {
			want, err := a.Add(doc)
			require.NoError(t, err)
			sig, size := sk.Signature(doc.Text)
			got, err := b.AddSignature(doc.ID, sig, size)
			require.NoError(t, err)
			require.Equal(t, want, got, "mode %d doc %s", cfg.Mode, doc.ID)
			found += len(got)
			if i%10 == 9 {
				require.NoError(t, a.Remove(docs[i-5].ID))
				require.NoError(t, b.Remove(docs[i-5].ID))
			}
		}
		for _, doc := range docs[:50] {
			want, errA := a.Containers(doc.ID)
			got, errB := b.Containers(doc.ID)
			require.Equal(t, errA, errB)
			require.Equal(t, want, got)
		}
		assert.Positive(t, found, "mode %d: the synthetic stream has near-duplicates", cfg.Mode)
	}
}

func TestAddSignatureErrors(t *testing.T) {
	d, err := New(Config{})
	require.NoError(t, err)
	sig := make([]uint32, DefaultNumHashes)
	for _, tc := range []struct {
		name string
		id   string
		sig  []uint32
		size int
		want error
	}{
		{"empty ID", "", sig, 3, detector.ErrEmptyID},
		{"short signature", "a", sig[:5], 3, detector.ErrInvalidConfig},
		{"negative size", "a", sig, -1, detector.ErrInvalidConfig},
		{"size 0 with values", "a", sig, 0, detector.ErrInvalidConfig},
		{"size without values", "a", nil, 2, detector.ErrInvalidConfig},
	} {
		_, err := d.AddSignature(tc.id, tc.sig, tc.size)
		assert.ErrorIs(t, err, tc.want, tc.name)
	}
	ms, err := d.AddSignature("empty", nil, 0)
	require.NoError(t, err)
	assert.Empty(t, ms)
	_, err = d.AddSignature("empty", sig, 1)
	assert.ErrorIs(t, err, detector.ErrDuplicateID)
	require.NoError(t, d.Close())
	_, err = d.AddSignature("late", sig, 1)
	assert.ErrorIs(t, err, detector.ErrClosed)

	w, err := New(Config{Mode: Weighted})
	require.NoError(t, err)
	_, err = w.AddSignature("a", sig, 1)
	assert.ErrorIs(t, err, detector.ErrInvalidConfig)
}
