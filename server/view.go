package server

import (
	"context"

	"orderly/battle"
	"orderly/game"
	"orderly/store"
)

// Info is a game as its seats see it, without the state. Version is the
// number of events the seat may see: a side counts only its own.
type Info struct {
	ID      string      `json:"id"`
	Title   string      `json:"title"`
	Rules   string      `json:"rules"`
	Version int         `json:"version"`
	Turn    int         `json:"turn"`
	Turns   int         `json:"turns"`
	Phase   string      `json:"phase"`
	Step    string      `json:"step"`
	Player  bool        `json:"player"` // the step waits for the players
	Verbs   []string    `json:"verbs"`  // the commands the step takes
	Kinds   []string    `json:"kinds"`  // the kinds of order a player may write
	Ready   []string    `json:"ready"`
	Over    bool        `json:"over"`
	Sides   []SideInfo  `json:"sides"`
	Seeds   []game.Seed `json:"seeds"`
	Seat    SeatInfo    `json:"seat"`
	// Head is the hash of the last event the seat may see: noted at the
	// end of a game, it lets orderly verify --head check an export against
	// what this seat saw.
	Head string `json:"head,omitempty"`
}

// SideInfo is what everyone knows of a side.
type SideInfo struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Nation string `json:"nation"`
	Edge   string `json:"edge"`
}

func seatInfo(s store.Seat) SeatInfo {
	return SeatInfo{Name: seatName(s), Role: s.Role, Side: s.Side, Formation: s.Formation, Label: s.Label}
}

// viewer is who the engine shows the game to: the umpire, or a side.
func viewer(s store.Seat) string {
	if s.Role == store.Umpire {
		return game.Umpire
	}
	return s.Side
}

// info describes the game to seat. l.mu must be held.
func (l *live) info(seat store.Seat) Info {
	who := viewer(seat)
	st := l.g.State()
	step := l.g.Step()
	in := Info{ID: l.id, Title: l.rec.Title, Rules: l.sc.Rules, Version: l.version(who), Turn: st.Turn, Turns: l.sc.Turns,
		Phase: st.Phase, Step: st.Step, Player: step.Player, Ready: append([]string{}, st.Ready...), Over: st.Over,
		Seeds: l.public(who), Seat: seatInfo(seat), Verbs: []string{}, Kinds: []string{}}
	if step.Player && !st.Over {
		in.Verbs = append(append(in.Verbs, step.Verbs...), l.rules.Anytime()...)
		switch seat.Role {
		case store.Umpire:
			in.Verbs = append(in.Verbs, "end")
		case store.Side:
			in.Verbs = append(in.Verbs, "ready")
		}
	}
	if f, ok := l.rules.(game.Forecaster); ok {
		in.Kinds = f.Kinds()
	}
	for _, sd := range l.sc.Sides {
		in.Sides = append(in.Sides, SideInfo{ID: sd.ID, Name: sd.Name, Nation: sd.Nation, Edge: sd.Edge})
	}
	in.Head = l.heads[who]
	return in
}

// Board is what a seat needs to draw the map: the game's info, the field,
// the state as the seat may see it, the names of what it sees, and
// derived facts (messengers' arrival turns, the engagement reach, the
// words of each order, the formations of each unit type), so that the
// page works out no rule itself.
type Board struct {
	Info  Info              `json:"game"`
	Field Field             `json:"field"`
	State *game.State       `json:"state"`
	Names map[string]string `json:"names"`
	// Etas is the turn each of the seat's own messengers should reach
	// its general, were he to stay where he is.
	Etas  map[string]int `json:"etas"`
	Reach float64        `json:"reach,omitempty"`
	// OrderText words the orders of the seat's state.
	OrderText OrderText `json:"order-text"`
	// Shapes lists, by unit type, the formations a unit may stand in.
	Shapes map[string][]string `json:"shapes"`
}

// Field is the table: its size, units and entry grid.
type Field struct {
	Width   float64            `json:"width"`
	Depth   float64            `json:"depth"`
	Units   string             `json:"units"`
	Columns int                `json:"columns,omitempty"`
	Rows    int                `json:"rows,omitempty"`
	Speeds  map[string]float64 `json:"speeds,omitempty"`
}

// board draws the game for seat. l.mu must be held.
func (l *live) board(seat store.Seat) Board {
	state := l.g.Sees(viewer(seat))
	b := Board{Info: l.info(seat), State: state, Names: map[string]string{}, Etas: map[string]int{},
		OrderText: orderText(state), Shapes: map[string][]string{}}
	for _, typ := range battle.UnitTypes {
		b.Shapes[typ] = battle.ShapesOf(typ)
	}
	f := l.sc.Field
	b.Field = Field{Width: f.Width, Depth: f.Depth, Units: "inches", Columns: f.Columns, Rows: f.Rows, Speeds: l.sc.Speeds}
	if r, ok := l.rules.(game.Reacher); ok {
		b.Reach = r.Reach()
	}
	for _, sd := range l.sc.Sides {
		for _, fm := range sd.Formations {
			if fm.Name != "" && state.Formation(fm.ID) != nil {
				b.Names[fm.ID] = fm.Name
			}
		}
		for _, g := range sd.Generals {
			if g.Name != "" && state.General(g.ID) != nil {
				b.Names[g.ID] = g.Name
			}
		}
	}
	if c, ok := l.rules.(game.Courier); ok {
		for _, m := range state.Messengers {
			if m.To == "" {
				continue // the enemy's: its recipient is hidden
			}
			if turn, ok := c.Arrival(state, m); ok {
				b.Etas[m.ID] = turn
			}
		}
	}
	return b
}

// OrderText is the orders of a seat's state in the words the log uses
// for an order: kind, objective and quoted note.
type OrderText struct {
	// Orders words each written order (state.orders), by its id.
	Orders map[string]string `json:"orders"`
	// Acting words the order each formation acts on (formation.order), by
	// the formation's id: an id alone does not say, since an attack order
	// completed keeps its id and becomes defend (SPEC NB-8).
	Acting map[string]string `json:"acting"`
	// Then words the order an off-board reserve follows once it enters
	// (formation.then, SPEC NB-10), by the formation's id.
	Then map[string]string `json:"then"`
}

// orderText words every order of state, as the engine writes an order.
func orderText(state *game.State) OrderText {
	out := OrderText{Orders: map[string]string{}, Acting: map[string]string{}, Then: map[string]string{}}
	for _, o := range state.Orders {
		out.Orders[o.ID] = o.Order.String()
	}
	for _, f := range state.Formations {
		if f.Order != nil {
			out.Acting[f.ID] = f.Order.String()
		}
		if f.Then != nil {
			out.Then[f.ID] = f.Then.String()
		}
	}
	return out
}

// Events is a page of a seat's events, numbered as the seat numbers them.
// More says the seat has more events after these: ask again since the
// last one's number.
type Events struct {
	Version int     `json:"version"`
	Events  []Entry `json:"events"`
	More    bool    `json:"more,omitempty"`
}

// maxEvents is the most events one answer holds.
const maxEvents = 1000

// events returns at most limit of the events seat may see after its event
// number since, renumbered as the seat numbers them: those still in memory
// from the game, older ones read from the store in pages outside the
// game's lock.
func (l *live) events(ctx context.Context, st store.Store, seat store.Seat, since, limit int) (Events, error) {
	who := viewer(seat)
	l.mu.Lock()
	out := Events{Version: l.version(who), Events: []Entry{}}
	from, ok := l.at(who, since)
	if !ok {
		l.mu.Unlock()
		return out, errorf(Invalid, "since=%d is past this seat's last event, number %d", since, out.Version)
	}
	if from >= l.g.Base() {
		n := since
		l.g.Scan(from, func(e *game.Event) {
			if e.Visible(who) && len(out.Events) < limit {
				n++
				out.Events = append(out.Events, l.present(*e, who, n))
			}
		})
		l.mu.Unlock()
		out.More = n < out.Version
		return out, nil
	}
	l.mu.Unlock()
	n := since
	err := scanStored(ctx, st, l.id, from, page, func(e game.Event) bool {
		if e.Visible(who) {
			n++
			out.Events = append(out.Events, l.present(e, who, n))
		}
		return len(out.Events) < limit
	})
	out.Version = max(out.Version, n)
	out.More = len(out.Events) == limit
	return out, err
}

// scanStored reads a game's stored events after from, size at a time, and
// calls fn with each until it returns false or the log ends.
func scanStored(ctx context.Context, st store.Store, id string, from, size int, fn func(game.Event) bool) error {
	for {
		raw, err := st.Events(ctx, id, from, size)
		if err != nil {
			return err
		}
		evs, err := decodeEvents(raw, from)
		if err != nil {
			return err
		}
		for _, e := range evs {
			from = e.Seq
			if !fn(e) {
				return nil
			}
		}
		if len(raw) < size {
			return nil
		}
	}
}
