package server

import (
	"io/fs"
	"testing"

	"orderly/examples"
	"orderly/game"
	"orderly/rules"
	"orderly/script"
	"orderly/store"
)

// plain hides every capability of a rule set but game.Rules itself.
type plain struct{ game.Rules }

// A commander's seat is refused everything under a rule set that cannot
// name what a command touches, and what the rule set names decides under
// one that can.
func TestCommanderDenyByDefault(t *testing.T) {
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	eng := func(id string) (game.Rules, error) { return rules.Engine(id, set) }
	nb, err := eng("nb")
	if err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(examples.FS(), "nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.LoadAny("demo.yaml", data, eng, script.NoFiles)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(sc, nb, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	seat := store.Seat{Role: store.Commander, Side: "french", Formation: "F-I"}
	mine := func() *game.Command { return &game.Command{Verb: "rout", Units: []string{"F-I-1-a"}} }
	if e := authorize(seat, nb, g, mine()); e != nil {
		t.Errorf("a commander routing his own unit: %v", e)
	}
	if e := authorize(seat, plain{nb}, g, mine()); e == nil || e.Code != Forbidden {
		t.Errorf("a rule set without Subjects let a commander act: %v", e)
	}
	for _, verb := range []string{"ready", "end", "invent"} {
		if e := authorize(seat, nb, g, &game.Command{Verb: verb}); e == nil || e.Code != Forbidden {
			t.Errorf("a commander's %s: %v", verb, e)
		}
	}
	// The side's own seat is not limited by Subjects.
	side := store.Seat{Role: store.Side, Side: "french"}
	if e := authorize(side, plain{nb}, g, &game.Command{Verb: "ready"}); e != nil {
		t.Errorf("the side's seat saying ready: %v", e)
	}
}
