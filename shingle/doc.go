// Package shingle implements full fingerprinting and DSC (Broder, Glassman,
// Manasse, Zweig, WWW6 1997, as adapted to containment by Varol 2012
// §4.1.1-4.1.2) and SpotSigs (Theobald, Siddharth, Paepcke, SIGIR 2008, as
// described by Alonso, Fetterly, Manasse 2013 §3-4): three word-shingle
// detectors over one inverted index of integer posting lists.
package shingle
