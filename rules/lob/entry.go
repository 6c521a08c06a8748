package lob

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/terrain"
)

// Blocked entry areas (3.7a, read with 10.9). A reinforcement enters
// where the scenario has its pieces enter (each leader's and unit's at
// hex, each HQ's hq hex), with no delay, and never on a hex an enemy
// combat unit holds. A piece whose hex is held by the enemy, or holds
// lob/play's stack of its side's combat units already, enters at the
// nearest free hex of its entry area (the hexes the scenario gives the
// pieces of its reinforcement); when no hex of the area is free, at a
// road hex leading off a map edge: the one the umpire named for it
// (enter), else the first free one the scenario names (road-entry), else
// the map's road hex on an edge nearest the area. An arrival the engine
// places is not an enemy "entering" an HQ's hex: only a move is (10.9).

// MaxRoadEntry bounds the road hexes a scenario names for one
// reinforcement.
const MaxRoadEntry = 32

// EvEntry is the umpire naming the road hex where a reinforcement enters
// if its entry area is blocked (3.7a).
const EvEntry = "entry-named"

// Entry is a piece of a reinforcement that enters elsewhere than the
// hex the scenario gives it (3.7a).
type Entry struct {
	// Piece is a leader's or a combat unit's id, or "hq:COMMAND" for a
	// Command's HQ.
	Piece string `json:"piece"`
	From  string `json:"from"` // the scenario's hex
	At    string `json:"at"`   // where it enters
	// Why says why not at From: "enemy" (an enemy combat unit holds it)
	// or "full" (it holds lob/play's stack of the side's units already).
	Why string `json:"why"`
	// Road says it enters at a road hex leading off a map edge, no hex
	// of its entry area being free; Far that not even one of those was,
	// and it enters at the nearest free hex of the map.
	Road bool `json:"road,omitempty"`
	Far  bool `json:"far,omitempty"`
}

// EntryNamed is the payload of an entry-named event.
type EntryNamed struct {
	Formation string `json:"formation"`
	At        string `json:"at"` // the hex's label
}

// Fold gives the formation, and those under it still to enter, the
// umpire's road hex (3.7a).
func (d *EntryNamed) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	f, err := st.needFormation(d.Formation)
	if err != nil {
		return err
	}
	p, err := st.sc.Map.Parse(d.At)
	if err != nil {
		return fmt.Errorf("the entry of %s at %s: %w", d.Formation, d.At, err)
	}
	for _, i := range append([]int{st.form[f.ID]}, st.below(f.ID)...) {
		at := p
		st.Formations[i].Road = &at
	}
	return nil
}

// Describe words the road hex named.
func (d *EntryNamed) Describe(r *Rules, e *game.Event, name func(string) string) string {
	return fmt.Sprintf("The umpire names road hex %s for %s to enter at, should its entry area be held by the enemy.", d.At, name(d.Formation))
}

// Field gives the formation (command) and the hex named (to).
func (d *EntryNamed) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "command":
		return []string{d.Formation}
	case "to":
		return []string{d.At}
	}
	return nil
}

// arrival is a piece of a reinforcement about to enter: a leader, a
// combat unit or a Command's HQ.
type arrival struct {
	leader *Leader
	unit   *Unit
	hq     *Formation
}

func (a arrival) id() string {
	switch {
	case a.leader != nil:
		return a.leader.ID
	case a.unit != nil:
		return a.unit.ID
	}
	return commandHQ(a.hq.ID)
}

// at is the hex the scenario has the piece enter at.
func (a arrival) at() geom.Point {
	switch {
	case a.leader != nil:
		return a.leader.At
	case a.unit != nil:
		return a.unit.At
	}
	return a.hq.HQ
}

// formation is the formation the piece belongs to.
func (a arrival) formation() string {
	switch {
	case a.leader != nil:
		return a.leader.Formation
	case a.unit != nil:
		return a.unit.Formation
	}
	return a.hq.ID
}

// blocker is an enemy combat unit that a piece entering came upon,
// holding a hex it would have entered, which its side does not spot (fog
// of war).
type blocker struct {
	piece, unit string
	at          geom.Point
}

// arrive works out where the pieces of side's reinforcements in enter
// this turn (3.7a): the moves that put the leaders and units on the map,
// the pieces entering elsewhere than their scenario's hexes, and the
// enemy units they came upon that the side does not spot (each a contact,
// for fog of war: the side learns why its piece entered elsewhere).
// Whether a hex is held is the map as it stands, not as the side knows
// it: a reinforcement never enters on the enemy.
func (r *Rules) arrive(s *game.State, st *State, side string, in []arrival) ([]game.Move, []Entry, []blocker) {
	t := st.sc.Terrain
	if t == nil || len(in) == 0 {
		return plainMoves(in), nil, nil
	}
	enemy := make([]*Unit, t.Len()) // an enemy combat unit in each hex, the first the side spots if any
	for i := range st.Units {
		u := &st.Units[i]
		if !u.alive() || u.Side == side {
			continue
		}
		if j, ok := t.At(u.At); ok && (enemy[j] == nil || s.Hidden(side, enemy[j].ID) && !s.Hidden(side, u.ID)) {
			enemy[j] = u
		}
	}
	stack := r.play["stack"]
	placed := map[int]int{} // the side's units entering each hex this turn
	free := func(j int, unit bool) bool {
		return enemy[j] == nil && (!unit || st.stacked(side, t.Point(j))+placed[j] < stack)
	}
	var moves []game.Move
	var diverted []Entry
	var contacts []blocker
	seen := map[string]bool{}
	for _, a := range in {
		from, ok := t.At(a.at())
		if !ok {
			continue
		}
		unit := a.unit != nil
		at, road, far := from, false, false
		if !free(from, unit) {
			area := st.entryArea(a)
			cands := byDistance(t, area, []int{from})
			n := len(cands)
			cands = append(cands, st.roadEntries(a, area)...)
			roads := len(cands)
			cands = append(cands, byDistance(t, allHexes(t), []int{from})...)
			for c, j := range cands {
				if free(j, unit) {
					at, road, far = j, c >= n && c < roads, c >= roads
					break
				}
				// A hex held by an enemy the side does not spot: it
				// comes upon him there.
				if u := enemy[j]; u != nil && !seen[u.ID] && s.Hidden(side, u.ID) {
					seen[u.ID] = true
					contacts = append(contacts, blocker{piece: a.id(), unit: u.ID, at: u.At})
				}
			}
			if at == from {
				// Nowhere on the map is free (it is full): as the
				// scenario says.
				moves = append(moves, plainMoves([]arrival{a})...)
				continue
			}
			why := "full"
			if enemy[from] != nil {
				why = "enemy"
			}
			diverted = append(diverted, Entry{Piece: a.id(), From: t.Label(from), At: t.Label(at), Why: why, Road: road, Far: far})
		}
		if unit {
			placed[at]++
		}
		switch {
		case a.leader != nil:
			moves = append(moves, game.Move{General: a.leader.ID, To: t.Point(at), Piece: a.leader.pi + 1})
		case a.unit != nil:
			moves = append(moves, game.Move{Unit: a.unit.ID, To: t.Point(at), Piece: a.unit.pi + 1})
		}
	}
	return moves, diverted, contacts
}

// plainMoves puts every leader and unit of in at its scenario's hex.
func plainMoves(in []arrival) []game.Move {
	var out []game.Move
	for _, a := range in {
		switch {
		case a.leader != nil:
			out = append(out, game.Move{General: a.leader.ID, To: a.leader.At, Piece: a.leader.pi + 1})
		case a.unit != nil:
			out = append(out, game.Move{Unit: a.unit.ID, To: a.unit.At, Piece: a.unit.pi + 1})
		}
	}
	return out
}

// allHexes lists every hex of the map.
func allHexes(t *terrain.Map) []int {
	out := make([]int, t.Len())
	for i := range out {
		out[i] = i
	}
	return out
}

// byDistance orders hexes by their distance to the nearest of to, the
// order given breaking ties.
func byDistance(t *terrain.Map, hexes, to []int) []int {
	d := make(map[int]int, len(hexes))
	for _, j := range hexes {
		best := -1
		for _, k := range to {
			if n := t.Distance(j, k); best < 0 || n < best {
				best = n
			}
		}
		d[j] = best
	}
	out := slices.Clone(hexes)
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(d[a], d[b]) })
	return out
}

// source is the formation a reinforcement takes its arrival turn from
// (the nearest with arrives, itself or above it), or nil for one on the
// map from the start.
func source(sc *battle.Scenario, id string) *battle.Formation {
	for f := sc.Formation(id); f != nil && f.Kind != battle.Army; f = sc.Formation(f.Parent) {
		if _, ok := f.Attrs["arrives"].(int); ok {
			return f
		}
	}
	return nil
}

// entryArea is the entry area of an arriving piece (3.7a): the hexes the
// scenario has the pieces of its reinforcement enter at, its leaders',
// units' and HQs', in the scenario's order; for the HQ of a Command on
// the map from the start, its hq hex.
func (st *State) entryArea(a arrival) []int {
	t := st.sc.Terrain
	var out []int
	add := func(p geom.Point) {
		if j, ok := t.At(p); ok && !slices.Contains(out, j) {
			out = append(out, j)
		}
	}
	src := source(st.sc, a.formation())
	if src == nil {
		add(a.at())
		return out
	}
	for _, sd := range st.sc.Sides {
		for _, f := range sd.Formations {
			if s := source(st.sc, f.ID); s == nil || s.ID != src.ID {
				continue
			}
			if g := st.sc.General(f.General); g != nil {
				add(g.At)
			}
			for _, id := range f.Units {
				if u := st.sc.Unit(id); u != nil {
					add(u.At)
				}
			}
			if lbl, ok := f.Attrs["hq"].(string); ok {
				if p, err := st.sc.Map.Parse(lbl); err == nil {
					add(p)
				}
			}
		}
	}
	return out
}

// roadEntries are the road hexes leading off a map edge where a piece
// enters when no hex of its entry area is free, in order of preference:
// the one the umpire named for its formation (or one above it), those
// the scenario names (road-entry), then the map's road hexes on its edges
// nearest the area first.
func (st *State) roadEntries(a arrival, area []int) []int {
	t := st.sc.Terrain
	var out []int
	add := func(j int) {
		if !slices.Contains(out, j) {
			out = append(out, j)
		}
	}
	for f := st.Formation(a.formation()); f != nil; f = st.Formation(f.Parent) {
		if f.Road != nil {
			if j, ok := t.At(*f.Road); ok {
				add(j)
			}
			break
		}
	}
	for f := st.sc.Formation(a.formation()); f != nil && f.Kind != battle.Army; f = st.sc.Formation(f.Parent) {
		if s, ok := f.Attrs["road-entry"].(string); ok {
			ps, _ := roadList(st.sc, s)
			for _, p := range ps {
				if j, ok := t.At(p); ok {
					add(j)
				}
			}
			break
		}
	}
	for _, j := range byDistance(t, RoadExits(t), area) {
		add(j)
	}
	return out
}

// RoadExits lists the hexes on the map's edges that a road runs through:
// where a road leads off the map (3.7a).
func RoadExits(t *terrain.Map) []int {
	if t == nil {
		return nil
	}
	var out []int
	for i := range t.Len() {
		if t.RoadIn(i) != terrain.None && onEdge(t, i) {
			out = append(out, i)
		}
	}
	return out
}

// onEdge reports whether hex i lies on the map's edge: a neighbour of it
// is off the map.
func onEdge(t *terrain.Map, i int) bool {
	for d := range 6 {
		if t.Next(i, d) < 0 {
			return true
		}
	}
	return false
}

// isRoadExit says why hex p is not a road hex on a map edge; "" when it
// is.
func isRoadExit(sc *battle.Scenario, p geom.Point) string {
	t := sc.Terrain
	j, ok := t.At(p)
	switch {
	case !ok:
		return fmt.Sprintf("hex %s is off the map", sc.Map.Format(p))
	case !onEdge(t, j):
		return fmt.Sprintf("hex %s is not on a map edge", sc.Map.Format(p))
	case t.RoadIn(j) == terrain.None:
		return fmt.Sprintf("hex %s has no road", sc.Map.Format(p))
	}
	return ""
}

// roadList reads road-entry: hex labels separated by spaces or commas,
// each a road hex on a map edge.
func roadList(sc *battle.Scenario, s string) ([]geom.Point, error) {
	items := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	if len(items) == 0 {
		return nil, fmt.Errorf("give the labels of road hexes on a map edge, such as \"0108 2408\"")
	}
	if len(items) > MaxRoadEntry {
		return nil, fmt.Errorf("at most %d hexes, got %d", MaxRoadEntry, len(items))
	}
	var out []geom.Point
	for _, it := range items {
		p, err := sc.Map.Parse(it)
		if err != nil {
			return nil, err
		}
		if !sc.Map.Contains(p) {
			return nil, fmt.Errorf("hex %s is off the map", it)
		}
		if sc.Terrain != nil {
			if why := isRoadExit(sc, p); why != "" {
				return nil, fmt.Errorf("%s; a reinforcement whose entry area is blocked enters at a road hex leading off a map edge (3.7a)", why)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// toArrive reports whether a formation is a reinforcement still to
// enter, or a Command whose HQ is still to arrive.
func (f *Formation) toArrive() bool {
	return !f.Entered && f.Arrives > 0 || f.HasHQ && !f.HQOn && f.HQArrives > 0
}

// enter is the umpire naming the road hex leading off a map edge where a
// reinforcement enters if no hex of its entry area is free when it
// arrives (3.7a): it goes before the hexes the scenario names.
func (k *cmd) enter() error {
	if !k.umpire {
		return game.Reject("LOB-1", "only the umpire names the road hex where a reinforcement enters when its entry area is blocked (3.7a); a side's reinforcements otherwise enter where the scenario says")
	}
	f := k.st.Formation(k.a.Formation)
	if f == nil {
		return game.Reject("LOB-1", "there is no formation %s; name a reinforcement still to enter", k.a.Formation)
	}
	if !f.toArrive() {
		return game.Reject("LOB-1", "%s is on the map already; name a reinforcement still to enter", f.ID)
	}
	at, err := k.hex(k.a.To, "at")
	if err != nil {
		return err
	}
	if why := isRoadExit(k.sc, at); why != "" {
		var labels []string
		for _, j := range RoadExits(k.sc.Terrain) {
			labels = append(labels, k.sc.Terrain.Label(j))
		}
		allowed := "the map has none"
		if len(labels) > 0 {
			allowed = "allowed: " + strings.Join(labels, ", ")
		}
		return game.Reject("LOB-1", "%s: a blocked reinforcement enters at a road hex leading off a map edge (3.7a); %s", why, allowed)
	}
	return k.x.Emit(game.Event{Type: EvEntry, Side: f.Side, See: f.Side, Rule: "LOB-1", Data: &EntryNamed{Formation: f.ID, At: k.sc.Map.Format(at)}})
}
