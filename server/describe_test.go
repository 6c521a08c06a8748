package server

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/rules"
	nbrules "orderly/rules/nb"
	"orderly/script"
)

// eventTypes lists the event types of the engine and of rule set r (the
// types it declares, so that a type added there is checked here without a
// list to keep).
func eventTypes(t *testing.T, r game.Rules) []string {
	t.Helper()
	lt, ok := r.(interface{ EventTypes() []string })
	if !ok {
		t.Fatalf("rule set %s does not list its event types", r.ID())
	}
	out := append([]string{game.StepBegun, game.SideReady, game.GameOver, game.CommandRejected}, lt.EventTypes()...)
	if len(out) < 30 || !slices.Contains(out, nbrules.OrderRead) {
		t.Fatalf("%d event types (%v): NB's were not found whole", len(out), out)
	}
	return out
}

// TestDescribeEveryType checks that the server describes every event type
// the engine defines, command-rejected included: for every event of the
// example scripts and of a whole game of the demo (which between them must
// meet every type), the sentence a seat is sent is not empty, not the
// bare type, and one line.
func TestDescribeEveryType(t *testing.T) {
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
	l := &live{rules: nb}
	names, err := filepath.Glob("../examples/nb/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := script.Load(name, data, eng, script.Disk)
		if err != nil || len(sc.Steps) == 0 {
			continue // a scenario or a plan, not a script
		}
		rs, err := eng(sc.Scenario.Rules)
		if err != nil {
			t.Fatal(err)
		}
		_, timeline, err := sc.Run(rs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, e := range timeline {
			seen[e.Type]++
			got := l.describe(&e)
			if strings.TrimSpace(got) == "" || got == e.Type || strings.ContainsAny(got, "\n\r") {
				t.Errorf("%s: event %d (%s) is described as %q", filepath.Base(name), e.Seq, e.Type, got)
			}
		}
	}
	// What the scripts do not record: a whole game of the demo (both
	// sides ready, then to its end), and two events made as the NB rules
	// make them that no short script meets.
	data, err := os.ReadFile("../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.LoadScenario("demo.yaml", data, eng)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(sc, nb, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []game.Command{{Side: "french", Verb: "ready"}, {Side: "allies", Verb: "ready"}} {
		if _, err := g.Do(c); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 100 && !g.State().Over; i++ {
		if _, err := g.Do(game.Command{Side: game.Umpire, Verb: "end"}); err != nil {
			t.Fatal(err)
		}
	}
	at := nbrules.StateOf(g.State()).Generals[0].At
	played := append(g.Log(),
		game.Event{Type: nbrules.OrderSuperseded, Side: "french", See: "french", Rule: "NB-5",
			Data: &nbrules.Data{OrderID: "french-1", Formation: "F-I", Text: "order french-2, written on turn 2, is newer"}},
		game.Event{Type: nbrules.EntryBlocked, Side: "allies", See: game.All, Rule: "NB-10",
			Data: &nbrules.Data{Formation: "A-P", At: &at, Text: "no place on the east edge is more than 8\" from the enemy; the reserve waits"}})
	for _, e := range played {
		seen[e.Type]++
		got := l.describe(&e)
		if strings.TrimSpace(got) == "" || got == e.Type || strings.ContainsAny(got, "\n\r") {
			t.Errorf("the demo's event %d (%s) is described as %q", e.Seq, e.Type, got)
		}
	}
	for _, typ := range eventTypes(t, nb) {
		if seen[typ] == 0 {
			t.Errorf("neither the example scripts nor the demo record a %s event: add one, so that its description is checked", typ)
		}
	}
}
