package game

import (
	"fmt"

	"orderly/strict"
)

// Unseen checks a command against what seat (a side, or Umpire) may see
// of state st (the view Sees gives): every piece it names must be in that
// view. A piece the seat cannot see gets exactly the answer a piece that
// does not exist gets, and near matches come from the view alone, so a
// refusal never tells a side what the other hides (an off-board reserve,
// a general not yet placed). The rules then check the command against the
// whole state as usual.
func Unseen(st *State, seat string, c *Command) error {
	if seat == Umpire {
		return nil
	}
	var view *State // made only to suggest a near match
	check := func(kind, id string, found bool, all func(*State) []string) error {
		if id == "" || found {
			return nil
		}
		if view == nil {
			view = st.redact(seat)
		}
		hint := ""
		if m := strict.Near(id, all(view)); len(m) > 0 {
			hint = fmt.Sprintf("; did you mean %s?", m[0])
		}
		return Reject("", "%s %s is not in this game%s", kind, strict.Quote(id, 60), hint)
	}
	unit := func(id string) error {
		return check("unit", id, st.seesUnit(seat, id), (*State).unitIDs)
	}
	general := func(id string) error {
		return check("general", id, st.seesGeneral(seat, id), (*State).generalIDs)
	}
	formation := func(id string) error {
		return check("formation", id, st.seesFormation(seat, id), (*State).formationIDs)
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
		errs = append(errs, check("messenger", c.Messenger, st.Messenger(c.Messenger) != nil, (*State).messengerIDs))
	}
	if c.To != "" {
		switch {
		case c.Verb == "attach" && !st.seesUnit(seat, c.To) && !st.seesGeneral(seat, c.To):
			errs = append(errs, check("unit or general", c.To, false, func(v *State) []string { return append(v.unitIDs(), v.generalIDs()...) }))
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

// The pieces a seat sees, as redact shows them: its own side's, and the
// other side's on the table (a formation when any of its units or its
// general is); every messenger model.

func (s *State) seesUnit(seat, id string) bool {
	u := s.Unit(id)
	return u != nil && (seat == Umpire || u.Side == seat || u.OnTable)
}

func (s *State) seesGeneral(seat, id string) bool {
	g := s.General(id)
	return g != nil && (seat == Umpire || g.Side == seat || g.OnTable)
}

func (s *State) seesFormation(seat, id string) bool {
	f := s.Formation(id)
	if f == nil {
		return false
	}
	if seat == Umpire || f.Side == seat {
		return true
	}
	for _, u := range s.Units {
		if u.Division == id && u.OnTable {
			return true
		}
	}
	for _, g := range s.Generals {
		if g.Commands == id && g.OnTable {
			return true
		}
	}
	return false
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
