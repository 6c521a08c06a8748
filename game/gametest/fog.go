package gametest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/sight"
)

// Fog is the fog-of-war property test: over random games of sc played with
// fog of war, seeded 1..games, no event a side may see names an enemy piece
// (or messenger) that none of the side's pieces could spot right after it,
// and no side's view holds one, except where it was last seen. Who could
// spot what is worked out here, from the pieces' positions and the rule
// set's sight data, apart from the engine's own bookkeeping. The test fails
// if the games never hid a piece, so that it cannot pass by testing
// nothing.
func Fog(t *testing.T, rules Random, sc *battle.Scenario, games int) {
	t.Helper()
	if rules.Sight() == nil {
		t.Fatalf("rule set %s has no sight data (game.Spotter)", rules.ID())
	}
	field := sight.On(rules.Sight(), sc)
	var n fogCount
	for seed := 1; seed <= games; seed++ {
		t.Run(fmt.Sprintf("fog-%d", seed), func(t *testing.T) {
			f := newFogGame(rules, sc, field)
			g, err := game.New(sc, rules, game.Seeded(uint64(seed)), game.WithFog(game.FogOn), game.WithWatch(f.watch))
			if err != nil {
				t.Fatalf("new game: %v", err)
			}
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			for steps := 0; !g.State().Over && steps < 5000 && len(f.fails) == 0; steps++ {
				f.step(t, g, rules.Random(g, rng), &n)
			}
			if len(f.fails) > 0 {
				t.Fatal(f.fails[0])
			}
			checkReplayWith(t, g, game.WithFog(game.FogOn))
			checkViews(t, g)
			n.widened += widen(t, g)
		})
	}
	if n.hid == 0 || n.showed == 0 || n.refusals == 0 || n.widened == 0 {
		t.Fatalf("over %d games the fog hid %d and showed %d enemy pieces, refused %d sides' commands and caught %d logs shown to all; the test needs each", games, n.hid, n.showed, n.refusals, n.widened)
	}
}

// fogCount counts what Fog's games tested: enemy pieces hidden from a
// view and shown in one, refusals of a side's command, and logs shown to
// all that a replay refused.
type fogCount struct{ hid, showed, refusals, widened int }

// fogGame is what Fog works out over one game, apart from the engine.
type fogGame struct {
	rules Random
	sc    *battle.Scenario
	field *sight.Field
	fails []string
	// before is what each side did not spot after the event before.
	before map[string]map[string]bool
	// last is where each side last spotted each enemy piece, and on
	// which turn, worked out after every event; first is the turn of the
	// first event (the engine's own first look is before it, when the
	// game is made).
	last  map[string]map[string]game.Ghost
	spots map[string]map[string]bool // what each side spotted after the event before
	first int
	touch touches
}

func newFogGame(rules Random, sc *battle.Scenario, field *sight.Field) *fogGame {
	f := &fogGame{rules: rules, sc: sc, field: field, last: map[string]map[string]game.Ghost{}, spots: map[string]map[string]bool{}, first: -1, touch: touches{}}
	for _, sd := range sc.Sides {
		f.last[sd.ID], f.spots[sd.ID] = map[string]game.Ghost{}, map[string]bool{}
	}
	return f
}

// watch is called after every event: it notes where each side last
// spotted each enemy piece, and fails an event seen by a side that names
// a piece none of the side's pieces spots.
func (f *fogGame) watch(s *game.State, e *game.Event) {
	if len(f.fails) > 0 {
		return
	}
	f.touch.note(s, allMarks(f.rules, f.sc, s), e)
	hidden := unspotted(f.rules, f.sc, f.field, s, f.touch)
	on := onField(f.rules, s)
	if f.first < 0 {
		f.first = s.Turn
	}
	marks := allMarks(f.rules, f.sc, s)
	for _, side := range f.sc.Sides {
		for id := range f.spots[side.ID] {
			if !on[id] {
				delete(f.last[side.ID], id) // seen to leave the field
			}
		}
		clear(f.spots[side.ID])
		for _, m := range marks {
			if m.Side != side.ID && !hidden[side.ID][m.ID] {
				f.spots[side.ID][m.ID] = true
				f.last[side.ID][m.ID] = game.Ghost{ID: m.ID, Side: m.Side, Kind: m.Kind, At: m.At, Turn: s.Turn}
			}
		}
	}
	for _, side := range f.sc.Sides {
		if !e.Visible(side.ID) {
			continue
		}
		for _, id := range named(e) {
			// A piece the event took off the field may be named to
			// a side that spotted it right before.
			if hidden[side.ID][id] && (on[id] || f.before == nil || f.before[side.ID][id]) {
				f.fails = append(f.fails, fmt.Sprintf("event %d (%s), seen by %s, names %s, which none of its pieces spots", e.Seq, e.Type, side.ID, id))
			}
		}
	}
	f.before = hidden
}

// step gives command c and checks what follows: a side's refusal names
// no enemy piece it does not spot; after an accepted command every side's
// view holds no such piece and its last-seen pieces are where the side
// last spotted them.
func (f *fogGame) step(t *testing.T, g *game.Game, c game.Command, n *fogCount) {
	t.Helper()
	hiddenBefore := unspotted(f.rules, f.sc, f.field, g.State(), f.touch)
	if _, err := doSafely(g, c); err != nil {
		var ge *game.Error
		if !errors.As(err, &ge) {
			t.Fatalf("command %+v failed without a rejection: %v", c, err)
		}
		if c.Side != game.Umpire {
			// A side's refusal names no enemy piece it does not spot.
			for id := range hiddenBefore[c.Side] {
				if word(ge.Msg, id) && !mentions(c, id) {
					f.fails = append(f.fails, fmt.Sprintf("the refusal of %s's %s names %s, which none of its pieces spots: %q", c.Side, c.Verb, id, ge.Msg))
				}
			}
			n.refusals++
		}
		return
	}
	hidden := unspotted(f.rules, f.sc, f.field, g.State(), f.touch)
	for _, side := range f.sc.Sides {
		f.view(t, g, side.ID, hidden[side.ID], n)
	}
}

// view checks side's view of g: the pieces it last saw are where it
// last spotted them, and it holds none of hidden, the enemy pieces none
// of its pieces spots.
func (f *fogGame) view(t *testing.T, g *game.Game, side string, hidden map[string]bool, n *fogCount) {
	t.Helper()
	v := g.Sees(side)
	if v.Fog != game.FogOn {
		t.Fatalf("the view of %s says fog %q; want %q", side, v.Fog, game.FogOn)
	}
	lost := map[string]game.Ghost{}
	for _, gh := range v.Lost {
		if gh.Side == side {
			t.Fatalf("the view of %s has its own piece %s as last seen", side, gh.ID)
		}
		want, ok := f.last[side][gh.ID]
		if !ok && gh.Turn <= f.first {
			continue // last seen when the game was made, before any event
		}
		if gh != want {
			t.Fatalf("turn %d: %s last saw %s as %+v; worked out here: %+v (known %v)", g.State().Turn, side, gh.ID, gh, want, ok)
		}
		lost[gh.ID] = gh
	}
	on := onField(f.rules, g.State())
	for id, want := range f.last[side] {
		if _, ok := lost[id]; !ok && (!on[id] || hidden[id]) {
			t.Fatalf("turn %d: %s last saw %s at %v on turn %d, but its view has no such ghost", g.State().Turn, side, id, want.At, want.Turn)
		}
	}
	v.Lost = nil
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("view of %s: %v", side, err)
	}
	for id := range hidden {
		n.hid++
		if bytes.Contains(b, []byte(`"`+id+`"`)) {
			f.fails = append(f.fails, fmt.Sprintf("turn %d: the view of %s holds %s, which none of its pieces spots", g.State().Turn, side, id))
		}
	}
	for _, p := range v.Pieces {
		if p.Side != side {
			n.showed++
		}
	}
}

// widen shows events of g's log that the fog narrowed to one side to
// every side instead, one at a time, as a forged export would: the replay
// under fog must refuse each such log whose event names a piece the other
// side does not spot. It returns how many it refused (trying at most 40).
func widen(t *testing.T, g *game.Game) int {
	t.Helper()
	log := g.Log()
	caught, tried := 0, 0
	for i := range log {
		if log[i].See == game.All || log[i].See == game.Umpire || tried == 40 {
			continue
		}
		tried++
		forged := slices.Clone(log)
		forged[i].See = game.All
		if _, err := game.Replay(g.Scenario(), g.Rules(), forged, game.WithFog(game.FogOn)); err != nil {
			if !strings.Contains(err.Error(), "under fog") {
				t.Fatalf("event %d shown to all: the replay fails with %v; want the fog named", log[i].Seq, err)
			}
			caught++
		}
	}
	return caught
}

// word reports whether id stands in msg as a word of its own (not inside
// a longer id).
func word(msg, id string) bool {
	isID := func(c byte) bool {
		return c == '-' || c == '_' || c == ':' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(msg[i:], id)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(id)
		if (j == 0 || !isID(msg[j-1])) && (end == len(msg) || !isID(msg[end])) {
			return true
		}
		i = j + 1
	}
}

// mentions reports whether the command itself names id: a refusal may
// quote what it was given.
func mentions(c game.Command, id string) bool {
	b, err := json.Marshal(c.Args)
	return err == nil && word(string(b), id)
}

// touches are the contacts (game.Contacted) that hold, kept here apart
// from the engine's fog: by side, for each enemy piece, the side's pieces
// by that touched it, standing at from, where it stood, at (one contact a
// pair). A side spots that piece while one of them holds.
type touches map[string]map[string][]touched

type touched struct {
	by       string
	from, at geom.Point
}

// note keeps the contact e records, if it is one, and forgets those that
// no longer hold in s (a piece or mark moved, or left the field); marks
// are the marks on the field in s.
func (t touches) note(s *game.State, marks []sight.Mark, e *game.Event) {
	at := func(id string) (sight.Mark, bool) {
		i := slices.IndexFunc(marks, func(m sight.Mark) bool { return m.ID == id })
		if i < 0 {
			return sight.Mark{}, false
		}
		return marks[i], true
	}
	if d, ok := e.Data.(*game.Contact); ok && e.Type == game.Contacted {
		a, okA := at(d.Piece)
		b, okB := at(d.Met)
		if okA && okB && a.Side != b.Side {
			for _, pr := range [2][2]sight.Mark{{a, b}, {b, a}} {
				if t[pr[0].Side] == nil {
					t[pr[0].Side] = map[string][]touched{}
				}
				cs := slices.DeleteFunc(t[pr[0].Side][pr[1].ID], func(c touched) bool { return c.by == pr[0].ID })
				t[pr[0].Side][pr[1].ID] = append(cs, touched{by: pr[0].ID, from: pr[0].At, at: pr[1].At})
			}
		}
	}
	for _, m := range t {
		for id, cs := range m {
			cs = slices.DeleteFunc(cs, func(c touched) bool {
				by, okBy := at(c.by)
				met, okMet := at(id)
				return !okBy || !okMet || by.At != c.from || met.At != c.at
			})
			if len(cs) == 0 {
				delete(m, id)
			} else {
				m[id] = cs
			}
		}
	}
}

// unspotted is, by side, the enemy pieces and marks on the field that none
// of the side's own could spot in s (nor is in contact with, touch), and
// the enemy pieces off the field.
func unspotted(rules game.Rules, sc *battle.Scenario, field *sight.Field, s *game.State, touch touches) map[string]map[string]bool {
	marks := allMarks(rules, sc, s)
	out := map[string]map[string]bool{}
	for _, sd := range sc.Sides {
		out[sd.ID] = map[string]bool{}
	}
	for _, p := range s.Pieces {
		if p.OnTable {
			continue
		}
		for side := range out {
			if side != p.Side {
				out[side][p.ID] = true
			}
		}
	}
	for _, m := range marks {
		for side := range out {
			if side == m.Side {
				continue
			}
			if _, held := touch[side][m.ID]; !held && !Spots(field, marks, side, m.ID) {
				out[side][m.ID] = true
			}
		}
	}
	return out
}

// onField lists the pieces on the field in s and the rule set's marks.
func onField(rules game.Rules, s *game.State) map[string]bool {
	out := map[string]bool{}
	for _, p := range s.Pieces {
		if p.OnTable {
			out[p.ID] = true
		}
	}
	if m, ok := rules.(game.Marker); ok {
		m.Marks(s, func(k sight.Mark) { out[k.ID] = true })
	}
	return out
}

// named lists every text an event holds: the ids of the pieces it moves,
// its rolls' subjects and every string in its payload.
func named(e *game.Event) []string {
	var out []string
	for _, m := range e.Moves {
		out = append(out, m.ID())
	}
	for _, r := range e.Rolls {
		out = append(out, r.Subject)
	}
	b, err := json.Marshal(e.Data)
	if err != nil {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		if s, ok := tok.(string); ok {
			out = append(out, s)
		}
	}
}

// allMarks are the marks on the field in s: the pieces' and the rule
// set's own (game.Marker).
func allMarks(rules game.Rules, sc *battle.Scenario, s *game.State) []sight.Mark {
	marks := PieceMarks(sc, s)
	if m, ok := rules.(game.Marker); ok {
		m.Marks(s, func(k sight.Mark) { marks = append(marks, k) })
	}
	return marks
}
