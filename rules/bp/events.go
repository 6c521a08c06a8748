package bp

import (
	"fmt"
	"slices"
	"strings"

	"orderly/game"
)

// BP's event types.
const (
	EvInitiative = "initiative" // a unit moves on its own initiative (BP-3)
	EvOrdered    = "ordered"    // a command roll and its result (BP-1, BP-2)
	EvMoved      = "moved"      // a unit or commander moves (BP-4, BP-7)
	EvCharged    = "charged"    // a unit charges an enemy unit (BP-4)
	EvResponded  = "responded"  // the charged unit's reply (BP-4)
	EvShot       = "shot"       // a volley (BP-5)
	EvFought     = "fought"     // a combat (BP-6)
	EvRevealed   = "revealed"   // hidden units are seen
	EvTurnEnded  = "turn-ended" // a side's turn ends: disorder recovers
	EvPassed     = "passed"     // traversing fire not given (BP-5)
	EvCrossed    = "crossed"    // under fog of war: a move crossed the front of units that may give traversing fire (BP-5)
)

// EventTypes lists BP's event types.
func (r *Rules) EventTypes() []string {
	return []string{EvInitiative, EvOrdered, EvMoved, EvCharged, EvResponded, EvShot, EvFought, EvRevealed, EvTurnEnded, EvPassed, EvCrossed}
}

// Initiative is the payload of an initiative event.
type Initiative struct {
	Unit  string  `json:"unit"`
	Allow float64 `json:"allow"` // inches: one move
	Away  bool    `json:"away,omitempty"`
}

// Ordered is the payload of an ordered event: the order, the command
// roll's result, and what it gives each unit.
type Ordered struct {
	Brigade string   `json:"brigade"`
	General string   `json:"general"`
	Units   []string `json:"units"`
	Kind    string   `json:"kind"`
	Result  string   `json:"result"`            // a result of bp/command
	Moves   int      `json:"moves"`             // moves given (of a blunder: its forced move)
	Blunder string   `json:"blunder,omitempty"` // the blunder's result, the forced move
	// Forced is how far each unit went on the blunder's forced move.
	Forced []float64 `json:"forced,omitempty"`
	Allow  []float64 `json:"allow,omitempty"` // inches each unit may move
	// Rallied is each unit's casualties after a rally.
	Rallied []int `json:"rallied,omitempty"`
	// Last says the commander gives no more orders this turn.
	Last bool `json:"last,omitempty"`
	// Joined is the unit the commander joins (follow me, rally).
	Joined string `json:"joined,omitempty"`
}

// Moved is the payload of a moved event.
type Moved struct {
	Unit     string  `json:"unit,omitempty"`
	General  string  `json:"general,omitempty"`
	Distance float64 `json:"distance"`
	Cost     float64 `json:"cost"` // inches of the allowance used, changes included
	// Left says the commander left the unit he had joined.
	Left bool `json:"left,omitempty"`
	// Army says the army commander moved, which ends the brigades' orders.
	Army bool `json:"army,omitempty"`
	// Stopped says why the move ended short of where it was sent.
	Stopped string `json:"stopped,omitempty"`
	// Across lists the enemy units whose front the unit crossed within
	// 12", across half their frontage or more: each may give traversing
	// fire (BP-5). With fog of war it is left out: a crossed event says
	// it, after the contacts that show the units to the mover's side.
	Across []string `json:"across,omitempty"`
}

// Crossed is the payload of a crossed event, played with fog of war: Unit
// crossed the front of Units, which saw it and may give traversing fire
// at it (BP-5). The contact of each with Unit comes before it.
type Crossed struct {
	Unit  string   `json:"unit"`
	Units []string `json:"units"`
}

// Passed is the payload of a passed event: the units that could give
// traversing fire at Unit and did not.
type Passed struct {
	Unit  string   `json:"unit"`
	Units []string `json:"units"`
	Auto  bool     `json:"auto,omitempty"`
}

// Charged is the payload of a charged event.
type Charged struct {
	Unit     string  `json:"unit"`
	Target   string  `json:"target"`
	Distance float64 `json:"distance"`
}

// Test is a break test and what came of it.
type Test struct {
	Unit     string `json:"unit"`
	Modifier int    `json:"modifier"`
	Result   string `json:"result"` // a result of bp/break-test
	// Gone says the unit left the table (broke, or retreated off it).
	Gone bool `json:"gone,omitempty"`
}

// Volley is one unit's shooting at another, and its effect.
type Volley struct {
	Shooter    string `json:"shooter"`
	Target     string `json:"target"`
	Dice       int    `json:"dice"`
	Enfilade   bool   `json:"enfilade,omitempty"`
	Closing    bool   `json:"closing,omitempty"`
	Traversing bool   `json:"traversing,omitempty"`
	Hits       int    `json:"hits"`
	Casualties int    `json:"casualties"`
	Disorders  bool   `json:"disorders,omitempty"`
	After      int    `json:"after"` // the target's casualties after
	// Shaken says the target is shaken after it: casualties at stamina.
	Shaken bool  `json:"shaken,omitempty"`
	Test   *Test `json:"test,omitempty"`
}

// Responded is the payload of a responded event.
type Responded struct {
	Unit     string  `json:"unit"`
	Charger  string  `json:"charger"`
	Response string  `json:"response"`
	Volley   *Volley `json:"volley,omitempty"`
	// Engaged says the two are now in combat.
	Engaged bool `json:"engaged"`
	Auto    bool `json:"auto,omitempty"` // no reply was given: the unit stands
}

// Blow is what one unit inflicts in a combat.
type Blow struct {
	Unit       string `json:"unit"`
	Target     string `json:"target"`
	Dice       int    `json:"dice"`
	Casualties int    `json:"casualties"`
}

// Fought is the payload of a fought event.
type Fought struct {
	Units  []string `json:"units"`
	Blows  []Blow   `json:"blows"`
	Scores []Score  `json:"scores"`
	// Margins says the combat-margin house rule was played (bp/options):
	// then Loser is the side that inflicted fewer casualties ("" for a
	// draw), Margin the difference, and the loser's units test at minus
	// it. Without it no side loses a combat (BP-6).
	Margins bool   `json:"margins,omitempty"`
	Loser   string `json:"loser,omitempty"`
	Margin  int    `json:"margin,omitempty"`
	After   []int  `json:"after"` // each unit's casualties after
	// Shaken lists the units shaken after it.
	Shaken []string `json:"shaken,omitempty"`
	Tests  []Test   `json:"tests,omitempty"`
}

// Score is the casualties a side inflicted in a combat.
type Score struct {
	Side       string `json:"side"`
	Casualties int    `json:"casualties"`
}

// Revealed is the payload of a revealed event.
type Revealed struct {
	Units []string `json:"units"`
}

// TurnEnded is the payload of a turn-ended event.
type TurnEnded struct {
	Side      string   `json:"side"`
	Recovered []string `json:"recovered,omitempty"`
}

// Payload makes an empty payload for an event type.
func (r *Rules) Payload(typ string) (any, bool) {
	switch typ {
	case EvInitiative:
		return &Initiative{}, true
	case EvOrdered:
		return &Ordered{}, true
	case EvMoved:
		return &Moved{}, true
	case EvCharged:
		return &Charged{}, true
	case EvResponded:
		return &Responded{}, true
	case EvShot:
		return &Volley{}, true
	case EvFought:
		return &Fought{}, true
	case EvRevealed:
		return &Revealed{}, true
	case EvTurnEnded:
		return &TurnEnded{}, true
	case EvPassed:
		return &Passed{}, true
	case EvCrossed:
		return &Crossed{}, true
	}
	return nil, false
}

// Apply folds one of BP's events into the state.
func (r *Rules) Apply(s *game.State, e *game.Event) error {
	st := ext(s)
	unit := func(id string) (*Unit, error) {
		if u := st.Unit(id); u != nil {
			return u, nil
		}
		return nil, fmt.Errorf("no unit %s", id)
	}
	switch d := e.Data.(type) {
	case *Initiative:
		u, err := unit(d.Unit)
		if err != nil {
			return err
		}
		u.Initiative, u.Order, u.Allow, u.Used = true, "initiative", d.Allow, 0
		if d.Away {
			u.Forced = "away"
		}
	case *Ordered:
		b := st.Brigade(d.Brigade)
		if b == nil {
			return fmt.Errorf("no brigade %s", d.Brigade)
		}
		for i := range st.Brigades {
			if o := &st.Brigades[i]; o.Side == b.Side && o.ID != b.ID && o.Orders > 0 {
				o.Done = true
			}
		}
		b.Orders++
		b.Done = b.Done || d.Last
		for i, id := range d.Units {
			u, err := unit(id)
			if err != nil {
				return err
			}
			u.Ordered, u.Order, u.Used = true, d.Kind, 0
			if i < len(d.Allow) {
				u.Allow = d.Allow[i]
			}
			if d.Blunder != "" {
				u.Order, u.Forced = "blunder", d.Blunder
			}
			if i < len(d.Rallied) {
				u.wound(d.Rallied[i])
			}
		}
		if d.Joined != "" {
			if g := st.General(d.General); g != nil {
				g.Joined = d.Joined
			}
		}
	case *Moved:
		if d.Unit != "" {
			u, err := unit(d.Unit)
			if err != nil {
				return err
			}
			u.Used += d.Cost
			if len(d.Across) > 0 {
				st.Traverse = &Traverse{Unit: d.Unit, Firers: d.Across}
			}
			if u.Forced == "away" && d.Distance > 0 {
				u.KeepDisorder = true // it retreated disordered (BP-3)
			}
			st.reveal(d.Unit)
		}
		if d.General != "" {
			g := st.General(d.General)
			if g == nil {
				return fmt.Errorf("no commander %s", d.General)
			}
			g.Moved = true
			if b := st.Brigade(g.Brigade); b != nil {
				b.Done = true // his move ends his orders (BP-4)
			}
			if d.Left {
				g.Joined = ""
			}
			if d.Army {
				for i := range st.Brigades {
					if st.Brigades[i].Side == g.Side {
						st.Brigades[i].Done = true
					}
				}
			}
		}
	case *Charged:
		u, err := unit(d.Unit)
		if err != nil {
			return err
		}
		u.Used = u.Allow
		st.Charge = &Charge{Unit: d.Unit, Target: d.Target}
		st.reveal(d.Unit)
	case *Responded:
		st.Charge = nil
		if d.Volley != nil {
			if err := st.volley(s, d.Volley); err != nil {
				return err
			}
			st.Unit(d.Unit).Fired = true
		}
		if d.Engaged {
			st.engage(d.Unit, d.Charger)
		}
		st.reveal(d.Unit)
	case *Volley:
		if err := st.volley(s, d); err != nil {
			return err
		}
		switch {
		case d.Traversing:
			st.Unit(d.Shooter).Fired = true
			if tr := st.Traverse; tr != nil {
				tr.Firers = slices.DeleteFunc(slices.Clone(tr.Firers), func(id string) bool { return id == d.Shooter })
				if len(tr.Firers) == 0 || !st.alive(s, tr.Unit) {
					st.Traverse = nil
				}
			}
		case !d.Closing:
			st.Unit(d.Shooter).Shot = true
		}
	case *Fought:
		for i, id := range d.Units {
			u, err := unit(id)
			if err != nil {
				return err
			}
			u.Fought = true
			if i < len(d.After) {
				u.wound(d.After[i])
			}
		}
		// A unit that breaks or retreats leaves the combat, and a unit
		// with no enemy left in it is out of it (disengage).
		for _, t := range d.Tests {
			st.test(s, t)
		}
	case *Revealed:
		for _, id := range d.Units {
			st.reveal(id)
		}
	case *Passed:
		st.Traverse = nil
	case *Crossed:
		if len(d.Units) > 0 {
			st.Traverse = &Traverse{Unit: d.Unit, Firers: d.Units}
		}
	case *TurnEnded:
		// Disorder recovers from the state alone: the event names only
		// the units every seat sees (BP-3).
		for i := range st.Units {
			if u := &st.Units[i]; u.Side == d.Side && u.Disordered && !u.KeepDisorder && !u.Gone {
				u.Disordered = false
			}
		}
		for i := range st.Units {
			u := &st.Units[i]
			u.Fought = false // a combat phase has ended
			if u.Side == d.Side {
				u.Order, u.Forced, u.Allow, u.Used = "", "", 0, 0
				u.Ordered, u.Initiative, u.Shot, u.KeepDisorder = false, false, false, false
			}
		}
		for i := range st.Generals {
			if g := &st.Generals[i]; g.Side == d.Side {
				g.Moved = false
			}
		}
		for i := range st.Brigades {
			if b := &st.Brigades[i]; b.Side == d.Side {
				b.Orders, b.Done = 0, false
			}
		}
	default:
		return fmt.Errorf("bp has no event payload %T", e.Data)
	}
	return nil
}

// volley folds a volley's effect on its target.
func (st *State) volley(s *game.State, v *Volley) error {
	t := st.Unit(v.Target)
	if t == nil {
		return fmt.Errorf("no unit %s", v.Target)
	}
	t.wound(v.After)
	if v.Disorders {
		t.Disordered = true
	}
	if v.Test != nil {
		st.test(s, *v.Test)
	}
	st.reveal(v.Shooter)
	return nil
}

// test folds a break test's result; a retreat's new place is among the
// event's moves.
func (st *State) test(s *game.State, t Test) {
	u := st.Unit(t.Unit)
	if u == nil {
		return
	}
	if t.Gone {
		u.Gone = true
		st.disengage(t.Unit)
		if p := s.Piece(t.Unit); p != nil {
			p.OnTable = false
		}
		for i := range st.Generals {
			if st.Generals[i].Joined == t.Unit {
				st.Generals[i].Joined = ""
			}
		}
		return
	}
	if t.Result == "retreat" {
		u.Disordered = true
		st.disengage(t.Unit)
	}
}

// reveal makes a hidden unit seen.
func (st *State) reveal(id string) {
	if u := st.Unit(id); u != nil {
		u.Hidden = false
	}
}

// Describe says in one sentence what one of BP's events records.
func (r *Rules) Describe(e *game.Event, name func(string) string) string {
	if name == nil {
		name = func(id string) string { return id }
	}
	roll := ""
	if ro := e.FirstRoll(); ro != nil {
		roll = " (" + rollWords(ro) + ")"
	}
	switch d := e.Data.(type) {
	case *Initiative:
		if d.Away {
			return fmt.Sprintf("%s, disordered, retreats on its own initiative: one move of %s\" away from every enemy", name(d.Unit), inch(d.Allow))
		}
		return fmt.Sprintf("%s moves on its own initiative: one move of %s\"", name(d.Unit), inch(d.Allow))
	case *Ordered:
		units := names(d.Units, name)
		switch {
		case d.Blunder != "":
			return fmt.Sprintf("%s orders %s to %s%s: a blunder, %s, carried out as a forced move (%s inches); no more orders from him this turn", name(d.General), units, orderWords(d.Kind), roll, d.Blunder, floats(d.Forced))
		case d.Result == "fail":
			return fmt.Sprintf("%s orders %s to %s%s: the order fails and he gives no more orders this turn", name(d.General), units, orderWords(d.Kind), roll)
		case d.Kind == "rally":
			return fmt.Sprintf("%s rallies %s%s: %s, casualties now %s; he joins the unit", name(d.General), units, roll, game.Count(d.Moves, "move", "moves"), ints2(d.Rallied))
		case d.Joined != "":
			return fmt.Sprintf("%s orders %s to follow him%s: %s; he joins the unit", name(d.General), units, roll, game.Count(d.Moves, "move", "moves"))
		}
		return fmt.Sprintf("%s orders %s to %s%s: %s", name(d.General), units, orderWords(d.Kind), roll, game.Count(d.Moves, "move", "moves"))
	case *Moved:
		who := name(d.Unit) + d.General
		if d.General != "" {
			who = name(d.General)
		}
		to := ""
		if len(e.Moves) > 0 {
			to = " to " + e.Moves[0].To.String()
		}
		s := fmt.Sprintf("%s moves %s\"%s", who, inch(d.Distance), to)
		if d.Cost > d.Distance+1e-9 {
			s = fmt.Sprintf("%s moves %s\"%s, using %s\" of its allowance with the change of formation or facing", who, inch(d.Distance), to, inch(d.Cost))
		}
		if d.Stopped != "" {
			s += "; it stops: " + d.Stopped
		}
		if len(d.Across) > 0 {
			s += fmt.Sprintf("; it crosses the front of %s, who may give traversing fire", names(d.Across, name))
		}
		return s
	case *Charged:
		return fmt.Sprintf("%s charges %s, moving %s\" into contact", name(d.Unit), name(d.Target), inch(d.Distance))
	case *Responded:
		s := fmt.Sprintf("%s answers the charge of %s: %s", name(d.Unit), name(d.Charger), d.Response)
		if d.Auto {
			s = fmt.Sprintf("%s stands against the charge of %s (no other reply was given)", name(d.Unit), name(d.Charger))
		}
		if d.Volley != nil {
			s += "; " + volleyWords(d.Volley, name, roll)
		}
		if d.Engaged {
			s += "; the two are in combat"
		}
		return s
	case *Volley:
		return volleyWords(d, name, roll)
	case *Fought:
		var parts []string
		for _, b := range d.Blows {
			parts = append(parts, fmt.Sprintf("%s %d on %s", name(b.Unit), b.Casualties, name(b.Target)))
		}
		s := "Combat: " + strings.Join(parts, ", ")
		switch {
		case !d.Margins:
		case d.Loser == "":
			s += "; a draw"
		default:
			s += fmt.Sprintf("; %s lose by %d", name(d.Loser), d.Margin)
		}
		for _, t := range d.Tests {
			s += "; " + testWords(&t, name)
		}
		return s
	case *Revealed:
		return fmt.Sprintf("%s can now be seen", names(d.Units, name))
	case *Passed:
		if d.Auto {
			return fmt.Sprintf("%s give no traversing fire at %s (no reply was given)", names(d.Units, name), name(d.Unit))
		}
		return fmt.Sprintf("%s hold their traversing fire at %s", names(d.Units, name), name(d.Unit))
	case *Crossed:
		return fmt.Sprintf("%s crosses the front of %s, who may give traversing fire", name(d.Unit), names(d.Units, name))
	case *TurnEnded:
		if len(d.Recovered) == 0 {
			return fmt.Sprintf("The %s turn ends", name(d.Side))
		}
		return fmt.Sprintf("The %s turn ends; %s recover from disorder", name(d.Side), names(d.Recovered, name))
	}
	return e.Type
}

// rollWords shows a roll as a player reads it: a command roll against the
// staff rating, the dice of a pool stage by stage.
func rollWords(ro *game.Roll) string {
	faces := func(fs []int) string {
		out := make([]string, len(fs))
		for i, f := range fs {
			out[i] = fmt.Sprint(f)
		}
		return strings.Join(out, " ")
	}
	switch {
	case len(ro.Stages) > 0:
		var parts []string
		mod := 0
		for _, m := range ro.Mods {
			mod += m.Amount
		}
		for i, st := range ro.Stages {
			need := fmt.Sprintf("%d+", st.Need)
			if i == 0 && mod != 0 {
				need = fmt.Sprintf("%d+ with %+d", st.Need, mod)
			}
			switch {
			case len(st.Faces) == 0 && !st.Certain:
				parts = append(parts, fmt.Sprintf("%s: no dice", st.Name))
			case st.Certain:
				parts = append(parts, fmt.Sprintf("%s: none rolled, %d %s", st.Name, st.Kept, went(st.Name)))
			case len(st.Rerolls) > 0:
				parts = append(parts, fmt.Sprintf("%s on %s: %s, again %s, %d %s", st.Name, need, faces(st.Faces), faces(st.Rerolls), st.Kept, went(st.Name)))
			default:
				parts = append(parts, fmt.Sprintf("%s on %s: %s, %d %s", st.Name, need, faces(st.Faces), st.Kept, went(st.Name)))
			}
		}
		return strings.Join(parts, "; ")
	case ro.Table == "bp/command":
		target := 0
		for _, m := range ro.Mods {
			target += m.Amount
		}
		return fmt.Sprintf("2d6 rolled %d (%s) against %d: %s", ro.Natural, faces(ro.Faces), target, ro.Result)
	}
	return ro.String()
}

// went says what the dice kept by a stage of bp/shooting are: hits that
// go on to the save, saves failed.
func went(stage string) string {
	if stage == "save" {
		return "failed"
	}
	return "on"
}

func volleyWords(v *Volley, name func(string) string, roll string) string {
	what := "shoots at"
	switch {
	case v.Closing:
		what = "gives closing fire at"
	case v.Traversing:
		what = "gives traversing fire at"
	}
	s := fmt.Sprintf("%s %s %s with %d dice", name(v.Shooter), what, name(v.Target), v.Dice)
	if v.Enfilade {
		s += " in enfilade"
	}
	s += fmt.Sprintf("%s: %s, %s, %d in all", roll, game.Count(v.Hits, "hit", "hits"), game.Count(v.Casualties, "casualty", "casualties"), v.After)
	if v.Disorders {
		s += ", disordered by a natural 6"
	}
	if v.Test != nil {
		s += "; " + testWords(v.Test, name)
	}
	return s
}

func testWords(t *Test, name func(string) string) string {
	s := fmt.Sprintf("%s takes a break test: %s", name(t.Unit), t.Result)
	if t.Modifier != 0 {
		s = fmt.Sprintf("%s takes a break test at %+d: %s", name(t.Unit), t.Modifier, t.Result)
	}
	if t.Gone {
		s += ", and leaves the table"
	}
	return s
}

// orderWords is a kind of order (bp/orders) as the end of "orders X
// to ...": the kinds that are nouns take a verb.
func orderWords(kind string) string {
	switch kind {
	case "formation", "facing":
		return "change " + kind
	case "terrain":
		return "make a terrain move"
	case "follow-me":
		return "follow him"
	}
	return kind
}

func names(ids []string, name func(string) string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = name(id)
	}
	return strings.Join(out, ", ")
}

func floats(xs []float64) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = inch(x)
	}
	return strings.Join(out, ", ")
}

func ints2(xs []int) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprint(x)
	}
	return strings.Join(out, ", ")
}
