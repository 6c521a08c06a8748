package game

import (
	"fmt"
	"slices"

	"orderly/geom"
	"orderly/sight"
)

// Contacted is the engine's event of contact with an enemy piece that the
// moving side did not spot (issue 32): fog of war does not refuse a move
// for a piece the mover cannot see, nor name it; the rule set carries the
// move out up to the contact (the hex before it on a hex map, where the
// footprints would touch on a table), keeps what it cost, and records the
// contact with this event. From it on, each side spots the other's piece
// of the contact as long as both stand where they were (the fog of war),
// and the event is shown to every side that then spots both pieces.
const Contacted = "contact"

// Contact is the payload of a contact event: Piece, of the side that
// moved, came upon Met, an enemy piece standing At (written as people
// write a position of the space).
type Contact struct {
	Piece string `json:"piece"`
	Met   string `json:"met"`
	At    string `json:"at"`
}

// Contact emits a contact event (Contacted): piece, of side, has come upon
// the enemy piece met, standing at at, under rule (the SPEC ID of the
// move). Outside a command the event is applied at once; in one it is
// applied with the command's other events, in order.
func (x *Tx) Contact(side, piece, met string, at geom.Point, rule string) error {
	return x.Emit(Event{Type: Contacted, Side: side, See: All, Rule: rule,
		Data: &Contact{Piece: piece, Met: met, At: x.Sc.Space().Format(at)}})
}

// describeContact is a contact event in one sentence.
func describeContact(d *Contact, name func(string) string) string {
	return fmt.Sprintf("%s came upon %s at %s", name(d.Piece), name(d.Met), d.At)
}

// touch is a contact as the fog keeps it: the side's piece (or mark) by,
// standing at from, touched the enemy's standing at at.
type touch struct {
	by       string
	from, at geom.Point
}

// contact records a contact event in the fog: each side spots the other's
// piece (or mark, such as an HQ) while both stay where they stand
// (touched), and both are looked at again at the next update.
func (f *fog) contact(s *State, d *Contact) {
	a, okA := f.markOf(s, d.Piece)
	b, okB := f.markOf(s, d.Met)
	if !okA || !okB || a.Side == b.Side {
		return
	}
	if f.touch == nil {
		f.touch = map[string]map[string][]touch{}
	}
	for _, pr := range [2][2]sight.Mark{{a, b}, {b, a}} {
		own, other := pr[0], pr[1]
		if f.touch[own.Side] == nil {
			f.touch[own.Side] = map[string][]touch{}
		}
		// One contact a pair of pieces: a piece in contact with an enemy
		// through several of the side's keeps each (a commander's strict
		// view sees those of his own formation).
		ts := slices.DeleteFunc(f.touch[own.Side][other.ID], func(t touch) bool { return t.by == own.ID })
		f.touch[own.Side][other.ID] = append(ts, touch{by: own.ID, from: own.At, at: other.At})
		if k, ok := f.find(other.ID); ok {
			f.again = append(f.again, k)
		}
	}
}

// markOf is the piece or rule set's mark id as it stands in s: a piece
// where the state has it, a mark where the last update left it (a mark
// moves only with an event, after which the fog looks again).
func (f *fog) markOf(s *State, id string) (sight.Mark, bool) {
	if p := s.Piece(id); p != nil {
		return sight.Mark{ID: p.ID, Side: p.Side, At: p.At}, p.OnTable
	}
	if k, ok := f.extra[id]; ok && f.slots[k].on {
		return f.slots[k].Mark, true
	}
	return sight.Mark{}, false
}

// touched is the slot of a piece of side si (under formation top, if not
// "") in contact with the enemy mark in slot j, both standing where they
// stood at the contact, or -1 if there is none. Contacts that no longer
// hold are forgotten.
func (f *fog) touched(si int, j int32, top string) int32 {
	side := f.sides[si]
	id := f.slots[j].ID
	ts, ok := f.touch[side][id]
	if !ok {
		return -1
	}
	found := int32(-1)
	ts = slices.DeleteFunc(ts, func(t touch) bool {
		by, ok := f.find(t.by)
		if !ok || !f.slots[by].on || !f.slots[j].on || f.slots[by].At != t.from || f.slots[j].At != t.at {
			return true
		}
		if found < 0 && (top == "" || Under(f.sc, t.by, top)) {
			found = by
		}
		return false
	})
	if len(ts) == 0 {
		delete(f.touch[side], id)
	} else {
		f.touch[side][id] = ts
	}
	return found
}
