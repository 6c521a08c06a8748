package lob_test

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/rules/lob"
)

// toOrders plays the demo with every side ready until side's orders step.
func toOrders(t *testing.T, g *game.Game, side string) {
	t.Helper()
	toStep(t, g, side, lob.StepOrders)
}

func board(t *testing.T, r *lob.Rules, g *game.Game, seat string) lob.Board {
	t.Helper()
	b, ok := r.Annotate(r.View(g.State(), seat), g.Step(), seat).(lob.Board)
	if !ok {
		t.Fatal("Annotate gives no lob.Board")
	}
	return b
}

// TestPageOrder follows an order as the page sees it (LOB-4): the army
// commander is offered issue before his command roll and not after; the
// forecast names the command roll with his value and the delivery time
// from the example chart; the issued order shows in its side's board with
// its stage and not in the enemy's; once it has arrived, the board gives
// the exact odds of the acceptance roll coming.
func TestPageOrder(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(7))
	if err != nil {
		t.Fatal(err)
	}
	toOrders(t, g, "union")
	offers := r.Offers(r.View(g.State(), "union"), g.Step(), "union")
	if !slices.Contains(offers["pope"], "issue") {
		t.Fatalf("pope is not offered issue before his command roll: %v", offers["pope"])
	}
	if !slices.Contains(offers["banks"], "issue") {
		t.Errorf("a corps leader is not offered issue to his divisions: %v", offers["banks"])
	}
	if !slices.Contains(offers["gordon"], "release") {
		t.Errorf("the reserve brigade gordon is not offered release: %v", offers["gordon"])
	}
	if len(r.Offers(r.View(g.State(), "confederate"), g.Step(), "confederate")) != 0 {
		t.Error("the side not in its player turn is offered commands")
	}
	args := &lob.Args{To: "II", Kind: lob.Attack, Objective: "1005"}
	fc, err := r.Forecast(sc, g.State(), "union", args)
	if err != nil {
		t.Fatal(err)
	}
	if len(fc) != 1 || fc[0].Table != "lob/command-roll" || fc[0].Params["value"] != "2" || fc[0].Params["release"] != "false" {
		t.Fatalf("the forecast of pope's order is %+v; want lob/command-roll with value 2, release false", fc)
	}
	if !strings.Contains(fc[0].Note, "delivered in") || len(fc[0].Path) != 2 {
		t.Errorf("the forecast does not give the delivery and its line: %+v", fc[0])
	}
	if _, err := r.Forecast(sc, g.State(), "union", &lob.Args{To: "II", Kind: lob.Move}); err == nil || !strings.Contains(err.Error(), "destination") {
		t.Errorf("a move order without its destination forecasts as %v; Command refuses it", err)
	}
	// Roll until the command roll passes on some seed of the game.
	issued := false
	for seed := uint64(1); seed < 40 && !issued; seed++ {
		g, err = game.New(sc, r, game.Seeded(seed))
		if err != nil {
			t.Fatal(err)
		}
		toOrders(t, g, "union")
		evs, err := g.Do(game.Command{Side: "union", Verb: "issue", Args: args})
		if err != nil {
			t.Fatal(err)
		}
		issued = len(evs) > 0 && evs[0].Rolls[0].Result == "issued"
	}
	if !issued {
		t.Fatal("no seed in 40 passes pope's command roll")
	}
	b := board(t, r, g, "union")
	if !b.Rolled {
		t.Error("the board does not say pope has rolled")
	}
	if slices.Contains(r.Offers(r.View(g.State(), "union"), g.Step(), "union")["pope"], "issue") {
		t.Error("pope is offered a second command roll in one turn")
	}
	i := slices.IndexFunc(b.Orders, func(o lob.OrderBox) bool { return o.To == "II" && o.Kind == lob.Attack })
	if i < 0 {
		t.Fatalf("the issued order is not on the union board: %+v", b.Orders)
	}
	o := b.Orders[i]
	// Pope stands at 0308, the army HQ at 0208: he may not order it to
	// move (9.2a), and the page is not offered it.
	if !slices.Contains(b.Recipients, "II") || slices.Contains(b.Recipients, "hq") || slices.Contains(b.Recipients, "winder") {
		t.Errorf("the army commander's recipients are %v; want the union's Commands, and not hq while he is not stacked with it", b.Recipients)
	}
	place(t, g, "pope", "0208")
	if b := board(t, r, g, "union"); !slices.Contains(b.Recipients, "hq") {
		t.Errorf("pope stacked with the army HQ: the recipients are %v; want hq among them", b.Recipients)
	}
	if !o.Live {
		t.Error("an issued order is not live")
	}
	if o.Stage != lob.Issued || !strings.Contains(o.Words, "attack 1005 to II Corps: issued") {
		t.Errorf("the order shows as %q (%s); want issued", o.Words, o.Stage)
	}
	if slices.ContainsFunc(board(t, r, g, "confederate").Orders, func(x lob.OrderBox) bool { return x.ID == o.ID }) {
		t.Error("the confederate board shows the union's order")
	}
	// Play on to the union's acceptance step after it arrives.
	for n := 0; n < 200; n++ {
		b = board(t, r, g, "union")
		if slices.ContainsFunc(b.Odds, func(x lob.Odds) bool { return x.Subject == o.ID }) {
			break
		}
		if _, err := g.Do(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
			t.Fatal(err)
		}
	}
	j := slices.IndexFunc(b.Odds, func(x lob.Odds) bool { return x.Subject == o.ID })
	if j < 0 {
		t.Fatalf("no acceptance odds for %s on the board", o.ID)
	}
	od := b.Odds[j]
	if od.Table != "lob/acceptance" || od.Params["value"] != "3" || od.Params["order"] != "attack" {
		t.Errorf("the acceptance odds are %+v; want lob/acceptance with banks's value 3 for an attack", od)
	}
	sum := new(big.Rat)
	for _, c := range od.Chance {
		p, ok := new(big.Rat).SetString(strings.Fields(c)[0])
		if !ok {
			t.Fatalf("chance %q is not exact", c)
		}
		sum.Add(sum, p)
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("the acceptance chances sum to %s, not 1", sum.RatString())
	}
}

// TestPageMove: in the movement step a unit's reach lists hexes with
// their cost, and marks those the command radius forbids (LOB-2); the
// forecast of a move gives its path.
func TestPageMove(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(3))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 100; n++ {
		if st := g.Step(); st.Name == lob.StepMove && slices.Contains(st.Actors, "union") {
			break
		}
		if _, err := g.Do(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
			t.Fatal(err)
		}
	}
	b := board(t, r, g, "union")
	u, ok := b.Units["28-ny"]
	if !ok || len(u.Reach) == 0 {
		t.Fatalf("28-ny has no reach in its movement step: %+v", u)
	}
	if _, ok := b.Units["21-va"]; ok {
		t.Error("the union board holds a confederate unit's movement")
	}
	fc, err := r.Forecast(sc, g.State(), "union", &lob.Args{Unit: "28-ny", To: "0905"})
	if err != nil {
		t.Fatal(err)
	}
	if len(fc) != 1 || len(fc[0].Path) != 2 || !strings.Contains(fc[0].Note, "MP") {
		t.Errorf("the move's forecast is %+v; want a path of two hexes and its cost", fc)
	}
	if !slices.ContainsFunc(u.Reach, func(c lob.ReachCell) bool { return sc.Map.Format(c.At) == "0905" }) {
		t.Error("0905, next to 28-ny, is not in its reach")
	}
	for _, id := range []string{"banks", "hq:II"} {
		if m, ok := b.Movers[id]; !ok || m.Left == "" || len(m.Reach) == 0 {
			t.Errorf("%s has no movement and reach in the union's movement step: %+v", id, m)
		}
	}
	if _, ok := b.Movers["hq:union"]; ok {
		t.Error("the army HQ is offered a move without an order to move it")
	}
	if sh := r.Shapes(); !slices.Equal(sh["artillery"], []string{"limbered", "unlimbered"}) || slices.Contains(sh["infantry"], "mounted") {
		t.Errorf("the formations by arm are %v", sh)
	}
}

// BenchmarkBoard builds a seat's board in its movement step: the view,
// every unit's, leader's and HQ's reach, the orders and the odds to come,
// as the server does for each page and each event.
func BenchmarkBoard(b *testing.B) {
	r := engine(b)
	sc := demo(b, r)
	g, err := game.New(sc, r, game.Seeded(3))
	if err != nil {
		b.Fatal(err)
	}
	for n := 0; n < 100; n++ {
		if st := g.Step(); st.Name == lob.StepMove && slices.Contains(st.Actors, "union") {
			break
		}
		if _, err := g.Do(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		v := r.View(g.State(), "union")
		if bd := r.Annotate(v, g.Step(), "union").(lob.Board); len(bd.Units) == 0 {
			b.Fatal("no units on the board")
		}
	}
}

// toStep plays the demo with every side ready until side's step name.
func toStep(t *testing.T, g *game.Game, side, name string) {
	t.Helper()
	for n := 0; n < 200; n++ {
		if st := g.Step(); st.Name == name && slices.Contains(st.Actors, side) {
			return
		}
		if _, err := g.Do(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("no %s step of %s", name, side)
}

// TestPageEndings: an order declared fulfilled shows so and is not
// offered again (LOB-7); an attack ended as futile shows as futile, not
// as a fluke, and its units are held back with that reason.
func TestPageEndings(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(5))
	if err != nil {
		t.Fatal(err)
	}
	toOrders(t, g, "confederate")
	offers := r.Offers(r.View(g.State(), "confederate"), g.Step(), "confederate")
	if !slices.Contains(offers["winder"], "fulfil") || !slices.Contains(offers["winder"], "futile") {
		t.Fatalf("winder, executing an attack, is offered %v", offers["winder"])
	}
	if _, err := g.Do(game.Command{Side: "confederate", Verb: "fulfil", Args: &lob.Args{Formation: "winder"}}); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(r.Offers(r.View(g.State(), "confederate"), g.Step(), "confederate")["winder"], "fulfil") {
		t.Error("an order declared fulfilled is offered fulfil again")
	}
	b := board(t, r, g, "confederate")
	if !slices.Contains(b.Formations["winder"].Status, "declared-fulfilled") {
		t.Errorf("winder's status is %v; want declared-fulfilled", b.Formations["winder"].Status)
	}
	if i := slices.IndexFunc(b.Orders, func(o lob.OrderBox) bool { return o.To == "winder" && o.Live }); i < 0 || !strings.Contains(b.Orders[i].Words, "declared fulfilled") {
		t.Errorf("winder's order does not say it is declared fulfilled: %+v", b.Orders)
	}

	g, err = game.New(sc, r, game.Seeded(5))
	if err != nil {
		t.Fatal(err)
	}
	toOrders(t, g, "confederate")
	if _, err := g.Do(game.Command{Side: "confederate", Verb: "futile", Args: &lob.Args{Formation: "winder"}}); err != nil {
		t.Fatal(err)
	}
	st := board(t, r, g, "confederate").Formations["winder"].Status
	if !slices.Contains(st, lob.Futile) || slices.Contains(st, lob.Fluked) {
		t.Errorf("winder's status after futile is %v; want futile, not fluked", st)
	}
	if got := board(t, r, g, "union").Formations["winder"].Status; !slices.Contains(got, lob.Futile) {
		t.Errorf("the union sees winder as %v; a withdrawal shows on the map", got)
	}
	toStep(t, g, "confederate", lob.StepMove)
	for _, c := range board(t, r, g, "confederate").Units["21-va"].Reach {
		if strings.Contains(c.Why, "fluke stoppage") {
			t.Fatalf("a hex is refused for a fluke that never happened: %s", c.Why)
		}
	}
}

// TestPageArmyHQ: the army HQ moves only toward the destination of its
// order (LOB-4): hexes away from it are marked refused in its reach, and
// a move there is refused.
func TestPageArmyHQ(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	var g *game.Game
	for seed := uint64(1); seed < 40; seed++ {
		var err error
		if g, err = game.New(sc, r, game.Seeded(seed)); err != nil {
			t.Fatal(err)
		}
		toOrders(t, g, "union")
		place(t, g, "pope", "0208") // stacked with the army HQ (9.2a)
		evs, err := g.Do(game.Command{Side: "union", Verb: "issue", Args: &lob.Args{To: "hq", Objective: "0508"}})
		if err != nil {
			t.Fatal(err)
		}
		if evs[0].Rolls[0].Result == "issued" {
			break
		}
		g = nil
	}
	if g == nil {
		t.Fatal("no seed in 40 passes pope's command roll")
	}
	toStep(t, g, "union", lob.StepMove)
	if got := board(t, r, g, "union").HQOrder; !strings.Contains(got, "moving toward 0508") {
		t.Errorf("the board words the army HQ's order as %q", got)
	}
	if got := board(t, r, g, "confederate").HQOrder; !strings.Contains(got, "no move order") {
		t.Errorf("the confederate board words its army HQ, which has no order, as %q", got)
	}
	box, ok := board(t, r, g, "union").Movers["hq:union"]
	if !ok || len(box.Reach) == 0 {
		t.Fatalf("the army HQ under a move order has no reach: %+v", box)
	}
	refused := 0
	for _, c := range box.Reach {
		if c.Why != "" {
			refused++
			if sc.Map.Format(c.At) == "0308" {
				t.Error("0308, toward 0508, is refused")
			}
		}
	}
	if refused == 0 {
		t.Error("no hex of the army HQ's reach is refused, though it moves only toward 0508")
	}
	if _, err := g.Do(game.Command{Side: "union", Verb: "move", Args: &lob.Args{Army: true, To: "0108"}}); err == nil || !strings.Contains(err.Error(), "not nearer") {
		t.Errorf("moving the army HQ away from its destination: %v", err)
	}
	if _, err := g.Do(game.Command{Side: "union", Verb: "move", Args: &lob.Args{Army: true, To: "0308"}}); err != nil {
		t.Errorf("moving the army HQ toward its destination: %v", err)
	}
}

// TestPageFirstAcceptance: an order issued this turn that arrives next
// turn has its first acceptance roll among the rolls to come.
func TestPageFirstAcceptance(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(2))
	if err != nil {
		t.Fatal(err)
	}
	toOrders(t, g, "union")
	evs, err := g.Do(game.Command{Side: "union", Verb: "issue", Args: &lob.Args{From: "banks", To: "II-1", Kind: lob.Attack, Objective: "1105"}})
	if err != nil {
		t.Fatal(err)
	}
	var is *lob.Issue
	for _, e := range evs {
		if d, ok := e.Data.(*lob.Issue); ok {
			is = d
		}
	}
	if is == nil || is.Order.Arrives != 2 {
		t.Fatalf("banks's order to II-1 is %+v; want it to arrive on turn 2", is)
	}
	b := board(t, r, g, "union")
	if !slices.ContainsFunc(b.Odds, func(o lob.Odds) bool { return o.Subject == is.Order.ID && o.Table == "lob/acceptance" }) {
		t.Errorf("the first acceptance roll of %s, due on turn 2, is not among the rolls to come: %+v", is.Order.ID, b.Odds)
	}
}

// TestFlukeReserve: a division's reserve brigade counts for its fluke
// stoppage checks (10.7c) only while it has a unit left on the map.
func TestFlukeReserve(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(4))
	if err != nil {
		t.Fatal(err)
	}
	toOrders(t, g, "union")
	if _, err := g.Do(game.Command{Side: "union", Verb: "issue", Args: &lob.Args{From: "banks", To: "II-1", Kind: lob.Attack, Objective: "1105"}}); err != nil {
		t.Fatal(err)
	}
	fluke := func() *lob.Odds {
		for _, o := range board(t, r, g, "union").Odds {
			if o.Subject == "II-1" && o.Table == "lob/fluke" {
				return &o
			}
		}
		return nil
	}
	for n := 0; n < 300 && fluke() == nil; n++ {
		if _, err := g.Do(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
			t.Fatal(err)
		}
	}
	o := fluke()
	if o == nil {
		t.Fatal("II-1 never came to a fluke stoppage check")
	}
	if o.Params["reserve"] != "true" {
		t.Fatalf("II-1's fluke check has reserve %s with gordon in reserve", o.Params["reserve"])
	}
	toStep(t, g, "union", lob.StepCombat)
	for _, u := range []struct {
		id     string
		points int
	}{{"2-mass", 4}, {"3-wis", 3}} {
		if _, err := g.Do(game.Command{Side: "union", Verb: "loss", Args: &lob.Args{Unit: u.id, Points: u.points}}); err != nil {
			t.Fatal(err)
		}
	}
	if o := fluke(); o == nil || o.Params["reserve"] != "false" {
		t.Fatalf("II-1's fluke check once gordon's units are gone: %+v; want reserve false", o)
	}
}
