package ner

import "golang.org/x/text/language"

// Config configures a [Recognizer]. The zero value is TuNER for Turkish with
// the default rules and gazetteer.
type Config struct {
	// Language selects the rules, gazetteer, case folding and sentence
	// splitting. language.English (and its regional variants) selects the
	// English lists; every other tag, including the zero tag, selects
	// Turkish (Uyar 2009).
	Language language.Tag
	// Rules replaces [DefaultRules] when non-nil. The Recognizer copies it.
	Rules *Rules
	// Gazetteer replaces [DefaultGazetteer] when non-nil. The Recognizer
	// copies it.
	Gazetteer *Gazetteer
	// JoinAtApostrophe lets a candidate run on after a Turkish word with an
	// apostrophe suffix, as Uyar 2009, "TuNER", Fig. 4.1 does
	// ("Bursa'nın Orhangazi İlçesi'nde" is one entity; Tweezer sets it).
	// By default a word with an apostrophe suffix ends the candidate, the
	// convention of the Turkish NER gold standard (Tür, Hakkani-Tür, Oflazer
	// 2003: "[LOC Bursa ] 'nın [LOC Orhangazi İlçesi ]"), which is what the
	// recogniser is measured on. Either way the suffix may be attached
	// ("Bursa'nın", "Bursa’nın") or written as a word of its own ("Bursa
	// 'nın"): the entities are the same. English possessives ("Texaco
	// Inc's") always end a candidate.
	JoinAtApostrophe bool
	// Nested also reports entities nested inside longer ones: "Mersin" in
	// "Mersin Üniversitesi" (Uyar 2009 Fig. 3.1). By default only maximal
	// entities are reported.
	Nested bool
	// WholeText matches candidates partially against the entities of the
	// whole text (a surname before the full name), at the cost of a second
	// pass. By default partial matching sees only the entities found
	// earlier in the text, as Uyar 2009 §3.3 describes it.
	WholeText bool
}
