// Package rules gathers the built-in rule sets in one Registry (Default):
// NB, NES, LOB, BP and CD, one line each (LOB's numeric tables are not in
// the sources and come from a user's file). Everything outside a rule
// set's own package reaches it through the registry, by its id.
package rules

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/examples"
	"orderly/game"
	"orderly/rules/bp"
	"orderly/rules/cd"
	"orderly/rules/lob"
	"orderly/rules/nb"
	"orderly/rules/nes"
	"orderly/table"
)

// Entry is one rule set of a Registry: everything the rest of orderly
// needs to know of it, given where it is registered.
type Entry struct {
	// ID names the rule set, as a scenario's rules field and the start
	// of its tables' ids do (nb/order-delay is NB's).
	ID string
	// New makes the rule set's procedures over a loaded table set.
	New func(*table.Set) (game.Rules, error)
	// Tables is the rule set's built-in tables file, or nil for a rule set
	// whose tables the user supplies (LOB).
	Tables func() table.Source
	// Supplied lists the tables the user supplies (LOB's): a set with none
	// of them is checked when a game starts (the game's own tables file),
	// not by Playable.
	Supplied []string
	// Spec is the rule set's part of the scenario format when that needs
	// no tables (a rule set whose tables the user supplies gives one);
	// nil: the Spec of the rule set made over the built-in tables.
	Spec func() battle.Spec
	// Examples holds the rule set's bundled scenarios and scripts, at its
	// root (examples/<id>/ in the repository).
	Examples fs.FS
}

// Of adapts a rule set's constructor to Entry.New. A failed constructor
// returns a nil pointer: Of returns a nil interface, not one holding that
// nil pointer, which callers would take for rules and call (the crash of
// a sim with bad house rules).
func Of[R game.Rules](mk func(*table.Set) (R, error)) func(*table.Set) (game.Rules, error) {
	return func(set *table.Set) (game.Rules, error) {
		r, err := mk(set)
		if err != nil {
			return nil, err
		}
		return r, nil
	}
}

// Registry is a list of rule sets, one Entry each, in SPEC order. It is a
// value: a test registers a rule set of its own with With, changing no
// other registry.
type Registry struct{ entries []Entry }

// Default is the built-in rule sets, one line each: adding a rule set
// adds a line here.
func Default() Registry {
	return Registry{entries: []Entry{
		{ID: "nb", New: Of(nb.New), Tables: nb.Tables, Examples: examples.Of("nb")},
		{ID: "nes", New: Of(nes.New), Tables: nes.Tables, Examples: examples.Of("nes")},
		{ID: "lob", New: Of(lob.New), Supplied: lob.Tables, Spec: lob.ScenarioSpec, Examples: examples.Of("lob")},
		{ID: "bp", New: Of(bp.New), Tables: bp.Tables, Examples: examples.Of("bp")},
		{ID: "cd", New: Of(cd.New), Tables: cd.Tables, Examples: examples.Of("cd")},
	}}
}

// With returns a copy of the registry with e added after the others, or
// in place of the entry of the same id.
func (r Registry) With(e Entry) Registry {
	out := Registry{entries: slices.Clone(r.entries)}
	if i := slices.IndexFunc(out.entries, func(x Entry) bool { return x.ID == e.ID }); i >= 0 {
		out.entries[i] = e
		return out
	}
	out.entries = append(out.entries, e)
	return out
}

// IDs lists the ids of the registered rule sets, in order.
func (r Registry) IDs() []string {
	out := make([]string, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.ID
	}
	return out
}

// Entry returns the entry of rule set id (the zero Entry if none), so that
// a test may build a registry of some of the built-in rule sets.
func (r Registry) Entry(id string) Entry {
	e, _ := r.entry(id)
	return e
}

// entry returns the entry of rule set id, or an error listing the ids
// allowed.
func (r Registry) entry(id string) (Entry, error) {
	for _, e := range r.entries {
		if e.ID == id {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("rule set %q has no game procedures yet; allowed: %s", id, strings.Join(r.IDs(), ", "))
}

// Builtin returns the tables files of every registered rule set that has
// built-in tables, in order.
func (r Registry) Builtin() []table.Source {
	var out []table.Source
	for _, e := range r.entries {
		if e.Tables != nil {
			out = append(out, e.Tables())
		}
	}
	return out
}

// Engine returns the procedures of rule set id over the loaded tables.
func (r Registry) Engine(id string, set *table.Set) (game.Rules, error) {
	e, err := r.entry(id)
	if err != nil {
		return nil, err
	}
	return e.New(set)
}

// Examples is the bundled examples of every registered rule set, each
// under a directory named by its id (nb/demo.yaml).
func (r Registry) Examples() fs.FS {
	dirs := map[string]fs.FS{}
	for _, e := range r.entries {
		if e.Examples != nil {
			dirs[e.ID] = e.Examples
		}
	}
	return examples.Join(dirs)
}

// Builtin returns the tables files of every built-in rule set, in SPEC order.
func Builtin() []table.Source { return Default().Builtin() }

// Load reads the built-in tables and then the house-rule files at paths.
func Load(paths ...string) (*table.Set, error) { return Default().Load(paths...) }

// Load reads the registered rule sets' built-in tables and then the
// house-rule files at paths.
func (r Registry) Load(paths ...string) (*table.Set, error) {
	house, err := Sources(paths...)
	if err != nil {
		return nil, err
	}
	return table.Load(r.Builtin(), house...)
}

// LoadFor reads what answering table id needs: the built-in tables of the
// rule set its id names (nb/order-delay is NB's), those of every rule set
// whose tables the house-rule files at paths add or change, and the house
// rules. It answers as Load does: when that subset fails to load or lacks
// id (an unknown id is answered with near matches among every table), it
// reads everything as Load does and returns that, errors included.
func LoadFor(id string, paths ...string) (*table.Set, error) { return Default().LoadFor(id, paths...) }

// LoadFor is the package's LoadFor over the registered rule sets.
func (r Registry) LoadFor(id string, paths ...string) (*table.Set, error) {
	house, err := Sources(paths...)
	if err != nil {
		return nil, err
	}
	return r.loadFor(table.Load, id, house)
}

// loadFor is LoadFor with the loader given, so that a test can count the
// files each answer parses.
func (r Registry) loadFor(load func([]table.Source, ...table.Source) (*table.Set, error), id string, house []table.Source) (*table.Set, error) {
	if need, ok := needed(id, house); ok {
		var some []table.Source
		for _, e := range r.entries {
			if need[e.ID] && e.Tables != nil {
				some = append(some, e.Tables())
			}
		}
		if set, err := load(some, house...); err == nil && has(set, id) {
			return set, nil
		}
	}
	return load(r.Builtin(), house...)
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
func Make(house ...table.Source) (Maker, error) { return Default().Make(house...) }

// Make is the package's Make over the registered rule sets.
func (r Registry) Make(house ...table.Source) (Maker, error) {
	set, err := table.Load(r.Builtin(), house...)
	if err != nil {
		return nil, err
	}
	if err := r.Playable(set); err != nil {
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
		e := engines[made{id, key}]
		mu.Unlock()
		if e != nil {
			return e, nil
		}
		e, err := r.Engine(id, s)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		if len(engines) >= maxEngines {
			clear(engines)
		}
		engines[made{id, key}] = e
		mu.Unlock()
		return e, nil
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
		s, err := table.Load(r.Builtin(), append(slices.Clone(house), own...)...)
		if err != nil {
			return nil, err
		}
		e, err := engine(id, key, s)
		if err != nil {
			return nil, err // not kept: only a set some game plays on is
		}
		mu.Lock()
		if len(sets) >= maxSets {
			clear(sets)
		}
		sets[key] = s
		mu.Unlock()
		return e, nil
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

// Playable checks that the procedures of every rule set can use the loaded
// tables (house rules included): a house rule that one cannot play is
// refused before a game starts, not when it first rolls the table. The
// table commands (odds, roll, show) do not ask: a designer may explore a
// variant that no procedure plays yet.
func Playable(set *table.Set) error { return Default().Playable(set) }

// Playable is the package's Playable over the registered rule sets. A rule
// set whose tables the user supplies (Entry.Supplied, LOB's) is checked
// here only when the set holds some of them; a set with none is checked
// when a game of it starts, with the game's own tables.
func (r Registry) Playable(set *table.Set) error {
	for _, e := range r.entries {
		if len(e.Supplied) > 0 && !slices.ContainsFunc(e.Supplied, func(id string) bool { return has(set, id) }) {
			continue
		}
		if _, err := e.New(set); err != nil {
			return err
		}
	}
	return nil
}

// Spec is what rule set id contributes to the scenario format, over the
// built-in tables (a rule set whose tables the user supplies gives its
// part without them).
func Spec(id string) (battle.Spec, error) { return Default().Spec(id) }

// Spec is the package's Spec over the registered rule sets.
func (r Registry) Spec(id string) (battle.Spec, error) {
	e, err := r.entry(id)
	if err != nil {
		return battle.Spec{}, err
	}
	if e.Spec != nil {
		return e.Spec(), nil
	}
	set, err := r.Load()
	if err != nil {
		return battle.Spec{}, err
	}
	eng, err := e.New(set)
	if err != nil {
		return battle.Spec{}, err
	}
	return battle.SpecOf(eng), nil
}

// Procedures lists the rule sets that have game procedures (Engine), in
// the order of the registry.
func Procedures() []string { return Default().IDs() }

// Engine returns the procedures of rule set id over the loaded tables.
func Engine(id string, set *table.Set) (game.Rules, error) { return Default().Engine(id, set) }
