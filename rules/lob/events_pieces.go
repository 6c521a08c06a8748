package lob

import (
	"fmt"

	"orderly/game"
	"orderly/geom"
)

// The events of pieces: moves, formation changes and losses.

// Moved is the payload of a moved event.
type Moved struct {
	Unit   string       `json:"unit,omitempty"`
	Leader string       `json:"leader,omitempty"`
	HQ     string       `json:"hq,omitempty"`   // a Command's HQ
	Army   string       `json:"army,omitempty"` // a side's army HQ
	Path   []geom.Point `json:"path"`
	To     string       `json:"to"`
	Cost   int          `json:"cost"`
	Posted bool         `json:"posted,omitempty"` // a battery posted (LOB-4)
}

// Fold spends the movement points of a move (LOB-2) and puts an HQ, which
// is no piece of the engine's, at the end of its path. A unit remembers
// where its turn's moves began, and a battery posted is posted.
func (d *Moved) Fold(r *Rules, s *game.State, e *game.Event) error {
	if len(d.Path) == 0 {
		return fmt.Errorf("a move with no path")
	}
	st := ext(s)
	switch {
	case d.Army != "":
		sd, err := st.needSide(d.Army)
		if err != nil {
			return err
		}
		sd.HQUsed += d.Cost
		sd.HQ = d.Path[len(d.Path)-1]
	case d.HQ != "":
		f, err := st.needFormation(d.HQ)
		if err != nil {
			return err
		}
		f.HQUsed += d.Cost
		f.HQ = d.Path[len(d.Path)-1]
	case d.Leader != "":
		l, err := st.needLeader(d.Leader)
		if err != nil {
			return err
		}
		l.Used += d.Cost
	default:
		u, err := st.needUnit(d.Unit)
		if err != nil {
			return err
		}
		if u.Used == 0 {
			u.Start = u.At
		}
		u.Used += d.Cost
		if d.Posted {
			u.Posted = true
		}
	}
	return nil
}

// Describe words a move.
func (d *Moved) Describe(r *Rules, e *game.Event, name func(string) string) string {
	who := name(d.Unit)
	switch {
	case d.Army != "":
		who = "the army HQ of " + d.Army
	case d.HQ != "":
		who = "the HQ of " + name(d.HQ)
	case d.Leader != "":
		who = name(d.Leader)
	}
	verb := "moves"
	if d.Posted {
		verb = "is posted"
	}
	return fmt.Sprintf("%s %s to %s (%s MP).", who, verb, d.To, MP(d.Cost))
}

// Field gives a move's unit, leader, HQ's Command (command), hex reached
// (to) and cost in MP.
func (d *Moved) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{d.Unit}
	case "leader":
		return []string{d.Leader}
	case "command":
		return []string{d.HQ}
	case "to":
		return []string{d.To}
	case "cost":
		return []string{MP(d.Cost)}
	}
	return nil
}

// Formed is the payload of a formed event.
type Formed struct {
	Unit      string `json:"unit"`
	Formation string `json:"formation"`
}

// Fold keeps a posted battery posted only while it stays unlimbered
// (LOB-4).
func (d *Formed) Fold(r *Rules, s *game.State, e *game.Event) error {
	if u := ext(s).Unit(d.Unit); u != nil {
		u.Posted = u.Posted && d.Formation == "unlimbered"
	}
	return nil
}

// Describe words a change of formation.
func (d *Formed) Describe(r *Rules, e *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s forms %s.", name(d.Unit), d.Formation)
}

// Field gives the unit that changes formation.
func (d *Formed) Field(r *Rules, e *game.Event, name string) []string {
	if name == "unit" {
		return []string{d.Unit}
	}
	return nil
}

// Lost is the payload of a lost event.
type Lost struct {
	Unit   string `json:"unit"`
	Points int    `json:"points"`
	Left   int    `json:"left"` // strength left: 0, eliminated
	// Command is the Command whose attack losses it counted to (LOB-7),
	// in logs made before issue 32: it told the enemy of a secret order,
	// and is no longer written (Fold works it out).
	Command string `json:"command,omitempty"`
}

// Fold takes strength from a unit; one with none left is gone from the
// field: under fog of war it spots nothing more and is not spotted. The
// losses of a division under an accepted attack order count toward its
// fluke stoppage checks (LOB-7); a log made before issue 32 names the
// division in the event, and it is the same one.
func (d *Lost) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	u, err := st.needUnit(d.Unit)
	if err != nil {
		return err
	}
	u.Strength -= d.Points
	if u.Strength <= 0 {
		u.Strength, u.Gone, u.OnTable = 0, true, false
	}
	if f := st.Formation(u.Command); f != nil && st.liveAttack(f) != nil && f.FlukeFrom > 0 {
		f.Losses += d.Points
	}
	return nil
}

// Describe words a loss of strength.
func (d *Lost) Describe(r *Rules, e *game.Event, name func(string) string) string {
	if d.Left == 0 {
		return fmt.Sprintf("%s loses %s and is eliminated.", name(d.Unit), plural(d.Points, "strength point", "strength points"))
	}
	return fmt.Sprintf("%s loses %s (%d left).", name(d.Unit), plural(d.Points, "strength point", "strength points"), d.Left)
}

// Field gives the unit that loses strength and, in an old log, the
// Command whose attack losses it counted to.
func (d *Lost) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{d.Unit}
	case "command":
		return []string{d.Command}
	}
	return nil
}
