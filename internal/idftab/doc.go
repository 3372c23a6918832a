// Package idftab holds the inverse-document-frequency tables the detectors
// weigh terms with: [Table], a detector's own online table over its live
// documents (counted on Add, uncounted on Remove, its memory following the
// live set), and the reference tables embedded in the binary ([For]), built
// once from public news collections so that a detector can weigh terms
// sensibly from its first document.
package idftab
