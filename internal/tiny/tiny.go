// Package tiny is a rule set used only in tests (TINY-1): one unit a
// side on a table, one verb (move it up to a distance its data gives, in
// its side's step) and the end of the step. It is registered as any rule
// set is, by one line (Entry) in a copy of the registry, with its page
// module (Page) and its demo (Examples), to prove that adding a rule set
// touches nothing outside its own package.
package tiny

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/rules"
	"orderly/table"
)

// ID is the rule set's id, as a scenario's rules field names it.
const ID = "tiny"

//go:embed tiny.yaml
var data []byte

//go:embed examples/*.yaml
var examples embed.FS

// page holds the page module, where the page finds it: js/rules/tiny.js.
//
//go:embed js/rules/tiny.js
var page embed.FS

// Entry is the rule set's line in a registry:
// rules.Default().With(tiny.Entry()).
func Entry() rules.Entry {
	return rules.Entry{ID: ID, New: rules.Of(New), Examples: Examples()}
}

// Examples is the rule set's bundled scenarios, at the root
// (tiny-demo.yaml).
func Examples() fs.FS { return sub(examples, "examples") }

// Page is the rule set's page module at js/rules/tiny.js, to serve over
// the page's own files (server.WithPages).
func Page() fs.FS { return page }

func sub(fsys fs.FS, dir string) fs.FS {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // the directory is embedded above; Sub cannot fail
	}
	return s
}

// Rules plays tiny games. It implements game.Rules.
type Rules struct {
	// move is the inches a unit may move in its side's step (TINY-1).
	move float64
}

// numbers is the rule set's data file, tiny.yaml.
type numbers struct {
	Move float64 `yaml:"move"`
}

// New makes the rule set from its data (tiny.yaml); it reads no tables.
func New(*table.Set) (*Rules, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var n numbers
	if err := dec.Decode(&n); err != nil {
		return nil, fmt.Errorf("tiny: internal/tiny/tiny.yaml: %w", err)
	}
	if n.Move <= 0 {
		return nil, fmt.Errorf("tiny: internal/tiny/tiny.yaml: move is %g; a unit's move is more than 0 inches", n.Move)
	}
	return &Rules{move: n.Move}, nil
}

// ID is "tiny".
func (r *Rules) ID() string { return ID }

// Table says that the rule set has no tables: it rolls nothing.
func (r *Rules) Table(id string) (*table.Table, error) {
	return nil, fmt.Errorf("the rule set tiny has no tables; %q is none of its", id)
}

// Vocab allows infantry in line, formed.
func (r *Rules) Vocab() battle.Vocab {
	return battle.Vocab{UnitTypes: []string{"infantry"}, Shapes: []string{"line"}, Statuses: []string{"formed"}}
}

// Spec is the rule set's part of the scenario format: a table, and an
// army of brigades (which holds its one unit).
func (r *Rules) Spec() battle.Spec {
	return battle.Spec{ID: ID, Title: "Tiny: a test rule set", Vocab: r.Vocab(), Spaces: []string{geom.KindTable}, Parts: []string{battle.PartBrigades}}
}

// Check tests a scenario against the rule set: a side has one unit, on
// the table (TINY-1); its commanders, whom the scenario format asks for,
// only stand by.
func (r *Rules) Check(sc *battle.Scenario) error {
	if sc.Field.Width <= 0 || sc.Map != nil {
		return fmt.Errorf("a tiny game is played on a table: give field with its width and depth")
	}
	for _, sd := range sc.Sides {
		if len(sd.Units) != 1 {
			return fmt.Errorf("side %s has %d units; a tiny side has exactly one", sd.ID, len(sd.Units))
		}
		if u := sd.Units[0]; u.OffBoard || !sc.Field.Contains(u.At) {
			return fmt.Errorf("unit %s of side %s: a tiny unit starts on the table, within 0..%g by 0..%g", u.ID, sd.ID, sc.Field.Width, sc.Field.Depth)
		}
	}
	return nil
}

// BoardTypes says the types of the rule set's part of a seat's board
// (game.Boarded): its state and what Annotate adds.
func (r *Rules) BoardTypes() game.BoardTypes {
	return game.BoardTypes{State: &State{}, Notes: Board{}}
}

// Board is what the rule set adds to a seat's board (game.Annotator): the
// inches a unit may move in its side's step, which the page shows.
type Board struct {
	Reach float64 `json:"reach"`
}

// Annotate gives every seat the reach of a move (TINY-1).
func (r *Rules) Annotate(*game.State, game.Step, string) any { return Board{Reach: r.move} }
