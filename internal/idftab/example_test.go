package idftab_test

import (
	"fmt"

	"golang.org/x/text/language"

	"github.com/seed-9ef9c1df/neardup/internal/idftab"
)

func Example() {
	idf, ok := idftab.For(language.English)
	fmt.Println(ok, idf.N())
	// A common stem weighs less than a rare one.
	fmt.Println(idf.Weight("said") < idf.Weight("coppe"))
	// Output:
	// true 21268
	// true
}
