package nes

import (
	"fmt"
	"strconv"
	"strings"

	"orderly/game"
)

// The events of the command segment: a side's turn begins (NES-2), orders
// are sent (NES-1, NES-2), command points placed and continuation checked
// (NES-3), and a brigade leader retires or comes back (NES-3).

// Begun is the payload of a turn-begun event.
type Begun struct {
	Side    string    `json:"side"`
	Markers []Stepped `json:"markers,omitempty"`
}

// Stepped is what became of one order on its way: a marker stepped down
// to Delay, or (Delay 1) the NES-1 roll's result.
type Stepped struct {
	Leader string `json:"leader"`
	Delay  int    `json:"delay"`
	Result string `json:"result,omitempty"`
}

// Fold renews the side's command points, clears its pieces' use of the
// turn before, and steps its orders on their way (NES-2).
func (d *Begun) Fold(_ *Rules, s *game.State, _ *game.Event) error {
	st := ext(s)
	side := st.Side(d.Side)
	if side == nil {
		return fmt.Errorf("no side %s", d.Side)
	}
	side.Points, side.Used = side.Each, 0
	for i := range st.Leaders {
		if l := &st.Leaders[i]; l.Side == d.Side {
			l.CP, l.Fresh, l.Used, l.GT = false, false, 0, false
		}
	}
	for i := range st.Units {
		if u := &st.Units[i]; u.Side == d.Side {
			u.Used, u.GT = 0, false
		}
	}
	for _, m := range d.Markers {
		if err := st.step(m); err != nil {
			return err
		}
	}
	return nil
}

// step moves one order on its way as m records: its marker steps down,
// or at delay 1 it is received, stays, or is ignored (NES-1, NES-2).
func (st *State) step(m Stepped) error {
	l, err := st.commandUnit(m.Leader)
	if err != nil {
		return err
	}
	if l.Pending == nil {
		return fmt.Errorf("%s has no order on its way", m.Leader)
	}
	switch m.Result {
	case "":
		l.Pending.Delay = m.Delay
		l.Marker = delayMarker(m.Delay)
	case Received:
		l.receive(*l.Pending)
	case Delay1:
		l.Pending.AtDelay1++
	case "ignored":
		l.Pending, l.Marker = nil, ""
	default:
		return fmt.Errorf("%q is not a delivery result", m.Result)
	}
	return nil
}

// Describe says how each order on its way stepped down or rolled.
func (d *Begun) Describe(_ *Rules, e *game.Event, name func(string) string) string {
	var parts []string
	n := 0
	for _, m := range d.Markers {
		if m.Result == "" {
			parts = append(parts, fmt.Sprintf("%s's order steps down to delay %d", name(m.Leader), m.Delay))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s's order at delay 1 is %s%s", name(m.Leader), words(m.Result), rollText(e, n)))
		n++
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%s's turn begins; no order is on its way.", d.Side)
	}
	return fmt.Sprintf("%s's turn begins: %s.", d.Side, strings.Join(parts, "; "))
}

// Field gives leader, delay and check ("ID delay-N" or "ID RESULT") of
// each order on its way.
func (d *Begun) Field(_ *Rules, _ *game.Event, name string) []string {
	var got []string
	for _, m := range d.Markers {
		switch name {
		case "leader":
			got = append(got, m.Leader)
		case "delay":
			got = append(got, strconv.Itoa(m.Delay))
		case "check":
			if m.Result == "" {
				got = append(got, m.Leader+" "+delayMarker(m.Delay))
			} else {
				got = append(got, m.Leader+" "+m.Result)
			}
		}
	}
	return got
}

// Sent is the payload of a sent event.
type Sent struct {
	Sender   string `json:"sender"`
	Receiver string `json:"receiver"`
	Order    Order  `json:"order"`
	Dist     int    `json:"dist"`   // hexes to the receiver or its nearest combat unit
	Radius   int    `json:"radius"` // the sender's command radius
	// Result is received, delay-N or ignored.
	Result string `json:"result"`
	Cost   int    `json:"cost"` // command points spent
}

// Fold spends the command points and puts the order in force, on its way
// at its delay, or takes the marker off if it is ignored (NES-1, NES-2).
func (d *Sent) Fold(_ *Rules, s *game.State, _ *game.Event) error {
	st := ext(s)
	l, err := st.commandUnit(d.Receiver)
	if err != nil {
		return err
	}
	if side := st.Side(l.Side); side != nil {
		side.Points -= d.Cost
	}
	switch {
	case d.Result == Received:
		l.receive(d.Order)
	case strings.HasPrefix(d.Result, "delay-"):
		o := d.Order
		o.Delay, o.AtDelay1 = int(d.Result[len(d.Result)-1]-'0'), 0
		l.Pending, l.Marker = &o, d.Result
	default: // ignored: the marker comes off (NES-1), with the order on its way
		if l.Pending != nil {
			l.Pending, l.Marker = nil, ""
		}
	}
	return nil
}

// receive puts order o in force on l: the order-received marker, the
// mobilized state (our reading: a received order mobilizes its receiver).
func (l *Leader) receive(o Order) {
	o.Delay, o.AtDelay1 = 0, 0
	l.Order, l.Pending = &o, nil
	if l.State != Mobilized {
		// Mobilized now: no continuation check in this segment. A
		// commander mobilized already is checked as before.
		l.Fresh = true
	}
	l.Marker, l.State = Received, Mobilized
}

// Describe says who sent what to whom, how far, at what cost, and how the
// delivery went.
func (d *Sent) Describe(_ *Rules, e *game.Event, name func(string) string) string {
	how := fmt.Sprintf("%d hexes away, radius %d", d.Dist, d.Radius)
	switch d.Dist {
	case 0:
		how = "in the same hex"
	case 1:
		how = fmt.Sprintf("1 hex away, radius %d", d.Radius)
	}
	what := d.Order.Kind + " order"
	if d.Order.Urgent {
		what = "urgent " + what
	}
	if strings.ContainsAny(what[:1], "aeiou") {
		what = "an " + what
	} else {
		what = "a " + what
	}
	return fmt.Sprintf("%s sends %s to %s (%s, %d CP): %s%s.", name(d.Sender), what, name(d.Receiver), how, d.Cost, words(d.Result), rollText(e, 0))
}

// Field gives sender, leader (the receiver), order, dist, check
// ("RECEIVER RESULT"), delay (of a delay-N result) and cost.
func (d *Sent) Field(_ *Rules, _ *game.Event, name string) []string {
	switch name {
	case "sender":
		return []string{d.Sender}
	case "leader":
		return []string{d.Receiver}
	case "order":
		return []string{d.Order.Kind}
	case "dist":
		return []string{strconv.Itoa(d.Dist)}
	case "check":
		return []string{d.Receiver + " " + d.Result}
	case "delay":
		if n, ok := delayOf(d.Result); ok {
			return []string{strconv.Itoa(n)}
		}
	case "cost":
		return []string{strconv.Itoa(d.Cost)}
	}
	return nil
}

// delayOf reads the level of a delay-N result.
func delayOf(result string) (int, bool) {
	if len(result) == len("delay-1") && result[:6] == "delay-" {
		return int(result[6] - '0'), true
	}
	return 0, false
}

// Placed is the payload of a cp-placed event.
type Placed struct {
	Leader string `json:"leader"`
	Cost   int    `json:"cost"`
}

// Fold stacks the command point with the commander and spends its cost
// (NES-3).
func (d *Placed) Fold(_ *Rules, s *game.State, _ *game.Event) error {
	st := ext(s)
	l, err := st.commandUnit(d.Leader)
	if err != nil {
		return err
	}
	l.CP = true
	if side := st.Side(l.Side); side != nil {
		side.Points -= d.Cost
	}
	return nil
}

// Describe says whom the command point is stacked with.
func (d *Placed) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	return fmt.Sprintf("A command point is stacked with %s (%d CP).", name(d.Leader), d.Cost)
}

// Field gives leader.
func (d *Placed) Field(_ *Rules, _ *game.Event, name string) []string {
	if name == "leader" {
		return []string{d.Leader}
	}
	return nil
}

// Checked is the payload of a checked event.
type Checked struct {
	Side   string  `json:"side"`
	Checks []Check `json:"checks"`
}

// Check is one continuation check's result: mobilized or standing.
type Check struct {
	Leader string `json:"leader"`
	Result string `json:"result"`
	// Fall lists the brigade leaders who fall to standing with a
	// division leader who does.
	Fall []string `json:"fall,omitempty"`
}

// Fold drops each commander who fails his continuation check to
// standing, with the brigade leaders who fall with him (NES-3).
func (d *Checked) Fold(_ *Rules, s *game.State, _ *game.Event) error {
	st := ext(s)
	for _, c := range d.Checks {
		l, err := st.commandUnit(c.Leader)
		if err != nil {
			return err
		}
		if c.Result != Standing {
			continue
		}
		l.fall()
		for _, id := range c.Fall {
			b, err := st.commandUnit(id)
			if err != nil {
				return err
			}
			b.fall()
		}
	}
	return nil
}

// fall drops a command unit to the standing state; the order-received
// marker comes off (our reading), the order it had stays on record.
func (l *Leader) fall() {
	l.State = Standing
	if l.Marker == Received {
		l.Marker = ""
	}
}

// Describe gives each check's result, with those who fall with it.
func (d *Checked) Describe(_ *Rules, e *game.Event, name func(string) string) string {
	var parts []string
	for i, c := range d.Checks {
		p := fmt.Sprintf("%s %s%s", name(c.Leader), words(c.Result), rollText(e, i))
		if len(c.Fall) > 0 {
			p += " with " + strings.Join(mapNames(c.Fall, name), ", ")
		}
		parts = append(parts, p)
	}
	return fmt.Sprintf("Continuation checks for %s: %s.", d.Side, strings.Join(parts, "; "))
}

// Field gives leader and check ("ID RESULT") of each commander checked and
// of each who falls with him (standing).
func (d *Checked) Field(_ *Rules, _ *game.Event, name string) []string {
	var got []string
	for _, c := range d.Checks {
		switch name {
		case "leader":
			got = append(got, c.Leader)
			got = append(got, c.Fall...)
		case "check":
			got = append(got, c.Leader+" "+c.Result)
			for _, f := range c.Fall {
				got = append(got, f+" "+Standing)
			}
		}
	}
	return got
}

// Retired is the payload of a retired event: a brigade leader retired (or
// on the BC/FD), or back in command.
type Retired struct {
	Leader  string `json:"leader"`
	Retired bool   `json:"retired"`
}

// Fold marks the brigade leader retired or back in command (NES-3).
func (d *Retired) Fold(_ *Rules, s *game.State, _ *game.Event) error {
	l, err := ext(s).commandUnit(d.Leader)
	if err != nil {
		return err
	}
	l.Retired = d.Retired
	return nil
}

// Describe says whether the leader retires or is back.
func (d *Retired) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	if d.Retired {
		return fmt.Sprintf("%s retires: he counts as outside his division leader's radius.", name(d.Leader))
	}
	return fmt.Sprintf("%s is back in command.", name(d.Leader))
}

// Field gives leader.
func (d *Retired) Field(_ *Rules, _ *game.Event, name string) []string {
	if name == "leader" {
		return []string{d.Leader}
	}
	return nil
}
