package textproc

// Static stopword data, unexported so that it stays immutable: read through
// Stopwords.

// turkishStopwords is Table 2.1 of Varol 2012 (§2.1.2): "180 stop
// words automatically generated from BilCol-2005". The text extraction of the
// table yields 182 distinct comma-separated words (two line wraps lost their
// commas: "ben beni", "birşeyi biz", ...); all 182 are kept as printed.
var turkishStopwords = []string{
	"acaba", "altı", "ama", "ancak", "artık", "asla", "aslında", "az",
	"bana", "bazen", "bazı", "bazıları", "bazısı", "belki", "ben", "beni",
	"benim", "beş", "bile", "bir", "birçoğu", "birçok", "birçokları", "biri",
	"birisi", "birkaç", "birkaçı", "birşey", "birşeyi", "biz", "bize", "bizi",
	"bizim", "böyle", "böylece", "bu", "buna", "bunda", "bundan", "bunu",
	"bunun", "burada", "bütün", "çoğu", "çoğuna", "çoğunu", "çok", "çünkü",
	"da", "daha", "de", "değil", "demek", "diğer", "diğeri", "diğerleri",
	"diye", "dokuz", "dolayı", "dört", "elbette", "fakat", "falan", "felan",
	"filan", "gene", "gibi", "hala", "hangi", "hangisi", "hani", "hatta",
	"hem", "henüz", "hep", "hepsi", "hepsine", "hepsini", "her", "herkes",
	"herkese", "herkesi", "hiç", "hiçbiri", "hiçbirine", "hiçbirini", "için", "içinde",
	"iki", "ile", "ise", "işte", "kaç", "kadar", "kendi", "kendine",
	"kendini", "ki", "kim", "kime", "kimi", "kimisi", "madem", "mı",
	"mi", "mu", "mü", "nasıl", "ne", "neden", "nedir", "nerde",
	"nerede", "nereden", "nereye", "nesi", "neyse", "niçin", "niye", "on",
	"ona", "ondan", "onlar", "onlara", "onlardan", "onların", "onu", "onun",
	"orada", "oysa", "oysaki", "öbürü", "ön", "önce", "ötürü", "öyle",
	"rağmen", "sana", "sekiz", "sen", "senden", "seni", "senin", "siz",
	"sizden", "size", "sizi", "sizin", "son", "sonra", "şayet", "şey",
	"şeyden", "şeye", "şeyi", "şeyler", "şimdi", "şöyle", "şu", "şuna",
	"şunda", "şundan", "şunlar", "şunu", "şunun", "tabi", "tamam", "tüm",
	"tümü", "üç", "üzere", "var", "ve", "ya", "yahut", "yani",
	"yedi", "yerine", "yine", "yoksa", "zaten", "zira",
}

// englishStopwords is the Snowball English stop word list (Porter,
// snowball.tartarus.org, "english/stop.txt"), the list Lucene and Snowball
// stemmers ship, reduced to the forms our tokenizer produces: contractions
// such as "don't" are absent because the apostrophe form is kept whole.
var englishStopwords = []string{
	"a", "about", "above", "after", "again", "against", "all", "am",
	"an", "and", "any", "are", "as", "at", "be", "because",
	"been", "before", "being", "below", "between", "both", "but", "by",
	"can", "could", "did", "do", "does", "doing", "down", "during",
	"each", "few", "for", "from", "further", "had", "has", "have",
	"having", "he", "her", "here", "hers", "herself", "him", "himself",
	"his", "how", "i", "if", "in", "into", "is", "it",
	"its", "itself", "just", "me", "more", "most", "my", "myself",
	"no", "nor", "not", "now", "of", "off", "on", "once",
	"only", "or", "other", "our", "ours", "ourselves", "out", "over",
	"own", "same", "she", "should", "so", "some", "such", "than",
	"that", "the", "their", "theirs", "them", "themselves", "then", "there",
	"these", "they", "this", "those", "through", "to", "too", "under",
	"until", "up", "very", "was", "we", "were", "what", "when",
	"where", "which", "while", "who", "whom", "why", "will", "with",
	"would", "you", "your", "yours", "yourself", "yourselves",
}
