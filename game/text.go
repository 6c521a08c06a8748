package game

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Describe says in one sentence what e records, for people: the engine's
// own events here, every other by rule set r (Rules.Describe). name shows
// an id to people; nil shows ids as they are. The rule behind the event,
// if any, ends the sentence.
func Describe(r Rules, e *Event, name func(string) string) string {
	if name == nil {
		name = func(id string) string { return id }
	}
	if _, raw := e.Data.(json.RawMessage); raw && r != nil {
		c := *e
		if decodeData(r, &c) == nil {
			e = &c
		}
	}
	var b strings.Builder
	switch e.Type {
	case GameResult:
		if d, ok := e.Data.(*Outcome); ok {
			b.WriteString(d.Text)
		}
	case StepBegun:
		fmt.Fprintf(&b, "%s step", e.Step)
		if d, ok := e.Data.(*Begun); ok && len(d.Actors) > 0 && (len(d.Actors) != 1 || d.Actors[0] != All) {
			names := make([]string, len(d.Actors))
			for i, a := range d.Actors {
				names[i] = name(a)
			}
			fmt.Fprintf(&b, " for %s", strings.Join(names, ", "))
		}
	case SideReady:
		fmt.Fprintf(&b, "%s is ready to end the %s step", e.Side, e.Step)
	case SideUnready:
		fmt.Fprintf(&b, "%s is no longer ready to end the %s step", e.Side, e.Step)
	case TakenBack:
		if d, ok := e.Data.(*Taken); ok {
			fmt.Fprintf(&b, "%s took back its %s", e.Side, d.Verb)
			if d.Text != "" {
				fmt.Fprintf(&b, ": %s", d.Text)
			}
		}
	case StepEnded:
		fmt.Fprintf(&b, "the umpire ended the %s step", e.Step)
		if d, ok := e.Data.(*Ended); ok && len(d.Waited) > 0 {
			verb := "were"
			if len(d.Waited) == 1 {
				verb = "was"
			}
			who := d.Waited[len(d.Waited)-1]
			if n := len(d.Waited); n > 1 {
				who = strings.Join(d.Waited[:n-1], ", ") + " and " + who
			}
			fmt.Fprintf(&b, "; %s %s not ready", who, verb)
		}
	case GameOver:
		why := ""
		if d, ok := e.Data.(*Over); ok {
			why = d.Why
		}
		fmt.Fprintf(&b, "game over: %s", why)
	case Placed:
		if d, ok := e.Data.(*PlaceData); ok {
			b.WriteString(describePlace(d, name))
		}
	case Contacted:
		if d, ok := e.Data.(*Contact); ok {
			b.WriteString(describeContact(d, name))
		}
	case CommandRejected:
		if d, ok := e.Data.(*Rejected); ok {
			b.WriteString(d.Why)
			if d.Command != nil {
				fmt.Fprintf(&b, " [%s]", d.Command.Verb)
			}
		}
	default:
		if r == nil {
			b.WriteString(e.Type)
			break
		}
		b.WriteString(r.Describe(e, name))
	}
	if e.Rule != "" {
		fmt.Fprintf(&b, " (%s)", e.Rule)
	}
	return b.String()
}
