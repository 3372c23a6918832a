module github.com/seed-9ef9c1df/neardup/internal/peerbench

go 1.26.0

require (
	github.com/dgryski/go-minhash v0.0.0-20170608043002-7fe510aff544
	github.com/ekzhu/minhash-lsh v0.0.0-20171225071031-5c06ee8586a1
	github.com/seed-9ef9c1df/neardup v0.0.0
	github.com/zeebo/xxh3 v1.1.0
)

require (
	github.com/dgryski/go-metro v0.0.0-20250106013310-edb8663e5e33 // indirect
	github.com/dgryski/go-spooky v0.0.0-20170606183049-ed3d087f40e2 // indirect
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	golang.org/x/sys v0.30.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/seed-9ef9c1df/neardup => ../..
