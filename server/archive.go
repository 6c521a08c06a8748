package server

import (
	"bytes"
	"context"
	"errors"
	"net/http"

	"orderly/archive"
	"orderly/game"
	"orderly/store"
	"orderly/table"
)

// Export writes a game as an archive document. Keys of seeds not yet
// revealed are left out unless secrets is set (for moving a game to
// another server; such a file must not reach the players).
func (s *Server) Export(ctx context.Context, id string, secrets bool) (*archive.Game, error) {
	l, e := s.game(ctx, id)
	if e != nil {
		return nil, e
	}
	rec, err := s.st.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := l.lock(ctx, s.st); err != nil {
		return nil, err
	}
	defer l.mu.Unlock()
	if err := l.fresh(ctx, s.st); err != nil {
		return nil, err
	}
	evs := []game.Event{}
	if err := scanStored(ctx, s.st, l.rules, id, 0, page, func(e game.Event) bool { evs = append(evs, e); return true }); err != nil {
		return nil, err
	}
	doc := &archive.Game{Format: archive.FormatOf(rec.Genesis), ID: l.id, Title: l.rec.Title, Rules: l.sc.Rules,
		Scenario: archive.Scenario{File: rec.File, Source: string(rec.Scenario)},
		Seeds:    l.public(game.Umpire), Events: evs, Hash: l.g.Hash()}
	if len(rec.Tables) > 0 {
		doc.Tables = &archive.Scenario{File: rec.TablesFile, Source: string(rec.Tables)}
	}
	doc.Fog = rec.Fog
	doc.Dice = rec.Dice
	if secrets {
		for i := range doc.Seeds {
			doc.Seeds[i].Key = l.seeds[i].Key
		}
	}
	return doc, nil
}

// Import makes a new game from an archive document: its log is replayed
// and checked against its hash and every roll against its revealed seeds;
// play goes on under a fresh seed, with new seats. The document must hold
// its scenario inline: nothing in it is read from a file.
func (s *Server) Import(ctx context.Context, doc *archive.Game, commanders bool) (*Created, error) {
	if n := len(doc.Events); n > s.lim.GameEvents {
		return nil, errorf(TooLarge, "the game has %d events, over this server's limit of %d a game", n, s.lim.GameEvents)
	}
	data := []byte(doc.Scenario.Source)
	var own *table.Source
	if doc.Tables != nil {
		if doc.Tables.Source == "" {
			return nil, errorf(Invalid, "tables.source is empty; give the game's tables file, or leave tables out for a game on the server's tables")
		}
		// The name is only for messages, and is cleaned as an upload's.
		doc.Tables.File = upload(doc.Tables.File, "tables.yaml")
		own = &doc.Own()[0]
	}
	if e := textBound(doc.Scenario.File, data); e != nil {
		return nil, e
	}
	c, err := s.scenario(doc.Scenario.File, data, own)
	if err != nil {
		return nil, &Error{Code: Invalid, Msg: err.Error()}
	}
	// Everything the revealed keys let anyone check must check out: the
	// chain, every roll, the replay and its state. Rolls under a seed the
	// document keeps secret are taken on trust, as any seat would.
	if _, err := doc.Verify(func(id string) (game.Rules, error) { return s.engine(id, doc.Own()...) }); err != nil && !errors.Is(err, archive.ErrSecret) {
		return nil, &Error{Code: Verification, Msg: "the game does not check out: " + err.Error()}
	}
	in := Setup{Title: doc.Title, Commanders: commanders, Fog: doc.Fog, Dice: doc.Dice}
	if err := checkModes(in); err != nil {
		return nil, err
	}
	return s.start(ctx, in, doc.Scenario.File, data, c,
		&Imported{Events: doc.Events, Seeds: doc.Seeds, Genesis: doc.Basis().Genesis})
}

func (s *Server) getExport(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	if seat.Role != store.Umpire {
		return 0, nil, errorf(Forbidden, "only the umpire exports a game; a side sees its own view on its page")
	}
	secrets, err := flag(r, "secrets")
	if err != nil {
		return 0, nil, err
	}
	doc, err := s.Export(r.Context(), l.id, secrets)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, doc, nil
}

func (s *Server) importGame(r *http.Request) (int, any, error) {
	if e := s.admitGame(r); e != nil {
		return 0, nil, e
	}
	data, err := s.read(r, s.lim.Import)
	if err != nil {
		return 0, nil, err
	}
	doc, err := archive.Read(bytes.NewReader(data), "the body")
	if err != nil {
		return 0, nil, errorf(Invalid, "%v", err)
	}
	commanders, err := flag(r, "commanders")
	if err != nil {
		return 0, nil, err
	}
	c, err := s.Import(r.Context(), doc, commanders)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, c, nil
}

// flag reads a true/false query parameter, false when absent.
func flag(r *http.Request, name string) (bool, error) {
	switch q := r.URL.Query().Get(name); q {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	default:
		return false, errorf(Invalid, "%s=%s; allowed: true, false", name, quote(q))
	}
}
