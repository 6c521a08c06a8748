package lob

import (
	"fmt"
	"strings"

	"orderly/game"
)

// words turns a result or stage key into words: not-accepted, not accepted.
func words(s string) string { return strings.ReplaceAll(s, "-", " ") }

// list joins names: a, b and c.
func list(xs []string, name func(string) string) string {
	n := make([]string, len(xs))
	for i, x := range xs {
		n[i] = name(x)
	}
	switch len(n) {
	case 0:
		return ""
	case 1:
		return n[0]
	}
	return strings.Join(n[:len(n)-1], ", ") + " and " + n[len(n)-1]
}

// orderText words an order: "attack order french-3 to II".
func orderText(o *Order, name func(string) string) string {
	s := o.Kind + " order " + o.ID
	if o.Kind == "" {
		s = "release " + o.ID
	}
	return s + " to " + name(o.To)
}

// Describe says in one sentence what one of LOB's events records, with
// its payload's Describe; an event without a payload reads as its type.
func (r *Rules) Describe(e *game.Event, name func(string) string) string {
	if s := events.Describe(r, e, name); s != "" {
		return s
	}
	return e.Type
}

// rollText words e's roll i for the log, " (lob/acceptance 4, total 5)";
// "" when e has no roll i.
func rollText(e *game.Event, i int) string {
	if i >= len(e.Rolls) {
		return ""
	}
	ro := e.Rolls[i]
	return fmt.Sprintf(" (%s %d, total %d)", ro.Table, ro.Natural, ro.Total)
}

// entryText words a piece entering elsewhere than its scenario's hex
// (3.7a): "26-ny enters at 0208, as 0108 is held by the enemy".
func entryText(en Entry, name func(string) string) string {
	who := name(en.Piece)
	if id, ok := strings.CutPrefix(en.Piece, "hq:"); ok {
		who = "the HQ of " + name(id)
	}
	switch {
	case en.Far:
		return fmt.Sprintf("%s enters at %s, the nearest free hex, as %s, the rest of its entry area and every road hex on a map edge are held by the enemy or full", who, en.At, en.From)
	case en.Road:
		return fmt.Sprintf("%s enters at %s, a road hex leading off the map, as %s and the rest of its entry area are held by the enemy or full", who, en.At, en.From)
	case en.Why == "full":
		return fmt.Sprintf("%s enters at %s, as %s is full", who, en.At, en.From)
	}
	return fmt.Sprintf("%s enters at %s, as %s is held by the enemy", who, en.At, en.From)
}
