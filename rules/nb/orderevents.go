package nb

import (
	"fmt"
	"slices"
	"strings"

	"orderly/game"
)

// The events of an order's life: written, delivered, read, acted on,
// superseded, completed, and the restrictions it puts on the units under
// it (SPEC NB-1 to NB-13).

// orderWritten records an order written (NB-2), given at the table edge to
// an off-board reserve (NB-10) or before the game (NB-1).
type orderWritten struct{ Data }

// Fold adds the order to the side's; a messenger's order and recipient are
// in the owner's event alone.
func (p *orderWritten) Fold(_ *Rules, gs *game.State, e *game.Event) error {
	s := of(gs)
	o := s.ords.One(OrderState{Order: *p.Order, Side: e.Side, Status: Carried})
	if o.Direct {
		o.Status = Delivered
		o.Delivered = e.Turn
	}
	s.ord[o.ID] = len(s.Orders)
	s.open = append(s.open, len(s.Orders))
	s.Orders = append(s.Orders, o)
	if side := s.Side(e.Side); side != nil {
		side.Orders++
		if !o.Direct {
			side.Written++
		}
	}
	if p.How == "entry" {
		// An off-board reserve's order for its entry (SPEC NB-10).
		for _, id := range o.For {
			if f := s.Formation(id); f != nil && f.Reserve == "off-board" {
				f.Then = &o.Order
			}
		}
	}
	if p.Messenger != "" {
		if m := s.Messenger(p.Messenger); m != nil {
			m.Order, m.To = p.Order.ID, p.To
		}
	}
	return nil
}

// Describe says what the order is, for whom, and how it goes.
func (p *orderWritten) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	d := p.filled()
	switch d.How {
	case "initial":
		return fmt.Sprintf("%s: %s for %s before the game", d.Order.ID, d.Order, shown(name, d.Order.For))
	case "entry":
		return fmt.Sprintf("%s: %s for %s, given to %s at the table edge", d.Order.ID, d.Order, shown(name, d.Order.For), name(d.To))
	}
	return fmt.Sprintf("%s: %s for %s, by %s, carried by %s to %s", d.Order.ID, d.Order, shown(name, d.Order.For), name(d.General), d.Messenger, name(d.To))
}

// orderDelivered records an order reaching its recipient (NB-3), and whose
// readers wait for their general to detach (NB-13).
type orderDelivered struct{ Data }

// Fold marks the order delivered and starts the readings of its readers; a
// reader who already acts on it (the army commander joined him, NB-13)
// keeps his reading.
func (p *orderDelivered) Fold(_ *Rules, gs *game.State, e *game.Event) error {
	s := of(gs)
	o := s.OrderByID(p.OrderID)
	if o == nil {
		return nil
	}
	o.Delivered, o.Via = e.Turn, p.General
	if o.Status != Active {
		o.Status = Delivered
	}
	for _, f := range p.Readers {
		if o.Reader(f) == nil {
			o.Readers = append(o.Readers, Reader{Formation: f, General: s.generalOf(f), Held: slices.Contains(p.Held, f)})
		}
	}
	return nil
}

// Describe says to whom the order came and who waits.
func (p *orderDelivered) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	out := fmt.Sprintf("%s delivered to %s, for %s", p.OrderID, name(p.General), shown(name, p.Readers))
	if len(p.Held) > 0 {
		out += fmt.Sprintf("; %s waits until its general detaches from the unit he is with", strings.Join(p.Held, " and "))
	}
	return out
}

// orderRead records a general reading an order for a formation, and the
// turn the delay roll says it acts (NB-5).
type orderRead struct{ Data }

// Fold marks the order and the formation's reading read.
func (p *orderRead) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	o := of(gs).OrderByID(p.OrderID)
	if o == nil {
		return nil
	}
	if o.Status != Active {
		o.Status = Read
	}
	if rd := o.Reader(p.Formation); rd != nil {
		rd.Read, rd.Acts, rd.General = true, p.Acts, p.General
	}
	return nil
}

// Describe gives the reader, the roll and the turn the formation acts.
func (p *orderRead) Describe(_ *Rules, e *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s reads %s for %s: %s; acts on turn %d", name(p.General), p.OrderID, name(p.Formation), firstRoll(e), p.Acts)
}

// orderWaiting records an order that waits to be read; it changes
// nothing.
type orderWaiting struct{ Data }

// Fold changes nothing: the event only tells.
func (p *orderWaiting) Fold(*Rules, *game.State, *game.Event) error { return nil }

// Describe gives the reason it waits.
func (p *orderWaiting) Describe(*Rules, *game.Event, func(string) string) string { return p.Text }

// orderNotRead records an order a formation will not read.
type orderNotRead struct{ Data }

// Fold drops the formation's reading.
func (p *orderNotRead) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	if o := of(gs).OrderByID(p.OrderID); o != nil {
		o.Readers = slices.DeleteFunc(o.Readers, func(r Reader) bool { return r.Formation == p.Formation })
	}
	return nil
}

// Describe gives the reason.
func (p *orderNotRead) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s is not read for %s: %s", p.OrderID, name(p.Formation), p.Text)
}

// orderActive records a formation, and the divisions with it, acting on an
// order (NB-5, NB-9), or an off-board reserve that will act on it once it
// enters (NB-10).
type orderActive struct{ Data }

// Fold makes the order active and the formations' order.
func (p *orderActive) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	s := of(gs)
	o := p.Order
	if st := s.OrderByID(o.ID); st != nil {
		st.Status = Active
		if rd := st.Reader(p.Formation); rd != nil {
			rd.Active = true
		} else if p.How == "messenger" || p.How == "army-commander" {
			st.Readers = append(st.Readers, Reader{Formation: p.Formation, Active: true})
		}
		o = &st.Order
	}
	for id := range p.formations() {
		f := s.Formation(id)
		if f == nil {
			return fmt.Errorf("formation %s is not in the scenario", id)
		}
		if f.Reserve == "off-board" && p.How != "initial" {
			f.Then = o // it follows this order once it enters (SPEC NB-10)
			continue
		}
		f.Order = o
		if f.Reserve == "on-board" && o.Kind != "reserve" {
			f.Reserve = ""
		}
	}
	return nil
}

// Describe says who acts on what, with whom, and who keeps his own order.
func (p *orderActive) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	d := p.filled()
	if d.How == "for-entry" {
		return fmt.Sprintf("%s will act on %s (%s) once it enters", name(d.Formation), d.Order.ID, d.Order)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s acts on %s (%s)", name(d.Formation), d.Order.ID, d.Order)
	if len(d.Divisions) > 0 {
		fmt.Fprintf(&b, ", with %s", shown(name, d.Divisions))
	}
	if len(d.Left) > 0 {
		fmt.Fprintf(&b, "; keeping their own orders (out of range or without a general): %s", shown(name, d.Left))
	}
	if d.How != "" {
		fmt.Fprintf(&b, " [%s]", d.How)
	}
	return b.String()
}

// orderSuperseded records a formation that will not act on an order, as a
// newer one came (NB-11, NB-13).
type orderSuperseded struct{ Data }

// Fold ends this formation's reading alone; the other readers go on
// (NB-11). The order is superseded once every reader's is.
func (p *orderSuperseded) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	s := of(gs)
	o := s.OrderByID(p.OrderID)
	if o == nil {
		return nil
	}
	if rd := o.Reader(p.Formation); rd != nil {
		rd.Superseded = true
	} else {
		o.Readers = append(o.Readers, Reader{Formation: p.Formation, General: s.generalOf(p.Formation), Superseded: true})
	}
	if o.Status != Active && !slices.ContainsFunc(o.Readers, func(r Reader) bool { return !r.Superseded }) {
		o.Status = Superseded
	}
	return nil
}

// Describe gives the reason.
func (p *orderSuperseded) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s is not acted on by %s: %s", p.OrderID, name(p.Formation), p.Text)
}

// orderComplete records a formation that completed its order and what it
// does now (NB-8).
type orderComplete struct{ Data }

// Fold gives the formations their new order.
func (p *orderComplete) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	s := of(gs)
	for id := range p.formations() {
		if f := s.Formation(id); f != nil {
			f.Order = p.Order
		}
	}
	return nil
}

// Describe says what the formation does now.
func (p *orderComplete) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	d := p.filled()
	return fmt.Sprintf("%s completed its order; now %s", name(d.Formation), d.Order)
}

// rangeViolation records a unit beyond its general's command range
// (NB-12); it changes nothing.
type rangeViolation struct{ Data }

// Fold changes nothing: the event only tells.
func (p *rangeViolation) Fold(*Rules, *game.State, *game.Event) error { return nil }

// Describe gives the distance and the range.
func (p *rangeViolation) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s is %g\" from %s, beyond his %g\" range", name(p.Unit), p.Distance, name(p.General), p.Range)
}

// restriction records units that broke what an attack order asks of them
// (NB-7); it changes nothing.
type restriction struct{ Data }

// Fold changes nothing: the event only tells.
func (p *restriction) Fold(*Rules, *game.State, *game.Event) error { return nil }

// Describe says which units and what the order asks.
func (p *restriction) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	units := shown(name, p.Units)
	switch p.Status {
	case "in-line", "out-of-column":
		// in-line: the report of logs written before every formation
		// but column counted (NB-7).
		verb, shape := "are", p.Text
		if len(p.Units) == 1 {
			verb = "is"
		}
		if p.Status == "in-line" || shape == "" {
			shape = "line"
		}
		return fmt.Sprintf("%s %s %s; under an attack order units keep to column until engaged", units, verb, game.Formed(shape))
	case "short-move":
		return fmt.Sprintf("%s moved less than %g\"; under an attack order the division moves at least half its slowest unit's speed", units, p.Distance)
	}
	return fmt.Sprintf("%s: %s", units, p.Text)
}
