package bp_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"orderly/game"
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
		c, err := game.DecodeCommand(r, []byte(in), where)
		if err != nil {
			msg := err.Error()
			if strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, where+":") {
				t.Fatalf("error %q is not one line starting %q", msg, where+":")
			}
			return
		}
		if c.Side == "" || !slices.Contains(append(r.Verbs(), game.Ready, game.End), c.Verb) {
			t.Fatalf("decoded %+v", c)
		}
		g, err := start.New(game.Seeded(1))
		if err != nil {
			t.Fatal(err)
		}
		before, n := g.Hash(), g.Len()
		if _, err := g.Do(c); err != nil {
			var ge *game.Error
			if !errors.As(err, &ge) {
				t.Fatalf("%q failed without a refusal: %v", in, err)
			}
			if strings.ContainsAny(ge.Msg, "\n\r") || ge.Msg == "" {
				t.Fatalf("refusal %q is not one line", ge.Msg)
			}
			if g.Hash() != before || g.Len() != n {
				t.Fatalf("the refused %q changed the game", in)
			}
		}
	})
}
