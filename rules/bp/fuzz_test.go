package bp_test

import (
	"testing"

	"orderly/game"
	"orderly/game/gametest"
)

// FuzzCommand reads a BP command from YAML and, if it decodes, gives it to
// a fresh game of the demo: decoding never panics and every error is one
// line naming where the command came from; a decoded command has a side
// and a verb; the game never panics on it, and a refusal is one line and
// changes nothing.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{
		"{side: french, order: {brigade: jamin, units: [1-leger, 2-ligne], kind: advance}}",
		"{side: french, order: {brigade: jamin, units: 1-leger, kind: charge, modifier: -2}}",
		"{side: french, initiative: 1-tirailleurs}",
		"{side: french, move: {unit: 1-leger, to: [18, 30], facing: 45, formation: line}}",
		"{side: french, move: {general: jamin-g, to: [24, 34]}}",
		"{side: french, charge: {unit: 6-lanciers, target: 10-hussars}}",
		"{side: british, respond: evade}",
		"{side: british, traverse: pass}",
		"{side: french, shoot: {unit: 1-tirailleurs, target: rifles, cover: [2-1-guards], modifier: 1}}",
		"{side: french, fight: 1-leger}",
		"{side: umpire, order: {brigade: maitland, units: [rifles], kind: rally}}",
		"{side: french, ready: true}",
		"{side: french, move: {unit: 1-leger}}",
		"{side: french, order: {brigade: jamin, units: [], kind: advance}}",
		"{side: french, shoot: {unit: a, target: b, modifier: 9}}",
		"{side: french, respond: dance}",
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
		g, err := start.New(game.Seeded(1))
		if err != nil {
			t.Fatal(err)
		}
		gametest.Do(t, g, c, in)
	})
}
