package lob_test

import (
	"slices"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/rules/lob"
)

// toTurn ends steps until the game stands in step name of side's player
// turn on turn.
func toTurn(t *testing.T, g *game.Game, turn int, side, name string) {
	t.Helper()
	for n := 0; n < 400; n++ {
		if st := g.Step(); g.State().Turn == turn && st.Name == name && slices.Contains(st.Actors, side) {
			return
		}
		if _, err := g.Do(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("no %s step of %s on turn %d", name, side, turn)
}

// hexOf is the label of hex p in g.
func hexOf(g *game.Game, p geom.Point) string { return g.Scenario().Space().Format(p) }

// TestArmyHQStacked (9.2a): the army commander orders the army HQ to move
// only when he stands in its hex. Otherwise the order is refused, and its
// forecast too, in one sentence saying where each stands and what is
// allowed, before any command roll: nothing changes, his roll of the turn
// is still his and the page is not offered the army HQ as a recipient.
// Stacked with it (the neighbour case), the order is his command roll.
func TestArmyHQStacked(t *testing.T) {
	r := engine(t)
	sc := demo(t, r) // Pope at 0308, the army HQ at 0208
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	toOrders(t, g, "union")
	args := &lob.Args{To: "hq", Objective: "0408"}
	want := "pope stands at 0308 and the army HQ at 0208: the army commander orders the army HQ to move only when stacked with it (9.2a); move him into hex 0208 first"
	if _, err := r.Forecast(sc, g.State(), "union", args); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("the forecast of the order is %v; want %q", err, want)
	}
	n := g.Len()
	if _, err := g.Do(game.Command{Side: "union", Verb: "issue", Args: args}); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("the order is answered %v; want %q", err, want)
	}
	if g.Len() != n || lob.StateOf(g.State()).Side("union").Rolled || lob.StateOf(g.State()).Side("union").Goal != nil {
		t.Fatal("the refused order changed the game: a roll spent, or a destination set")
	}
	if slices.Contains(board(t, r, g, "union").Recipients, "hq") {
		t.Error("the page is offered the army HQ while pope is not stacked with it")
	}
	// The neighbour: stacked with it, the order is made, with his roll.
	place(t, g, "pope", "0208")
	if !slices.Contains(board(t, r, g, "union").Recipients, "hq") {
		t.Error("the page is not offered the army HQ with pope stacked with it")
	}
	if _, err := r.Forecast(sc, g.State(), "union", args); err != nil {
		t.Errorf("the forecast of the order of a stacked commander: %v", err)
	}
	evs, err := g.Do(game.Command{Side: "union", Verb: "issue", Args: args})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) == 0 || len(evs[0].Rolls) != 1 || evs[0].Rolls[0].Table != "lob/command-roll" || !lob.StateOf(g.State()).Side("union").Rolled {
		t.Errorf("the order of a stacked commander made no command roll: %+v", evs)
	}
}

// entryScenario: Union reinforcement R arrives on turn 2 with Reno at
// 0102, r1 at 0104 and its HQ at 0101 (its entry area); W on the map
// holds 0104 with 2 units; Confederate k1 (in line) stands at 0101.
const entryScenario = `
name: entry
rules: lob
turns: 3
map: {columns: 24, rows: 12, layout: odd-q}
sides:
  - id: union
    nation: union
    edge: west
    hq: "2012"
    army: {id: pope, at: "2012", range: 4, value: 2}
    divisions:
      - id: W
        general: {id: w-g, at: "0105", range: 3, value: 2}
        hq: "0105"
        units:
          - {id: w1, type: infantry, at: "0104", formation: column, strength: 3}
          - {id: w2, type: infantry, at: "0104", formation: column, strength: 3}
      - id: R
        arrives: 2
        general: {id: r-g, at: "0102", range: 3, value: 2}
        hq: "0101"
        units:
          - {id: r1, type: infantry, at: "0104", formation: column, strength: 3}
          - {id: r2, type: infantry, at: "0104", formation: column, strength: 3}
  - id: confederate
    nation: confederate
    edge: east
    army: {id: lee, at: "0112", range: 4, value: 3}
    divisions:
      - id: K
        general: {id: k-g, at: "0304", range: 4, value: 2}
        hq: "0304"
        order: {kind: attack, objective: "0102"}
        units:
          - {id: k1, type: infantry, at: "0101", formation: line, strength: 3}
`

// TestBlockedEntry (3.7a): a reinforcement enters on its turn, with no
// delay, and never on a hex an enemy combat unit holds: R's HQ, whose hex
// k1 holds, enters at 0102, the nearest free hex of R's entry area; of r1
// and r2, whose hex 0104 holds two of W's units (stack 3), r1 enters
// there and r2, finding it full, at 0102. Its arrival beside k1 is no
// enemy entering its HQ's hex: only a move into it is (10.9), and not
// the umpire setting a unit down there either.
func TestBlockedEntry(t *testing.T) {
	r := engine(t)
	sc := gametest.Read(t, r, "entry.yaml", []byte(entryScenario))
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	toTurn(t, g, 2, "union", lob.StepOrders)
	st := lob.StateOf(g.State())
	R := st.Formation("R")
	if !R.Entered || !R.HQOn || hexOf(g, R.HQ) != "0102" {
		t.Fatalf("R entered %v, its HQ on the map %v at %s; want entered on turn 2, its HQ at 0102", R.Entered, R.HQOn, hexOf(g, R.HQ))
	}
	for id, want := range map[string]string{"r-g": "0102", "r1": "0104", "r2": "0102"} {
		if p := g.State().Piece(id); !p.OnTable || hexOf(g, p.At) != want {
			t.Errorf("%s is on the map %v at %s; want %s", id, p.OnTable, hexOf(g, p.At), want)
		}
	}
	var begun *lob.Begun
	g.Scan(0, func(e *game.Event) {
		if d, ok := e.Data.(*lob.Begun); ok && len(d.Entered) > 0 {
			begun = d
		}
	})
	got := []string{}
	for _, en := range begun.Diverted {
		got = append(got, en.Piece+" "+en.From+">"+en.At+" "+en.Why)
	}
	if want := []string{"r2 0104>0102 full", "hq:R 0101>0102 enemy"}; !slices.Equal(got, want) {
		t.Errorf("the pieces entering elsewhere are %v; want %v", got, want)
	}
	if R.Skedaddle {
		t.Fatal("R skedaddled on arriving beside k1")
	}
	// The umpire sets k1 down in R's HQ hex (r2 set aside first): no
	// skedaddle either.
	toTurn(t, g, 2, "confederate", lob.StepMove)
	place(t, g, "r2", "0203")
	place(t, g, "k1", "0102")
	if lob.StateOf(g.State()).Formation("R").Skedaddle {
		t.Fatal("R skedaddled when the umpire set k1 down in its HQ's hex")
	}
	// k1, in line, moves into R's HQ hex: R skedaddles.
	place(t, g, "k1", "0101")
	if _, err := g.Do(game.Command{Side: "confederate", Verb: "move", Args: &lob.Args{Unit: "k1", To: "0102"}}); err != nil {
		t.Fatal(err)
	}
	if !lob.StateOf(g.State()).Formation("R").Skedaddle {
		t.Fatal("R did not skedaddle when k1 moved into its HQ's hex in line")
	}
}

// TestRoadEntryChecked: a scenario's road-entry is refused, naming where
// and why, on a formation that is no reinforcement, and for a hex that is
// not a road hex on a map edge; a good one loads.
func TestRoadEntryChecked(t *testing.T) {
	r := engine(t)
	base := `
name: roads
rules: lob
turns: 3
map:
  columns: 8
  rows: 12
  layout: odd-q
  roads:
    road: ["0108 0208 0308 0408"]
sides:
  - id: union
    nation: union
    edge: west
    hq: "0810"
    army: {id: pope, at: "0810", range: 4, value: 2}
    divisions:
      - id: R
        ARRIVES
        road-entry: "ROADS"
        general: {id: r-g, at: "0102", range: 3, value: 2}
        units:
          - {id: r1, type: infantry, at: "0104", formation: column, strength: 3}
  - id: confederate
    nation: confederate
    edge: east
    army: {id: lee, at: "0812", range: 4, value: 3}
    divisions:
      - id: K
        general: {id: k-g, at: "0304", range: 4, value: 2}
        units:
          - {id: k1, type: infantry, at: "0101", formation: line, strength: 3}
`
	for _, c := range []struct{ arrives, roads, want string }{
		{"arrives: 2", "0108", ""},
		{"", "0108", "road-entry is for a reinforcement: give it with arrives"},
		{"arrives: 2", "0308", "hex 0308 is not on a map edge"},
		{"arrives: 2", "0105", "hex 0105 has no road"},
		{"arrives: 2", "0199", "0199"},
		{"arrives: 2", "", "give the labels of road hexes on a map edge"},
	} {
		src := strings.NewReplacer("ARRIVES", c.arrives, "ROADS", c.roads).Replace(base)
		_, err := battle.Read("roads.yaml", []byte(src), func(string) (battle.RuleSet, error) { return r, nil })
		switch {
		case c.want == "" && err != nil:
			t.Errorf("road-entry %q: %v", c.roads, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "road-entry")):
			t.Errorf("road-entry %q (%s): %v; want a refusal naming road-entry and saying %q", c.roads, c.arrives, err, c.want)
		}
	}
}

// TestEnterCommand: only the umpire names the road hex where a blocked
// reinforcement enters, only a road hex on a map edge, only for one still
// to come; a refusal changes nothing. The page offers it to the umpire
// alone with the hexes it accepts; the enemy's view does not hold it.
func TestEnterCommand(t *testing.T) {
	r := engine(t)
	sc := demo(t, r) // Ricketts arrives on turn 4; road hexes on an edge: 0108, 2408
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	toOrders(t, g, "union")
	n := g.Len()
	for _, c := range []struct {
		side, formation, at, want string
	}{
		{"union", "ricketts", "2408", "only the umpire names the road hex"},
		{game.Umpire, "ricketts", "0408", "hex 0408 is not on a map edge"},
		{game.Umpire, "ricketts", "0101", "hex 0101 has no road"},
		{game.Umpire, "II", "0108", "II is on the map already"},
		{game.Umpire, "nobody", "0108", "there is no formation nobody"},
	} {
		_, err := g.Do(game.Command{Side: c.side, Verb: "enter", Args: &lob.Args{Formation: c.formation, To: c.at}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s's enter %s at %s: %v; want %q", c.side, c.formation, c.at, err, c.want)
		}
	}
	if g.Len() != n || lob.StateOf(g.State()).Formation("ricketts").Road != nil {
		t.Fatal("a refused enter changed the game")
	}
	if b := board(t, r, g, game.Umpire); len(b.Exits) != 2 {
		t.Errorf("the umpire's board gives the road exits %v; want 0108 and 2408", b.Exits)
	}
	if b := board(t, r, g, "union"); len(b.Exits) != 0 {
		t.Errorf("the union's board gives road exits %v; only the umpire names them", b.Exits)
	}
	if !slices.Contains(r.Offers(g.State(), g.Step(), game.Umpire)["ricketts"], "enter") {
		t.Error("the umpire is not offered enter for ricketts")
	}
	if slices.Contains(r.Offers(r.View(g.State(), "union"), g.Step(), "union")["ricketts"], "enter") {
		t.Error("the union is offered enter")
	}
	if _, err := g.Do(game.Command{Side: game.Umpire, Verb: "enter", Args: &lob.Args{Formation: "ricketts", To: "2408"}}); err != nil {
		t.Fatal(err)
	}
	st := lob.StateOf(g.State())
	for _, id := range []string{"ricketts", "tower"} {
		if f := st.Formation(id); f.Road == nil || hexOf(g, *f.Road) != "2408" {
			t.Errorf("%s enters at %v if blocked; want 2408", id, f.Road)
		}
	}
	if f := lob.StateOf(r.View(g.State(), "confederate")).Formation("ricketts"); f != nil && f.Road != nil {
		t.Error("the confederate view holds where the union's reinforcement enters if blocked")
	}
}

// TestEntryUnderFog: under fog of war the Union, arriving, does not spot
// k1, which holds R's HQ hex 0101. R's HQ enters at 0102 all the same,
// never on k1, and the Union comes upon k1 there: a contact (shown to
// both sides), after which it spots k1. With k1 elsewhere (the neighbour
// game) R's HQ enters at 0101 and there is no contact.
func TestEntryUnderFog(t *testing.T) {
	r := engine(t)
	// Without W, whose pieces by 0101 would spot k1.
	i, j := strings.Index(entryScenario, "      - id: W"), strings.Index(entryScenario, "      - id: R")
	sc := gametest.Read(t, r, "entry.yaml", []byte(entryScenario[:i]+entryScenario[j:]))
	for _, fog := range []string{game.FogOn, game.FogStrict} {
		for _, at := range []string{"0101", "0111"} {
			g, err := game.New(sc, r, game.Seeded(1), game.WithFog(fog))
			if err != nil {
				t.Fatal(err)
			}
			place(t, g, "k1", at)
			toTurn(t, g, 1, "confederate", lob.StepOrders)
			if !g.State().Hidden("union", "k1") {
				t.Fatalf("%s: the union spots k1 at %s before R arrives", fog, at)
			}
			from := g.Len()
			toTurn(t, g, 2, "union", lob.StepOrders)
			var contacts []*game.Contact
			g.Scan(from, func(e *game.Event) {
				if d, ok := e.Data.(*game.Contact); ok && e.Visible("union") && e.Visible("confederate") {
					contacts = append(contacts, d)
				}
			})
			hq := lob.StateOf(g.State()).Formation("R").HQ
			switch at {
			case "0101":
				if hexOf(g, hq) != "0102" || len(contacts) != 1 || contacts[0].Met != "k1" || contacts[0].At != "0101" || g.State().Hidden("union", "k1") {
					t.Errorf("%s: k1 holding 0101: R's HQ at %s, contacts %+v, union spots k1 %v; want 0102, one contact with k1 at 0101 shown to both, spotted",
						fog, hexOf(g, hq), contacts, !g.State().Hidden("union", "k1"))
				}
			default:
				if hexOf(g, hq) != "0101" || len(contacts) != 0 {
					t.Errorf("%s: k1 away: R's HQ at %s, contacts %+v; want 0101 and none", fog, hexOf(g, hq), contacts)
				}
			}
		}
	}
}

// moveScenario: Union V's HQ at 0103 and U's at 0203, W with no HQ (its
// leader Warren at 0607, in a wood, acts as it); Confederate k1 in line
// at 0102, k2 in open order at 0303, cavalry k3 mounted at 1107.
const moveScenario = `
name: moves
rules: lob
turns: 2
map:
  columns: 12
  rows: 12
  layout: odd-q
  terrain: |
    ............
    ............
    ............
    ............
    ............
    ............
    .....w......
    ............
    ............
    ............
    ............
    ............
sides:
  - id: union
    nation: union
    edge: west
    hq: "0112"
    army: {id: pope, at: "0112", range: 4, value: 2}
    divisions:
      - id: V
        general: {id: v-g, at: "0105", range: 3, value: 2}
        hq: "0103"
        units:
          - {id: v1, type: infantry, at: "0106", formation: line, strength: 3}
      - id: U
        general: {id: u-g, at: "0205", range: 3, value: 2}
        hq: "0203"
        units:
          - {id: u1, type: infantry, at: "0206", formation: line, strength: 3}
      - id: W
        general: {id: w-g, at: "0607", range: 3, value: 2}
        units:
          - {id: w1, type: infantry, at: "0609", formation: line, strength: 3}
  - id: confederate
    nation: confederate
    edge: east
    army: {id: lee, at: "1212", range: 4, value: 3}
    divisions:
      - id: K
        general: {id: k-g, at: "0401", range: 12, value: 2}
        hq: "0401"
        order: {kind: attack, objective: "0607"}
        units:
          - {id: k1, type: infantry, at: "0102", formation: line, strength: 3}
          - {id: k2, type: infantry, at: "0303", formation: open-order, strength: 3}
          - {id: k3, type: cavalry, at: "1107", formation: mounted, strength: 3}
`

// TestSkedaddleByMove (10.9): a unit in line or mounted that enters an
// enemy HQ's hex on its move, ending there or passing through, makes the
// Command skedaddle; open order infantry does not. Under fog of war a
// mover that enters the hex of an HQ (or of the leader acting as it) its
// side did not spot comes upon it: a contact, so that the side knows what
// its unit found, then the skedaddle.
func TestSkedaddleByMove(t *testing.T) {
	r := engine(t)
	sc := gametest.Read(t, r, "moves.yaml", []byte(moveScenario))
	skedaddled := func(g *game.Game, id string) bool { return lob.StateOf(g.State()).Formation(id).Skedaddle }
	move := func(g *game.Game, unit string, path ...string) []game.Event {
		t.Helper()
		evs, err := g.Do(game.Command{Side: "confederate", Verb: "move", Args: &lob.Args{Unit: unit, To: path[len(path)-1], Path: path}})
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	toTurn(t, g, 1, "confederate", lob.StepMove)
	move(g, "k1", "0103", "0104") // through V's HQ hex
	if !skedaddled(g, "V") {
		t.Error("V did not skedaddle when k1, in line, passed through its HQ's hex")
	}
	move(g, "k2", "0203") // open order, into U's HQ hex
	if skedaddled(g, "U") {
		t.Error("U skedaddled when k2, in open order, entered its HQ's hex")
	}

	for _, fog := range []string{game.FogOn, game.FogStrict} {
		g, err := game.New(sc, r, game.Seeded(1), game.WithFog(fog))
		if err != nil {
			t.Fatal(err)
		}
		toTurn(t, g, 1, "confederate", lob.StepMove)
		if !g.State().Hidden("confederate", "w-g") {
			t.Fatalf("%s: the Confederates spot Warren in the wood before k3 moves", fog)
		}
		evs := move(g, "k3", "1007", "0907", "0807", "0707", "0607", "0507")
		var types []string
		for _, e := range evs {
			types = append(types, e.Type)
			if d, ok := e.Data.(*game.Contact); ok && (d.Piece != "k3" || d.Met != "w-g" || d.At != "0607") {
				t.Errorf("%s: the contact is %+v; want k3 upon w-g at 0607", fog, d)
			}
		}
		if want := []string{lob.EvMoved, game.Contacted, lob.EvSkedaddle}; len(types) < 3 || !slices.Equal(types[:3], want) {
			t.Errorf("%s: k3's move through Warren's hex makes %v; want %v first", fog, types, want)
		}
		if !skedaddled(g, "W") || g.State().Hidden("confederate", "w-g") {
			t.Errorf("%s: W skedaddled %v, Warren spotted %v; want both", fog, skedaddled(g, "W"), !g.State().Hidden("confederate", "w-g"))
		}
	}
}
