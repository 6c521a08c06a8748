package nb_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/rules/nb"
)

// messengersInFog is a scenario for the enemy's messengers under fog of
// war: the French I-1-a stands in the open 24" south of Wellington, who
// writes the British orders (so the French spot him and the messengers he
// sends); his corps commander Hill stands 14" east of him and 27.8" from
// I-1-a, out of French sight, and his division general Clinton far off in
// the west.
const messengersInFog = `
name: messengers-in-fog
rules: nb
turns: 6
field: {width: 72, depth: 48}
speeds: {infantry: 6, light-cavalry: 12, heavy-cavalry: 10, artillery: 6}
sides:
  - id: french
    nation: french
    edge: south
    army: {id: napoleon, quality: excellent, range: 12, at: [10, 46]}
    corps:
      - id: I
        general: {id: derlon, quality: average, range: 8, at: [12, 44]}
        order: defend
        divisions:
          - id: I-1
            general: {id: quiot, quality: average, range: 4, at: [14, 44]}
            units:
              - {id: I-1-a, type: infantry, at: [50, 26]}
  - id: british
    nation: british
    edge: north
    army: {id: wellington, quality: excellent, range: 16, at: [50, 2]}
    corps:
      - id: B
        general: {id: hill, quality: good, range: 8, at: [64, 2]}
        order: defend
        divisions:
          - id: B-1
            general: {id: clinton, quality: good, range: 4, at: [4, 2]}
            units:
              - {id: B-1-a, type: infantry, formation: line, at: [4, 4]}
`

// messengerGame is a new game of messengersInFog with fog mode, at the
// British write step of turn 1.
func messengerGame(t *testing.T, mode string) *game.Game {
	t.Helper()
	r := engine(t)
	sc := gametest.Read(t, r, "messengers-in-fog", []byte(messengersInFog))
	g, err := game.New(sc, r, game.Seeded(1), game.WithFog(mode))
	if err != nil {
		t.Fatal(err)
	}
	if g.Step().Name != "write" {
		t.Fatalf("the game starts in step %s, not write", g.Step().Name)
	}
	return g
}

func do(t *testing.T, g *game.Game, c game.Command) {
	t.Helper()
	if _, err := g.Do(c); err != nil {
		t.Fatalf("%s %s %s: %v", c.Side, c.Verb, argsJSON(c), err)
	}
}

func place(id string, x, y float64) game.Command {
	return game.Command{Side: game.Umpire, Verb: game.Place, Args: &game.Placement{Piece: id, To: geom.Pt(x, y), Why: "a test"}}
}

func writeFor(to string, kind string, formations ...string) game.Command {
	return game.Command{Side: "british", Verb: "write", Args: &nb.Args{Write: &nb.Write{For: formations, Kind: kind, To: to}}}
}

// ready has every side say ready, once.
func ready(t *testing.T, g *game.Game) {
	t.Helper()
	for _, s := range []string{"british", "french"} {
		do(t, g, game.Command{Side: s, Verb: "ready"})
	}
}

// given is everything side is given in g, as JSON: what it knows of the
// enemy (gametest.Knows), the events it may see, as it is shown them and
// numbered as it numbers them, with their descriptions, its view (and
// under strict fog its commanders'), and the arrival turns the page
// shows beside it.
func given(t *testing.T, g *game.Game, side string) []byte {
	t.Helper()
	type shown struct {
		E game.Event `json:"e"`
		D string     `json:"d"`
	}
	var evs []shown
	g.Scan(0, func(e *game.Event) {
		if !e.Visible(side) {
			return
		}
		c := e.Shown(side, g.Fog() != game.FogOff)
		c.Seq, c.Hash = len(evs)+1, ""
		evs = append(evs, shown{c, g.Describe(&c, nil)})
	})
	out := map[string]any{"knows": json.RawMessage(gametest.Knows(g, side)), "events": evs}
	view := g.Sees(side)
	out["view"] = view
	out["arrivals"] = g.Rules().(game.Courier).Arrivals(view, side)
	if g.Fog() == game.FogStrict {
		for _, f := range g.Scenario().Side(side).Formations[1:] {
			out["from "+f.ID] = g.SeesFrom(side, f.ID)
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameGiven fails the test unless side is given the same in a and b.
func sameGiven(t *testing.T, what string, a, b *game.Game, side string) {
	t.Helper()
	x, y := given(t, a, side), given(t, b, side)
	if bytes.Equal(x, y) {
		return
	}
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	lo := max(0, i-200)
	t.Errorf("%s: %s is given different things in two games that differ only in what it does not spot:\n  one:   …%s…\n  other: …%s…", what, side, x[lo:min(len(x), i+120)], y[lo:min(len(y), i+120)])
}

// TestMessengerArrivalUnderFog (review of issue 32, finding 1): the
// French spot Wellington's messenger leave him, riding to Hill, whom they
// do not spot, standing at (64, 2) in one game and (63, 4) in the other;
// it reaches him in its first ride. Under fog the ride that ends in its
// arrival is the British's news (it ends where Hill stands): the French
// are given the same in both games, see the messenger leave their view
// with no event, and keep no ghost of it; the British are told. Without
// fog everyone is told.
func TestMessengerArrivalUnderFog(t *testing.T) {
	for _, mode := range []string{game.FogOn, game.FogStrict} {
		t.Run(mode, func(t *testing.T) {
			a, b := messengerGame(t, mode), messengerGame(t, mode)
			do(t, b, place("hill", 63, 4))
			for _, g := range []*game.Game{a, b} {
				if !g.State().Hidden("french", "hill") || g.State().Hidden("french", "wellington") {
					t.Fatal("the French must spot Wellington and not Hill")
				}
			}
			sameGiven(t, "at the start", a, b, "french")
			for _, g := range []*game.Game{a, b} {
				do(t, g, writeFor("", "defend", "B"))
				if g.State().Hidden("french", "m-british-1") {
					t.Fatal("the French do not spot the messenger as it leaves Wellington")
				}
				n := g.Len()
				ready(t, g)
				var ride *game.Event
				for _, e := range g.Since(n) {
					if e.Type == nb.MessengerMoved {
						ride = &e
					}
				}
				if ride == nil || !nb.DataOf(ride).Arrived {
					t.Fatalf("the messenger's ride: %+v; want one that arrives", ride)
				}
				if ride.Visible("french") || !ride.Visible("british") {
					t.Errorf("the arriving ride is shown to the French: %v, to the British: %v; want false, true", ride.Visible("french"), ride.Visible("british"))
				}
				if keeps(g, "french", "m-british-1") {
					t.Errorf("the French view keeps the messenger that arrived: %+v, lost %+v", nb.StateOf(g.Sees("french")).Messengers, g.Sees("french").Lost)
				}
			}
			sameGiven(t, "after the messenger arrived", a, b, "french")
		})
	}
	g := messengerGame(t, game.FogOff)
	do(t, g, writeFor("", "defend", "B"))
	n := g.Len()
	ready(t, g)
	if i := slices.IndexFunc(g.Since(n), func(e game.Event) bool { return e.Type == nb.MessengerMoved }); i < 0 || !g.Since(n)[i].Visible("french") {
		t.Error("without fog the French are not shown the messenger's ride")
	}
}

// keeps reports whether side's view of g has messenger id, or a ghost of
// it.
func keeps(g *game.Game, side, id string) bool {
	v := g.Sees(side)
	return nb.StateOf(v).Messenger(id) != nil || slices.ContainsFunc(v.Lost, func(l game.Ghost) bool { return l.ID == id })
}

// TestMessengerRecallUnderFog: a messenger the French spot, riding to
// Clinton, is recalled when Wellington, out of their sight, joins Clinton
// (NB-13). Under fog the recall is the British's news, as an arrival is:
// the French see the messenger leave their view and are told nothing of
// why; without fog everyone is told.
func TestMessengerRecallUnderFog(t *testing.T) {
	for _, mode := range []string{game.FogOff, game.FogOn, game.FogStrict} {
		t.Run(mode, func(t *testing.T) {
			g := messengerGame(t, mode)
			do(t, g, place("I-1-a", 34, 20))
			do(t, g, writeFor("clinton", "attack", "B-1"))
			ready(t, g)
			for g.Step().Name != "move" {
				do(t, g, game.Command{Side: game.Umpire, Verb: "end"})
			}
			if m := nb.StateOf(g.State()).Messenger("m-british-1"); m == nil || m.At != geom.Pt(34, 2) {
				t.Fatalf("the messenger is at %+v after its first ride; want (34, 2)", m)
			}
			if mode != game.FogOff && (g.State().Hidden("french", "m-british-1") || !g.State().Hidden("french", "wellington")) {
				t.Fatal("the French must spot the messenger and not Wellington")
			}
			do(t, g, game.Command{Side: "british", Verb: "attach", Args: &nb.Args{General: "wellington", To: "clinton"}})
			n := g.Len()
			do(t, g, game.Command{Side: game.Umpire, Verb: "end"})
			for g.Step().Name != "move" {
				do(t, g, game.Command{Side: game.Umpire, Verb: "end"})
			}
			i := slices.IndexFunc(g.Since(n), func(e game.Event) bool { return e.Type == nb.MessengerWithdrawn })
			if i < 0 {
				t.Fatal("the messenger was not recalled")
			}
			recall := g.Since(n)[i]
			if want := mode == game.FogOff; recall.Visible("french") != want || !recall.Visible("british") {
				t.Errorf("the recall is shown to the French: %v (want %v), to the British: %v", recall.Visible("french"), want, recall.Visible("british"))
			}
			if keeps(g, "french", "m-british-1") {
				t.Errorf("the French view keeps the recalled messenger: %+v, lost %+v", nb.StateOf(g.Sees("french")).Messengers, g.Sees("french").Lost)
			}
		})
	}
}

// TestEnemyMessengerCount (review of issue 32, finding 6): under fog a
// side's view shows no count of the enemy's messengers or orders. In one
// game the British write an order whose messenger the French never spot;
// the French are given the same in both.
func TestEnemyMessengerCount(t *testing.T) {
	for _, mode := range []string{game.FogOn, game.FogStrict} {
		t.Run(mode, func(t *testing.T) {
			a, b := messengerGame(t, mode), messengerGame(t, mode)
			for _, g := range []*game.Game{a, b} {
				do(t, g, place("I-1-a", 20, 40))
			}
			do(t, a, writeFor("", "attack", "B"))
			if !a.State().Hidden("french", "m-british-1") {
				t.Fatal("the French spot the messenger")
			}
			sameGiven(t, "after an order in one game", a, b, "french")
			for _, sd := range nb.StateOf(a.Sees("french")).Sides {
				if sd.ID == "british" && (sd.Messengers != 0 || sd.Orders != 0 || sd.Written != 0) {
					t.Errorf("the French view counts the British messengers and orders: %+v", sd)
				}
			}
		})
	}
}

// TestSubjectsOfEnemyPieces (review of issue 32, finding 2): what a
// command names for a commander's seat follows only the seat's own
// side's pieces, orders and messengers. An enemy messenger, unit or
// general is named as it is, never by the formation it belongs to or the
// general it rides to, which the seat may not know: a redirect of
// Wellington's messenger is named the same whether it rides to Hill (B)
// or to Clinton (B-1). The French's own are followed as before.
func TestSubjectsOfEnemyPieces(t *testing.T) {
	r := engine(t)
	for _, mode := range []string{game.FogOff, game.FogOn} {
		var got [][]string
		for _, order := range []game.Command{writeFor("", "attack", "B"), writeFor("clinton", "attack", "B-1")} {
			g := messengerGame(t, mode)
			do(t, g, order)
			names, err := r.Subjects(g.State(), &game.Command{Side: "french", Verb: "redirect", Args: &nb.Args{Messenger: "m-british-1", To: "derlon"}})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, names)
		}
		if want := []string{"m-british-1", "I"}; !slices.Equal(got[0], want) || !slices.Equal(got[1], want) {
			t.Errorf("fog %s: the French redirect of m-british-1 names %v and %v; want %v", mode, got[0], got[1], want)
		}
	}
	g := messengerGame(t, game.FogOn)
	do(t, g, writeFor("", "attack", "B"))
	do(t, g, game.Command{Side: "british", Verb: "ready"})
	// The French write an order for I-1, carried to quiot.
	do(t, g, game.Command{Side: "french", Verb: "write", Args: &nb.Args{Write: &nb.Write{For: []string{"I-1"}, Kind: "attack", To: "quiot"}}})
	for _, c := range []struct {
		args *nb.Args
		want []string
	}{
		{&nb.Args{Moves: []game.Move{{Unit: "B-1-a", To: geom.Pt(5, 5)}, {General: "hill", To: geom.Pt(60, 2)}, {Unit: "I-1-a", To: geom.Pt(50, 25)}}}, []string{"B-1-a", "hill", "I-1"}},
		{&nb.Args{General: "clinton", To: "B-1-a"}, []string{"clinton", "B-1-a"}},
		{&nb.Args{General: "quiot", To: "hill"}, []string{"I-1", "hill"}},
		{&nb.Args{General: "quiot", To: "I-1-a"}, []string{"I-1", "I-1"}},
		{&nb.Args{Write: &nb.Write{For: []string{"B-1"}, Kind: "attack", To: "clinton"}}, []string{"B-1", "clinton"}},
		{&nb.Args{Write: &nb.Write{For: []string{"I-1"}, Kind: "attack", To: "derlon"}}, []string{"I-1", "I"}},
		{&nb.Args{Messenger: "m-french-1", To: "derlon"}, []string{"I-1", "I"}},
		{&nb.Args{Units: []string{"B-1-a", "I-1-a"}}, []string{"B-1-a", "I-1"}},
	} {
		verb := "move"
		switch {
		case c.args.Write != nil:
			verb = "write"
		case c.args.Messenger != "":
			verb = "redirect"
		case c.args.General != "":
			verb = "attach"
		case c.args.Units != nil:
			verb = "rout"
		}
		gc := &game.Command{Side: "french", Verb: verb, Args: c.args}
		names, err := r.Subjects(g.State(), gc)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(names, c.want) {
			t.Errorf("the French %s %s names %v; want %v", verb, argsJSON(*gc), names, c.want)
		}
	}
}
