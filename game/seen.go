package game

import (
	"fmt"

	"orderly/strict"
)

// Unseen checks a command against view, the state as the seat giving it may
// see it (Sees): every piece it names must be in the view. A piece the seat
// cannot see gets exactly the answer a piece that does not exist gets, and
// near matches come from the view alone, so a refusal never tells a side
// what the other hides (an off-board reserve, a general not yet placed).
// The rules then check the command against the whole state as usual.
func Unseen(view *State, c *Command) error {
	check := func(kind, id string, found bool, all func() []string) error {
		if id == "" || found {
			return nil
		}
		hint := ""
		if m := strict.Near(id, all()); len(m) > 0 {
			hint = fmt.Sprintf("; did you mean %s?", m[0])
		}
		return Reject("", "%s %s is not in this game%s", kind, strict.Quote(id, 60), hint)
	}
	unit := func(id string) error {
		return check("unit", id, view.Unit(id) != nil, view.unitIDs)
	}
	general := func(id string) error {
		return check("general", id, view.General(id) != nil, view.generalIDs)
	}
	formation := func(id string) error {
		return check("formation", id, view.Formation(id) != nil, view.formationIDs)
	}
	var errs []error
	if w := c.Write; w != nil {
		for _, f := range w.For {
			errs = append(errs, formation(f))
		}
		errs = append(errs, general(w.To))
	}
	for _, m := range c.Moves {
		errs = append(errs, unit(m.Unit), general(m.General))
	}
	for _, u := range c.Units {
		errs = append(errs, unit(u))
	}
	errs = append(errs, general(c.General), formation(c.Formation))
	if c.Messenger != "" {
		errs = append(errs, check("messenger", c.Messenger, view.Messenger(c.Messenger) != nil, view.messengerIDs))
	}
	if c.To != "" {
		switch {
		case c.Verb == "attach" && view.Unit(c.To) == nil && view.General(c.To) == nil:
			errs = append(errs, check("unit or general", c.To, false, func() []string { return append(view.unitIDs(), view.generalIDs()...) }))
		case c.Verb != "attach":
			errs = append(errs, general(c.To))
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *State) unitIDs() []string {
	out := make([]string, len(s.Units))
	for i, u := range s.Units {
		out[i] = u.ID
	}
	return out
}

func (s *State) generalIDs() []string {
	out := make([]string, len(s.Generals))
	for i, g := range s.Generals {
		out[i] = g.ID
	}
	return out
}

func (s *State) formationIDs() []string {
	out := make([]string, len(s.Formations))
	for i, f := range s.Formations {
		out[i] = f.ID
	}
	return out
}

func (s *State) messengerIDs() []string {
	out := make([]string, len(s.Messengers))
	for i, m := range s.Messengers {
		out[i] = m.ID
	}
	return out
}

// Subjecter is a rule set that names the formations a command touches:
// every formation whose pieces, orders or messengers it acts on. A seat
// that commands one formation (a corps commander's) may give a command
// only if every formation named is under his, and the server refuses any
// command the rule set cannot name (deny by default). An id that is not in
// the game is named as it is, so that it is refused like any formation the
// seat does not command.
type Subjecter interface {
	Subjects(st *State, c *Command) ([]string, error)
}

// Foresight is a rule set that can tell, of a secret roll already made,
// whether its effect is still to come (a delay not yet run out, a reserve
// not yet entered), and describe it in a few words. Revealing the dice
// seed before then tells everyone what that roll was.
type Foresight interface {
	Ahead(st *State, e *Event) (what string, ahead bool)
}
