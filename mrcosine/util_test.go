package mrcosine

import "math"

func pow(x float64, n int) float64 { return math.Pow(x, float64(n)) }
func acos(x float64) float64       { return math.Acos(x) }
