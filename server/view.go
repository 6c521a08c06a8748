package server

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/geom/hex"
	"orderly/store"
	"orderly/terrain"
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
	// Fog is the game's fog of war mode: off, on or strict.
	Fog string `json:"fog"`
	// Dice is where the game's dice are thrown: server, table or mixed
	// (Setup.Dice).
	Dice string `json:"dice"`
	// Head is the hash of the last event the seat may see: noted at the
	// end of a game, it lets orderly verify --head check an export against
	// what this seat saw.
	Head string `json:"head,omitempty"`
	// Waiting lists the sides the current step still waits for (they act
	// in it and are not ready); empty when no one is waited for.
	Waiting []string `json:"waiting,omitempty"`
	// Since is when the game last changed (RFC 3339): the sides in
	// Waiting have been waited for at least since then.
	Since string `json:"since,omitempty"`
	// Why says, in one sentence, why this seat cannot act now; empty when
	// it can.
	Why string `json:"why,omitempty"`
	// Undo describes the seat's last command that it may still take back
	// (game.TakeBack), in the log's words; empty when there is none.
	Undo string `json:"undo,omitempty"`
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
		Phase: st.Phase, Step: st.Step, Player: step.Player(), Ready: append([]string{}, st.Ready...), Over: st.Over,
		Seeds: l.public(who), Seat: seatInfo(seat), Verbs: []string{}, Kinds: []string{}, Fog: l.g.Fog(), Dice: l.diceMode()}
	if step.Player() && !st.Over {
		acts := slices.Contains(l.g.Acting(), seat.Side)
		if seat.Role == store.Umpire || acts {
			in.Verbs = append(in.Verbs, step.Verbs...)
		}
		switch {
		case seat.Role == store.Umpire:
			in.Verbs = append(in.Verbs, game.End)
		case seat.Role == store.Side && acts:
			in.Verbs = append(in.Verbs, game.Ready)
		}
	}
	in.Kinds = l.rules.Kinds()
	for _, sd := range l.sc.Sides {
		in.Sides = append(in.Sides, SideInfo{ID: sd.ID, Name: sd.Name, Nation: sd.Nation, Edge: sd.Edge})
	}
	in.Head = l.heads[who]
	l.waits(&in, seat, who)
	return in
}

// waits fills in who the game waits for, since when, why seat cannot act
// now and what it may take back (issue 36). Who acts in a step and who is
// ready are known to every seat (their events are shown to all), so
// nothing here comes from what the seat does not know. l.mu must be held.
func (l *live) waits(in *Info, seat store.Seat, who string) {
	st := l.g.State()
	step := l.g.Step()
	if st.Over || !step.Player() {
		return
	}
	acting := l.g.Acting()
	for _, side := range acting {
		if !slices.Contains(st.Ready, side) {
			in.Waiting = append(in.Waiting, side)
		}
	}
	if !l.played.IsZero() {
		in.Since = l.played.UTC().Format(time.RFC3339)
	}
	if who == game.Umpire {
		return
	}
	if !slices.Contains(acting, seat.Side) {
		in.Why = fmt.Sprintf("It is %s's %s step: the game waits for %s to finish it.",
			l.sideNames(acting), step.Name, l.sideNames(in.Waiting))
		if len(in.Waiting) == 0 {
			in.Why = fmt.Sprintf("It is %s's %s step.", l.sideNames(acting), step.Name)
		}
		return
	}
	if slices.Contains(st.Ready, seat.Side) && seat.Role == store.Side {
		in.Verbs = append(in.Verbs, game.Unready)
	}
	if seat.Role == store.Side {
		if in.Undo = l.g.Undo(seat.Side); in.Undo != "" {
			in.Verbs = append(in.Verbs, game.TakeBack)
		}
	}
}

// sideNames names sides as the scenario does, joined with "and".
func (l *live) sideNames(ids []string) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = id
		if sd := l.sc.Side(id); sd != nil && sd.Name != "" {
			names[i] = sd.Name
		}
	}
	switch len(names) {
	case 0:
		return "nobody"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Board is what a seat needs to draw the map: the game's info, the field,
// the state as the seat may see it, the names of what it sees, and
// derived facts (messengers' arrival turns, the engagement reach, the
// words of each order, the formations of each unit type), so that the
// page works out no rule itself.
type Board struct {
	Info Info `json:"game"`
	// Space is what the game is played on, measured and drawn.
	Space Space             `json:"space"`
	Field Field             `json:"field"`
	State *game.State       `json:"state"`
	Names map[string]string `json:"names"`
	// Etas is the turn each of the seat's own messengers should reach
	// its general, were he to stay where he is.
	Etas  map[string]int `json:"etas"`
	Reach float64        `json:"reach,omitempty"`
	// Reaching lists the pieces whose reach is drawn: those that engage
	// an enemy who comes within Reach.
	Reaching []string `json:"reaching,omitempty"`
	// OrderText words the orders of the seat's state (game.Worder), in
	// the words the log uses.
	OrderText any `json:"order-text,omitempty"`
	// Shapes lists, by unit type, the formations a unit may stand in.
	Shapes map[string][]string `json:"shapes"`
	// Offers lists, by piece or formation id, the commands of the
	// current step the seat may give for it (game.Offerer), so that the
	// page offers only those.
	Offers map[string][]string `json:"offers"`
	// Extra is what the rule set adds for drawing and offering
	// (game.Annotator): BP's footprints, arcs and legal targets.
	Extra any `json:"extra,omitempty"`
	// Acting is the side the umpire's board offers commands for, when he
	// acts for it (GET /board?act=SIDE).
	Acting string `json:"acting,omitempty"`
	// Advice is what the rules will report at the end of the step, as it
	// stands now for this seat (game.Adviser): warnings while they can
	// still be put right, and the commands left this turn.
	Advice *game.Advice `json:"advice,omitempty"`
}

// Space is the surface a game is played on, as a page needs it to draw
// it: its kind (table or hex), the unit of its distances (inches or
// hexes), the bounds of its positions, and for a hex map how its hexes lie
// and are labelled. Positions in the state and events are [x, y] in
// inches on a table, and [column, row] of a hex as printed on a hex map.
type Space struct {
	Kind string `json:"kind"`
	Unit string `json:"unit"`
	// Min and Max bound every position: [0, 0] to [width, depth] on a
	// table, the first hex's [column, row] to the last's on a hex map.
	Min geom.Point `json:"min"`
	Max geom.Point `json:"max"`
	Hex *HexMap    `json:"hex,omitempty"`
	// Edge is the base edge of the seat's side (north, south, east or
	// west): the page turns the map so that it lies at the bottom of the
	// screen. It is empty for the umpire, who sees north at the top.
	Edge string `json:"edge,omitempty"`
	// Image is the backdrop drawn under the table or the map, if the
	// scenario has one.
	Image *Backdrop `json:"image,omitempty"`
}

// Backdrop is a scenario's backdrop image as the page draws it: where to
// fetch it (GET /api/games/{id}/image, with the seat's token), its type
// and size in pixels, and where it lies: on a table its pixels per inch
// (Scale) and its top-left corner in inches (At); on a hex map the centre
// of its first hex (X0, Y0) and the distances between hexes' centres (DX,
// DY), in its pixels (battle.Image).
type Backdrop struct {
	URL    string      `json:"url"`
	Type   string      `json:"type"`
	Width  int         `json:"width"`
	Height int         `json:"height"`
	Scale  *float64    `json:"scale,omitempty"`
	At     *geom.Point `json:"at,omitempty"`
	X0     *float64    `json:"x0,omitempty"`
	Y0     *float64    `json:"y0,omitempty"`
	DX     *float64    `json:"dx,omitempty"`
	DY     *float64    `json:"dy,omitempty"`
}

// backdropOf describes game id's backdrop image im on space sp.
func backdropOf(id string, im *battle.Image, sp geom.Space) *Backdrop {
	b := &Backdrop{URL: "/api/games/" + id + "/image", Type: im.Type, Width: im.Width, Height: im.Height}
	if _, ok := sp.(hex.Map); ok {
		b.X0, b.Y0, b.DX, b.DY = &im.X0, &im.Y0, &im.DX, &im.DY
	} else {
		b.Scale, b.At = &im.Scale, &im.At
	}
	return b
}

// HexMap is how a hex map lies: Columns by Rows hexes laid out as Layout
// (odd-q, even-q, odd-r, even-r; see hex.Offset), columns and rows
// numbered from First, each number of a label written with Digits digits
// (hex [4, 12] is labelled 0412).
type HexMap struct {
	Columns int    `json:"columns"`
	Rows    int    `json:"rows"`
	Layout  string `json:"layout"`
	First   int    `json:"first"`
	Digits  int    `json:"digits"`
	// Terrain is what lies on the map, if the scenario gives it.
	Terrain *Terrain `json:"terrain,omitempty"`
}

// Terrain is a hex map's terrain for drawing: a letter for each hex row by
// row from the first (Letters names each letter's terrain), an elevation
// digit for each hex laid out the same, the hexsides that carry features,
// and the hexsides roads cross.
type Terrain struct {
	Hexes   string            `json:"hexes"`
	Letters map[string]string `json:"letters"`
	Levels  string            `json:"levels"`
	Sides   []Hexside         `json:"sides"`
	Roads   []Hexside         `json:"roads"`
}

// Hexside is a hexside between two hexes ([column, row] each) and what is
// on it: hexside features, or the kind of road that crosses it.
type Hexside struct {
	Hexes [2]geom.Point `json:"hexes"`
	What  []string      `json:"what"`
}

// spaceOf describes a space for a page, with the map's terrain if t is
// not nil.
func spaceOf(sp geom.Space, t *terrain.Map) Space {
	b := sp.Bounds()
	out := Space{Kind: sp.Kind(), Unit: string(sp.Unit()), Min: b.Min, Max: b.Max}
	if m, ok := sp.(hex.Map); ok {
		l := m.Layout
		out.Hex = &HexMap{Columns: m.Columns, Rows: m.Rows, Layout: l.Offset.String(), First: l.First, Digits: l.LabelDigits()}
		if t != nil {
			out.Hex.Terrain = terrainOf(t)
		}
	}
	return out
}

// terrainOf describes a map's terrain for a page.
func terrainOf(t *terrain.Map) *Terrain {
	k := t.Kinds
	out := &Terrain{Letters: map[string]string{}, Sides: []Hexside{}, Roads: []Hexside{}}
	for _, h := range k.Hexes {
		out.Letters[string(h.Letter)] = h.Name
	}
	hexes, levels := make([]byte, 0, t.Len()), make([]byte, 0, t.Len())
	for i := range t.Len() {
		hexes = append(hexes, byte(k.Hexes[t.Terrain(i)].Letter))
		levels = append(levels, byte('0'+t.Level(i)))
		for d := range 6 {
			j := t.Next(i, d)
			if j < i { // each hexside once, from its lower index; none off the map
				continue
			}
			side := [2]geom.Point{t.Point(i), t.Point(j)}
			if f := t.Features(i, d); f != 0 {
				hs := Hexside{Hexes: side}
				for n, name := range k.Sides {
					if f&(1<<n) != 0 {
						hs.What = append(hs.What, name)
					}
				}
				out.Sides = append(out.Sides, hs)
			}
			if r := t.Road(i, d); r != terrain.None {
				out.Roads = append(out.Roads, Hexside{Hexes: side, What: []string{k.Roads[r]}})
			}
		}
	}
	out.Hexes, out.Levels = string(hexes), string(levels)
	return out
}

// Field is the table: its size, the unit of distances, the entry grid and
// the units' speeds. On a hex map width and depth are 0 (see Space).
type Field struct {
	Width   float64            `json:"width"`
	Depth   float64            `json:"depth"`
	Units   string             `json:"units"`
	Columns int                `json:"columns,omitempty"`
	Rows    int                `json:"rows,omitempty"`
	Speeds  map[string]float64 `json:"speeds,omitempty"`
	// Features is the terrain on the table, to draw.
	Features []Feature `json:"features,omitempty"`
}

// Feature is a piece of terrain on the table as a page draws it: an area
// (its corners) or a line (its points), what it is, its disruptive rating,
// whether it gives cover and blocks sight, and a town's blocks.
type Feature struct {
	ID          string         `json:"id,omitempty"`
	Name        string         `json:"name,omitempty"`
	Type        string         `json:"type"`
	Area        []geom.Point   `json:"area,omitempty"`
	Line        []geom.Point   `json:"line,omitempty"`
	Width       float64        `json:"width,omitempty"`
	Disruptive  string         `json:"disruptive,omitempty"`
	Cover       bool           `json:"cover,omitempty"`
	BlocksSight bool           `json:"blocks-sight,omitempty"`
	Blocks      [][]geom.Point `json:"blocks,omitempty"`
}

// featuresOf describes a table's terrain for a page.
func featuresOf(fs []*battle.Feature) []Feature {
	var out []Feature
	for _, f := range fs {
		v := Feature{ID: f.ID, Name: f.Name, Type: f.Type, Area: f.Area, Line: f.Course, Width: f.Width,
			Disruptive: f.Disruptive, Cover: f.Cover, BlocksSight: f.BlocksSight}
		for _, b := range f.Blocks {
			v.Blocks = append(v.Blocks, b)
		}
		out = append(out, v)
	}
	return out
}

// edgeOf is the base edge of seat's side, or "" for the umpire (and a
// seat of no side).
func (l *live) edgeOf(seat store.Seat) string {
	if seat.Role == store.Umpire {
		return ""
	}
	for _, sd := range l.sc.Sides {
		if sd.ID == seat.Side {
			return sd.Edge
		}
	}
	return ""
}

// sees is the state as seat knows it: everything for the umpire, a
// side's view for a side, a commander's (under strict fog, what his own
// formation spots) for a commander. Every answer to the seat is worked
// out on it. l.mu must be held.
func (l *live) sees(seat store.Seat) *game.State {
	if seat.Role == store.Commander {
		return l.g.SeesFrom(seat.Side, seat.Formation)
	}
	return l.g.Sees(viewer(seat))
}

// board draws the game for seat. l.mu must be held.
func (l *live) board(seat store.Seat) Board {
	state := l.sees(seat)
	b := Board{Info: l.info(seat), State: state, Names: map[string]string{}, Etas: map[string]int{},
		Shapes: l.rules.Shapes(), Offers: map[string][]string{}}
	f, sp := l.sc.Field, l.sc.Space()
	if l.space == nil {
		space := spaceOf(sp, l.sc.Terrain)
		if im := l.sc.Image; im != nil {
			space.Image = backdropOf(l.id, im, sp)
		}
		l.space = &space
	}
	b.Space = *l.space
	b.Space.Edge = l.edgeOf(seat)
	b.Field = Field{Width: f.Width, Depth: f.Depth, Units: string(sp.Unit()), Columns: f.Columns, Rows: f.Rows, Speeds: l.sc.Speeds, Features: featuresOf(f.Features)}
	if r, ok := l.rules.(game.Reacher); ok {
		b.Reach, b.Reaching = r.Reach(), r.Reaching(state)
	}
	for _, id := range l.rules.Seen(state) {
		if n := l.sc.NameOf(id); n != "" {
			b.Names[id] = n
		}
	}
	for _, gh := range state.Lost {
		// A piece once seen keeps its name where it was last seen.
		if n := l.sc.NameOf(gh.ID); n != "" {
			b.Names[gh.ID] = n
		}
	}
	if w, ok := l.rules.(game.Worder); ok {
		b.OrderText = w.Words(state)
	}
	b.Extra = l.rules.Annotate(state, l.g.Step(), viewer(seat))
	if c, ok := l.rules.(game.Courier); ok {
		b.Etas = c.Arrivals(state, viewer(seat))
	}
	b.Offers = l.offers(state, b.Info.Verbs, viewer(seat))
	if seat.Role == store.Commander {
		// A commander's seat is offered only what is under him.
		maps.DeleteFunc(b.Offers, func(id string, _ []string) bool { return !under(l.sc, id, seat.Formation) })
	}
	b.Advice = l.advice(state, viewer(seat))
	return b
}

// advice is what the rule set warns who of in state, the seat's view
// (game.Adviser): nil without an Adviser, or with nothing to say. l.mu
// must be held.
func (l *live) advice(state *game.State, who string) *game.Advice {
	a, ok := l.rules.(game.Adviser)
	if !ok {
		return nil
	}
	name := game.Names(l.sc)
	if l.src != nil {
		name = l.src.names
	}
	return a.Advise(state, l.g.Step(), who, name)
}

// offers is what the rule set offers who in state among verbs, the
// commands of this step the seat may use: for each piece or formation,
// the commands it would accept for it. l.mu must be held.
func (l *live) offers(state *game.State, verbs []string, who string) map[string][]string {
	if len(verbs) == 0 {
		return map[string][]string{}
	}
	step := l.g.Step()
	step.Verbs = slices.DeleteFunc(slices.Clone(step.Verbs), func(v string) bool { return !slices.Contains(verbs, v) })
	return l.rules.Offers(state, step, who)
}

// acting is the umpire's own board with the offers made to side in
// place of his: what he may do for that side while he acts for it
// (issue 15, the umpire's hand). He still sees everything. l.mu must be
// held.
func (l *live) acting(seat store.Seat, side string) Board {
	b := l.board(seat)
	b.Offers = l.offers(b.State, b.Info.Verbs, side)
	// The targets and arcs drawn are the side's too.
	b.Extra = l.rules.Annotate(b.State, l.g.Step(), side)
	b.Advice = l.advice(b.State, side)
	b.Acting = side
	if !l.g.State().Over {
		b.Info.Undo = l.g.Undo(side)
	}
	return b
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
	out := Events{Events: []Entry{}}
	if err := l.lock(ctx, st); err != nil {
		return out, err
	}
	out.Version = l.version(who)
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
	err := scanStored(ctx, st, l.rules, l.id, from, page, func(e game.Event) bool {
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
func scanStored(ctx context.Context, st store.Store, rules game.Rules, id string, from, size int, fn func(game.Event) bool) error {
	for {
		raw, err := st.Events(ctx, id, from, size)
		if err != nil {
			return err
		}
		evs, err := decodeEvents(rules, raw, from)
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
