package battle

import "fmt"

// PathError is a problem with one element of a scenario, named by its path
// (sides[0].corps[2].general) and line.
type PathError struct {
	Path string
	Line int
	Msg  string
}

func (e *PathError) Error() string { return e.Path + ": " + e.Msg }

// Finish indexes a scenario and checks what holds it together: a table or
// a hex map, not both; every id is used once; every piece is on the table
// or map, or belongs to an off-board reserve; and every unit has a speed.
// Load calls it; code that builds a Scenario directly must call it before
// use.
func (sc *Scenario) Finish() error {
	if sc.Map != nil {
		if err := sc.Map.Check(); err != nil {
			return &PathError{"map", 0, err.Error()}
		}
		if !sc.Field.Empty() {
			return &PathError{"map", 0, "a scenario is played on a table (field) or on a hex map (map), not both; give one of them"}
		}
	}
	sc.gens = map[string]*General{}
	sc.units = map[string]*Unit{}
	sc.forms = map[string]*Formation{}
	sc.ids = map[string]string{}
	seen := map[string]string{}
	use := func(id, what, path string, line int) error {
		if prev, ok := seen[id]; ok {
			return &PathError{path, line, fmt.Sprintf("id %q is already used by %s", id, prev)}
		}
		seen[id] = fmt.Sprintf("%s (line %d)", path, line)
		if line == 0 {
			seen[id] = path
		}
		sc.ids[id] = what
		return nil
	}
	var found problems
	for _, s := range sc.Sides {
		if err := use(s.ID, "side", fmt.Sprintf("side %s", s.ID), s.Line); err != nil {
			found.note(err)
		}
	}
	for _, s := range sc.Sides {
		for _, f := range s.Formations {
			if f.Kind != Army {
				if err := use(f.ID, "formation", f.Path, f.Line); err != nil {
					found.note(err)
					continue
				}
			}
			sc.forms[f.ID] = f
		}
		for _, g := range s.Generals {
			if err := use(g.ID, "general", g.Path, g.Line); err != nil {
				found.note(err)
				continue
			}
			sc.gens[g.ID] = g
		}
		for _, u := range s.Units {
			if err := use(u.ID, "unit", u.Path, u.Line); err != nil {
				found.note(err)
				continue
			}
			sc.units[u.ID] = u
		}
	}
	if err := found.err(); err != nil {
		// The pieces are not all indexed: check no further.
		return err
	}
	for _, s := range sc.Sides {
		sc.checkSide(s, &found)
	}
	return found.err()
}

// checkSide checks the pieces of a side, noting each piece's problem.
func (sc *Scenario) checkSide(s *Side, found *problems) {
	if len(s.Formations) == 0 || s.Formations[0].Kind != Army {
		found.note(&PathError{"side " + s.ID, s.Line, "the side has no army commander"})
		return
	}
	for _, f := range s.Formations {
		if sc.gens[f.General] == nil {
			found.note(&PathError{f.Path, f.Line, fmt.Sprintf("general %q is not in the scenario", f.General)})
			return
		}
		if f.Kind != Army && sc.forms[f.Parent] == nil {
			found.note(&PathError{f.Path, f.Line, fmt.Sprintf("parent formation %q is not in the scenario", f.Parent)})
			return
		}
	}
	sp := sc.Space()
	for _, g := range s.Generals {
		off := sc.OffBoard(g.Commands)
		if g.OffBoard && !off {
			found.note(&PathError{g.Path, g.Line, "at is missing: only the generals of an off-board reserve start off the table"})
			continue
		}
		if !g.OffBoard && off {
			found.note(&PathError{g.Path + ".at", g.Line, "the general of an off-board reserve starts off the table; leave out at"})
			continue
		}
		if !g.OffBoard && !sp.Contains(g.At) {
			found.note(&PathError{g.Path + ".at", g.Line, fmt.Sprintf("%s is off %s", sp.Format(g.At), sp.Extent())})
			continue
		}
	}
	for _, u := range s.Units {
		off := sc.OffBoard(u.Division)
		if u.OffBoard && !off {
			found.note(&PathError{u.Path, u.Line, "at is missing: only the units of an off-board reserve start off the table"})
			continue
		}
		if !u.OffBoard && off {
			found.note(&PathError{u.Path + ".at", u.Line, "a unit of an off-board reserve starts off the table; leave out at"})
			continue
		}
		if !u.OffBoard && !sp.Contains(u.At) {
			found.note(&PathError{u.Path + ".at", u.Line, fmt.Sprintf("%s is off %s", sp.Format(u.At), sp.Extent())})
			continue
		}
		if u.Speed == 0 {
			u.Speed = sc.Speeds[u.Type]
		}
		if u.Speed == 0 && !sc.Speedless {
			found.note(&PathError{u.Path, u.Line, fmt.Sprintf("no speed for %s: give speed here or speeds.%s for the scenario", u.Type, u.Type)})
		}
	}
}

// OffBoard reports whether formation id is, or belongs to, an off-board
// reserve.
func (sc *Scenario) OffBoard(id string) bool {
	return sc.ReserveOf(id) != nil
}

// ReserveOf returns the off-board reserve formation that id is or belongs
// to, or nil.
func (sc *Scenario) ReserveOf(id string) *Formation {
	for f := sc.forms[id]; f != nil; f = sc.forms[f.Parent] {
		if f.Entry != nil {
			return f
		}
		if f.Kind == Army {
			break
		}
	}
	return nil
}

// What says what uses an id: side, formation, general or unit ("" if none).
func (sc *Scenario) What(id string) string { return sc.ids[id] }

// IDs lists the ids of one kind (formation, general, unit), in scenario order.
func (sc *Scenario) IDs(what string) []string {
	var out []string
	for _, s := range sc.Sides {
		switch what {
		case "formation":
			for _, f := range s.Formations[1:] {
				out = append(out, f.ID)
			}
		case "general":
			for _, g := range s.Generals {
				out = append(out, g.ID)
			}
		case "unit":
			for _, u := range s.Units {
				out = append(out, u.ID)
			}
		}
	}
	return out
}
