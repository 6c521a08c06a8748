package lob_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/rules"
	"orderly/rules/lob"
)

const tablesFile = "../../examples/lob/example-tables.yaml"

// engine is LOB over the built-in tables and the example tables file.
func engine(t testing.TB) *lob.Rules {
	t.Helper()
	set, err := rules.Load(tablesFile)
	if err != nil {
		t.Fatal(err)
	}
	r, err := lob.New(set)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func demo(t testing.TB, r *lob.Rules) *battle.Scenario {
	t.Helper()
	return gametest.ReadFile(t, r, "../../examples/lob/lob-demo.yaml")
}

// TestMissingTables: without the user's tables a LOB game is refused with
// a message that names every missing table and how to supply them; a set
// with only some of them names those.
func TestMissingTables(t *testing.T) {
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	_, err = lob.New(set)
	var miss *lob.Missing
	if !errors.As(err, &miss) || len(miss.IDs) != len(lob.Tables) {
		t.Fatalf("got %v, want every table missing", err)
	}
	for _, want := range []string{"lob/command-roll", "lob/delivery", "lob/fluke", "--rules FILE", "examples/lob/example-tables.yaml"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the message does not say %q: %v", want, err)
		}
	}
	if err := rules.Playable(set); err != nil {
		t.Errorf("the built-in tables alone must stay playable (LOB is checked when a LOB game starts): %v", err)
	}
}

// TestConformance plays random games of the demo under the engine's
// conformance suite.
func TestConformance(t *testing.T) {
	r := engine(t)
	gametest.Conformance(t, r, demo(t, r), 6)
}

// BenchmarkGame plays the demo through all its turns with every side ready
// at once: the automatic steps (arrivals, deliveries, relays, acceptance,
// fluke and recovery) of twelve turns, as a Monte Carlo run does.
func BenchmarkGame(b *testing.B) {
	r := engine(b)
	sc := demo(b, r)
	for i := 0; b.Loop(); i++ {
		g, err := game.New(sc, r, game.Seeded(uint64(i)))
		if err != nil {
			b.Fatal(err)
		}
		for n := 0; !g.State().Over && n < 1000; n++ {
			if _, err := g.Do(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
				b.Fatal(err)
			}
		}
		if !g.State().Over {
			b.Fatal("the game did not end")
		}
	}
}

// FuzzCommand feeds the engine any command text at the start of the demo
// (the union's orders step): it is decoded and carried out or refused with
// an error, never a panic, and a refused command changes nothing.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{
		`{side: union, issue: {to: II, order: attack, objective: "1408", with: [II-art]}}`,
		`{side: union, issue: {to: II, order: reserve, reserve: II-2}}`,
		`{side: union, issue: {to: hq, objective: "0410"}}`,
		`{side: union, issue: {to: II-1, from: banks, order: move, objective: "1006", condition: when the guns are up}}`,
		`{side: union, release: gordon}`,
		`{side: union, initiative: {leader: williams, purpose: release-reserve, formation: gordon}}`,
		`{side: union, initiative: {leader: best, purpose: associate-artillery, formation: II-art, with: II-2}}`,
		`{side: union, skedaddle: II-2}`,
		`{side: union, condition: union-1}`,
		`{side: union, designate: {order: union-1, formation: II-2}}`,
		`{side: union, issue: {to: II, order: reserve}}`,
		`{side: union, post: {unit: knap, to: "0709"}}`,
		`{side: umpire, aware: {side: union}}`,
		`{side: union, futile: II}`,
		`{side: union, fulfil: II}`,
		`{side: union, move: {unit: 28-ny, to: "0905"}}`,
		`{side: union, move: {hq: II, path: ["0708", "0808"]}}`,
		`{side: union, form: {unit: 2-mass, formation: line}}`,
		`{side: union, loss: {unit: 21-va, points: 2}}`,
		`{side: union, issue: {}}`,
		"",
		"[1, 2]",
	} {
		f.Add(s)
	}
	r := engine(f)
	start, err := game.Prepare(demo(f, r), r)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, ok := gametest.Decode(t, r, in, "cmd.yaml")
		if !ok {
			return
		}
		g, err := start.New(game.Seeded(1))
		if err != nil {
			t.Fatal(err)
		}
		gametest.Do(t, g, c, in)
	})
}

// TestContractLines: a number in the user's movement charts that the
// procedures cannot use is refused naming the file and the table's line,
// and what is allowed.
func TestContractLines(t *testing.T) {
	data, err := os.ReadFile(tablesFile)
	if err != nil {
		t.Fatal(err)
	}
	// The error names the line of the table, lob/terrain.
	head := strings.Index(string(data), "  - id: lob/terrain\n")
	if head < 0 {
		t.Fatal("the example tables have no lob/terrain")
	}
	line := fmt.Sprintf(":%d:", strings.Count(string(data[:head]), "\n")+1)
	for _, c := range []struct{ from, to, want string }{
		{`clear:  ["1",`, `clear:  ["-1",`, `"-1" is not a number of movement points; allowed: 0 to 100000`},
		{`clear:  ["1",`, `clear:  ["1/4",`, `"1/4" is not a number of movement points`},
	} {
		src := strings.Replace(string(data), c.from, c.to, 1)
		if src == string(data) {
			t.Fatalf("%q is not in the example tables", c.from)
		}
		path := filepath.Join(t.TempDir(), "mine.yaml")
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		set, err := rules.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = lob.New(set)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path+line) {
			t.Errorf("%s: %v; want %s at %s%s", c.to, err, c.want, path, line)
		}
	}
}

// TestFog is the fog-of-war property test on the demo.
// TestTableDice plays the demo to the end with every roll thrown at the
// table, and in mixed dice (issue 15).
func TestTableDice(t *testing.T) {
	r := engine(t)
	gametest.TableDice(t, r, demo(t, r), 2, game.DiceTable)
	gametest.TableDice(t, r, demo(t, r), 2, game.DiceMixed)
}

// TestBlind is the differential property of fog of war (issue 32): a side
// is given the same whatever hidden enemy pieces do.
func TestBlind(t *testing.T) {
	r := engine(t)
	t.Run("demo", func(t *testing.T) { gametest.Blind(t, r, demo(t, r), 6, probe) })
	// On the demo's small field the pieces hidden from a side are mostly
	// its leaders, which block no move: here they are units as well.
	t.Run("wooded", func(t *testing.T) { gametest.Blind(t, r, gametest.ReadFile(t, r, "testdata/blind.yaml"), 6, probe) })
	// Reinforcements that arrive where the enemy's units start, which
	// their side does not spot: blocked in one game of a pair and not in
	// the other (3.7a).
	t.Run("entry", func(t *testing.T) {
		gametest.Blind(t, r, gametest.ReadFile(t, r, "testdata/blind-entry.yaml"), 6, probe)
	})
}

// probe aims moves (to the hex, past it, and along a path given hex by
// hex through it), their forecasts and the posting of batteries of the
// side's units, leaders and HQs near at (where a hidden enemy stands in
// one game of a differential pair) at it and past it.
func probe(g *game.Game, side string, at geom.Point, rng *rand.Rand) []game.Command {
	t := g.Scenario().Terrain
	sp := g.Scenario().Space()
	aim, ok := gametest.AimAt(t, sp, at, rng)
	if !ok {
		return nil
	}
	past, through := aim.Past, aim.Through
	// moves are the moves of one piece: a made to go to at, past it, and
	// along a path through it.
	var out []game.Command
	moves := func(verb string, from geom.Point, a func() *lob.Args) {
		to, by := a(), a()
		to.To = aim.Hex()
		by.To = past(from)
		out = append(out, game.Command{Verb: verb, Args: to}, game.Command{Verb: verb, Args: by})
		if p := through(from); len(p) > 0 {
			along := a()
			along.To, along.Path = p[len(p)-1], p
			out = append(out, game.Command{Verb: verb, Args: along})
		}
	}
	st := lob.StateOf(g.State())
	step := g.Step().Name
	for _, u := range st.Units {
		if u.Side != side || !u.OnTable || sp.Dist(u.At, at) > 6 {
			continue
		}
		switch {
		case step == lob.StepMove:
			moves("move", u.At, func() *lob.Args { return &lob.Args{Unit: u.ID} })
		case step == lob.StepOrders && u.Type == "artillery":
			moves("post", u.At, func() *lob.Args { return &lob.Args{Unit: u.ID} })
		}
	}
	if step == lob.StepMove {
		for _, l := range st.Leaders {
			if l.Side == side && l.OnTable && sp.Dist(l.At, at) <= 6 {
				moves("move", l.At, func() *lob.Args { return &lob.Args{Leader: l.ID} })
			}
		}
		for _, f := range st.Formations {
			if f.Side == side && f.HQOn && sp.Dist(f.HQ, at) <= 6 {
				moves("move", f.HQ, func() *lob.Args { return &lob.Args{HQ: f.ID} })
			}
		}
		if sd := st.Side(side); sp.Dist(sd.HQ, at) <= 6 {
			moves("move", sd.HQ, func() *lob.Args { return &lob.Args{Army: true} })
		}
	}
	// A few of them each time: every command is compared at length.
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:min(len(out), 3)]
}

func TestFog(t *testing.T) {
	r := engine(t)
	gametest.Fog(t, r, demo(t, r), 4)
}

// TestHiddenAsMissing: with fog of war a command naming an enemy piece
// the side does not spot is refused as one naming an id not in the game,
// with Command's own words for a missing id: a loss (any side's unit), a
// move (the side's own) and an order's issuing leader.
func TestHiddenAsMissing(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	units := gametest.EnemyPieces(func(s *game.State, id string) bool { return lob.StateOf(s).Unit(id) != nil })
	leaders := gametest.EnemyPieces(func(s *game.State, id string) bool { return lob.StateOf(s).Leader(id) != nil })
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "loss", IDs: units, Make: func(_ *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "loss", Args: &lob.Args{Unit: id, Points: 1}}
	}})
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "move", IDs: units, Make: func(_ *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "move", Args: &lob.Args{Unit: id, To: "0101"}}
	}})
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "issue", IDs: leaders, Make: func(_ *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "issue", Args: &lob.Args{From: id, To: id, Kind: "attack"}}
	}})
}
