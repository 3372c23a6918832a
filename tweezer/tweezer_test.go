package tweezer

import (
	"errors"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"math"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/detector/detectortest"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

func TestConformance(t *testing.T) {
	for _, c := range []struct {
		mode Mode
		lang language.Tag
	}{{Exact, language.Turkish}, {Exact, language.English}, {Jaccard, language.English}, {Overlap, language.Turkish}} {
		mode, lang := c.mode, c.lang
		{
			t.Run(mode.String()+"/"+lang.String(), func(t *testing.T) {
				detectortest.Run(t, func() detector.Detector {
					d, err := New(Config{Mode: mode, Language: lang.String()})
					if err != nil {
						panic(err)
					}
					return d
				}, detectortest.Options{Symmetric: true})
			})
		}
	}
}

// fig41 is the sample text of Uyar 2009, "Near-duplicate news detection
// using named entities", Fig. 4.1.
const fig41 = "Bursa'nın Orhangazi İlçesi'nde apandisit ameliyatı sırasında doktor hatasına bağlı olarak " +
	"kalın bağırsağının yırtıldığı ve bunun sonucunda vücuduna enfeksiyon yayıldığı için öldüğü ileri " +
	"sürülen 13 yaşındaki Sevecan Ercan'ın dün toprağa verilen cesedi, bugün otopsi yapılmak üzere " +
	"mezardan çıkartıldı."

// TestFigure41 checks the 5NE5 shingles of Uyar 2009 Fig. 4.1. The
// figure's second shingle has eight words after the entity ("dün toprağa
// verilen cesedi bugün otopsi yapılmak üzere"), contradicting the s = 5 of
// §4.1 and Table 4.1; we implement s = 5, so the shingle ends at "bugün".
func TestFigure41(t *testing.T) {
	s, err := NewSigner(Config{})
	require.NoError(t, err)
	sig := s.Sign(fig41)
	assert.False(t, sig.Fallback)
	assert.Equal(t, []string{
		"Bursa Orhangazi İlçesi apandisit ameliyatı sırasında doktor hatasına",
		"öldüğü ileri sürülen 13 yaşındaki Sevecan Ercan dün toprağa verilen cesedi bugün",
	}, sig.Shingles)

	// With s = 8 the second shingle is the figure's.
	s8, err := NewSigner(Config{Suffix: 8})
	require.NoError(t, err)
	assert.Contains(t, s8.Sign(fig41).Shingles,
		"öldüğü ileri sürülen 13 yaşındaki Sevecan Ercan dün toprağa verilen cesedi bugün otopsi yapılmak üzere")
}

func TestSignature(t *testing.T) {
	s, err := NewSigner(Config{})
	require.NoError(t, err)
	t.Run("deterministic and order-free", func(t *testing.T) {
		a := s.Sign(fig41)
		b := s.Sign(fig41)
		assert.Equal(t, a, b)
		assert.NotEqual(t, Digest{}, a.Digest)
	})
	t.Run("duplicate shingles kept once", func(t *testing.T) {
		one := s.Sign("Heyet dün Ankara'ya gitti.")
		two := s.Sign("Heyet dün Ankara'ya gitti. Heyet dün Ankara'ya gitti.")
		require.Len(t, one.Shingles, 1)
		// The windows differ across the sentence end, so two shingles.
		assert.Len(t, two.Shingles, 2)
	})
	t.Run("text outside windows does not matter", func(t *testing.T) {
		base := "Bugün " + strings.Repeat("uzun bir haber metni ", 3) + "Ankara'da toplantı yapıldı ve sona erdi " + strings.Repeat("sonra başka şeyler oldu ", 3)
		other := "Dün " + strings.Repeat("uzun bir haber metni ", 3) + "Ankara'da toplantı yapıldı ve sona erdi " + strings.Repeat("sonra başka şeyler oldu ", 3)
		assert.Equal(t, s.Sign(base).Digest, s.Sign(other).Digest)
	})
	t.Run("a context change changes the digest", func(t *testing.T) {
		a := s.Sign("Heyet dün Ankara'ya gitti.")
		b := s.Sign("Heyet bugün Ankara'ya gitti.")
		assert.NotEqual(t, a.Digest, b.Digest)
		assert.Equal(t, 0.0, Similarity(Jaccard, a, b))
		assert.Equal(t, 0.0, Similarity(Exact, a, b))
	})
	t.Run("fallback whole document", func(t *testing.T) {
		sig := s.Sign("bu metinde hiç özel isim yok.")
		assert.True(t, sig.Fallback)
		assert.Equal(t, []string{"bu metinde hiç özel isim yok"}, sig.Shingles)
	})
	t.Run("fallback first and last words", func(t *testing.T) {
		var words []string
		for i := range 50 {
			words = append(words, "kelime"+string(rune('a'+i%26))+strings.Repeat("x", i/26))
		}
		sig := s.Sign(strings.Join(words, " "))
		require.True(t, sig.Fallback)
		want := strings.Join(append(append([]string{}, words[:20]...), words[30:]...), " ")
		assert.Equal(t, []string{want}, sig.Shingles)
	})
	t.Run("empty", func(t *testing.T) {
		for _, text := range []string{"", "  \n ", "... !!!", "\xff\xfe"} {
			sig := s.Sign(text)
			assert.True(t, sig.Empty(), "Sign(%q)", text)
			assert.Equal(t, Digest{}, sig.Digest)
		}
	})
	t.Run("fallback and entity digests differ", func(t *testing.T) {
		assert.NotEqual(t, digest([]string{"a b"}, true), digest([]string{"a b"}, false))
		assert.NotEqual(t, digest([]string{"ab", "c"}, false), digest([]string{"a", "bc"}, false))
	})
}

func TestClipSentences(t *testing.T) {
	text := "Toplantı uzun sürdü. Sonra Ankara'ya dönen heyet açıklama yaptı. Herkes bekliyordu."
	s, err := NewSigner(Config{})
	require.NoError(t, err)
	assert.Equal(t, []string{"Toplantı uzun sürdü Sonra Ankara dönen heyet açıklama yaptı Herkes"}, s.Sign(text).Shingles)
	c, err := NewSigner(Config{ClipSentences: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"Sonra Ankara dönen heyet açıklama yaptı"}, c.Sign(text).Shingles)
}

func TestSimilarity(t *testing.T) {
	a := Signature{Shingles: []string{"a", "b", "c"}}
	b := Signature{Shingles: []string{"b", "c", "d", "e"}}
	assert.InDelta(t, 2.0/5.0, Similarity(Jaccard, a, b), 1e-12)
	assert.InDelta(t, 2.0/3.0, Similarity(Overlap, a, b), 1e-12)
	assert.Equal(t, 1.0, Similarity(Jaccard, a, a))
	assert.Equal(t, 1.0, Similarity(Exact, a, a))
	assert.Equal(t, 0.0, Similarity(Jaccard, a, Signature{}))
}

func TestNewErrors(t *testing.T) {
	for _, c := range []struct {
		cfg   Config
		field string
	}{
		{Config{Prefix: -1}, "Prefix"}, {Config{Prefix: MaxContext + 1}, "Prefix"},
		{Config{Suffix: -1}, "Suffix"}, {Config{Suffix: math.MaxInt}, "Suffix"},
		{Config{FallbackWords: -2}, "FallbackWords"}, {Config{FallbackWords: math.MaxInt / 2}, "FallbackWords"},
		{Config{Mode: 7}, "Mode"},
		{Config{Threshold: 1.5}, "Threshold"}, {Config{Threshold: -0.1}, "Threshold"},
		{Config{Threshold: math.NaN()}, "Threshold"}, {Config{Mode: Exact, Threshold: math.Inf(1)}, "Threshold"},
		{Config{MinOverlap: -1}, "MinOverlap"}, {Config{MinOverlap: MaxMinOverlap + 1}, "MinOverlap"},
		{Config{MaxTextBytes: -1}, "MaxTextBytes"},
		{Config{Content: 99}, "Content"},
		{Config{Language: "not a tag!"}, "Language"},
	} {
		_, err := New(c.cfg)
		require.ErrorIs(t, err, detector.ErrInvalidConfig, "New(%+v)", c.cfg)
		assert.True(t, strings.HasPrefix(err.Error(), "tweezer: "), "error %q lacks the package prefix", err)
		assert.Contains(t, err.Error(), c.field, "New(%+v) must name the field", c.cfg)
	}
	d, err := New(Config{})
	require.NoError(t, err)
	cfg := d.Config()
	assert.Equal(t, DefaultContext, cfg.Prefix)
	assert.Equal(t, DefaultContext, cfg.Suffix)
	assert.Equal(t, DefaultFallbackWords, cfg.FallbackWords)
	assert.Equal(t, DefaultOverlapThreshold, cfg.Threshold, "Overlap, the default mode")
	assert.Equal(t, DefaultMinOverlap, cfg.MinOverlap)
	assert.Equal(t, DefaultContent, cfg.Content)
	assert.Equal(t, detector.DefaultMaxTextBytes, cfg.MaxTextBytes)
	assert.Equal(t, cfg, d.Signer().Config())
	d, err = New(Config{Mode: Exact})
	require.NoError(t, err)
	assert.Equal(t, 0.0, d.Config().Threshold, "Exact mode has no threshold")
	d, err = New(Config{Mode: Jaccard})
	require.NoError(t, err)
	assert.Equal(t, DefaultJaccardThreshold, d.Config().Threshold)
	d, err = New(Config{Mode: Overlap})
	require.NoError(t, err)
	assert.Equal(t, DefaultOverlapThreshold, d.Config().Threshold)
}

func TestModes(t *testing.T) {
	base := "Başbakan Mesut Yılmaz dün Ankara'da gazetecilere açıklama yaptı. Yılmaz, ekonomik paketin " +
		"Meclis'e sunulacağını söyledi. CHP lideri Deniz Baykal ise pakete karşı çıktı."
	// One changed context word: a different digest, a high Jaccard.
	edited := strings.Replace(base, "ekonomik paketin", "yeni paketin", 1)
	t.Run("Exact", func(t *testing.T) {
		d, err := New(Config{Mode: Exact})
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "a", Text: base})
		require.NoError(t, err)
		ms, err := d.Add(detector.Doc{ID: "b", Text: base})
		require.NoError(t, err)
		assert.Equal(t, []detector.Match{{ID: "a", Score: 1}}, ms)
		ms, err = d.Add(detector.Doc{ID: "c", Text: edited})
		require.NoError(t, err)
		assert.Empty(t, ms, "Add(edited) in Exact mode")
		cl, err := d.Cluster("b")
		require.NoError(t, err)
		assert.Equal(t, []string{"a", "b"}, cl)
		cl, err = d.Cluster("c")
		require.NoError(t, err)
		assert.Equal(t, []string{"c"}, cl)
	})
	t.Run("Jaccard", func(t *testing.T) {
		d, err := New(Config{Mode: Jaccard, Threshold: 0.2, MinOverlap: 1}) // two short texts: no evidence rule
		require.NoError(t, err)
		_, err = d.Add(detector.Doc{ID: "a", Text: base})
		require.NoError(t, err)
		ms, err := d.Add(detector.Doc{ID: "c", Text: edited})
		require.NoError(t, err)
		require.Len(t, ms, 1, "Add(edited) in Jaccard mode")
		assert.Equal(t, "a", ms[0].ID)
		s := d.Signer()
		assert.InDelta(t, Similarity(Jaccard, s.Sign(base), s.Sign(edited)), ms[0].Score, 1e-12)
		assert.Less(t, ms[0].Score, 1.0)
		// Above the similarity nothing is reported.
		strict, err := New(Config{Mode: Jaccard, Threshold: math.Nextafter(ms[0].Score, 2)})
		require.NoError(t, err)
		_, err = strict.Add(detector.Doc{ID: "a", Text: base})
		require.NoError(t, err)
		ms, err = strict.Add(detector.Doc{ID: "c", Text: edited})
		require.NoError(t, err)
		assert.Empty(t, ms)
	})
}

func TestRemoveAndClose(t *testing.T) {
	d, err := New(Config{Mode: Jaccard})
	require.NoError(t, err)
	for _, id := range []string{"a", "b"} {
		_, err := d.Add(detector.Doc{ID: id, Text: fig41})
		require.NoError(t, err)
	}
	require.Equal(t, 2, d.Len())
	require.NoError(t, d.Remove("a"))
	ms, err := d.Containers("b")
	require.NoError(t, err)
	assert.Empty(t, ms)
	cl, err := d.Cluster("b")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, cl)
	require.NoError(t, d.Close())
	_, err = d.Cluster("b")
	assert.True(t, errors.Is(err, detector.ErrClosed))
}

func TestConcurrentSign(t *testing.T) {
	s, err := NewSigner(Config{})
	require.NoError(t, err)
	want := s.Sign(fig41)
	var wg sync.WaitGroup
	got := make([]Signature, 8)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[g] = s.Sign(fig41)
		}()
	}
	wg.Wait()
	for _, sig := range got {
		assert.Equal(t, want, sig)
	}
}

func FuzzSign(f *testing.F) {
	for _, s := range []string{fig41, "", "\xff", "Ankara", "A'b C'd E", strings.Repeat("Ali Veli ", 30)} {
		f.Add(s)
	}
	s, err := NewSigner(Config{ClipSentences: true})
	require.NoError(f, err)
	whole, err := NewSigner(Config{Language: "tr", Content: textproc.ContentAll})
	require.NoError(f, err)
	lower := cases.Lower(language.Turkish)
	f.Fuzz(func(t *testing.T, text string) {
		sig := s.Sign(text)
		if !sig.Empty() && sig.Digest == (Digest{}) {
			t.Fatalf("Sign(%q): zero digest", text)
		}
		for i := 1; i < len(sig.Shingles); i++ {
			if sig.Shingles[i-1] >= sig.Shingles[i] {
				t.Fatalf("Sign(%q): shingles not sorted and distinct: %q", text, sig.Shingles)
			}
		}
		// A text and its lower-case copy have one Key: the caseless
		// copy is found by it.
		if !utf8.ValidString(text) {
			return
		}
		low := lower.String(text)
		a, b := whole.Sign(text), whole.Sign(low)
		if a.Empty() != b.Empty() || a.Key != b.Key {
			fa, _ := whole.foldedFallback(nil, text)
			fb, _ := whole.foldedFallback(nil, low)
			t.Fatalf("Sign(%q) and Sign(%q): Keys differ: folded words %q and %q", text, low, fa, fb)
		}
	})
}

// TestWindowsMatchWordList checks the windowed context of Sign against the
// full word list of signWords, and the fallback words of the Key against
// the full word list too, on the Fig. 4.1 text, edge cases, and the
// Turkish and English data when present.
func TestWindowsMatchWordList(t *testing.T) {
	texts := []string{fig41, "", "Ankara", "x Ankara", "Ankara x", strings.Repeat("a ", 300) + "Ankara'da" + strings.Repeat(" b", 3),
		strings.Repeat("ş", 5000) + " Ankara'da toplantı", "Heyet,dün,Ankara'ya,gitti", "\xffAnkara\xfe İstanbul\xff'a",
		strings.Repeat("kelime ", 50) + "\n\n" + strings.Repeat("Ali Veli ", 20)}
	for _, name := range []string{"ttc3600.jsonl", "goldset-dev.jsonl"} {
		recs, err := dataset.Load(name)
		if err != nil {
			break // the shared data is absent: the edge cases above still run
		}
		for _, r := range recs[:min(150, len(recs))] {
			texts = append(texts, r.Text)
		}
	}
	for _, lang := range []language.Tag{language.Turkish, language.English} {
		for _, p := range []int{1, 5} {
			s, err := NewSigner(Config{Language: lang.String(), Prefix: p, Suffix: p, Content: textproc.ContentAll})
			require.NoError(t, err)
			for _, text := range texts {
				assert.Equal(t, s.signWords(text, s.rec.Find(text)), s.signCased(text), "Sign(%.60q)", text)
				// The fallback words of the Key, read from both ends,
				// against the full word list.
				var all []string
				for w := range textproc.Words(text) {
					all = append(all, s.folder.Fold(text[w.Start:w.End]))
				}
				if n := s.cfg.FallbackWords; len(all) > 2*n {
					all = append(all[:n], all[len(all)-n:]...)
				}
				got, ok := s.foldedFallback(nil, text)
				assert.Equal(t, len(all) > 0, ok)
				assert.Equal(t, strings.Join(all, " "), string(got), "foldedFallback(%.60q)", text)
			}
		}
	}
}
