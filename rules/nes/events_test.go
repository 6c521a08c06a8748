package nes_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/rules/nes"
)

// TestEventRegistry checks NES's event types as the registry lists them:
// every type has its payload, and an event that carries none, or another
// rule set's, is refused by name and changes nothing.
func TestEventRegistry(t *testing.T) {
	r := engine(t)
	want := []string{nes.EvBegun, nes.EvSent, nes.EvCP, nes.EvChecked, nes.EvMoved, nes.EvFormed, nes.EvLost, nes.EvFired, nes.EvCharged, nes.EvRetired}
	if got := r.EventTypes(); !slices.Equal(got, want) {
		t.Fatalf("EventTypes = %v; want %v", got, want)
	}
	for _, typ := range want {
		if p, ok := r.Payload(typ); !ok || p == nil {
			t.Errorf("Payload(%s) = %v, %v; want a payload", typ, p, ok)
		}
	}
	if _, ok := r.Payload("moved-twice"); ok {
		t.Error("Payload(moved-twice) is a type")
	}
	g, err := game.New(demo(t, r), r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	before := g.Hash()
	for _, e := range []game.Event{
		{Seq: 7, Type: nes.EvMoved},
		{Seq: 8, Type: nes.EvLost, Data: &game.Over{Why: "not NES's"}},
	} {
		err := r.Apply(g.State(), &e)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("event %d (%s)", e.Seq, e.Type)) {
			t.Errorf("Apply(%s with %T) = %v; want an error naming the event", e.Type, e.Data, err)
		}
	}
	if g.Hash() != before {
		t.Error("a refused event changed the state")
	}
}

// TestEventWords checks an NES event's sentence and fields through the
// registry, a known answer for each, and that an event whose payload
// cannot be read is shown by its type.
func TestEventWords(t *testing.T) {
	r := engine(t)
	name := func(id string) string { return "<" + id + ">" }
	e := &game.Event{Type: nes.EvCharged, Rolls: []game.Roll{{Table: "brook", Subject: "c1", Natural: 7, Total: 7}, {Table: "morale", Subject: "i1", Natural: 3, Total: 1}},
		Data: &nes.Charged{Unit: "c1", Target: "0405", Effect: "disorders on 6..9", Disordered: true,
			Checks: []nes.MoraleCheck{{Unit: "i1", Zone: "primary", Modifier: -2, Result: "falls-back"}}}}
	if got, want := r.Describe(e, name), "<c1> (disordered: disorders on 6..9) charges 0405: <i1> (primary zone, -2) falls back (morale 3, total 1)."; got != want {
		t.Errorf("Describe = %q; want %q", got, want)
	}
	for _, m := range []struct {
		field, want string
		ok          bool
	}{
		{"unit", "c1", true}, {"unit", "i1", true}, {"check", "i1 primary -2 falls-back", true}, {"disorder", "true", true},
		{"to", "0405", true}, {"roll", "c1 7 7", true}, {"roll", "i1 3 1", true}, {"roll", "i1 3 3", false},
		{"leader", "c1", false}, {"unit", "i2", false},
	} {
		if got := r.Match(e, m.field, m.want); got != m.ok {
			t.Errorf("Match(%s, %q) = %v; want %v", m.field, m.want, got, m.ok)
		}
	}
	raw := &game.Event{Type: nes.EvMoved, Data: json.RawMessage(`{"unit": 3}`)}
	if got := r.Describe(raw, name); got != nes.EvMoved {
		t.Errorf("Describe of an unreadable payload = %q; want its type", got)
	}
}
