package server

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"reflect"
	"strings"

	"orderly/game"
	"orderly/schema"
	"orderly/strict"
	"orderly/table"
)

// BoardSchema is the JSON Schema (draft 2020-12) of the board a seat of a
// game of rule set r is sent (GET /api/games/{id}/board): Board with its
// state, its words of orders and its annotations of r's types
// (game.Boarded). Every field the page may be sent is declared, and no
// other is allowed: a rule set whose BoardTypes give no Notes may
// annotate nothing.
func BoardSchema(r game.Rules) ([]byte, error) {
	bt := r.BoardTypes()
	if bt.State == nil {
		return nil, fmt.Errorf("rule set %s gives no type of its state for the board", r.ID())
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
	rules, err := s.rulesOf(id)
	if err != nil {
		return 0, nil, errorf(NotFound, "no rule set %s; the rule sets are %s", strict.Quote(id, 40), strings.Join(s.ruleSets(), ", "))
	}
	doc, err := BoardSchema(rules)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, json.RawMessage(doc), nil
}

// ruleSets lists the rule sets the server plays and offers examples of:
// the directories of its bundled examples (a registry's, each rule set's
// under its id: WithBundled) whose name its engine makes a rule set of,
// by name.
func (s *Server) ruleSets() []string {
	dirs, err := fs.ReadDir(s.examples, ".")
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range dirs {
		if _, err := s.rulesOf(d.Name()); d.IsDir() && err == nil {
			out = append(out, d.Name())
		}
	}
	return out
}

// rulesOf is RulesOf over the server's engine and bundled examples.
func (s *Server) rulesOf(id string) (game.Rules, error) {
	return RulesOf(s.engine, s.examples, id)
}

// RulesOf makes rule set id with engine, over the tables engine reads;
// for a rule set whose tables the user supplies (LOB), which engine makes
// only over them, over the example tables among its examples (each rule
// set's under its id, as WithBundled takes them: the file ExampleTables
// in its directory, named as a bundled game's). A board's types do not
// depend on the numbers in the tables, so either serves for its schema.
// An id is one name, not a path.
func RulesOf(engine Engine, examples fs.FS, id string) (game.Rules, error) {
	if !fs.ValidPath(id) || id == "." || strings.Contains(id, "/") {
		return nil, fmt.Errorf("%s is not the id of a rule set", strict.Quote(id, 40))
	}
	r, err := engine(id)
	if err == nil {
		return r, nil
	}
	name := path.Join(id, ExampleTables)
	data, e := fs.ReadFile(examples, name)
	if e != nil {
		return nil, err
	}
	return engine(id, table.Source{Name: name, Data: data})
}
