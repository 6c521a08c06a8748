package lob

import (
	"fmt"
	"slices"
	"strings"

	"orderly/game"
)

// The events of leaders' decisions: orders issued, reserves released,
// initiative, a reserve named, and skedaddles.

// Issue is the payload of an issued event: the command roll and, if it
// passes, the order with its delivery.
type Issue struct {
	By     string `json:"by"` // the leader who issues it
	Result string `json:"result"`
	// Roll says the army commander's command roll of the turn was used.
	Roll  bool  `json:"roll,omitempty"`
	Order Order `json:"order"`
	// With are the artillery battalions' orders embedded in it.
	With   []Order `json:"with,omitempty"`
	Dist   int     `json:"dist"`
	Radius int     `json:"radius"`
	Turns  int     `json:"turns,omitempty"`
	// HQ says the order moves the army HQ (LOB-4).
	HQ bool `json:"hq,omitempty"`
}

// Fold records a command roll and the order it issues (LOB-3, LOB-4): the
// order and those embedded in it go out, or the army HQ gets its
// destination.
func (d *Issue) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	sd, err := st.needSide(e.Side)
	if err != nil {
		return err
	}
	if d.Roll {
		sd.Rolled = true
	}
	if d.Result != "issued" {
		return nil
	}
	if d.HQ {
		g := *d.Order.Objective
		sd.Goal = &g
		return nil
	}
	sd.Issued++
	st.put(d.Order)
	for _, o := range d.With {
		sd.Issued++
		st.put(o)
	}
	return nil
}

// Describe words a command roll and the order it issues.
func (d *Issue) Describe(r *Rules, e *game.Event, name func(string) string) string {
	if d.HQ {
		if d.Result != "issued" {
			return fmt.Sprintf("%s's command roll to move the army HQ fails%s.", name(d.By), rollText(e, 0))
		}
		return fmt.Sprintf("%s orders the army HQ to move%s.", name(d.By), rollText(e, 0))
	}
	if d.Result != "issued" {
		return fmt.Sprintf("%s's command roll fails%s: no %s order to %s this turn.", name(d.By), rollText(e, 0), d.Order.Kind, name(d.Order.To))
	}
	s := fmt.Sprintf("%s issues %s, %s away: it arrives on turn %d", name(d.By), orderText(&d.Order, name), plural(d.Dist, "hex", "hexes"), d.Order.Arrives)
	if d.Roll {
		s += rollText(e, 0)
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
}

// Field gives an issued event's leader, orders, Command, kind, distance,
// delivery turns, arrival turn, roll (check "LEADER RESULT") and reserve.
func (d *Issue) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "leader":
		return []string{d.By}
	case "order":
		got := []string{d.Order.ID}
		for _, o := range d.With {
			got = append(got, o.ID)
		}
		return got
	case "command":
		return []string{d.Order.To}
	case "kind":
		return []string{d.Order.Kind}
	case "dist":
		return []string{itoa(d.Dist)}
	case "turns":
		return []string{itoa(d.Turns)}
	case "arrives":
		return []string{itoa(d.Order.Arrives)}
	case "check":
		return []string{d.By + " " + d.Result}
	case "reserve":
		return []string{d.Order.Reserve}
	}
	return nil
}

// Release is the payload of a release event: a command roll to release a
// reserve and, if it passes, the relay that frees it on arrival.
type Release struct {
	By        string `json:"by"`
	Formation string `json:"formation"`
	Result    string `json:"result"`
	Order     *Order `json:"order,omitempty"`
	Dist      int    `json:"dist"`
	Turns     int    `json:"turns,omitempty"`
}

// Fold records a command roll to release a reserve (LOB-5): the leader
// has rolled for it, and a passed roll sends the relay.
func (d *Release) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	if d.Order != nil {
		sd, err := st.needSide(e.Side)
		if err != nil {
			return err
		}
		sd.Issued++
		st.put(*d.Order)
	}
	if l := st.Leader(d.By); l != nil {
		l.Rolled = append(l.Rolled, "release-order")
	}
	return nil
}

// Describe words a command roll to release a reserve.
func (d *Release) Describe(r *Rules, e *game.Event, name func(string) string) string {
	if d.Order == nil {
		return fmt.Sprintf("%s's command roll to release %s fails%s.", name(d.By), name(d.Formation), rollText(e, 0))
	}
	return fmt.Sprintf("%s orders %s released%s; the relay arrives on turn %d.", name(d.By), name(d.Formation), rollText(e, 0), d.Order.Arrives)
}

// Field gives a release event's leader, reserve (command or reserve),
// roll (check), distance, delivery turns, and its relay's id and arrival.
func (d *Release) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "leader":
		return []string{d.By}
	case "command", "reserve":
		return []string{d.Formation}
	case "check":
		return []string{d.By + " " + d.Result}
	case "dist":
		return []string{itoa(d.Dist)}
	case "turns":
		return []string{itoa(d.Turns)}
	case "order":
		if d.Order != nil {
			return []string{d.Order.ID}
		}
	case "arrives":
		if d.Order != nil {
			return []string{itoa(d.Order.Arrives)}
		}
	}
	return nil
}

// Initiative is the payload of an initiative event.
type Initiative struct {
	Leader    string `json:"leader"`
	Purpose   string `json:"purpose"`
	Formation string `json:"formation"`
	With      string `json:"with,omitempty"` // associate-artillery: the Command
	Result    string `json:"result"`
	// Follows is, for a reserve released, the existing orders it follows
	// at once (LOB-5, 10.4c).
	Follows string `json:"follows,omitempty"`
}

// Fold records an initiative roll (LOB-5, LOB-8): the leader has rolled
// for its purpose, and a roll that gains initiative does it.
func (d *Initiative) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	l, err := st.needLeader(d.Leader)
	if err != nil {
		return err
	}
	l.Rolled = append(l.Rolled, d.Purpose)
	if d.Result != "initiative" {
		return nil
	}
	if d.Purpose == "end-skedaddle" && d.Formation == e.Side {
		sd, err := st.needSide(e.Side)
		if err != nil {
			return err
		}
		sd.Skedaddle = false
		return nil
	}
	f, err := st.needFormation(d.Formation)
	if err != nil {
		return err
	}
	switch d.Purpose {
	case "end-skedaddle":
		f.Skedaddle, f.Held = false, nil
	case "deploy-early":
		f.Deployed = true
	case "establish-reserve":
		f.Reserve = true
	case "release-reserve":
		st.free(f, e.Turn, r.play)
	case "associate-artillery":
		f.Associated = d.With
	}
	return nil
}

// Describe words an initiative roll and what it gains.
func (d *Initiative) Describe(r *Rules, e *game.Event, name func(string) string) string {
	what := name(d.Formation)
	if d.Formation == e.Side {
		what = "the army HQ"
	}
	if d.Result != "initiative" {
		return fmt.Sprintf("%s fails to gain initiative to %s for %s%s.", name(d.Leader), words(d.Purpose), what, rollText(e, 0))
	}
	if d.Follows != "" {
		return fmt.Sprintf("%s gains initiative to %s for %s%s; it follows its existing orders (%s).", name(d.Leader), words(d.Purpose), what, rollText(e, 0), d.Follows)
	}
	return fmt.Sprintf("%s gains initiative to %s for %s%s.", name(d.Leader), words(d.Purpose), what, rollText(e, 0))
}

// Field gives an initiative event's leader, Command, purpose, roll
// (check "LEADER RESULT") and the existing orders a released reserve
// follows.
func (d *Initiative) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "leader":
		return []string{d.Leader}
	case "command":
		return []string{d.Formation}
	case "purpose":
		return []string{d.Purpose}
	case "check":
		return []string{d.Leader + " " + d.Result}
	case "follows":
		return []string{d.Follows}
	}
	return nil
}

// Designation is the payload of a designated event: the leader of the
// Command an order to establish a reserve went to names the formation
// the order left to him (LOB-5, 10.4c).
type Designation struct {
	Order     string `json:"order"`
	Command   string `json:"command"`
	By        string `json:"by"`
	Formation string `json:"formation"`
	// Relay is the order's relay to the formation, which leaves now (a
	// corps under attack orders); Placed says the formation is placed in
	// reserve now (the order is accepted and needs no relay).
	Relay  *Order `json:"relay,omitempty"`
	Placed bool   `json:"placed,omitempty"`
}

// Fold records the reserve an order names (LOB-5): its relay leaves, or
// the formation is placed in reserve at once.
func (d *Designation) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	o, err := st.needOrder(d.Order)
	if err != nil {
		return err
	}
	f, err := st.needFormation(d.Formation)
	if err != nil {
		return err
	}
	o.Reserve = f.ID
	if d.Relay != nil {
		st.put(*d.Relay)
	}
	if d.Placed {
		f.Reserve, o.Stage = true, Done
	}
	return nil
}

// Describe words the reserve named and what becomes of it.
func (d *Designation) Describe(r *Rules, e *game.Event, name func(string) string) string {
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
}

// Field gives a designated event's order, Command, leader, the formation
// when placed in reserve now (reserve), and its relay (relayed "ID TURN").
func (d *Designation) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "order":
		return []string{d.Order}
	case "command":
		return []string{d.Command}
	case "leader":
		return []string{d.By}
	case "reserve":
		if d.Placed {
			return []string{d.Formation}
		}
	case "relayed":
		if d.Relay != nil {
			return []string{d.Relay.ID + " " + itoa(d.Relay.Arrives)}
		}
	}
	return nil
}

// Skedaddle is the payload of a skedaddled event. A skedaddle an enemy
// causes is two events: one everybody who sees it may see (the Commands
// that skedaddle, the cause, the batteries that limber) and one its side
// alone sees (Held and Lost, with Command and Side but no Commands); one
// by choice, which its side alone sees, holds it all.
type Skedaddle struct {
	Command string `json:"command,omitempty"` // "" for the army HQ
	Side    string `json:"side"`
	// Cause is the enemy unit that entered the HQ's hex; "" when the
	// side chose it.
	Cause    string   `json:"cause,omitempty"`
	Commands []string `json:"commands,omitempty"` // the Commands that skedaddle
	// Held lists the Command's formations within command radius then.
	Held     []string `json:"held,omitempty"`
	Lost     []string `json:"lost,omitempty"`     // formations that lose reserve status
	Limbered []string `json:"limbered,omitempty"` // posted artillery that limbers
}

// Fold records a skedaddle (LOB-8): the army HQ's, or its Commands',
// which leave deployment; the formations the Command held, those that
// lose reserve status and the batteries that limber.
func (d *Skedaddle) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	if d.Command == "" {
		sd, err := st.needSide(d.Side)
		if err != nil {
			return err
		}
		sd.Skedaddle = true
		return nil
	}
	for _, id := range d.Commands {
		f, err := st.needFormation(id)
		if err != nil {
			return err
		}
		f.Skedaddle, f.Deployed = true, false
	}
	if f := st.Formation(d.Command); f != nil && len(d.Held) > 0 {
		// A Command not skedaddled holds none: the open part of a
		// skedaddle, which has none, leaves them to its own part.
		f.Held = slices.Clone(d.Held)
	}
	for _, id := range d.Lost {
		if f := st.Formation(id); f != nil {
			f.Reserve = false
		}
	}
	for _, id := range d.Limbered {
		if u := st.Unit(id); u != nil {
			u.Posted = false
		}
	}
	return nil
}

// Describe words a skedaddle, or the skedaddling side's own part of one
// the enemy caused.
func (d *Skedaddle) Describe(r *Rules, e *game.Event, name func(string) string) string {
	if d.Command != "" && len(d.Commands) == 0 {
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
}

// Field gives a skedaddle's Commands (its own part: the Command), the
// unit that caused it and the batteries that limber (unit), the
// formations held and those that lose reserve status (released).
func (d *Skedaddle) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "command":
		if len(d.Commands) == 0 && d.Command != "" {
			return []string{d.Command}
		}
		return d.Commands
	case "unit":
		return append([]string{d.Cause}, d.Limbered...)
	case "held":
		return d.Held
	case "released":
		return d.Lost
	}
	return nil
}
