//go:build ignore

// gen_gazetteer derives the Zemberek-based word lists embedded in package ner
// from the Zemberek NLP lexicons (Apache-2.0, see NOTICE):
//
//	go run gen_gazetteer.go -src ../../shared/data/gazetteer-tr -corpus ../../shared/data/ttc3600.jsonl
//
// It writes data/tr-given-names.txt (the entries of person-names.dict),
// data/tr-common-names.txt (those of them that are also common words) and
// data/tr-places.txt (proper.dict reduced to place names by the filters of
// placeName below).
//
// "Common word" is measured on a Turkish news corpus (TTC-3600): a word the
// corpus writes in lower case more often than capitalised in mid-sentence is
// a common word ("savaş", "devlet", "dünya"). Only these counts are used;
// no text of the corpus is written out.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// countCase counts, per lower-cased word stem (apostrophe suffix dropped),
// how often the corpus writes it in lower case and how often capitalised
// in mid-sentence.
func countCase(path string) (lower, capMid map[string]int) {
	lower, capMid = map[string]int{}, map[string]int{}
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var rec struct{ Text string }
		if json.Unmarshal(sc.Bytes(), &rec) != nil {
			continue
		}
		text := rec.Text
		for s := range textproc.Sentences(text, language.Turkish) {
			first := true
			for sp := range textproc.Words(text[s.Start:s.End]) {
				w := text[s.Start+sp.Start : s.Start+sp.End]
				if i := strings.IndexAny(w, "'’"); i > 0 {
					w = w[:i]
				}
				c, _ := utf8.DecodeRuneInString(w)
				k := strings.ToLowerSpecial(unicode.TurkishCase, w)
				switch {
				case unicode.IsLower(c):
					lower[k]++
				case unicode.IsUpper(c) && !first:
					capMid[k]++
				}
				first = false
			}
		}
	}
	return lower, capMid
}

func main() {
	src := flag.String("src", "../../shared/data/gazetteer-tr", "directory holding the Zemberek .dict files")
	corpus := flag.String("corpus", "../../shared/data/ttc3600.jsonl", "Turkish news corpus (JSON lines with a text field) for the common-word counts")
	flag.Parse()
	lower, capMid := countCase(*corpus)
	common := func(w string) bool {
		k := strings.ToLowerSpecial(unicode.TurkishCase, w)
		return lower[k] >= 2 && lower[k] > capMid[k]
	}
	names := read(filepath.Join(*src, "person-names.dict"), nil)
	var commonNames []string
	for _, w := range names {
		if common(w) {
			commonNames = append(commonNames, w)
		}
	}
	write("data/tr-given-names.txt", "Turkish given names", "person-names.dict (every entry)", names)
	write("data/tr-common-names.txt", "Turkish given names that are also common words",
		"person-names.dict, keeping the names that TTC-3600 news writes in lower case more often than capitalised mid-sentence", commonNames)

	var tags = map[string]string{}
	proper := read(filepath.Join(*src, "proper.dict"), tags)
	set := map[string]bool{}
	for _, w := range proper {
		set[w] = true
	}
	var places []string
	for _, w := range proper {
		if placeName(w, tags[w], set) && !common(w) {
			places = append(places, w)
		}
	}
	var peoples []string
	for _, w := range proper {
		if !placeName(w, tags[w], set) && !notPlaces[w] && !countries[w] {
			peoples = append(peoples, w)
		}
	}
	write("data/tr-not-places.txt", "proper nouns that are not places: peoples, languages, demonyms, doctrines, adjectives",
		"proper.dict, keeping exactly the entries the place filter drops", peoples)
	write("data/tr-places.txt", "Turkish place names (provinces, districts, countries, regions)",
		"proper.dict without adjectives, interjections, adverbs, [A:NoQuote] entries (doctrines, religions), "+
			"language names (X+ca/ce/ça/çe when X is listed), demonyms (X+lı/li/lu/lü when X is listed) "+
			"and -izm/-ist/-oloji/-lik words", places)
}

// placeName reports whether the proper.dict entry w, with attribute string
// tag, is kept as a place name.
func placeName(w, tag string, set map[string]bool) bool {
	if notPlaces[w] {
		return false
	}
	for _, bad := range []string{"P:Adj", "P:Interj", "P:Adv", "NoQuote"} {
		if strings.Contains(tag, bad) {
			return false
		}
	}
	for _, suf := range []string{"ca", "ce", "ça", "çe", "lı", "li", "lu", "lü"} {
		if stem, ok := strings.CutSuffix(w, suf); ok && set[stem] {
			return false
		}
		// X with a language name X+ca is a people, not a place ("Alman",
		// "Kürt"); China is the exception that proves the rule.
		if set[w+suf] && suf[0] != 'l' && !countries[w] {
			return false
		}
	}
	for _, suf := range []string{"izm", "ist", "oloji", "cilik", "çilik"} {
		if strings.HasSuffix(w, suf) {
			return false
		}
	}
	return true
}

// countries whose name is also the root of their language name ("İsveç",
// "İsveççe"), which the people filter of placeName would otherwise drop.
var countries = map[string]bool{
	"Çin": true, "İsveç": true, "Norveç": true, "Japonya": true, "Kore": true,
	"Bask": true, "Tibet": true, "Kırım": true, "Tatar": false,
}

// notPlaces are proper.dict entries that are not places, or whose use in
// news is overwhelmingly not the place: religions and sacred names, and
// words news text uses for something else ("Atatürk", the person; "Duma",
// the Russian parliament; "Saray", "Bahçe" as parts of club nicknames).
var notPlaces = map[string]bool{
	"Alevi": true, "İslam": true, "Allah": true, "Hindu": true, "Buda": true,
	"Ar": true, "Şark": true, "Atatürk": true, "Duma": true, "Güneş": true,
	"Evren": true, "Saray": true, "Bahçe": true, "Tanrı": true,
}

// read returns the head words of a Zemberek .dict file ("word [attrs]"),
// skipping comments, recording each word's attribute string in tags.
func read(path string, tags map[string]string) []string {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		word, attrs, _ := strings.Cut(line, " [")
		word = strings.TrimSpace(word)
		if word == "" {
			continue
		}
		if tags != nil {
			tags[word] += attrs
		}
		out = append(out, word)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func write(path, what, how string, words []string) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s, one per line.\n", what)
	fmt.Fprintf(&b, "# Derived by gen_gazetteer.go from the Zemberek NLP lexicon %s.\n", how)
	b.WriteString("# Source: Zemberek NLP, github.com/ahmetaa/zemberek-nlp, Copyright 2018 Ahmet A. Akın,\n")
	b.WriteString("# Mehmet D. Akın; Apache License 2.0 (see ../NOTICE). Generated 2026-11-22.\n")
	for _, w := range words {
		b.WriteString(w)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
