package lob

import (
	"fmt"
	"slices"
	"strings"

	"orderly/game"
	"orderly/geom"
)

// LOB's event types.
const (
	EvBegun      = "turn-begun"    // a side's turn: awareness, arrivals, deliveries, relays (LOB-1, LOB-4, LOB-6)
	EvAccepted   = "acceptance"    // acceptance rolls; orders accepted, executing, relayed (LOB-4..LOB-6)
	EvChecked    = "checks"        // fluke stoppage checks and attack recovery (LOB-7)
	EvIssued     = "issued"        // a command roll and the order it issues (LOB-3, LOB-4)
	EvRelease    = "release"       // a command roll to release a reserve (LOB-5)
	EvInitiative = "initiative"    // an initiative roll and what it does (LOB-5, LOB-8)
	EvSkedaddle  = "skedaddled"    // a Command or the army HQ skedaddles (LOB-8)
	EvCondition  = "condition-met" // a conditional order's condition is fulfilled (LOB-6)
	EvFutile     = "futile"        // an attack order ended as futile (LOB-7)
	EvDeclared   = "declared"      // an order declared fulfilled, to end with the player turn (LOB-7)
	EvEnded      = "turn-ended"    // the player turn ends: orders fulfilled (LOB-7)
	EvMoved      = "moved"         // a piece moves (LOB-2)
	EvFormed     = "formed"        // a combat unit changes formation
	EvLost       = "lost"          // a combat unit loses strength
	EvAware      = "aware"         // the army commander becomes aware (LOB-4)
	EvDesignated = "designated"    // a Command's leader names the reserve an order left to him (LOB-5)
)

// EventTypes lists LOB's event types.
func (r *Rules) EventTypes() []string {
	return []string{EvBegun, EvAccepted, EvChecked, EvIssued, EvRelease, EvInitiative, EvSkedaddle, EvCondition, EvFutile,
		EvDeclared, EvEnded, EvMoved, EvFormed, EvLost, EvAware, EvDesignated, EvEntry}
}

// Effect is a reserve established or released by an order or a relay.
type Effect struct {
	Formation string `json:"formation"`
	Reserve   bool   `json:"reserve"`
	Order     string `json:"order,omitempty"`
	// Follows is, for a release, the existing orders the formation
	// follows at once (LOB-5, 10.4c); "" for none.
	Follows string `json:"follows,omitempty"`
}

// Begun is the payload of a turn-begun event.
type Begun struct {
	Side  string `json:"side"`
	Aware bool   `json:"aware,omitempty"` // the army commander becomes aware now
	// Entered lists the reinforcements that enter; HQs the Commands whose
	// HQ arrives.
	Entered []string `json:"entered,omitempty"`
	HQs     []string `json:"hqs,omitempty"`
	// Diverted lists the pieces that enter elsewhere than their
	// scenario's hex, which the enemy holds or which is full (3.7a).
	Diverted []Entry `json:"diverted,omitempty"`
	// Adopted lists orders a Command takes up on entry or on rejoining.
	Adopted []Order `json:"adopted,omitempty"`
	// Rejoined lists reinforcements that come within their corps' radius
	// (10.3f).
	Rejoined []string `json:"rejoined,omitempty"`
	// Arrived lists the orders that arrive and await acceptance.
	Arrived []string `json:"arrived,omitempty"`
	// Kept lists the relays that reach a formation in reserve, kept as
	// its existing orders with no acceptance roll; Pending those that
	// place a reserve, which wait for the Command to accept the order
	// (LOB-5, 10.4c).
	Kept    []string `json:"kept,omitempty"`
	Pending []string `json:"pending,omitempty"`
	// Effects are reserves set or freed by relays that arrive.
	Effects []Effect `json:"effects,omitempty"`
	// Relays are the orders a corps relays to its divisions.
	Relays []Order `json:"relays,omitempty"`
}

// Take is one acceptance roll's result.
type Take struct {
	Order   string `json:"order"`
	Command string `json:"command"`
	Result  string `json:"result"`
}

// Acceptance is the payload of an acceptance event.
type Acceptance struct {
	Side  string `json:"side"`
	Rolls []Take `json:"rolls,omitempty"`
	// Embedded lists the artillery battalions' orders accepted with
	// their Command's.
	Embedded  []string `json:"embedded,omitempty"`
	Executing []string `json:"executing,omitempty"`
	// Acting lists the Command of each order in Executing.
	Acting []string `json:"acting,omitempty"`
	// Existing lists the relays a formation in reserve takes up as its
	// existing orders, now that its Command executes the order: it
	// follows them once released (LOB-5, 10.4c).
	Existing   []string `json:"existing,omitempty"`
	Superseded []string `json:"superseded,omitempty"`
	Effects    []Effect `json:"effects,omitempty"`
	Relays     []Order  `json:"relays,omitempty"`
	// Done lists orders whose work is done on acceptance (a reserve
	// established).
	Done []string `json:"done,omitempty"`
}

// Check is one Command's fluke stoppage check or attack recovery roll.
type Check struct {
	Command string `json:"command"`
	Step    string `json:"step,omitempty"` // recovery: first or second
	Result  string `json:"result"`
	// Lost lists the formations that lose reserve status when it flukes.
	Lost []string `json:"lost,omitempty"`
}

// Checks is the payload of a checks event.
type Checks struct {
	Side     string  `json:"side"`
	Fluke    []Check `json:"fluke,omitempty"`
	Recovery []Check `json:"recovery,omitempty"`
}

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

// Condition is the payload of a condition-met event.
type Condition struct {
	Order string `json:"order"`
}

// Ending is the payload of futile and declared events.
type Ending struct {
	Command string `json:"command"`
	Order   string `json:"order"`
	// Orders lists every order the ending reaches (a corps order's
	// relays), Commands the Commands it leaves with no orders.
	Orders   []string `json:"orders,omitempty"`
	Commands []string `json:"commands,omitempty"`
	Recover  []string `json:"recover,omitempty"` // Commands that begin attack recovery
}

// Ended is the payload of a turn-ended event.
type Ended struct {
	Side      string   `json:"side"`
	Fulfilled []string `json:"fulfilled,omitempty"`
	Commands  []string `json:"commands,omitempty"`
	Recover   []string `json:"recover,omitempty"`
	Goal      bool     `json:"goal,omitempty"` // the army HQ reached its destination
}

// Moved is the payload of a moved event.
type Moved struct {
	Unit   string       `json:"unit,omitempty"`
	Leader string       `json:"leader,omitempty"`
	HQ     string       `json:"hq,omitempty"`   // a Command's HQ
	Army   string       `json:"army,omitempty"` // a side's army HQ
	Path   []geom.Point `json:"path"`
	To     string       `json:"to"`
	Cost   int          `json:"cost"`
	Posted bool         `json:"posted,omitempty"` // a battery posted (LOB-4)
}

// Formed is the payload of a formed event.
type Formed struct {
	Unit      string `json:"unit"`
	Formation string `json:"formation"`
}

// Lost is the payload of a lost event.
type Lost struct {
	Unit   string `json:"unit"`
	Points int    `json:"points"`
	Left   int    `json:"left"` // strength left: 0, eliminated
	// Command is the Command whose attack losses it counted to (LOB-7),
	// in logs made before issue 32: it told the enemy of a secret order,
	// and is no longer written (Apply works it out).
	Command string `json:"command,omitempty"`
}

// Aware is the payload of an aware event.
type Aware struct {
	Side string `json:"side"`
}

// Payload makes an empty payload for an event type.
func (r *Rules) Payload(typ string) (any, bool) {
	switch typ {
	case EvBegun:
		return &Begun{}, true
	case EvAccepted:
		return &Acceptance{}, true
	case EvChecked:
		return &Checks{}, true
	case EvIssued:
		return &Issue{}, true
	case EvRelease:
		return &Release{}, true
	case EvInitiative:
		return &Initiative{}, true
	case EvSkedaddle:
		return &Skedaddle{}, true
	case EvCondition:
		return &Condition{}, true
	case EvFutile, EvDeclared:
		return &Ending{}, true
	case EvEnded:
		return &Ended{}, true
	case EvMoved:
		return &Moved{}, true
	case EvFormed:
		return &Formed{}, true
	case EvLost:
		return &Lost{}, true
	case EvAware:
		return &Aware{}, true
	case EvDesignated:
		return &Designation{}, true
	case EvEntry:
		return &EntryNamed{}, true
	}
	return nil, false
}

// Apply folds one of LOB's events into the state.
func (r *Rules) Apply(s *game.State, e *game.Event) error {
	st := ext(s)
	form := func(id string) (*Formation, error) {
		if f := st.Formation(id); f != nil {
			return f, nil
		}
		return nil, fmt.Errorf("no formation %s", id)
	}
	order := func(id string) (*Order, error) {
		if o := st.Order(id); o != nil {
			return o, nil
		}
		return nil, fmt.Errorf("no order %s", id)
	}
	side := func(id string) (*Side, error) {
		if sd := st.Side(id); sd != nil {
			return sd, nil
		}
		return nil, fmt.Errorf("no side %s", id)
	}
	effects := func(es []Effect) error {
		for _, ef := range es {
			f, err := form(ef.Formation)
			if err != nil {
				return err
			}
			if ef.Reserve {
				f.Reserve = true
			} else {
				st.free(f, e.Turn, r.play)
			}
			if ef.Order != "" {
				o, err := order(ef.Order)
				if err != nil {
					return err
				}
				o.Stage = Done
				// A relay that places a reserve completes its order.
				if p := st.Order(o.Parent); p != nil && o.Kind == Reserve && p.Stage == Accepted {
					p.Stage = Done
				}
			}
		}
		return nil
	}
	stage := func(ids []string, to string) error {
		for _, id := range ids {
			o, err := order(id)
			if err != nil {
				return err
			}
			o.Stage = to
		}
		return nil
	}
	switch d := e.Data.(type) {
	case *Begun:
		sd, err := side(d.Side)
		if err != nil {
			return err
		}
		sd.Rolled, sd.HQUsed = false, 0
		if d.Aware {
			sd.Aware = true
		}
		for i := range st.Leaders {
			if l := &st.Leaders[i]; l.Side == d.Side {
				l.Used, l.Rolled = 0, nil
			}
		}
		for i := range st.Units {
			if u := &st.Units[i]; u.Side == d.Side {
				u.Used = 0
			}
		}
		for i := range st.Formations {
			if f := &st.Formations[i]; f.Side == d.Side {
				f.HQUsed = 0
			}
		}
		for i := range st.Orders {
			if o := &st.Orders[i]; o.Side == d.Side && o.Stage == Issued {
				o.Stage = Delivering
			}
		}
		for _, id := range d.Entered {
			f, err := form(id)
			if err != nil {
				return err
			}
			f.Entered = true
		}
		for _, id := range d.HQs {
			f, err := form(id)
			if err != nil {
				return err
			}
			f.HQOn = true
		}
		for _, en := range d.Diverted {
			// The HQ's counter enters where it can (the pieces' moves
			// put the leaders and units).
			if id, ok := strings.CutPrefix(en.Piece, "hq:"); ok {
				f, err := form(id)
				if err != nil {
					return err
				}
				p, err := st.sc.Map.Parse(en.At)
				if err != nil {
					return fmt.Errorf("the HQ of %s enters at %s: %w", id, en.At, err)
				}
				f.HQ = p
			}
		}
		for _, id := range d.Rejoined {
			f, err := form(id)
			if err != nil {
				return err
			}
			f.Rejoin = false
		}
		for _, o := range d.Adopted {
			st.put(o)
			f, err := form(o.To)
			if err != nil {
				return err
			}
			f.Order = o.ID
			st.attack(f, o, e.Turn)
		}
		if err := stage(d.Arrived, Awaiting); err != nil {
			return err
		}
		for _, ids := range [2][]string{d.Kept, d.Pending} {
			for _, id := range ids {
				o, err := order(id)
				if err != nil {
					return err
				}
				o.Stage, o.Taken, o.Kept = Accepted, e.Turn, o.Kind != Reserve
			}
		}
		if err := effects(d.Effects); err != nil {
			return err
		}
		for _, o := range d.Relays {
			st.put(o)
		}
	case *Acceptance:
		for _, t := range d.Rolls {
			o, err := order(t.Order)
			if err != nil {
				return err
			}
			if t.Result == "accepted" {
				o.Stage, o.Taken = Accepted, e.Turn
				if f := st.Formation(o.To); f != nil && o.Kind == Attack && f.Kind == KindDivision {
					f.FlukeFrom, f.Losses = e.Turn+r.play["fluke-delay"], 0
				}
			} else {
				o.Failed++
			}
		}
		for _, id := range d.Embedded {
			o, err := order(id)
			if err != nil {
				return err
			}
			o.Stage, o.Taken = Accepted, e.Turn
		}
		if err := stage(d.Superseded, Superseded); err != nil {
			return err
		}
		for _, id := range d.Superseded {
			// A Command that leaves an attack order for another needs no
			// recovery to take it up (10.8d).
			o, err := order(id)
			if err != nil {
				return err
			}
			if f := st.Formation(o.To); f != nil && f.Order == id {
				f.Order, f.Attacked = "", false
			}
		}
		// Existing: a reserve's existing orders, which it executes only
		// once released (st.attack leaves a reserve alone).
		for _, ids := range [2][]string{d.Executing, d.Existing} {
			for _, id := range ids {
				o, err := order(id)
				if err != nil {
					return err
				}
				o.Stage = Executing
				f, err := form(o.To)
				if err != nil {
					return err
				}
				f.Order, f.Declared = id, false
				if o.Release {
					f.Reserve = false // an order to a reserve frees it (LOB-5)
				}
				st.attack(f, *o, 0)
			}
		}
		if err := effects(d.Effects); err != nil {
			return err
		}
		if err := stage(d.Done, Done); err != nil {
			return err
		}
		for _, o := range d.Relays {
			st.put(o)
		}
	case *Checks:
		for _, c := range d.Fluke {
			if c.Result != "fluke" {
				continue
			}
			f, err := form(c.Command)
			if err != nil {
				return err
			}
			if o := st.liveAttack(f); o != nil {
				o.Stage = Fluked
				f.Last = o.ID
			}
			f.Order, f.Fluked, f.Futile, f.FlukeFrom, f.Declared = "", true, false, 0, false
			f.Recovery, f.RecoverFrom = First, e.Turn+1
			for _, id := range c.Lost {
				if g := st.Formation(id); g != nil {
					g.Reserve = false
				}
			}
		}
		for _, c := range d.Recovery {
			f, err := form(c.Command)
			if err != nil {
				return err
			}
			last := st.Order(f.Last)
			if last != nil {
				last.Stage = Recovering
			}
			switch {
			case c.Result == "pass" && c.Step == First:
				f.Recovery, f.RecoverFrom = Second, e.Turn+1
			case c.Result == "pass":
				f.Recovery, f.RecoverFrom, f.Fluked, f.Futile, f.Attacked = "", 0, false, false, false
				if last != nil {
					last.Stage = Done
				}
				f.Last = ""
			case c.Step == Second:
				f.Recovery, f.RecoverFrom = First, e.Turn+1
			}
		}
	case *Issue:
		sd, err := side(e.Side)
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
	case *Release:
		if d.Order != nil {
			sd, err := side(e.Side)
			if err != nil {
				return err
			}
			sd.Issued++
			st.put(*d.Order)
		}
		if l := st.Leader(d.By); l != nil {
			l.Rolled = append(l.Rolled, "release-order")
		}
	case *Initiative:
		l := st.Leader(d.Leader)
		if l == nil {
			return fmt.Errorf("no leader %s", d.Leader)
		}
		l.Rolled = append(l.Rolled, d.Purpose)
		if d.Result != "initiative" {
			return nil
		}
		if d.Purpose == "end-skedaddle" && d.Formation == e.Side {
			sd, err := side(e.Side)
			if err != nil {
				return err
			}
			sd.Skedaddle = false
			return nil
		}
		f, err := form(d.Formation)
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
	case *Skedaddle:
		if d.Command == "" {
			sd, err := side(d.Side)
			if err != nil {
				return err
			}
			sd.Skedaddle = true
			return nil
		}
		for _, id := range d.Commands {
			f, err := form(id)
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
	case *Condition:
		o, err := order(d.Order)
		if err != nil {
			return err
		}
		o.Met = true
		for i := range st.Orders {
			if c := &st.Orders[i]; c.Parent == o.ID {
				c.Met = true
			}
		}
	case *Ending:
		f, err := form(d.Command)
		if err != nil {
			return err
		}
		if e.Type == EvDeclared {
			f.Declared = true
			return nil
		}
		return st.end(d.Orders, d.Commands, d.Recover, Futile, e.Turn)
	case *Ended:
		if d.Goal {
			if sd := st.Side(d.Side); sd != nil {
				sd.Goal = nil
			}
		}
		return st.end(d.Fulfilled, d.Commands, d.Recover, Fulfilled, e.Turn)
	case *Moved:
		if len(d.Path) == 0 {
			return fmt.Errorf("a move with no path")
		}
		cost := d.Cost
		switch {
		case d.Army != "":
			sd, err := side(d.Army)
			if err != nil {
				return err
			}
			sd.HQUsed += cost
			sd.HQ = d.Path[len(d.Path)-1]
		case d.HQ != "":
			f, err := form(d.HQ)
			if err != nil {
				return err
			}
			f.HQUsed += cost
			f.HQ = d.Path[len(d.Path)-1]
		case d.Leader != "":
			l := st.Leader(d.Leader)
			if l == nil {
				return fmt.Errorf("no leader %s", d.Leader)
			}
			l.Used += cost
		default:
			u := st.Unit(d.Unit)
			if u == nil {
				return fmt.Errorf("no unit %s", d.Unit)
			}
			if u.Used == 0 {
				u.Start = u.At
			}
			u.Used += cost
			if d.Posted {
				u.Posted = true
			}
		}
	case *Formed:
		if u := st.Unit(d.Unit); u != nil {
			u.Posted = u.Posted && d.Formation == "unlimbered"
		}
	case *Lost:
		u := st.Unit(d.Unit)
		if u == nil {
			return fmt.Errorf("no unit %s", d.Unit)
		}
		u.Strength -= d.Points
		if u.Strength <= 0 {
			// Gone, it leaves the field: under fog of war it spots
			// nothing more and is not spotted.
			u.Strength, u.Gone, u.OnTable = 0, true, false
		}
		// The losses of a division under an accepted attack order count
		// toward its fluke stoppage checks (LOB-7). A log made before
		// issue 32 names the division in the event; it is the same one.
		if f := st.Formation(u.Command); f != nil && st.liveAttack(f) != nil && f.FlukeFrom > 0 {
			f.Losses += d.Points
		}
	case *Aware:
		sd, err := side(d.Side)
		if err != nil {
			return err
		}
		sd.Aware = true
	case *Designation:
		o, err := order(d.Order)
		if err != nil {
			return err
		}
		f, err := form(d.Formation)
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
	case *EntryNamed:
		// The umpire's road hex for the formation and those under it
		// still to enter (3.7a).
		f, err := form(d.Formation)
		if err != nil {
			return err
		}
		p, err := st.sc.Map.Parse(d.At)
		if err != nil {
			return fmt.Errorf("the entry of %s at %s: %w", d.Formation, d.At, err)
		}
		for _, i := range append([]int{st.form[f.ID]}, st.below(f.ID)...) {
			at := p
			st.Formations[i].Road = &at
		}
	}
	return nil
}

// put adds an order to the state, or puts it in place of the one of the
// same id (an order of the scenario taken up on entry).
func (st *State) put(o Order) {
	for i := range st.Orders {
		if st.Orders[i].ID == o.ID {
			st.Orders[i] = o
			return
		}
	}
	st.Orders = append(st.Orders, o)
}

// attack marks a division that takes up an attack order: it will need
// attack recovery when the order ends (our reading of 10.8c: recovery is
// rolled with the division leader's value, so by divisions; a corps'
// divisions recover when its attack order ends); a reinforcement's fluke
// checks start in the command phase after it enters (entry, when not 0).
// A division in reserve takes the order as its existing orders only
// (LOB-5): it is marked when released.
func (st *State) attack(f *Formation, o Order, entry int) {
	if o.Kind != Attack || f.Kind != KindDivision || f.Reserve {
		return
	}
	f.Attacked = true
	if entry > 0 && f.Kind == KindDivision {
		f.FlukeFrom, f.Losses = entry+1, 0
	}
}

// free takes formation f out of reserve by a release (LOB-5, 10.4c): it
// follows its existing orders at once. A division whose orders are an
// attack checks fluke stoppage from the command phase fluke-delay turns on
// (not before the grace period of the orders at the start), counting its
// losses from now, and will need attack recovery (10.7b: reserves
// established under attack orders that release to attack check).
func (st *State) free(f *Formation, turn int, play map[string]int) {
	f.Reserve = false
	if f.Kind != KindDivision {
		return
	}
	o := st.liveAttack(f)
	if o == nil {
		return
	}
	from := turn + play["fluke-delay"]
	if o.Start {
		from = max(from, play["grace-turns"]+1)
	}
	f.FlukeFrom, f.Losses = from, 0
	if f.Order == o.ID {
		f.Attacked = true
	}
}

// liveAttack is a Command's accepted or executing attack order, or nil.
func (st *State) liveAttack(f *Formation) *Order {
	if o := st.Executing(f); o != nil && o.Kind == Attack {
		return o
	}
	for i := range st.Orders {
		if o := &st.Orders[i]; o.To == f.ID && o.Kind == Attack && o.Stage == Accepted {
			return o
		}
	}
	return nil
}

// end ends orders at stage to (fulfilled or futile): their Commands go to
// no-orders status, and those in recover begin attack recovery next turn.
func (st *State) end(orders, commands, recover []string, to string, turn int) error {
	for _, id := range orders {
		o := st.Order(id)
		if o == nil {
			return fmt.Errorf("no order %s", id)
		}
		o.Stage = to
	}
	for _, id := range commands {
		f := st.Formation(id)
		if f == nil {
			return fmt.Errorf("no formation %s", id)
		}
		if o := st.Executing(f); o != nil && o.Kind == Attack {
			f.Last = o.ID
		}
		f.Order, f.Declared, f.FlukeFrom = "", false, 0
	}
	for _, id := range recover {
		if to == Futile {
			// Ended as futile: the withdrawal of fluke stoppage (10.7a):
			// it does not advance until it has recovered.
			if f := st.Formation(id); f != nil {
				f.Fluked, f.Futile = true, true
			}
		}
		f := st.Formation(id)
		if f == nil {
			return fmt.Errorf("no formation %s", id)
		}
		f.Recovery, f.RecoverFrom = First, turn+1
	}
	return nil
}
