package nb_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/rules/nb"
	"orderly/sight"
)

// TestFogBigField: on a field many times wider than anything sees, what
// the engine says each side spots (it looks only near each piece) is what
// every piece of the side looking at every enemy finds, after each of a
// run of the umpire's placements that scatter pieces over the field and
// off its edges of the index's cells.
func TestFogBigField(t *testing.T) {
	r := engine(t)
	sc, err := gametest.Army{Rules: "nb", Nations: [2]string{"french", "british"}, Quality: "average",
		Units: 1200, Divisions: 60, Corps: 4, Range: 8}.Build()
	if err != nil {
		t.Fatal(err)
	}
	if far := r.Sight().Farthest(); sc.Field.Width < 3*far || sc.Field.Depth < 3*far {
		t.Fatalf("the field (%v by %v) is not much wider than the farthest sight (%v)", sc.Field.Width, sc.Field.Depth, far)
	}
	g, err := game.New(sc, r, game.Seeded(1), game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	field := sight.On(r.Sight(), sc)
	rng := rand.New(rand.NewPCG(1, 2))
	seen, hidden := 0, 0
	for n := range 12 {
		if n > 0 {
			var units []string
			for _, p := range g.State().Pieces {
				if p.OnTable && sc.Unit(p.ID) != nil {
					units = append(units, p.ID)
				}
			}
			id := units[rng.IntN(len(units))]
			// Anywhere on the table, often at a whole multiple of the
			// farthest sight, where two cells meet.
			to := geom.Pt(rng.Float64()*sc.Field.Width, rng.Float64()*sc.Field.Depth)
			if n%2 == 0 {
				far := r.Sight().Farthest() + 1
				to = geom.Pt(far*float64(1+rng.IntN(int(sc.Field.Width/far))), far*float64(1+rng.IntN(int(sc.Field.Depth/far))))
				to = geom.Pt(min(to.X, sc.Field.Width), min(to.Y, sc.Field.Depth))
			}
			if _, err := g.Do(game.Command{Side: game.Umpire, Verb: game.Place, Args: &game.Placement{Piece: id, To: to, Why: "scatter"}}); err != nil {
				t.Fatal(err)
			}
		}
		s := g.State()
		marks := gametest.PieceMarks(sc, s)
		for _, side := range sc.Sides {
			for _, m := range marks {
				if m.Side == side.ID {
					continue
				}
				want := gametest.Spots(field, marks, side.ID, m.ID)
				if got := !s.Hidden(side.ID, m.ID); got != want {
					t.Fatalf("after %d placements %s spots %s at %v: the engine says %v, every piece looking says %v", n, side.ID, m.ID, m.At, got, want)
				}
				if want {
					seen++
				} else {
					hidden++
				}
			}
		}
	}
	if seen == 0 || hidden == 0 {
		t.Fatalf("%d enemies seen and %d hidden; the test needs both", seen, hidden)
	}
}

// hiddenByWood is a scenario for NB under fog of war: the French I-1
// stands in the open at (30, 20) (and I-2 far to the east); the British
// B-1 stands 2" inside a heavy wood, B-1-a 11" from I-1-a and B-1-b, light
// cavalry, beside it, and B-1-c far off in the open; the British C-1 is
// far from everything. From the wood's edge the British see out; the
// French see into heavy woods from 4" at most.
const hiddenByWood = `
name: hidden-by-wood
rules: nb
turns: 6
field:
  width: 72
  depth: 48
  features:
    - {id: wood, type: heavy-woods, area: [[20, 29], [40, 29], [40, 40], [20, 40]]}
speeds: {infantry: 6, light-cavalry: 12, heavy-cavalry: 10, artillery: 6}
sides:
  - id: french
    nation: french
    edge: north
    army: {id: napoleon, quality: excellent, range: 12, at: [30, 4]}
    corps:
      - id: I
        general: {id: derlon, quality: average, range: 8, at: [30, 14]}
        order: defend
        divisions:
          - id: I-1
            general: {id: quiot, quality: average, range: 4, at: [30, 18]}
            units:
              - {id: I-1-a, type: infantry, formation: line, at: [30, 20]}
          - id: I-2
            general: {id: donzelot, quality: average, range: 4, at: [66, 18]}
            units:
              - {id: I-2-a, type: infantry, formation: line, at: [66, 20]}
  - id: british
    nation: british
    edge: south
    army: {id: wellington, quality: excellent, range: 16, at: [6, 46]}
    corps:
      - id: B
        general: {id: hill, quality: good, range: 8, at: [6, 44]}
        order: defend
        divisions:
          - id: B-1
            general: {id: clinton, quality: good, range: 40, at: [8, 44]}
            units:
              - {id: B-1-a, type: infantry, formation: line, at: [30, 31]}
              - {id: B-1-b, type: light-cavalry, formation: column, at: [33, 31]}
              - {id: B-1-c, type: infantry, formation: line, at: [56, 2]}
      - id: C
        general: {id: picton, quality: good, range: 8, at: [70, 46]}
        order: defend
        divisions:
          - id: C-1
            general: {id: kempt, quality: good, range: 4, at: [70, 45]}
            units:
              - {id: C-1-a, type: infantry, formation: line, at: [70, 44]}
`

// TestEngagedOnlyWithWhatItSpots checks NB-6 under fog of war (the reading
// in SPEC): B-1, hidden in the wood 11" from I-1, spots I-1-a and is
// engaged with I-1; I-1 does not spot it and is not engaged. The French
// are told nothing of B-1's engagement, in their log or their view (B-1 is
// in it, by B-1-c in the open), nor, with strict fog, is the seat of the
// British corps C, which does not spot I-1; and B-1's reaction and its
// combat with I-1 are the British's news. Without fog both are engaged,
// and everyone is told.
func TestEngagedOnlyWithWhatItSpots(t *testing.T) {
	r := engine(t)
	sc := gametest.Read(t, r, "hidden-by-wood", []byte(hiddenByWood))
	for _, fog := range []string{game.FogOff, game.FogOn, game.FogStrict} {
		t.Run(fog, func(t *testing.T) {
			g, err := game.New(sc, r, game.Seeded(1), game.WithFog(fog))
			if err != nil {
				t.Fatal(err)
			}
			blind := fog != game.FogOff
			s := nb.StateOf(g.State())
			b1, i1 := s.Formation("B-1"), s.Formation("I-1")
			if !b1.Engaged || !slices.Equal(b1.With, []string{"I-1"}) {
				t.Errorf("B-1 engaged %v with %v; want engaged with I-1", b1.Engaged, b1.With)
			}
			if i1.Engaged != !blind || !blind && !slices.Equal(i1.With, []string{"B-1"}) {
				t.Errorf("I-1 engaged %v with %v; want engaged %v", i1.Engaged, i1.With, !blind)
			}
			if got := g.State().Hidden("french", "B-1-a"); got != blind {
				t.Fatalf("B-1-a hidden from the French: %v, want %v", got, blind)
			}
			for _, e := range g.Log() {
				d := nb.DataOf(&e)
				if e.Type != nb.Engaged || d == nil || d.Formation != "B-1" {
					continue
				}
				if e.Visible("french") == blind {
					t.Errorf("B-1's engagement is shown to the French: %v, want %v (see %s)", e.Visible("french"), !blind, e.See)
				}
			}
			v := nb.StateOf(g.Sees("french")).Formation("B-1")
			if v == nil || v.Engaged == blind {
				t.Errorf("the French view of B-1 is %+v; engaged should show only without fog", v)
			}
			// With strict fog, the seat of corps C, none of whose pieces
			// spots I-1, is not told whom B-1 is engaged with.
			for top, want := range map[string][]string{"B": {"I-1"}, "C": nil} {
				if fog != game.FogStrict {
					want = []string{"I-1"}
				}
				if v := nb.StateOf(g.SeesFrom("british", top)).Formation("B-1"); !v.Engaged || !slices.Equal(v.With, want) {
					t.Errorf("the seat of %s is shown B-1 engaged %v with %v; want engaged with %v", top, v.Engaged, v.With, want)
				}
			}
			// A reaction of B-1's cavalry, possible since B-1 is engaged
			// (NB-14), and seen by the French (they spot B-1-b only
			// without fog).
			for g.Step().Name != "move" {
				if _, err := g.Do(game.Command{Side: game.Umpire, Verb: "end"}); err != nil {
					t.Fatal(err)
				}
			}
			for _, c := range []game.Command{
				{Side: "british", Verb: "react", Args: &nb.Args{Units: []string{"B-1-b"}}},
				{Side: "british", Verb: "combat", Args: &nb.Args{Units: []string{"B-1-a"}, Target: "I-1"}},
			} {
				evs, err := g.Do(c)
				if err != nil {
					t.Fatalf("%s: %v", c.Verb, err)
				}
				if len(evs) != 1 || evs[0].Visible("french") == blind {
					t.Errorf("the %s is shown to the French: %v, want %v", c.Verb, evs[0].Visible("french"), !blind)
				}
			}
		})
	}
}

// entryInWood is a scenario whose French off-board reserve VI enters at
// C4, on the south edge at (30, 48), with the British B-1-a standing in a
// heavy wood in front of the entry at AT, hidden from the French.
const entryInWood = `
name: entry-in-wood
rules: nb
turns: 6
field:
  width: 72
  depth: 48
  grid: {columns: 6, rows: 4}
  features:
    - {id: wood, type: heavy-woods, area: [[24, 30], [36, 30], [36, 41], [24, 41]]}
speeds: {infantry: 6, light-cavalry: 12, heavy-cavalry: 10, artillery: 6}
sides:
  - id: french
    nation: french
    edge: south
    army: {id: napoleon, quality: excellent, range: 12, at: [60, 46]}
    corps:
      - id: I
        general: {id: derlon, quality: average, range: 8, at: [60, 40]}
        order: defend
        divisions:
          - id: I-1
            general: {id: quiot, quality: average, range: 4, at: [62, 40]}
            units:
              - {id: I-1-a, type: infantry, at: [64, 40]}
      - id: VI
        general: {id: lobau, quality: average, range: 8}
        order: {kind: reserve, entry: C4, then: {kind: attack, objective: [30, 10]}}
        divisions:
          - id: VI-1
            general: {id: simmer, quality: average, range: 6}
            units:
              - {id: VI-1-a, type: infantry}
  - id: british
    nation: british
    edge: north
    army: {id: wellington, quality: excellent, range: 16, at: [10, 2]}
    corps:
      - id: B
        general: {id: hill, quality: good, range: 8, at: [10, 4]}
        order: defend
        divisions:
          - id: B-1
            general: {id: clinton, quality: good, range: 40, at: [10, 6]}
            units:
              - {id: B-1-a, type: infantry, formation: line, at: AT}
`

// entered plays a game of entryInWood with B-1-a at at to the move step
// of turn 4, when VI has just entered: the earliest entry roll is 1 (turn
// 5), the arrival roll 9 (early-1).
func entered(t *testing.T, r *nb.Rules, at, fog string) *game.Game {
	t.Helper()
	sc := gametest.Read(t, r, "entry-in-wood", []byte(strings.Replace(entryInWood, "AT", at, 1)))
	g, err := game.New(sc, r, &gametest.Queue{Faces: []int{1, 9}}, game.WithFog(fog))
	if err != nil {
		t.Fatal(err)
	}
	for g.State().Turn < 4 || g.Step().Name != "move" {
		if _, err := g.Do(game.Command{Side: game.Umpire, Verb: "end"}); err != nil {
			t.Fatal(err)
		}
	}
	if f := nb.StateOf(g.State()).Formation("VI"); f.Entered != 4 {
		t.Fatalf("VI entered on turn %d, not 4", f.Entered)
	}
	return g
}

// TestMoveMeetsUnseenEnemy checks a move of a unit on its entry turn
// toward an enemy it does not spot (NB-10 under fog of war): VI-1-a, set
// down at (30, 47.5), moves to (30, 42), 6" from B-1-a hidden in the wood
// at (30, 36). It stops a hundredth of an inch short of 8" from B-1-a, at
// (30, 44.01), having spent the 3.49" it moved; the contact is recorded
// right after the move, both sides are shown it, and the French now spot
// B-1-a. Without fog the same move is refused, and nothing is moved.
func TestMoveMeetsUnseenEnemy(t *testing.T) {
	r := engine(t)
	move := game.Command{Side: "french", Verb: "move", Args: &nb.Args{Moves: []game.Move{{Unit: "VI-1-a", To: geom.Pt(30, 42)}}}}
	for _, fog := range []string{game.FogOn, game.FogStrict} {
		t.Run(fog, func(t *testing.T) {
			g := entered(t, r, "[30, 36]", fog)
			u := nb.StateOf(g.State()).Unit("VI-1-a")
			if u.At != geom.Pt(30, 47.5) || !g.State().Hidden("french", "B-1-a") {
				t.Fatalf("VI-1-a entered at %v, B-1-a hidden from the French: %v; the test needs (30, 47.5) and hidden", u.At, g.State().Hidden("french", "B-1-a"))
			}
			evs, err := g.Do(move)
			if err != nil {
				t.Fatalf("the move was refused: %v", err)
			}
			if len(evs) != 2 || evs[0].Type != nb.Moved || evs[1].Type != game.Contacted {
				t.Fatalf("events %v; want a move and a contact", types(evs))
			}
			if to := evs[0].Moves[0].To; to != geom.Pt(30, 44.01) {
				t.Errorf("VI-1-a moved to %v, want (30, 44.01)", to)
			}
			c, _ := evs[1].Data.(*game.Contact)
			if c == nil || *c != (game.Contact{Piece: "VI-1-a", Met: "B-1-a", At: "(30, 36)"}) || evs[1].Side != "french" || evs[1].Rule != "NB-10" {
				t.Errorf("contact %+v by %s (%s)", c, evs[1].Side, evs[1].Rule)
			}
			for _, side := range []string{"french", "british"} {
				if !evs[1].Visible(side) {
					t.Errorf("the contact is not shown to %s", side)
				}
			}
			u = nb.StateOf(g.State()).Unit("VI-1-a")
			if u.At != geom.Pt(30, 44.01) || math.Abs(u.Moved-3.49) > 1e-9 {
				t.Errorf("VI-1-a stands at %v having moved %v\"; want (30, 44.01) and 3.49\"", u.At, u.Moved)
			}
			if g.State().Hidden("french", "B-1-a") {
				t.Error("the French do not spot B-1-a after the contact")
			}
			// Now that it is seen, a move to within 8" of it is refused.
			if _, err := g.Do(move); err == nil || !strings.Contains(err.Error(), "may not end within 8\"") {
				t.Errorf("the move toward a spotted enemy: %v", err)
			}
		})
	}
	g := entered(t, r, "[30, 36]", game.FogOff)
	n := g.Len()
	if _, err := g.Do(move); err == nil || err.Error() != `unit VI-1-a entered this turn and may not end within 8" of an un-routed enemy unit (NB-10)` {
		t.Errorf("without fog the move is answered %v", err)
	}
	if g.Len() != n || nb.StateOf(g.State()).Unit("VI-1-a").At != geom.Pt(30, 47.5) {
		t.Error("the refused move changed the game")
	}
}

// TestEntryMeetsUnseenEnemy: a reserve's units are set down clear of the
// enemy their side spots (NB-10 under fog of war); B-1-a, hidden in the
// wood 8" in front of the first place, is not one, so VI-1-a is set down
// there, at (30, 47.5), and comes upon it, right after the entry. Without
// fog VI-1-a is set down more than 8" from B-1-a, and there is no contact.
func TestEntryMeetsUnseenEnemy(t *testing.T) {
	r := engine(t)
	for _, fog := range []string{game.FogOff, game.FogOn} {
		t.Run(fog, func(t *testing.T) {
			g := entered(t, r, "[30, 39.5]", fog)
			var entry, contact *game.Event
			for _, e := range g.Log() {
				switch e.Type {
				case nb.ReserveEntered:
					entry = &e
				case game.Contacted:
					contact = &e
				}
			}
			u := nb.StateOf(g.State()).Unit("VI-1-a")
			if fog == game.FogOff {
				if u.At.Within(geom.Pt(30, 39.5), 8) || contact != nil {
					t.Errorf("without fog VI-1-a is set down at %v and the contact is %v; want clear, none", u.At, contact)
				}
				return
			}
			if u.At != geom.Pt(30, 47.5) || contact == nil {
				t.Fatalf("VI-1-a is set down at %v and the contact is %v; want (30, 47.5) and a contact", u.At, contact)
			}
			if c := contact.Data.(*game.Contact); *c != (game.Contact{Piece: "VI-1-a", Met: "B-1-a", At: "(30, 39.5)"}) || contact.Seq != entry.Seq+1 {
				t.Errorf("contact %+v, event %d after the entry's %d", c, contact.Seq, entry.Seq)
			}
			if g.State().Hidden("french", "B-1-a") {
				t.Error("the French do not spot B-1-a after the contact")
			}
		})
	}
}

func types(evs []game.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

// TestEngagementUnderFog plays games of the scenario with woods under fog
// of war in which the umpire moves units about (near the enemy, into the
// woods and out, a little or far) and routs and rallies them, and checks
// after every command each division's engagement, kept up to date unit
// by unit, against every pair of units: a unit engages an un-routed
// enemy unit within 17" that it spots with its own sight (NB-6 under fog).
func TestEngagementUnderFog(t *testing.T) {
	r := engine(t)
	sc := scenarioOf(t, r, "testdata/fog-woods.yaml")
	field := sight.On(r.Sight(), sc)
	changes := 0
	for seed := uint64(1); seed <= 3; seed++ {
		g, err := game.New(sc, r, game.Seeded(seed), game.WithFog(game.FogOn))
		if err != nil {
			t.Fatal(err)
		}
		for g.Step().Name != "move" {
			if _, err := g.Do(game.Command{Side: game.Umpire, Verb: "end"}); err != nil {
				t.Fatal(err)
			}
		}
		rng := rand.New(rand.NewPCG(seed, 6))
		for range 200 {
			s := nb.StateOf(g.State())
			var on []*nb.Unit
			for _, u := range s.Units {
				if u.OnTable {
					on = append(on, u)
				}
			}
			u := on[rng.IntN(len(on))]
			c := game.Command{Side: game.Umpire, Verb: "rout", Args: &nb.Args{Units: []string{u.ID}}}
			switch k := rng.IntN(10); {
			case k == 0 && u.Status == "routed":
				c.Verb = "rally"
			case k == 0:
			default:
				var a nb.Args
				for j := range 1 + rng.IntN(3) {
					v := u // the umpire moves one side at a time
					if j > 0 {
						v = on[rng.IntN(len(on))]
					}
					if v.Side != u.Side {
						continue
					}
					near := on[rng.IntN(len(on))].At // often an enemy's
					d := []float64{2, 8, 20}[rng.IntN(3)]
					to := geom.Pt(near.X+d*(2*rng.Float64()-1), near.Y+d*(2*rng.Float64()-1))
					if k < 3 {
						to = geom.Pt(v.At.X+2*rng.Float64()-1, v.At.Y+2*rng.Float64()-1) // a step
					}
					to = geom.Pt(min(max(to.X, 0), sc.Field.Width), min(max(to.Y, 0), sc.Field.Depth)).Round()
					if !slices.ContainsFunc(a.Moves, func(m game.Move) bool { return m.Unit == v.ID }) {
						a.Moves = append(a.Moves, game.Move{Unit: v.ID, To: to})
						a.Overrides = append(a.Overrides, "a test")
					}
				}
				c = game.Command{Side: game.Umpire, Verb: "move", Args: &a}
			}
			n := g.Len()
			if _, err := g.Do(c); err != nil {
				t.Fatalf("%s %s: %v", c.Verb, argsJSON(c), err)
			}
			for _, e := range g.Since(n) {
				if e.Type == nb.Engaged || e.Type == nb.Disengaged {
					changes++
				}
			}
			s = nb.StateOf(g.State())
			want := map[string][]string{}
			for _, u := range s.Units {
				for _, v := range s.Units {
					if u.Side == v.Side || !u.OnTable || !v.OnTable || v.Status == "routed" || !u.At.Within(v.At, 17) {
						continue
					}
					if field.Spotted(sight.Mark{Kind: u.Type, At: u.At}, sight.Mark{At: v.At}) && !slices.Contains(want[u.Division], v.Division) {
						want[u.Division] = append(want[u.Division], v.Division)
					}
				}
			}
			at := map[string]int{} // With lists divisions in scenario order
			for i, f := range s.Formations {
				at[f.ID] = i
			}
			for _, f := range s.Formations {
				w := want[f.ID]
				slices.SortFunc(w, func(a, b string) int { return at[a] - at[b] })
				if f.Engaged != (len(w) > 0) || !slices.Equal(f.With, w) {
					t.Fatalf("game %d, after %s %s: %s is engaged %v with %v; the pairs that spot each other give %v", seed, c.Verb, argsJSON(c), f.ID, f.Engaged, f.With, w)
				}
			}
		}
	}
	if changes < 100 {
		t.Fatalf("engagement changed %d times; the test needs more", changes)
	}
}

func argsJSON(c game.Command) string {
	b, _ := json.Marshal(c.Args)
	return string(b)
}

// TestTracked: what NB says each event touches (game.Tracker) covers
// every piece and messenger the event's fold moves.
func TestTracked(t *testing.T) {
	r := engine(t)
	for _, path := range []string{"../../examples/nb/seed-example.yaml", "../../examples/nb/nb-10-off-board-reserve.yaml", "../../examples/nb/nb-11-hierarchy.yaml"} {
		t.Run(path[strings.LastIndex(path, "/")+1:], func(t *testing.T) {
			gametest.Tracked(t, r, scenarioOf(t, r, path), 4)
		})
	}
}
