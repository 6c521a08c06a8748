package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"orderly/dice"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/game"
	"orderly/store"
	"orderly/strict"
	"orderly/table"
)

// route is one route of the API.
type route struct {
	method, path string
	h            http.HandlerFunc
}

// routes lists every route of the API; the OpenAPI document must describe
// exactly these (a test checks it).
func (s *Server) routes() []route {
	rs := []route{
		{"GET", "/api/openapi.json", s.openapi},
		{"GET", "/api/scenarios", s.handle(s.listScenarios)},
		{"GET", "/api/schema/board/{rules}", s.handle(s.boardSchema)},
		{"GET", "/api/host", s.handle(s.getHost)},
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
		{"POST", "/api/games/{id}/seats/reissue", s.seated(s.postReissue)},
	}
	rs = append(rs, s.editorRoutes()...)
	rs = append(rs, s.importRoutes()...)
	rs = append(rs, s.replayRoutes()...)
	rs = append(rs, s.reportRoutes()...)
	return append(rs, s.hostRoutes()...)
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
		status, body, herr := h(r, seat, l)
		if herr != nil {
			return 0, nil, s.orGone(r, seat, l, herr)
		}
		return status, body, nil
	})
}

// orGone is err, or the answer an unknown token gets when the seat is no
// more: its game was deleted (or its token reissued) while the request
// was worked on, so that a command in flight as the host deletes the game
// finds the store without it. Only a failure that could be that is
// looked into (the store unavailable, a game not found, a conflict).
func (s *Server) orGone(r *http.Request, seat store.Seat, l *live, err error) error {
	switch asError(err).Code {
	case Unavailable, Internal, NotFound, Conflict:
	default:
		return err
	}
	select {
	case <-l.gone:
	default:
		if _, serr := s.st.Seat(r.Context(), seat.Hash); !errors.Is(serr, store.ErrNotFound) {
			return err
		}
	}
	s.forget([32]byte(seat.Hash))
	s.failed.allow(s.client(r))
	return errorf(Unauthorized, unknownToken)
}

// authenticate finds the seat of the request's token, which must be of
// the game in the path, and the game. A token of another game gets the
// same answer whether the game in the path exists or not.
func (s *Server) authenticate(r *http.Request) (store.Seat, *live, *Error) {
	token, e := bearer(r)
	if e != nil {
		return store.Seat{}, nil, e
	}
	seat, e := s.seat(r, token)
	if e != nil {
		return seat, nil, e
	}
	if id := r.PathValue("id"); id != seat.Game {
		return seat, nil, errorf(Forbidden, "this token is a seat of game %s, not of game %s", seat.Game, quote(id))
	}
	l, e := s.gameOf(r, seat)
	if e != nil {
		return seat, nil, e
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

// body reads a JSON body of at most limit bytes into v, strictly: unknown
// fields, duplicate keys and trailing data are refused.
func (s *Server) body(r *http.Request, limit int64, v any) error {
	data, err := s.read(r, limit)
	if err != nil {
		return err
	}
	if err := strict.DecodeJSON(data, v, "the body"); err != nil {
		return errorf(Invalid, "%s", err)
	}
	return nil
}

// read reads a body of at most limit bytes. The guard has checked that it
// says it is JSON.
func (s *Server) read(r *http.Request, limit int64) ([]byte, error) {
	data, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return nil, errorf(TooLarge, "the request body is over this server's limit of %d bytes for it", limit)
	}
	if err != nil {
		return nil, errorf(Invalid, "the request body could not be read in time")
	}
	return data, nil
}

func (s *Server) listScenarios(*http.Request) (int, any, error) {
	return http.StatusOK, s.bundled, nil
}

// Host says whether the request may make games.
type Host struct {
	Open bool `json:"open"` // anyone may
	Host bool `json:"host"` // the request carries the host token
}

func (s *Server) getHost(r *http.Request) (int, any, error) {
	out := Host{Open: s.open}
	if _, e := bearer(r); e == nil {
		// The host token itself, on an open server too: the page shows
		// the host's games only to the host.
		out.Host = s.hostOnly(r, "hosting") == nil
	}
	return http.StatusOK, out, nil
}

// admitGame checks that the request may make one more game: the host
// token (or an open server), the server's limit of games, and the
// client's games this hour. An admitted request counts as one of the
// client's games whether or not it makes one: a scenario that fails at
// its end has cost the server its work all the same.
func (s *Server) admitGame(r *http.Request) *Error {
	if e := s.hosting(r); e != nil {
		return e
	}
	n, err := s.st.Count(r.Context())
	if err != nil {
		return outage("the server could not count its games just now: its store is unavailable; try again in a moment")
	}
	if n >= s.lim.Games {
		return errorf(TooMany, "this server keeps at most %d games and has them all; ask its host to make room", s.lim.Games)
	}
	if ok, wait := s.made.allow(s.client(r)); !ok {
		return tooMany(wait, "your address has made or tried to make %d games in the last hour, this server's limit (a failed try counts); try again in %s", s.lim.GamesPerHour, wait.Round(1e9))
	}
	return nil
}

func (s *Server) createGame(r *http.Request) (int, any, error) {
	if e := s.admitGame(r); e != nil {
		return 0, nil, e
	}
	var in Setup
	if err := s.body(r, s.lim.Upload, &in); err != nil {
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
	seat, e := s.seat(r, token)
	if e != nil {
		return 0, nil, e
	}
	l, e := s.gameOf(r, seat)
	if e != nil {
		return 0, nil, e
	}
	return s.getGame(r, seat, l)
}

func (s *Server) getGame(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	if err := l.lock(r.Context(), s.st); err != nil {
		return 0, nil, err
	}
	defer l.mu.Unlock()
	return http.StatusOK, l.info(seat), nil
}

func (s *Server) getBoard(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	q := r.URL.Query()
	as, act := q.Get("as"), q.Get("act")
	if as == "" && act == "" {
		if err := l.lock(r.Context(), s.st); err != nil {
			return 0, nil, err
		}
		defer l.mu.Unlock()
		return http.StatusOK, l.board(seat), nil
	}
	if as != "" && act != "" {
		return 0, nil, errorf(Invalid, "a board is asked for with as (a side's view) or act (the umpire's, with a side's offers), not both")
	}
	if seat.Role != store.Umpire {
		if as != "" {
			return 0, nil, errorf(Forbidden, "only the umpire may see the board as another seat sees it")
		}
		return 0, nil, errorf(Forbidden, "only the umpire may act for a side")
	}
	var sides []string
	for _, sd := range l.sc.Sides {
		sides = append(sides, sd.ID)
	}
	if act != "" {
		if !slices.Contains(sides, act) {
			return 0, nil, errorf(Invalid, "act: %s is not a side of this game; allowed: %s", quote(act), strings.Join(sides, ", "))
		}
		if err := l.lock(r.Context(), s.st); err != nil {
			return 0, nil, err
		}
		defer l.mu.Unlock()
		return http.StatusOK, l.acting(seat, act), nil
	}
	if !slices.Contains(sides, as) {
		return 0, nil, errorf(Invalid, "as: %s is not a side of this game; allowed: %s", quote(as), strings.Join(sides, ", "))
	}
	if err := l.lock(r.Context(), s.st); err != nil {
		return 0, nil, err
	}
	defer l.mu.Unlock()
	// What that side's own seat would be shown, under the game's fog,
	// for the umpire to set beside his own (issue 15, the umpire's hand).
	return http.StatusOK, AsBoard{Board: l.board(store.Seat{Game: l.id, Role: store.Side, Side: as}), As: as}, nil
}

// AsBoard is a side's board as the umpire asks to see it: the board that
// side's seat is shown, and which side it is.
type AsBoard struct {
	Board
	As string `json:"as"`
}

func since(r *http.Request) (int, error) {
	q := r.URL.Query().Get("since")
	if q == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(q)
	if err != nil || n < 0 {
		return 0, errorf(Invalid, "since=%s is not an event number; give a whole number from 0", quote(q))
	}
	return n, nil
}

func (s *Server) getEvents(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	n, err := since(r)
	if err != nil {
		return 0, nil, err
	}
	evs, err := l.events(r.Context(), s.st, seat, n, maxEvents)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, evs, nil
}

// Result is what an accepted command added, as the seat may see it,
// numbered as the seat numbers its events; Version is the seat's count.
type Result struct {
	Version int     `json:"version"`
	Events  []Entry `json:"events"`
}

func (s *Server) postCommand(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	data, err := s.read(r, s.lim.Body)
	if err != nil {
		return 0, nil, err
	}
	c, err := decodeCommand(l.rules, data)
	if err != nil {
		return 0, nil, err
	}
	if n := c.Size(); n > s.lim.IDs {
		return 0, nil, errorf(Invalid, "the command names %d pieces and formations, over this server's limit of %d for one command; give it in parts", n, s.lim.IDs)
	}
	who := viewer(seat)
	if !l.queue(who) {
		return 0, nil, busy("this side has %d commands waiting already; nothing was changed, send this one again once they are answered", seatQueue)
	}
	defer l.dequeue(who)
	done, err := l.do(r.Context(), s.st, s.gate, s.now(), s.lim, who, c, func(st *game.State, c *game.Command) *Error {
		return authorize(seat, l.rules, l.g, c)
	})
	var nd *game.NeedDice
	if errors.As(err, &nd) {
		return 0, nil, l.needs(nd)
	}
	if err != nil {
		return 0, nil, err
	}
	if l.over() {
		s.revealAtEnd(r.Context(), l)
	}
	out := Result{Version: done.version, Events: []Entry{}}
	n := done.before
	for _, e := range done.evs {
		if e.Visible(who) {
			n++
			out.Events = append(out.Events, l.present(e, who, n))
		}
	}
	return http.StatusOK, out, nil
}

// decodeCommand reads a command, which must be one JSON object; the side
// may be left out (it is the seat's).
func decodeCommand(rules game.Rules, data []byte) (game.Command, error) {
	// Straight from JSON to the nodes the rule set reads, with no YAML
	// parse and no second pass: JSONNode refuses what CheckJSON would.
	n, err := strict.JSONNode(data)
	if err != nil {
		return game.Command{}, errorf(Invalid, "the command is not valid: %s", err)
	}
	if n.Kind != yaml.MappingNode {
		why := "it is " + strict.KindName(n)
		if n.Tag == "!!null" {
			why = "it is null"
		}
		return game.Command{}, errorf(Invalid, "the command is not a JSON object: %s", why)
	}
	sided := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "side" {
			sided = true
			if v := n.Content[i+1]; v.Kind != yaml.ScalarNode || v.Tag != "!!str" || v.Value == "" {
				return game.Command{}, errorf(Invalid, "command.side must be a side's id, or umpire")
			}
		}
	}
	if !sided {
		// The decoder wants a side; the seat's is filled in afterwards.
		n.Content = append(n.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "side", Line: 1},
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "-", Line: 1})
	}
	c, err := game.CommandFromNode(rules, strict.Reader{File: "body", Want: "a command"}, n, "command")
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "body:1: ")
		return c, errorf(Invalid, "%s", msg)
	}
	if !sided {
		c.Side = ""
	}
	return c, nil
}

// Odds is the exact chance of each result of the roll an order will meet.
type Odds struct {
	Forecast []Forecast `json:"forecast"`
}

// Forecast is one recipient's roll and, if a roll will be made, its odds
// in the one shape orderly odds --json prints.
type Forecast struct {
	game.Forecast
	Odds *table.OddsJSON `json:"odds,omitempty"`
}

func (s *Server) postOdds(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	f := l.rules
	data, err := s.read(r, s.lim.Body)
	if err != nil {
		return 0, nil, err
	}
	// The order is asked about as the command that would write it.
	c, err := decodeCommand(l.rules, data)
	if err != nil {
		return 0, nil, err
	}
	verbs := f.Forecasts()
	if !slices.Contains(verbs, c.Verb) {
		return 0, nil, errorf(Invalid, "odds are for a command not yet given: give %s, not %s", strings.Join(verbs, " or "), c.Verb)
	}
	if n := c.Size(); n > s.lim.IDs {
		return 0, nil, errorf(Invalid, "the order names %d formations, over this server's limit of %d", n, s.lim.IDs)
	}
	fc, err := func() ([]game.Forecast, error) {
		// Unlocked however the rule set returns, a panic included: the
		// recover above the handler answers, and the game goes on.
		if err := l.lock(r.Context(), s.st); err != nil {
			return nil, err
		}
		defer l.mu.Unlock()
		if e := authorize(seat, l.rules, l.g, &c); e != nil {
			return nil, e
		}
		// Worked out on what the seat knows (issue 32): a forecast never
		// stops at, goes round or names a piece the seat does not spot.
		return f.Forecast(l.sc, l.sees(seat), c.Side, c.Args)
	}()
	if err != nil {
		return 0, nil, err
	}
	out := Odds{Forecast: []Forecast{}}
	for _, one := range fc {
		f := Forecast{Forecast: one}
		if one.Table != "" {
			t, err := l.rules.Table(one.Table)
			if err != nil {
				return 0, nil, err
			}
			if one.Dice != "" {
				d, err := dice.Parse(one.Dice)
				if err == nil {
					t, err = t.WithDice(d)
				}
				if err != nil {
					return 0, nil, err
				}
			}
			a, err := t.Bind(one.Params)
			if err != nil {
				return 0, nil, err
			}
			o, err := t.Odds(a)
			if err != nil {
				return 0, nil, err
			}
			j := o.JSON(t, a)
			f.Odds = &j
		}
		out.Forecast = append(out.Forecast, f)
	}
	return http.StatusOK, out, nil
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

// ReissueRequest names the seat whose link is made anew.
type ReissueRequest struct {
	Seat string `json:"seat"`
}

func (s *Server) postReissue(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	if seat.Role != store.Umpire {
		return 0, nil, errorf(Forbidden, "only the umpire reissues a seat's link")
	}
	var in ReissueRequest
	if err := s.body(r, s.lim.Body, &in); err != nil {
		return 0, nil, err
	}
	made, err := s.Reissue(r.Context(), l.id, in.Seat)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, made, nil
}
