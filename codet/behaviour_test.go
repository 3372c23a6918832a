package codet_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-9ef9c1df/neardup/codet"
	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/internal/dataset"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

var handMade = []struct {
	lang                    string
	short, extra, unrelated string
	edited                  string // short with its rarest words changed
}{
	{
		lang: "en",
		short: "Archaeologists near the old caravan route uncovered a Bronze Age copper workshop. " +
			"Radiocarbon dates from charcoal in the furnace place its last use around 1300 BCE.",
		extra: "The provincial museum will conserve the finds. Funding comes from the national research council. " +
			"Excavation resumes next summer with volunteers from three universities. " +
			"Local farmers first reported pottery shards in their fields a decade ago. " +
			"The regional governor visited the trench on Monday and praised the volunteers. " +
			"A documentary crew filmed the opening of the sealed storage pit. " +
			"Geologists mapped the ore veins that fed the smelting furnaces. " +
			"The ministry plans a visitor centre beside the excavation.",
		unrelated: "A late header from the veteran defender gave the visitors a two to one win in the cup semi-final. " +
			"The hosts had taken the lead after twenty minutes through a curled free kick.",
		edited: "Historians near the old highway found a medieval iron forge. " +
			"Tree-ring samples from timber in the kiln date its construction to 1450.",
	},
	{
		lang: "tr",
		short: "İSTANBUL'DA etkili olan kar yağışı nedeniyle okullar iki gün tatil edildi. " +
			"Valilik, vatandaşların zorunlu olmadıkça trafiğe çıkmamasını istedi.",
		extra: "Meteoroloji, soğuk havanın hafta sonuna kadar süreceğini açıkladı. " +
			"Belediye ekipleri ana arterlerde tuzlama çalışması yaptı. " +
			"Havalimanında bazı seferler iptal edildi, yolcular bekletildi. " +
			"Ankara ve İzmir'de de sıcaklıkların sıfırın altına düşmesi bekleniyor. " +
			"Hastaneler, buzlanma nedeniyle düşen yaşlılar için ek önlem aldı. " +
			"Doğalgaz tüketimi son on yılın en yüksek seviyesine ulaştı. " +
			"Karayolları, zincirsiz araçların köprülere çıkmasını yasakladı. " +
			"Hayvan barınakları sokak hayvanları için mama dağıttı.",
		unrelated: "Ege kıyısındaki zeytin üreticileri bu yılki hasadın kuraklık nedeniyle azalmasını bekliyor. " +
			"Üretici birliği yağışların mevsim normallerinin altında kaldığını bildirdi.",
		edited: "Bursa'da etkili olan dolu nedeniyle seralar zarar gördü. " +
			"Kaymakamlık, çiftçilerin hasar tespiti için başvurmasını istedi.",
	},
}

// TestHandMade checks containment both ways on hand-made English and
// Turkish stories: a long article that repeats a short report contains it
// and not the reverse, whichever arrives first; case and Turkish
// apostrophe suffixes do not matter; unrelated and edited stories are not
// reported; Matched points at the report's sentences.
func TestHandMade(t *testing.T) {
	for _, hm := range handMade {
		for _, longFirst := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/longFirst=%v", hm.lang, longFirst), func(t *testing.T) {
				d := mustNew(t, codet.Config{Language: hm.lang})
				long := hm.extra[:len(hm.extra)/2]
				cut := strings.LastIndex(long, ". ") + 2
				long = hm.extra[:cut] + hm.short + " " + hm.extra[cut:]
				if hm.lang == "tr" {
					// Same report with other casing and suffix forms.
					long = strings.Replace(long, "İSTANBUL'DA", "İstanbul’da", 1)
				}
				add(t, d, "unrelated", hm.unrelated)
				if longFirst {
					add(t, d, "long", long)
					got := add(t, d, "short", hm.short)
					assert.Equal(t, []string{"long"}, ids(got), "Add(short) = %v", got)
				} else {
					add(t, d, "short", hm.short)
					got := add(t, d, "long", long)
					assert.Empty(t, got, "Add(long) = %v: short does not contain long", got)
				}
				got := containers(t, d, "short")
				require.Equal(t, []string{"long"}, ids(got), "Containers(short) = %v", got)
				// Online idf: the report's words weigh less once the article
				// has been counted too (see the package doc on drift).
				assert.GreaterOrEqual(t, got[0].Score, 0.75, "CS/SCS of a fully repeated report")
				assert.Empty(t, containers(t, d, "long"))
				assert.Empty(t, containers(t, d, "unrelated"))
				assert.Empty(t, add(t, d, "edited", hm.edited), "an edited story shares no rare words")
				spans, err := d.Matched("long", "short")
				require.NoError(t, err)
				require.Len(t, spans, 2, "Matched(long, short) = %v", spans)
				for _, s := range spans {
					assert.Equal(t, 1.0, s.Score)
					assert.Contains(t, []byte(hm.short[s.Start:s.End]), hm.short[s.End-1], "span %v", s)
				}
				first := hm.short[spans[0].Start:spans[0].End]
				assert.True(t, strings.HasSuffix(first, "."), "span %q is a whole sentence", first)
				// An unrelated story may share a sentence's rarest word (the
				// Turkish pair shares "yağış", rain, which the reference table
				// ranks first in both), never most of a sentence.
				none, err := d.Matched("unrelated", "short")
				require.NoError(t, err)
				for _, s := range none {
					assert.Less(t, s.Score, 0.5, "Matched(unrelated, short) = %v", none)
				}
			})
		}
	}
}

// TestPairwiseMatchesScore is the differential test of ModePairwise against
// the pure Eq. 3.1 of Score over a synthetic stream, with a frozen idf, no
// collapsing and no node limit: every reported relation, and only those,
// has Score(C, A)/SCS(A) > ETL, with that score.
func TestPairwiseMatchesScore(t *testing.T) {
	docs := dataset.SynthDocs(150, dataset.SynthConfig{Seed: 3, Vocabulary: 3000, Recent: 30, MinSentences: 3, MaxSentences: 8})
	cfg := codet.Config{Language: "en", Mode: codet.ModePairwise, Collapse: codet.CollapseOff, NodeLimit: -1, SuffixCount: 2, BothDirections: true, MinScore: -1} // the exact score: no evidence rule
	an, err := textproc.NewAnalyzer(textproc.FullConfig(mustTag(t, "en")))
	require.NoError(t, err)
	texts := make([]string, len(docs))
	for i, doc := range docs {
		texts[i] = doc.Text
	}
	idf := textproc.BuildIDF(an, texts, false)
	d, err := codet.NewWithIDF(cfg, idf)
	require.NoError(t, err)
	defer d.Close()
	seqs := make([][]codet.Sequence, len(docs))
	for i, doc := range docs {
		add(t, d, doc.ID, doc.Text)
		seqs[i], err = codet.Sequences(doc.Text, cfg, idf.Weight)
		require.NoError(t, err)
	}
	relations := 0
	for a := range docs {
		got := map[string]float64{}
		for _, m := range containers(t, d, docs[a].ID) {
			got[m.ID] = m.Score
		}
		for c := range docs {
			if c == a {
				continue
			}
			cs, scs, err := codet.Score(seqs[c], seqs[a], cfg)
			require.NoError(t, err)
			if scs == 0 {
				continue
			}
			want := cs / scs
			if want > codet.DefaultETL-1e-9 && want < codet.DefaultETL+1e-9 {
				continue // on the threshold: summation order decides
			}
			score, ok := got[docs[c].ID]
			if want > codet.DefaultETL {
				relations++
				if assert.True(t, ok, "%s ⊇ %s (Score %.4f) not reported", docs[c].ID, docs[a].ID, want) {
					assert.InDelta(t, want, score, 1e-9, "%s ⊇ %s", docs[c].ID, docs[a].ID)
				}
			} else {
				assert.False(t, ok, "%s ⊇ %s reported with %.4f, Score says %.4f", docs[c].ID, docs[a].ID, score, want)
			}
		}
	}
	assert.Greater(t, relations, 50, "the stream has containments to check")
}

// TestWindowMemoryFlat runs an endless stream in a window of W documents
// and checks that the index stays as large as the window, and that
// removing everything frees every node, visitor entry and relation.
func TestWindowMemoryFlat(t *testing.T) {
	const window = 150
	total := 1500
	if raceEnabled {
		total = 600
	}
	s := dataset.NewSynth(dataset.SynthConfig{Seed: 9, Recent: 50})
	d := mustNew(t, codet.Config{Language: "en"})
	var live []string
	var atWindow, peak codet.Stats
	for i := range total {
		it := s.Next()
		add(t, d, it.Doc.ID, it.Doc.Text)
		live = append(live, it.Doc.ID)
		if len(live) > window {
			require.NoError(t, d.Remove(live[0]))
			live = live[1:]
		}
		st := d.Stats()
		if i == 2*window {
			atWindow = st
		}
		peak.Nodes = max(peak.Nodes, st.Nodes)
		peak.Visitors = max(peak.Visitors, st.Visitors)
		peak.Edges = max(peak.Edges, st.Edges)
	}
	end := d.Stats()
	t.Logf("window %d: nodes %d → %d (peak %d), visitors %d → %d, edges %d → %d",
		window, atWindow.Nodes, end.Nodes, peak.Nodes, atWindow.Visitors, end.Visitors, atWindow.Edges, end.Edges)
	assert.Equal(t, window, end.Docs)
	assert.Less(t, float64(peak.Nodes), 1.3*float64(atWindow.Nodes), "nodes grow with the stream")
	assert.Less(t, float64(peak.Visitors), 1.3*float64(atWindow.Visitors), "visitor entries grow with the stream")
	for _, id := range live {
		require.NoError(t, d.Remove(id))
	}
	end = d.Stats()
	assert.Equal(t, codet.Stats{Added: end.Added, Collapsed: end.Collapsed, Increments: end.Increments,
		Candidates: end.Candidates, Deactivated: end.Deactivated}, end, "an empty detector holds nothing")
}

// TestIdenticalDocuments is the worst case of Varol 2012 §3.3.1: N copies
// of one document. With collapsing the tree holds one content and every
// copy costs O(1) index work; without it, node deactivation bounds the
// visitor lists.
func TestIdenticalDocuments(t *testing.T) {
	const n = 1500
	text := strings.Repeat("The storm cut power to forty thousand homes on the northern coast. ", 3) +
		"Ferries to the islands were cancelled."
	t.Run("Collapse", func(t *testing.T) {
		d := mustNew(t, codet.Config{Language: "en", MaxResults: n})
		for i := range n {
			ms := add(t, d, fmt.Sprintf("c%04d", i), text)
			require.Len(t, ms, i)
		}
		st := d.Stats()
		assert.Equal(t, 1, st.Groups)
		assert.Equal(t, n-1, st.Collapsed)
		assert.Equal(t, 0, st.Edges)
		got := containers(t, d, "c0000")
		assert.Len(t, got, n-1)
		assert.Equal(t, "c0001", got[0].ID)
		assert.Equal(t, 1.0, got[0].Score)
		// Removing the representative keeps the group.
		require.NoError(t, d.Remove("c0000"))
		assert.Len(t, containers(t, d, "c0001"), n-2)
	})
	t.Run("MaxResults", func(t *testing.T) {
		d := mustNew(t, codet.Config{Language: "en", MaxResults: 10})
		for i := range 50 {
			ms := add(t, d, fmt.Sprintf("c%04d", i), text)
			assert.Len(t, ms, min(i, 10))
		}
		got := containers(t, d, "c0049")
		assert.Equal(t, []string{"c0000", "c0001", "c0002", "c0003", "c0004", "c0005", "c0006", "c0007", "c0008", "c0009"}, ids(got))
	})
	t.Run("NodeLimit", func(t *testing.T) {
		const limit = 40
		d := mustNew(t, codet.Config{Language: "en", Collapse: codet.CollapseOff, NodeLimit: limit})
		for i := range 200 {
			ms := add(t, d, fmt.Sprintf("c%04d", i), text)
			assert.Len(t, ms, min(i, limit), "copy %d: its recent copies contain it, deactivated nodes or not", i)
		}
		st := d.Stats()
		assert.Greater(t, st.Deactivated, 0)
		assert.LessOrEqual(t, st.Increments, 200*limit*3*codet.DefaultDepthThreshold, "increments bounded by the limit")
		assert.LessOrEqual(t, st.Visitors, limit*st.Nodes, "a deactivated node keeps at most NodeLimit visitors")
	})
}

// TestWindowAndExpire checks the two time windows: Config.Window keeps the
// last N documents, Expire drops the documents older than a position.
func TestWindowAndExpire(t *testing.T) {
	docs := dataset.SynthDocs(300, dataset.SynthConfig{Seed: 5, Recent: 20})
	t.Run("Window", func(t *testing.T) {
		const w = 50
		d := mustNew(t, codet.Config{Language: "en", Window: w})
		for i, doc := range docs {
			ms := add(t, d, doc.ID, doc.Text)
			for _, m := range ms {
				k := slices.IndexFunc(docs, func(x detector.Doc) bool { return x.ID == m.ID })
				assert.Greater(t, k, i-w, "Add(%q) reports %q, outside the window", doc.ID, m.ID)
			}
		}
		assert.Equal(t, w, d.Stats().Docs)
		_, err := d.Containers(docs[0].ID)
		assert.ErrorIs(t, err, detector.ErrUnknownID, "an evicted document")
		_, err = d.Containers(docs[len(docs)-w].ID)
		assert.NoError(t, err, "the oldest document of the window")
	})
	t.Run("Expire", func(t *testing.T) {
		d := mustNew(t, codet.Config{Language: "en"})
		for _, doc := range docs[:100] {
			add(t, d, doc.ID, doc.Text)
		}
		require.NoError(t, d.Remove(docs[10].ID))
		assert.Equal(t, uint64(100), d.Position())
		n, err := d.Expire(60)
		require.NoError(t, err)
		assert.Equal(t, 59, n, "documents 0-59 but the removed one")
		assert.Equal(t, 40, d.Stats().Docs)
		n, err = d.Expire(1000)
		require.NoError(t, err)
		assert.Equal(t, 40, n)
		st := d.Stats()
		assert.Zero(t, st.Nodes+st.Visitors+st.Edges+st.Groups, "an expired detector holds nothing: %+v", st)
		require.NoError(t, d.Close())
		_, err = d.Expire(1)
		assert.ErrorIs(t, err, detector.ErrClosed)
	})
}

// TestStatsAfterClose checks that a closed detector reports no documents,
// nodes or terms (it used to report Nodes -1 and its documents), and keeps
// its counters.
func TestStatsAfterClose(t *testing.T) {
	d := mustNew(t, codet.Config{Language: "en"})
	for _, doc := range dataset.SynthDocs(30, dataset.SynthConfig{Seed: 4}) {
		add(t, d, doc.ID, doc.Text)
	}
	open := d.Stats()
	require.Equal(t, 30, open.Docs)
	require.NoError(t, d.Close())
	assert.Equal(t, codet.Stats{Added: open.Added, Collapsed: open.Collapsed, NearCollapsed: open.NearCollapsed,
		Deactivated: open.Deactivated, Increments: open.Increments, Candidates: open.Candidates}, d.Stats())
	_, err := d.Containers(dataset.SynthDocs(1, dataset.SynthConfig{Seed: 4})[0].ID)
	assert.ErrorIs(t, err, detector.ErrClosed)
}
