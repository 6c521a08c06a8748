package server

import (
	"encoding/json"
	"fmt"

	"orderly/game"
)

// Entry is an event as the server sends it to a seat (the events API, the
// event stream, a command's answer): the engine's event, as the engine
// marshals it, and beside its fields "summary", one sentence saying what
// it records. The page shows the summary and describes nothing itself.
type Entry struct {
	Event   game.Event
	Summary string
}

// MarshalJSON writes the event as game.Event marshals itself, with the
// summary added as its last key.
func (e Entry) MarshalJSON() ([]byte, error) {
	ev, err := json.Marshal(e.Event)
	if err != nil {
		return nil, err
	}
	if len(ev) < 2 || ev[0] != '{' || ev[len(ev)-1] != '}' {
		return nil, fmt.Errorf("event %d does not marshal to a JSON object", e.Event.Seq)
	}
	sum, err := json.Marshal(e.Summary)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(ev)+len(sum)+12)
	out = append(out, ev[:len(ev)-1]...)
	if len(ev) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"summary":`...)
	out = append(out, sum...)
	return append(out, '}'), nil
}

// UnmarshalJSON reads what MarshalJSON writes, for clients written in Go.
func (e *Entry) UnmarshalJSON(data []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	var sum string
	if raw, ok := fields["summary"]; ok {
		if err := json.Unmarshal(raw, &sum); err != nil {
			return err
		}
		delete(fields, "summary")
	}
	rest, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	var ev game.Event
	if err := json.Unmarshal(rest, &ev); err != nil {
		return err
	}
	*e = Entry{Event: ev, Summary: sum}
	return nil
}

// describe is the one sentence a seat is shown for event e: the engine's
// words for its own events, the rule set's for the rest (Rules.Describe).
// Every event the server sends is described here and nowhere else. It
// names pieces, generals and formations as the scenario does.
func (l *live) describe(e *game.Event) string {
	var name func(string) string
	if l.src != nil {
		name = l.src.names
	}
	return game.Describe(l.rules, e, name)
}

// present is event e as who sees it: numbered n in who's own numbering,
// with the audience it is shown (game.Event.Shown), and described.
func (l *live) present(e game.Event, who string, n int) Entry {
	var taken *game.Taken
	if e.Type == game.TakenBack && who != game.Umpire {
		taken = takenOf(&e)
	}
	if who != game.Umpire {
		e.Seq = n
	}
	e = e.Shown(who, l.rec.Fog != "" && l.rec.Fog != game.FogOff)
	if taken != nil {
		// What a side is told a take-back withdraws: its own numbers of the
		// events it saw, never the game's.
		c := *taken
		c.Of = []int{}
		for _, s := range taken.Of {
			if k := l.number(who, s); k > 0 && int(l.seen[who][k-1]) == s {
				c.Of = append(c.Of, k)
			}
		}
		e.Data = &c
	}
	return Entry{Event: e, Summary: l.describe(&e)}
}

// takenOf is the payload of a taken-back event, read if it is still raw
// (an event read back from the store); nil if it does not read.
func takenOf(e *game.Event) *game.Taken {
	switch d := e.Data.(type) {
	case *game.Taken:
		return d
	case json.RawMessage:
		t := new(game.Taken)
		if json.Unmarshal(d, t) == nil {
			return t
		}
	}
	return nil
}
