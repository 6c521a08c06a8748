package game

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// tally is a test rule set's procedures: what its payloads consult.
type tally struct{ step int }

// counter is a test rule set's state.
type counter struct{ n int }

func (c *counter) Clone(*State) Ext         { return &counter{c.n} }
func (c *counter) Reset(from Ext, _ *State) { c.n = from.(*counter).n }

// added is a test event type's payload.
type added struct {
	By   int      `json:"by"`
	Tags []string `json:"tags"`
}

func (a *added) Fold(t *tally, s *State, e *Event) error {
	if a.By < 0 {
		return fmt.Errorf("negative")
	}
	s.Ext.(*counter).n += a.By * t.step
	return nil
}

func (a *added) Describe(t *tally, e *Event, name func(string) string) string {
	return fmt.Sprintf("Added %d by %s.", a.By*t.step, name(strings.Join(a.Tags, "+")))
}

func (a *added) Field(t *tally, e *Event, name string) []string {
	switch name {
	case "by":
		return []string{fmt.Sprint(a.By)}
	case "tag":
		return a.Tags
	}
	return nil
}

func TestEvents(t *testing.T) {
	es := Events[*tally]{Type[*tally, added]("added"), {Name: "noted"}}
	if got := es.Types(); !slices.Equal(got, []string{"added", "noted"}) {
		t.Fatalf("Types = %v", got)
	}
	p, ok := es.Payload("added")
	if _, is := p.(*added); !ok || !is {
		t.Fatalf("Payload(added) = %T, %v; want *added, true", p, ok)
	}
	if p, ok := es.Payload("noted"); p != nil || !ok {
		t.Fatalf("Payload(noted) = %v, %v; want nil, true", p, ok)
	}
	if _, ok := es.Payload("other"); ok {
		t.Fatal("Payload(other) is a type")
	}
	c := &tally{step: 3}
	s := &State{Ext: &counter{}}
	e := &Event{Seq: 1, Type: "added", Data: &added{By: 2, Tags: []string{"a", "b"}}}
	if err := es.Apply(c, s, e); err != nil || s.Ext.(*counter).n != 6 {
		t.Fatalf("Apply = %v, count %d; want nil, 6", err, s.Ext.(*counter).n)
	}
	if err := es.Apply(c, s, &Event{Type: "noted"}); err != nil || s.Ext.(*counter).n != 6 {
		t.Fatalf("Apply of no payload = %v, count %d; want nil, 6", err, s.Ext.(*counter).n)
	}
	if err := es.Apply(c, s, &Event{Seq: 2, Type: "added", Data: &added{By: -1}}); err == nil {
		t.Fatal("a failing fold is not an error")
	}
	if err := es.Apply(c, s, &Event{Seq: 3, Type: "added", Data: &Over{}}); err == nil || !strings.Contains(err.Error(), "*game.Over") {
		t.Fatalf("Apply of a foreign payload = %v; want an error naming its type", err)
	}
	name := func(id string) string { return "<" + id + ">" }
	if got := es.Describe(c, e, name); got != "Added 6 by <a+b>." {
		t.Fatalf("Describe = %q", got)
	}
	if got := es.Describe(c, &Event{Type: "noted"}, name); got != "" {
		t.Fatalf("Describe of no payload = %q", got)
	}
	for _, m := range []struct {
		field, want string
		ok          bool
	}{{"by", "2", true}, {"by", "3", false}, {"tag", "b", true}, {"tag", "c", false}, {"unit", "", false}} {
		if got := es.Match(c, e, m.field, m.want); got != m.ok {
			t.Errorf("Match(%s, %s) = %v; want %v", m.field, m.want, got, m.ok)
		}
	}
}
