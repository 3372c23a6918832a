package engine

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Content resolves a detector Config's Content field: ContentDefault becomes
// def, the detector's measured default; an undefined value is an error
// naming the field (callers prefix their package and wrap
// detector.ErrInvalidConfig).
func Content(c, def textproc.Content) (textproc.Content, error) {
	if !c.Valid() {
		return c, fmt.Errorf("Content (%d) must be ContentDefault, ContentAll or ContentMain", c)
	}
	if c == textproc.ContentDefault {
		return def, nil
	}
	return c, nil
}
