package nes

import (
	"fmt"
	"strings"

	"orderly/game"
	"orderly/geom"
)

// NES's event types.
const (
	EvBegun   = "turn-begun" // a side's turn begins: points renewed, markers step down and roll (NES-2)
	EvSent    = "sent"       // an order is sent and delivered, delayed or ignored (NES-1, NES-2)
	EvCP      = "cp-placed"  // a command point is stacked with a commander (NES-3)
	EvChecked = "checked"    // continuation checks (NES-3)
	EvMoved   = "moved"      // a piece moves over the map (NES-7)
	EvFormed  = "formed"     // a combat unit changes formation
	EvLost    = "lost"       // a combat unit loses strength; command unit loss (NES-4)
	EvFired   = "bombarded"  // extended-range artillery fire (NES-5)
	EvCharged = "charged"    // a cavalry charge and the morale checks (NES-6)
	EvRetired = "retired"    // a brigade leader retires, or comes back (NES-3)
)

// EventTypes lists NES's event types.
func (r *Rules) EventTypes() []string {
	return []string{EvBegun, EvSent, EvCP, EvChecked, EvMoved, EvFormed, EvLost, EvFired, EvCharged, EvRetired}
}

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

// Placed is the payload of a cp-placed event.
type Placed struct {
	Leader string `json:"leader"`
	Cost   int    `json:"cost"`
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

// Moved is the payload of a moved event.
type Moved struct {
	Unit   string       `json:"unit,omitempty"`
	Leader string       `json:"leader,omitempty"`
	HQ     string       `json:"hq,omitempty"` // the side whose headquarters moves
	Path   []geom.Point `json:"path"`
	To     string       `json:"to"`   // the last hex, by its label
	Cost   int          `json:"cost"` // sixths of a movement point
	Mode   string       `json:"mode,omitempty"`
	// Disorder and General say the unit disorders, or takes general
	// order, on the way (NES-7's D and G); DisorderAt and GeneralAt name
	// the hex entered where it did, from which on the move was priced so.
	Disorder   bool   `json:"disorder,omitempty"`
	General    bool   `json:"general-order,omitempty"`
	DisorderAt string `json:"disorder-at,omitempty"`
	GeneralAt  string `json:"general-order-at,omitempty"`
}

// Formed is the payload of a formed event.
type Formed struct {
	Unit      string `json:"unit"`
	Formation string `json:"formation"`
	Cost      int    `json:"cost"` // sixths
}

// Lost is the payload of a lost event: strength lost by a unit, and the
// NES-4 check of every command unit in its hex.
type Lost struct {
	Unit      string      `json:"unit"`
	Points    int         `json:"points"`
	Situation string      `json:"situation"`
	Checks    []LossCheck `json:"checks,omitempty"`
	// More says the event is one command unit's check alone, made with fog
	// of war before the loss itself (the next event): it takes no strength,
	// and only the sides that spot the command unit see it.
	More bool `json:"more,omitempty"`
}

// LossCheck is one command unit's NES-4 result: loss or no-effect, and
// what a loss did (reduced, replaced, or nothing for a brigade leader
// already reduced).
type LossCheck struct {
	Leader string `json:"leader"`
	Result string `json:"result"`
	Effect string `json:"effect,omitempty"`
}

// Fired is the payload of a bombarded event (NES-5).
type Fired struct {
	Unit     string   `json:"unit"`
	Target   string   `json:"target"` // the hex aimed at, by its label
	Result   string   `json:"result"` // the deviation: short-1 .. over-3
	Impact   string   `json:"impact,omitempty"`
	OffMap   bool     `json:"off-map,omitempty"`
	Effect   string   `json:"effect,omitempty"` // the fire result on nes/extended-fire
	Hit      []string `json:"hit,omitempty"`    // the combat units in the impact hex
	Lost     []int    `json:"lost,omitempty"`   // strength each lost
	Disorder []string `json:"disorder,omitempty"`
	// More says the event is one unit hit alone, after the fire's own
	// event, with fog of war: only the sides that spot the unit see it.
	More bool `json:"more,omitempty"`
}

// Charged is the payload of a charged event (NES-6): the morale check of
// every enemy combat unit in the charge zones, with the charge's modifier.
type Charged struct {
	Unit   string `json:"unit"`
	Target string `json:"target"` // the hex charged, by its label
	// Effect is the chart's effect on the charging cavalry (NES-7), and
	// Disordered whether it disorders by it.
	Effect     string        `json:"effect,omitempty"`
	Disordered bool          `json:"disordered,omitempty"`
	Checks     []MoraleCheck `json:"checks,omitempty"`
	// More says the event is one unit's morale check alone, after the
	// charge's own event, with fog of war: only the sides that spot the
	// unit see it.
	More bool `json:"more,omitempty"`
}

// MoraleCheck is one unit's morale check against a charge.
type MoraleCheck struct {
	Unit     string `json:"unit"`
	Zone     string `json:"zone"`
	Modifier int    `json:"modifier"`
	Result   string `json:"result"`
}

// Retired is the payload of a retired event: a brigade leader retired (or
// on the BC/FD), or back in command.
type Retired struct {
	Leader  string `json:"leader"`
	Retired bool   `json:"retired"`
}

// Payload makes an empty payload for an event type.
func (r *Rules) Payload(typ string) (any, bool) {
	switch typ {
	case EvBegun:
		return &Begun{}, true
	case EvSent:
		return &Sent{}, true
	case EvCP:
		return &Placed{}, true
	case EvChecked:
		return &Checked{}, true
	case EvMoved:
		return &Moved{}, true
	case EvFormed:
		return &Formed{}, true
	case EvLost:
		return &Lost{}, true
	case EvFired:
		return &Fired{}, true
	case EvCharged:
		return &Charged{}, true
	case EvRetired:
		return &Retired{}, true
	}
	return nil, false
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

// Apply folds one of NES's events into the state.
func (r *Rules) Apply(s *game.State, e *game.Event) error {
	st := ext(s)
	leader := func(id string) (*Leader, error) {
		if l := st.Leader(id); l != nil {
			return l, nil
		}
		return nil, fmt.Errorf("no command unit %s", id)
	}
	unit := func(id string) (*Unit, error) {
		if u := st.Unit(id); u != nil {
			return u, nil
		}
		return nil, fmt.Errorf("no combat unit %s", id)
	}
	switch d := e.Data.(type) {
	case *Begun:
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
			l, err := leader(m.Leader)
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
		}
	case *Sent:
		l, err := leader(d.Receiver)
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
	case *Placed:
		l, err := leader(d.Leader)
		if err != nil {
			return err
		}
		l.CP = true
		if side := st.Side(l.Side); side != nil {
			side.Points -= d.Cost
		}
	case *Checked:
		for _, c := range d.Checks {
			l, err := leader(c.Leader)
			if err != nil {
				return err
			}
			if c.Result != Standing {
				continue
			}
			l.fall()
			for _, id := range c.Fall {
				b, err := leader(id)
				if err != nil {
					return err
				}
				b.fall()
			}
		}
	case *Moved:
		var to *geom.Point
		if len(d.Path) > 0 {
			to = &d.Path[len(d.Path)-1]
		}
		if d.HQ != "" {
			sd := st.Side(d.HQ)
			if sd == nil {
				return fmt.Errorf("no side %s", d.HQ)
			}
			sd.Used += d.Cost
			if to != nil {
				sd.HQ = *to
			}
			return nil
		}
		if d.Leader != "" {
			l, err := leader(d.Leader)
			if err != nil {
				return err
			}
			l.Used += d.Cost
			l.GT = d.Mode == "grand-tactical"
			if to != nil {
				st.moved(l.Side, false, l.At, to)
			}
			return nil
		}
		u, err := unit(d.Unit)
		if err != nil {
			return err
		}
		u.Used += d.Cost
		u.GT = d.Mode == "grand-tactical"
		if to != nil {
			st.moved(u.Side, true, u.At, to)
		}
		if d.Disorder {
			u.Status = "disordered"
		}
	case *Formed:
		u, err := unit(d.Unit)
		if err != nil {
			return err
		}
		u.Used += d.Cost
	case *Lost:
		u, err := unit(d.Unit)
		if err != nil {
			return err
		}
		st.lose(u, d.Points)
		for _, c := range d.Checks {
			l, err := leader(c.Leader)
			if err != nil {
				return err
			}
			if c.Result == "loss" {
				l.struck()
			}
		}
	case *Fired:
		for i, id := range d.Hit {
			u, err := unit(id)
			if err != nil {
				return err
			}
			if i < len(d.Lost) {
				st.lose(u, d.Lost[i])
			}
		}
		for _, id := range d.Disorder {
			u, err := unit(id)
			if err != nil {
				return err
			}
			if u.Status == "formed" {
				u.Status = "disordered"
			}
		}
	case *Charged:
		if d.Disordered {
			u, err := unit(d.Unit)
			if err != nil {
				return err
			}
			u.Status = "disordered"
		}
		for _, c := range d.Checks {
			u, err := unit(c.Unit)
			if err != nil {
				return err
			}
			if c.Result != "holds" && u.Status == "formed" {
				u.Status = "disordered"
			}
		}
	case *Retired:
		l, err := leader(d.Leader)
		if err != nil {
			return err
		}
		l.Retired = d.Retired
	default:
		return fmt.Errorf("nes has no event %T", e.Data)
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

// struck is a command unit loss (NES-4): a brigade leader is reduced
// once; a division or corps commander is replaced, the replacement
// showing the counter's reduced values (our reading).
func (l *Leader) struck() {
	l.Reduced = true
	l.side()
}

// lose takes strength points off a unit; at none it is gone from the map.
func (st *State) lose(u *Unit, n int) {
	u.Strength -= n
	if u.Strength <= 0 && !u.Gone {
		st.moved(u.Side, true, u.At, nil)
		u.Strength, u.Gone = 0, true
		u.OnTable = false
	}
}

func delayMarker(n int) string { return "delay-" + itoa(n) }

// Describe says in one sentence what an NES event records.
func (r *Rules) Describe(e *game.Event, name func(string) string) string {
	rolls := func(i int) string {
		if i < len(e.Rolls) {
			ro := e.Rolls[i]
			return fmt.Sprintf(" (%s %d, total %d)", ro.Table, ro.Natural, ro.Total)
		}
		return ""
	}
	switch d := e.Data.(type) {
	case *Begun:
		var parts []string
		n := 0
		for _, m := range d.Markers {
			if m.Result == "" {
				parts = append(parts, fmt.Sprintf("%s's order steps down to delay %d", name(m.Leader), m.Delay))
				continue
			}
			parts = append(parts, fmt.Sprintf("%s's order at delay 1 is %s%s", name(m.Leader), words(m.Result), rolls(n)))
			n++
		}
		if len(parts) == 0 {
			return fmt.Sprintf("%s's turn begins; no order is on its way.", d.Side)
		}
		return fmt.Sprintf("%s's turn begins: %s.", d.Side, strings.Join(parts, "; "))
	case *Sent:
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
		return fmt.Sprintf("%s sends %s to %s (%s, %d CP): %s%s.", name(d.Sender), what, name(d.Receiver), how, d.Cost, words(d.Result), rolls(0))
	case *Placed:
		return fmt.Sprintf("A command point is stacked with %s (%d CP).", name(d.Leader), d.Cost)
	case *Checked:
		var parts []string
		for i, c := range d.Checks {
			p := fmt.Sprintf("%s %s%s", name(c.Leader), words(c.Result), rolls(i))
			if len(c.Fall) > 0 {
				p += " with " + strings.Join(mapNames(c.Fall, name), ", ")
			}
			parts = append(parts, p)
		}
		return fmt.Sprintf("Continuation checks for %s: %s.", d.Side, strings.Join(parts, "; "))
	case *Moved:
		who := name(d.Unit)
		if d.Leader != "" {
			who = name(d.Leader)
		}
		if d.HQ != "" {
			who = d.HQ + "'s headquarters"
		}
		var fx []string
		at := func(what, hex string) string {
			if hex == "" || hex == d.To {
				return what
			}
			return what + " at " + hex
		}
		if d.Disorder {
			fx = append(fx, at("disorders", d.DisorderAt))
		}
		if d.General {
			fx = append(fx, at("takes general order", d.GeneralAt))
		}
		tail := ""
		if len(fx) > 0 {
			tail = " and " + strings.Join(fx, " and ")
		}
		hexes := fmt.Sprintf("%d hexes", len(d.Path))
		if len(d.Path) == 1 {
			hexes = "1 hex"
		}
		return fmt.Sprintf("%s moves %s to %s for %s MP%s.", who, hexes, d.To, MP(d.Cost), tail)
	case *Formed:
		return fmt.Sprintf("%s forms %s (%s MP).", name(d.Unit), d.Formation, MP(d.Cost))
	case *Retired:
		if d.Retired {
			return fmt.Sprintf("%s retires: he counts as outside his division leader's radius.", name(d.Leader))
		}
		return fmt.Sprintf("%s is back in command.", name(d.Leader))
	case *Lost:
		var parts []string
		for i, c := range d.Checks {
			p := fmt.Sprintf("%s %s%s", name(c.Leader), words(c.Result), rolls(i))
			if c.Effect != "" {
				p += ", " + c.Effect
			}
			parts = append(parts, p)
		}
		if d.More {
			return fmt.Sprintf("Command unit loss in %s's hex (%s): %s.", name(d.Unit), d.Situation, strings.Join(parts, "; "))
		}
		tail := ""
		if len(parts) > 0 {
			tail = "; command unit loss: " + strings.Join(parts, "; ")
		}
		return fmt.Sprintf("%s loses %d strength (%s)%s.", name(d.Unit), d.Points, d.Situation, tail)
	case *Fired:
		if d.More {
			return fmt.Sprintf("%s's fire at extended range strikes %s at %s: %s.", name(d.Unit), strings.Join(mapNames(d.Hit, name), ", "), d.Impact, orNothing(d.Effect))
		}
		if d.OffMap {
			return fmt.Sprintf("%s fires at extended range at %s: %s%s, landing off the map.", name(d.Unit), d.Target, words(d.Result), rolls(0))
		}
		return fmt.Sprintf("%s fires at extended range at %s: %s%s, landing at %s; %s%s.", name(d.Unit), d.Target, words(d.Result), rolls(0), d.Impact, orNothing(d.Effect), rolls(1))
	case *Charged:
		var parts []string
		first := 0
		if strings.HasPrefix(d.Effect, "disorders on") {
			first = 1
		}
		for i, c := range d.Checks {
			zone := c.Zone + " zone"
			if c.Modifier != 0 {
				zone = fmt.Sprintf("%s zone, %+d", c.Zone, c.Modifier)
			}
			parts = append(parts, fmt.Sprintf("%s (%s) %s%s", name(c.Unit), zone, words(c.Result), rolls(first+i)))
		}
		if d.More {
			return fmt.Sprintf("%s's charge of %s: %s.", name(d.Unit), d.Target, strings.Join(parts, "; "))
		}
		who := name(d.Unit)
		if d.Disordered {
			who += fmt.Sprintf(" (disordered: %s)", d.Effect)
		}
		if len(parts) == 0 {
			return fmt.Sprintf("%s charges %s; no enemy unit checks morale.", who, d.Target)
		}
		return fmt.Sprintf("%s charges %s: %s.", who, d.Target, strings.Join(parts, "; "))
	}
	return e.Type
}

func words(s string) string { return strings.ReplaceAll(s, "-", " ") }

func orNothing(s string) string {
	if s == "" {
		return "no effect"
	}
	return words(s)
}

func mapNames(ids []string, name func(string) string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = name(id)
	}
	return out
}

// MP writes sixths of a movement point as points: 3, 2 1/2, 2/3.
func MP(sixths int) string {
	whole, rest := sixths/Sixths, sixths%Sixths
	if rest == 0 {
		return itoa(whole)
	}
	num, den := rest, Sixths
	for _, g := range []int{3, 2} {
		if num%g == 0 && den%g == 0 {
			num, den = num/g, den/g
		}
	}
	frac := fmt.Sprintf("%d/%d", num, den)
	if whole == 0 {
		return frac
	}
	return fmt.Sprintf("%d %s", whole, frac)
}
