package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"orderly/dice"
	"orderly/game"
	"orderly/store"
	"orderly/table"
)

// Info is a game as its seats see it, without the state.
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
}

// SideInfo is what everyone knows of a side.
type SideInfo struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Nation string `json:"nation"`
	Edge   string `json:"edge"`
}

func seatInfo(s store.Seat) SeatInfo {
	return SeatInfo{Role: s.Role, Side: s.Side, Formation: s.Formation, Label: s.Label}
}

// info describes l's game to seat. l.mu must be held.
func (s *Server) info(l *live, seat store.Seat) Info {
	st := l.g.State()
	step := l.g.Step()
	in := Info{ID: l.id, Title: l.rec.Title, Rules: l.sc.Rules, Version: l.g.Len(), Turn: st.Turn, Turns: l.sc.Turns,
		Phase: st.Phase, Step: st.Step, Player: step.Player, Ready: append([]string{}, st.Ready...), Over: st.Over,
		Seeds: l.public(), Seat: seatInfo(seat)}
	if step.Player && !st.Over {
		in.Verbs = append(append([]string{}, step.Verbs...), l.rules.Anytime()...)
		if seat.Role == store.Umpire {
			in.Verbs = append(in.Verbs, "end")
		} else {
			in.Verbs = append(in.Verbs, "ready")
		}
	}
	if f, ok := l.rules.(game.Forecaster); ok {
		in.Kinds = f.Kinds()
	}
	for _, sd := range l.sc.Sides {
		in.Sides = append(in.Sides, SideInfo{ID: sd.ID, Name: sd.Name, Nation: sd.Nation, Edge: sd.Edge})
	}
	return in
}

// Board is what a seat needs to draw the map: the game's info, the field,
// the state as the seat may see it, the names of what it sees, and
// derived facts (messengers' arrival turns, the engagement reach).
type Board struct {
	Info  Info              `json:"game"`
	Field Field             `json:"field"`
	State *game.State       `json:"state"`
	Names map[string]string `json:"names"`
	// Etas is the turn each of the seat's own messengers should reach
	// its general, were he to stay where he is.
	Etas  map[string]int `json:"etas"`
	Reach float64        `json:"reach,omitempty"`
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

func (s *Server) board(l *live, seat store.Seat) Board {
	state := l.g.Sees(viewer(seat))
	b := Board{Info: s.info(l, seat), State: state, Names: map[string]string{}, Etas: map[string]int{}}
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

// Events is a page of a seat's events.
type Events struct {
	Version int          `json:"version"`
	Events  []game.Event `json:"events"`
}

// events returns the events after since that seat may see: those still
// in memory from the game, older ones from the store. l.mu must be held.
func (l *live) events(ctx context.Context, st store.Store, seat store.Seat, since int) (Events, error) {
	who := viewer(seat)
	out := Events{Version: l.g.Len(), Events: []game.Event{}}
	if since < l.g.Base() {
		raw, err := st.Events(ctx, l.id, since)
		if err != nil {
			return out, err
		}
		old, err := decodeEvents(raw[:l.g.Base()-since])
		if err != nil {
			return out, err
		}
		for _, e := range old {
			if e.Visible(who) {
				out.Events = append(out.Events, e)
			}
		}
	}
	l.g.Scan(since, func(e *game.Event) {
		if e.Visible(who) {
			out.Events = append(out.Events, *e)
		}
	})
	return out, nil
}

// route is one route of the API.
type route struct {
	method, path string
	h            http.HandlerFunc
}

// routes lists every route of the API; the OpenAPI document must describe
// exactly these (a test checks it).
func (s *Server) routes() []route {
	return []route{
		{"GET", "/api/openapi.json", s.openapi},
		{"GET", "/api/scenarios", s.handle(s.listScenarios)},
		{"POST", "/api/games", s.handle(s.createGame)},
		{"POST", "/api/games/import", s.handle(s.importGame)},
		{"GET", "/api/seat", s.handle(s.whoAmI)},
		{"GET", "/api/games/{id}", s.seated(s.getGame)},
		{"GET", "/api/games/{id}/board", s.seated(s.getBoard)},
		{"GET", "/api/games/{id}/events", s.seated(s.getEvents)},
		{"GET", "/api/games/{id}/stream", s.stream},
		{"POST", "/api/games/{id}/commands", s.seated(s.postCommand)},
		{"POST", "/api/games/{id}/odds", s.seated(s.postOdds)},
		{"POST", "/api/games/{id}/reveal", s.seated(s.postReveal)},
		{"GET", "/api/games/{id}/export", s.seated(s.getExport)},
		{"GET", "/api/games/{id}/seats", s.seated(s.getSeats)},
	}
}

type handler func(r *http.Request) (int, any, error)

type seatHandler func(r *http.Request, seat store.Seat, l *live) (int, any, error)

// handle runs h and writes its result or its error as JSON.
func (s *Server) handle(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		status, body, err := h(r)
		if err != nil {
			e := asError(err)
			if e.Code == Internal {
				s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
			}
			writeError(w, e)
			return
		}
		writeJSON(w, status, body)
	}
}

// seated is handle for the routes of one game: the token must be a seat
// of the game in the path.
func (s *Server) seated(h seatHandler) http.HandlerFunc {
	return s.handle(func(r *http.Request) (int, any, error) {
		seat, l, err := s.authenticate(r)
		if err != nil {
			return 0, nil, err
		}
		return h(r, seat, l)
	})
}

func (s *Server) authenticate(r *http.Request) (store.Seat, *live, *Error) {
	token, e := bearer(r)
	if e != nil {
		return store.Seat{}, nil, e
	}
	seat, l, e := s.seat(token)
	if e != nil {
		return seat, nil, e
	}
	if id := r.PathValue("id"); id != seat.Game || l == nil {
		return seat, nil, errorf(Forbidden, "this token is a seat of game %s, not of game %s", seat.Game, id)
	}
	return seat, l, nil
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(body); err != nil {
		writeError(w, errorf(Internal, "the server could not encode its answer"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// body reads a JSON body of at most maxBody bytes into v, refusing
// unknown fields and trailing data.
func (s *Server) body(r *http.Request, v any) error {
	data, err := s.read(r, s.maxBody)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errorf(Invalid, "the body is not valid: %s", jsonProblem(err))
	}
	if dec.More() {
		return errorf(Invalid, "the body has more than one JSON value")
	}
	return nil
}

// read reads a JSON body of at most limit bytes.
func (s *Server) read(r *http.Request, limit int64) ([]byte, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return nil, errorf(Unsupported, "the body must be JSON (Content-Type: application/json), not %q", ct)
		}
	}
	data, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return nil, errorf(TooLarge, "the request body is over the limit of %d bytes", limit)
	}
	if err != nil {
		return nil, errorf(Invalid, "the request body could not be read: %v", err)
	}
	return data, nil
}

func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("bad JSON at byte %d: %v", se.Offset, se)
	case errors.As(err, &te):
		return fmt.Sprintf("%s must be %s, not %s", te.Field, te.Type, te.Value)
	case errors.Is(err, io.EOF):
		return "it is empty"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func (s *Server) listScenarios(*http.Request) (int, any, error) {
	return http.StatusOK, s.bundled, nil
}

func (s *Server) createGame(r *http.Request) (int, any, error) {
	var in Setup
	if err := s.body(r, &in); err != nil {
		return 0, nil, err
	}
	c, err := s.Create(r.Context(), in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, c, nil
}

func (s *Server) whoAmI(r *http.Request) (int, any, error) {
	token, e := bearer(r)
	if e != nil {
		return 0, nil, e
	}
	seat, l, e := s.seat(token)
	if e != nil {
		return 0, nil, e
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return http.StatusOK, s.info(l, seat), nil
}

func (s *Server) getGame(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return http.StatusOK, s.info(l, seat), nil
}

func (s *Server) getBoard(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return http.StatusOK, s.board(l, seat), nil
}

func since(r *http.Request) (int, error) {
	q := r.URL.Query().Get("since")
	if q == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(q)
	if err != nil || n < 0 {
		return 0, errorf(Invalid, "since=%q is not a version; give a whole number from 0", q)
	}
	return n, nil
}

func (s *Server) getEvents(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	n, err := since(r)
	if err != nil {
		return 0, nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	evs, err := l.events(r.Context(), s.st, seat, n)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, evs, nil
}

// Result is what an accepted command added, as the seat may see it.
type Result struct {
	Version int          `json:"version"`
	Events  []game.Event `json:"events"`
}

func (s *Server) postCommand(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	data, err := s.read(r, s.maxBody)
	if err != nil {
		return 0, nil, err
	}
	c, err := decodeCommand(data)
	if err != nil {
		return 0, nil, err
	}
	evs, err := l.do(r.Context(), s.st, c, func(st *game.State, c *game.Command) *Error {
		return authorize(seat, st, c)
	})
	if err != nil {
		return 0, nil, err
	}
	who := viewer(seat)
	out := Result{Events: []game.Event{}}
	for _, e := range evs {
		out.Version = e.Seq
		if e.Visible(who) {
			out.Events = append(out.Events, e)
		}
	}
	return http.StatusOK, out, nil
}

// decodeCommand reads a command, which must be one JSON object; the side
// may be left out (it is the seat's).
func decodeCommand(data []byte) (game.Command, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil || probe == nil {
		why := "it is null"
		if err != nil {
			why = jsonProblem(err)
		}
		return game.Command{}, errorf(Invalid, "the command is not a JSON object: %s", why)
	}
	side := ""
	if raw, ok := probe["side"]; ok {
		if err := json.Unmarshal(raw, &side); err != nil || side == "" {
			return game.Command{}, errorf(Invalid, "command.side must be a side's id, or umpire")
		}
	} else {
		// The decoder wants a side; the seat's is filled in afterwards.
		probe["side"] = json.RawMessage(`"-"`)
		data, _ = json.Marshal(probe)
	}
	c, err := game.DecodeCommand(data, "body")
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "body:1: ")
		return c, errorf(Invalid, "%s", msg)
	}
	if side == "" {
		c.Side = ""
	}
	return c, nil
}

// OddsRequest is an order not yet written, whose delay odds are wanted.
type OddsRequest struct {
	Side  string     `json:"side,omitempty"`
	Write game.Write `json:"write"`
}

// Odds is the exact chance of each result of the roll an order will meet.
type Odds struct {
	Forecast []Forecast `json:"forecast"`
}

// Forecast is one recipient's roll and its odds.
type Forecast struct {
	game.Forecast
	Dice     string   `json:"dice"`
	Outcomes []Chance `json:"outcomes"`
}

// Chance is one result: its exact probability num/den, as a float too,
// and the number the rules give it (for a delay, the turns).
type Chance struct {
	Result string  `json:"result"`
	Num    string  `json:"num"`
	Den    string  `json:"den"`
	P      float64 `json:"p"`
	Value  *int    `json:"value,omitempty"`
	Doc    string  `json:"doc,omitempty"`
}

func (s *Server) postOdds(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	var in OddsRequest
	if err := s.body(r, &in); err != nil {
		return 0, nil, err
	}
	c := game.Command{Side: in.Side, Verb: "write", Write: &in.Write}
	f, ok := l.rules.(game.Forecaster)
	if !ok {
		return 0, nil, errorf(Invalid, "rule set %s cannot forecast the rolls of an order", l.rules.ID())
	}
	l.mu.Lock()
	if e := authorize(seat, l.g.State(), &c); e != nil {
		l.mu.Unlock()
		return 0, nil, e
	}
	fc, err := f.Forecast(l.sc, l.g.State(), c.Side, in.Write)
	l.mu.Unlock()
	if err != nil {
		return 0, nil, err
	}
	out := Odds{Forecast: []Forecast{}}
	for _, one := range fc {
		if one.Table == "" {
			out.Forecast = append(out.Forecast, Forecast{Forecast: one, Outcomes: []Chance{}})
			continue
		}
		t, err := l.rules.Table(one.Table)
		if err != nil {
			return 0, nil, err
		}
		odds, err := oddsOf(t, one.Params)
		if err != nil {
			return 0, nil, err
		}
		odds.Forecast = one
		out.Forecast = append(out.Forecast, odds)
	}
	return http.StatusOK, out, nil
}

func oddsOf(t *table.Table, params map[string]string) (Forecast, error) {
	a, err := t.Bind(params)
	if err != nil {
		return Forecast{}, err
	}
	o, err := t.Odds(a)
	if err != nil {
		return Forecast{}, err
	}
	out := Forecast{Dice: o.Dice}
	for _, c := range o.Outcomes {
		rat := o.Rat(c)
		ch := Chance{Result: c.Result, Num: rat.Num().String(), Den: rat.Denom().String(), P: o.Float(c)}
		if res := t.Result(c.Result); res != nil {
			ch.Value, ch.Doc = res.Value, res.Doc
		}
		out.Outcomes = append(out.Outcomes, ch)
	}
	return out, nil
}

// Revealed is a seed made public and the seed that follows it.
type Revealed struct {
	Revealed []game.Seed `json:"revealed"`
	Next     game.Seed   `json:"next"`
}

func (s *Server) postReveal(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	if seat.Role != store.Umpire {
		return 0, nil, errorf(Forbidden, "only the umpire reveals the dice seed")
	}
	key := make([]byte, 32)
	if _, err := io.ReadFull(s.rand, key); err != nil {
		return 0, nil, fmt.Errorf("make a dice seed: %w", err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	v := l.g.Len()
	next := store.Seed{Game: l.id, From: v + 1, Secret: key, Commitment: dice.Commitment(key)}
	if l.seeds[len(l.seeds)-1].From == v+1 {
		return 0, nil, errorf(Conflict, "the seed was revealed already and no roll has been made since")
	}
	if err := s.st.Reveal(r.Context(), l.id, v, next); err != nil {
		return 0, nil, err
	}
	if err := l.reload(r.Context(), s.st); err != nil {
		return 0, nil, err
	}
	pub := l.public()
	l.subs.notify()
	return http.StatusOK, Revealed{Revealed: pub[:len(pub)-1], Next: pub[len(pub)-1]}, nil
}

func (s *Server) getSeats(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	if seat.Role != store.Umpire {
		return 0, nil, errorf(Forbidden, "only the umpire lists the seats")
	}
	seats, err := s.st.Seats(r.Context(), l.id)
	if err != nil {
		return 0, nil, err
	}
	out := []SeatInfo{}
	for _, st := range seats {
		out = append(out, seatInfo(st))
	}
	return http.StatusOK, out, nil
}
