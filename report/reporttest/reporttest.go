// Package reporttest plays the demo of each rule set for a few turns with
// fixed dice and exports it, for the tests of the after-action report:
// the same game every run, from the demo's own plan where it has one and
// from the rule set's random commands under a fixed seed where it has
// none.
package reporttest

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"slices"
	"testing"

	"orderly/archive"
	"orderly/archive/archivetest"
	"orderly/examples"
	"orderly/game"
	"orderly/game/gametest"
	"orderly/report"
	"orderly/rules"
	"orderly/script"
	"orderly/table"
)

// Demos are the demo scenario and plan of each rule set (no plan: random
// commands).
var Demos = map[string][2]string{
	"nb":  {"demo.yaml", "demo-plan.yaml"},
	"nes": {"nes-demo.yaml", ""},
	"lob": {"lob-demo.yaml", "lob-demo-plan.yaml"},
	"bp":  {"bp-demo.yaml", "bp-demo-plan.yaml"},
	"cd":  {"cd-demo.yaml", "cd-demo-plan.yaml"},
}

// IDs are the rule sets in SPEC order.
var IDs = []string{"nb", "nes", "lob", "bp", "cd"}

// Engine is the report's engine over the built-in tables.
func Engine(t testing.TB) report.Engine {
	t.Helper()
	mk, err := rules.Make()
	if err != nil {
		t.Fatal(err)
	}
	return report.Engine{
		Rules:  mk,
		Tables: report.Tables(rules.Builtin()),
	}
}

// Own is the tables file a rule set's demo is played on: LOB's example
// tables, none for the others.
func Own(t testing.TB, id string) []table.Source {
	t.Helper()
	if id != "lob" {
		return nil
	}
	data, err := fs.ReadFile(examples.FS(), "lob/example-tables.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return []table.Source{{Name: "example-tables.yaml", Data: data}}
}

// Demo plays rule set id's demo to the end of turn turns (the whole game
// when turns is 0) under a fixed dice key, and exports it.
func Demo(t testing.TB, id string, turns int) *archive.Game {
	t.Helper()
	eng := Engine(t)
	own := Own(t, id)
	r, err := eng.Rules(id, own...)
	if err != nil {
		t.Fatal(err)
	}
	files := examples.Of(id)
	names := Demos[id]
	src, err := fs.ReadFile(files, names[0])
	if err != nil {
		t.Fatal(err)
	}
	one := script.Engine(func(string) (game.Rules, error) { return r, nil })
	sc, err := script.LoadAny(names[0], src, one, script.NoFiles)
	if err != nil {
		t.Fatal(err)
	}
	if turns <= 0 || turns > sc.Turns {
		turns = sc.Turns
	}
	seeds := []game.Seed{archivetest.Seed(1, archivetest.Key(1))}
	g, err := game.New(sc, r, game.Committed(seeds))
	if err != nil {
		t.Fatal(err)
	}
	basis := game.Basis{Genesis: game.GenesisV2, Scenario: src}
	if len(own) > 0 {
		basis.Tables = own[0].Data
	}
	chain, err := game.NewChain(basis, seeds)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetChain(chain); err != nil {
		t.Fatal(err)
	}
	if names[1] != "" {
		data, err := fs.ReadFile(files, names[1])
		if err != nil {
			t.Fatal(err)
		}
		plan, err := script.LoadPlan(names[1], data, sc, r)
		if err != nil {
			t.Fatal(err)
		}
		plan.Until = turns
		if cut := slices.IndexFunc(plan.Steps, func(c script.Commands) bool { return c.Turn > turns }); cut >= 0 {
			plan.Steps = plan.Steps[:cut]
		}
		if err := plan.Play(g, nil); err != nil {
			t.Fatal(err)
		}
	} else {
		Random(t, g, turns, 1)
	}
	doc := &archive.Game{Format: archive.Format, ID: "0123456789ab", Title: sc.Title, Rules: id,
		Scenario: archive.Scenario{File: names[0], Source: string(src)},
		Seeds:    seeds, Events: g.Log(), Hash: g.Hash()}
	if len(own) > 0 {
		doc.Tables = &archive.Scenario{File: own[0].Name, Source: string(own[0].Data)}
	}
	return archivetest.Clone(t, doc)
}

// Random plays g with its rule set's random commands (gametest.Random)
// under seed until the end of turn turns: at most 40 commands a step,
// after which the umpire ends it.
func Random(t testing.TB, g *game.Game, turns int, seed uint64) {
	t.Helper()
	r, ok := g.Rules().(gametest.Random)
	if !ok {
		t.Fatalf("rule set %s makes no random commands", g.Rules().ID())
	}
	rng := rand.New(rand.NewPCG(seed, 36))
	for n := 0; n < 100000; n++ {
		s := g.State()
		if s.Over || s.Turn > turns {
			return
		}
		c := r.Random(g, rng)
		if n%40 == 39 {
			c = game.Command{Side: game.Umpire, Verb: game.End}
		}
		if _, err := g.Do(c); err != nil {
			var refused *game.Error
			if !errors.As(err, &refused) {
				t.Fatal(err)
			}
		}
	}
	t.Fatalf("rule set %s: no end of turn %d after 100000 commands", g.Rules().ID(), turns)
}
