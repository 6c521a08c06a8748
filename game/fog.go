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

// Spotter is a rule set's spotting data for fog of war (ranges, cover,
// what blocks a line of sight); nil for one that cannot be played with fog
// of war.
type Spotter interface {
	Sight() *sight.Rules
}

// Marker is a Spotter that keeps things on the field beside the pieces
// that may be seen (NB's messengers): Marks calls add for each. Optional:
// a rule set whose only things on the field are its pieces has none.
type Marker interface {
	Marks(s *State, add func(sight.Mark))
}

// Namer is a Marker whose events name marks otherwise than by their ids
// (an NES headquarters' move names its side): Names lists the marks e
// names, so that the fog of war narrows it as it does an event naming a
// piece. Optional, as Marker is.
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

// Tracker is a rule set that says what each event changes on the field
// beside its moves, so that after an event the fog of war looks again at
// those pieces and marks alone (and at the enemies near them), not at
// everything. Without it every piece is compared with where it stood
// after every event, and the rule set's marks are all made again.
// Optional: it makes the fog faster, not different.
type Tracker interface {
	// Touched calls piece with the index in s.Pieces of each piece that
	// e's fold (Apply, and a new turn's) may have moved, put on the field
	// or taken off it, other than those of e.Moves, which the engine
	// moves itself; and, for a Marker, mark with the id of each of its
	// marks e may have put on the field, moved, changed or taken off. s
	// is the state after e. Naming one that did not change costs a
	// comparison; leaving one out leaves the fog wrong (gametest.Tracked
	// checks a rule set's Touched over random games). A piece that
	// joined the game (State.AddPiece) need not be named.
	Touched(s *State, e *Event, piece func(i int), mark func(id string))
	// Mark is the rule set's mark id as it stands in s (as Marks gives
	// it), and whether it is on the field; a rule set without marks
	// never has one.
	Mark(s *State, id string) (sight.Mark, bool)
}

// fog is what each side sees of the other, kept after every event of a
// game played with fog of war.
//
// Everything that may see or be seen is a mark in a slot: each piece
// (on the field or not) and each of the rule set's marks on the field
// (Marker), which leave their slot to be used again once they leave the
// field. The marks on the field are filed by side in a grid. A side
// spots an enemy mark while one of its own spots it; for each enemy mark
// it spots, the fog keeps one of its marks that does (the witness). After
// an event only the marks that changed are looked at again (see after),
// with the enemy marks their own witnessed from where they stood and the
// ones they may spot where they stand now.
//
// Whether a side spots a mark is worked out in one place (spotter, for a
// mark listed for a look in lookFrom), and every change of it passes
// through see: another way of spotting belongs in spotter, with what
// lists the marks it concerns for a look, and anything kept per spotted
// mark (how many of a formation's pieces a side spots) belongs in see.
type fog struct {
	mode  string
	field *sight.Field
	sc    *battle.Scenario
	rules Rules
	track Tracker // the rule set, if it is a Tracker
	// top, while a strict view is made (Game.SeesFrom), is the formation
	// whose pieces alone spot.
	top string

	// sides are the sides that spot, in the scenario's order; side gives
	// the index of each side a mark has (one that is not a scenario's,
	// which no sound rule set makes, comes after them and spots nothing).
	sides []string
	side  map[string]int
	far   float64 // the farthest any mark sees
	cell  float64 // the side of a grid's cells
	space geom.Rect

	st    *State // the state looked at
	slots []slot
	pslot []int32          // the slot of each piece, by its index in the state
	extra map[string]int32 // the slot of each of the rule set's marks
	free  []int32          // slots of the rule set's marks, free to use again
	grids []*grid          // by side: its marks on the field

	// by[side][slot] is 1 + the slot of a mark of side that spots the
	// enemy mark in slot (its witness), or 0 if none does.
	by   [][]int32
	last []map[string]Ghost // by side: enemy mark id -> where last spotted
	ver  []int              // by side: how many times what it spots has changed
	// gone lists, by side, the enemy marks it spotted that left the field
	// with the latest event (a unit broken, a messenger arrived): the side
	// saw them go, so the event that took them is not narrowed from it.
	gone [][]string
	// came lists, by side, the enemy marks that came into its sight with
	// the latest event: the event that brought them (a move from where
	// the side did not see them) is not shown to it, lest it tell where
	// they came from; the side finds them in its view.
	came [][]string
	// left is, by id, the side of each of the rule set's marks that left
	// the field with the latest event (their slots are free again): an
	// event naming one is narrowed as one naming a hidden mark is, but
	// from the sides that saw it go.
	left map[string]string
	turn int // the turn of the last update

	// touch holds, by side, the enemy pieces a piece of the side is in
	// contact with (Contacted): spotted while both stand still. again
	// lists the slots of the latest contacts' marks, looked at again at
	// the next update.
	touch map[string]map[string][]touch
	again []int32
	// forms lists, by formation, the indices in the state of the pieces
	// under it as the scenario has them (units of its divisions, generals
	// of its formations), for narrowing an event that names a formation.
	forms map[string][]int

	// Scratch for an update: round numbers it; changes lists the slots
	// that changed in it, as they stood before; looks lists the enemy
	// marks a side looks at again; onPiece and onMark are what a Tracker
	// calls.
	round   uint64
	changes []change
	looks   []int32
	listed  []uint64 // listed[slot] == round: Marks gave it this round
	onPiece func(i int)
	onMark  func(id string)
	// Scratch for names: nameRound numbers its calls, named is its list;
	// texter finds a payload's texts into words, or else it is written to
	// buf by enc.
	nameRound uint64
	named     []string
	unwritten bool // the payload named could not be written
	texter    texter
	words     []string
	buf       bytes.Buffer
	enc       *json.Encoder
}

// slot is a mark in the fog, as the last update left it.
type slot struct {
	sight.Mark
	on    bool    // on the field
	side  int     // the index of Mark.Side in fog.side
	reach float64 // how far it sees
	// stamp == fog.round: it changed in this round, and changes[chg]
	// holds how it stood before. look == fog.round: it is listed for the
	// look of the side looking now.
	stamp uint64
	chg   int32
	look  uint64
	name  uint64 // == fog.nameRound: names has listed it
}

// change is a slot that changed in an update, and how it stood before.
type change struct {
	k       int32
	was     sight.Mark
	wasOn   bool
	wasSide int
}

func newFog(mode string, sc *battle.Scenario, rules Rules) (*fog, error) {
	if err := CheckFog(mode); err != nil {
		return nil, err
	}
	if mode == "" || mode == FogOff {
		return nil, nil
	}
	sp := rules
	if sp.Sight() == nil {
		return nil, fmt.Errorf("rule set %s cannot be played with fog of war", rules.ID())
	}
	far := max(sp.Sight().Farthest(), 0)
	f := &fog{mode: mode, field: sight.On(sp.Sight(), sc), sc: sc, rules: rules, far: far,
		cell: (far + 1) / 2, space: sc.Space().Bounds()}
	f.track, _ = rules.(Tracker)
	f.init()
	return f, nil
}

// init makes the fog's maps and per side lists, with nothing seen.
func (f *fog) init() {
	f.side, f.extra = map[string]int{}, map[string]int32{}
	for _, sd := range f.sc.Sides {
		f.sideOf(sd.ID)
		f.sides = append(f.sides, sd.ID)
		f.last = append(f.last, map[string]Ghost{})
	}
	f.by = make([][]int32, len(f.sides))
	f.ver = make([]int, len(f.sides))
	f.gone = make([][]string, len(f.sides))
	f.came = make([][]string, len(f.sides))
	f.left = map[string]string{}
	f.forms = formsOf(f.sc)
	f.onPiece = func(i int) { f.pieceAt(f.st, i) }
	f.onMark = func(id string) {
		if m, ok := f.track.Mark(f.st, id); ok {
			f.put(m)
		} else if k, ok := f.extra[id]; ok {
			f.set(k, f.slots[k].Mark, false)
		}
	}
}

// fresh is a fog of the same game with nothing seen yet.
func (f *fog) fresh() *fog {
	c := &fog{mode: f.mode, field: f.field, sc: f.sc, rules: f.rules, track: f.track, far: f.far,
		cell: f.cell, space: f.space}
	c.init()
	return c
}

// kindOf is what a piece is for sight: its unit type, or general.
func kindOf(sc *battle.Scenario, id string) string {
	if u := sc.Unit(id); u != nil {
		return u.Type
	}
	return "general"
}

// sideOf is the index of side, which gets a grid the first time.
func (f *fog) sideOf(side string) int {
	if i, ok := f.side[side]; ok {
		return i
	}
	i := len(f.grids)
	f.side[side] = i
	f.grids = append(f.grids, newGrid(f.space, f.cell))
	return i
}

// spotting is the index of side if it is one that spots.
func (f *fog) spotting(side string) (int, bool) {
	i, ok := f.side[side]
	return i, ok && i < len(f.sides)
}

// update is the first look at s, when the game is made: every mark is
// filed and every side looks at every enemy mark.
func (f *fog) update(s *State) {
	f.begin(s)
	for i := range s.Pieces {
		f.pieceAt(s, i)
	}
	if m, ok := f.rules.(Marker); ok {
		m.Marks(s, func(k sight.Mark) { f.put(k) })
	}
	f.look(s, true)
}

// after works out what each side spots after event e, and where it last
// saw what it no longer spots. Whether a side spots a mark changes only
// if the mark changed (moved, came onto the field, left it), or one of
// the side's own that spotted it or may spot it now did: only those are
// looked at again, unless so many changed that looking at everything is
// as quick. What changed is e's moves and what the rule set says it
// touched (Tracker); for a rule set that does not say, every piece and
// mark is compared.
func (f *fog) after(s *State, e *Event) {
	f.begin(s)
	for _, k := range f.again {
		// The marks of a contact: looked at again where they stand.
		if int(k) < len(f.slots) {
			f.changed(k)
		}
	}
	f.again = f.again[:0]
	if f.track == nil {
		for i := range s.Pieces {
			f.pieceAt(s, i)
		}
		if m, ok := f.rules.(Marker); ok {
			m.Marks(s, func(k sight.Mark) {
				f.listed[f.put(k)] = f.round
			})
			for _, k := range f.extra {
				if f.listed[k] != f.round {
					f.set(k, f.slots[k].Mark, false)
				}
			}
		}
	} else {
		for _, m := range e.Moves {
			if i, ok := moveIndex(s, m); ok {
				f.pieceAt(s, i)
			}
		}
		f.track.Touched(s, e, f.onPiece, f.onMark)
		for i := len(f.pslot); i < len(s.Pieces); i++ {
			f.pieceAt(s, i)
		}
	}
	f.look(s, 8*len(f.changes) > len(f.slots)-len(f.free))
}

// moveIndex is the index in s.Pieces of the piece m moves.
func moveIndex(s *State, m Move) (int, bool) {
	if s == nil {
		return 0, false
	}
	id := m.ID()
	if k := m.Piece - 1; k >= 0 && k < len(s.Pieces) && s.Pieces[k].ID == id {
		return k, true
	}
	i, ok := s.piece[id]
	return i, ok
}

// begin starts a round of looking at s.
func (f *fog) begin(s *State) {
	f.round++
	f.st = s
	f.changes = f.changes[:0]
	clear(f.left)
}

// pieceAt brings the slot of piece i of s up to date, making the slots of
// the pieces up to it that have none yet.
func (f *fog) pieceAt(s *State, i int) {
	if i < 0 || i >= len(s.Pieces) {
		return // not a piece: nothing of it to look at
	}
	for len(f.pslot) <= i {
		p := s.Pieces[len(f.pslot)]
		k := f.alloc(sight.Mark{ID: p.ID, Side: p.Side, Kind: kindOf(f.sc, p.ID)})
		f.pslot = append(f.pslot, k)
	}
	p := s.Pieces[i]
	k := f.pslot[i]
	m := f.slots[k].Mark
	m.At = p.At
	f.set(k, m, p.OnTable)
}

// put brings the rule set's mark m up to date (on the field), giving it
// a slot if it has none, and returns its slot.
func (f *fog) put(m sight.Mark) int32 {
	k, ok := f.extra[m.ID]
	if !ok {
		k = f.alloc(sight.Mark{ID: m.ID, Side: m.Side, Kind: m.Kind})
		f.extra[m.ID] = k
	}
	f.set(k, m, true)
	return k
}

// alloc is a slot for a new mark, off the field until set puts it on.
func (f *fog) alloc(m sight.Mark) int32 {
	var k int32
	if n := len(f.free); n > 0 {
		k, f.free = f.free[n-1], f.free[:n-1]
	} else {
		k = int32(len(f.slots))
		f.slots = append(f.slots, slot{})
		f.listed = append(f.listed, 0)
	}
	f.slots[k] = slot{Mark: m, side: f.sideOf(m.Side), reach: f.field.Rules().Sees(m.Kind)}
	f.changed(k)
	return k
}

// changed notes, once a round, how slot k stood before the round.
func (f *fog) changed(k int32) {
	sl := &f.slots[k]
	if sl.stamp == f.round {
		return
	}
	sl.stamp, sl.chg = f.round, int32(len(f.changes))
	f.changes = append(f.changes, change{k: k, was: sl.Mark, wasOn: sl.on, wasSide: sl.side})
}

// set puts slot k at m, on the field or not, refiling it if it moved.
func (f *fog) set(k int32, m sight.Mark, on bool) {
	sl := &f.slots[k]
	if sl.on == on && sl.Mark == m {
		return
	}
	f.changed(k)
	if sl.on {
		f.grids[sl.side].remove(k, sl.At)
	}
	if m.Side != sl.Side {
		sl.side = f.sideOf(m.Side)
	}
	if m.Kind != sl.Kind {
		sl.reach = f.field.Rules().Sees(m.Kind)
	}
	sl.Mark, sl.on = m, on
	if on {
		f.grids[sl.side].add(k, m.At)
	}
}

// look has each side look again at what changed in this round (at every
// enemy mark, if all), and ends the round.
func (f *fog) look(s *State, all bool) {
	for si := range f.sides {
		if f.lookFrom(si, all) {
			f.ver[si]++
		}
	}
	// The rule set's marks that left the field free their slots.
	for _, c := range f.changes {
		sl := &f.slots[c.k]
		if k, ok := f.extra[sl.ID]; ok && k == c.k && !sl.on {
			f.left[sl.ID] = sl.Side
			delete(f.extra, sl.ID)
			*sl = slot{}
			f.free = append(f.free, c.k)
		}
	}
	f.changes = f.changes[:0]
	f.turn = s.Turn
}

// lookFrom has side si look again at what changed in this round (at every
// enemy mark, if all), and reports whether what it spots changed.
func (f *fog) lookFrom(si int, all bool) bool {
	if n := len(f.slots); len(f.by[si]) < n {
		f.by[si] = append(f.by[si], make([]int32, n-len(f.by[si]))...)
	}
	last := f.last[si]
	f.gone[si] = f.gone[si][:0]
	f.came[si] = f.came[si][:0]
	f.looks = f.looks[:0]
	changed := false
	// The enemy marks that changed first, so that those the side's own
	// bring into sight are known to be looked at.
	for _, c := range f.changes {
		sl := &f.slots[c.k]
		switch {
		case sl.side == si:
			f.see(si, c.k, -1) // its own, not an enemy it spots (no rule set changes a mark's side)
		case !sl.on:
			if f.see(si, c.k, -1) {
				// Seen to leave the field.
				delete(last, sl.ID)
				f.gone[si] = append(f.gone[si], sl.ID)
				changed = true
			}
		default:
			f.list(c.k)
		}
	}
	if all {
		for k := range f.slots {
			if sl := &f.slots[k]; sl.on && sl.side != si {
				f.list(int32(k))
			}
		}
	} else {
		for _, c := range f.changes {
			if (c.wasSide == si || f.slots[c.k].side == si) && f.moved(si, c) {
				changed = true
			}
		}
	}
	for _, k := range f.looks {
		f.slots[k].look = 0
		w := f.spotter(si, k, "")
		if !f.see(si, k, w) {
			continue
		}
		changed = true
		if w < 0 {
			// Lost from sight: last seen where it stood at the last
			// update, on that update's turn.
			sl := &f.slots[k]
			o := sl.Mark
			if sl.stamp == f.round {
				o = f.changes[sl.chg].was
			}
			last[o.ID] = Ghost{ID: o.ID, Side: o.Side, Kind: o.Kind, At: o.At, Turn: f.turn}
		}
	}
	return changed
}

// list lists enemy mark k for a look this round.
func (f *fog) list(k int32) {
	if sl := &f.slots[k]; sl.look != f.round {
		sl.look = f.round
		f.looks = append(f.looks, k)
	}
}

// moved is what a change of side si's own mark does to what si spots: the
// enemy marks it witnessed from where it stood are listed for a look
// (some other mark may still spot them), and the enemy marks not listed
// that the side did not spot and this mark spots where it stands now are
// spotted; it reports whether there were any. No other enemy mark that did
// not change can have come into sight or left it.
func (f *fog) moved(si int, c change) bool {
	by := f.by[si]
	if r := f.field.Rules().Sees(c.was.Kind); c.wasOn && c.wasSide == si && r > 0 {
		f.enemies(si, c.was.At, r+1, func(j int32) bool {
			if by[j] == c.k+1 {
				f.list(j)
			}
			return true
		})
	}
	sl := &f.slots[c.k]
	if !sl.on || sl.side != si || sl.reach <= 0 {
		return false
	}
	came := false
	f.enemies(si, sl.At, sl.reach+1, func(j int32) bool {
		if by[j] == 0 && f.slots[j].look != f.round && f.sees(c.k, j) {
			came = f.see(si, j, c.k) || came
		}
		return true
	})
	return came
}

// see notes that side si spots enemy mark k, witnessed by w, or that it
// does not (w < 0), and reports whether that changed whether si spots k.
// Every change of what a side spots passes here.
func (f *fog) see(si int, k, w int32) bool {
	by := f.by[si]
	was := by[k] != 0
	by[k] = w + 1
	if !was && w >= 0 && f.slots[k].side != si {
		f.came[si] = append(f.came[si], f.slots[k].ID)
	}
	return was != (w >= 0)
}

// enemies calls fn for each mark of a side other than si filed near p
// (within r in x and y), until fn says stop.
func (f *fog) enemies(si int, p geom.Point, r float64, fn func(j int32) bool) {
	for sj, g := range f.grids {
		if sj != si {
			g.near(p, r, fn)
		}
	}
}

// sees reports whether mark k spots mark j.
func (f *fog) sees(k, j int32) bool {
	o, m := &f.slots[k], &f.slots[j]
	// Farther in x or y than one more than it sees is too far in either
	// space (a hex's column or row changes by at most one a step): left
	// out before the field's look.
	if r := o.reach; !o.on || r <= 0 || math.Abs(o.At.X-m.At.X) > r+1 || math.Abs(o.At.Y-m.At.Y) > r+1 {
		return false
	}
	return f.field.Spotted(o.Mark, m.Mark)
}

// spotter is the slot of a mark of side si (of formation top, if not "")
// that spots the mark in slot j, or -1 if none does: a piece of si in
// contact with it (Contacted), its witness if that still spots it, or
// else the first found near it.
func (f *fog) spotter(si int, j int32, top string) int32 {
	if f.touch != nil {
		if w := f.touched(si, j, top); w >= 0 {
			return w
		}
	}
	if top == "" && int(j) < len(f.by[si]) {
		if w := f.by[si][j] - 1; w >= 0 && f.slots[w].side == si && f.sees(w, j) {
			return w
		}
	}
	found := int32(-1)
	f.grids[si].near(f.slots[j].At, f.far+1, func(k int32) bool {
		if top != "" && !Under(f.sc, f.slots[k].ID, top) {
			return true
		}
		if f.sees(k, j) {
			found = k
			return false
		}
		return true
	})
	return found
}

// find is the slot of the mark or piece id, if it is one.
func (f *fog) find(id string) (int32, bool) {
	if f.st == nil {
		return 0, false
	}
	if i, ok := f.st.piece[id]; ok && i < len(f.pslot) {
		return f.pslot[i], true
	}
	k, ok := f.extra[id]
	return k, ok
}

// hidden reports whether seat may not see mark id: an enemy's that none of
// its marks spots, or an enemy piece off the table (a reserve still to
// come), or one of the enemy's marks that left the field with the latest
// event; or an enemy formation none of whose pieces it spots (short of
// his army). Anything else is not hidden.
func (f *fog) hidden(seat, id string) bool {
	if f == nil || seat == Umpire {
		return false
	}
	k, ok := f.find(id)
	if !ok {
		if side, ok := f.left[id]; ok {
			return side != seat
		}
		return f.hiddenFormation(seat, id)
	}
	m := &f.slots[k]
	if !m.on {
		return m.Side != seat
	}
	if m.Side == seat {
		return false
	}
	if !f.seen(seat, k) {
		return true
	}
	return f.top != "" && f.spotter(f.side[seat], k, f.top) < 0
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
	si, ok := f.spotting(seat)
	if !ok || f.st == nil {
		return true
	}
	seen := func(i int) bool {
		if i >= len(f.pslot) {
			return false
		}
		sl := &f.slots[f.pslot[i]]
		return slices.Contains(f.gone[si], sl.ID) || sl.on && !f.hidden(seat, sl.ID)
	}
	for _, i := range f.forms[id] {
		if seen(i) {
			return false
		}
	}
	for i := len(f.sc.Generals()) + len(f.sc.Units()); i < len(f.st.Pieces); i++ {
		// A piece that joined the game (a replacement general).
		if Under(f.sc, f.st.Pieces[i].ID, id) && seen(i) {
			return false
		}
	}
	return true
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

// seen reports whether side spots the enemy mark in slot k (as the last
// update left it).
func (f *fog) seen(side string, k int32) bool {
	si, ok := f.spotting(side)
	return ok && int(k) < len(f.by[si]) && f.by[si][k] != 0
}

// ghosts lists, by id, where seat last saw the enemy pieces it no longer
// spots.
func (f *fog) ghosts(seat string) []Ghost {
	if f == nil || seat == Umpire {
		return nil
	}
	si, ok := f.spotting(seat)
	if !ok {
		return nil
	}
	var out []Ghost
	for id, g := range f.last[si] {
		if k, ok := f.find(id); !ok || !f.slots[k].on || !f.seen(seat, k) {
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
// where a piece that comes into sight came from. A contact is how a piece
// comes into sight: it says where the piece stands, not where it came
// from, and is shown to the sides that spot both its pieces.
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
	if f.unwritten {
		e.See = Umpire
		return
	}
	var sees []string
	for si, sd := range f.sc.Sides {
		ok := true
		for _, id := range names {
			if f.hidden(sd.ID, id) && !slices.Contains(f.gone[si], id) ||
				all && e.Type != Contacted && slices.Contains(f.came[si], id) {
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
// subjects of its rolls, and every text in its payload that is a mark's id;
// if all, also each text that is the id of a formation short of an army,
// or of one of the rule set's marks that left the field with the event.
// The list is the fog's scratch, good until the next call.
func (f *fog) names(e *Event, all bool) []string {
	f.nameRound++
	f.unwritten = false
	out := f.named[:0]
	add := func(id string) {
		if k, ok := f.find(id); ok {
			if f.slots[k].name != f.nameRound {
				f.slots[k].name = f.nameRound
				out = append(out, f.slots[k].ID)
			}
			return
		}
		if !all || slices.Contains(out, id) {
			return
		}
		if _, ok := f.left[id]; ok {
			out = append(out, id)
		} else if fm := f.sc.Formation(id); fm != nil && fm.Kind != battle.Army {
			out = append(out, id)
		}
	}
	defer func() { f.named = out }()
	for _, m := range e.Moves {
		if i, ok := moveIndex(f.st, m); ok && i < len(f.pslot) {
			if sl := &f.slots[f.pslot[i]]; sl.name != f.nameRound {
				sl.name = f.nameRound
				out = append(out, sl.ID)
			}
		}
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
		if f.words, ok = f.texter.texts(e.Data, f.words[:0]); ok {
			for _, w := range f.words {
				add(w)
			}
			return out
		}
		f.buf.Reset()
		if f.enc == nil {
			f.enc = json.NewEncoder(&f.buf)
		}
		if err := f.enc.Encode(e.Data); err != nil {
			// A payload that cannot be written names what it may: seen by
			// the umpire alone (narrowed).
			f.unwritten = true
			return out
		}
		raw = f.buf.Bytes()
	}
	texts(raw, func(b []byte) { add(string(b)) })
	return out
}

// texts calls fn with each text (string) in the JSON value b, keys and
// values alike, unescaped; it stops at the end of b or at a text that is
// not closed. Outside its texts JSON has no quotes, so each quote that is
// not in a text opens one.
func texts(b []byte, fn func([]byte)) {
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		j, esc := i+1, false
		for ; j < len(b) && b[j] != '"'; j++ {
			if b[j] == '\\' {
				esc = true
				j++
			}
		}
		if j >= len(b) {
			return
		}
		if !esc {
			fn(b[i+1 : j])
		} else {
			var u string
			if json.Unmarshal(b[i:j+1], &u) == nil {
				fn([]byte(u))
			}
		}
		i = j
	}
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
	f := g.st.fog
	if f == nil {
		return 0
	}
	if si, ok := f.spotting(side); ok {
		return f.ver[si]
	}
	return 0
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
	k, ok := f.find(id)
	if !ok || !f.slots[k].on || f.slots[k].Side == side {
		return true
	}
	return f.seen(side, k) && f.spotter(f.side[side], k, top) >= 0
}
