package nb_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"orderly/game"
	"orderly/geom"
	"orderly/rules/nb"
)

// full is a payload with every field of nb.Data set.
func full() *nb.Data {
	at, from := geom.Point{X: 12, Y: 7}, geom.Point{X: 3, Y: 4}
	return &nb.Data{Formation: "F-I", General: "g-ney", Unit: "u1", Messenger: "m-french-1",
		Order:   &nb.Order{ID: "o-french-1", For: []string{"F-I"}, Kind: "attack", Objective: &at, Written: 2},
		OrderID: "o-french-1", To: "g-drouet", At: &at, From: &from, Arrived: true, Acts: 4, How: "messenger",
		With: []string{"B-1"}, Divisions: []string{"F-I-1"}, Left: []string{"F-I-2"}, Readers: []string{"F-I"},
		Held: []string{"F-I"}, Units: []string{"u2", "u3"}, Status: "routed", Square: "C3", Edge: "north",
		Entry: 3, Arrival: 5, New: &nb.NewGeneral{ID: "g-new", Quality: "average", Range: 12, At: at},
		Distance: 14.5, Range: 12, Text: "why"}
}

// TestPayloadJSON checks that every NB event type's payload marshals
// byte for byte as the one payload struct all types shared before they had
// types of their own (stored logs replay), reads back the same, and is
// what Payload makes for the type.
func TestPayloadJSON(t *testing.T) {
	r := engine(t)
	want, err := json.Marshal(full())
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range r.EventTypes() {
		p := nb.PayloadOf(typ, full())
		got, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s marshals as\n%s\nwant\n%s", typ, got, want)
		}
		back, ok := r.Payload(typ)
		if !ok || reflect.TypeOf(back) != reflect.TypeOf(p) {
			t.Fatalf("Payload(%s) = %T, %v; want a %T", typ, back, ok, p)
		}
		if err := json.Unmarshal(got, back); err != nil {
			t.Fatal(err)
		}
		if d := nb.DataOf(&game.Event{Type: typ, Data: back}); !reflect.DeepEqual(d, full()) {
			t.Errorf("%s reads back as %+v", typ, d)
		}
	}
	if p := nb.PayloadOf("no-such-type", full()); p != nil {
		t.Errorf("PayloadOf an unknown type = %T", p)
	}
	if _, ok := r.Payload("no-such-type"); ok {
		t.Error("Payload of an unknown type is a payload")
	}
}

// TestPayloadTypes checks that each NB event type has a payload type of its
// own, so that the engine folds, words and matches it by its type, and that
// an event of each type with an empty payload gets a line and no panic.
func TestPayloadTypes(t *testing.T) {
	r := engine(t)
	seen := map[reflect.Type]string{}
	for _, typ := range r.EventTypes() {
		p, _ := r.Payload(typ)
		if other, dup := seen[reflect.TypeOf(p)]; dup {
			t.Errorf("%s and %s share the payload type %T", typ, other, p)
		}
		seen[reflect.TypeOf(p)] = typ
		r.Describe(&game.Event{Type: typ, Data: p}, func(id string) string { return id })
	}
	if !slices.Equal(r.EventTypes(), nb.Types) {
		t.Errorf("EventTypes = %v; Types = %v", r.EventTypes(), nb.Types)
	}
}

// TestMatchFields checks the fields a script may test on an NB event.
func TestMatchFields(t *testing.T) {
	r := engine(t)
	e := &game.Event{Type: nb.OrderActive, Data: nb.PayloadOf(nb.OrderActive, full())}
	for _, c := range []struct {
		field, want string
		ok          bool
	}{
		{"formation", "F-I", true}, {"general", "g-ney", true}, {"unit", "u1", true}, {"unit", "u3", true},
		{"unit", "u4", false}, {"messenger", "m-french-1", true}, {"order", "o-french-1", true},
		{"to", "g-drouet", true}, {"how", "messenger", true}, {"status", "routed", true},
		{"acts", "4", true}, {"arrival", "5", true}, {"entry", "3", true}, {"entry", "4", false},
		{"verb", "", false}, {"formation", "F-II", false},
	} {
		if got := r.Match(e, c.field, c.want); got != c.ok {
			t.Errorf("Match(%s, %s) = %v; want %v", c.field, c.want, got, c.ok)
		}
	}
	empty := &game.Event{Type: nb.Moved, Data: nb.PayloadOf(nb.Moved, &nb.Data{})}
	if !r.Match(empty, "acts", "") || r.Match(empty, "acts", "0") {
		t.Error("a zero number is not matched as empty")
	}
}
