package cd

import (
	"fmt"
	"slices"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
)

// checker is a command checked without being carried out: what the page
// is offered is what Command would accept.
func (r *Rules) checker(s *game.State, side string, a *Args) *cmd {
	st := ext(s)
	return &cmd{r: r, s: s, st: st, sc: st.sc, side: side, a: a}
}

// seatSide is the side a seat acts for: its own, or for the umpire the
// side whose turn it is.
func seatSide(st *State, s *game.State, seat string) string {
	if seat != game.Umpire {
		return seat
	}
	return st.phasing(s.Phase)
}

// Offers says which of the step's commands seat may give for each unit,
// commander and formation (game.Offerer): an activation that Command
// would accept, a move or relief for a unit with its move left, and the
// records (mark, retire, screen, recall, lose).
func (r *Rules) Offers(s *game.State, step game.Step, seat string) map[string][]string {
	st := ext(s)
	out := map[string][]string{}
	side := seatSide(st, s, seat)
	if st.sc == nil || step.Name != StepActivate || !slices.Contains(step.Actors, side) {
		return out
	}
	add := func(id, verb string) { out[id] = append(out[id], verb) }
	for i := range st.Units {
		u := &st.Units[i]
		if u.Side != side {
			continue
		}
		if u.Screened {
			add(u.ID, "recall")
			continue
		}
		if !st.alive(s, u.ID) {
			continue
		}
		if u.Act == 0 {
			if _, err := r.checker(s, side, &Args{Unit: u.ID}).activation(); err == nil {
				add(u.ID, "activate")
			}
		}
		if u.Act > 0 && u.Factor > 0 && u.Factor-u.Used > 1e-6 {
			add(u.ID, "move")
		}
		if u.Act > 0 && u.Factor > 0 && u.Used == 0 {
			add(u.ID, "relieve")
		}
		if u.Skirmish && !u.Moved && u.Used == 0 {
			add(u.ID, "screen")
		}
		add(u.ID, "retire")
		add(u.ID, "mark")
	}
	for _, f := range st.Formations {
		if f.Side != side {
			continue
		}
		if f.Kind == battle.Division {
			if _, err := r.checker(s, side, &Args{Division: f.ID}).activation(); err == nil {
				add(f.ID, "activate")
			}
		}
		if f.General != "" {
			if g := st.General(f.General); g != nil && !g.Lost {
				add(g.ID, "lose")
			}
		}
	}
	return out
}

// Board is what the page needs to draw a CD table and offer activations
// without working out a rule (game.Annotator).
type Board struct {
	Units map[string]UnitBox `json:"units"`
	// Groups lists, for each brigade of the seat's side, its coherent
	// groups of units that may still activate (CD-4).
	Groups map[string][][]string `json:"groups,omitempty"`
	// Divisions says of each division whether it may activate as one,
	// and why not (CD-4, CD-8): only in a step where the seat's side
	// activates.
	Divisions map[string]DivisionBox `json:"divisions,omitempty"`
	// Radii are the command radii of the seat's commanders on the table.
	Radii []Radius `json:"radii,omitempty"`
	// Style, Rolls and Next are the side's command style, the activation
	// rolls it has made this turn and the penalty of its next (CD-5).
	Style string `json:"style,omitempty"`
	Rolls int    `json:"rolls"`
	Next  int    `json:"next-penalty"`
	Acts  []Act  `json:"acts,omitempty"`
}

// UnitBox is one unit on the board.
type UnitBox struct {
	Corners []geom.Point `json:"corners"`
	// Left is how far it may still move this turn in its formation on
	// open ground, in inches; Factor its activation's factor.
	Left   float64 `json:"left,omitempty"`
	Factor float64 `json:"factor,omitempty"`
	Act    int     `json:"act,omitempty"`
	// Command says whether it is within command radius, and Why not.
	Command bool   `json:"command"`
	Why     string `json:"why,omitempty"`
	Cover   bool   `json:"cover,omitempty"`
	Block   string `json:"block,omitempty"`
	// Modifiers are its activation modifiers now, by name (CD-1).
	Modifiers map[string]int `json:"modifiers,omitempty"`
	Screened  bool           `json:"screened,omitempty"`
}

// DivisionBox is one division's activation as one body.
type DivisionBox struct {
	Ready bool     `json:"ready"`
	Why   string   `json:"why,omitempty"`
	Units []string `json:"units,omitempty"`
}

// Radius is a commander's command radius.
type Radius struct {
	General string     `json:"general"`
	At      geom.Point `json:"at"`
	Radius  float64    `json:"radius"`
}

// Annotate is the CD board for seat in step.
func (r *Rules) Annotate(s *game.State, step game.Step, seat string) any {
	st := ext(s)
	b := Board{Units: map[string]UnitBox{}}
	if st.sc == nil {
		return b
	}
	side := seatSide(st, s, seat)
	for i := range st.Units {
		u := &st.Units[i]
		if u.Screened {
			b.Units[u.ID] = UnitBox{Screened: true}
			continue
		}
		if !st.alive(s, u.ID) {
			continue
		}
		b.Units[u.ID] = r.unitBox(s, st, u, side, seat)
	}
	if sd := st.Side(side); sd != nil {
		b.Style, b.Rolls, b.Acts = sd.Style, sd.Rolls, st.Acts
		b.Next = r.penalty(sd.Style, sd.Rolls+1)
	}
	b.Groups = map[string][][]string{}
	b.Divisions = map[string]DivisionBox{}
	for _, f := range st.Formations {
		if f.Side != side {
			continue
		}
		if g := st.commander(s, &f); g != nil && f.Kind != battle.Brigade {
			b.Radii = append(b.Radii, Radius{General: g.ID, At: g.At, Radius: r.radiusOf(f.Kind)})
		}
		if grps := r.groups(s, st, f.ID); len(grps) > 0 {
			b.Groups[f.ID] = grps
		}
		if f.Kind == battle.Division && step.Name == StepActivate && slices.Contains(step.Actors, side) {
			b.Divisions[f.ID] = r.divisionBox(s, side, f.ID)
		}
	}
	return b
}

// unitBox is unit u as seat, acting for side, sees it: its corners, its
// activation, cover and block; whether it is in command, unless fog of war
// hides the enemy commanders it is reckoned from; and for side's own, how
// far it may still move and its activation modifiers (CD-1).
func (r *Rules) unitBox(s *game.State, st *State, u *Unit, side, seat string) UnitBox {
	c := r.footOf(u).Corners()
	box := UnitBox{Corners: make([]geom.Point, 4), Act: u.Act, Factor: u.Factor, Cover: r.inCover(st.sc, u)}
	for j := range c {
		box.Corners[j] = geom.Pt(round(c[j].X), round(c[j].Y))
	}
	if u.Side == side || seat == game.Umpire || !fogged(s) {
		// With fog of war the enemy's commanders the seat does not
		// spot are not in its view: whether his unit is in command
		// is not worked out from what is missing.
		box.Command, box.Why = r.inCommand(s, st, u)
	}
	if bl, ok := r.blockOf(st.sc, u, u.At, u.Facing, u.Shape); ok {
		box.Block = bl.String()
	}
	if u.Side == side {
		if rt := r.rateOf(u); u.Factor > 0 && rt > 0 {
			box.Left = round(max(0, u.Factor-u.Used) * rt)
		}
		box.Modifiers = r.modifiers(u)
	}
	return box
}

// groups are the units of formation id not yet activated this turn, in
// the bodies they stand in (components), by id.
func (r *Rules) groups(s *game.State, st *State, id string) [][]string {
	var us []*Unit
	for i := range st.Units {
		u := &st.Units[i]
		if u.Formation == id && u.Act == 0 && st.alive(s, u.ID) {
			us = append(us, u)
		}
	}
	if len(us) == 0 {
		return nil
	}
	var out [][]string
	for _, grp := range r.components(us) {
		ids := make([]string, len(grp))
		for i, u := range grp {
			ids[i] = u.ID
		}
		out = append(out, ids)
	}
	return out
}

// divisionBox says whether division id of side may activate as one body
// now, with the units it would move, or why not.
func (r *Rules) divisionBox(s *game.State, side, id string) DivisionBox {
	act, err := r.checker(s, side, &Args{Division: id}).activation()
	box := DivisionBox{Ready: err == nil}
	if err != nil {
		box.Why = err.Error()
		return box
	}
	for _, u := range act.units {
		box.Units = append(box.Units, u.ID)
	}
	return box
}

// fogged reports whether s is a view of a game played with fog of war
// (game.Game.Sees) or the state of one.
func fogged(s *game.State) bool { return s.Fogged() || s.Fog != "" && s.Fog != game.FogOff }

// rateOf is a unit's rate in its formation on open ground (its field
// rate limbered, by prolonge unlimbered).
func (r *Rules) rateOf(u *Unit) float64 {
	if u.isArt() {
		m := "field"
		if u.Shape == "unlimbered" {
			m = "prolonge"
		}
		return r.rates[[2]string{u.Gun, m}].in
	}
	sh := u.Shape
	if sh == "road" {
		sh = "column"
	}
	return r.rates[[2]string{u.Type, sh}].in
}

// modifiers are a unit's activation modifiers from its state (CD-1).
func (r *Rules) modifiers(u *Unit) map[string]int {
	p := map[string]string{"rating": "average", "shaken": fmt.Sprint(u.Shaken), "disordered": fmt.Sprint(u.Disordered),
		"in-smoke": fmt.Sprint(u.Smoke), "moved-last-turn": fmt.Sprint(u.MovedLast)}
	if u.CW != nil {
		p["cw"] = fmt.Sprint(*u.CW)
	}
	a, err := r.activation.Bind(p)
	if err != nil {
		return nil
	}
	out := map[string]int{}
	ro, err := r.activation.Odds(a)
	if err != nil || ro.Modifier == 0 {
		return nil
	}
	for _, n := range []string{"cw", "shaken", "disordered", "in-smoke", "moved-last-turn"} {
		q := map[string]string{"rating": "average"}
		if v, ok := p[n]; ok {
			q[n] = v
		}
		if a, err := r.activation.Bind(q); err == nil {
			if o, err := r.activation.Odds(a); err == nil && o.Modifier != 0 {
				out[n] = o.Modifier
			}
		}
	}
	return out
}

// penalty is the command-style penalty of a side's roll-th activation
// roll of a turn (CD-5).
func (r *Rules) penalty(style string, roll int) int {
	a, err := r.activation.Bind(map[string]string{"rating": "average", "style": style, "roll": fmt.Sprint(roll)})
	if err != nil {
		return 0
	}
	o, err := r.activation.Odds(a)
	if err != nil {
		return 0
	}
	return o.Modifier
}

// components splits units of one brigade into coherent groups (CD-4), in
// the order of their first unit.
func (r *Rules) components(us []*Unit) [][]*Unit {
	done := make([]bool, len(us))
	var out [][]*Unit
	for i := range us {
		if done[i] {
			continue
		}
		grp := []*Unit{us[i]}
		done[i] = true
		for grew := true; grew; {
			grew = false
			for j, v := range us {
				if done[j] {
					continue
				}
				for _, w := range grp {
					if r.linkOf(v, w, us[i].Facing).ok(r.values["depth"]) {
						grp, done[j], grew = append(grp, v), true, true
						break
					}
				}
			}
		}
		out = append(out, grp)
	}
	return out
}

// Kinds lists no kinds of order: CD writes none.
func (r *Rules) Kinds() []string { return nil }

// Writes is the verb whose roll is forecast first: an activation.
func (r *Rules) Writes() string { return "activate" }

// Forecasts lists every verb whose rolls can be forecast: an activation,
// and a move's disruptive terrain and passage of lines.
func (r *Rules) Forecasts() []string { return []string{"activate", "move", "relieve"} }

// Forecast names the rolls a command will meet, for their exact odds
// before it is given, refusing one Command would refuse with the same
// words: an activation's class dice with every modifier (CD-1, CD-5); a
// move's way, with the disruptive terrain rolls and the passage of lines
// it calls for (CD-6, CD-7); a relief's odd-or-even roll.
func (r *Rules) Forecast(sc *battle.Scenario, s *game.State, side string, args any) ([]game.Forecast, error) {
	a, ok := args.(*Args)
	if !ok || a == nil {
		return nil, game.Reject("", "give the command whose rolls to forecast")
	}
	st := ext(s)
	if side == game.Umpire {
		side = st.phasing(s.Phase)
	}
	k := r.checker(s, side, a)
	switch {
	case a.Relieved != "":
		rl, err := k.relief()
		if err != nil {
			return nil, err
		}
		if rl.group {
			return []game.Forecast{{Formation: a.Unit, Note: "a relief within one brigade's roll needs no further roll; the fresh unit fires at -5 this segment"}}, nil
		}
		return []game.Forecast{{Formation: a.Unit, Table: "cd/passage", Note: "units that rolled separately: on an odd die both take general order and are disordered"}}, nil
	case a.Division != "" || len(a.Units) > 0 || (a.Unit != "" && a.To == nil && a.Facing == nil && a.Shape == ""):
		act, err := k.activation()
		if err != nil {
			return nil, err
		}
		note := fmt.Sprintf("roll %d of the turn for %s; the modifiers are %s's", act.roll, k.st.Side(side).Style, act.basis.ID)
		if act.local {
			note += "; out of command radius: local initiative"
		}
		g := act.formation.General
		return []game.Forecast{{Formation: act.formation.ID, General: g, Table: "cd/activation", Params: act.params, Dice: diceOf(act.basis.Dice), Note: note}}, nil
	}
	out, through, err := k.plan()
	if err != nil {
		return nil, err
	}
	var fc []game.Forecast
	for _, mv := range out {
		f := game.Forecast{Formation: mv.u.ID, Path: []geom.Point{mv.u.At, mv.to},
			Note: fmt.Sprintf("%s\" at %s\" in %s takes %s\" of its %s\" left", inch(mv.leg.Distance), inch(mv.leg.Rate), mv.leg.Mode, inch((mv.leg.Cost+mv.leg.Change)*mv.leg.Rate), inch((mv.u.Factor-mv.u.Used)*mv.leg.Rate))}
		if mv.leg.Disruptive != "" {
			f.Table, f.Params, f.Dice = "cd/disruptive-terrain", map[string]string{"rating": mv.leg.Disruptive}, diceOf(mv.u.Dice)
			f.Note += fmt.Sprintf("; it enters disruptive %s (%s) and takes general order", mv.leg.Feature, mv.leg.Disruptive)
		}
		fc = append(fc, f)
	}
	if through != nil {
		fc = append(fc, game.Forecast{Formation: out[0].u.ID, Table: "cd/passage", Note: "passage of lines through " + through.ID + ": on an odd die both take general order and are disordered"})
	}
	return fc, nil
}

// diceOf is class dice to name in a forecast: "" for the tables' 2d6.
func diceOf(d string) string {
	if d == "2d6" {
		return ""
	}
	return d
}

// Shapes lists the formations of each unit type (game.Shaper).
func (r *Rules) Shapes() map[string][]string {
	out := map[string][]string{}
	for _, ty := range Types {
		if ty == "artillery" {
			out[ty] = slices.Clone(Guns)
			continue
		}
		for _, sh := range Foot {
			if r.rates[[2]string{ty, sh}].ok {
				out[ty] = append(out[ty], sh)
			}
		}
	}
	return out
}

// Seen lists the ids of the formations, commanders and units in a view
// (game.Lister), for the names a page shows.
func (r *Rules) Seen(s *game.State) []string {
	st := ext(s)
	var out []string
	for _, f := range st.Formations {
		out = append(out, f.ID)
	}
	for _, g := range st.Generals {
		out = append(out, g.ID)
	}
	for _, u := range st.Units {
		out = append(out, u.ID)
	}
	return out
}
