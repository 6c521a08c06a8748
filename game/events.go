package game

import (
	"fmt"
	"slices"
)

// Payload is the data of one of a rule set's event types, defined once as
// a Go type whose methods say everything the engine asks of the event: how
// it folds into the state, how it reads in the log, and the values a
// script's expectations may test. C is what the methods consult besides
// the event: the rule set's procedures (its tables and options).
type Payload[C any] interface {
	// Fold applies e, whose payload this is, to the rule set's part of s
	// (s.Ext). It trusts the event: checks happen before it is emitted.
	// The engine moves the pieces of e.Moves afterwards.
	Fold(c C, s *State, e *Event) error
	// Describe says in one sentence what e records; name shows an id to
	// people (a general's name).
	Describe(c C, e *Event, name func(id string) string) string
	// Field gives the values of e's field name (one of the rule set's
	// Fields) for a script's expectations: none when e has no such field.
	Field(c C, e *Event, name string) []string
}

// EventType is one of a rule set's event types: the name its events carry
// in Type, and a maker of its empty payload (nil for a type that carries
// none).
type EventType[C any] struct {
	Name string
	New  func() Payload[C]
}

// Type is the event type called name whose payload is a *P, as a registry
// entry: Type[*Rules, Moved]("moved").
func Type[C, P any, PP interface {
	*P
	Payload[C]
}](name string) EventType[C] {
	return EventType[C]{Name: name, New: func() Payload[C] { return PP(new(P)) }}
}

// Events is the registry of a rule set's event types, in the order they are
// listed. The Rules methods the engine calls on events (EventTypes,
// Payload, Apply, Describe and Match) are loops over it.
type Events[C any] []EventType[C]

// Types lists the names of the event types.
func (es Events[C]) Types() []string {
	out := make([]string, len(es))
	for i, t := range es {
		out[i] = t.Name
	}
	return out
}

// Payload makes an empty payload for the type called typ (nil for a type
// with none), and false if there is no such type (Rules.Payload).
func (es Events[C]) Payload(typ string) (any, bool) {
	i := slices.IndexFunc(es, func(t EventType[C]) bool { return t.Name == typ })
	if i < 0 {
		return nil, false
	}
	if es[i].New == nil {
		return nil, true
	}
	return es[i].New(), true
}

// payload is e's payload as one of the registry's, or nil for an event
// without one.
func (es Events[C]) payload(e *Event) (Payload[C], error) {
	if e.Data == nil {
		return nil, nil
	}
	p, ok := e.Data.(Payload[C])
	if !ok {
		return nil, fmt.Errorf("event %d (%s): its payload is a %T, which is none of the rule set's event types", e.Seq, e.Type, e.Data)
	}
	return p, nil
}

// Apply folds e into s with its payload's Fold (Rules.Apply); an event
// without a payload changes nothing but its moves.
func (es Events[C]) Apply(c C, s *State, e *Event) error {
	p, err := es.payload(e)
	if err != nil || p == nil {
		return err
	}
	return p.Fold(c, s, e)
}

// Describe words e with its payload's Describe (Rules.Describe); "" for an
// event without one of the registry's payloads (an engine event).
func (es Events[C]) Describe(c C, e *Event, name func(id string) string) string {
	p, ok := e.Data.(Payload[C])
	if !ok || p == nil {
		return ""
	}
	return p.Describe(c, e, name)
}

// Match reports whether any value of e's field name is want (Fielder);
// false for an event without one of the registry's payloads.
func (es Events[C]) Match(c C, e *Event, name, want string) bool {
	p, ok := e.Data.(Payload[C])
	if !ok || p == nil {
		return false
	}
	return slices.Contains(p.Field(c, e, name), want)
}
