package game_test

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/dice"
	"orderly/game"
	"orderly/rules"
	"orderly/rules/nb"
	"orderly/script"
)

// demo is the README's demo battle under the built-in NB rules, with the
// text of its scenario file and its plan split at the end of turn split.
type demo struct {
	sc         *battle.Scenario
	rules      game.Rules
	source     []byte
	early, end *script.Plan
}

func loadDemo(t testing.TB, split int) *demo {
	t.Helper()
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	r, err := rules.Engine("nb", set)
	if err != nil {
		t.Fatal(err)
	}
	eng := func(string) (game.Rules, error) { return r, nil }
	src, err := os.ReadFile("../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.LoadAny("demo.yaml", src, eng, script.NoFiles)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../examples/nb/demo-plan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := script.LoadPlan("demo-plan.yaml", data, sc, r)
	if err != nil {
		t.Fatal(err)
	}
	cut := slices.IndexFunc(p.Steps, func(c script.Commands) bool { return c.Turn > split })
	if cut < 0 {
		cut = len(p.Steps)
	}
	return &demo{sc: sc, rules: r, source: src,
		early: &script.Plan{Steps: p.Steps[:cut], Until: split, File: p.File},
		end:   &script.Plan{Steps: p.Steps[cut:], Until: p.Until, File: p.File}}
}

func key(n int) []byte {
	k := sha256.Sum256(fmt.Appendf(nil, "test key %d", n))
	return k[:]
}

func seed(from int, k []byte) game.Seed {
	return game.Seed{From: from, Commitment: dice.Commitment(k), Key: k}
}

func TestRollLabel(t *testing.T) {
	if got := game.RollLabel(12, 1, "nb/order-delay", "F-I"); got != "orderly/roll/v2/12/1/nb/order-delay/F-I" {
		t.Errorf("RollLabel: %s", got)
	}
}

// rollRules is NB with test commands that roll nb/order-delay for F-I.
type rollRules struct {
	game.Rules
	drawn []*game.Roll
}

var testVerbs = []string{"roll-once", "roll-twice", "roll-refused", "roll-second", "roll-late", "roll-dropped"}

// Next takes the test commands at every step that waits for someone.
func (r *rollRules) Next(s *game.State) (game.Step, int) {
	st, turn := r.Rules.Next(s)
	if st.Player() {
		st.Verbs = append(slices.Clone(st.Verbs), testVerbs...)
	}
	return st, turn
}

func (r *rollRules) Command(c *game.Command, x *game.Tx) error {
	if !slices.Contains(testVerbs, c.Verb) {
		return r.Rules.Command(c, x)
	}
	roll := func() *game.Roll {
		ro, _, err := x.Roll("nb/order-delay", "F-I", map[string]string{"nation": "french", "quality": "average"})
		if err != nil {
			panic(err)
		}
		r.drawn = append(r.drawn, ro)
		return ro
	}
	emit := func(ro ...*game.Roll) error {
		var rolls []game.Roll
		for _, r := range ro {
			if r != nil {
				rolls = append(rolls, *r)
			}
		}
		return x.Emit(game.Event{Type: nb.RangeViolation, Side: "french", See: game.All, Rolls: rolls, Data: nb.PayloadOf(nb.RangeViolation, &nb.Data{Formation: "F-I"})})
	}
	switch c.Verb {
	case "roll-once":
		return emit(roll())
	case "roll-twice":
		first := roll()
		return emit(first, roll())
	case "roll-second": // a bug: rolls again and keeps the second
		roll()
		return emit(roll())
	case "roll-dropped": // a bug: rolls twice and keeps the first
		first := roll()
		roll()
		return emit(first)
	case "roll-late": // a bug: records a roll in a later event than it was drawn for
		ro := roll()
		if err := emit(nil); err != nil {
			return err
		}
		return emit(ro)
	}
	roll()
	return game.Reject("", "refused after rolling")
}

// keys records the RollKey of every roll drawn.
type keys struct {
	game.Dice
	got []game.RollKey
}

func (k *keys) Roller(rk game.RollKey) dice.Roller {
	k.got = append(k.got, rk)
	return k.Dice.Roller(rk)
}

func testGame(t *testing.T, d *demo, n int) (*game.Game, *rollRules, *keys) {
	t.Helper()
	r := &rollRules{Rules: d.rules}
	k := &keys{Dice: game.Committed([]game.Seed{seed(1, key(n))})}
	g, err := game.New(d.sc, r, k)
	if err != nil {
		t.Fatal(err)
	}
	r.drawn, k.got = nil, nil
	return g, r, k
}

// TestTwoRollsOfOneEvent: two rolls of one table for the same subject,
// drawn for the same event and recorded by it in order, have different labels and so, under
// committed dice, (almost always) different faces.
func TestTwoRollsOfOneEvent(t *testing.T) {
	d := loadDemo(t, 1)
	differ := 0
	const games = 40
	for n := range games {
		g, r, k := testGame(t, d, n)
		if err := g.Exec(game.Command{Side: game.Umpire, Verb: "roll-twice"}); err != nil {
			t.Fatal(err)
		}
		if len(k.got) != 2 || len(r.drawn) != 2 {
			t.Fatalf("drew %d rolls", len(k.got))
		}
		a, b := k.got[0], k.got[1]
		if a.Seq != g.Len() || b.Seq != a.Seq || a.Index != 0 || b.Index != 1 || r.drawn[1].Index != 1 {
			t.Fatalf("roll keys %+v and %+v for event %d", a, b, g.Len())
		}
		if game.RollLabel(a.Seq, a.Index, a.Table, a.Subject) == game.RollLabel(b.Seq, b.Index, b.Table, b.Subject) {
			t.Fatalf("two rolls of event %d share a label", a.Seq)
		}
		if !slices.Equal(r.drawn[0].Faces, r.drawn[1].Faces) {
			differ++
		}
		if last := g.Log()[g.Len()-1-g.Base()]; len(last.Rolls) != 2 || last.Rolls[0].Index != 0 || last.Rolls[1].Index != 1 ||
			!slices.Equal(last.Rolls[0].Faces, r.drawn[0].Faces) || !slices.Equal(last.Rolls[1].Faces, r.drawn[1].Faces) {
			t.Fatalf("the event does not record both rolls in the order drawn: %+v", last.Rolls)
		}
	}
	// A d10 twice: equal faces one time in ten.
	if differ < games/2 {
		t.Fatalf("two rolls of one event differ in only %d of %d games", differ, games)
	}
}

// TestRefusedCommandRollsAgain: a refused command keeps none of its rolls,
// so the next command draws the same roll (index 0): sending refused
// commands cannot fish for a better roll.
func TestRefusedCommandRollsAgain(t *testing.T) {
	d := loadDemo(t, 1)
	for n := range 10 {
		g, r, k := testGame(t, d, n)
		before := g.Len()
		err := g.Exec(game.Command{Side: game.Umpire, Verb: "roll-refused"})
		var ge *game.Error
		if !errors.As(err, &ge) || g.Len() != before {
			t.Fatalf("roll-refused: %v", err)
		}
		if err := g.Exec(game.Command{Side: game.Umpire, Verb: "roll-once"}); err != nil {
			t.Fatal(err)
		}
		if len(k.got) != 2 || k.got[1] != k.got[0] || k.got[1].Index != 0 {
			t.Fatalf("roll keys after a refusal: %+v", k.got)
		}
		if !slices.Equal(r.drawn[0].Faces, r.drawn[1].Faces) {
			t.Fatalf("the refused command's roll %v, the next one's %v", r.drawn[0].Faces, r.drawn[1].Faces)
		}
	}
}

// TestRollRecordedWrongly: a rule set that keeps a second roll, drops a
// roll it drew, or records a roll in another event than the one it was
// drawn for, has a bug; the
// engine says so (not a player's rejection) and changes nothing.
func TestRollRecordedWrongly(t *testing.T) {
	d := loadDemo(t, 1)
	for verb, want := range map[string]string{
		"roll-second":  "after 1 other roll",
		"roll-late":    "records 0 of the 1 rolls",
		"roll-dropped": "records 1 of the 2 rolls",
	} {
		g, _, _ := testGame(t, d, 1)
		before, hash := g.Len(), g.Hash()
		err := g.Exec(game.Command{Side: game.Umpire, Verb: verb})
		var ge *game.Error
		if err == nil || errors.As(err, &ge) || !strings.Contains(err.Error(), "rule set nb") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", verb, err)
		}
		if g.Len() != before || g.Hash() != hash {
			t.Errorf("%s changed the game", verb)
		}
	}
}
