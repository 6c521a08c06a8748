package nes_test

import (
	"testing"

	"orderly/game"
	"orderly/game/gametest"
)

// FuzzCommand reads an NES command from YAML and, if it decodes, gives it
// to a fresh game of the demo in the French orders step and again in
// their movement step: decoding never panics and every error is one line
// naming where the command came from; a decoded command has a side and a
// verb; the game never panics on it, and a refusal is one line and
// changes nothing.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{
		`{side: french, send: {from: napoleon, to: ney, order: attack, objective: "2014", urgent: true, note: go}}`,
		`{side: french, send: {from: davout, to: fr-1-1, order: move}}`,
		`{side: french, cp: davout}`,
		`{side: french, move: {unit: fr-13l, to: "1207"}}`,
		`{side: french, move: {unit: fr-7hus, path: ["0704", "0804"], grand-tactical: true}}`,
		`{side: french, move: {general: davout, to: "0910", disorder: true}}`,
		`{side: french, form: {unit: fr-13l, formation: general-order}}`,
		`{side: french, loss: {unit: ru-orel, points: 2, situation: shock}}`,
		`{side: french, bombard: {unit: fr-1-1-art, target: "1307"}}`,
		`{side: french, charge: {unit: fr-1cuir, target: "0806"}}`,
		`{side: french, sight: {from: "0101", to: "3222"}}`,
		`{side: french, move: {unit: fr-13l, to: "9999"}}`,
		`{side: french, move: {unit: fr-13l, path: []}}`,
		`{side: french, send: {from: ney, to: napoleon, order: dance}}`,
		`{side: french, ready: true}`,
		"",
		"[1, 2]",
	} {
		f.Add(s)
	}
	const where = "cmd.yaml"
	r := engine(f)
	start, err := game.Prepare(demo(f, r), r)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, ok := gametest.Decode(t, r, in, where)
		if !ok {
			return
		}
		for _, step := range []string{"orders", "move", "combat"} {
			g, err := start.New(game.Seeded(1))
			if err != nil {
				t.Fatal(err)
			}
			for g.Step().Name != step {
				if _, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready}); err != nil {
					t.Fatal(err)
				}
			}
			gametest.Do(t, g, c, in)
		}
	})
}
