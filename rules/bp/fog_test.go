package bp_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/rules/bp"
)

// The regression tests of the fog of war review (issue 32, second round):
// most play two games that differ only in what enemy pieces the side does
// not spot did, and check that the side is told the same in both.

// ruled drops the engine's step events from evs.
func ruled(evs []game.Event) []game.Event {
	return slices.DeleteFunc(evs, func(e game.Event) bool { return e.Type == game.StepBegun })
}

// place is the umpire's placement of piece id at (x, y).
func place(id string, x, y float64) game.Command {
	return game.Command{Side: game.Umpire, Verb: game.Place, Args: &game.Placement{Piece: id, To: geom.Pt(x, y), Why: "a test"}}
}

// crossing is f1 in the open west of b1, about to move east across its
// front 10" ahead of it; z1, far off, is French too, and WOOD is replaced
// by the test's woods.
const crossing = `name: crossing
rules: bp
turns: 3
field:
  width: 72
  depth: 48
  features:
WOOD
sides:
  - id: french
    nation: french
    edge: south
    army: {id: fa, at: [36, 47]}
    brigades:
      - id: fb
        general: {id: fg, staff: 8, at: [36, 40]}
        units:
          - {id: f1, type: infantry, formation: line, at: [14, 20], facing: 90, shooting: 3, combat: 6, morale: 4, stamina: 3}
          - {id: z1, type: infantry, formation: line, at: [68, 46], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}
  - id: british
    nation: british
    edge: north
    army: {id: ba, at: [36, 1]}
    brigades:
      - id: bb
        general: {id: bg, staff: 8, at: [36, 4]}
        units:
          - {id: b1, type: infantry, formation: line, at: [36, 10], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}
          - {id: b2, type: skirmishers, formation: skirmish, at: [10, 10], facing: 180, shooting: 2, combat: 2, morale: 5, stamina: 2}
`

// crossWith is the crossing scenario with woods.
func crossWith(woods string) []byte {
	return []byte(strings.Replace(crossing, "WOOD", woods, 1))
}

// TestTraverseUnseen: with fog of war whether a move across a unit's
// front waits for its traversing fire is not decided on what the mover's
// side spots, which the other side would learn from the reply step
// (review finding 4). z1, at the edge of a wood, spots b1 in one game
// only; the British spot z1 in neither.
func TestTraverseUnseen(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "crossing", crossWith("    - {id: wood, type: heavy-woods, area: [[50, 14], [62, 14], [62, 26], [50, 26]]}"))
	mk := func() *game.Game {
		g, err := game.New(sc, r, &queue{Faces: []int{3, 3}}, game.WithFog(game.FogOn))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	a, b := mk(), mk()
	do(t, a, place("z1", 51, 18))
	if a.State().Hidden("french", "b1") || !b.State().Hidden("french", "b1") || !a.State().Hidden("british", "z1") {
		t.Fatal("z1 should spot b1 unseen in one game, and b1 be unseen in the other")
	}
	gametest.SameTold(t, a, b, "british", "before the move")
	for _, g := range []*game.Game{a, b} {
		do(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}})
		do(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(38, 20)}})
	}
	gametest.SameTold(t, a, b, "british", "after f1 crossed b1's front")
}

// TestTraverseUnderFog: with fog of war a unit that sees a unit cross its
// front, where the move ends, may give traversing fire at it, and the
// chance shows it to the mover's side: the move (with no across list),
// a contact of the two, then the crossing, all seen by both sides, and
// the reply step. A unit that cannot see the mover where it ends (in a
// wood 10" off) gives none under fog, and without fog it does (BP-5).
func TestTraverseUnderFog(t *testing.T) {
	r := engine(t)
	order := game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}}
	move := game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(38, 20)}}
	far := "    - {id: wood, type: heavy-woods, area: [[50, 14], [62, 14], [62, 26], [50, 26]]}"
	g, err := game.New(read(t, r, "crossing", crossWith(far)), r, &queue{Faces: []int{3, 3}}, game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	if !g.State().Hidden("french", "b1") {
		t.Fatal("the French spot b1 before the move")
	}
	do(t, g, order)
	evs := ruled(do(t, g, move))
	if got := types(evs); !slices.Equal(got, []string{bp.EvMoved, game.Contacted, bp.EvCrossed}) {
		t.Fatalf("the move's events are %v; want moved, contact, crossed", got)
	}
	if m := evs[0].Data.(*bp.Moved); len(m.Across) != 0 {
		t.Fatalf("under fog the moved event lists %v across", m.Across)
	}
	if c := evs[1].Data.(*game.Contact); c.Piece != "f1" || c.Met != "b1" {
		t.Fatalf("contact %+v; want f1 upon b1", c)
	}
	if c := evs[2].Data.(*bp.Crossed); c.Unit != "f1" || !slices.Equal(c.Units, []string{"b1"}) {
		t.Fatalf("crossed %+v; want f1 across b1", c)
	}
	for _, e := range evs {
		if !e.Visible("french") || !e.Visible("british") {
			t.Fatalf("the %s event is shown to %q; want both sides", e.Type, e.See)
		}
	}
	if st := g.Step(); st.Name != bp.StepRespond || !slices.Equal(st.Verbs, []string{"traverse"}) || !slices.Equal(st.Actors, []string{"british"}) {
		t.Fatalf("after the move the step is %+v; want the British reply with traverse", st)
	}
	if g.State().Hidden("french", "b1") {
		t.Fatal("the chance to fire did not show b1 to the French")
	}
	do(t, g, game.Command{Side: "british", Verb: "traverse", Args: &bp.Args{Unit: "pass"}})

	// f1 ends in a wood, where b1 spots it only from 4".
	near := "    - {id: wood, type: heavy-woods, area: [[34, 16], [44, 16], [44, 26], [34, 26]]}"
	sc := read(t, r, "crossing", crossWith(near))
	for _, fog := range []string{game.FogOn, game.FogOff} {
		g, err := game.New(sc, r, &queue{Faces: []int{3, 3}}, game.WithFog(fog))
		if err != nil {
			t.Fatal(err)
		}
		do(t, g, order)
		evs := ruled(do(t, g, move))
		across := evs[0].Data.(*bp.Moved).Across
		switch {
		case fog == game.FogOn && (len(evs) != 1 || len(across) != 0 || g.Step().Name != bp.StepOrders):
			t.Fatalf("under fog a move b1 cannot see the end of gives the events %v (across %v) and the step %s; want the move alone", types(evs), across, g.Step().Name)
		case fog == game.FogOff && (len(evs) != 1 || !slices.Equal(across, []string{"b1"}) || g.Step().Name != bp.StepRespond):
			t.Fatalf("without fog the move gives the events %v (across %v) and the step %s; want b1's traversing fire", types(evs), across, g.Step().Name)
		}
	}
}

// reveal has b1 hidden (BP's own rule) 11" north of where the umpire will
// set f1 down, in a light wood where b1 cannot see it; the heavy wood east
// of that place may hide b2, which would.
const reveal = `name: reveal
rules: bp
turns: 3
field:
  width: 72
  depth: 48
  features:
    - {id: lwood, type: light-woods, area: [[20, 20], [30, 20], [30, 30], [20, 30]]}
    - {id: hwood, type: heavy-woods, area: [[31, 18], [41, 18], [41, 28], [31, 28]]}
sides:
  - id: french
    nation: french
    edge: south
    army: {id: fa, at: [60, 47]}
    brigades:
      - id: fb
        general: {id: fg, staff: 8, at: [64, 44]}
        units:
          - {id: f1, type: infantry, formation: line, at: [10, 44], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}
  - id: british
    nation: british
    edge: north
    army: {id: ba, at: [66, 1]}
    brigades:
      - id: bb
        general: {id: bg, staff: 8, at: [66, 4]}
        units:
          - {id: b1, type: infantry, formation: line, at: [28.5, 10], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3, hidden: true}
          - {id: b2, type: skirmishers, formation: skirmish, at: [60, 10], facing: 180, shooting: 2, combat: 2, morale: 5, stamina: 2}
`

// TestHiddenRevealUnseen: with fog of war a unit the scenario hides is
// revealed when an enemy unit comes within 12" of it, whatever its side
// spots, in a contact of the two (review finding 7). In one game b2 lurks
// in the wood and spots f1 when it is set down; in the other it is far
// off. Either way the French are told the same: the contact, then b1 seen.
func TestHiddenRevealUnseen(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "reveal", []byte(reveal))
	mk := func() *game.Game {
		g, err := game.New(sc, r, game.Seeded(1), game.WithFog(game.FogOn))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	a, b := mk(), mk()
	do(t, a, place("b2", 32.8, 21))
	var evs []game.Event
	for _, g := range []*game.Game{a, b} {
		evs = do(t, g, place("f1", 28.5, 21))
	}
	if !a.State().Hidden("french", "b2") {
		t.Fatal("the French spot b2 in the wood")
	}
	gametest.SameTold(t, a, b, "french", "after f1 came within 12\" of b1")
	// The known answer, in the game without b2 near: the umpire's
	// placement, the contact of f1 with b1, and b1 revealed, all seen by
	// both sides, and each side spots the other's unit.
	if got := types(evs); !slices.Equal(got, []string{game.Placed, game.Contacted, bp.EvRevealed}) {
		t.Fatalf("the placement's events are %v; want placed, contact, revealed", got)
	}
	if c := evs[1].Data.(*game.Contact); c.Piece != "f1" || c.Met != "b1" || !evs[1].Visible("french") || !evs[1].Visible("british") {
		t.Fatalf("contact %+v shown to %q; want f1 upon b1, shown to both", c, evs[1].See)
	}
	if !evs[2].Visible("french") || !evs[2].Visible("british") {
		t.Fatalf("the reveal is shown to %q; want both", evs[2].See)
	}
	if s := b.State(); s.Hidden("french", "b1") || s.Hidden("british", "f1") || bp.StateOf(s).Unit("b1").Hidden {
		t.Fatal("after the reveal the two do not spot each other, or b1 is still hidden")
	}
	// Without fog b1 is revealed as before, with no contact.
	open, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := types(do(t, open, place("f1", 28.5, 21))); !slices.Equal(got, []string{game.Placed, bp.EvRevealed}) {
		t.Fatalf("without fog the placement's events are %v; want placed, revealed", got)
	}
}

// TestGeneralMovedUnseen: with fog of war a side is not told whether an
// enemy commander has moved this turn, which he may have done unseen
// (review finding 8). In one game bg moves unseen; in the other the
// umpire sets him down at the same place; then f1 comes to look at him.
func TestGeneralMovedUnseen(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "reveal", []byte(reveal))
	mk := func() *game.Game {
		g, err := game.New(sc, r, game.Seeded(1), game.WithFog(game.FogOn))
		if err != nil {
			t.Fatal(err)
		}
		for g.State().Phase != "british-command" {
			do(t, g, game.Command{Side: game.Umpire, Verb: game.End})
		}
		return g
	}
	a, b := mk(), mk()
	do(t, a, game.Command{Side: "british", Verb: "move", Args: &bp.Args{General: "bg", To: pt(60, 10)}})
	if !bp.StateOf(a.State()).General("bg").Moved {
		t.Fatal("bg's move did not count")
	}
	do(t, b, place("bg", 60, 10))
	for _, g := range []*game.Game{a, b} {
		do(t, g, place("f1", 60, 22))
		if g.State().Hidden("french", "bg") {
			t.Fatal("f1 does not spot bg 12\" off")
		}
	}
	gametest.SameTold(t, a, b, "french", "after bg moved unseen")
}

// TestBrigadeUnseen: with fog of war an order naming an enemy brigade
// none of whose pieces the side spots is refused exactly as one naming a
// brigade not in the game (review finding 9); one the side spots is
// refused as the enemy's.
func TestBrigadeUnseen(t *testing.T) {
	r := engine(t)
	g, err := game.New(read(t, r, "reveal", []byte(reveal)), r, game.Seeded(1), game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	answer := func(brigade string) string {
		c := game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: brigade, Units: []string{"f1"}, Kind: "advance"}}
		err := r.Unseen(g.State(), "french", &c)
		if err == nil {
			_, err = g.Do(c)
		}
		if err == nil {
			t.Fatalf("an order for brigade %s is carried out", brigade)
		}
		return strings.ReplaceAll(err.Error(), brigade, "ID")
	}
	if hid, none := answer("bb"), answer("zz"); hid != none {
		t.Fatalf("a hidden brigade is refused %q, a missing one %q", hid, none)
	}
	do(t, g, place("f1", 60, 22)) // 12" from b2
	if got := answer("bb"); !strings.Contains(got, "is a brigade of british") {
		t.Fatalf("a brigade the French spot is refused %q; want it named the enemy's", got)
	}
}

// volley has b1 in a heavy wood, spotted from 4" only; f1 of brigade fb
// will come upon it, and the battery f2 of brigade fc, which cannot see
// it, may then shoot at it on fb's word. b2 may watch f2 from the wood's
// edge, unseen.
const volley = `name: volley
rules: bp
turns: 3
field:
  width: 72
  depth: 48
  features:
    - {id: wood, type: heavy-woods, area: [[28, 14], [44, 14], [44, 26], [28, 26]]}
sides:
  - id: french
    nation: french
    edge: south
    army: {id: fa, at: [60, 47]}
    brigades:
      - id: fb
        general: {id: fg, staff: 8, at: [64, 44]}
        units:
          - {id: f1, type: infantry, formation: line, at: [36, 40], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}
      - id: fc
        general: {id: fcg, staff: 8, at: [66, 44]}
        units:
          - {id: f2, type: artillery, formation: unlimbered, at: [40, 36], facing: 0, shooting: 2, combat: 1, morale: 4, stamina: 2}
  - id: british
    nation: british
    edge: north
    army: {id: ba, at: [66, 1]}
    brigades:
      - id: bb
        general: {id: bg, staff: 8, at: [66, 4]}
        units:
          - {id: b1, type: infantry, formation: line, at: [36, 22], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}
          - {id: b2, type: skirmishers, formation: skirmish, at: [70, 6], facing: 180, shooting: 2, combat: 2, morale: 5, stamina: 2}
`

// TestVolleyContactAlways: with fog of war a volley shows the shooter to
// its target's side in a contact whether that side spotted it before or
// not: a contact is mutual, so one made only when the enemy did not spot
// the shooter would tell the shooter's commanders (strict fog) what the
// enemy's hidden pieces see. In one game b2 watches f2 unseen; in both f2
// shoots at b1, which only f1 (of another brigade) spots, by its contact.
func TestVolleyContactAlways(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "volley", []byte(volley))
	dice := map[*game.Game]*queue{}
	mk := func() *game.Game {
		q := &queue{Faces: []int{3, 3}}
		g, err := game.New(sc, r, q, game.WithFog(game.FogStrict))
		if err != nil {
			t.Fatal(err)
		}
		dice[g] = q
		do(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}})
		if got := types(do(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(36, 17)}})); !slices.Contains(got, game.Contacted) {
			t.Fatalf("f1's move gives %v; want a contact with b1", got)
		}
		return g
	}
	a, b := mk(), mk()
	do(t, a, place("b2", 43.5, 25.5))
	if a.State().Hidden("british", "f2") || !b.State().Hidden("british", "f2") || !a.State().Hidden("french", "b2") {
		t.Fatal("b2 should spot f2 unseen in one game, and the British not spot f2 in the other")
	}
	for _, g := range []*game.Game{a, b} {
		do(t, g, game.Command{Side: game.Umpire, Verb: game.End})
		dice[g].Faces = []int{1, 1}
		evs := ruled(do(t, g, game.Command{Side: "french", Verb: "shoot", Args: &bp.Args{Unit: "f2", Target: "b1"}}))
		if got := types(evs); !slices.Equal(got, []string{game.Contacted, bp.EvShot}) || evs[0].See != "british" {
			t.Fatalf("the volley's events are %v, the contact shown to %q; want contact (to british), shot", got, evs[0].See)
		}
	}
	gametest.SameTold(t, a, b, "french", "after f2's volley")
	for _, top := range []string{"fb", "fc"} {
		if x, y := mustJSON(t, a.SeesFrom("french", top)), mustJSON(t, b.SeesFrom("french", top)); !bytes.Equal(x, y) {
			t.Errorf("after f2's volley the French commander of %s sees different things:\n%s", top, gametest.Around(x, y))
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
