package game

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	marks []sight.Mark
	at    map[string]int              // mark id -> index in marks
	off   map[string]string           // the side of each piece off the table
	seen  map[string]map[string]bool  // side -> enemy mark id -> spotted now
	last  map[string]map[string]Ghost // side -> enemy mark id -> where last spotted
	ver   map[string]int              // side -> how many times what it spots has changed
	// gone lists, by side, the enemy marks it spotted that left the field
	// with the latest event (a unit broken, a messenger arrived): the side
	// saw them go, so the event that took them is not narrowed from it.
	gone map[string]map[string]bool
	// top, while a strict view is made (Game.SeesFrom), is the formation
	// whose pieces alone spot.
	top string
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
	f := &fog{mode: mode, field: sight.On(sp.Sight(), sc), sc: sc, rules: rules,
		seen: map[string]map[string]bool{}, last: map[string]map[string]Ghost{}}
	for _, sd := range sc.Sides {
		f.seen[sd.ID], f.last[sd.ID] = map[string]bool{}, map[string]Ghost{}
	}
	return f, nil
}

// fresh is a fog of the same game with nothing seen yet.
func (f *fog) fresh() *fog {
	c := &fog{mode: f.mode, field: f.field, sc: f.sc, rules: f.rules,
		seen: map[string]map[string]bool{}, last: map[string]map[string]Ghost{}, gone: map[string]map[string]bool{}}
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
// it no longer spots.
func (f *fog) update(s *State) {
	f.marks = f.marks[:0]
	if f.off == nil {
		f.off = map[string]string{}
	}
	clear(f.off)
	for _, p := range s.Pieces {
		if p.OnTable {
			f.marks = append(f.marks, sight.Mark{ID: p.ID, Side: p.Side, Kind: kindOf(f.sc, p.ID), At: p.At})
		} else {
			f.off[p.ID] = p.Side
		}
	}
	if m, ok := f.rules.(Marker); ok {
		m.Marks(s, func(k sight.Mark) { f.marks = append(f.marks, k) })
	}
	if f.at == nil {
		f.at = map[string]int{}
	}
	clear(f.at)
	for i, m := range f.marks {
		f.at[m.ID] = i
	}
	if f.gone == nil {
		f.gone = map[string]map[string]bool{}
	}
	for side, seen := range f.seen {
		last := f.last[side]
		gone := f.gone[side]
		if gone == nil {
			gone = map[string]bool{}
			f.gone[side] = gone
		}
		clear(gone)
		for id, now := range seen {
			if _, ok := f.at[id]; !ok {
				delete(last, id) // seen to leave the field
				if now {
					gone[id] = true
				}
			}
		}
		was := len(seen)
		changed := false
		for id := range seen {
			seen[id] = false
		}
		for _, m := range f.marks {
			if m.Side == side {
				continue
			}
			if f.spotted(side, m, "") {
				if _, ok := seen[m.ID]; !ok {
					changed = true
				}
				seen[m.ID] = true
				last[m.ID] = Ghost{ID: m.ID, Side: m.Side, Kind: m.Kind, At: m.At, Turn: s.Turn}
			}
		}
		for id, now := range seen {
			if !now {
				delete(seen, id)
			}
		}
		if changed || len(seen) != was {
			if f.ver == nil {
				f.ver = map[string]int{}
			}
			f.ver[side]++
		}
	}
}

// spotted reports whether a mark of side (of formation top, if not "")
// spots m.
func (f *fog) spotted(side string, m sight.Mark, top string) bool {
	for _, o := range f.marks {
		if o.Side != side || (top != "" && !Under(f.sc, o.ID, top)) {
			continue
		}
		if f.field.Spotted(o, m) {
			return true
		}
	}
	return false
}

// hidden reports whether seat may not see mark id: an enemy's that none of
// its marks spots, or an enemy piece off the table (a reserve still to
// come). Anything else (a formation) is not hidden.
func (f *fog) hidden(seat, id string) bool {
	if f == nil || seat == Umpire {
		return false
	}
	i, ok := f.at[id]
	if !ok {
		side, off := f.off[id]
		return off && side != seat
	}
	m := f.marks[i]
	if m.Side == seat {
		return false
	}
	if f.top != "" {
		return !f.seen[seat][id] || !f.spotted(seat, m, f.top)
	}
	return !f.seen[seat][id]
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
// every enemy piece it names (after it, or right before it for a piece
// the event took off the field): fog of war hides the news of a piece
// nobody of a side can see.
func (f *fog) narrow(e *Event) {
	if e.See != All {
		return
	}
	names := f.names(e)
	var sees []string
	for _, sd := range f.sc.Sides {
		ok := true
		for _, id := range names {
			if f.hidden(sd.ID, id) && !f.gone[sd.ID][id] {
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
func (f *fog) names(e *Event) []string {
	var out []string
	add := func(id string) {
		if _, on := f.at[id]; (on || f.off[id] != "") && !slices.Contains(out, id) {
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
	i, ok := f.at[id]
	if !ok || f.marks[i].Side == side {
		return true
	}
	return f.seen[side][id] && f.spotted(side, f.marks[i], top)
}
