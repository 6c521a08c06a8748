package server

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"orderly/examples"
	"orderly/game"
	"orderly/rules"
	nbrules "orderly/rules/nb"
	"orderly/script"
	"orderly/store"
	"orderly/store/sqlite"
)

// plain hides every capability of a rule set but game.Rules itself.
type plain struct{ game.Rules }

// A commander's seat is refused everything under a rule set that cannot
// name what a command touches, and what the rule set names decides under
// one that can.
func TestCommanderDenyByDefault(t *testing.T) {
	t.Parallel()
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
	mine := func() *game.Command {
		return &game.Command{Verb: "rout", Args: &nbrules.Args{Units: []string{"F-I-1-a"}}}
	}
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

// Sweeping drops the parsed scenario of an uploaded game that left
// memory, and keeps the bundled ones.
func TestSweepDropsScenarios(t *testing.T) {
	t.Parallel()
	eng, err := rules.Make()
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Unix(1e9, 0)
	s, err := New(context.Background(), st, eng,
		WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	bundled := len(s.starts)
	data, _ := fs.ReadFile(examples.FS(), "nb/demo.yaml")
	if _, err := s.Create(context.Background(), Setup{Source: "# my copy\n" + string(data)}); err != nil {
		t.Fatal(err)
	}
	if len(s.starts) != bundled+1 || s.Games() != 1 {
		t.Fatalf("%d parsed scenarios, %d games; want %d and 1", len(s.starts), s.Games(), bundled+1)
	}
	now = now.Add(time.Hour)
	s.Sweep()
	if len(s.starts) != bundled || s.Games() != 0 {
		t.Errorf("after the sweep: %d parsed scenarios, %d games; want %d and 0", len(s.starts), s.Games(), bundled)
	}
}
