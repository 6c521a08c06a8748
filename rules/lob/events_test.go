package lob_test

import (
	"fmt"
	"slices"
	"testing"

	"orderly/game"
	"orderly/rules/lob"
)

// TestEventPayloads: each of LOB's event types has the payload its logs
// were written with (futile and declared share one), so stored games
// decode; every payload describes itself; an unknown type is none.
func TestEventPayloads(t *testing.T) {
	r := engine(t)
	want := map[string]string{
		lob.EvBegun: "*lob.Begun", lob.EvAccepted: "*lob.Acceptance", lob.EvChecked: "*lob.Checks",
		lob.EvIssued: "*lob.Issue", lob.EvRelease: "*lob.Release", lob.EvInitiative: "*lob.Initiative",
		lob.EvSkedaddle: "*lob.Skedaddle", lob.EvCondition: "*lob.Condition", lob.EvFutile: "*lob.Ending",
		lob.EvDeclared: "*lob.Ending", lob.EvEnded: "*lob.Ended", lob.EvMoved: "*lob.Moved",
		lob.EvFormed: "*lob.Formed", lob.EvLost: "*lob.Lost", lob.EvAware: "*lob.Aware",
		lob.EvDesignated: "*lob.Designation", lob.EvEntry: "*lob.EntryNamed",
	}
	types := r.EventTypes()
	if len(types) != len(want) {
		t.Errorf("EventTypes = %v; want the %d types", types, len(want))
	}
	for typ, name := range want {
		if !slices.Contains(types, typ) {
			t.Errorf("EventTypes lacks %s", typ)
		}
		p, ok := r.Payload(typ)
		if got := fmt.Sprintf("%T", p); !ok || got != name {
			t.Errorf("Payload(%s) = %s, %v; want %s, true", typ, got, ok, name)
			continue
		}
		e := &game.Event{Type: typ, Data: p}
		if got := r.Describe(e, func(id string) string { return id }); got == "" || got == typ {
			t.Errorf("Describe of an empty %s = %q; want a sentence", typ, got)
		}
	}
	if _, ok := r.Payload("charged"); ok {
		t.Error(`Payload("charged") is a type`)
	}
}

// TestMatchCommonRoll: a script's roll field matches any event's rolls,
// "SUBJECT NATURAL TOTAL", before its payload's own fields; a payload's
// fields match what it records and nothing else.
func TestMatchCommonRoll(t *testing.T) {
	r := engine(t)
	e := &game.Event{Type: lob.EvIssued, Rolls: []game.Roll{{Subject: "pope", Natural: 4, Total: 5}},
		Data: &lob.Issue{By: "pope", Result: "issued", Order: lob.Order{ID: "union-1", To: "II", Kind: lob.Attack}}}
	for _, m := range []struct {
		field, want string
		ok          bool
	}{
		{"roll", "pope 4 5", true}, {"roll", "pope 4 4", false}, {"check", "pope issued", true},
		{"order", "union-1", true}, {"command", "II", true}, {"kind", lob.Attack, true}, {"unit", "II", false},
	} {
		if got := r.Match(e, m.field, m.want); got != m.ok {
			t.Errorf("Match(%s, %q) = %v; want %v", m.field, m.want, got, m.ok)
		}
	}
	if r.Match(&game.Event{Type: game.StepBegun, Data: &game.Begun{}}, "order", "union-1") {
		t.Error("an engine event matches a LOB field")
	}
}
