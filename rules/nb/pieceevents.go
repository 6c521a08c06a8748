package nb

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"orderly/game"
	"orderly/geom"
)

// The events of the units and generals on the table: engagement (SPEC
// NB-6), moves (NB-7, NB-16), formation changes, attaching (NB-13), fallen
// generals (NB-15), combat (NB-6, NB-12) and reactions (NB-14).

// engaged records a division engaged with enemy units (NB-6).
type engaged struct{ Data }

// Fold marks the division engaged; events are never changed, so their
// lists can be shared.
func (p *engaged) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	return of(gs).engage(p.Formation, true, p.With)
}

// Describe names the enemy.
func (p *engaged) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s is engaged with %s", name(p.Formation), shown(name, p.With))
}

// disengaged records a division no longer engaged (NB-6).
type disengaged struct{ Data }

// Fold marks the division not engaged.
func (p *disengaged) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	return of(gs).engage(p.Formation, false, p.With)
}

// Describe says it is no longer engaged.
func (p *disengaged) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s is no longer engaged", name(p.Formation))
}

// engage sets whether formation id is engaged, and with whom.
func (s *State) engage(id string, on bool, with []string) error {
	f := s.Formation(id)
	if f == nil {
		return fmt.Errorf("formation %s is not in the scenario", id)
	}
	f.Engaged, f.With = on, with
	return nil
}

// moved records pieces moving (NB-7), past their speed on the umpire's
// word (NB-16); its moves move them.
type moved struct{ Data }

// Fold counts the inches the units move.
func (p *moved) Fold(_ *Rules, gs *game.State, e *game.Event) error {
	return of(gs).move(e.Moves, true)
}

// Describe lists each piece's move.
func (p *moved) Describe(_ *Rules, e *game.Event, name func(string) string) string {
	var b strings.Builder
	for i, m := range e.Moves {
		if i > 0 {
			b.WriteString("; ")
		}
		id := name(m.Unit)
		if m.Unit == "" {
			id = name(m.General)
		}
		from := geom.Point{}
		if m.From != nil {
			from = *m.From
		}
		fmt.Fprintf(&b, "%s %v -> %v", id, from, m.To)
		if m.Shape != "" {
			fmt.Fprintf(&b, " %s", game.Formed(m.Shape))
		}
	}
	if p.How == "umpire" {
		fmt.Fprintf(&b, "; past its speed on the umpire's word (%s)", p.Text)
	}
	return b.String()
}

// statusChanged records a unit's new status.
type statusChanged struct{ Data }

// Fold gives the unit its status.
func (p *statusChanged) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	s := of(gs)
	u := s.Unit(p.Unit)
	if u == nil {
		return fmt.Errorf("unit %s is not in the scenario", p.Unit)
	}
	u.Status = p.Status
	s.touched = append(s.touched, int32(s.unit[p.Unit]))
	return nil
}

// Describe gives the unit's status.
func (p *statusChanged) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s is %s", name(p.Unit), p.Status)
}

// attached records a general attaching to a unit or a general (NB-13).
type attached struct{ Data }

// Fold attaches the general, where the event puts him.
func (p *attached) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	g := of(gs).General(p.General)
	if g == nil {
		return fmt.Errorf("general %s is not in the scenario", p.General)
	}
	g.Attached = p.To
	if p.At != nil {
		g.At = *p.At
	}
	return nil
}

// Describe names whom he attaches to.
func (p *attached) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s attaches to %s", name(p.General), name(p.To))
}

// detached records a general detaching (NB-13).
type detached struct{ Data }

// Fold detaches the general; the orders that came while he was with a
// unit may now be read (NB-13).
func (p *detached) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	s := of(gs)
	if g := s.General(p.General); g != nil {
		g.Attached = ""
	}
	for _, o := range s.Open() {
		for i := range o.Readers {
			if o.Readers[i].General == p.General {
				o.Readers[i].Held = false
			}
		}
	}
	return nil
}

// Describe names whom he leaves.
func (p *detached) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s detaches from %s", name(p.General), name(p.To))
}

// generalRemoved records a general killed, wounded or captured (NB-15).
type generalRemoved struct{ Data }

// Fold notes his fate; he and the generals attached to him are attached
// to no one.
func (p *generalRemoved) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	s := of(gs)
	g := s.General(p.General)
	if g == nil {
		return fmt.Errorf("general %s is not in the scenario", p.General)
	}
	g.Fate, g.Attached = p.Status, ""
	for _, o := range s.Generals {
		if o.Attached == g.ID {
			o.Attached = ""
		}
	}
	return nil
}

// Describe gives his fate.
func (p *generalRemoved) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s is %s", name(p.General), p.Status)
}

// generalReplaced records a new general taking a fallen one's command
// (NB-15).
type generalReplaced struct{ Data }

// Fold puts the new general on the table in the old one's command.
func (p *generalReplaced) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	s := of(gs)
	old := s.General(p.General)
	if old == nil || p.New == nil {
		return fmt.Errorf("general %s is not in the scenario", p.General)
	}
	piece, err := gs.AddPiece(game.Piece{ID: p.New.ID, Side: old.Side, At: p.New.At, OnTable: true})
	if err != nil {
		return err
	}
	pi, _ := gs.PieceIndex(piece.ID)
	s.replace(old, &General{Piece: piece, Name: p.New.Name, Commands: old.Commands, Quality: p.New.Quality, Range: p.New.Range, pi: pi})
	return nil
}

// replace puts n in old's place: in command of his formation, the
// recipient of the messengers riding to old, and the reader of the orders
// he was to read.
func (s *State) replace(old, n *General) {
	old.Replaced = n.ID
	if s.sharedGen {
		s.gen = maps.Clone(s.gen)
		s.sharedGen = false
	}
	s.gen[n.ID] = len(s.Generals)
	s.Generals = append(s.Generals, n)
	if f := s.Formation(old.Commands); f != nil {
		f.General, f.gi = n.ID, s.gen[n.ID]
	}
	for _, m := range s.Messengers {
		if m.To == old.ID {
			m.To = n.ID
		}
	}
	for _, o := range s.Open() {
		for i := range o.Readers {
			if o.Readers[i].General == old.ID {
				o.Readers[i].General, o.Readers[i].Held = n.ID, false
			}
		}
	}
}

// Describe names the new general, the old, the command and the new one's
// quality and range.
func (p *generalReplaced) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	d := p.filled()
	who := name(d.New.ID)
	if d.New.Name != "" {
		who = d.New.Name
	}
	return fmt.Sprintf("%s replaces %s in command of %s (%s, %g\")", who, name(d.General), name(d.Formation), d.New.Quality, d.New.Range)
}

// combatDeclared records units starting combat (NB-6, NB-12).
type combatDeclared struct{ Data }

// Fold marks the units in combat.
func (p *combatDeclared) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	s := of(gs)
	for _, id := range p.Units {
		if u := s.Unit(id); u != nil {
			u.Combat = true
		}
	}
	return nil
}

// Describe names the units and their target.
func (p *combatDeclared) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	out := fmt.Sprintf("%s start combat", shown(name, p.Units))
	if p.To != "" {
		out += " with " + name(p.To)
	}
	return out
}

// reacted records cavalry reacting (NB-14); it changes nothing.
type reacted struct{ Data }

// Fold changes nothing: the event only tells.
func (p *reacted) Fold(*Rules, *game.State, *game.Event) error { return nil }

// Describe names the units.
func (p *reacted) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s react", shown(name, p.Units))
}

// generalOf is the general in command of formation, or "".
func (s *State) generalOf(formation string) string {
	if f := s.Formation(formation); f != nil {
		return f.General
	}
	return ""
}

// move counts the inches each unit moves (NB-7: count says the move is
// one the units make, not an entry), notes where it stood when it first
// moved this turn (NB-16), and takes attached generals along (NB-13).
// The engine then moves the pieces themselves.
func (s *State) move(moves []game.Move, count bool) error {
	anyAttached := slices.ContainsFunc(s.Generals, func(g *General) bool { return g.Attached != "" })
	var starts []geom.Point // where the units first moving now stood
	for _, m := range moves {
		if m.Unit != "" {
			i, ok := s.unitAt(m)
			if !ok {
				return fmt.Errorf("unit %s is not in the scenario", m.Unit)
			}
			u := s.Units[i]
			s.touched = append(s.touched, int32(i))
			if count && u.OnTable {
				u.Moved += u.At.Dist(m.To)
				if u.Start == nil {
					if starts == nil {
						starts = s.pts.Take(len(moves))[:0]
					}
					starts = append(starts, u.At)
					u.Start = &starts[len(starts)-1]
				}
			}
			if anyAttached {
				for _, g := range s.Generals {
					if g.Attached == u.ID {
						g.At = m.To
					}
				}
			}
			continue
		}
		g := s.General(m.General)
		if g == nil {
			return fmt.Errorf("general %s is not in the scenario", m.General)
		}
		for _, o := range s.Generals {
			if o.Attached == g.ID {
				o.At = m.To
			}
		}
	}
	return nil
}
