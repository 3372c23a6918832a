package engine

import (
	"fmt"

	"github.com/seed-9ef9c1df/neardup/detector"
	"github.com/seed-9ef9c1df/neardup/textproc"
)

// Shared is the Config block every detector has; a detector copies its
// Config's fields of these names into it to fill in their defaults and
// check them.
type Shared struct {
	Language     string
	Content      textproc.Content
	MaxTextBytes int
	MaxResults   int
}

// SetDefaults fills in the zero fields: Content becomes def (the
// detector's measured default), MaxTextBytes
// detector.DefaultMaxTextBytes, MaxResults detector.DefaultMaxResults.
func (s *Shared) SetDefaults(def textproc.Content) {
	DefaultLimits(&s.Content, def, &s.MaxTextBytes)
	if s.MaxResults == 0 {
		s.MaxResults = detector.DefaultMaxResults
	}
}

// CheckLanguage returns an error naming the field and wrapping
// detector.ErrInvalidConfig, prefixed with name, when Language is not a
// BCP 47 tag (textproc.ParseLanguage; "" is language-neutral).
func (s Shared) CheckLanguage(name string) error {
	if _, err := textproc.ParseLanguage(s.Language); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// CheckLimits checks the fields of a Shared whose defaults are filled in:
// MaxTextBytes and MaxResults positive, Content defined. Its error names
// the first field out of range, is prefixed with name and wraps
// detector.ErrInvalidConfig.
func (s Shared) CheckLimits(name string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: "+format+": %w", append([]any{name}, append(args, detector.ErrInvalidConfig)...)...)
	}
	switch {
	case s.MaxTextBytes < 1:
		return bad("MaxTextBytes (%d) must be ≥ 0", s.MaxTextBytes)
	case s.MaxResults < 1:
		return bad("MaxResults (%d) must be ≥ 0", s.MaxResults)
	}
	if _, err := Content(s.Content, s.Content); err != nil {
		return bad("%v", err)
	}
	return nil
}
