package nb

import (
	"fmt"
	"slices"

	"orderly/game"
	"orderly/sight"
	"orderly/strict"
)

// Marks calls add for every messenger model on the table (game.Marker):
// with fog of war a messenger may be seen, or not, as a piece may.
func (r *Rules) Marks(gs *game.State, add func(sight.Mark)) {
	for _, m := range of(gs).Messengers {
		add(m.mark())
	}
}

// Mark is messenger id's model, if it is on the table (game.Tracker).
func (r *Rules) Mark(gs *game.State, id string) (sight.Mark, bool) {
	if m := of(gs).Messenger(id); m != nil {
		return m.mark(), true
	}
	return sight.Mark{}, false
}

func (m *Messenger) mark() sight.Mark {
	return sight.Mark{ID: m.ID, Side: m.Side, Kind: "messenger", At: m.At}
}

// Touched names what an event's fold changes on the table beside the
// event's moves (game.Tracker), so that fog of war looks again at those
// alone: the messenger it sends, moves or takes off; the general it places
// or attaches with a move of his own; and, when units or generals move,
// every attached general, who goes with what he is attached to (NB-13). A
// replacement general is a new piece, which the engine sees for itself.
// Whatever Apply moves must be named here.
func (r *Rules) Touched(gs *game.State, e *game.Event, piece func(int), mark func(string)) {
	d := DataOf(e)
	if d == nil {
		return
	}
	s := of(gs)
	switch e.Type {
	case MessengerSent, MessengerMoved, MessengerWithdrawn:
		mark(d.Messenger)
	case GeneralPlaced, Attached:
		if g := s.General(d.General); g != nil {
			piece(g.pi)
		}
	case Moved, ReserveEntered:
		for _, g := range s.Generals {
			if g.Attached != "" {
				piece(g.pi)
			}
		}
	}
}

// View is the state as seat (a side id, or game.Umpire) may see it. For a
// side it leaves out the opponent's orders, the order and recipient of the
// opponent's messengers (their models on the table stay in view), the
// opponent's counts of orders written, his off-board reserves until their
// general is placed, and any piece of his that is not on the table.
// Played with fog of war, it also leaves out the opponent's pieces and
// messengers the seat does not spot, and every mention of them (the
// general of a formation it sees, what a general is attached to, who
// replaced him); a formation of his none of whose pieces it spots is left
// out as one off the table is; how many messengers he has sent; what comes
// from what his pieces spot: the engagement of his formations (NB-6) and
// the entry point of his reserve (NB-10); and how far each unit of his
// moved this turn, from where, and whether it started combat.
func (r *Rules) View(gs *game.State, seat string) *game.State {
	s := of(gs)
	w := viewer{gs: gs, seat: seat, fog: gs.Fogged() && seat != game.Umpire}
	w.out = gs.Copy(func(p *game.Piece) bool { return w.mine(p.Side) || p.OnTable && !w.hidden(p.ID) })
	onTable := map[string]bool{} // the formations with a piece on the table in view
	v := &State{Sides: w.sides(s), Units: w.units(s, onTable), Generals: w.generals(s, onTable)}
	v.Formations = w.formations(s, onTable) // once the units and generals have marked onTable
	v.Messengers, v.Orders = w.messengers(s), w.orders(s)
	v.index()
	w.out.Ext = v
	return w.out
}

// viewer makes a seat's view of NB's part of the state (View).
type viewer struct {
	gs   *game.State
	seat string
	fog  bool        // played with fog of war, and the seat is a side's
	out  *game.State // the view of the engine's state: the pieces in view
}

// mine reports whether the seat sees side's own secrets: the umpire's
// seat sees every side's.
func (w viewer) mine(side string) bool { return w.seat == game.Umpire || side == w.seat }

// hidden reports whether fog of war hides piece or messenger id from the
// seat.
func (w viewer) hidden(id string) bool { return w.fog && id != "" && w.gs.Hidden(w.seat, id) }

// sides are the sides as the seat sees them: the opponent's counts of
// orders written left out and, with fog of war, how many messengers he
// sent, which counts those the seat never spotted.
func (w viewer) sides(s *State) []SideState {
	var out []SideState
	for _, sd := range s.Sides {
		switch {
		case w.mine(sd.ID):
			out = append(out, sd)
		case w.fog:
			out = append(out, SideState{ID: sd.ID})
		default:
			out = append(out, SideState{ID: sd.ID, Messengers: sd.Messengers})
		}
	}
	return out
}

// units are the units in view; with fog of war, how far the opponent's
// moved this turn and from where, and whether they started combat, are
// his to know. It marks in onTable the divisions with a unit on the table.
func (w viewer) units(s *State, onTable map[string]bool) []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		p := w.out.Piece(u.ID)
		if p == nil {
			continue
		}
		c := *u
		c.Piece = p
		if w.fog && !w.mine(u.Side) {
			c.Moved, c.Start, c.Combat = 0, nil, false
		}
		out = append(out, &c)
		if u.OnTable {
			onTable[u.Division] = true
		}
	}
	return out
}

// generals are the generals in view, without what an opponent's is
// attached to or replaced by when that is hidden. It marks in onTable the
// formations whose general is on the table.
func (w viewer) generals(s *State, onTable map[string]bool) []*General {
	var out []*General
	for _, g := range s.Generals {
		p := w.out.Piece(g.ID)
		if p == nil {
			continue
		}
		c := *g
		c.Piece = p
		if !w.mine(g.Side) && w.hidden(c.Attached) {
			c.Attached = ""
		}
		if !w.mine(g.Side) && w.hidden(c.Replaced) {
			c.Replaced = ""
		}
		out = append(out, &c)
		if g.OnTable {
			onTable[g.Commands] = true
		}
	}
	return out
}

// formations are the seat's own formations, and those of the opponent
// with a piece on the table in view (onTable), without their orders nor,
// with fog of war, their engagement and entry point.
func (w viewer) formations(s *State, onTable map[string]bool) []*Formation {
	var out []*Formation
	for _, f := range s.Formations {
		if w.mine(f.Side) {
			c := *f
			c.With = slices.Clone(f.With)
			if w.fog {
				// Its own units spot every division it is engaged with
				// (NB-6 under fog); a strict commander's seat is shown
				// those his own formation spots.
				c.With = slices.DeleteFunc(c.With, w.hidden)
			}
			out = append(out, &c)
			continue
		}
		if !onTable[f.ID] {
			continue
		}
		general := f.General
		if w.hidden(general) {
			general = ""
		}
		c := &Formation{
			ID: f.ID, Side: f.Side, Kind: f.Kind, Parent: f.Parent, General: general,
			Engaged: f.Engaged, With: slices.Clone(f.With), Placed: f.Placed,
			Arrival: f.Arrival, Entered: f.Entered, EnterAt: f.EnterAt,
		}
		if w.fog {
			// The enemy's engagement is what his units spot, which may be
			// units the seat does not, and so is where his entering
			// reserve's entry point slid to (NB-10): his to know.
			c.Engaged, c.With, c.EnterAt = false, nil, nil
		}
		out = append(out, c)
	}
	return out
}

// messengers are the messengers in view, without the order and recipient
// of the opponent's.
func (w viewer) messengers(s *State) []*Messenger {
	var out []*Messenger
	for _, m := range s.Messengers {
		if !w.mine(m.Side) && w.hidden(m.ID) {
			continue
		}
		c := *m
		if !w.mine(m.Side) {
			c.Order, c.To = "", ""
		}
		out = append(out, &c)
	}
	return out
}

// orders are the seat's own orders.
func (w viewer) orders(s *State) []*OrderState {
	var out []*OrderState
	for _, o := range s.Orders {
		if w.mine(o.Side) {
			c := *o
			c.Readers = slices.Clone(o.Readers)
			out = append(out, &c)
		}
	}
	return out
}

// Seen lists the ids of the formations, generals and units in a view
// (game.Lister).
func (r *Rules) Seen(gs *game.State) []string {
	s := of(gs)
	var out []string
	for _, f := range s.Formations {
		out = append(out, f.ID)
	}
	for _, g := range s.Generals {
		out = append(out, g.ID)
	}
	for _, u := range s.Units {
		out = append(out, u.ID)
	}
	return out
}

// Unseen checks a command against what seat (a side, or game.Umpire) may
// see of the state: every piece it names must be in that view. A piece
// the seat cannot see gets exactly the answer a piece that does not exist
// gets, and near matches come from the view alone, so a refusal never
// tells a side what the other hides (an off-board reserve, a general not
// yet placed). The rules then check the command against the whole state
// as usual.
func (r *Rules) Unseen(gs *game.State, seat string, gc *game.Command) error {
	if seat == game.Umpire {
		return nil
	}
	c, err := argsOf(gc)
	if err != nil {
		return err
	}
	st := of(gs)
	var view *State // made only to suggest a near match
	check := func(kind, id string, found bool, all func(*State) []string) error {
		if id == "" || found {
			return nil
		}
		if view == nil {
			view = of(r.View(gs, seat))
		}
		hint := ""
		if m := strict.Near(id, all(view)); len(m) > 0 {
			hint = fmt.Sprintf("; did you mean %s?", m[0])
		}
		return game.Reject("", "%s %s is not in this game%s", kind, strict.Quote(id, 60), hint)
	}
	// With fog of war an enemy piece or messenger none of the seat's
	// pieces spots is not in its view (Hidden is false without fog).
	seesUnit := func(id string) bool { return st.seesUnit(seat, id) && !gs.Hidden(seat, id) }
	seesGeneral := func(id string) bool { return st.seesGeneral(seat, id) && !gs.Hidden(seat, id) }
	seesFormation := func(id string) bool { return st.seesFormation(seat, id) && st.spotsFormation(gs, seat, id) }
	unit := func(id string) error {
		return check("unit", id, seesUnit(id), (*State).unitIDs)
	}
	general := func(id string) error {
		return check("general", id, seesGeneral(id), (*State).generalIDs)
	}
	formation := func(id string) error {
		return check("formation", id, seesFormation(id), (*State).formationIDs)
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
	if c.Target != "" && !seesUnit(c.Target) && !seesFormation(c.Target) {
		errs = append(errs, check("unit or division", c.Target, false, func(v *State) []string { return append(v.unitIDs(), v.formationIDs()...) }))
	}
	if c.Messenger != "" {
		errs = append(errs, check("messenger", c.Messenger, st.Messenger(c.Messenger) != nil && !gs.Hidden(seat, c.Messenger), (*State).messengerIDs))
	}
	if c.To != "" {
		switch {
		case c.Verb == "attach" && !seesUnit(c.To) && !seesGeneral(c.To):
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
	return u != nil && (seat == game.Umpire || u.Side == seat || u.OnTable)
}

func (s *State) seesGeneral(seat, id string) bool {
	g := s.General(id)
	return g != nil && (seat == game.Umpire || g.Side == seat || g.OnTable)
}

func (s *State) seesFormation(seat, id string) bool {
	f := s.Formation(id)
	if f == nil {
		return false
	}
	if seat == game.Umpire || f.Side == seat {
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

// spotsFormation reports whether seat spots formation id with fog of war
// (as View shows it): its own, or the enemy's while it spots one of its
// units or its general on the table. Without fog it is always true.
func (s *State) spotsFormation(gs *game.State, seat, id string) bool {
	f := s.Formation(id)
	if !gs.Fogged() || seat == game.Umpire || f == nil || f.Side == seat {
		return true
	}
	for _, u := range s.Units {
		if u.Division == id && u.OnTable && !gs.Hidden(seat, u.ID) {
			return true
		}
	}
	for _, g := range s.Generals {
		if g.Commands == id && g.OnTable && !gs.Hidden(seat, g.ID) {
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
