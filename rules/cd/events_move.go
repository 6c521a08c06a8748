package cd

import (
	"fmt"
	"strconv"
	"strings"

	"orderly/game"
)

// Activated is the payload of an activated event.
type Activated struct {
	Kind      string   `json:"kind"` // unit, brigade or division
	Formation string   `json:"formation"`
	General   string   `json:"general,omitempty"` // "" for a stand-in
	Units     []string `json:"units"`
	// Basis is the unit whose state gave the roll's modifiers: the least
	// favourable of the group's (our reading of CD-4).
	Basis  string  `json:"basis"`
	Roll   int     `json:"roll"` // which activation roll of the side's turn
	Result string  `json:"result"`
	Factor float64 `json:"factor"`
	Local  bool    `json:"local,omitempty"`  // by local initiative, out of command radius
	Vacate bool    `json:"vacate,omitempty"` // declared leaving cover (-2)
}

// Fold counts the side's roll, records the activation, and gives each of
// its units the factor and a fresh move from where it stands (CD-1, CD-4).
func (d *Activated) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	if sd := st.Side(e.Side); sd != nil {
		sd.Rolls++
	}
	st.Acts = append(st.Acts, Act{Kind: d.Kind, Formation: d.Formation, Units: d.Units, Result: d.Result, Factor: d.Factor, Local: d.Local, Vacate: d.Vacate})
	for _, id := range d.Units {
		u, err := st.unitOf(id)
		if err != nil {
			return err
		}
		u.Act, u.Factor, u.Used = len(st.Acts), d.Factor, 0
		if u.Piece != nil {
			u.From = u.Shape
		}
	}
	return nil
}

// Describe words what activates, how, and the roll.
func (d *Activated) Describe(r *Rules, e *game.Event, name func(string) string) string {
	what := name(d.Units[0])
	switch d.Kind {
	case "brigade":
		what = fmt.Sprintf("%s (%s)", game.Kinded("brigade", name(d.Formation)), names(d.Units, name))
	case "division":
		what = fmt.Sprintf("%s (%s)", game.Kinded("division", name(d.Formation)), game.Count(len(d.Units), "unit", "units"))
	}
	how := ""
	if d.Local {
		how = " by local initiative"
	}
	return fmt.Sprintf("%s activates%s, roll %d of the turn: %s.", what, how, d.Roll, rolled(e))
}

// Field gives the kind, formation, general, units, factor, which roll of
// the turn, and whether by local initiative.
func (d *Activated) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "kind":
		return []string{d.Kind}
	case "formation":
		return []string{d.Formation}
	case "general":
		return []string{d.General}
	case "unit":
		return d.Units
	case "factor":
		return []string{strconv.FormatFloat(d.Factor, 'f', -1, 64)}
	case "roll":
		return []string{strconv.Itoa(d.Roll)}
	case "local":
		return []string{strconv.FormatBool(d.Local)}
	}
	return nil
}

// Moved is the payload of a moved event: each unit's leg, the disruptive
// terrain rolls, and a passage of lines.
type Moved struct {
	Units []string `json:"units"`
	Legs  []Leg    `json:"legs"`
	// Disrupted are the results of cd/disruptive-terrain, one per unit
	// that rolled, in the order of Legs.
	Disrupted []Disruption `json:"disrupted,omitempty"`
	// Through is the friendly unit passed through in a passage of lines,
	// and Passage the odd-or-even roll's result (CD-7).
	Through string `json:"through,omitempty"`
	Passage string `json:"passage,omitempty"`
}

// Disruption is one unit's roll on the disruptive terrain chart.
type Disruption struct {
	Unit    string `json:"unit"`
	Feature string `json:"feature"`
	Rating  string `json:"rating"`
	Result  string `json:"result"`
	Steps   int    `json:"steps,omitempty"`
}

// Fold spends each leg's share of the move, applies the disruptive
// terrain results (CD-6), and disorders both units of a passage of lines
// that went wrong (CD-7).
func (d *Moved) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	for _, l := range d.Legs {
		u, err := st.unitOf(l.Unit)
		if err != nil {
			return err
		}
		u.Used += l.Cost + l.Change
		if l.Distance > 0 {
			u.Moved = true
		}
	}
	for _, x := range d.Disrupted {
		u, err := st.unitOf(x.Unit)
		if err != nil {
			return err
		}
		u.hit(x.Result, x.Steps)
	}
	if d.Passage == "disordered" && len(d.Units) > 0 {
		for _, id := range []string{d.Units[0], d.Through} {
			if u := st.Unit(id); u != nil {
				u.Disordered = true
			}
		}
	}
	return nil
}

// Describe words each leg, the disruptive terrain rolls and a passage of
// lines.
func (d *Moved) Describe(r *Rules, e *game.Event, name func(string) string) string {
	parts := make([]string, 0, len(d.Legs))
	for _, l := range d.Legs {
		parts = append(parts, legWords(l, name))
	}
	s := "Moved: " + strings.Join(parts, "; ") + "."
	for i, x := range d.Disrupted {
		ro := x.Result
		if i < len(e.Rolls) {
			ro = rollWords(&e.Rolls[i])
		}
		s += fmt.Sprintf(" %s in disruptive %s (%s): %s.", name(x.Unit), name(x.Feature), strings.ToUpper(x.Rating), ro)
	}
	if d.Through != "" {
		s += fmt.Sprintf(" Passage of lines through %s: %s.", name(d.Through), lastRoll(e, d.Passage))
	}
	return s
}

// legWords words one unit's leg: how far, the share of its move at what
// rate and how, the artillery points and the terrain it crossed.
func legWords(l Leg, name func(string) string) string {
	p := fmt.Sprintf("%s %s\" (%s%% of its move at %s\" %s)", name(l.Unit), inch(l.Distance), inch(100*(l.Cost+l.Change)), inch(l.Rate), modeWords(l.Mode))
	if l.AP > 0 {
		p += fmt.Sprintf(" for %d AP", l.AP)
	}
	if len(l.Terrain) > 0 {
		p += " through " + names(l.Terrain, name)
	}
	return p
}

// Field gives the units, each leg's distance, cost (in percent of a move)
// and mode, the disruptive terrain results, and the passage's result.
func (d *Moved) Field(r *Rules, e *game.Event, name string) []string {
	var got []string
	switch name {
	case "unit":
		got = d.Units
	case "distance":
		for _, l := range d.Legs {
			got = append(got, inch(l.Distance))
		}
	case "cost":
		for _, l := range d.Legs {
			got = append(got, inch(100*(l.Cost+l.Change)))
		}
	case "mode":
		for _, l := range d.Legs {
			got = append(got, l.Mode)
		}
	case "disrupted":
		for _, x := range d.Disrupted {
			got = append(got, x.Result)
		}
	case "passage":
		got = []string{d.Passage}
	}
	return got
}

// Relieved is the payload of a relieved event (CD-7).
type Relieved struct {
	Unit     string `json:"unit"`     // the fresh unit
	Relieved string `json:"relieved"` // the front-line unit
	// Group says both moved on one brigade roll: no odd-or-even roll.
	Group  bool    `json:"group,omitempty"`
	Result string  `json:"result,omitempty"` // cd/passage, for separate rolls
	Cost   float64 `json:"cost"`             // share of the rate each used
}

// Fold spends both units' share of the move, disorders them if the roll
// said so, and marks the fresh unit relieving (CD-7).
func (d *Relieved) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	for _, id := range []string{d.Unit, d.Relieved} {
		u, err := st.unitOf(id)
		if err != nil {
			return err
		}
		u.Used += d.Cost
		u.Moved = true
		if d.Result == "disordered" {
			u.Disordered = true
		}
	}
	st.Unit(d.Unit).Relieving = true
	return nil
}

// Describe words the relief: within a brigade's move, with its fire at
// the relieving range, or on separate rolls with the last.
func (d *Relieved) Describe(r *Rules, e *game.Event, name func(string) string) string {
	if d.Group {
		return fmt.Sprintf("%s relieves %s within its brigade's move; it fires at %s this segment.", name(d.Unit), name(d.Relieved), inch(r.values["relieving-fire"]))
	}
	return fmt.Sprintf("%s relieves %s, each on its own roll; then %s.", name(d.Unit), name(d.Relieved), lastRoll(e, d.Result))
}

// Field gives both units, and the roll's result as passage.
func (d *Relieved) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{d.Unit, d.Relieved}
	case "passage":
		return []string{d.Result}
	}
	return nil
}

// Retired is the payload of a retired event: a forced move, and the units
// it displaced out of a full town block (CD-9).
type Retired struct {
	Unit      string   `json:"unit"`
	Distance  float64  `json:"distance"`
	Displaced []string `json:"displaced,omitempty"`
}

// Fold marks the unit moved when it retired in its own side's turn.
func (d *Retired) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	u, err := st.unitOf(d.Unit)
	if err != nil {
		return err
	}
	// A forced move in the enemy's turn is not the unit's own move.
	if d.Distance > 0 && u.Side == st.phasing(s.Phase) {
		u.Moved = true
	}
	return nil
}

// Describe words the retirement and the units it displaced.
func (d *Retired) Describe(r *Rules, e *game.Event, name func(string) string) string {
	s := fmt.Sprintf("%s retires %s\".", name(d.Unit), inch(d.Distance))
	if len(d.Displaced) > 0 {
		s += " It displaces " + names(d.Displaced, name) + " from the full block."
	}
	return s
}

// Field gives the unit, the distance and the units displaced.
func (d *Retired) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{d.Unit}
	case "distance":
		return []string{inch(d.Distance)}
	case "displaced":
		return d.Displaced
	}
	return nil
}
