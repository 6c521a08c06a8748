package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"orderly/game"
	"orderly/store"
)

// replayRoutes are the routes of a game's replay (issue 36): a seat
// steps through the game as it saw it, the board at each of its events
// rebuilt from the log (game.Replay), never from stored pictures.
func (s *Server) replayRoutes() []route {
	return []route{
		{"GET", "/api/games/{id}/replay", s.seated(s.getReplay)},
		{"GET", "/api/games/{id}/replay/{seq}", s.seated(s.getReplayBoard)},
	}
}

// Replay is a seat's index of a game for stepping through it: its events
// (those taken back left out), the first of each turn, and whether it
// may replay the full game. The events come a page at a time (since, as
// GET /events numbers them); More says there are more.
type Replay struct {
	// Version is the number of events in the view replayed: the seat's
	// own count, or the game's in the full view.
	Version int `json:"version"`
	// View is "seat" (the seat's own view) or "full" (the umpire's).
	View string `json:"view"`
	// Full says the seat may replay the full game (?view=full): the
	// umpire always, a side once the game is over.
	Full bool `json:"full"`
	Over bool `json:"over"`
	// Turns lists the event each turn begins with, in the view's
	// numbering.
	Turns  []TurnStart   `json:"turns"`
	Events []ReplayEvent `json:"events"`
	More   bool          `json:"more,omitempty"`
	// Result is how the game ended by the result its scenario defines
	// (game.Result), once it is over; absent when the scenario defines
	// none.
	Result *game.Outcome `json:"result,omitempty"`
}

// TurnStart is the first event of a turn, in a view's numbering.
type TurnStart struct {
	Turn int `json:"turn"`
	Seq  int `json:"seq"`
}

// ReplayEvent is one event of a replay's index, as the seat sees it.
type ReplayEvent struct {
	Seq   int    `json:"seq"`
	Turn  int    `json:"turn"`
	Phase string `json:"phase"`
	Step  string `json:"step"`
	Type  string `json:"type"`
	Side  string `json:"side,omitempty"`
	// See is who the event is shown to, as the seat is told (all,
	// umpire, or a side), and Rolls the dice drawn for it.
	See   string      `json:"see"`
	Rolls []game.Roll `json:"rolls,omitempty"`
	Text  string      `json:"text"`
}

// replays is what a live game keeps to answer its replays quickly: a
// few games replayed part way (cursors), each stepped on from where it
// stands, and what a scan of the log found (the events taken back and
// where each turn begins). It goes with the live game. Its own lock is
// taken with no other held, so replaying never holds up a command.
type replays struct {
	mu      sync.Mutex
	cursors []*cursor
	tick    int // the last use, to evict the cursor least recently used
	// scanned is how far the log has been scanned; withdrawn are the
	// events taken back (game.Withdrawn) and turns the game's number of
	// the first event of each turn, so far.
	scanned   int
	withdrawn map[int]bool
	turns     []TurnStart
	taken     []game.Event // the taken-back events scanned so far
	// log is the game's first events, decoded, as far as replays have
	// read them (at most maxLogged): shared by the cursors, which only
	// read them.
	log []game.Event
}

// cursor is the game replayed to its first pos events, forgetting them as
// it goes: only its state is kept.
type cursor struct {
	g    *game.Game
	used int
}

// maxCursors is the most games replayed part way that a live game keeps:
// one steps forward as a seat plays its replay, the others stay where
// a seat went back to or another seat replays.
const maxCursors = 3

// replayView is a seat's view for a replay: who the engine shows it to,
// the seat whose board is drawn (the umpire's in the full view), and
// whether it is the full view.
type replayView struct {
	who  string
	seat store.Seat
	full bool
}

// view works out the view of a replay request: the seat's own, or with
// ?view=full the umpire's, which a side may have only once the game is
// over. l.mu must be held.
func (l *live) replayView(r *http.Request, seat store.Seat) (replayView, error) {
	v := replayView{who: viewer(seat), seat: seat}
	switch q := r.URL.Query().Get("view"); q {
	case "", "seat":
	case "full":
		if seat.Role != store.Umpire && !l.g.State().Over {
			return v, errorf(Forbidden, "view=full: a side may replay the full game only once it is over; until then it replays its own view")
		}
		v.who, v.seat, v.full = game.Umpire, store.Seat{Game: l.id, Role: store.Umpire}, true
	default:
		return v, errorf(Invalid, "view: %s is not a view of a replay; allowed: seat, full", quote(q))
	}
	return v, nil
}

// scan brings the replay's scan of the log up to the game's version:
// the events taken back, and where each turn begins. It reads the stored
// log with no lock but rp.mu held.
func (l *live) scan(ctx context.Context, st store.Store, rp *replays, version int) error {
	if rp.scanned >= version {
		return nil
	}
	err := scanStored(ctx, st, l.rules, l.id, rp.scanned, page, func(e game.Event) bool {
		if e.Seq > version {
			return false
		}
		if e.Turn > 0 && (len(rp.turns) == 0 || rp.turns[len(rp.turns)-1].Turn < e.Turn) {
			rp.turns = append(rp.turns, TurnStart{Turn: e.Turn, Seq: e.Seq})
		}
		if e.Type == game.TakenBack {
			rp.taken = append(rp.taken, e)
		}
		rp.scanned = e.Seq
		return e.Seq < version
	})
	if err != nil {
		return err
	}
	rp.withdrawn = game.Withdrawn(rp.taken)
	return nil
}

// maxReplayEvents is the most events one page of a replay's index holds.
const maxReplayEvents = maxEvents

func (s *Server) getReplay(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	n, err := since(r)
	if err != nil {
		return 0, nil, err
	}
	ctx := r.Context()
	if err := l.lock(ctx, s.st); err != nil {
		return 0, nil, err
	}
	v, err := l.replayView(r, seat)
	over, length := l.g.State().Over, l.g.Len()
	var result *game.Outcome
	if over {
		result = game.Result(l.sc, l.g.State())
	}
	l.mu.Unlock()
	if err != nil {
		return 0, nil, err
	}
	rp := &l.replay
	rp.mu.Lock()
	err = l.scan(ctx, s.st, rp, length)
	withdrawn, turns := rp.withdrawn, slices.Clone(rp.turns)
	rp.mu.Unlock()
	if err != nil {
		return 0, nil, err
	}
	evs, err := l.events(ctx, s.st, v.seat, n, maxReplayEvents)
	if err != nil {
		return 0, nil, err
	}
	out := Replay{Version: evs.Version, View: "seat", Full: seat.Role == store.Umpire || over, Over: over,
		Turns: []TurnStart{}, Events: []ReplayEvent{}, More: evs.More, Result: result}
	if v.full {
		out.View = "full"
	}
	if err := l.lock(ctx, s.st); err != nil {
		return 0, nil, err
	}
	// The game's numbers of the events taken back and the turns' first
	// events, in the seat's numbering (an event it does not see is not
	// its to skip; every turn begins with an event everyone sees).
	gone := map[int]bool{}
	for seq := range withdrawn {
		if k := l.number(v.who, seq); k > l.number(v.who, seq-1) {
			gone[k] = true
		}
	}
	for _, t := range turns {
		if t.Seq <= length {
			out.Turns = append(out.Turns, TurnStart{Turn: t.Turn, Seq: l.number(v.who, t.Seq-1) + 1})
		}
	}
	l.mu.Unlock()
	for _, en := range evs.Events {
		e := en.Event
		if gone[e.Seq] {
			continue
		}
		out.Events = append(out.Events, ReplayEvent{Seq: e.Seq, Turn: e.Turn, Phase: e.Phase, Step: e.Step, Type: e.Type, Side: e.Side,
			See: e.See, Rolls: e.Rolls, Text: en.Summary})
	}
	return http.StatusOK, out, nil
}

func (s *Server) getReplayBoard(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	q := r.PathValue("seq")
	n, err := strconv.Atoi(q)
	ctx := r.Context()
	if err := l.lock(ctx, s.st); err != nil {
		return 0, nil, err
	}
	v, verr := l.replayView(r, seat)
	version := l.version(v.who)
	if verr == nil && (err != nil || n < 0 || n > version) {
		verr = errorf(Invalid, "replay/%s: give the number of one of the seat's events, from 0 to %d", quote(q), version)
	}
	m, _ := l.at(v.who, n)
	seeds := l.public(v.who)
	if l.space == nil {
		sp := l.sc.Space()
		space := spaceOf(sp, l.sc.Terrain)
		if im := l.sc.Image; im != nil {
			space.Image = backdropOf(l.id, im, sp)
		}
		l.space = &space
	}
	space := *l.space
	l.mu.Unlock()
	if verr != nil {
		return 0, nil, verr
	}
	rp := &l.replay
	rp.mu.Lock()
	defer rp.mu.Unlock()
	g, err := l.replayed(ctx, s.st, rp, m)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, l.replayBoard(g, v, seat, n, seeds, space), nil
}

// replayed is the game replayed to its first m events, from the cursor
// nearest before it (or from the start), which it moves there. rp.mu must
// be held, and no other lock.
func (l *live) replayed(ctx context.Context, st store.Store, rp *replays, m int) (*game.Game, error) {
	rp.tick++
	// A take-back folds the game again from its start (game.Game's
	// withdraw): a game with one keeps all its events, and a cursor that
	// forgot some cannot go past it.
	if err := l.scan(ctx, st, rp, m); err != nil {
		return nil, err
	}
	takes := len(rp.withdrawn) > 0
	var best *cursor
	for _, c := range rp.cursors {
		if takes && c.g.Base() > 0 {
			continue
		}
		if n := c.g.Len(); n <= m && (best == nil || n > best.g.Len()) {
			best = c
		}
	}
	if best == nil {
		g, err := game.Replay(l.sc, l.rules, nil, game.WithFog(l.rec.Fog), game.WithDice(l.rec.Dice))
		if err != nil {
			return nil, fmt.Errorf("replaying the game: %w", err)
		}
		best = &cursor{g: g}
		if len(rp.cursors) < maxCursors {
			rp.cursors = append(rp.cursors, best)
		} else {
			i := 0
			for j, c := range rp.cursors {
				if c.used < rp.cursors[i].used {
					i = j
				}
			}
			rp.cursors[i] = best
		}
	}
	best.used = rp.tick
	for from := best.g.Len(); from < m; from = best.g.Len() {
		evs, err := l.logged(ctx, st, rp, from, m)
		if err == nil {
			err = best.g.Extend(evs)
		}
		if err != nil {
			// The cursor may be left part way: drop it.
			rp.cursors = slices.DeleteFunc(rp.cursors, func(c *cursor) bool { return c == best })
			return nil, fmt.Errorf("replaying the game to event %d: %w", m, err)
		}
		if !takes {
			best.g.Forget(0)
		}
	}
	return best.g, nil
}

// maxLogged is how many of a game's first events its replays keep
// decoded in memory (replays.log): reading and decoding them again is
// most of what a step back would cost. Those after are read from the
// store at each step.
const maxLogged = 4096

// logged is the events of the game after from up to m at most, and at
// least one: from the replays' decoded log while it holds them (filling
// it as far as maxLogged), else from the store, no more than the step
// needs. rp.mu must be held, and no other lock.
func (l *live) logged(ctx context.Context, st store.Store, rp *replays, from, m int) ([]game.Event, error) {
	if from < len(rp.log) {
		return rp.log[from:min(m, len(rp.log))], nil
	}
	size := min(page, m-from)
	raw, err := st.Events(ctx, l.id, from, size)
	if err == nil && len(raw) == 0 {
		err = fmt.Errorf("the store has %d events", from)
	}
	if err != nil {
		return nil, err
	}
	evs, err := decodeEvents(l.rules, raw, from)
	if err != nil {
		return nil, err
	}
	if from == len(rp.log) && from+len(evs) <= maxLogged {
		rp.log = append(rp.log, evs...)
	}
	return evs, nil
}

// replayBoard is the board v's seat saw just after its nth event, drawn
// from g, the game replayed to there: the board of GET /board, with no
// offers and no advice, nothing to act on. seat is the seat that asks
// (its own side's edge is kept at the bottom in the full view) and seeds
// are the game's seeds as v's viewer may see them; space is the game's
// space as a page draws it.
func (l *live) replayBoard(g *game.Game, v replayView, seat store.Seat, n int, seeds []game.Seed, space Space) Board {
	st := g.State()
	var state *game.State
	if v.seat.Role == store.Commander {
		state = g.SeesFrom(v.seat.Side, v.seat.Formation)
	} else {
		state = g.Sees(v.who)
	}
	in := Info{ID: l.id, Title: l.rec.Title, Rules: l.sc.Rules, Version: n, Turn: st.Turn, Turns: l.sc.Turns,
		Phase: st.Phase, Step: st.Step, Player: g.Step().Player(), Ready: append([]string{}, st.Ready...), Over: st.Over,
		Seeds: seeds, Seat: seatInfo(seat), Verbs: []string{}, Kinds: l.rules.Kinds(), Fog: g.Fog(), Dice: l.diceMode(), Head: g.Head()}
	for _, sd := range l.sc.Sides {
		in.Sides = append(in.Sides, SideInfo{ID: sd.ID, Name: sd.Name, Nation: sd.Nation, Edge: sd.Edge})
	}
	b := Board{Info: in, State: state, Names: map[string]string{}, Etas: map[string]int{},
		Shapes: l.rules.Shapes(), Offers: map[string][]string{}}
	f, sp := l.sc.Field, l.sc.Space()
	b.Space = space
	b.Space.Edge = l.edgeOf(seat)
	b.Field = Field{Width: f.Width, Depth: f.Depth, Units: string(sp.Unit()), Columns: f.Columns, Rows: f.Rows, Speeds: l.sc.Speeds, Features: featuresOf(f.Features)}
	if r, ok := l.rules.(game.Reacher); ok {
		b.Reach, b.Reaching = r.Reach(), r.Reaching(state)
	}
	for _, id := range l.rules.Seen(state) {
		if nm := l.sc.NameOf(id); nm != "" {
			b.Names[id] = nm
		}
	}
	for _, gh := range state.Lost {
		if nm := l.sc.NameOf(gh.ID); nm != "" {
			b.Names[gh.ID] = nm
		}
	}
	if w, ok := l.rules.(game.Worder); ok {
		b.OrderText = w.Words(state)
	}
	b.Extra = l.rules.Annotate(state, g.Step(), v.who)
	if c, ok := l.rules.(game.Courier); ok {
		b.Etas = c.Arrivals(state, v.who)
	}
	return b
}
