package nes

import (
	"fmt"
	"strconv"
	"strings"

	"orderly/game"
	"orderly/geom"
)

// The events of the movement phase: a piece moves over the map (NES-7) and
// a combat unit changes formation.

// Moved is the payload of a moved event.
type Moved struct {
	Unit   string       `json:"unit,omitempty"`
	Leader string       `json:"leader,omitempty"`
	HQ     string       `json:"hq,omitempty"` // the side whose headquarters moves
	Path   []geom.Point `json:"path"`
	To     string       `json:"to"`   // the last hex, by its label
	Cost   int          `json:"cost"` // sixths of a movement point
	Mode   string       `json:"mode,omitempty"`
	// Disorder and General say the unit disorders, or takes general
	// order, on the way (NES-7's D and G); DisorderAt and GeneralAt name
	// the hex entered where it did, from which on the move was priced so.
	Disorder   bool   `json:"disorder,omitempty"`
	General    bool   `json:"general-order,omitempty"`
	DisorderAt string `json:"disorder-at,omitempty"`
	GeneralAt  string `json:"general-order-at,omitempty"`
}

// Fold spends the movement points of the headquarters, command unit or
// combat unit that moves and puts it at the path's last hex; a combat unit
// that disorders on the way is disordered (NES-7).
func (d *Moved) Fold(_ *Rules, s *game.State, _ *game.Event) error {
	st := ext(s)
	var to *geom.Point
	if len(d.Path) > 0 {
		to = &d.Path[len(d.Path)-1]
	}
	if d.HQ != "" {
		sd := st.Side(d.HQ)
		if sd == nil {
			return fmt.Errorf("no side %s", d.HQ)
		}
		sd.Used += d.Cost
		if to != nil {
			sd.HQ = *to
		}
		return nil
	}
	if d.Leader != "" {
		l, err := st.commandUnit(d.Leader)
		if err != nil {
			return err
		}
		l.Used += d.Cost
		l.GT = d.Mode == "grand-tactical"
		if to != nil {
			st.moved(l.Side, false, l.At, to)
		}
		return nil
	}
	u, err := st.combatUnit(d.Unit)
	if err != nil {
		return err
	}
	u.Used += d.Cost
	u.GT = d.Mode == "grand-tactical"
	if to != nil {
		st.moved(u.Side, true, u.At, to)
	}
	if d.Disorder {
		u.Status = "disordered"
	}
	return nil
}

// Describe says who moves how far, where to, at what cost, and whether
// the unit disorders or takes general order on the way (and where, if not
// at the end).
func (d *Moved) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	who := name(d.Unit)
	if d.Leader != "" {
		who = name(d.Leader)
	}
	if d.HQ != "" {
		who = d.HQ + "'s headquarters"
	}
	var fx []string
	at := func(what, hex string) string {
		if hex == "" || hex == d.To {
			return what
		}
		return what + " at " + hex
	}
	if d.Disorder {
		fx = append(fx, at("disorders", d.DisorderAt))
	}
	if d.General {
		fx = append(fx, at("takes general order", d.GeneralAt))
	}
	tail := ""
	if len(fx) > 0 {
		tail = " and " + strings.Join(fx, " and ")
	}
	hexes := fmt.Sprintf("%d hexes", len(d.Path))
	if len(d.Path) == 1 {
		hexes = "1 hex"
	}
	return fmt.Sprintf("%s moves %s to %s for %s MP%s.", who, hexes, d.To, MP(d.Cost), tail)
}

// Field gives unit, leader, cost (in points), hexes, to, disorder,
// general-order, disorder-at and general-order-at.
func (d *Moved) Field(_ *Rules, _ *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{d.Unit}
	case "leader":
		return []string{d.Leader}
	case "cost":
		return []string{MP(d.Cost)}
	case "hexes":
		return []string{strconv.Itoa(len(d.Path))}
	case "to":
		return []string{d.To}
	case "disorder":
		return []string{strconv.FormatBool(d.Disorder)}
	case "general-order":
		return []string{strconv.FormatBool(d.General)}
	case "disorder-at":
		return []string{d.DisorderAt}
	case "general-order-at":
		return []string{d.GeneralAt}
	}
	return nil
}

// Formed is the payload of a formed event.
type Formed struct {
	Unit      string `json:"unit"`
	Formation string `json:"formation"`
	Cost      int    `json:"cost"` // sixths
}

// Fold spends the movement points the change of formation costs.
func (d *Formed) Fold(_ *Rules, s *game.State, _ *game.Event) error {
	u, err := ext(s).combatUnit(d.Unit)
	if err != nil {
		return err
	}
	u.Used += d.Cost
	return nil
}

// Describe says which formation the unit takes, at what cost.
func (d *Formed) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s forms %s (%s MP).", name(d.Unit), d.Formation, MP(d.Cost))
}

// Field gives unit, formation and cost (in points).
func (d *Formed) Field(_ *Rules, _ *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{d.Unit}
	case "formation":
		return []string{d.Formation}
	case "cost":
		return []string{MP(d.Cost)}
	}
	return nil
}
