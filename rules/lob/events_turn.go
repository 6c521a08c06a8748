package lob

import (
	"fmt"
	"strings"

	"orderly/game"
)

// The events of a side's turn that bring orders in: its beginning (with
// arrivals, deliveries and relays), acceptance rolls, and the army
// commander's awareness.

// Effect is a reserve established or released by an order or a relay.
type Effect struct {
	Formation string `json:"formation"`
	Reserve   bool   `json:"reserve"`
	Order     string `json:"order,omitempty"`
	// Follows is, for a release, the existing orders the formation
	// follows at once (LOB-5, 10.4c); "" for none.
	Follows string `json:"follows,omitempty"`
}

// effectFields are the values of a script's field name in effects es:
// reserve the formations placed in reserve, released those freed, follows
// the existing orders a freed one follows.
func effectFields(es []Effect, name string) []string {
	var got []string
	for _, ef := range es {
		if name == "reserve" && ef.Reserve || name == "released" && !ef.Reserve {
			got = append(got, ef.Formation)
		}
		if name == "follows" && ef.Follows != "" {
			got = append(got, ef.Follows)
		}
	}
	return got
}

// relayFields are the values of a script's field name in relays os:
// relayed "ID TURN" for each relay and the turn it arrives, order its id.
func relayFields(os []Order, name string) []string {
	var got []string
	for _, o := range os {
		switch name {
		case "relayed":
			got = append(got, o.ID+" "+itoa(o.Arrives))
		case "order":
			got = append(got, o.ID)
		}
	}
	return got
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

// Fold begins d.Side's turn (LOB-1, LOB-4, LOB-6): its pieces' movement
// and rolls start afresh, orders issued last turn go out for delivery,
// reinforcements enter, and orders and relays arrive.
func (d *Begun) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	sd, err := st.needSide(d.Side)
	if err != nil {
		return err
	}
	if d.Aware {
		sd.Aware = true
	}
	st.afresh(sd, d.Side)
	if err := d.enter(st); err != nil {
		return err
	}
	if err := d.arrive(st, e.Turn); err != nil {
		return err
	}
	if err := st.effects(d.Effects, e.Turn, r.play); err != nil {
		return err
	}
	st.putAll(d.Relays)
	return nil
}

// afresh starts side's turn: sd, its leaders, units and HQs have used no
// movement and rolled nothing, and its orders issued go out for delivery.
func (st *State) afresh(sd *Side, side string) {
	sd.Rolled, sd.HQUsed = false, 0
	for i := range st.Leaders {
		if l := &st.Leaders[i]; l.Side == side {
			l.Used, l.Rolled = 0, nil
		}
	}
	for i := range st.Units {
		if u := &st.Units[i]; u.Side == side {
			u.Used = 0
		}
	}
	for i := range st.Formations {
		if f := &st.Formations[i]; f.Side == side {
			f.HQUsed = 0
		}
	}
	for i := range st.Orders {
		if o := &st.Orders[i]; o.Side == side && o.Stage == Issued {
			o.Stage = Delivering
		}
	}
}

// enter folds the reinforcements that enter (LOB-1, 3.7a): formations and
// HQs on the map, an HQ diverted to the hex it enters at, and divisions
// back within their corps' radius (10.3f). The pieces' moves put the
// leaders and units.
func (d *Begun) enter(st *State) error {
	for _, id := range d.Entered {
		f, err := st.needFormation(id)
		if err != nil {
			return err
		}
		f.Entered = true
	}
	for _, id := range d.HQs {
		f, err := st.needFormation(id)
		if err != nil {
			return err
		}
		f.HQOn = true
	}
	for _, en := range d.Diverted {
		id, ok := strings.CutPrefix(en.Piece, "hq:")
		if !ok {
			continue
		}
		f, err := st.needFormation(id)
		if err != nil {
			return err
		}
		p, err := st.sc.Map.Parse(en.At)
		if err != nil {
			return fmt.Errorf("the HQ of %s enters at %s: %w", id, en.At, err)
		}
		f.HQ = p
	}
	for _, id := range d.Rejoined {
		f, err := st.needFormation(id)
		if err != nil {
			return err
		}
		f.Rejoin = false
	}
	return nil
}

// arrive folds the orders that reach their Commands on turn: those taken
// up on entry or rejoining, those that await acceptance, and relays to a
// reserve, accepted with no roll (LOB-5, LOB-6).
func (d *Begun) arrive(st *State, turn int) error {
	for _, o := range d.Adopted {
		st.put(o)
		f, err := st.needFormation(o.To)
		if err != nil {
			return err
		}
		f.Order = o.ID
		st.attack(f, o, turn)
	}
	if err := st.stage(d.Arrived, Awaiting); err != nil {
		return err
	}
	for _, ids := range [2][]string{d.Kept, d.Pending} {
		for _, id := range ids {
			o, err := st.needOrder(id)
			if err != nil {
				return err
			}
			o.Stage, o.Taken, o.Kept = Accepted, turn, o.Kind != Reserve
		}
	}
	return nil
}

// Describe words the beginning of a turn, or a division rejoining its
// corps.
func (d *Begun) Describe(r *Rules, e *game.Event, name func(string) string) string {
	if len(d.Rejoined) > 0 {
		if len(d.Adopted) == 0 {
			return fmt.Sprintf("%s comes within its corps' command radius with no orders to take up; it awaits orders.", list(d.Rejoined, name))
		}
		return fmt.Sprintf("%s comes within its corps' command radius and takes up its orders (%s).", list(d.Rejoined, name), d.Adopted[0].ID)
	}
	parts := append(d.entryParts(name), d.orderParts(name)...)
	if len(parts) == 0 {
		return fmt.Sprintf("%s's turn begins.", name(d.Side))
	}
	return fmt.Sprintf("%s's turn begins: %s.", name(d.Side), strings.Join(parts, "; "))
}

// entryParts words the army commander's awareness and the pieces that
// enter, for Describe.
func (d *Begun) entryParts(name func(string) string) []string {
	var parts []string
	if d.Aware {
		parts = append(parts, "the army commander becomes aware")
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
	return parts
}

// orderParts words the orders taken up, arriving and relayed, and the
// reserves they set or free, for Describe.
func (d *Begun) orderParts(name func(string) string) []string {
	var parts []string
	for _, o := range d.Adopted {
		parts = append(parts, fmt.Sprintf("%s takes up %s", name(o.To), orderText(&o, name)))
	}
	switch len(d.Arrived) {
	case 0:
	case 1:
		parts = append(parts, "order "+d.Arrived[0]+" arrives and awaits acceptance")
	default:
		parts = append(parts, "orders "+strings.Join(d.Arrived, ", ")+" arrive and await acceptance")
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
	return parts
}

// Field gives a turn-begun event's orders arrived, kept, taken up
// (executing) and relayed, formations entered or rejoined, pieces diverted
// (entry) and reserves set or freed.
func (d *Begun) Field(r *Rules, e *game.Event, name string) []string {
	var got []string
	switch name {
	case "arrived", "order":
		got = append(got, d.Arrived...)
	case "kept":
		got = append(append(got, d.Kept...), d.Pending...)
	case "entered":
		got = append(append(got, d.Entered...), d.Rejoined...)
	case "entry":
		for _, en := range d.Diverted {
			got = append(got, en.Piece+" "+en.At)
		}
	case "executing":
		for _, o := range d.Adopted {
			got = append(got, o.ID)
		}
	}
	got = append(got, effectFields(d.Effects, name)...)
	return append(got, relayFields(d.Relays, name)...)
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

// Fold records the acceptance rolls and what follows from them (LOB-4..
// LOB-6): orders accepted, superseded and now executing, reserves set,
// relays sent.
func (d *Acceptance) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	if err := d.take(st, e.Turn, r.play); err != nil {
		return err
	}
	if err := d.supersede(st); err != nil {
		return err
	}
	if err := d.execute(st); err != nil {
		return err
	}
	if err := st.effects(d.Effects, e.Turn, r.play); err != nil {
		return err
	}
	if err := st.stage(d.Done, Done); err != nil {
		return err
	}
	st.putAll(d.Relays)
	return nil
}

// take folds the acceptance rolls and the embedded orders accepted with
// them on turn. A division that accepts an attack order checks fluke
// stoppage from fluke-delay turns on, counting its losses from now (LOB-7).
func (d *Acceptance) take(st *State, turn int, play map[string]int) error {
	for _, t := range d.Rolls {
		o, err := st.needOrder(t.Order)
		if err != nil {
			return err
		}
		if t.Result != "accepted" {
			o.Failed++
			continue
		}
		o.Stage, o.Taken = Accepted, turn
		if f := st.Formation(o.To); f != nil && o.Kind == Attack && f.Kind == KindDivision {
			f.FlukeFrom, f.Losses = turn+play["fluke-delay"], 0
		}
	}
	for _, id := range d.Embedded {
		o, err := st.needOrder(id)
		if err != nil {
			return err
		}
		o.Stage, o.Taken = Accepted, turn
	}
	return nil
}

// supersede ends the orders superseded. A Command that leaves an attack
// order for another needs no recovery to take it up (10.8d).
func (d *Acceptance) supersede(st *State) error {
	if err := st.stage(d.Superseded, Superseded); err != nil {
		return err
	}
	for _, id := range d.Superseded {
		o, err := st.needOrder(id)
		if err != nil {
			return err
		}
		if f := st.Formation(o.To); f != nil && f.Order == id {
			f.Order, f.Attacked = "", false
		}
	}
	return nil
}

// execute makes the orders executing their Commands' orders, and a
// reserve's existing orders, which it executes only once released
// (st.attack leaves a reserve alone). An order to a reserve frees it
// (LOB-5).
func (d *Acceptance) execute(st *State) error {
	for _, ids := range [2][]string{d.Executing, d.Existing} {
		for _, id := range ids {
			o, err := st.needOrder(id)
			if err != nil {
				return err
			}
			o.Stage = Executing
			f, err := st.needFormation(o.To)
			if err != nil {
				return err
			}
			f.Order, f.Declared = id, false
			if o.Release {
				f.Reserve = false
			}
			st.attack(f, *o, 0)
		}
	}
	return nil
}

// Describe words the acceptance rolls and what follows from them.
func (d *Acceptance) Describe(r *Rules, e *game.Event, name func(string) string) string {
	var parts []string
	for i, t := range d.Rolls {
		parts = append(parts, fmt.Sprintf("order %s is %s%s", t.Order, words(t.Result), rollText(e, i)))
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
}

// Field gives an acceptance event's rolls (check "ORDER RESULT"), orders
// rolled for, embedded, executing, kept in reserve and superseded,
// reserves set or freed and relays.
func (d *Acceptance) Field(r *Rules, e *game.Event, name string) []string {
	var got []string
	for _, t := range d.Rolls {
		switch name {
		case "check":
			got = append(got, t.Order+" "+t.Result)
		case "order":
			got = append(got, t.Order)
		}
	}
	switch name {
	case "executing":
		got = append(got, d.Executing...)
	case "kept":
		got = append(got, d.Existing...)
	case "superseded":
		got = append(got, d.Superseded...)
	case "order":
		got = append(got, d.Embedded...)
	}
	got = append(got, effectFields(d.Effects, name)...)
	return append(got, relayFields(d.Relays, name)...)
}

// Aware is the payload of an aware event.
type Aware struct {
	Side string `json:"side"`
}

// Fold makes the side's army commander aware (LOB-4).
func (d *Aware) Fold(r *Rules, s *game.State, e *game.Event) error {
	sd, err := ext(s).needSide(d.Side)
	if err != nil {
		return err
	}
	sd.Aware = true
	return nil
}

// Describe words the army commander becoming aware.
func (d *Aware) Describe(r *Rules, e *game.Event, name func(string) string) string {
	return fmt.Sprintf("The army commander of %s becomes aware.", name(d.Side))
}

// Field gives nothing: an aware event has no fields of its own.
func (d *Aware) Field(r *Rules, e *game.Event, name string) []string { return nil }
