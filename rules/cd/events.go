package cd

import (
	"fmt"
	"strconv"
	"strings"

	"orderly/game"
)

// CD's event types.
const (
	EvActivated = "activated"  // an activation roll and its factor (CD-1, CD-4, CD-5)
	EvMoved     = "moved"      // a unit, group or division moves (CD-2, CD-3, CD-6, CD-7, CD-8)
	EvRelieved  = "relieved"   // a front-line unit is relieved (CD-7)
	EvRetired   = "retired"    // a forced move after a morale loss, with the units it displaces (CD-9)
	EvScreened  = "screened"   // a unit reinforces its division's skirmish screen (CD-8)
	EvRecalled  = "recalled"   // a unit comes back from the screen (CD-8)
	EvLost      = "lost"       // a commander is lost and replaced (CD-8)
	EvMarked    = "marked"     // the players record what befell a unit at the table
	EvTurnEnded = "turn-ended" // a side's turn ends
)

// EventTypes lists CD's event types.
func (r *Rules) EventTypes() []string {
	return []string{EvActivated, EvMoved, EvRelieved, EvRetired, EvScreened, EvRecalled, EvLost, EvMarked, EvTurnEnded}
}

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

// Relieved is the payload of a relieved event (CD-7).
type Relieved struct {
	Unit     string `json:"unit"`     // the fresh unit
	Relieved string `json:"relieved"` // the front-line unit
	// Group says both moved on one brigade roll: no odd-or-even roll.
	Group  bool    `json:"group,omitempty"`
	Result string  `json:"result,omitempty"` // cd/passage, for separate rolls
	Cost   float64 `json:"cost"`             // share of the rate each used
}

// Retired is the payload of a retired event: a forced move, and the units
// it displaced out of a full town block (CD-9).
type Retired struct {
	Unit      string   `json:"unit"`
	Distance  float64  `json:"distance"`
	Displaced []string `json:"displaced,omitempty"`
}

// Screened is the payload of a screened event: the unit leaves the table
// for its division's screen, adding its stands to it.
type Screened struct {
	Unit     string `json:"unit"`
	Division string `json:"division"`
	Stands   int    `json:"stands"`
	// Screen is the division's screen after, left out in a game played
	// with fog of war: it counts units the enemy may never have seen.
	Screen *int `json:"screen,omitempty"`
}

// Recalled is the payload of a recalled event: the unit comes back onto
// the table, taking its stands out of the screen.
type Recalled struct {
	Unit       string `json:"unit"`
	Division   string `json:"division"`
	Casualties int    `json:"casualties"`
	// Screen is the division's screen after, left out with fog of war
	// (Screened).
	Screen *int `json:"screen,omitempty"`
}

// Lost is the payload of a lost event: the commander lost, and each
// formation's new commander down the chain (CD-8).
type Lost struct {
	General    string       `json:"general"`
	Successors []Succession `json:"successors"`
}

// Succession is who commands a formation after a loss.
type Succession struct {
	Formation string `json:"formation"`
	General   string `json:"general,omitempty"` // "" for a stand-in with no figure
	Rating    string `json:"rating"`
	Bonus     int    `json:"bonus,omitempty"`
}

// Marked is the payload of a marked event: what the players read off
// their own charts (fire, melee, morale), which CD's source leaves out.
type Marked struct {
	Unit       string `json:"unit"`
	Shaken     *bool  `json:"shaken,omitempty"`
	Disordered *bool  `json:"disordered,omitempty"`
	Smoke      *bool  `json:"smoke,omitempty"`
	Casualties *int   `json:"casualties,omitempty"`
	CW         *int   `json:"cw,omitempty"`
}

// TurnEnded is the payload of a turn-ended event.
type TurnEnded struct {
	Side  string   `json:"side"`
	Moved []string `json:"moved,omitempty"`
}

// Payload makes an empty payload for an event type.
func (r *Rules) Payload(typ string) (any, bool) {
	switch typ {
	case EvActivated:
		return &Activated{}, true
	case EvMoved:
		return &Moved{}, true
	case EvRelieved:
		return &Relieved{}, true
	case EvRetired:
		return &Retired{}, true
	case EvScreened:
		return &Screened{}, true
	case EvRecalled:
		return &Recalled{}, true
	case EvLost:
		return &Lost{}, true
	case EvMarked:
		return &Marked{}, true
	case EvTurnEnded:
		return &TurnEnded{}, true
	}
	return nil, false
}

// Apply folds one of CD's events into the state; the pieces' moves are
// the engine's.
func (r *Rules) Apply(s *game.State, e *game.Event) error {
	st := ext(s)
	unit := func(id string) (*Unit, error) {
		if u := st.Unit(id); u != nil {
			return u, nil
		}
		return nil, fmt.Errorf("no unit %s", id)
	}
	switch d := e.Data.(type) {
	case *Activated:
		if sd := st.Side(e.Side); sd != nil {
			sd.Rolls++
		}
		st.Acts = append(st.Acts, Act{Kind: d.Kind, Formation: d.Formation, Units: d.Units, Result: d.Result, Factor: d.Factor, Local: d.Local, Vacate: d.Vacate})
		for _, id := range d.Units {
			u, err := unit(id)
			if err != nil {
				return err
			}
			u.Act, u.Factor, u.Used = len(st.Acts), d.Factor, 0
			if u.Piece != nil {
				u.From = u.Shape
			}
		}
	case *Moved:
		for _, l := range d.Legs {
			u, err := unit(l.Unit)
			if err != nil {
				return err
			}
			u.Used += l.Cost + l.Change
			if l.Distance > 0 {
				u.Moved = true
			}
		}
		for _, x := range d.Disrupted {
			u, err := unit(x.Unit)
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
	case *Relieved:
		for _, id := range []string{d.Unit, d.Relieved} {
			u, err := unit(id)
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
	case *Retired:
		u, err := unit(d.Unit)
		if err != nil {
			return err
		}
		// A forced move in the enemy's turn is not the unit's own move.
		if d.Distance > 0 && u.Side == st.phasing(s.Phase) {
			u.Moved = true
		}
	case *Screened:
		u, err := unit(d.Unit)
		if err != nil {
			return err
		}
		// Off the table: the unit neither sees nor is seen (fog of war)
		// until it is recalled, whose move puts it back.
		u.Screened = true
		if u.Piece != nil {
			u.OnTable = false
		}
		if f := st.Formation(d.Division); f != nil {
			f.Screen += d.Stands
		}
	case *Recalled:
		u, err := unit(d.Unit)
		if err != nil {
			return err
		}
		u.Screened, u.Disordered, u.Casualties = false, true, d.Casualties
		u.Act, u.Factor, u.Used = -1, 0, 0
		if f := st.Formation(d.Division); f != nil {
			f.Screen = max(0, f.Screen-u.Stands)
		}
	case *Lost:
		if g := st.General(d.General); g != nil {
			g.Lost = true
		}
		for _, sc := range d.Successors {
			f := st.Formation(sc.Formation)
			if f == nil {
				return fmt.Errorf("no formation %s", sc.Formation)
			}
			f.General, f.Rating, f.Bonus = sc.General, sc.Rating, sc.Bonus
			if g := st.General(sc.General); g != nil {
				g.Commands, g.Rating, g.Bonus = f.ID, sc.Rating, sc.Bonus
			}
		}
	case *Marked:
		u, err := unit(d.Unit)
		if err != nil {
			return err
		}
		if d.Shaken != nil {
			u.Shaken = *d.Shaken
		}
		if d.Disordered != nil {
			u.Disordered = *d.Disordered
		}
		if d.Smoke != nil {
			u.Smoke = *d.Smoke
		}
		if d.Casualties != nil {
			u.Casualties = *d.Casualties
		}
		if d.CW != nil {
			v := *d.CW
			u.CW = &v
		}
	case *TurnEnded:
		for i := range st.Units {
			u := &st.Units[i]
			if u.Side != d.Side {
				continue
			}
			u.MovedLast = u.Moved
			u.Act, u.Factor, u.Used, u.Moved, u.Relieving, u.Smoke, u.From = 0, 0, 0, false, false, false, ""
		}
		st.Acts = nil
		if sd := st.Side(d.Side); sd != nil {
			sd.Rolls = 0
		}
	}
	return nil
}

// hit applies a result of the disruptive terrain chart (CD-6); the event's
// moves put a disordered unit in general order.
func (u *Unit) hit(result string, steps int) {
	switch {
	case result == "shaken":
		u.Shaken = true
	case strings.HasPrefix(result, "disordered"):
		u.Disordered = true
	}
	u.Steps += steps
}

// factorWords writes an activation factor: x1.5, x0.75, none.
func factorWords(f float64) string {
	if f == 0 {
		return "no move"
	}
	return "x" + strconv.FormatFloat(f, 'f', -1, 64)
}

// Describe words an event in one sentence, for the log, scripts and the
// page.
func (r *Rules) Describe(e *game.Event, name func(string) string) string {
	switch d := e.Data.(type) {
	case *Activated:
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
	case *Moved:
		var parts []string
		for _, l := range d.Legs {
			p := fmt.Sprintf("%s %s\" (%s%% of its move at %s\" %s)", name(l.Unit), inch(l.Distance), inch(100*(l.Cost+l.Change)), inch(l.Rate), modeWords(l.Mode))
			if l.AP > 0 {
				p += fmt.Sprintf(" for %d AP", l.AP)
			}
			if len(l.Terrain) > 0 {
				p += " through " + names(l.Terrain, name)
			}
			parts = append(parts, p)
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
	case *Relieved:
		if d.Group {
			return fmt.Sprintf("%s relieves %s within its brigade's move; it fires at %s this segment.", name(d.Unit), name(d.Relieved), inch(r.values["relieving-fire"]))
		}
		return fmt.Sprintf("%s relieves %s, each on its own roll; then %s.", name(d.Unit), name(d.Relieved), lastRoll(e, d.Result))
	case *Retired:
		s := fmt.Sprintf("%s retires %s\".", name(d.Unit), inch(d.Distance))
		if len(d.Displaced) > 0 {
			s += " It displaces " + names(d.Displaced, name) + " from the full block."
		}
		return s
	case *Screened:
		if d.Screen == nil {
			return fmt.Sprintf("%s joins the skirmish screen of %s (+%s).", name(d.Unit), name(d.Division), game.Count(d.Stands, "casting", "castings"))
		}
		return fmt.Sprintf("%s joins the skirmish screen of %s (+%s, now %d).", name(d.Unit), name(d.Division), game.Count(d.Stands, "casting", "castings"), *d.Screen)
	case *Recalled:
		return fmt.Sprintf("%s comes back from the screen of %s at its rear, disordered with %s.", name(d.Unit), name(d.Division), game.Count(d.Casualties, "casualty", "casualties"))
	case *Lost:
		var parts []string
		for _, sc := range d.Successors {
			who := "a promoted colonel"
			if sc.General != "" {
				who = name(sc.General)
			}
			rating := sc.Rating
			if sc.Bonus != 0 {
				rating = fmt.Sprintf("%s %+d", sc.Rating, sc.Bonus)
			}
			parts = append(parts, fmt.Sprintf("%s takes %s (%s)", who, name(sc.Formation), rating))
		}
		return fmt.Sprintf("%s is lost; %s.", name(d.General), strings.Join(parts, ", "))
	case *Marked:
		var parts []string
		b := func(k string, v *bool) {
			if v != nil {
				if *v {
					parts = append(parts, k)
				} else {
					parts = append(parts, "not "+k)
				}
			}
		}
		b("shaken", d.Shaken)
		b("disordered", d.Disordered)
		b("in smoke", d.Smoke)
		if d.Casualties != nil {
			parts = append(parts, game.Count(*d.Casualties, "casualty", "casualties"))
		}
		if d.CW != nil {
			parts = append(parts, fmt.Sprintf("CW %d", *d.CW))
		}
		return fmt.Sprintf("%s is marked %s.", name(d.Unit), strings.Join(parts, ", "))
	case *TurnEnded:
		return fmt.Sprintf("%s's turn ends; %s moved.", name(d.Side), game.Count(len(d.Moved), "unit", "units"))
	}
	return ""
}

// modeWords is how a leg was moved (a row of cd/movement or
// cd/artillery-movement: a formation, a charge, or an artillery mode) as
// prose after a rate: "in column", "by road", "to limber and move".
func modeWords(mode string) string {
	switch mode {
	case "road":
		return "by road"
	case "field":
		return "across the field"
	case "prolonge":
		return "by prolonge"
	case "limber-move":
		return "to limber and move"
	case "move-unlimber-fire":
		return "to move, unlimber and fire"
	case "limber-move-unlimber-fire":
		return "to limber, move, unlimber and fire"
	}
	if shape, ok := strings.CutSuffix(mode, "-charge"); ok {
		return "charging " + game.Formed(shape)
	}
	return game.Formed(mode)
}

// rolled words an event's first roll and its result.
func rolled(e *game.Event) string {
	if len(e.Rolls) == 0 {
		return "no roll"
	}
	return rollWords(&e.Rolls[0])
}

// lastRoll words an event's last roll and its result.
func lastRoll(e *game.Event, result string) string {
	if len(e.Rolls) == 0 {
		return result
	}
	return rollWords(&e.Rolls[len(e.Rolls)-1])
}

// rollWords is a roll's dice and faces, its modifiers by name, its total
// and result: 2d6 rolled 4+4 -1 command-style = 7: x0.75.
func rollWords(ro *game.Roll) string {
	var b strings.Builder
	fs := make([]string, len(ro.Faces))
	for i, f := range ro.Faces {
		fs[i] = strconv.Itoa(f)
	}
	fmt.Fprintf(&b, "%s rolled %s", ro.Dice, strings.Join(fs, "+"))
	for _, m := range ro.Mods {
		if m.Amount != 0 {
			fmt.Fprintf(&b, " %+d %s", m.Amount, m.Name)
		}
	}
	fmt.Fprintf(&b, " = %d: %s", ro.Total, ro.Result)
	return b.String()
}

func names(ids []string, name func(string) string) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = name(id)
	}
	return strings.Join(s, ", ")
}
