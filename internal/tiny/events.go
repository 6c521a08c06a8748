package tiny

import (
	"fmt"
	"strconv"

	"orderly/game"
	"orderly/geom"
)

// EvMoved is the rule set's one event type: a unit moved (TINY-1).
const EvMoved = "moved"

// events is the rule set's event types, each with its payload type.
var events = game.Events[*Rules]{
	game.Type[*Rules, Moved](EvMoved),
}

// Moved is the payload of a moved event: the unit, where from and to, and
// the distance in inches (TINY-1).
type Moved struct {
	Unit     string     `json:"unit"`
	From     geom.Point `json:"from"`
	To       geom.Point `json:"to"`
	Distance float64    `json:"distance"`
}

// Fold marks the unit moved this turn; the engine moves its piece.
func (m *Moved) Fold(_ *Rules, s *game.State, _ *game.Event) error {
	u := ext(s).unit(m.Unit)
	if u == nil {
		return fmt.Errorf("no unit %s", m.Unit)
	}
	u.Moved = true
	return nil
}

// Describe says how far the unit moved, and from where to where.
func (m *Moved) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s moved %s\" from %s to %s.", name(m.Unit), geom.Tenth(m.Distance), m.From, m.To)
}

// Field gives the unit and the distance for a script's expectations.
func (m *Moved) Field(_ *Rules, _ *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{m.Unit}
	case "distance":
		return []string{strconv.FormatFloat(m.Distance, 'f', -1, 64)}
	}
	return nil
}

// EventTypes lists the rule set's event types.
func (r *Rules) EventTypes() []string { return events.Types() }

// Payload makes an empty payload for an event type.
func (r *Rules) Payload(typ string) (any, bool) { return events.Payload(typ) }

// Apply folds an event with its payload's Fold.
func (r *Rules) Apply(s *game.State, e *game.Event) error { return events.Apply(r, s, e) }

// Describe words an event with its payload's Describe.
func (r *Rules) Describe(e *game.Event, name func(string) string) string {
	return events.Describe(r, e, name)
}

// Fields lists the fields a script's expectations may name, the engine's
// among them.
func (r *Rules) Fields() []string {
	return []string{"turn", "phase", "step", "type", "side", "unit", "distance", "rule", "verb"}
}

// Match reports whether field name of e is want, with its payload's Field.
func (r *Rules) Match(e *game.Event, name, want string) bool { return events.Match(r, e, name, want) }
