package bp

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/geom/foot"
	"orderly/table"
)

// checker is a command checked without being carried out: what the page
// is offered is what Command would accept (game.Offerer).
func (r *Rules) checker(s *game.State, sc *battle.Scenario, side string, a *Args) *cmd {
	return &cmd{r: r, s: s, st: ext(s), sc: sc, side: side, a: a}
}

// initiativeOK checks an initiative move without making it (BP-3).
func (k *cmd) initiativeOK() error {
	u, bu, _, err := k.own(k.a.Unit, "BP-3")
	if err != nil {
		return err
	}
	switch {
	case flag(bu.Attrs, "lacking-initiative"):
		return game.Reject("BP-3", "%s lacks initiative and makes no initiative moves", u.ID)
	case len(u.Engaged) > 0:
		return game.Reject("BP-3", "%s is in combat and cannot move", u.ID)
	case u.Initiative:
		return game.Reject("BP-3", "%s has made its initiative move this turn", u.ID)
	case u.Ordered:
		return game.Reject("BP-3", "%s has had an order this turn; a unit makes an initiative move instead of an order", u.ID)
	}
	for _, b := range k.st.Brigades {
		if b.Side == k.side && b.Orders > 0 {
			return game.Reject("BP-3", "initiative moves come before the commanders' orders, and %s has given an order this turn", b.General)
		}
	}
	if len(k.r.near(k.s, u.ID, Proximity, k.knows)) == 0 {
		return game.Reject("BP-3", "%s is not within %s\" of an enemy unit, so it waits for an order", u.ID, inch(Proximity))
	}
	return nil
}

// seatSide is the side a seat acts for in a step: its own, or for the
// umpire the side that acts.
func seatSide(st *State, s *game.State, step game.Step, seat string) string {
	if seat != game.Umpire {
		return seat
	}
	side := st.phasing(s.Phase)
	if step.Name == StepRespond && (st.Charge != nil || st.Traverse != nil) {
		side = st.enemy(side)
	}
	return side
}

// Offers says which of the step's commands seat may give for each unit,
// commander and brigade (game.Offerer): only those Command would accept
// as they stand (a move or charge still needs its place or target).
func (r *Rules) Offers(s *game.State, step game.Step, seat string) map[string][]string {
	st := ext(s)
	sc := st.sc
	out := map[string][]string{}
	if sc == nil {
		return out
	}
	side := seatSide(st, s, step, seat)
	if !slices.Contains(step.Actors, side) {
		return out
	}
	add := func(id, verb string) {
		if slices.Contains(step.Verbs, verb) {
			out[id] = append(out[id], verb)
		}
	}
	for i := range st.Units {
		u := &st.Units[i]
		if u.Side != side || !st.alive(s, u.ID) {
			continue
		}
		k := r.checker(s, sc, side, &Args{Unit: u.ID})
		switch step.Name {
		case StepOrders:
			if k.initiativeOK() == nil {
				add(u.ID, "initiative")
			}
			if len(u.Engaged) == 0 && u.Order != "" && u.Allow-u.Used > slack {
				add(u.ID, "move")
				if len(r.charges(s, sc, u.ID)) > 0 {
					add(u.ID, "charge")
				}
			}
		case StepRespond:
			if st.Charge != nil && st.Charge.Target == u.ID {
				add(u.ID, "respond")
			}
			if st.Traverse != nil && slices.Contains(st.Traverse.Firers, u.ID) {
				add(u.ID, "traverse")
			}
		case StepShoot:
			if !u.Shot && len(u.Engaged) == 0 && u.Shooting > 0 && u.Range > 0 && len(r.Legal(s, sc, u.ID, nil)) > 0 {
				add(u.ID, "shoot")
			}
		case StepFight:
			if len(u.Engaged) > 0 && !u.Fought {
				add(u.ID, "fight")
			}
		}
	}
	if step.Name == StepOrders {
		for _, b := range st.Brigades {
			if r.mayOrder(s, sc, side, &b) {
				add(b.ID, "order")
			}
		}
		for _, g := range st.Generals {
			if g.Side == side && !g.Moved {
				add(g.ID, "move")
			}
		}
	}
	return out
}

// mayOrder reports whether brigade b's commander may give side an order
// now: he has not given his last of the turn (BP-1, BP-4) and a unit of
// his may take one.
func (r *Rules) mayOrder(s *game.State, sc *battle.Scenario, side string, b *Brigade) bool {
	return b.Side == side && !b.Done && len(r.orderKinds(s, sc, side, b.ID)) > 0
}

// orderKinds lists, for each unit of a brigade that may take an order now,
// the kinds of order it may take.
func (r *Rules) orderKinds(s *game.State, sc *battle.Scenario, side, brigade string) map[string][]string {
	st := ext(s)
	out := map[string][]string{}
	for _, u := range st.Units {
		if u.Brigade != brigade {
			continue
		}
		for _, kind := range r.orders {
			k := r.checker(s, sc, side, &Args{Brigade: brigade, Units: []string{u.ID}, Kind: kind})
			if _, _, _, err := k.orderable(); err == nil {
				out[u.ID] = append(out[u.ID], kind)
			}
		}
	}
	return out
}

// charges lists the enemy units a unit may charge now.
func (r *Rules) charges(s *game.State, sc *battle.Scenario, id string) []string {
	st := ext(s)
	u := st.Unit(id)
	var out []string
	for _, e := range st.Units {
		if e.Side == u.Side || e.Hidden || !st.alive(s, e.ID) {
			continue
		}
		k := r.checker(s, sc, u.Side, &Args{Unit: id, Target: e.ID})
		if _, _, _, err := k.chargeTo(); err == nil {
			out = append(out, e.ID)
		}
	}
	return out
}

// Board is what a page needs to draw a BP table and offer its commands,
// worked out here so that the page computes no rule: each unit's
// footprint, arcs and what it may do now.
type Board struct {
	// Proximity is the distance of BP-3 and BP-7 in inches; a page
	// draws the band within it of each enemy unit.
	Proximity float64 `json:"proximity"`
	// Arc is how far the arcs open from the edges' ends, in degrees.
	Arc float64 `json:"arc"`
	// Commander is how far a commander moves in his one move.
	Commander float64 `json:"commander"`
	// Modifier bounds the modifier a player may declare on an order
	// (BP-1), for the page's input.
	Modifier Bounds             `json:"modifier"`
	Units    map[string]UnitBox `json:"units"`
	// Orders lists, by brigade, each unit that may take an order now and
	// the kinds it may take.
	Orders map[string]map[string][]string `json:"orders,omitempty"`
	// Replies lists the replies the charged unit may make.
	Replies []string `json:"replies,omitempty"`
	// Charge is the charge waiting for a reply.
	Charge *Charge `json:"charge,omitempty"`
	// Traverse is the move across the front of units that may give
	// traversing fire, waiting for the reply.
	Traverse *Traverse `json:"traverse,omitempty"`
}

// UnitBox is one unit as drawn: its corners, its front and rear arcs (to
// its range, or 24"), the inches of its moves left, whether it stands
// within 12" of the enemy, and the enemy units it may shoot at or charge.
type UnitBox struct {
	Corners [4]geom.Point `json:"corners"`
	Front   []geom.Point  `json:"front"`
	Rear    []geom.Point  `json:"rear"`
	Left    float64       `json:"left,omitempty"`
	Near    bool          `json:"near,omitempty"`
	Targets []string      `json:"targets,omitempty"`
	// Candidates lists every enemy unit in its front arc and range, out
	// of combat, closest first: a target beyond Targets may be chosen
	// once the closer clear ones are declared not clear (cover).
	Candidates []string `json:"candidates,omitempty"`
	Charges    []string `json:"charges,omitempty"`
}

// arcs are the front and rear arcs of f as polygons reaching out to d.
func arcs(f foot.Foot, d float64) ([]geom.Point, []geom.Point) {
	c := f.Corners() // front left, front right, rear right, rear left
	a := f.Ahead()
	rgt := geom.Pt(-a.Y, a.X)
	t := math.Tan(Half * math.Pi / 180)
	at := func(p geom.Point, u, v float64) geom.Point {
		return geom.Pt(round(p.X+u*a.X+v*rgt.X), round(p.Y+u*a.Y+v*rgt.Y))
	}
	front := []geom.Point{at(c[0], 0, 0), at(c[0], d, -d*t), at(c[1], d, d*t), at(c[1], 0, 0)}
	rear := []geom.Point{at(c[3], 0, 0), at(c[3], -d, -d*t), at(c[2], -d, d*t), at(c[2], 0, 0)}
	return front, rear
}

// Annotate is the BP board for seat in step (game.Annotator).
func (r *Rules) Annotate(s *game.State, step game.Step, seat string) any {
	st := ext(s)
	sc := st.sc
	b := Board{Proximity: Proximity, Arc: Half, Commander: CommanderMoves * r.move["commander"], Modifier: Declared, Units: map[string]UnitBox{}, Charge: st.Charge, Traverse: st.Traverse}
	if sc == nil {
		return b
	}
	side := seatSide(st, s, step, seat)
	acting := slices.Contains(step.Actors, side)
	for i := range st.Units {
		u := &st.Units[i]
		if !st.alive(s, u.ID) {
			continue
		}
		f := r.footOf(s, u.Piece)
		box := UnitBox{Corners: f.Corners(), Near: r.inProximity(s, u.ID, seat)}
		for j := range box.Corners {
			box.Corners[j] = geom.Pt(round(box.Corners[j].X), round(box.Corners[j].Y))
		}
		box.Front, box.Rear = arcs(f, max(u.Range, 24))
		if u.Side == side && acting {
			box.Left = round(max(0, u.Allow-u.Used))
			switch step.Name {
			case StepShoot:
				if !u.Shot && len(u.Engaged) == 0 && u.Shooting > 0 {
					box.Targets = r.Legal(s, sc, u.ID, nil)
					box.Candidates, _, _ = r.targets(s, sc, u.ID, nil, u.Side)
				}
			case StepOrders:
				if box.Left > slack && len(u.Engaged) == 0 {
					box.Charges = r.charges(s, sc, u.ID)
				}
			}
		}
		b.Units[u.ID] = box
	}
	if acting && step.Name == StepOrders {
		b.Orders = map[string]map[string][]string{}
		for _, br := range st.Brigades {
			if br.Side == side && !br.Done {
				if ks := r.orderKinds(s, sc, side, br.ID); len(ks) > 0 {
					b.Orders[br.ID] = ks
				}
			}
		}
	}
	if acting && step.Name == StepRespond && st.Charge != nil {
		for _, resp := range Responses {
			if r.canRespond(s, sc, st.Charge, resp) == nil {
				b.Replies = append(b.Replies, resp)
			}
		}
	}
	return b
}

// Kinds lists the kinds of order (game.Forecaster).
func (r *Rules) Kinds() []string { return slices.Clone(r.orders) }

// Writes is the verb whose roll is forecast first: an order.
func (r *Rules) Writes() string { return "order" }

// Forecasts lists every verb whose rolls can be forecast: an order's
// command roll, a volley, a combat.
func (r *Rules) Forecasts() []string { return []string{"order", "shoot", "fight"} }

// Forecast names the rolls a command will meet, for their exact odds
// before it is given: an order's command roll (BP-1), a volley's dice
// (BP-5) with the casualties that shake the target or call its break
// test, each unit's combat dice (BP-6). It refuses a command that Command
// would refuse, with the same words.
func (r *Rules) Forecast(sc *battle.Scenario, s *game.State, side string, args any) ([]game.Forecast, error) {
	a, ok := args.(*Args)
	if !ok || a == nil {
		return nil, game.Reject("", "give the command whose rolls to forecast")
	}
	st := ext(s)
	seat := side
	if side == game.Umpire {
		// The umpire asks for the side that acts, as he commands for it.
		side = st.phasing(s.Phase)
	}
	k := r.checker(s, sc, side, a)
	switch {
	case a.Brigade != "":
		_, gen, _, err := k.orderable()
		if err != nil {
			return nil, err
		}
		rating, trait := r.rating(gen)
		return []game.Forecast{{Formation: a.Brigade, General: gen.ID, Table: "bp/command",
			Params: map[string]string{"rating": strconv.Itoa(rating), "modifier": strconv.Itoa(trait + a.Modifier)},
			Note:   "a natural 12 is a blunder, rolled on bp/blunder (BP-2); a failed order or a blunder ends his orders this turn"}}, nil
	case a.Target != "":
		if err := k.shootable(); err != nil {
			return nil, err
		}
		u, t := st.Unit(a.Unit), st.Unit(a.Target)
		enf := r.enfilade(s, sc, a.Unit, a.Target)
		params := map[string]string{"dice": strconv.Itoa(u.Shooting), "modifier": strconv.Itoa(a.Modifier), "save": strconv.Itoa(t.Morale), "enfilade": strconv.FormatBool(enf)}
		art := isArtillery(sc.Unit(u.ID))
		shaken, test, err := r.fates(params, t.Casualties, t.Stamina, art)
		if err != nil {
			return nil, err
		}
		note := fmt.Sprintf("%s has %d casualties, stamina %d: shaken %s; a break test %s", t.ID, t.Casualties, t.Stamina, shaken, test)
		if enf {
			note += "; in enfilade, misses are rolled again"
		}
		return []game.Forecast{{Formation: a.Unit, Table: "bp/shooting", Params: params, Note: note}}, nil
	default:
		u := st.Unit(a.Unit)
		if u == nil || len(u.Engaged) == 0 {
			return nil, game.Reject("BP-6", "%s is not in combat", a.Unit)
		}
		var out []game.Forecast
		for _, id := range st.group(a.Unit) {
			v := st.Unit(id)
			t := st.Unit(v.Engaged[0])
			if s.Hidden(seat, id) || s.Hidden(seat, t.ID) {
				continue // fog of war: a unit the seat does not spot is not named
			}
			out = append(out, game.Forecast{Formation: id, Table: "bp/shooting", Params: map[string]string{"dice": strconv.Itoa(v.Combat), "save": strconv.Itoa(t.Morale)},
				Note: fmt.Sprintf("%s fights %s (%d casualties, stamina %d)", id, t.ID, t.Casualties, t.Stamina)})
		}
		return out, nil
	}
}

// fates is the exact chance that a volley with params leaves a target of
// casualties and stamina shaken (casualties reach stamina) and that it
// calls a break test (casualties beyond stamina, or any from artillery),
// in words: "1/6 (16.7%)" (BP-5).
func (r *Rules) fates(params map[string]string, casualties, stamina int, artillery bool) (string, string, error) {
	a, err := r.shooting.Bind(params)
	if err != nil {
		return "", "", err
	}
	o, err := r.shooting.Odds(a)
	if err != nil {
		return "", "", err
	}
	shaken, test := new(big.Rat), new(big.Rat)
	for _, c := range o.Outcomes {
		n, err := strconv.Atoi(strings.TrimPrefix(c.Result, "casualties-"))
		if err != nil {
			return "", "", fmt.Errorf("bp/shooting: result %q is not casualties-N", c.Result)
		}
		p := new(big.Rat).SetFrac(c.Num, o.Den)
		if casualties+n >= stamina {
			shaken.Add(shaken, p)
		}
		if casualties+n > stamina || artillery && n > 0 {
			test.Add(test, p)
		}
	}
	return table.Percent(shaken), table.Percent(test), nil
}

// Shapes lists the formations of each unit type (game.Shaper): artillery
// is limbered or unlimbered, every other type takes the rest of
// bp/footprint.
func (r *Rules) Shapes() map[string][]string {
	out := map[string][]string{}
	for _, ty := range r.types {
		for _, sh := range r.shapes {
			if r.takes(ty, sh) {
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
