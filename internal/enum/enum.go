// Package enum names the values of the library's small integer
// enumerations, so that their String methods read alike.
package enum

import "fmt"

// String returns names[v], or typ(v) (as "Method(7)") when v has no
// non-empty name in names. It allocates only for an unnamed value.
func String(typ string, v int, names ...string) string {
	if v >= 0 && v < len(names) && names[v] != "" {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}
