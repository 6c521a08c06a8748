package lob

import (
	"fmt"
	"strings"

	"orderly/game"
)

// words turns a result or stage key into words: not-accepted, not accepted.
func words(s string) string { return strings.ReplaceAll(s, "-", " ") }

// list joins names: a, b and c.
func list(xs []string, name func(string) string) string {
	n := make([]string, len(xs))
	for i, x := range xs {
		n[i] = name(x)
	}
	switch len(n) {
	case 0:
		return ""
	case 1:
		return n[0]
	}
	return strings.Join(n[:len(n)-1], ", ") + " and " + n[len(n)-1]
}

// orderText words an order: "attack order french-3 to II".
func orderText(o *Order, name func(string) string) string {
	s := o.Kind + " order " + o.ID
	if o.Kind == "" {
		s = "release " + o.ID
	}
	return s + " to " + name(o.To)
}

// Describe says in one sentence what one of LOB's events records.
func (r *Rules) Describe(e *game.Event, name func(string) string) string {
	roll := func(i int) string {
		if i < len(e.Rolls) {
			ro := e.Rolls[i]
			return fmt.Sprintf(" (%s %d, total %d)", ro.Table, ro.Natural, ro.Total)
		}
		return ""
	}
	switch d := e.Data.(type) {
	case *Begun:
		var parts []string
		if d.Aware {
			parts = append(parts, "the army commander becomes aware")
		}
		if len(d.Rejoined) > 0 {
			if len(d.Adopted) == 0 {
				return fmt.Sprintf("%s comes within its corps' command radius with no orders to take up; it awaits orders.", list(d.Rejoined, name))
			}
			return fmt.Sprintf("%s comes within its corps' command radius and takes up its orders (%s).", list(d.Rejoined, name), d.Adopted[0].ID)
		}
		if len(d.Entered) > 0 {
			parts = append(parts, list(d.Entered, name)+" enter")
		}
		if len(d.HQs) > 0 {
			parts = append(parts, "the HQ of "+list(d.HQs, name)+" arrives")
		}
		for _, en := range d.Diverted {
			parts = append(parts, entryText(en, name))
		}
		for _, o := range d.Adopted {
			parts = append(parts, fmt.Sprintf("%s takes up %s", name(o.To), orderText(&o, name)))
		}
		if len(d.Arrived) > 0 {
			if len(d.Arrived) == 1 {
				parts = append(parts, "order "+d.Arrived[0]+" arrives and awaits acceptance")
			} else {
				parts = append(parts, "orders "+strings.Join(d.Arrived, ", ")+" arrive and await acceptance")
			}
		}
		for _, id := range d.Kept {
			parts = append(parts, "order "+id+" reaches its formation in reserve, which keeps it as its existing orders with no acceptance roll")
		}
		for _, id := range d.Pending {
			parts = append(parts, "order "+id+" arrives and places its reserve once the Command accepts the order")
		}
		for _, ef := range d.Effects {
			switch {
			case ef.Reserve:
				parts = append(parts, fmt.Sprintf("%s is placed in reserve by the relay", name(ef.Formation)))
			case ef.Follows != "":
				parts = append(parts, fmt.Sprintf("%s is released from reserve by the relay and follows its existing orders (%s)", name(ef.Formation), ef.Follows))
			default:
				parts = append(parts, fmt.Sprintf("%s is released from reserve by the relay", name(ef.Formation)))
			}
		}
		for _, o := range d.Relays {
			parts = append(parts, fmt.Sprintf("%s relays it to %s, arriving turn %d", name(o.From), name(o.To), o.Arrives))
		}
		if len(parts) == 0 {
			return fmt.Sprintf("%s's turn begins.", name(d.Side))
		}
		return fmt.Sprintf("%s's turn begins: %s.", name(d.Side), strings.Join(parts, "; "))
	case *Acceptance:
		var parts []string
		for i, t := range d.Rolls {
			parts = append(parts, fmt.Sprintf("order %s is %s%s", t.Order, words(t.Result), roll(i)))
		}
		if len(d.Embedded) > 0 {
			parts = append(parts, "embedded "+strings.Join(d.Embedded, ", ")+" accepted with it")
		}
		if len(d.Executing) > 0 {
			parts = append(parts, strings.Join(d.Executing, ", ")+" now executing")
		}
		if len(d.Existing) > 0 {
			parts = append(parts, strings.Join(d.Existing, ", ")+" kept in reserve as existing orders, followed once released")
		}
		if len(d.Superseded) > 0 {
			parts = append(parts, strings.Join(d.Superseded, ", ")+" superseded")
		}
		for _, ef := range d.Effects {
			parts = append(parts, name(ef.Formation)+" placed in reserve")
		}
		for _, o := range d.Relays {
			parts = append(parts, fmt.Sprintf("relayed to %s, arriving turn %d", name(o.To), o.Arrives))
		}
		return fmt.Sprintf("Acceptance (%s): %s.", d.Side, strings.Join(parts, "; "))
	case *Checks:
		var parts []string
		n := 0
		for _, c := range d.Fluke {
			s := fmt.Sprintf("%s fluke stoppage check: %s%s", name(c.Command), words(c.Result), roll(n))
			if len(c.Lost) > 0 {
				s += "; " + list(c.Lost, name) + " lose reserve status"
			}
			parts = append(parts, s)
			n++
		}
		for _, c := range d.Recovery {
			parts = append(parts, fmt.Sprintf("%s attack recovery, %s step: %s%s", name(c.Command), c.Step, c.Result, roll(n)))
			n++
		}
		return fmt.Sprintf("Checks (%s): %s.", d.Side, strings.Join(parts, "; "))
	case *Issue:
		if d.HQ {
			if d.Result != "issued" {
				return fmt.Sprintf("%s's command roll to move the army HQ fails%s.", name(d.By), roll(0))
			}
			return fmt.Sprintf("%s orders the army HQ to move%s.", name(d.By), roll(0))
		}
		if d.Result != "issued" {
			return fmt.Sprintf("%s's command roll fails%s: no %s order to %s this turn.", name(d.By), roll(0), d.Order.Kind, name(d.Order.To))
		}
		s := fmt.Sprintf("%s issues %s, %s away: it arrives on turn %d", name(d.By), orderText(&d.Order, name), plural(d.Dist, "hex", "hexes"), d.Order.Arrives)
		if d.Roll {
			s += roll(0)
		} else {
			s += " (no command roll)"
		}
		if d.Order.Condition != "" {
			s += fmt.Sprintf(", on condition %q", d.Order.Condition)
		}
		if d.Order.Reserve != "" {
			s += ", placing " + name(d.Order.Reserve) + " in reserve"
		} else if d.Order.Kind == Reserve {
			s += ", its leader to name the reserve"
		}
		if len(d.With) > 0 {
			var b []string
			for _, o := range d.With {
				b = append(b, o.To)
			}
			s += ", with " + list(b, name) + " embedded"
		}
		return s + "."
	case *Release:
		if d.Order == nil {
			return fmt.Sprintf("%s's command roll to release %s fails%s.", name(d.By), name(d.Formation), roll(0))
		}
		return fmt.Sprintf("%s orders %s released%s; the relay arrives on turn %d.", name(d.By), name(d.Formation), roll(0), d.Order.Arrives)
	case *Initiative:
		what := name(d.Formation)
		if d.Formation == e.Side {
			what = "the army HQ"
		}
		if d.Result != "initiative" {
			return fmt.Sprintf("%s fails to gain initiative to %s for %s%s.", name(d.Leader), words(d.Purpose), what, roll(0))
		}
		if d.Follows != "" {
			return fmt.Sprintf("%s gains initiative to %s for %s%s; it follows its existing orders (%s).", name(d.Leader), words(d.Purpose), what, roll(0), d.Follows)
		}
		return fmt.Sprintf("%s gains initiative to %s for %s%s.", name(d.Leader), words(d.Purpose), what, roll(0))
	case *Skedaddle:
		if d.Command != "" && len(d.Commands) == 0 {
			// The skedaddling side's own part of a skedaddle the enemy
			// caused.
			var parts []string
			if len(d.Held) > 0 {
				parts = append(parts, list(d.Held, name)+" stood within its command radius and must be back within it for the skedaddle to end")
			}
			if len(d.Lost) > 0 {
				parts = append(parts, list(d.Lost, name)+" lose reserve status")
			}
			return fmt.Sprintf("%s's skedaddle: %s.", name(d.Command), strings.Join(parts, "; "))
		}
		who := "the army HQ of " + d.Side
		if d.Command != "" {
			who = list(d.Commands, name)
		}
		why := "by choice"
		if d.Cause != "" {
			why = name(d.Cause) + " enters the HQ's hex"
		}
		s := fmt.Sprintf("%s skedaddle (%s)", who, why)
		if len(d.Lost) > 0 {
			s += "; " + list(d.Lost, name) + " lose reserve status"
		}
		if len(d.Limbered) > 0 {
			s += "; " + list(d.Limbered, name) + " limber"
		}
		return s + "."
	case *Condition:
		return fmt.Sprintf("The condition of order %s is fulfilled.", d.Order)
	case *Ending:
		if e.Type == EvDeclared {
			return fmt.Sprintf("%s's order %s is declared fulfilled; it ends with the player turn.", name(d.Command), d.Order)
		}
		s := fmt.Sprintf("%s ends attack order %s as futile; %s go to no-orders status", name(d.Command), d.Order, list(d.Commands, name))
		if len(d.Recover) > 0 {
			s += " and " + list(d.Recover, name) + " begin attack recovery"
		}
		return s + "."
	case *Ended:
		var parts []string
		if len(d.Fulfilled) > 0 {
			parts = append(parts, "orders "+strings.Join(d.Fulfilled, ", ")+" fulfilled; "+list(d.Commands, name)+" to no-orders status")
		}
		if len(d.Recover) > 0 {
			parts = append(parts, list(d.Recover, name)+" begin attack recovery")
		}
		if d.Goal {
			parts = append(parts, "the army HQ has reached its destination")
		}
		return fmt.Sprintf("%s's player turn ends: %s.", d.Side, strings.Join(parts, "; "))
	case *Moved:
		who := name(d.Unit)
		switch {
		case d.Army != "":
			who = "the army HQ of " + d.Army
		case d.HQ != "":
			who = "the HQ of " + name(d.HQ)
		case d.Leader != "":
			who = name(d.Leader)
		}
		verb := "moves"
		if d.Posted {
			verb = "is posted"
		}
		return fmt.Sprintf("%s %s to %s (%s MP).", who, verb, d.To, MP(d.Cost))
	case *Formed:
		return fmt.Sprintf("%s forms %s.", name(d.Unit), d.Formation)
	case *Lost:
		if d.Left == 0 {
			return fmt.Sprintf("%s loses %s and is eliminated.", name(d.Unit), plural(d.Points, "strength point", "strength points"))
		}
		return fmt.Sprintf("%s loses %s (%d left).", name(d.Unit), plural(d.Points, "strength point", "strength points"), d.Left)
	case *Aware:
		return fmt.Sprintf("The army commander of %s becomes aware.", name(d.Side))
	case *Designation:
		s := fmt.Sprintf("%s names %s as the reserve of order %s", name(d.By), name(d.Formation), d.Order)
		switch {
		case d.Relay != nil:
			s += fmt.Sprintf("; %s relays it, arriving turn %d", name(d.Command), d.Relay.Arrives)
		case d.Placed:
			s += "; " + name(d.Formation) + " is placed in reserve"
		default:
			s += "; it is placed in reserve once " + name(d.Command) + " accepts the order"
		}
		return s + "."
	case *EntryNamed:
		return fmt.Sprintf("The umpire names road hex %s for %s to enter at, should its entry area be held by the enemy.", d.At, name(d.Formation))
	}
	return e.Type
}

// entryText words a piece entering elsewhere than its scenario's hex
// (3.7a): "26-ny enters at 0208, as 0108 is held by the enemy".
func entryText(en Entry, name func(string) string) string {
	who := name(en.Piece)
	if id, ok := strings.CutPrefix(en.Piece, "hq:"); ok {
		who = "the HQ of " + name(id)
	}
	switch {
	case en.Far:
		return fmt.Sprintf("%s enters at %s, the nearest free hex, as %s, the rest of its entry area and every road hex on a map edge are held by the enemy or full", who, en.At, en.From)
	case en.Road:
		return fmt.Sprintf("%s enters at %s, a road hex leading off the map, as %s and the rest of its entry area are held by the enemy or full", who, en.At, en.From)
	case en.Why == "full":
		return fmt.Sprintf("%s enters at %s, as %s is full", who, en.At, en.From)
	}
	return fmt.Sprintf("%s enters at %s, as %s is held by the enemy", who, en.At, en.From)
}
