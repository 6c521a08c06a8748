package gametest

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"orderly/game"
)

// Decode reads a fuzzed command of rules from in, as a file named where:
// decoding must not panic, and any error must be one line that starts
// with where; a decoded command has a side and one of the rule set's
// verbs or the engine's. ok is false when in does not decode.
func Decode(t *testing.T, rules game.Rules, in, where string) (game.Command, bool) {
	t.Helper()
	c, err := game.DecodeCommand(rules, []byte(in), where)
	if err != nil {
		msg := err.Error()
		if strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, where+":") {
			t.Fatalf("error %q is not one line starting %q", msg, where+":")
		}
		return c, false
	}
	if c.Side == "" || !slices.Contains(append(rules.Verbs(), game.Ready, game.End), c.Verb) {
		t.Fatalf("decoded %+v", c)
	}
	return c, true
}

// Do gives a fuzzed command to g: the game must not panic on it, and a
// refusal must be one line and change nothing.
func Do(t *testing.T, g *game.Game, c game.Command, in string) {
	t.Helper()
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
}
