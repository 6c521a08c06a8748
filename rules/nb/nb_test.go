package nb_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"orderly/battle"
	"orderly/dice"
	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/rules"
	"orderly/rules/nb"
	"orderly/script"
	"orderly/table"
)

func engine(t testing.TB, house ...table.Source) *nb.Rules {
	t.Helper()
	set, err := table.Load(rules.Builtin(), house...)
	if err != nil {
		t.Fatal(err)
	}
	r, err := nb.New(set)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func scenarioOf(t testing.TB, r *nb.Rules, path string) *battle.Scenario {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	eng := func(string) (game.Rules, error) { return r, nil }
	if strings.HasPrefix(path, "testdata/") {
		// A scenario alone, not a script.
		sc, err := script.LoadScenario(path, data, eng)
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	s, err := script.Load(path, data, eng, script.Disk)
	if err != nil {
		t.Fatal(err)
	}
	return s.Scenario
}

// engagement compares every division's engagement with a check of every
// pair of units (NB-6: within 17" of an un-routed enemy unit).
func engagement(t *testing.T, g *game.Game) {
	s := nb.StateOf(g.State())
	want := map[string]map[string]bool{}
	for _, u := range s.Units {
		for _, v := range s.Units {
			if u.Side == v.Side || !u.OnTable || !v.OnTable || v.Status == "routed" || !u.At.Within(v.At, 17) {
				continue
			}
			if want[u.Division] == nil {
				want[u.Division] = map[string]bool{}
			}
			want[u.Division][v.Division] = true
		}
	}
	for _, f := range s.Formations {
		if f.Kind != battle.Division {
			continue
		}
		if f.Engaged != (len(want[f.ID]) > 0) || len(f.With) != len(want[f.ID]) {
			log := g.Log()
			for _, e := range log[max(0, len(log)-6):] {
				t.Logf("%d %s %s", e.Seq, e.Type, g.Describe(&e, nil))
			}
			t.Fatalf("turn %d: division %s engaged=%v with %v; pairs of units give %v", g.State().Turn, f.ID, f.Engaged, f.With, want[f.ID])
		}
		for _, w := range f.With {
			if !want[f.ID][w] {
				t.Fatalf("division %s is engaged with %s, which has no unit in reach", f.ID, w)
			}
		}
	}
}

// secrets checks that a side's view of an NB game holds none of the other
// side's orders, what its messengers carry, its reserves, or its pieces
// off the table.
func secrets(t *testing.T, g *game.Game) {
	for _, side := range g.Scenario().Sides {
		v := g.View(side.ID)
		for _, e := range v.Events {
			d := nb.DataOf(&e)
			if e.Side != side.ID && d != nil && (d.Order != nil || d.OrderID != "" || e.Type == nb.ReserveScheduled) {
				t.Fatalf("view of %s has the other side's order or secret roll in event %d (%s)", side.ID, e.Seq, e.Type)
			}
		}
		s := nb.StateOf(v.State)
		for _, o := range s.Orders {
			if o.Side != side.ID {
				t.Fatalf("view of %s has order %s of %s", side.ID, o.ID, o.Side)
			}
		}
		for _, m := range s.Messengers {
			if m.Side != side.ID && (m.Order != "" || m.To != "") {
				t.Fatalf("view of %s shows what messenger %s carries", side.ID, m.ID)
			}
		}
		for _, f := range s.Formations {
			if f.Side != side.ID && (f.Order != nil || f.Then != nil || f.Entry != 0 || f.Reserve != "" || (f.Square != "" && !f.Placed)) {
				t.Fatalf("view of %s shows the orders or reserve of formation %s", side.ID, f.ID)
			}
		}
		for _, u := range s.Units {
			if u.Side != side.ID && !u.OnTable {
				t.Fatalf("view of %s shows unit %s, which is off the table", side.ID, u.ID)
			}
		}
	}
}

// TestConformance runs the engine's conformance suite on NB scenarios,
// checking engagement against all pairs after every command.
func TestConformance(t *testing.T) {
	r := engine(t)
	for _, path := range []string{"../../examples/nb/seed-example.yaml", "../../examples/nb/nb-10-off-board-reserve.yaml", "../../examples/nb/nb-11-hierarchy.yaml"} {
		sc := scenarioOf(t, r, path)
		gametest.Conformance(t, r, sc, 4, engagement, secrets)
	}
}

// TestConformanceSynthetic plays random games on a generated field.
func TestConformanceSynthetic(t *testing.T) {
	r := engine(t)
	sc, err := gametest.Army{Rules: "nb", Nations: [2]string{"french", "british"}, Quality: "average",
		Units: 60, Divisions: 8, Corps: 4, Range: 6}.Build()
	if err != nil {
		t.Fatal(err)
	}
	sc.Turns = 6
	gametest.Conformance(t, r, sc, 3, engagement, secrets)
}

// benchRules lets each army commander write many orders a turn (a house
// rule on NB-2), so that a benchmark keeps 200 messengers in flight.
var benchRules = table.Source{Name: "bench.yaml", Data: []byte(`
lookups:
  - id: nb/orders-per-turn
    cells: {french: "500", british: "500", russian-1792-1808: "1", russian-1809-1814: "1",
      prussian-1792-1806: "1", prussian-1813-1815: "1", austrian-1792-1806: "1", austrian-1807-1815: "1", other: "1"}
`)}

// BenchmarkTurn plays whole turns of a field with N combat units, about one
// general per 20 units and 200 messengers in flight: each turn both sides
// write orders, messengers ride and deliver, orders are read and rolled,
// a twentieth of the units move, engagement is recomputed and command
// range is checked.
func BenchmarkTurn(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) { benchTurn(b, n, game.FogOff) })
	}
}

// BenchmarkTurnFog is BenchmarkTurn played with fog of war: after every
// event the engine works out what each side spots and narrows the event's
// audience (issue 15). Compared with BenchmarkTurn in the same run, it
// shows what fog of war costs at each size (issue 32: at most 4 times).
func BenchmarkTurnFog(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) { benchTurn(b, n, game.FogOn) })
	}
}

func benchTurn(b *testing.B, n int, fog string) {
	r := engine(b, benchRules)
	divs := n / 21
	corps := max(2, divs/27)
	sc, err := gametest.Army{Rules: "nb", Nations: [2]string{"french", "british"}, Quality: "average",
		Units: n, Divisions: divs, Corps: corps, Range: 8}.Build()
	if err != nil {
		b.Fatal(err)
	}
	var g *game.Game
	var t *turner
	reset := func() {
		g, err = game.New(sc, r, game.Seeded(1), game.WithFog(fog))
		if err != nil {
			b.Fatal(err)
		}
		t = &turner{g: g, sc: sc}
		for range 12 { // reach a steady state of messengers in flight
			t.turn(b)
		}
	}
	reset()
	t.riding = 0
	b.ReportAllocs()
	// What a fresh game leaves to collect is collected before the timer
	// runs, so that the turns timed pay for their own garbage alone.
	runtime.GC()
	b.ResetTimer()
	// The process's CPU time while the timer runs, beside the wall time.
	var cpu time.Duration
	from := cpuTime()
	for i := 0; i < b.N; i++ {
		// A fresh game every 30 turns keeps the log (and the heap) the
		// size of a real game's.
		if g.State().Turn > 42 {
			b.StopTimer()
			cpu += cpuTime() - from
			riding := t.riding
			reset()
			t.riding = riding
			runtime.GC()
			from = cpuTime()
			b.StartTimer()
		}
		t.turn(b)
	}
	if cpu += cpuTime() - from; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(t.riding)/float64(b.N), "messengers")
	b.ReportMetric(float64(len(nb.StateOf(g.State()).Generals)), "generals")
}

// turner plays turns of the benchmark.
type turner struct {
	g    *game.Game
	sc   *battle.Scenario
	next int
	sign float64
	// by[side][k] lists the indices of the side's units moved on turns
	// k, k+20, k+40...
	by [][20][]int
	// riding sums the messengers in flight at the end of each turn.
	riding int
}

func (t *turner) turn(b *testing.B) {
	g := t.g
	for g.Step().Name != "write" {
		t.end(b)
	}
	// Orders are written until 200 messengers ride for every 10,000 units
	// (at most 100 a side a turn).
	target := 200 * len(nb.StateOf(g.State()).Units) / 10000
	for _, s := range t.sc.Sides {
		forms := s.Formations
		for range 100 {
			if len(nb.StateOf(g.State()).Messengers) >= target {
				break
			}
			t.next++
			f := forms[1+(t.next*7919)%(len(forms)-1)]
			kind := "defend"
			if t.next%5 == 0 {
				kind = "attack"
			}
			if _, err := g.Do(game.Command{Side: s.ID, Verb: "write", Args: &nb.Args{Write: &nb.Write{For: []string{f.ID}, Kind: kind}}}); err != nil {
				b.Fatal(err)
			}
		}
	}
	for g.Step().Name != "move" {
		t.end(b)
	}
	// A twentieth of the units step forward or back by an inch: each unit
	// moves every 20 turns, forward and back in turn, so none drifts away.
	t.sign = 1
	if (g.State().Turn/20)%2 == 1 {
		t.sign = -1
	}
	if t.by == nil {
		t.by = make([][20][]int, len(t.sc.Sides))
		for i, u := range nb.StateOf(g.State()).Units {
			si := slices.IndexFunc(t.sc.Sides, func(s *battle.Side) bool { return s.ID == u.Side })
			t.by[si][i%20] = append(t.by[si][i%20], i)
		}
	}
	for si, s := range t.sc.Sides {
		units := nb.StateOf(g.State()).Units
		moves := make([]game.Move, 0, len(t.by[si][g.State().Turn%20]))
		for _, i := range t.by[si][g.State().Turn%20] {
			u := units[i]
			moves = append(moves, game.Move{Unit: u.ID, To: geom.Pt(u.At.X, min(max(u.At.Y+t.sign, 0), t.sc.Field.Depth))})
		}
		if len(moves) > 0 {
			if _, err := g.Do(game.Command{Side: s.ID, Verb: "move", Args: &nb.Args{Moves: moves}}); err != nil {
				b.Fatal(err)
			}
		}
	}
	t.end(b)
	t.riding += len(nb.StateOf(g.State()).Messengers)
}

func (t *turner) end(b *testing.B) {
	if _, err := t.g.Do(game.Command{Side: game.Umpire, Verb: "end"}); err != nil {
		b.Fatal(err)
	}
}

// TestReady checks that a player step ends once every side is ready, that
// a side cannot be ready twice, and that the umpire ends steps with end.
func TestReady(t *testing.T) {
	r := engine(t)
	sc := scenarioOf(t, r, "../../examples/nb/seed-example.yaml")
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	start := g.Step()
	sides := []string{sc.Sides[0].ID, sc.Sides[1].ID}
	if _, err := g.Do(game.Command{Side: game.Umpire, Verb: "ready"}); err == nil {
		t.Error("the umpire was let say ready")
	}
	evs, err := g.Do(game.Command{Side: sides[0], Verb: "ready"})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].Type != game.SideReady || evs[0].Side != sides[0] || evs[0].See != game.All {
		t.Fatalf("ready gave %+v", evs)
	}
	if g.Step().Name != start.Name || !slices.Equal(g.State().Ready, sides[:1]) {
		t.Fatalf("one side ready moved the game to %+v, ready %v", g.Step(), g.State().Ready)
	}
	n, h := g.Len(), g.Hash()
	if _, err := g.Do(game.Command{Side: sides[0], Verb: "ready"}); err == nil || g.Len() != n || g.Hash() != h {
		t.Errorf("a second ready from %s: err %v, log %d -> %d", sides[0], err, n, g.Len())
	}
	if _, err := g.Do(game.Command{Side: sides[1], Verb: "ready"}); err != nil {
		t.Fatal(err)
	}
	if s := g.Step(); s.Phase == start.Phase && s.Name == start.Name && g.State().Turn == 1 {
		t.Fatalf("both sides ready left the game in %+v", s)
	}
	if len(g.State().Ready) != 0 {
		t.Errorf("ready %v carried into the next step", g.State().Ready)
	}
	// The log replays to the same state, readiness included.
	if _, err := g.Do(game.Command{Side: sides[1], Verb: "ready"}); err != nil {
		t.Fatal(err)
	}
	re, err := game.Replay(sc, r, g.Log())
	if err != nil || re.Hash() != g.Hash() || !slices.Equal(re.State().Ready, sides[1:]) {
		t.Fatalf("replay: %v, ready %v", err, re.State().Ready)
	}
}

// TestVerifiableDice plays the demo with committed dice under two seeds
// (the second made when the first is revealed) and checks every roll
// against them; a changed face, a wrong key or a seed still secret is
// caught.
func TestVerifiableDice(t *testing.T) {
	r := engine(t)
	data, err := os.ReadFile("../../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.LoadScenario("demo.yaml", data, func(string) (game.Rules, error) { return r, nil })
	if err != nil {
		t.Fatal(err)
	}
	k1, k2 := []byte("first key, 32 bytes long, really"), []byte("second key, 32 bytes long, truly")
	seeds := []game.Seed{{From: 1, Commitment: dice.Commitment(k1), Key: k1}}
	g, err := game.New(sc, r, game.Committed(seeds))
	if err != nil {
		t.Fatal(err)
	}
	end := game.Command{Side: game.Umpire, Verb: "end"}
	// Each step, each side writes an order for one of its corps, so that
	// orders are read and their delays rolled.
	play := func(steps int) {
		for i := range steps {
			for _, side := range []string{"french", "allies"} {
				var corps []string
				for _, f := range nb.StateOf(g.State()).Formations {
					if f.Side == side && f.Kind == battle.Corps {
						corps = append(corps, f.ID)
					}
				}
				w := &nb.Write{For: []string{corps[i%len(corps)]}, Kind: "attack", Objective: &geom.Point{X: 48, Y: 24}}
				_, _ = g.Do(game.Command{Side: side, Verb: "write", Args: &nb.Args{Write: w}})
			}
			if err := g.Exec(end); err != nil {
				t.Fatal(err)
			}
		}
	}
	play(8)
	seeds = append(seeds, game.Seed{From: g.Len() + 1, Commitment: dice.Commitment(k2), Key: k2})
	g.SetDice(game.Committed(seeds))
	play(12)
	log := g.Log()
	v, err := game.VerifyRolls(log, seeds, r.Table)
	if err != nil {
		t.Fatal(err)
	}
	late := 0
	for _, e := range log {
		if e.FirstRoll() != nil && e.Seq >= seeds[1].From {
			late++
		}
	}
	if v.Rolls-late < 3 || late < 3 || v.Secret != 0 {
		t.Fatalf("verified %+v, %d rolls under the second seed; want several under each", v, late)
	}
	// A roll drawn with the first key after the second seed began fails.
	if _, err := game.VerifyRolls(log, seeds[:1], r.Table); err == nil {
		t.Error("rolls under the second seed passed with the first key")
	}
	// A changed face fails, naming the event.
	bad := slices.Clone(log)
	for i := range bad {
		if bad[i].FirstRoll() != nil {
			roll := *bad[i].FirstRoll()
			roll.Faces = []int{roll.Faces[0]%6 + 1}
			roll.Natural = roll.Faces[0]
			bad[i].Rolls = []game.Roll{roll}
			_, err := game.VerifyRolls(bad, seeds, r.Table)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("event %d ", bad[i].Seq)) {
				t.Errorf("a changed face: %v", err)
			}
			break
		}
	}
	// A key that is not the committed one fails.
	wrong := slices.Clone(seeds)
	wrong[1].Key = k1
	if _, err := game.VerifyRolls(log, wrong, r.Table); err == nil || !strings.Contains(err.Error(), "does not match its commitment") {
		t.Errorf("a wrong key: %v", err)
	}
	// A seed still secret is counted, not checked.
	secret := slices.Clone(seeds)
	secret[1].Key = nil
	if v, err := game.VerifyRolls(log, secret, r.Table); err != nil || v.Secret != late {
		t.Errorf("a secret seed: %+v, %v; want %d secret", v, err, late)
	}
}

// TestForecast checks that the odds shown before an order is written are
// those of the roll its reader makes: the seed example's French average
// general reads with +3 (NB-5).
func TestForecast(t *testing.T) {
	r := engine(t)
	sc := scenarioOf(t, r, "../../examples/nb/seed-example.yaml")
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	var f game.Forecaster = r
	var corps string
	for _, fm := range nb.StateOf(g.State()).Formations {
		if fm.Side == "french" && fm.Kind == battle.Corps {
			corps = fm.ID
			break
		}
	}
	fc, err := f.Forecast(sc, g.State(), "french", &nb.Args{Write: &nb.Write{For: []string{corps}, Kind: "attack"}})
	if err != nil || len(fc) != 1 {
		t.Fatalf("forecast: %+v, %v", fc, err)
	}
	st := nb.StateOf(g.State())
	gen := st.General(st.Formation(corps).General)
	if fc[0].Table != "nb/order-delay" || fc[0].General != gen.ID || fc[0].Params["nation"] != "french" || fc[0].Params["quality"] != gen.Quality {
		t.Errorf("forecast %+v for general %s (%s)", fc[0], gen.ID, gen.Quality)
	}
	for _, bad := range []nb.Write{{For: []string{"nobody"}}, {}, {For: []string{"british-army-nope"}}} {
		if _, err := f.Forecast(sc, g.State(), "french", &nb.Args{Write: &bad}); err == nil {
			t.Errorf("forecast for %v: no error", bad.For)
		}
	}
	if _, err := f.Forecast(sc, g.State(), "prussians", &nb.Args{Write: &nb.Write{For: []string{corps}}}); err == nil {
		t.Error("forecast for a side not in the game: no error")
	}
	if got := game.Reacher(r).Reach(); got != 17 {
		t.Errorf("engagement reach %g, want 17 (NB-6)", got)
	}
}

// TestForget checks that a game that forgets the start of its log goes on
// exactly like one that keeps it: same numbering, same events, same state.
func TestForget(t *testing.T) {
	r := engine(t)
	sc := scenarioOf(t, r, "../../examples/nb/seed-example.yaml")
	a, err := game.New(sc, r, game.Seeded(3))
	if err != nil {
		t.Fatal(err)
	}
	b, err := game.New(sc, r, game.Seeded(3))
	if err != nil {
		t.Fatal(err)
	}
	end := game.Command{Side: game.Umpire, Verb: "end"}
	for i := range 30 {
		if i%7 == 3 {
			n := b.Len()
			b.Forget(4)
			if b.Len() != n || b.Base() != n-4 || len(b.Log()) != 4 || b.Log()[0].Seq != n-3 {
				t.Fatalf("after Forget(4): len %d base %d, %d events in memory from %d", b.Len(), b.Base(), len(b.Log()), b.Log()[0].Seq)
			}
		}
		ea, erra := a.Do(end)
		eb, errb := b.Do(end)
		if (erra == nil) != (errb == nil) || len(ea) != len(eb) {
			t.Fatalf("step %d: %v/%v, %d/%d events", i, erra, errb, len(ea), len(eb))
		}
		for j := range ea {
			if ea[j].Seq != eb[j].Seq || ea[j].Type != eb[j].Type {
				t.Fatalf("step %d: event %+v vs %+v", i, ea[j], eb[j])
			}
		}
		if a.Hash() != b.Hash() || a.Len() != b.Len() {
			t.Fatalf("step %d: the games differ", i)
		}
	}
	var seen []int
	b.Scan(0, func(e *game.Event) { seen = append(seen, e.Seq) })
	if len(seen) == 0 || seen[0] != b.Base()+1 || seen[len(seen)-1] != b.Len() {
		t.Errorf("Scan(0) after Forget gave %v, base %d, len %d", seen, b.Base(), b.Len())
	}
}

// TestTableDice plays games to the end with every roll thrown at the
// table, and in mixed dice, where the umpire's secret rolls (order
// delays) stay the server's (issue 15).
func TestTableDice(t *testing.T) {
	r := engine(t)
	for _, path := range []string{"../../examples/nb/seed-example.yaml", "../../examples/nb/nb-10-off-board-reserve.yaml"} {
		t.Run(path[strings.LastIndex(path, "/")+1:], func(t *testing.T) {
			gametest.TableDice(t, r, scenarioOf(t, r, path), 2, game.DiceTable)
			gametest.TableDice(t, r, scenarioOf(t, r, path), 2, game.DiceMixed)
		})
	}
}

// TestBlind is the differential property of fog of war (issue 32): a side
// is given the same whatever hidden enemy pieces do. The scenario with
// woods, a village and a ridge hides pieces well within the reach of
// engagement (NB-6) and of an entering reserve's clearance (NB-10).
func TestBlind(t *testing.T) {
	r := engine(t)
	for _, c := range []struct {
		path  string
		games int
	}{
		{"testdata/fog-woods.yaml", 32},
		{"../../examples/nb/seed-example.yaml", 4},
		{"../../examples/nb/nb-10-off-board-reserve.yaml", 6},
		{"../../examples/nb/nb-11-hierarchy.yaml", 4},
	} {
		t.Run(c.path[strings.LastIndex(c.path, "/")+1:], func(t *testing.T) {
			gametest.Blind(t, r, scenarioOf(t, r, c.path), c.games, probe)
		})
	}
}

// probe aims the side's commands at at, where a hidden enemy unit stands
// in one game of a differential pair: its units near it move toward it,
// onto it, past it and to within 8" of it (the clearance of NB-10), change
// formation (NB-7 waits for engagement), start combat with the unit there
// and its division (NB-6), react (NB-14); its generals ride to it and
// attach to the units near it; and an order is written (and forecast) for
// the formations near it.
func probe(g *game.Game, side string, at geom.Point, rng *rand.Rand) []game.Command {
	s := nb.StateOf(g.State())
	fd := g.Scenario().Field
	inside := func(p geom.Point) geom.Point {
		return geom.Pt(min(max(p.X, 0), fd.Width), min(max(p.Y, 0), fd.Depth)).Round()
	}
	var target []string
	for _, u := range s.Units {
		if u.Side != side && u.OnTable && u.At.Within(at, 0.01) {
			target = append(target, u.ID, u.Division)
		}
	}
	var out []game.Command
	for _, u := range s.Units {
		if u.Side != side || !u.OnTable || !u.At.Within(at, 24) || len(out) > 24 {
			continue
		}
		toward, _ := u.At.Toward(at, u.Speed)
		a := 2 * math.Pi * rng.Float64()
		d := 8 * rng.Float64()
		near := geom.Pt(at.X+d*math.Cos(a), at.Y+d*math.Sin(a))
		past := geom.Pt(2*at.X-u.At.X, 2*at.Y-u.At.Y)
		for _, to := range []geom.Point{toward, at, near, past} {
			out = append(out, game.Command{Verb: "move", Args: &nb.Args{Moves: []game.Move{{Unit: u.ID, To: inside(to)}}}})
		}
		out = append(out,
			game.Command{Verb: "move", Args: &nb.Args{Moves: []game.Move{{Unit: u.ID, To: u.At, Shape: "line"}}}},
			game.Command{Verb: "react", Args: &nb.Args{Units: []string{u.ID}}},
			game.Command{Verb: "write", Args: &nb.Args{Write: &nb.Write{For: []string{u.Division}, Kind: "attack", Objective: &at}}},
		)
		for _, id := range target {
			out = append(out, game.Command{Verb: "combat", Args: &nb.Args{Units: []string{u.ID}, Target: id}})
		}
	}
	for _, gen := range s.Generals {
		if gen.Side != side || !gen.OnTable || !gen.At.Within(at, 24) {
			continue
		}
		out = append(out, game.Command{Verb: "move", Args: &nb.Args{Moves: []game.Move{{General: gen.ID, To: inside(at)}}}})
		for _, u := range s.Units {
			if u.Side == side && u.OnTable && u.At.Within(at, 12) {
				out = append(out, game.Command{Verb: "attach", Args: &nb.Args{General: gen.ID, To: u.ID}})
				break
			}
		}
	}
	// The step's verbs only, and a few of them (orders are soon refused
	// for the turn, NB-2): the pair compares everything after each.
	out = slices.DeleteFunc(out, func(c game.Command) bool { return !slices.Contains(g.Step().Verbs, c.Verb) })
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	n := 10
	if g.Step().Name == "write" {
		n = 2
	}
	return out[:min(len(out), n)]
}

// TestFog is the fog-of-war property test on the scenarios of
// TestConformance.
func TestFog(t *testing.T) {
	r := engine(t)
	for _, path := range []string{"../../examples/nb/seed-example.yaml", "../../examples/nb/nb-10-off-board-reserve.yaml", "../../examples/nb/nb-11-hierarchy.yaml"} {
		t.Run(path[strings.LastIndex(path, "/")+1:], func(t *testing.T) {
			gametest.Fog(t, r, scenarioOf(t, r, path), 4)
		})
	}
}

// TestHiddenAsMissing: with fog of war a command naming an enemy unit,
// division or messenger the side does not spot is refused as one naming
// an id not in the game.
func TestHiddenAsMissing(t *testing.T) {
	r := engine(t)
	sc := scenarioOf(t, r, "../../examples/nb/seed-example.yaml")
	units := func(s *game.State, side string) []string {
		var out []string
		for _, u := range nb.StateOf(s).Units {
			if u.Side != side {
				out = append(out, u.ID)
			}
		}
		return out
	}
	// NB's refusals end with a near match from the seat's view, which
	// differs with the id typed: the words before it are compared, and the
	// near match must be one the seat sees.
	differ := func(g *game.Game, side, id, hid, miss string) string {
		words, hint, _ := strings.Cut(hid, "; did you mean ")
		if want, _, _ := strings.Cut(miss, "; did you mean "); words != want {
			return "they differ before the near match"
		}
		if m := strings.TrimSuffix(hint, "?"); m != "" && !slices.Contains(r.Seen(g.Sees(side)), m) && nb.StateOf(g.Sees(side)).Messenger(m) == nil {
			return "the refusal names " + m + ", which " + side + " does not see"
		}
		return ""
	}
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "rout", IDs: units, Differ: differ, Make: func(_ *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "rout", Args: &nb.Args{Units: []string{id}}}
	}})
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "combat", IDs: units, Differ: differ, Make: func(_ *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "combat", Args: &nb.Args{Target: id}}
	}})
	messengers := func(s *game.State, side string) []string {
		var out []string
		for _, m := range nb.StateOf(s).Messengers {
			if m.Side != side {
				out = append(out, m.ID)
			}
		}
		return out
	}
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "redirect", IDs: messengers, Differ: differ, Make: func(_ *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "redirect", Args: &nb.Args{Messenger: id}}
	}})
}
