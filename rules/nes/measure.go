package nes

import (
	"strconv"

	"orderly/geom"
)

// dist is the number of hexes between two positions.
func (st *State) dist(a, b geom.Point) int { return int(st.sc.Map.Dist(a, b)) }

// reach is the distance from sender's hex to the receiver or the nearest
// of the combat units it commands (NES-2: "the receiving command unit (or
// combat unit)"), with the receiver's own distance.
func (st *State) reach(sender, receiver *Leader) (nearest, own int) {
	own = st.dist(sender.At, receiver.At)
	nearest = own
	for _, id := range st.under(receiver) {
		if u := st.Unit(id); u != nil && u.alive() {
			if d := st.dist(sender.At, u.At); d < nearest {
				nearest = d
			}
		}
	}
	return nearest, own
}

// under lists the combat units a command unit commands: its own and, for
// a corps or division, those of every command below it.
func (st *State) under(l *Leader) []string {
	if l.Role == RoleBrigade || l.Role == RoleArmy {
		return l.Units
	}
	out := l.Units
	for _, i := range st.subs[st.leader[l.ID]] {
		out = append(out[:len(out):len(out)], st.under(&st.Leaders[i])...)
	}
	return out
}

// delivery is an order's delivery from sender to receiver, worked out
// from where they stand (NES-2) and, within the radius, NES-1's
// parameters.
type delivery struct {
	dist, own int
	same      bool // the receiver is in the sender's hex: received
	within    bool // within the sender's radius: roll NES-1
	delay     int  // beyond it: the delay levels
	adjacent  bool
	params    map[string]string
}

// delivery works out an order's delivery (NES-2) and NES-1's modifiers:
// the receiver's bonus; a french brigade leader; a sender stacked with an
// attack order or an order-received marker; a sender adjacent to the
// receiver or one of its combat units (or with one of them in his own
// hex, our reading); urgent; sent from the army HQ's or commander's hex;
// the turns the order has stayed at delay 1.
func (r *Rules) delivery(st *State, sender, receiver *Leader, urgent, fromHQ bool, atDelay1 int) delivery {
	var d delivery
	if sender == nil {
		sender = receiver
	}
	d.dist, d.own = st.reach(sender, receiver)
	d.same = d.own == 0
	radius := max(sender.Radius, 1)
	d.within = d.dist <= radius
	if !d.within {
		d.delay = min((d.dist-radius+radius-1)/radius, MaxDelay)
	}
	d.adjacent = d.dist <= 1 && !d.same
	side := st.Side(receiver.Side)
	marker := sender.Order != nil && (sender.Order.Kind == "attack" || sender.Marker == Received)
	d.params = map[string]string{
		"bonus":            strconv.Itoa(receiver.Bonus),
		"french-brigade":   strconv.FormatBool(receiver.Role == RoleBrigade && side != nil && side.Nation == "french"),
		"sender-marker":    strconv.FormatBool(marker),
		"adjacent":         strconv.FormatBool(d.adjacent),
		"urgent":           strconv.FormatBool(urgent),
		"from-hq":          strconv.FormatBool(fromHQ),
		"turns-at-delay-1": strconv.Itoa(atDelay1),
		"brigade":          strconv.FormatBool(receiver.Role == RoleBrigade),
	}
	return d
}

// fromHQ reports whether a command unit stands in its army's HQ hex or
// its army commander's (NES-1).
func (st *State) fromHQ(l *Leader) bool {
	side := st.Side(l.Side)
	if side != nil && st.dist(l.At, side.HQ) == 0 {
		return true
	}
	if i, ok := st.army[l.Side]; ok && st.dist(st.Leaders[i].At, l.At) == 0 {
		return true
	}
	return false
}

// stray is a subordinate leader NES-3's check counts outside his
// commander's radius: how far he stands, and whether beyond twice the
// radius (a brigade leader's +2 more).
type stray struct {
	leader *Leader
	dist   int
	far    bool
}

// strays lists the subordinates of command unit l that its continuation
// check counts outside his radius (NES-3): for a corps or wing commander
// his division leaders, for a division leader his brigade leaders (a
// retired one counts as outside, never as beyond twice).
func (st *State) strays(l *Leader) []stray {
	var out []stray
	for _, i := range st.subs[st.leader[l.ID]] {
		m := &st.Leaders[i]
		d := st.dist(l.At, m.At)
		switch {
		case l.Role == RoleCorps && m.Role == RoleDivision:
			if d > l.Radius || m.Retired {
				out = append(out, stray{leader: m, dist: d})
			}
		case l.Role == RoleDivision && m.Role == RoleBrigade:
			if d > l.Radius || m.Retired {
				out = append(out, stray{leader: m, dist: d, far: d > 2*l.Radius && !m.Retired})
			}
		}
	}
	return out
}

// checks reports whether leader l makes a command continuation check
// (NES-3): a mobilized corps or wing commander or division leader, but in
// this turn's continuation step one mobilized in this command segment;
// later asks of the next turn's, which he makes all the same.
func checks(l *Leader, later bool) bool {
	return l.State == Mobilized && (later || !l.Fresh) && (l.Role == RoleCorps || l.Role == RoleDivision)
}

// checkParams are NES-3's parameters for command unit l: its rating and
// bonus; for a corps or wing commander, his division leaders outside his
// radius; for a division leader, his brigade leaders outside his radius
// (retired ones count as outside) and beyond twice it, whether his corps
// or wing commander is stacked with a command point or mobilized, or
// else has him within his radius, and a french light cavalry division;
// an evening turn; an attack order.
// later says the check is for a later turn than the state's, when the
// command points stacked now are gone; fell lists the commanders who have
// fallen to standing earlier in this same round of checks (NES-3: at once).
func (r *Rules) checkParams(st *State, l *Leader, evening, later bool, fell map[string]bool) map[string]string {
	divOut, brigOut, brigFar := 0, 0, 0
	for _, sy := range st.strays(l) {
		switch {
		case sy.leader.Role == RoleDivision:
			divOut++
		case sy.far:
			brigOut, brigFar = brigOut+1, brigFar+1
		default:
			brigOut++
		}
	}
	cpOrMob, inRadius := false, false
	if l.Role == RoleDivision && !l.Independent {
		if c := st.Leader(l.Superior); c != nil {
			cpOrMob = c.CP && !later || c.State == Mobilized && !fell[c.ID]
			inRadius = st.dist(c.At, l.At) <= c.Radius
		}
	}
	side := st.Side(l.Side)
	french := side != nil && side.Nation == "french"
	return map[string]string{
		"rating":                strconv.Itoa(l.Rating),
		"bonus":                 strconv.Itoa(l.Bonus),
		"divisions-out":         strconv.Itoa(divOut),
		"brigades-out":          strconv.Itoa(brigOut),
		"brigades-far":          strconv.Itoa(brigFar),
		"evening":               strconv.FormatBool(evening),
		"corps-cp-or-mobilized": strconv.FormatBool(cpOrMob),
		"in-corps-radius":       strconv.FormatBool(inRadius),
		"french-light-cavalry":  strconv.FormatBool(french && l.Role == RoleDivision && l.LightCav),
		"attack-order":          strconv.FormatBool(l.Order != nil && l.Order.Kind == "attack"),
	}
}
