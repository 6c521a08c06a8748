package nb

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/strict"
)

// verbs are NB's commands, besides the engine's ready and end.
var verbs = []string{"write", "move", "attach", "detach", "redirect", "complete", "react", "combat", "rout", "rally", "remove", "replace"}

// fates are what may befall a general the umpire removes (NB-15): the
// remove command takes one, and the board offers them (Annotate).
var fates = []string{"killed", "captured"}

// Verbs lists NB's commands.
func (r *Rules) Verbs() []string { return slices.Clone(verbs) }

// Args are the arguments of an NB command; the verb says which it uses.
type Args struct {
	Write *Write      `json:"write,omitempty"`
	Moves []game.Move `json:"moves,omitempty"`
	// Overrides holds, beside each move, the umpire's reason for letting
	// it pass the unit's speed ("" for none; SPEC NB-16). Nil when no
	// move has one.
	Overrides []string `json:"overrides,omitempty"`
	// General, Units, Messenger and Formation name the piece acted on; To
	// is what it goes to (a unit or general for attach, a general for
	// redirect); Target is the enemy unit or division that units start
	// combat with (SPEC NB-6).
	General   string      `json:"general,omitempty"`
	Units     []string    `json:"units,omitempty"`
	Target    string      `json:"target,omitempty"`
	Messenger string      `json:"messenger,omitempty"`
	Formation string      `json:"formation,omitempty"`
	To        string      `json:"to,omitempty"`
	Fate      string      `json:"fate,omitempty"`
	New       *NewGeneral `json:"new,omitempty"`
}

// Size is how many ids the arguments name (game.Sizer).
func (a *Args) Size() int {
	n := len(a.Moves) + len(a.Units)
	if a.Target != "" {
		n++
	}
	if a.Write != nil {
		n += len(a.Write.For)
	}
	return n
}

// Write is an order to write (SPEC NB-2, NB-11).
type Write struct {
	For       []string    `json:"for"`
	To        string      `json:"to,omitempty"` // the general the messenger rides to
	Kind      string      `json:"kind"`
	Objective *geom.Point `json:"objective,omitempty"`
	Note      string      `json:"note,omitempty"`
}

// cmd is a command with its NB arguments at hand.
type cmd struct {
	*game.Command
	*Args
}

// argsOf gives a command's NB arguments: none for a command without.
func argsOf(c *game.Command) (cmd, error) {
	switch a := c.Args.(type) {
	case *Args:
		return cmd{c, a}, nil
	case nil:
		return cmd{c, &Args{}}, nil
	}
	return cmd{}, fmt.Errorf("nb: the arguments of %s are %T, not NB's", c.Verb, c.Args)
}

// Decode reads the arguments of an NB command from YAML or JSON, e.g. for
// write {for: I, kind: attack, objective: [30, 12]}.
func (r *Rules) Decode(verb string, rd strict.Reader, v *yaml.Node, w string) (any, error) {
	a := &Args{}
	var err error
	switch verb {
	case "write":
		a.Write, err = readWrite(rd, v, w)
	case "move":
		a.Moves, a.Overrides, err = readMoves(rd, v, w)
	case "attach":
		var g map[string]*yaml.Node
		if g, err = rd.Need(v, w, "general", "to"); err == nil {
			if a.General, err = rd.ID(g["general"], w+".general"); err == nil {
				a.To, err = rd.ID(g["to"], w+".to")
			}
		}
	case "redirect":
		var g map[string]*yaml.Node
		if g, err = rd.Need(v, w, "messenger", "to"); err == nil {
			if a.Messenger, err = rd.ID(g["messenger"], w+".messenger"); err == nil {
				a.To, err = rd.ID(g["to"], w+".to")
			}
		}
	case "detach":
		a.General, err = rd.ID(v, w)
	case "complete":
		a.Formation, err = rd.ID(v, w)
	case "combat":
		a.Units, a.Target, err = readCombat(rd, v, w)
	case "react", "rout", "rally":
		a.Units, err = rd.IDs(v, w, 0)
	case "remove":
		var g map[string]*yaml.Node
		if g, err = rd.Need(v, w, "general", "fate"); err == nil {
			if a.General, err = rd.ID(g["general"], w+".general"); err == nil {
				a.Fate, err = rd.Word(g["fate"], w+".fate")
				if err == nil && !slices.Contains(fates, a.Fate) {
					err = rd.Errf(g["fate"], "%s.fate: %q is not one of %s", w, a.Fate, strings.Join(fates, ", "))
				}
			}
		}
	case "replace":
		var g map[string]*yaml.Node
		if g, err = rd.Need(v, w, "general", "by"); err == nil {
			if a.General, err = rd.ID(g["general"], w+".general"); err == nil {
				a.New, err = readNewGeneral(rd, g["by"], w+".by")
			}
		}
	default:
		return nil, rd.Errf(v, "%s: nb has no command %s; allowed: %s", w, strict.Quote(verb, 40), strings.Join(verbs, ", "))
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// readCombat reads the units that start combat and their target, the
// enemy unit or division they attack (NB-6: engaged units respond only to
// the formations they are engaged with): {units: [a, b], target: c}.
func readCombat(r strict.Reader, n *yaml.Node, where string) ([]string, string, error) {
	if n.Kind != yaml.MappingNode {
		return nil, "", r.Errf(n, "%s: give units and target, e.g. {units: [I-1-a], target: B-1}: the units that start combat and the enemy unit or division they attack (NB-6)", where)
	}
	f, err := r.Need(n, where, "units", "target")
	if err != nil {
		return nil, "", err
	}
	units, err := r.IDs(f["units"], where+".units", 0)
	if err != nil {
		return nil, "", err
	}
	target, err := r.ID(f["target"], where+".target")
	return units, target, err
}

func readWrite(r strict.Reader, n *yaml.Node, where string) (*Write, error) {
	f, err := r.Fields(n, where, "for", "to", "kind", "objective", "note")
	if err != nil {
		return nil, err
	}
	if err := r.Require(f, n, where, "for", "kind"); err != nil {
		return nil, err
	}
	w := &Write{}
	if w.For, err = r.IDs(f["for"], where+".for", 0); err != nil {
		return nil, err
	}
	if w.Kind, err = r.Word(f["kind"], where+".kind"); err != nil {
		return nil, err
	}
	if f["to"] != nil {
		if w.To, err = r.ID(f["to"], where+".to"); err != nil {
			return nil, err
		}
	}
	if f["objective"] != nil {
		p, err := battle.Position(r, f["objective"], where+".objective")
		if err != nil {
			return nil, err
		}
		w.Objective = &p
	}
	if f["note"] != nil {
		if w.Note, err = r.Str(f["note"], where+".note"); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// readMoves reads one move or a list of them, and beside each the
// umpire's override reason, if any (nil when none has one).
func readMoves(r strict.Reader, n *yaml.Node, where string) ([]game.Move, []string, error) {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
		if len(items) == 0 {
			return nil, nil, r.Errf(n, "%s: the list of moves is empty", where)
		}
	}
	var out []game.Move
	var overrides []string
	moved := make(map[string]bool, len(items))
	for i, it := range items {
		w := where
		if n.Kind == yaml.SequenceNode {
			w = fmt.Sprintf("%s[%d]", where, i)
		}
		f, err := r.Fields(it, w, "unit", "general", "to", "formation", "facing", "override")
		if err != nil {
			return nil, nil, err
		}
		if f["override"] != nil {
			why, err := r.Str(f["override"], w+".override")
			if err != nil {
				return nil, nil, err
			}
			if strings.TrimSpace(why) == "" {
				return nil, nil, r.Errf(f["override"], "%s.override: the reason is empty; say why the umpire lets this move pass the unit's speed", w)
			}
			if overrides == nil {
				overrides = make([]string, len(items))
			}
			overrides[i] = why
		}
		var m game.Move
		switch {
		case f["unit"] != nil && f["general"] == nil:
			m.Unit, err = r.ID(f["unit"], w+".unit")
		case f["general"] != nil && f["unit"] == nil:
			m.General, err = r.ID(f["general"], w+".general")
			if err == nil && (f["formation"] != nil || f["facing"] != nil) {
				err = r.Errf(it, "%s: a general has no formation or facing; move him with general and to", w)
			}
			if err == nil && f["override"] != nil {
				err = r.Errf(f["override"], "%s.override: a general has no speed to pass; override is for a unit's move", w)
			}
		default:
			err = r.Errf(it, "%s: give either unit or general", w)
		}
		if err != nil {
			return nil, nil, err
		}
		if f["to"] == nil {
			return nil, nil, r.Errf(it, "%s: to is missing: where the piece goes, [x, y]", w)
		}
		if m.To, err = battle.Position(r, f["to"], w+".to"); err != nil {
			return nil, nil, err
		}
		if f["formation"] != nil {
			if m.Shape, err = r.Word(f["formation"], w+".formation"); err != nil {
				return nil, nil, err
			}
		}
		if f["facing"] != nil {
			v, err := battle.Facing(r, f["facing"], w+".facing")
			if err != nil {
				return nil, nil, err
			}
			m.Facing = &v
		}
		if moved[m.ID()] {
			return nil, nil, r.Errf(it, "%s: %s is moved twice in one command; give each piece one move", w, m.ID())
		}
		moved[m.ID()] = true
		out = append(out, m)
	}
	return out, overrides, nil
}

func readNewGeneral(r strict.Reader, n *yaml.Node, where string) (*NewGeneral, error) {
	f, err := r.Fields(n, where, "id", "name", "quality", "range", "at")
	if err != nil {
		return nil, err
	}
	if err := r.Require(f, n, where, "id", "quality", "range", "at"); err != nil {
		return nil, err
	}
	g := &NewGeneral{}
	if g.ID, err = r.ID(f["id"], where+".id"); err != nil {
		return nil, err
	}
	if f["name"] != nil {
		if g.Name, err = r.Str(f["name"], where+".name"); err != nil {
			return nil, err
		}
	}
	if g.Quality, err = r.Word(f["quality"], where+".quality"); err != nil {
		return nil, err
	}
	if g.Range, err = battle.Number(r, f["range"], where+".range"); err != nil {
		return nil, err
	}
	if g.Range <= 0 || g.Range > 1000 {
		return nil, r.Errf(f["range"], "%s.range: %v is out of range; allowed: more than 0 up to 1000 inches", where, g.Range)
	}
	if g.At, err = battle.Position(r, f["at"], where+".at"); err != nil {
		return nil, err
	}
	return g, nil
}
