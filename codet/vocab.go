package codet

import "github.com/seed-9ef9c1df/neardup/internal/hashtab"

// termHash is the 64-bit hash of a term: the content signature's
// ([worker.hash] caches it). It is odd.
func termHash(term string) uint64 { return hashtab.String64(term, 0x5bd1e995) | 1 }
