package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"orderly/battle"
	"orderly/geom"
	"orderly/sight"
)

// Fog modes: a game is played without fog of war (every piece open, as at
// a shared table), with it (a side sees an enemy piece only while one of
// its own can spot it), or strictly (a commander's seat sees only what his
// own formation spots).
const (
	FogOff    = "off"
	FogOn     = "on"
	FogStrict = "strict"
)

// FogModes lists the fog modes, the default first.
func FogModes() []string { return []string{FogOff, FogOn, FogStrict} }

// CheckFog checks a fog mode; "" is off.
func CheckFog(mode string) error {
	if mode == "" || slices.Contains(FogModes(), mode) {
		return nil
	}
	return fmt.Errorf("fog %q is not a fog mode; allowed: %s", mode, strings.Join(FogModes(), ", "))
}

// Spotter is a rule set that can be played with fog of war: its spotting
// data (ranges, cover, what blocks a line of sight).
type Spotter interface {
	Sight() *sight.Rules
}

// Marker is a Spotter that keeps things on the field beside the pieces
// that may be seen (NB's messengers): Marks calls add for each.
type Marker interface {
	Marks(s *State, add func(sight.Mark))
}

// Namer is a Marker whose events name marks otherwise than by their ids
// (an NES headquarters' move names its side): Names lists the marks e
// names, so that the fog of war narrows it as it does an event naming a
// piece.
type Namer interface {
	Names(e *Event) []string
}

// Option is a choice made when a game starts.
type Option func(*options)

type options struct {
	fog   string
	dice  string
	watch func(*State, *Event)
}

// WithWatch has fn called after every event is applied (the fog of war
// worked out), with the state it leaves and the event: for tests that
// check what every event shows.
func WithWatch(fn func(s *State, e *Event)) Option { return func(o *options) { o.watch = fn } }

// WithFog plays the game in a fog mode (FogOn, FogStrict; FogOff or ""
// plays without).
func WithFog(mode string) Option { return func(o *options) { o.fog = mode } }

// Ghost is where an enemy piece was last seen, and on which turn: what a
// side still knows of a piece it has lost sight of.
type Ghost struct {
	ID   string     `json:"id"`
	Side string     `json:"side"`
	Kind string     `json:"kind"`
	At   geom.Point `json:"at"`
	Turn int        `json:"turn"`
}

// fog is what each side sees of the other, kept after every event of a
// game played with fog of war.
type fog struct {
	mode  string
	field *sight.Field
	sc    *battle.Scenario
	rules Rules
	// marks are the pieces', by their index in the state, on the field
	// (on) or not, then the rule set's own (Marker), all on the field.
	marks []sight.Mark
	on    []bool
	np    int                         // how many of marks are pieces'
	piece map[string]int              // the state's index of its pieces
	extra map[string]int              // the index in marks of each of the rule set's marks
	reach []float64                   // how far each mark sees
	seen  map[string]map[string]bool  // side -> enemy mark id -> spotted now
	last  map[string]map[string]Ghost // side -> enemy mark id -> where last spotted
	ver   map[string]int              // side -> how many times what it spots has changed
	// gone lists, by side, the enemy marks it spotted that left the field
	// with the latest event (a unit broken, a messenger arrived): the side
	// saw them go, so the event that took them is not narrowed from it.
	gone map[string]map[string]bool
	// came lists, by side, the enemy marks that came into its sight with
	// the latest event: the event that brought them (a move from where
	// the side did not see them) is not shown to it, lest it tell where
	// they came from; the side finds them in its view.
	came map[string]map[string]bool
	// touch holds, by side, the enemy pieces a piece of the side is in
	// contact with (Contacted): spotted while both stand still. again
	// lists the pieces of the latest contacts, looked at again at the
	// next update.
	touch map[string]map[string]touch
	again []int
	// forms lists, by formation, the indices in the state of the pieces
	// under it as the scenario has them (units of its divisions, generals
	// of its formations), for narrowing an event that names a formation.
	forms map[string][]int
	// top, while a strict view is made (Game.SeesFrom), is the formation
	// whose pieces alone spot.
	top string
	// cells indexes, by side, the pieces on the field by the square cell
	// (cell on a side) they stand in, kept up as they move; extras does
	// the same for the rule set's marks, made again at each update. A mark
	// is looked for only by the marks near enough to see it.
	cells  map[string]map[[2]int][]int
	extras map[string]map[[2]int][]int
	cell   float64
	// olds and oldExtra are the rule set's marks and their index as the
	// last update left them, turn its turn; ready says there was one.
	olds     []sight.Mark
	oldExtra map[string]int
	turn     int
	ready    bool
	// Scratch for update: which marks to look at again, listed and
	// checked off; where each piece that moved stood before.
	look  []bool
	looks []int
	prev  map[int]sight.Mark
}

// square is the cell of the index p falls in. A cell's side is one more
// than the farthest any mark sees: in either space (inches on a table,
// hexes on a map numbered by column and row) two marks apart by more than
// that in x or in y are farther apart than that, so a mark that can spot
// m stands in m's cell or one of the eight around it.
func (f *fog) square(p geom.Point) [2]int {
	return [2]int{int(math.Floor(p.X / f.cell)), int(math.Floor(p.Y / f.cell))}
}

// find is the index in marks of the mark or piece id, if it is one.
func (f *fog) find(id string) (int, bool) {
	if i, ok := f.piece[id]; ok && i < f.np {
		return i, true
	}
	i, ok := f.extra[id]
	return i, ok
}

// file puts mark i in index at its side's cell.
func (f *fog) file(index map[string]map[[2]int][]int, i int) {
	m := f.marks[i]
	c := index[m.Side]
	if c == nil {
		c = map[[2]int][]int{}
		index[m.Side] = c
	}
	k := f.square(m.At)
	c[k] = append(c[k], i)
}

// unfile takes piece i, which stood at m, out of the index.
func (f *fog) unfile(i int, m sight.Mark) {
	c := f.cells[m.Side]
	k := f.square(m.At)
	if j := slices.Index(c[k], i); j >= 0 {
		c[k] = slices.Delete(c[k], j, j+1)
	}
}

// around calls fn for the index of each mark of side in p's cell and the
// eight around it, until fn says stop.
func (f *fog) around(side string, p geom.Point, fn func(i int) bool) {
	k := f.square(p)
	for _, index := range [2]map[string]map[[2]int][]int{f.cells, f.extras} {
		c := index[side]
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for _, i := range c[[2]int{k[0] + dx, k[1] + dy}] {
					if !fn(i) {
						return
					}
				}
			}
		}
	}
}

func newFog(mode string, sc *battle.Scenario, rules Rules) (*fog, error) {
	if err := CheckFog(mode); err != nil {
		return nil, err
	}
	if mode == "" || mode == FogOff {
		return nil, nil
	}
	sp, ok := rules.(Spotter)
	if !ok {
		return nil, fmt.Errorf("rule set %s cannot be played with fog of war", rules.ID())
	}
	f := &fog{mode: mode, field: sight.On(sp.Sight(), sc), sc: sc, rules: rules, cell: max(sp.Sight().Farthest(), 0) + 1,
		seen: map[string]map[string]bool{}, last: map[string]map[string]Ghost{}}
	for _, sd := range sc.Sides {
		f.seen[sd.ID], f.last[sd.ID] = map[string]bool{}, map[string]Ghost{}
	}
	f.forms = formsOf(sc)
	return f, nil
}

// formsOf lists, for each formation of sc short of the armies, the indices
// in a new game's state (NewState: generals, then units) of the pieces
// under it.
func formsOf(sc *battle.Scenario) map[string][]int {
	out := map[string][]int{}
	up := func(start string, i int) {
		for f := sc.Formation(start); f != nil && f.Kind != battle.Army; f = sc.Formation(f.Parent) {
			out[f.ID] = append(out[f.ID], i)
		}
	}
	i := 0
	for _, g := range sc.Generals() {
		up(g.Commands, i)
		i++
	}
	for _, u := range sc.Units() {
		up(u.Division, i)
		i++
	}
	return out
}

// fresh is a fog of the same game with nothing seen yet.
func (f *fog) fresh() *fog {
	c := &fog{mode: f.mode, field: f.field, sc: f.sc, rules: f.rules, cell: f.cell, forms: f.forms,
		seen: map[string]map[string]bool{}, last: map[string]map[string]Ghost{}, gone: map[string]map[string]bool{}, came: map[string]map[string]bool{}}
	for side := range f.seen {
		c.seen[side], c.last[side] = map[string]bool{}, map[string]Ghost{}
	}
	return c
}

// kindOf is a piece is for sight: its unit type, or general.
func kindOf(sc *battle.Scenario, id string) string {
	if u := sc.Unit(id); u != nil {
		return u.Type
	}
	return "general"
}

// update works out what each side spots in s, and where it last saw what
// it no longer spots. Whether a side spots a mark changes only if the
// mark moved, or one of the side's marks moved near it (came, went, or
// changed kind): after the first update only those are looked at again,
// unless so many moved that looking at all is as quick.
func (f *fog) update(s *State) {
	sees := f.field.Rules()
	if f.prev == nil {
		f.prev = map[int]sight.Mark{}
	}
	clear(f.prev)
	if !f.ready {
		f.cells = map[string]map[[2]int][]int{}
	}
	// The pieces' marks are kept from one update to the next: what moved
	// (came, went, or moved) is noted where it stands now (moved) and
	// where it stood before (was, and prev by index), and the index
	// follows it.
	var moved []int
	var was []sight.Mark
	for _, i := range f.again {
		if i < len(s.Pieces) && s.Pieces[i].OnTable && i < f.np {
			moved = append(moved, i)
		}
	}
	f.again = f.again[:0]
	// The rule set's marks of the last update, before the pieces' are
	// added to.
	oldNp := f.np
	f.olds = append(f.olds[:0], f.marks[oldNp:]...)
	f.oldExtra, f.extra = f.extra, f.oldExtra
	oldOf := func(id string) (sight.Mark, bool) {
		j, ok := f.oldExtra[id]
		if !ok {
			return sight.Mark{}, false
		}
		return f.olds[j-oldNp], true
	}
	f.marks, f.on = f.marks[:oldNp], f.on[:oldNp]
	for i, p := range s.Pieces {
		if i >= f.np {
			k := kindOf(f.sc, p.ID)
			f.marks = append(f.marks, sight.Mark{ID: p.ID, Side: p.Side, Kind: k, At: p.At})
			f.on = append(f.on, p.OnTable)
			f.reach = append(f.reach[:i], sees.Sees(k))
			if p.OnTable {
				moved = append(moved, i)
				f.file(f.cells, i)
			}
			continue
		}
		if f.marks[i].At == p.At && f.on[i] == p.OnTable {
			continue
		}
		if f.on[i] {
			was = append(was, f.marks[i])
			f.prev[i] = f.marks[i]
			f.unfile(i, f.marks[i])
		}
		f.marks[i].At, f.on[i] = p.At, p.OnTable
		if p.OnTable {
			moved = append(moved, i)
			f.file(f.cells, i)
		}
	}
	f.np, f.piece = len(s.Pieces), s.piece
	// The rule set's marks are made again each time.
	if f.extra == nil {
		f.extra = map[string]int{}
	}
	clear(f.extra)
	f.marks, f.on, f.reach = f.marks[:f.np], f.on[:f.np], f.reach[:f.np]
	if m, ok := f.rules.(Marker); ok {
		m.Marks(s, func(k sight.Mark) {
			f.extra[k.ID] = len(f.marks)
			f.marks = append(f.marks, k)
			f.on = append(f.on, true)
			f.reach = append(f.reach, sees.Sees(k.Kind))
		})
	}
	if f.extras == nil {
		f.extras = map[string]map[[2]int][]int{}
	}
	for _, c := range f.extras {
		clear(c)
	}
	for i := f.np; i < len(f.marks); i++ {
		f.file(f.extras, i)
		if o, ok := oldOf(f.marks[i].ID); !ok || o != f.marks[i] {
			moved = append(moved, i)
		}
	}
	for _, o := range f.olds {
		if i, ok := f.extra[o.ID]; !ok || f.marks[i] != o {
			was = append(was, o)
		}
	}
	all := !f.ready || 8*(len(moved)+len(was)) > len(f.marks)
	if len(f.look) < len(f.marks) {
		f.look = make([]bool, len(f.marks))
	}
	if f.gone == nil {
		f.gone, f.came = map[string]map[string]bool{}, map[string]map[string]bool{}
	}
	for side, seen := range f.seen {
		last := f.last[side]
		gone, came := f.gone[side], f.came[side]
		if gone == nil {
			gone, came = map[string]bool{}, map[string]bool{}
			f.gone[side], f.came[side] = gone, came
		}
		clear(gone)
		clear(came)
		n := len(seen)
		for _, m := range was {
			if i, ok := f.find(m.ID); seen[m.ID] && (!ok || !f.on[i]) {
				delete(last, m.ID) // seen to leave the field
				delete(seen, m.ID)
				gone[m.ID] = true
			}
		}
		// The enemy marks to look at again.
		f.looks = f.looks[:0]
		add := func(i int) bool {
			if !f.look[i] {
				f.look[i] = true
				f.looks = append(f.looks, i)
			}
			return true
		}
		if all {
			for i, m := range f.marks {
				if f.on[i] && m.Side != side {
					add(i)
				}
			}
		} else {
			for _, i := range moved {
				if m := f.marks[i]; m.Side != side {
					add(i)
				} else {
					f.near(side, m.At, add)
				}
			}
			for _, m := range was {
				if m.Side == side {
					f.near(side, m.At, add)
				}
			}
		}
		changed := false
		for _, i := range f.looks {
			f.look[i] = false
			m := f.marks[i]
			now := f.spotted(side, i, "")
			switch {
			case now && !seen[m.ID]:
				seen[m.ID] = true
				came[m.ID] = true
				changed = true
			case !now && seen[m.ID]:
				// Lost from sight: last seen where it stood at the last
				// update, on that update's turn.
				delete(seen, m.ID)
				o, ok := f.prev[i]
				if i >= f.np {
					o, ok = oldOf(m.ID)
				}
				if !ok {
					o = m // it has not moved
				}
				last[m.ID] = Ghost{ID: o.ID, Side: o.Side, Kind: o.Kind, At: o.At, Turn: f.turn}
			}
		}
		if changed || len(seen) != n {
			if f.ver == nil {
				f.ver = map[string]int{}
			}
			f.ver[side]++
		}
	}
	f.turn, f.ready = s.Turn, true
}

// near calls add for each mark of a side other than side that a mark of
// side standing at p could spot.
func (f *fog) near(side string, p geom.Point, add func(i int) bool) {
	for _, sd := range f.sc.Sides {
		if sd.ID != side {
			f.around(sd.ID, p, add)
		}
	}
}

// spotted reports whether a mark of side (of formation top, if not "")
// spots mark mi, or is in contact with it.
func (f *fog) spotted(side string, mi int, top string) bool {
	m := f.marks[mi]
	if f.touch != nil && f.touched(side, mi, top) {
		return true
	}
	found := false
	f.around(side, m.At, func(i int) bool {
		o := f.marks[i]
		// Farther in x or y than one more than it sees is too far in
		// either space (see square): left out before the field's look.
		if r := f.reach[i]; r <= 0 || math.Abs(o.At.X-m.At.X) > r+1 || math.Abs(o.At.Y-m.At.Y) > r+1 {
			return true
		}
		if top != "" && !Under(f.sc, o.ID, top) {
			return true
		}
		found = f.field.Spotted(o, m)
		return !found
	})
	return found
}

// hidden reports whether seat may not see mark id: an enemy's that none of
// its marks spots, or an enemy piece off the table (a reserve still to
// come). Anything else (a formation) is not hidden.
func (f *fog) hidden(seat, id string) bool {
	if f == nil || seat == Umpire {
		return false
	}
	i, ok := f.find(id)
	if !ok {
		if side, ok := f.left(id); ok {
			return side != seat // it left the field with the latest event
		}
		return f.hiddenFormation(seat, id)
	}
	m := f.marks[i]
	if !f.on[i] {
		return m.Side != seat
	}
	if m.Side == seat {
		return false
	}
	if f.top != "" {
		return !f.seen[seat][id] || !f.spotted(seat, i, f.top)
	}
	return !f.seen[seat][id]
}

// left reports whether id is a mark of the rule set's (a messenger) that
// left the field with the latest update, and whose it was.
func (f *fog) left(id string) (string, bool) {
	if _, ok := f.oldExtra[id]; !ok {
		return "", false
	}
	for _, o := range f.olds {
		if o.ID == id {
			return o.Side, true
		}
	}
	return "", false
}

// hiddenFormation reports whether seat may not see formation id: an
// enemy's (short of his army, whose existence is no secret) none of whose
// pieces it spots on the field, nor saw leave it with the latest event.
// Anything that is not a formation is not hidden.
func (f *fog) hiddenFormation(seat, id string) bool {
	fm := f.sc.Formation(id)
	if fm == nil || fm.Kind == battle.Army || fm.Side == seat {
		return false
	}
	pieces := f.forms[id]
	for i := len(f.sc.Generals()) + len(f.sc.Units()); i < f.np; i++ {
		// A piece that joined the game (a replacement general).
		if Under(f.sc, f.marks[i].ID, id) {
			pieces = append(slices.Clip(pieces), i)
		}
	}
	for _, i := range pieces {
		if i >= f.np {
			continue
		}
		pid := f.marks[i].ID
		if f.gone[seat][pid] || f.on[i] && !f.hidden(seat, pid) {
			return false
		}
	}
	return true
}

// ghosts lists, by id, where seat last saw the enemy pieces it no longer
// spots.
func (f *fog) ghosts(seat string) []Ghost {
	if f == nil || seat == Umpire {
		return nil
	}
	var out []Ghost
	for id, g := range f.last[seat] {
		if !f.seen[seat][id] {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b Ghost) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// narrow gives an event everyone may see to only the sides that spot
// every enemy piece it names after it (or right before it, for a piece the
// event took off the field), and none that came into their sight with it,
// and that spot a piece of every enemy formation it names: fog of war
// hides the news of a piece or formation nobody of a side can see, and
// where a piece that comes into sight came from.
func (f *fog) narrow(e *Event) { f.narrowed(e, true) }

// narrowed is narrow; if all is false it narrows as orderly did before
// issue 32, by the pieces an event names that a side does not spot after
// it, alone: what a log replayed is held to, so that the logs of games
// made before still replay.
func (f *fog) narrowed(e *Event, all bool) {
	if e.See != All {
		return
	}
	names := f.names(e, all)
	var sees []string
	for _, sd := range f.sc.Sides {
		ok := true
		for _, id := range names {
			// A contact is how a piece comes into sight: it says where the
			// piece stands, not where it came from.
			if f.hidden(sd.ID, id) && !f.gone[sd.ID][id] || all && f.came[sd.ID][id] && e.Type != Contacted {
				ok = false
				break
			}
		}
		if ok {
			sees = append(sees, sd.ID)
		}
	}
	switch len(sees) {
	case len(f.sc.Sides):
	case 1:
		e.See = sees[0]
	default:
		e.See = Umpire
	}
}

// names lists the marks an event names: the pieces it moves, the
// subjects of its rolls, and every text in its payload that is a mark's id.
func (f *fog) names(e *Event, all bool) []string {
	var out []string
	add := func(id string) {
		if slices.Contains(out, id) {
			return
		}
		if _, ok := f.find(id); ok {
			out = append(out, id)
		} else if !all {
			return
		} else if _, ok := f.left(id); ok {
			out = append(out, id)
		} else if fm := f.sc.Formation(id); fm != nil && fm.Kind != battle.Army {
			out = append(out, id)
		}
	}
	for _, m := range e.Moves {
		add(m.ID())
	}
	for _, r := range e.Rolls {
		add(r.Subject)
	}
	if n, ok := f.rules.(Namer); ok {
		for _, id := range n.Names(e) {
			add(id)
		}
	}
	if e.Data == nil {
		return out
	}
	raw, ok := e.Data.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(e.Data)
		if err != nil {
			// A payload that cannot be written names what it may: seen by
			// the umpire alone.
			return append(out, "")
		}
		raw = b
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		t, err := dec.Token()
		if err != nil {
			break
		}
		if s, ok := t.(string); ok {
			add(s)
		}
	}
	return out
}

// Under reports whether id (a formation, or a unit or general by the
// formation it belongs to or commands) is top or below it, short of the
// army.
func Under(sc *battle.Scenario, id, top string) bool {
	start := id
	if u := sc.Unit(id); u != nil {
		start = u.Division
	} else if g := sc.General(id); g != nil {
		start = g.Commands
	}
	for f := sc.Formation(start); f != nil && f.Kind != battle.Army; f = sc.Formation(f.Parent) {
		if f.ID == top {
			return true
		}
	}
	return false
}

// Fog is the game's fog mode (FogOff when played without).
func (g *Game) Fog() string {
	if g.st.fog == nil {
		return FogOff
	}
	return g.st.fog.mode
}

// Sighted counts how many times what side spots has changed (a piece come
// into sight, or lost from it): a seat whose count moves without an event
// it may see has a new view to fetch. Always 0 without fog of war.
func (g *Game) Sighted(side string) int {
	if g.st.fog == nil {
		return 0
	}
	return g.st.fog.ver[side]
}

// SeesFrom is the state as a commander's seat of side sees it, in a game
// played with strict fog of war: only the enemy pieces that pieces of his
// own formation (top, or any formation under it) spot, and no last-known
// positions. In any other mode it is Sees(side).
func (g *Game) SeesFrom(side, top string) *State {
	f := g.st.fog
	if f == nil || f.mode != FogStrict || top == "" || side == Umpire {
		return g.Sees(side)
	}
	f.top = top
	defer func() { f.top = "" }()
	v := g.rules.View(g.st, side)
	v.Fog = f.mode
	return v
}

// Hidden reports whether seat (a side, or Umpire) may not see mark id in
// s: the game is played with fog of war and id is an enemy piece (or
// messenger) none of the seat's pieces spots. A rule set's View and
// Unseen leave such a piece out, exactly as if it were not there.
func (s *State) Hidden(seat, id string) bool { return s.fog.hidden(seat, id) }

// Fogged reports whether the game is played with fog of war.
func (s *State) Fogged() bool { return s.fog != nil }

// Spotted reports whether one of the pieces of the formation top of side
// spots mark id now (strict fog: a commander's seat sees only what his
// formation spots). Own marks and anything that is not a mark are
// spotted.
func (s *State) Spotted(side, top, id string) bool {
	f := s.fog
	if f == nil {
		return true
	}
	i, ok := f.find(id)
	if !ok || !f.on[i] || f.marks[i].Side == side {
		return true
	}
	return f.seen[side][id] && f.spotted(side, i, top)
}
