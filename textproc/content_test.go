package textproc_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// page is a news page as text extraction leaves it: navigation, a headline
// list and a footer around two paragraphs of story.
const page = `Home | World | Business | Sports | Opinion

Log In

Register Now

Winter No Relief for Allergy Sufferers

TRENTON, N.J. (AP) -- The unseasonably warm weather along the East Coast has
flooded some doctors' offices with patients who are suffering from allergies
that would normally have gone away with the first frost of the year.

Doctors say this winter's weather has sparked an onslaught of mold spores that
cause allergic reactions, and that the pollen of some trees is already in the
air, weeks before anyone would expect it to be.

Most Popular

Skin Deep: The Cosmetics Restriction Diet Of Modern Big City Hospital Nurses Today

San Franciscans Hurl Their Rage at Parking Patrol Officers Downtown Near The Bay

Copyright 2007 The Associated Press | Privacy Policy | Site Map | Contact Us`

func spansText(text string, spans []textproc.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, text[s.Start:s.End])
	}
	return out
}

func TestContentFilterSpans(t *testing.T) {
	story := page[strings.Index(page, "TRENTON"):strings.Index(page, "\n\nMost Popular")]
	single := "One block of text, however short or long, is read whole.\nEven over two lines."
	menuOnly := "Home\n\nWorld\n\nBusiness | Sports | Opinion"
	tests := []struct {
		name string
		lang language.Tag
		text string
		want []string
	}{
		{"page keeps the story, merged across its paragraph break", language.English, page, []string{story}},
		{"one block is read whole", language.English, single, []string{single}},
		{"no good block: the whole text", language.English, menuOnly, []string{menuOnly}},
		{"empty text: no span", language.English, "", nil},
		{"white space only: read whole", language.English, " \n\n ", []string{" \n\n "}},
		{"neutral language: sentence endings stand in for stopwords", language.Und, page, []string{story}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := textproc.NewContentFilter(tt.lang)
			assert.Equal(t, tt.want, spansText(tt.text, f.Spans(nil, tt.text)))
		})
	}
}

func TestContentFilterTurkish(t *testing.T) {
	text := "Anasayfa | Gündem | Ekonomi | Spor | Yazarlar\n\n" +
		"Başbakan dün Ankara'da düzenlenen toplantıda ekonomideki son gelişmeleri değerlendirdi ve " +
		"yeni yatırım teşviklerinin önümüzdeki ay açıklanacağını söyledi. Toplantıya bakanlar da katıldı.\n\n" +
		"Tüm hakları saklıdır © 2012 | Künye | İletişim"
	f := textproc.NewContentFilter(language.Turkish)
	got := spansText(text, f.Spans(nil, text))
	require.Len(t, got, 1)
	assert.True(t, strings.HasPrefix(got[0], "Başbakan"), got[0])
	assert.True(t, strings.HasSuffix(got[0], "katıldı."), got[0])
}

func TestAnalyzerContentMain(t *testing.T) {
	all, err := textproc.NewAnalyzer(textproc.FullConfig(language.English))
	require.NoError(t, err)
	cfg := textproc.FullConfig(language.English)
	cfg.Content = textproc.ContentMain
	main, err := textproc.NewAnalyzer(cfg)
	require.NoError(t, err)

	d := main.Analyze(page)
	require.NotEmpty(t, d.Tokens)
	start := strings.Index(page, "TRENTON")
	end := strings.Index(page, "\n\nMost Popular")
	for _, tok := range d.Tokens {
		// Offsets index the caller's whole text.
		assert.True(t, tok.Start >= start && tok.End <= end, "token %q at %d-%d outside the story", tok.Term, tok.Start, tok.End)
	}
	for _, s := range d.Sentences {
		assert.True(t, s.Start >= start && s.End <= end)
	}
	assert.Len(t, d.Sentences, 3) // "TRENTON, N.J." ends one: the splitter sees an initial before "(AP)"
	// The story's tokens are exactly those the whole-text analyzer finds in
	// the story alone (shifted by its offset).
	var want []string
	for _, tok := range all.Analyze(page[start:end]).Tokens {
		want = append(want, tok.Term)
	}
	var got []string
	for _, tok := range main.Tokens(page) {
		got = append(got, tok.Term)
	}
	assert.Equal(t, want, got)

	// ContentAll and ContentDefault read everything.
	for _, c := range []textproc.Content{textproc.ContentDefault, textproc.ContentAll} {
		cfg.Content = c
		a, err := textproc.NewAnalyzer(cfg)
		require.NoError(t, err)
		assert.Equal(t, []textproc.Span{{Start: 0, End: len(page)}}, a.ContentSpans(page))
		assert.Equal(t, len(all.Tokens(page)), len(a.Tokens(page)))
	}
	cfg.Content = 9
	_, err = textproc.NewAnalyzer(cfg)
	assert.ErrorContains(t, err, "Content")
}

func TestContentString(t *testing.T) {
	assert.Equal(t, "default", textproc.ContentDefault.String())
	assert.Equal(t, "all", textproc.ContentAll.String())
	assert.Equal(t, "main", textproc.ContentMain.String())
	assert.Equal(t, "Content(7)", textproc.Content(7).String())
	assert.False(t, textproc.Content(3).Valid())
}

func TestContentMainSteadyStateAllocs(t *testing.T) {
	for _, lang := range []language.Tag{language.English, language.Turkish, language.Und} {
		cfg := textproc.FullConfig(lang)
		cfg.Content = textproc.ContentMain
		a, err := textproc.NewAnalyzer(cfg)
		require.NoError(t, err)
		a.Analyze(page)
		assert.Zero(t, testing.AllocsPerRun(20, func() { a.Analyze(page) }), lang)
		f := textproc.NewContentFilter(lang)
		buf := f.Spans(nil, page)
		assert.Zero(t, testing.AllocsPerRun(20, func() { buf = f.Spans(buf[:0], page) }), lang)
	}
}

func TestContentFilterText(t *testing.T) {
	f := textproc.NewContentFilter(language.English)
	story := page[strings.Index(page, "TRENTON"):strings.Index(page, "\n\nMost Popular")]
	assert.Equal(t, story, f.Text(page))
	single := "One block is returned as it is."
	assert.Equal(t, single, f.Text(single))
	assert.Zero(t, testing.AllocsPerRun(10, func() { f.Text(single) }))
	// Two good blocks apart are joined by a blank line.
	para := "The minister said on Monday that the talks would go on for as long as it takes to reach a deal with them."
	two := para + "\n\nHome | News | Sport | Weather | Login | Register | Search | Jobs | Travel | More\n\n" + para
	assert.Equal(t, para+"\n\n"+para, f.Text(two))
}

func TestAnalyzerWords(t *testing.T) {
	cfg := textproc.Config{Language: language.English, Content: textproc.ContentMain}
	a, err := textproc.NewAnalyzer(cfg)
	require.NoError(t, err)
	var got []textproc.Span
	for sp := range a.Words(page) {
		got = append(got, sp)
	}
	var want []textproc.Span
	for _, tok := range a.Tokens(page) {
		want = append(want, textproc.Span{Start: tok.Start, End: tok.End})
	}
	assert.Equal(t, want, got)
	assert.True(t, got[0].Start == strings.Index(page, "TRENTON"))
}
