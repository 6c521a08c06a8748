package lob_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"orderly/dice"
	"orderly/game"
	"orderly/game/gametest"
	"orderly/rules/lob"
)

// fixed is dice that show the same face on every die, but for the rolls
// named "TURN TABLE SUBJECT" in by.
type fixed struct {
	face int
	by   map[string]int
}

func (f fixed) Roller(k game.RollKey) dice.Roller {
	n := f.face
	if v, ok := f.by[fmt.Sprintf("%d %s %s", k.Turn, k.Table, k.Subject)]; ok {
		n = v
	}
	return dice.NewScripted(n, n)
}

// reserveScenario: corps II (no orders) with division A and division R
// in reserve, all within II's radius of Pope's; II-X, a division of a
// corps under attack orders from the start, with II-X2 beside it.
const reserveScenario = `
name: reserves
rules: lob
turns: 8
map: {columns: 8, rows: 16, layout: odd-q}
sides:
  - id: union
    nation: union
    edge: west
    hq: "0101"
    army: {id: pope, at: "0101", range: 8, value: 3}
    corps:
      - id: II
        general: {id: II-g, at: "0105", range: 4, value: 3}
        hq: "0105"
        divisions:
          - id: A
            general: {id: A-g, at: "0107", range: 2, value: 2}
            hq: "0107"
            units:
              - {id: a1, type: infantry, at: "0207", formation: line, strength: 3}
          - id: R
            reserve: true
            general: {id: R-g, at: "0108", range: 2, value: 2}
            hq: "0108"
            units:
              - {id: r1, type: infantry, at: "0208", formation: column, strength: 3}
      - id: III
        general: {id: III-g, at: "0305", range: 4, value: 2}
        hq: "0305"
        order: {kind: attack, objective: "0710"}
        divisions:
          - id: III-1
            general: {id: III-1-g, at: "0306", range: 2, value: 2}
            hq: "0306"
            units:
              - {id: iii1, type: infantry, at: "0406", formation: line, strength: 3}
          - id: III-2
            general: {id: III-2-g, at: "0308", range: 2, value: 2}
            hq: "0308"
            units:
              - {id: iii2, type: infantry, at: "0408", formation: line, strength: 3}
  - id: confederate
    nation: confederate
    edge: east
    army: {id: lee, at: "0816", range: 4, value: 3}
    divisions:
      - id: c1
        general: {id: c1-g, at: "0815", range: 3, value: 2}
        units:
          - {id: c-u1, type: infantry, at: "0815", formation: line, strength: 3}
`

func reserveGame(t *testing.T, d game.Dice) (*lob.Rules, *game.Game) {
	t.Helper()
	r := engine(t)
	g, err := game.New(gametest.Read(t, r, "reserves.yaml", []byte(reserveScenario)), r, d)
	if err != nil {
		t.Fatal(err)
	}
	return r, g
}

// do gives a command, failing t if it is refused.
func do(t *testing.T, g *game.Game, side, verb string, a *lob.Args) []game.Event {
	t.Helper()
	evs, err := g.Do(game.Command{Side: side, Verb: verb, Args: a})
	if err != nil {
		t.Fatalf("%s %+v: %v", verb, a, err)
	}
	return evs
}

// rolledFor lists the log's rolls on table for subject, by turn.
func rolledFor(g *game.Game, table, subject string) []int {
	var out []int
	for _, e := range g.Log() {
		for _, ro := range e.Rolls {
			if ro.Table == table && ro.Subject == subject {
				out = append(out, e.Turn)
			}
		}
	}
	return out
}

// TestReserveExistingOrders (LOB-5, 10.4c, 10.7b): a new order to a corps
// is relayed to its division in reserve, which keeps it as its existing
// orders with no acceptance roll and stays in reserve, making no fluke
// stoppage checks; once released by initiative it follows them at once
// and checks from the next command phase. The division beside it, not in
// reserve, rolls to accept and checks from the phase after accepting.
func TestReserveExistingOrders(t *testing.T) {
	r, g := reserveGame(t, fixed{face: 6})
	toOrders(t, g, "union")
	do(t, g, "union", "issue", &lob.Args{To: "II", Kind: lob.Attack, Objective: "0114"})
	toTurn(t, g, 3, "union", lob.StepOrders)
	st := lob.StateOf(g.State())
	R, A := st.Formation("R"), st.Formation("A")
	if !R.Reserve {
		t.Fatal("R left reserve when its corps' attack order was relayed to it")
	}
	id := "union-2" // union-1 is III's, from the scenario
	kept := st.Order(id + "/R")
	if kept == nil || !kept.Kept || kept.Stage != lob.Executing || R.Order != kept.ID {
		t.Fatalf("R's relay is %+v and R's order %q; want it kept, executing as R's existing orders", kept, R.Order)
	}
	if got := rolledFor(g, "lob/acceptance", kept.ID); len(got) != 0 {
		t.Errorf("R rolled to accept its relay on turns %v; a relay to a reserve is not an order it accepts", got)
	}
	if got := rolledFor(g, "lob/acceptance", id+"/A"); !slices.Equal(got, []int{3}) || A.Order != id+"/A" {
		t.Errorf("A rolled to accept on turns %v and executes %q; want turn 3 and %s/A", got, A.Order, id)
	}
	b := board(t, r, g, "union")
	if box := b.Formations["R"]; slices.Contains(box.Status, lob.Executing) || !slices.Contains(box.Status, lob.Reserve) {
		t.Errorf("the board's status of R is %v; want reserve, not executing", box.Status)
	}
	if i := slices.IndexFunc(b.Orders, func(o lob.OrderBox) bool { return o.ID == kept.ID }); i < 0 || !b.Orders[i].Kept || !strings.Contains(b.Orders[i].Words, "existing orders") {
		t.Errorf("the board does not show %s as R's existing orders: %+v", kept.ID, b.Orders)
	}
	if !slices.Contains(r.Offers(r.View(g.State(), "union"), g.Step(), "union")["R"], "release") {
		t.Error("R in reserve is not offered release")
	}
	toTurn(t, g, 4, "union", lob.StepOrders)
	if got := rolledFor(g, "lob/fluke", "R"); len(got) != 0 {
		t.Errorf("R, in reserve, checked fluke stoppage on turns %v", got)
	}
	if got := rolledFor(g, "lob/fluke", "A"); !slices.Equal(got, []int{4}) {
		t.Errorf("A checked fluke stoppage on turns %v; want 4", got)
	}
	if slices.ContainsFunc(board(t, r, g, "union").Odds, func(o lob.Odds) bool { return o.Subject == "R" }) {
		t.Error("the board shows a fluke check to come for R in reserve")
	}
	evs := do(t, g, "union", "initiative", &lob.Args{Leader: "II-g", Purpose: "release-reserve", Formation: "R"})
	if in, ok := evs[0].Data.(*lob.Initiative); !ok || in.Follows != kept.ID {
		t.Fatalf("the release by initiative is %+v; want it to follow %s", evs[0].Data, kept.ID)
	}
	st = lob.StateOf(g.State())
	if R = st.Formation("R"); R.Reserve || R.Order != kept.ID || !R.Attacked || R.FlukeFrom != 5 {
		t.Errorf("R released: reserve %v, order %q, attacked %v, fluke from %d; want free, %s, true, turn 5", R.Reserve, R.Order, R.Attacked, R.FlukeFrom, kept.ID)
	}
	toTurn(t, g, 5, "union", lob.StepOrders)
	if got := rolledFor(g, "lob/fluke", "R"); !slices.Equal(got, []int{5}) {
		t.Errorf("R checked fluke stoppage on turns %v; want 5, the phase after its release", got)
	}
}

// TestReserveRelayStart (LOB-5, 10.4c): an order naming the reserve of a
// corps under attack orders is relayed when it reaches the corps HQ, and
// the relay that arrives before the corps accepts waits for it; one that
// leaves the reserve to the corps leader is relayed when he names it,
// which he may do only once the order has reached his HQ.
func TestReserveRelayStart(t *testing.T) {
	// III fails its first acceptance roll (turn 2), passes on turn 3.
	_, g := reserveGame(t, fixed{face: 6, by: map[string]int{"2 lob/acceptance union-2": 1}})
	toOrders(t, g, "union")
	do(t, g, "union", "issue", &lob.Args{To: "III", Kind: lob.Reserve, Reserve: "III-2"})
	toTurn(t, g, 2, "union", lob.StepOrders)
	st := lob.StateOf(g.State())
	relay := st.Order("union-2/III-2")
	if relay == nil || relay.Arrives != 3 || st.Order("union-2").Stage != lob.Awaiting {
		t.Fatalf("on turn 2 the relay is %+v and the order %s; want it sent when the order reached III's HQ, before III accepts", relay, st.Order("union-2").Stage)
	}
	toTurn(t, g, 3, "union", lob.StepOrders)
	var waited, placed bool
	for _, e := range g.Log() {
		switch d := e.Data.(type) {
		case *lob.Begun:
			waited = waited || e.Turn == 3 && slices.Contains(d.Pending, "union-2/III-2") && len(d.Effects) == 0
		case *lob.Acceptance:
			placed = placed || e.Turn == 3 && slices.ContainsFunc(d.Effects, func(ef lob.Effect) bool { return ef.Formation == "III-2" && ef.Reserve })
		}
	}
	if !waited || !placed {
		t.Errorf("the relay arrived on turn 3 before III accepted: waited %v, placed on acceptance %v; want both", waited, placed)
	}
	if st = lob.StateOf(g.State()); !st.Formation("III-2").Reserve || st.Order("union-2").Stage != lob.Done || st.Order("union-2/III-2").Stage != lob.Done {
		t.Errorf("III accepted on turn 3: III-2 reserve %v, order %s, relay %s; want in reserve, done, done", st.Formation("III-2").Reserve, st.Order("union-2").Stage, st.Order("union-2/III-2").Stage)
	}

	// The choice left to the corps leader.
	r, g := reserveGame(t, fixed{face: 6})
	toOrders(t, g, "union")
	do(t, g, "union", "issue", &lob.Args{To: "III", Kind: lob.Reserve})
	name := &lob.Args{Order: "union-2", Formation: "III-2"}
	if _, err := g.Do(game.Command{Side: "union", Verb: "designate", Args: name}); err == nil || !strings.Contains(err.Error(), "has not reached") {
		t.Errorf("naming the reserve before the order reaches the HQ: %v; want it refused", err)
	}
	if slices.Contains(r.Offers(r.View(g.State(), "union"), g.Step(), "union")["III"], "designate") {
		t.Error("designate is offered before the order reaches III's HQ")
	}
	toTurn(t, g, 2, "union", lob.StepOrders)
	st = lob.StateOf(g.State())
	if st.Order("union-2/III-2") != nil || st.Order("union-2").Stage != lob.Accepted {
		t.Fatalf("with no reserve named: relay %+v, order %s; want none, accepted", st.Order("union-2/III-2"), st.Order("union-2").Stage)
	}
	if !slices.Contains(r.Offers(r.View(g.State(), "union"), g.Step(), "union")["III"], "designate") {
		t.Error("designate is not offered once the order has reached III's HQ")
	}
	for _, bad := range []*lob.Args{{Order: "union-2", Formation: "A"}, {Order: "union-2", Formation: "III"}, {Order: "union-1", Formation: "III-2"}} {
		if _, err := g.Do(game.Command{Side: "union", Verb: "designate", Args: bad}); err == nil {
			t.Errorf("designate %+v is accepted", bad)
		}
	}
	toTurn(t, g, 3, "union", lob.StepOrders)
	evs := do(t, g, "union", "designate", name)
	d, ok := evs[0].Data.(*lob.Designation)
	if !ok || d.Relay == nil || d.Relay.Arrives != 4 || d.Placed {
		t.Fatalf("the designation is %+v; want a relay leaving on turn 3, arriving on turn 4", evs[0].Data)
	}
	if _, err := g.Do(game.Command{Side: "union", Verb: "designate", Args: name}); err == nil {
		t.Error("a reserve named twice")
	}
	toTurn(t, g, 4, "union", lob.StepOrders)
	if st = lob.StateOf(g.State()); !st.Formation("III-2").Reserve || st.Order("union-2").Stage != lob.Done {
		t.Errorf("the relay arrived on turn 4: III-2 reserve %v, order %s; want in reserve, done", st.Formation("III-2").Reserve, st.Order("union-2").Stage)
	}
}

// TestConditionFirst (LOB-6, 10.4d): a condition declared in the orders
// step counts as declared before the phase's acceptance rolls: the corps
// and the division whose relay has arrived roll at once, and an order
// already rolled for in the phase is not rolled for again.
func TestConditionFirst(t *testing.T) {
	// II fails its acceptance of a move order on turn 3.
	_, g := reserveGame(t, fixed{face: 6, by: map[string]int{"3 lob/acceptance union-3": 1}})
	toOrders(t, g, "union")
	do(t, g, "union", "issue", &lob.Args{To: "III", Kind: lob.Attack, Objective: "0710", Condition: "when the ford is taken"})
	toTurn(t, g, 2, "union", lob.StepOrders)
	do(t, g, "union", "issue", &lob.Args{To: "II", Kind: lob.Move, Objective: "0112"})
	toTurn(t, g, 3, "union", lob.StepOrders)
	if got := rolledFor(g, "lob/acceptance", "union-2"); len(got) != 0 {
		t.Fatalf("the conditional order was rolled for on turns %v before its condition", got)
	}
	if _, err := g.Do(game.Command{Side: "union", Verb: "condition", Args: &lob.Args{Order: "union-2/III-1"}}); err == nil {
		t.Error("a relay's condition is declared on its own")
	}
	evs := do(t, g, "union", "condition", &lob.Args{Order: "union-2"})
	if len(evs) != 2 || evs[1].Type != lob.EvAccepted {
		t.Fatalf("declaring the condition gives %d events; want the condition and the acceptance rolls", len(evs))
	}
	var subjects []string
	for _, ro := range evs[1].Rolls {
		subjects = append(subjects, ro.Subject)
	}
	if want := []string{"union-2", "union-2/III-1", "union-2/III-2"}; !slices.Equal(subjects, want) {
		t.Errorf("the condition's rolls are for %v; want %v (III and its divisions, not II's order rolled already)", subjects, want)
	}
	if st := lob.StateOf(g.State()); st.Formation("III").Order != "union-2" || st.Formation("III-1").Order != "union-2/III-1" {
		t.Errorf("III executes %q and III-1 %q on turn 3; want union-2 and union-2/III-1", st.Formation("III").Order, st.Formation("III-1").Order)
	}
	if got := rolledFor(g, "lob/acceptance", "union-3"); !slices.Equal(got, []int{3}) {
		t.Errorf("II's order was rolled for on turns %v; want once, on turn 3", got)
	}
}

// TestReserveNoFluke (LOB-5, 10.7b): a division placed in reserve while
// executing an attack order makes no fluke stoppage checks while in
// reserve; the division beside it under the same order does.
func TestReserveNoFluke(t *testing.T) {
	_, g := reserveGame(t, fixed{face: 6})
	toOrders(t, g, "union")
	do(t, g, "union", "initiative", &lob.Args{Leader: "III-g", Purpose: "establish-reserve", Formation: "III-2"})
	toTurn(t, g, 8, "union", lob.StepOrders)
	if !lob.StateOf(g.State()).Formation("III-2").Reserve {
		t.Fatal("III-2 is not in reserve")
	}
	if got := rolledFor(g, "lob/fluke", "III-1"); len(got) == 0 {
		t.Fatal("III-1 never checked fluke stoppage under III's attack order")
	}
	if got := rolledFor(g, "lob/fluke", "III-2"); len(got) != 0 {
		t.Errorf("III-2, in reserve, checked fluke stoppage on turns %v", got)
	}
}

// A reserve still to enter the map is not named (10.4c): a corps under
// attack orders must relay the order to it, and a relay to a formation off
// the map has nowhere to go. Naming III-3 (arriving on turn 5) is refused,
// by the army commander's issue and by the corps leader's designate, and
// changes nothing; once it has entered, the leader names it and the relay
// leaves then.
func TestReserveNotOnMap(t *testing.T) {
	sc := strings.Replace(reserveScenario, `          - id: III-2
            general: {id: III-2-g, at: "0308", range: 2, value: 2}
            hq: "0308"
            units:
              - {id: iii2, type: infantry, at: "0408", formation: line, strength: 3}
`, `          - id: III-2
            general: {id: III-2-g, at: "0308", range: 2, value: 2}
            hq: "0308"
            units:
              - {id: iii2, type: infantry, at: "0408", formation: line, strength: 3}
          - id: III-3
            arrives: 5
            general: {id: III-3-g, at: "0309", range: 2, value: 2}
            hq: "0309"
            units:
              - {id: iii3, type: infantry, at: "0409", formation: line, strength: 3}
`, 1)
	if !strings.Contains(sc, "III-3") {
		t.Fatal("the scenario has no III-3")
	}
	r := engine(t)
	g, err := game.New(gametest.Read(t, r, "reserve.yaml", []byte(sc)), r, fixed{face: 6})
	if err != nil {
		t.Fatal(err)
	}
	toOrders(t, g, "union")
	const want = "III-3 is not on the map (it arrives on turn 5)"
	n := g.Len()
	if _, err := g.Do(game.Command{Side: "union", Verb: "issue", Args: &lob.Args{To: "III", Kind: lob.Reserve, Reserve: "III-3"}}); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("issue naming III-3: %v; want %q", err, want)
	}
	if g.Len() != n {
		t.Fatalf("the refused issue added %d events", g.Len()-n)
	}
	do(t, g, "union", "issue", &lob.Args{To: "III", Kind: lob.Reserve})
	toTurn(t, g, 2, "union", lob.StepOrders)
	n = g.Len()
	if _, err := g.Do(game.Command{Side: "union", Verb: "designate", Args: &lob.Args{Order: "union-2", Formation: "III-3"}}); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("designate naming III-3: %v; want %q", err, want)
	}
	if g.Len() != n || lob.StateOf(g.State()).Formation("III-3").Reserve {
		t.Fatal("the refused designate changed the game")
	}
	// The page is offered only what the leader may name.
	offers := r.Offers(r.View(g.State(), "union"), g.Step(), "union")
	if !slices.Contains(offers["III"], "designate") || !slices.Contains(offers["III-2"], "designate") || slices.Contains(offers["III-3"], "designate") {
		t.Errorf("turn 2 offers III %v, III-2 %v, III-3 %v; want designate for III and III-2, not III-3", offers["III"], offers["III-2"], offers["III-3"])
	}
	toTurn(t, g, 5, "union", lob.StepOrders)
	if offers := r.Offers(r.View(g.State(), "union"), g.Step(), "union"); !slices.Contains(offers["III-3"], "designate") {
		t.Errorf("turn 5 offers III-3 %v once it entered; want designate", offers["III-3"])
	}
	evs := do(t, g, "union", "designate", &lob.Args{Order: "union-2", Formation: "III-3"})
	d, ok := evs[len(evs)-1].Data.(*lob.Designation)
	if !ok || d.Relay == nil || d.Placed {
		t.Fatalf("designate naming III-3 once it entered: %+v; want a relay", evs[len(evs)-1].Data)
	}
}
