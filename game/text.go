package game

import (
	"fmt"
	"strings"
)

// Describe says in a line what the event records, for people.
func (e *Event) Describe() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	switch e.Type {
	case StepBegun:
		w("%s step", e.Step)
	case SideReady:
		w("%s is ready to end the %s step", e.Side, e.Step)
	case GameOver:
		w("game over: %s", e.Text)
	case OrderWritten:
		switch {
		case e.How == "initial":
			w("%s: %s for %s before the game", e.Order.ID, e.Order, strings.Join(e.Order.For, ", "))
		case e.How == "entry":
			w("%s: %s for %s, given to %s at the table edge", e.Order.ID, e.Order, strings.Join(e.Order.For, ", "), e.To)
		default:
			w("%s: %s for %s, by %s, carried by %s to %s", e.Order.ID, e.Order, strings.Join(e.Order.For, ", "), e.General, e.Messenger, e.To)
		}
	case MessengerSent:
		w("%s leaves %v, riding %g\" a turn", e.Messenger, *e.At, e.Range)
	case MessengerMoved:
		w("%s rides %v -> %v", e.Messenger, *e.From, *e.At)
		if e.Arrived {
			b.WriteString(", arrived")
		}
	case MessengerHeld, OrderWaiting, EntryBlocked:
		w("%s", e.Text)
	case MessengerRedirect:
		w("%s now rides to %s instead of %s", e.Messenger, e.To, e.General)
	case MessengerWithdrawn:
		w("%s is recalled", e.Messenger)
	case OrderDelivered:
		w("%s delivered to %s, for %s", e.OrderID, e.General, strings.Join(e.Readers, ", "))
	case OrderRead:
		w("%s reads %s for %s: %s; acts on turn %d", e.General, e.OrderID, e.Formation, e.Roll, e.Acts)
	case OrderNotRead:
		w("%s is not read for %s: %s", e.OrderID, e.Formation, e.Text)
	case OrderActive:
		if e.How == "for-entry" {
			w("%s will act on %s (%s) once it enters", e.Formation, e.Order.ID, e.Order)
			break
		}
		w("%s acts on %s (%s)", e.Formation, e.Order.ID, e.Order)
		if len(e.Divisions) > 0 {
			w(", with %s", strings.Join(e.Divisions, ", "))
		}
		if len(e.Left) > 0 {
			w("; keeping their own orders (out of range or without a general): %s", strings.Join(e.Left, ", "))
		}
		if e.How != "" {
			w(" [%s]", e.How)
		}
	case OrderSuperseded:
		w("%s is not acted on by %s: %s", e.OrderID, e.Formation, e.Text)
	case OrderComplete:
		w("%s completed its order; now %s", e.Formation, e.Order)
	case Engaged:
		w("%s is engaged with %s", e.Formation, strings.Join(e.With, ", "))
	case Disengaged:
		w("%s is no longer engaged", e.Formation)
	case ReserveScheduled:
		w("%s will enter at %s (%s edge) from turn %d: %s", e.Formation, e.Square, e.Edge, e.Entry, e.Roll)
	case GeneralPlaced:
		w("%s of %s placed at %v on the %s edge", e.General, e.Formation, *e.At, e.Edge)
	case ReserveArrivalRoll:
		w("%s arrival: %s; enters on turn %d", e.Formation, e.Roll, e.Arrival)
	case ReserveEntered:
		w("%s enters at %v with %d pieces", e.Formation, *e.At, len(e.Moves))
		if e.Text != "" {
			w("; %s", e.Text)
		}
	case Moved:
		for i, m := range e.Moves {
			if i > 0 {
				b.WriteString("; ")
			}
			w("%s %v -> %v", m.ID(), *m.From, m.To)
			if m.Shape != "" {
				w(" in %s", m.Shape)
			}
		}
	case StatusChanged:
		w("%s is %s", e.Unit, e.Status)
	case Attached:
		w("%s attaches to %s", e.General, e.To)
	case Detached:
		w("%s detaches from %s", e.General, e.To)
	case GeneralRemoved:
		w("%s is %s", e.General, e.Status)
	case GeneralReplaced:
		w("%s replaces %s in command of %s (%s, %g\")", e.New.ID, e.General, e.Formation, e.New.Quality, e.New.Range)
	case CombatDeclared:
		w("%s start combat", strings.Join(e.Units, ", "))
	case Reacted:
		w("%s react", strings.Join(e.Units, ", "))
	case RangeViolation:
		w("%s is %g\" from %s, beyond his %g\" range", e.Unit, e.Distance, e.General, e.Range)
	case Restriction:
		units := strings.Join(e.Units, ", ")
		switch e.Status {
		case "in-line":
			verb := "are"
			if len(e.Units) == 1 {
				verb = "is"
			}
			w("%s %s in line; under an attack order units keep to column until engaged", units, verb)
		case "short-move":
			w("%s moved less than %g\"; under an attack order the division moves at least half its slowest unit's speed", units, e.Distance)
		default:
			w("%s: %s", units, e.Text)
		}
	case CommandRejected:
		w("%s", e.Text)
		if e.Command != nil {
			w(" [%s]", e.Command.Verb)
		}
	default:
		w("%s", e.Text)
	}
	if e.Rule != "" {
		w(" (%s)", e.Rule)
	}
	return b.String()
}
