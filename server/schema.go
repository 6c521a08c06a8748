package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"orderly/game"
	"orderly/schema"
	"orderly/strict"
)

// BoardSchema is the JSON Schema (draft 2020-12) of the board a seat of a
// game of rule set r is sent (GET /api/games/{id}/board): Board with its
// state, its words of orders and its annotations of r's types
// (game.Boarded). Every field the page may be sent is declared, and no
// other is allowed.
func BoardSchema(r game.Rules) ([]byte, error) {
	b, ok := r.(game.Boarded)
	if !ok {
		return nil, fmt.Errorf("rule set %s does not say the types of its board (game.Boarded)", r.ID())
	}
	bt := b.BoardTypes()
	if bt.State == nil {
		return nil, fmt.Errorf("rule set %s gives no type of its state for the board", r.ID())
	}
	if _, ok := r.(game.Annotator); ok != (bt.Notes != nil) {
		return nil, fmt.Errorf("rule set %s: its board types give annotations %v, but it annotates the board: %v", r.ID(), bt.Notes != nil, ok)
	}
	if _, ok := r.(game.Worder); ok != (bt.Words != nil) {
		return nil, fmt.Errorf("rule set %s: its board types give words %v, but it words orders: %v", r.ID(), bt.Words != nil, ok)
	}
	g := schema.New()
	board := reflect.TypeFor[Board]()
	g.Field(board, "State", &game.State{Ext: bt.State})
	g.Field(board, "OrderText", bt.Words)
	g.Field(board, "Extra", bt.Notes)
	root, err := g.Of(board)
	if err != nil {
		return nil, fmt.Errorf("the board schema of rule set %s: %w", r.ID(), err)
	}
	return g.Document(root, "orderly board of the rule set "+r.ID())
}

// boardSchema answers GET /api/schema/board/{rules}: the board schema of
// a rule set the server plays.
func (s *Server) boardSchema(r *http.Request) (int, any, error) {
	id := r.PathValue("rules")
	known := s.ruleSets()
	if !slices.Contains(known, id) {
		return 0, nil, errorf(NotFound, "no rule set %s; the rule sets are %s", strict.Quote(id, 40), strings.Join(known, ", "))
	}
	rules, err := s.rulesOf(id)
	if err != nil {
		return 0, nil, err
	}
	doc, err := BoardSchema(rules)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, json.RawMessage(doc), nil
}

// ruleSets lists the rule sets of the bundled scenarios: those the
// server is known to play, in the order they are listed.
func (s *Server) ruleSets() []string {
	var out []string
	for _, b := range s.bundled {
		if !slices.Contains(out, b.Rules) {
			out = append(out, b.Rules)
		}
	}
	return out
}

// rulesOf makes rule set id over the server's tables, or, for one whose
// tables the user supplies (LOB), over those of its bundled scenario.
func (s *Server) rulesOf(id string) (game.Rules, error) {
	r, err := s.engine(id)
	if err == nil {
		return r, nil
	}
	for _, b := range s.bundled {
		if b.Rules == id && b.own != nil {
			return s.engine(id, *b.own)
		}
	}
	return nil, err
}
