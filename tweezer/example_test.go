package tweezer_test

import (
	"bytes"
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/tweezer"
)

// Example signs the sample text of Uyar 2009, "Near-duplicate news
// detection using named entities", Fig. 4.1, into its 5NE5 shingles.
func Example() {
	s, err := tweezer.NewSigner(tweezer.Config{})
	if err != nil {
		panic(err)
	}
	sig := s.Sign("Bursa'nın Orhangazi İlçesi'nde apandisit ameliyatı sırasında doktor hatasına bağlı olarak " +
		"kalın bağırsağının yırtıldığı ve bunun sonucunda vücuduna enfeksiyon yayıldığı için öldüğü ileri " +
		"sürülen 13 yaşındaki Sevecan Ercan'ın dün toprağa verilen cesedi, bugün otopsi yapılmak üzere " +
		"mezardan çıkartıldı.")
	for _, sh := range sig.Shingles {
		fmt.Println(sh)
	}
	// Output:
	// Bursa Orhangazi İlçesi apandisit ameliyatı sırasında doktor hatasına
	// öldüğü ileri sürülen 13 yaşındaki Sevecan Ercan dün toprağa verilen cesedi bugün
}

func ExampleNew() {
	d, err := tweezer.New(tweezer.Config{})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	story := "Başbakan Mesut Yılmaz dün Ankara'da gazetecilere açıklama yaptı. " +
		"Yılmaz, paketin Meclis'e sunulacağını ve görüşmelerin gelecek hafta başlayacağını söyledi."
	// A copy that differs only outside the entity windows.
	copied := story + " Haberin devamı yarın yayımlanacak ve okurlar bekliyor."
	other := "Galatasaray dün akşam Fenerbahçe'yi iki golle yendi."
	for _, doc := range []detector.Doc{{ID: "a", Text: story}, {ID: "b", Text: copied}, {ID: "c", Text: other}} {
		ms, err := d.Add(doc)
		if err != nil {
			panic(err)
		}
		fmt.Println(doc.ID, ms)
	}
	// Output:
	// a []
	// b [{a 1}]
	// c []
}

// ExampleDetector_Containers shows Jaccard mode: one changed word alters
// the four windows around it, so 2 of the 10 distinct shingles are shared.
func ExampleDetector_Containers() {
	d, err := tweezer.New(tweezer.Config{Mode: tweezer.Jaccard, Threshold: 0.15, MinOverlap: 1}) // short texts: no evidence rule
	if err != nil {
		panic(err)
	}
	defer d.Close()
	base := "Başbakan Mesut Yılmaz dün Ankara'da gazetecilere açıklama yaptı. " +
		"Yılmaz, ekonomik paketin Meclis'e sunulacağını söyledi. CHP lideri Deniz Baykal pakete karşı çıktı."
	edited := "Başbakan Mesut Yılmaz dün Ankara'da gazetecilere açıklama yaptı. " +
		"Yılmaz, yeni paketin Meclis'e sunulacağını söyledi. CHP lideri Deniz Baykal pakete karşı çıktı."
	for _, doc := range []detector.Doc{{ID: "a", Text: base}, {ID: "b", Text: edited}} {
		if _, err := d.Add(doc); err != nil {
			panic(err)
		}
	}
	ms, err := d.Containers("a")
	if err != nil {
		panic(err)
	}
	for _, m := range ms {
		fmt.Printf("%s %.2f\n", m.ID, m.Score)
	}
	// Output:
	// b 0.20
}

// ExampleSignature_caseless shows copies of a Turkish text written all in
// capitals and all in lower case: they have no entities to sign, so they
// are signed by their folded words and found by their Key.
func ExampleSignature_caseless() {
	d, err := tweezer.New(tweezer.Config{Language: "tr"})
	if err != nil {
		panic(err)
	}
	defer d.Close()
	story := "İstanbul Valisi Kerem Işık dün Kadıköy'de gazetecilere açıklama yaptı. " +
		"Işık, yeni köprünün gelecek yıl açılacağını söyledi."
	for _, doc := range []detector.Doc{
		{ID: "original", Text: story},
		{ID: "capitals", Text: "İSTANBUL VALİSİ KEREM IŞIK DÜN KADIKÖY'DE GAZETECİLERE AÇIKLAMA YAPTI. " +
			"IŞIK, YENİ KÖPRÜNÜN GELECEK YIL AÇILACAĞINI SÖYLEDİ."},
		{ID: "lower", Text: "istanbul valisi kerem ışık dün kadıköy'de gazetecilere açıklama yaptı. " +
			"ışık, yeni köprünün gelecek yıl açılacağını söyledi."},
	} {
		ms, err := d.Add(doc)
		if err != nil {
			panic(err)
		}
		fmt.Println(doc.ID, d.Signer().Sign(doc.Text).Caseless, ms)
	}
	// Output:
	// original false []
	// capitals true [{original 1}]
	// lower true [{capitals 1} {original 1}]
}

// ExampleDetector_WriteTo saves a detector's state, loads it into a new
// detector made with the same Config, and looks a story up with Query
// without indexing it. The copies of a story share one index entry.
func ExampleDetector_WriteTo() {
	cfg := tweezer.Config{Language: "tr"}
	d, err := tweezer.New(cfg)
	if err != nil {
		panic(err)
	}
	story := "Başbakan Mesut Yılmaz dün Ankara'da gazetecilere açıklama yaptı."
	for _, id := range []string{"a", "b", "c"} {
		if _, err := d.Add(detector.Doc{ID: id, Text: story}); err != nil {
			panic(err)
		}
	}
	var buf bytes.Buffer
	if _, err := d.WriteTo(&buf); err != nil {
		panic(err)
	}

	restored, err := tweezer.New(cfg)
	if err != nil {
		panic(err)
	}
	if _, err := restored.ReadFrom(&buf); err != nil {
		panic(err)
	}
	copies, _ := restored.Copies("a")
	fmt.Println(restored.Len(), copies)
	ms, _ := restored.Query(detector.Doc{Text: story})
	fmt.Println(ms, restored.Len())
	// Output:
	// 3 [b c]
	// [{a 1} {b 1} {c 1}] 3
}
