package ner

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSuffixForms checks that an apostrophe suffix gives the same entities
// whether attached with a straight or a typographic apostrophe or written
// as a word of its own, the gold standard's tokenisation.
func TestSuffixForms(t *testing.T) {
	r := New(Config{})
	for _, tc := range []struct {
		name  string
		forms []string
		want  []found
	}{
		{"surname after full name", []string{
			"Başbakan Helmut Kohl dün Paris'e gitti. Kohl'un açıklaması bekleniyor.",
			"Başbakan Helmut Kohl dün Paris’e gitti. Kohl’un açıklaması bekleniyor.",
			"Başbakan Helmut Kohl dün Paris 'e gitti . Kohl 'un açıklaması bekleniyor .",
		}, []found{{Person, "Helmut Kohl"}, {Location, "Paris"}, {Person, "Kohl"}}},
		{"unknown name marked by its suffix", []string{
			"Kohl'un açıklaması bekleniyor.",
			"Kohl’un açıklaması bekleniyor.",
			"Kohl 'un açıklaması bekleniyor.",
		}, []found{{Person, "Kohl"}}},
		{"place suffix", []string{
			"Heyet Almanya'nın başkenti Bonn'da kaldı.",
			"Heyet Almanya’nın başkenti Bonn’da kaldı.",
			"Heyet Almanya 'nın başkenti Bonn 'da kaldı .",
		}, []found{{Location, "Almanya"}, {Location, "Bonn"}}},
		{"gold convention splits at the suffix", []string{
			"Bursa'nın Orhangazi İlçesi'nde",
			"Bursa’nın Orhangazi İlçesi’nde",
			"Bursa 'nın Orhangazi İlçesi 'nde",
		}, []found{{Location, "Bursa"}, {Location, "Orhangazi İlçesi"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, text := range tc.forms {
				assert.Equal(t, tc.want, foundList(r.Find(text)), "Find(%q)", text)
				for _, e := range r.Find(text) {
					assert.NotContains(t, text[e.Start:e.End], "'", "span of %+v in %q", e, text)
				}
			}
		})
	}
	// With JoinAtApostrophe the separated suffix joins as the attached one
	// does (Fig. 4.1 of Uyar 2009).
	j := New(Config{JoinAtApostrophe: true})
	for _, text := range []string{"Bursa'nın Orhangazi İlçesi'nde", "Bursa 'nın Orhangazi İlçesi 'nde"} {
		assert.Equal(t, []found{{Location, "Bursa Orhangazi İlçesi"}}, foundList(j.Find(text)), "Find(%q)", text)
	}
}

// TestDocumentMemory checks the per-call memory: later mentions of part of
// an entity inherit its type, across sentences, and nothing is kept
// between calls.
func TestDocumentMemory(t *testing.T) {
	r := New(Config{})
	tests := []struct {
		name string
		text string
		want []found
	}{
		{"surname alone", "Toplantıya Maliye Bakanı Zekeriya Temizel katıldı. Temizel, bütçeyi anlattı.",
			[]found{{Person, "Zekeriya Temizel"}, {Person, "Temizel"}}},
		{"surname that is also a place", "Toplantıda Rahmi Koç konuştu. Koç, yatırımları anlattı.",
			[]found{{Person, "Rahmi Koç"}, {Person, "Koç"}}},
		{"organization short form", "Yapı Kredi Bankası kâr açıkladı. Analistler Yapı Kredi'nin hisselerini önerdi.",
			[]found{{Organization, "Yapı Kredi Bankası"}, {Organization, "Yapı Kredi"}}},
		{"acronym in parentheses", "Kürdistan Demokrat Partisi (KDP) toplandı. SONRA KDP'NİN LİDERİ KONUŞTU.",
			[]found{{Organization, "Kürdistan Demokrat Partisi"}, {Organization, "KDP"}, {Organization, "KDP"}}},
		{"acronym of initials", "Türkiye Büyük Millet Meclisi toplandı. Karar TBMM'de alındı.",
			[]found{{Organization, "Türkiye Büyük Millet Meclisi"}, {Organization, "TBMM"}}},
		{"remembered person inside a longer candidate", "Savaşı Fransız komutan Napolyon Bonapart kaybetti. Sonra Fransa İmparatoru Napolyon sürgüne gitti.",
			[]found{{Person, "Napolyon Bonapart"}, {Location, "Fransa"}, {Person, "Napolyon"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, foundList(r.Find(tt.text)), "Find(%q)", tt.text)
		})
	}
	// The memory belongs to one call: the surname alone, in a call of its
	// own, is not known.
	assert.Empty(t, r.Find("Temizel bütçeyi anlattı."))
}

// TestOrganizationRules covers heads, boundaries and the acronym rule.
func TestOrganizationRules(t *testing.T) {
	r := New(Config{})
	tests := []struct {
		name string
		text string
		want []found
	}{
		{"place kept with the organization", "Resim sergisi dün Ankara TCDD Sanat Galerisi'nde açıldı.",
			[]found{{Organization, "Ankara TCDD Sanat Galerisi"}}},
		{"newspaper head", "Haber dün Cumhuriyet Gazetesi'nde çıktı.", []found{{Organization, "Cumhuriyet Gazetesi"}}},
		{"hotel is an organization", "Tören dün Hilton Oteli'nde yapıldı.", []found{{Organization, "Hilton Oteli"}}},
		{"hyphenated union", "Dün Türk - İş toplantı yaptı.", []found{{Organization, "Türk-İş"}}},
		{"acronym before a place", "Açıklamayı CHP İzmir Milletvekili Ali Kaya yaptı.",
			[]found{{Organization, "CHP"}, {Location, "İzmir"}, {Person, "Ali Kaya"}}},
		{"court number", "Dün Diyarbakır 3 No'lu DGM'de dava görüldü.", []found{{Organization, "Diyarbakır 3 No DGM"}}},
		{"speaker label is no acronym", "UCHE : Defansın en iyisiydi.", nil},
		{"company cue", "Japon Omron firması robot kedi üretti.", []found{{Organization, "Omron"}}},
		{"given name that is a common word", "İşçi Partisi Genel Başkanı Doğu Perinçek konuştu.",
			[]found{{Organization, "İşçi Partisi"}, {Person, "Doğu Perinçek"}}},
		{"initial split off by the sentence splitter", "B . Hakan iki gol attı.", []found{{Person, "B Hakan"}}},
		{"byline", "Neslihan CUYAR - ANKARA", []found{{Person, "Neslihan CUYAR"}, {Location, "ANKARA"}}},
		{"damaged capital", "Heyet ıstanbul'a gitti.", []found{{Location, "ıstanbul"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, foundList(r.Find(tt.text)), "Find(%q)", tt.text)
		})
	}
}
