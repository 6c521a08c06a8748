package nes

import (
	"fmt"
	"strconv"
	"strings"

	"orderly/game"
)

// The events of the combat phase: strength lost and command unit loss
// (NES-4), extended-range artillery fire (NES-5) and cavalry charges
// (NES-6).

// Lost is the payload of a lost event: strength lost by a unit, and the
// NES-4 check of every command unit in its hex.
type Lost struct {
	Unit      string      `json:"unit"`
	Points    int         `json:"points"`
	Situation string      `json:"situation"`
	Checks    []LossCheck `json:"checks,omitempty"`
	// More says the event is one command unit's check alone, made with fog
	// of war before the loss itself (the next event): it takes no strength,
	// and only the sides that spot the command unit see it.
	More bool `json:"more,omitempty"`
}

// LossCheck is one command unit's NES-4 result: loss or no-effect, and
// what a loss did (reduced, replaced, or nothing for a brigade leader
// already reduced).
type LossCheck struct {
	Leader string `json:"leader"`
	Result string `json:"result"`
	Effect string `json:"effect,omitempty"`
}

// Fold takes the strength off the unit and strikes each command unit
// whose check is a loss (NES-4).
func (d *Lost) Fold(_ *Rules, s *game.State, _ *game.Event) error {
	st := ext(s)
	u, err := st.combatUnit(d.Unit)
	if err != nil {
		return err
	}
	st.lose(u, d.Points)
	for _, c := range d.Checks {
		l, err := st.commandUnit(c.Leader)
		if err != nil {
			return err
		}
		if c.Result == "loss" {
			l.struck()
		}
	}
	return nil
}

// struck is a command unit loss (NES-4): a brigade leader is reduced
// once; a division or corps commander is replaced, the replacement
// showing the counter's reduced values (our reading).
func (l *Leader) struck() {
	l.Reduced = true
	l.side()
}

// lose takes strength points off a unit; at none it is gone from the map.
func (st *State) lose(u *Unit, n int) {
	u.Strength -= n
	if u.Strength <= 0 && !u.Gone {
		st.moved(u.Side, true, u.At, nil)
		u.Strength, u.Gone = 0, true
		u.OnTable = false
	}
}

// Describe says what the unit lost and each command unit's check: for
// More, the checks alone.
func (d *Lost) Describe(_ *Rules, e *game.Event, name func(string) string) string {
	var parts []string
	for i, c := range d.Checks {
		p := fmt.Sprintf("%s %s%s", name(c.Leader), words(c.Result), rollText(e, i))
		if c.Effect != "" {
			p += ", " + c.Effect
		}
		parts = append(parts, p)
	}
	if d.More {
		return fmt.Sprintf("Command unit loss in %s's hex (%s): %s.", name(d.Unit), d.Situation, strings.Join(parts, "; "))
	}
	tail := ""
	if len(parts) > 0 {
		tail = "; command unit loss: " + strings.Join(parts, "; ")
	}
	return fmt.Sprintf("%s loses %d strength (%s)%s.", name(d.Unit), d.Points, d.Situation, tail)
}

// Field gives unit and situation, and leader, check ("ID RESULT") and
// effect of each command unit checked.
func (d *Lost) Field(_ *Rules, _ *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{d.Unit}
	case "situation":
		return []string{d.Situation}
	}
	var got []string
	for _, c := range d.Checks {
		switch name {
		case "leader":
			got = append(got, c.Leader)
		case "check":
			got = append(got, c.Leader+" "+c.Result)
		case "effect":
			got = append(got, c.Effect)
		}
	}
	return got
}

// Fired is the payload of a bombarded event (NES-5).
type Fired struct {
	Unit     string   `json:"unit"`
	Target   string   `json:"target"` // the hex aimed at, by its label
	Result   string   `json:"result"` // the deviation: short-1 .. over-3
	Impact   string   `json:"impact,omitempty"`
	OffMap   bool     `json:"off-map,omitempty"`
	Effect   string   `json:"effect,omitempty"` // the fire result on nes/extended-fire
	Hit      []string `json:"hit,omitempty"`    // the combat units in the impact hex
	Lost     []int    `json:"lost,omitempty"`   // strength each lost
	Disorder []string `json:"disorder,omitempty"`
	// More says the event is one unit hit alone, after the fire's own
	// event, with fog of war: only the sides that spot the unit see it.
	More bool `json:"more,omitempty"`
}

// Fold takes the strength each unit hit lost off it and disorders the
// formed units the fire disorders (NES-5).
func (d *Fired) Fold(_ *Rules, s *game.State, _ *game.Event) error {
	st := ext(s)
	for i, id := range d.Hit {
		u, err := st.combatUnit(id)
		if err != nil {
			return err
		}
		if i < len(d.Lost) {
			st.lose(u, d.Lost[i])
		}
	}
	for _, id := range d.Disorder {
		u, err := st.combatUnit(id)
		if err != nil {
			return err
		}
		if u.Status == "formed" {
			u.Status = "disordered"
		}
	}
	return nil
}

// Describe says where the fire was aimed, where it landed and what it
// did: for More, what it did to the units hit.
func (d *Fired) Describe(_ *Rules, e *game.Event, name func(string) string) string {
	if d.More {
		return fmt.Sprintf("%s's fire at extended range strikes %s at %s: %s.", name(d.Unit), strings.Join(mapNames(d.Hit, name), ", "), d.Impact, orNothing(d.Effect))
	}
	if d.OffMap {
		return fmt.Sprintf("%s fires at extended range at %s: %s%s, landing off the map.", name(d.Unit), d.Target, words(d.Result), rollText(e, 0))
	}
	return fmt.Sprintf("%s fires at extended range at %s: %s%s, landing at %s; %s%s.", name(d.Unit), d.Target, words(d.Result), rollText(e, 0), d.Impact, orNothing(d.Effect), rollText(e, 1))
}

// Field gives unit (the firing unit and the units hit), to (the hex aimed
// at), impact and effect.
func (d *Fired) Field(_ *Rules, _ *game.Event, name string) []string {
	switch name {
	case "unit":
		return append([]string{d.Unit}, d.Hit...)
	case "to":
		return []string{d.Target}
	case "impact":
		return []string{d.Impact}
	case "effect":
		return []string{d.Effect}
	}
	return nil
}

// Charged is the payload of a charged event (NES-6): the morale check of
// every enemy combat unit in the charge zones, with the charge's modifier.
type Charged struct {
	Unit   string `json:"unit"`
	Target string `json:"target"` // the hex charged, by its label
	// Effect is the chart's effect on the charging cavalry (NES-7), and
	// Disordered whether it disorders by it.
	Effect     string        `json:"effect,omitempty"`
	Disordered bool          `json:"disordered,omitempty"`
	Checks     []MoraleCheck `json:"checks,omitempty"`
	// More says the event is one unit's morale check alone, after the
	// charge's own event, with fog of war: only the sides that spot the
	// unit see it.
	More bool `json:"more,omitempty"`
}

// MoraleCheck is one unit's morale check against a charge.
type MoraleCheck struct {
	Unit     string `json:"unit"`
	Zone     string `json:"zone"`
	Modifier int    `json:"modifier"`
	Result   string `json:"result"`
}

// Fold disorders the charging cavalry if the chart does, and each formed
// unit that does not hold against the charge (NES-6, NES-7).
func (d *Charged) Fold(_ *Rules, s *game.State, _ *game.Event) error {
	st := ext(s)
	if d.Disordered {
		u, err := st.combatUnit(d.Unit)
		if err != nil {
			return err
		}
		u.Status = "disordered"
	}
	for _, c := range d.Checks {
		u, err := st.combatUnit(c.Unit)
		if err != nil {
			return err
		}
		if c.Result != "holds" && u.Status == "formed" {
			u.Status = "disordered"
		}
	}
	return nil
}

// Describe says which hex is charged and each unit's morale check, with
// its zone and modifier: for More, the checks alone.
func (d *Charged) Describe(_ *Rules, e *game.Event, name func(string) string) string {
	var parts []string
	first := 0
	if strings.HasPrefix(d.Effect, "disorders on") {
		first = 1 // the cavalry's roll crossing the brook comes first
	}
	for i, c := range d.Checks {
		zone := c.Zone + " zone"
		if c.Modifier != 0 {
			zone = fmt.Sprintf("%s zone, %+d", c.Zone, c.Modifier)
		}
		parts = append(parts, fmt.Sprintf("%s (%s) %s%s", name(c.Unit), zone, words(c.Result), rollText(e, first+i)))
	}
	if d.More {
		return fmt.Sprintf("%s's charge of %s: %s.", name(d.Unit), d.Target, strings.Join(parts, "; "))
	}
	who := name(d.Unit)
	if d.Disordered {
		who += fmt.Sprintf(" (disordered: %s)", d.Effect)
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%s charges %s; no enemy unit checks morale.", who, d.Target)
	}
	return fmt.Sprintf("%s charges %s: %s.", who, d.Target, strings.Join(parts, "; "))
}

// Field gives unit (the cavalry and each unit checked), to (the hex
// charged), effect, disorder (of the cavalry) and check ("UNIT ZONE
// MODIFIER RESULT") of each unit checked.
func (d *Charged) Field(_ *Rules, _ *game.Event, name string) []string {
	var got []string
	switch name {
	case "unit":
		got = append(got, d.Unit)
		for _, c := range d.Checks {
			got = append(got, c.Unit)
		}
	case "to":
		got = append(got, d.Target)
	case "effect":
		got = append(got, d.Effect)
	case "disorder":
		got = append(got, strconv.FormatBool(d.Disordered))
	case "check":
		for _, c := range d.Checks {
			got = append(got, c.Unit+" "+c.Zone+" "+strconv.Itoa(c.Modifier)+" "+c.Result)
		}
	}
	return got
}
