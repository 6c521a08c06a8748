// Package rules gathers the built-in rule sets: NB, NES, BP, CD and LOB
// (LOB's numeric tables are not in the sources and come from a user's
// file).
package rules

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/game"
	"orderly/rules/bp"
	"orderly/rules/cd"
	"orderly/rules/lob"
	"orderly/rules/nb"
	"orderly/rules/nes"
	"orderly/table"
)

// builtins are the tables files of the built-in rule sets, in SPEC order,
// each with the id its tables' ids begin with (nb/order-delay is NB's).
var builtins = []struct {
	id     string
	tables func() table.Source
}{
	{"nb", nb.Tables},
	{"nes", nes.Tables},
	{"bp", bp.Tables},
	{"cd", cd.Tables},
}

// Builtin returns the tables files of every built-in rule set, in SPEC order.
func Builtin() []table.Source {
	var out []table.Source
	for _, b := range builtins {
		out = append(out, b.tables())
	}
	return out
}

// Load reads the built-in tables and then the house-rule files at paths.
func Load(paths ...string) (*table.Set, error) {
	house, err := Sources(paths...)
	if err != nil {
		return nil, err
	}
	return table.Load(Builtin(), house...)
}

// LoadFor reads what answering table id needs: the built-in tables of the
// rule set its id names (nb/order-delay is NB's), those of every rule set
// whose tables the house-rule files at paths add or change, and the house
// rules. It answers as Load does: when that subset fails to load or lacks
// id (an unknown id is answered with near matches among every table), it
// reads everything as Load does and returns that, errors included.
func LoadFor(id string, paths ...string) (*table.Set, error) {
	house, err := Sources(paths...)
	if err != nil {
		return nil, err
	}
	return loadFor(table.Load, id, house)
}

// loadFor is LoadFor with the loader given, so that a test can count the
// files each answer parses.
func loadFor(load func([]table.Source, ...table.Source) (*table.Set, error), id string, house []table.Source) (*table.Set, error) {
	if need, ok := needed(id, house); ok {
		var some []table.Source
		for _, b := range builtins {
			if need[b.id] {
				some = append(some, b.tables())
			}
		}
		if set, err := load(some, house...); err == nil && has(set, id) {
			return set, nil
		}
	}
	return load(Builtin(), house...)
}

// needed names the rule sets whose built-in tables answering id needs: the
// one id names and every one a house-rule file gives a table or lookup of.
// It is false when a file's tables cannot be listed (the full load says
// what is wrong, and where). Each built-in rule set's tables read only
// their own lookups (TestBuiltinApart), so no other is needed.
func needed(id string, house []table.Source) (map[string]bool, bool) {
	need := map[string]bool{}
	mark := func(id string) {
		if set, _, ok := strings.Cut(id, "/"); ok {
			need[set] = true
		}
	}
	mark(id)
	for _, src := range house {
		var ids struct {
			Tables  []struct{ ID string } `yaml:"tables"`
			Lookups []struct{ ID string } `yaml:"lookups"`
		}
		if yaml.Unmarshal(src.Data, &ids) != nil {
			return nil, false
		}
		for _, t := range append(ids.Tables, ids.Lookups...) {
			mark(t.ID)
		}
	}
	return need, true
}

// has reports whether set has a dice or lookup table called id.
func has(set *table.Set, id string) bool {
	if set.Lookup(id) != nil {
		return true
	}
	_, err := set.Table(id)
	return err == nil
}

// Sources reads the house-rule files at paths.
func Sources(paths ...string) ([]table.Source, error) {
	var house []table.Source
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("house rules: %w", err)
		}
		house = append(house, table.Source{Name: p, Data: data})
	}
	return house, nil
}

// Maker is the procedures of rule set id over the built-in tables, the
// house rules and, when given, a game's own tables files read last (the
// tables a LOB game is uploaded with, or one game's house rules).
type Maker func(id string, own ...table.Source) (game.Rules, error)

// Make reads the built-in tables and the house rules once, checks that
// they are playable, and returns the Maker over them. A game's own
// tables file is read over them once, the first time a call gives it.
// Each rule set is made once over each set of tables and then shared:
// a rule set keeps no game's state, and making one checks every table
// it uses (for LOB, most of the time a server takes to start).
func Make(house ...table.Source) (Maker, error) {
	set, err := table.Load(Builtin(), house...)
	if err != nil {
		return nil, err
	}
	if err := Playable(set); err != nil {
		return nil, err
	}
	house = slices.Clone(house)
	type made struct {
		id     string
		tables [32]byte // the own tables' key; zero for none
	}
	var (
		mu      sync.Mutex
		sets    = map[[32]byte]*table.Set{}
		engines = map[made]game.Rules{}
	)
	// engine is Engine(id, s), s the set of the tables of key, made once.
	engine := func(id string, key [32]byte, s *table.Set) (game.Rules, error) {
		mu.Lock()
		r := engines[made{id, key}]
		mu.Unlock()
		if r != nil {
			return r, nil
		}
		r, err := Engine(id, s)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		if len(engines) >= maxEngines {
			clear(engines)
		}
		engines[made{id, key}] = r
		mu.Unlock()
		return r, nil
	}
	return func(id string, own ...table.Source) (game.Rules, error) {
		if len(own) == 0 {
			return engine(id, [32]byte{}, set)
		}
		// The same tables file read once: every bundled LOB game, and
		// every game of a club's uploaded tables, shares its set.
		h := sha256.New()
		for _, o := range own {
			for _, part := range []string{o.Name, string(o.Data)} {
				fmt.Fprintf(h, "%d:%s", len(part), part)
			}
		}
		key := [32]byte(h.Sum(nil))
		mu.Lock()
		s := sets[key]
		mu.Unlock()
		if s != nil {
			return engine(id, key, s)
		}
		for _, o := range own {
			if err := CheckOwn(o); err != nil {
				return nil, err
			}
		}
		s, err := table.Load(Builtin(), append(slices.Clone(house), own...)...)
		if err != nil {
			return nil, err
		}
		r, err := engine(id, key, s)
		if err != nil {
			return nil, err // not kept: only a set some game plays on is
		}
		mu.Lock()
		if len(sets) >= maxSets {
			clear(sets)
		}
		sets[key] = s
		mu.Unlock()
		return r, nil
	}, nil
}

// maxSets bounds the tables sets a Maker keeps read, and maxEngines the
// rule sets it keeps made.
const (
	maxSets    = 16
	maxEngines = 4 * maxSets
)

// Bounds of a game's own tables file, which a client may send: what it
// costs to read is bounded before it is read.
const (
	MaxOwnBytes  = 256 << 10 // bytes of the file
	MaxOwnTables = 100       // tables and lookups in it
)

// CheckOwn checks a game's own tables file against MaxOwnBytes and
// MaxOwnTables before it is read: each table's dice are bounded by the
// table loader, so the file's cost is.
func CheckOwn(src table.Source) error {
	if n := len(src.Data); n > MaxOwnBytes {
		return fmt.Errorf("%s: the tables file is %d bytes; a game's own tables file may have at most %d", src.Name, n, MaxOwnBytes)
	}
	var head struct {
		Tables  []yaml.Node `yaml:"tables"`
		Lookups []yaml.Node `yaml:"lookups"`
	}
	if yaml.Unmarshal(src.Data, &head) != nil {
		return nil // the loader says what is wrong, and where
	}
	if n := len(head.Tables) + len(head.Lookups); n > MaxOwnTables {
		return fmt.Errorf("%s: the tables file has %d tables and lookups; a game's own tables file may have at most %d", src.Name, n, MaxOwnTables)
	}
	return nil
}

// Playable checks that the procedures of every rule set that has them can
// use the loaded tables (house rules included): a house rule that one
// cannot play is refused before a game starts, not when it first rolls the
// table. The table commands (odds, roll, show) do not ask: a designer may
// explore a variant that no procedure plays yet. LOB's tables come only
// from the user: a set with none of them is checked when a LOB game
// starts, one with some of them here.
func Playable(set *table.Set) error {
	for _, id := range Procedures() {
		if _, err := Engine(id, set); err != nil {
			var miss *lob.Missing
			if errors.As(err, &miss) && len(miss.IDs) == len(lob.Tables) {
				continue
			}
			return err
		}
	}
	return nil
}

// Spec is what rule set id contributes to the scenario format, over the
// built-in tables: LOB's needs none of the user's tables.
func Spec(id string) (battle.Spec, error) {
	if id == "lob" {
		return lob.ScenarioSpec(), nil
	}
	set, err := Load()
	if err != nil {
		return battle.Spec{}, err
	}
	eng, err := Engine(id, set)
	if err != nil {
		return battle.Spec{}, err
	}
	return battle.SpecOf(eng), nil
}

// Procedures lists the rule sets that have game procedures (Engine).
func Procedures() []string { return []string{"nb", "bp", "nes", "cd", "lob"} }

// Engine returns the procedures of rule set id over the loaded tables.
func Engine(id string, set *table.Set) (game.Rules, error) {
	switch id {
	case "nb":
		// A failed New returns a nil *nb.Rules: return a nil interface,
		// not an interface holding that nil pointer, which callers would
		// take for rules and call (the crash of a sim with bad house rules).
		r, err := nb.New(set)
		if err != nil {
			return nil, err
		}
		return r, nil
	case "bp":
		r, err := bp.New(set)
		if err != nil {
			return nil, err
		}
		return r, nil
	case "nes":
		r, err := nes.New(set)
		if err != nil {
			return nil, err
		}
		return r, nil
	case "cd":
		r, err := cd.New(set)
		if err != nil {
			return nil, err
		}
		return r, nil
	case "lob":
		r, err := lob.New(set)
		if err != nil {
			return nil, err
		}
		return r, nil
	}
	return nil, fmt.Errorf("rule set %q has no game procedures yet; allowed: nb, bp, nes, cd, lob", id)
}
