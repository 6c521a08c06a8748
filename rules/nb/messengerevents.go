package nb

import (
	"fmt"

	"orderly/game"
)

// The events of a messenger's ride with an order (SPEC NB-3, NB-11,
// NB-13, NB-15).

// messengerSent records a messenger leaving with an order (NB-3).
type messengerSent struct{ Data }

// Fold puts the messenger in flight.
func (p *messengerSent) Fold(_ *Rules, gs *game.State, e *game.Event) error {
	s := of(gs)
	s.msg[p.Messenger] = len(s.Messengers)
	s.Messengers = append(s.Messengers, s.msgs.One(Messenger{ID: p.Messenger, Side: e.Side, At: *p.At, Speed: p.Range}))
	if side := s.Side(e.Side); side != nil {
		side.Messengers++
	}
	return nil
}

// Describe says where he leaves and how fast he rides.
func (p *messengerSent) Describe(*Rules, *game.Event, func(string) string) string {
	d := p.filled()
	return fmt.Sprintf("%s leaves %v, riding %g\" a turn", d.Messenger, *d.At, d.Range)
}

// messengerMoved records a messenger's ride in a turn, and his arrival.
type messengerMoved struct{ Data }

// Fold moves the messenger, and takes him off once he has arrived.
func (p *messengerMoved) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	s := of(gs)
	m := s.Messenger(p.Messenger)
	if m == nil {
		return fmt.Errorf("messenger %s is not in flight", p.Messenger)
	}
	m.At = *p.At
	if p.Arrived {
		s.removeMessenger(p.Messenger)
	}
	return nil
}

// Describe says from where to where he rode.
func (p *messengerMoved) Describe(*Rules, *game.Event, func(string) string) string {
	d := p.filled()
	out := fmt.Sprintf("%s rides %v -> %v", d.Messenger, *d.From, *d.At)
	if d.Arrived {
		out += ", arrived"
	}
	return out
}

// messengerHeld records a messenger who waits for a fallen general's
// replacement (NB-15); it changes nothing.
type messengerHeld struct{ Data }

// Fold changes nothing: the event only tells.
func (p *messengerHeld) Fold(*Rules, *game.State, *game.Event) error { return nil }

// Describe gives the reason he waits.
func (p *messengerHeld) Describe(*Rules, *game.Event, func(string) string) string { return p.Text }

// messengerRedirected records a messenger sent to another recipient
// (NB-11).
type messengerRedirected struct{ Data }

// Fold gives the messenger his new recipient.
func (p *messengerRedirected) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	if m := of(gs).Messenger(p.Messenger); m != nil {
		m.To = p.To
	}
	return nil
}

// Describe names the new recipient and the old.
func (p *messengerRedirected) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s now rides to %s instead of %s", p.Messenger, name(p.To), name(p.General))
}

// messengerWithdrawn records a messenger recalled (NB-13).
type messengerWithdrawn struct{ Data }

// Fold takes the messenger off.
func (p *messengerWithdrawn) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	of(gs).removeMessenger(p.Messenger)
	return nil
}

// Describe says he is recalled.
func (p *messengerWithdrawn) Describe(*Rules, *game.Event, func(string) string) string {
	return fmt.Sprintf("%s is recalled", p.Messenger)
}
