package game

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/geom"
	"orderly/strict"
)

// Verbs are the commands a player (or the umpire) can give.
var Verbs = []string{"write", "move", "attach", "detach", "redirect", "complete", "react", "combat", "rout", "rally", "remove", "replace", "ready", "end"}

// Command is one thing a player or the umpire asks the engine to do. Verb
// says which of the other fields it uses.
type Command struct {
	Side  string `json:"side"` // the side that gives it, or umpire
	Verb  string `json:"verb"`
	Write *Write `json:"write,omitempty"`
	Moves []Move `json:"moves,omitempty"`
	// General, Unit, Messenger and Formation name the piece acted on; To is
	// what it goes to (a unit or general for attach, a general for redirect).
	General   string      `json:"general,omitempty"`
	Units     []string    `json:"units,omitempty"`
	Messenger string      `json:"messenger,omitempty"`
	Formation string      `json:"formation,omitempty"`
	To        string      `json:"to,omitempty"`
	Fate      string      `json:"fate,omitempty"`
	New       *NewGeneral `json:"new,omitempty"`
	Step      string      `json:"step,omitempty"` // for end: the step or phase being ended
}

// Write is an order to write (SPEC NB-2, NB-11).
type Write struct {
	For       []string    `json:"for"`
	To        string      `json:"to,omitempty"` // the general the messenger rides to
	Kind      string      `json:"kind"`
	Objective *geom.Point `json:"objective,omitempty"`
	Note      string      `json:"note,omitempty"`
}

// DecodeCommand reads a command from YAML or JSON, such as
// {side: french, write: {for: I, kind: attack, objective: [30, 12]}}.
// where names it in messages.
func DecodeCommand(data []byte, where string) (Command, error) {
	r := strict.Reader{File: where, Want: "a command such as {side: french, end: true}"}
	n, err := r.Parse(data)
	if err != nil {
		return Command{}, err
	}
	return CommandFromNode(r, n, "command")
}

// CommandFromNode reads a command from a parsed YAML node.
func CommandFromNode(r strict.Reader, n *yaml.Node, where string) (Command, error) {
	f, err := r.Fields(n, where, append([]string{"side"}, Verbs...)...)
	if err != nil {
		return Command{}, err
	}
	var c Command
	if f["side"] == nil {
		return c, r.Errf(n, "%s: side is missing: the side that gives the command, or umpire", where)
	}
	if c.Side, err = r.ID(f["side"], where+".side"); err != nil {
		return c, err
	}
	var verbs []string
	for _, v := range Verbs {
		if f[v] != nil {
			verbs = append(verbs, v)
		}
	}
	if len(verbs) != 1 {
		return c, r.Errf(n, "%s: give exactly one of %s; got %s", where, strings.Join(Verbs, ", "), orNothing(verbs))
	}
	c.Verb = verbs[0]
	v := f[c.Verb]
	w := where + "." + c.Verb
	switch c.Verb {
	case "write":
		c.Write, err = readWrite(r, v, w)
	case "move":
		c.Moves, err = readMoves(r, v, w)
	case "attach":
		var g map[string]*yaml.Node
		if g, err = need(r, v, w, "general", "to"); err == nil {
			if c.General, err = r.ID(g["general"], w+".general"); err == nil {
				c.To, err = r.ID(g["to"], w+".to")
			}
		}
	case "redirect":
		var g map[string]*yaml.Node
		if g, err = need(r, v, w, "messenger", "to"); err == nil {
			if c.Messenger, err = r.ID(g["messenger"], w+".messenger"); err == nil {
				c.To, err = r.ID(g["to"], w+".to")
			}
		}
	case "detach":
		c.General, err = r.ID(v, w)
	case "complete":
		c.Formation, err = r.ID(v, w)
	case "react", "combat", "rout", "rally":
		c.Units, err = words(r, v, w)
	case "remove":
		var g map[string]*yaml.Node
		if g, err = need(r, v, w, "general", "fate"); err == nil {
			if c.General, err = r.ID(g["general"], w+".general"); err == nil {
				c.Fate, err = r.Word(g["fate"], w+".fate")
				if err == nil && c.Fate != "killed" && c.Fate != "captured" {
					err = r.Errf(g["fate"], "%s.fate: %q is not one of killed, captured", w, c.Fate)
				}
			}
		}
	case "replace":
		var g map[string]*yaml.Node
		if g, err = need(r, v, w, "general", "by"); err == nil {
			if c.General, err = r.ID(g["general"], w+".general"); err == nil {
				c.New, err = readNewGeneral(r, g["by"], w+".by")
			}
		}
	case "ready":
		if v.Kind == yaml.ScalarNode && v.Tag == "!!bool" && strings.EqualFold(v.Value, "true") {
			break
		}
		err = r.Errf(v, "%s: want true, got %s", w, strict.KindName(v))
	case "end":
		if v.Kind == yaml.ScalarNode && v.Tag == "!!bool" && strings.EqualFold(v.Value, "true") {
			break
		}
		if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
			err = r.Errf(v, "%s: want true, or the name of the step or phase being ended, got %s", w, strict.KindName(v))
			break
		}
		c.Step, err = r.Word(v, w)
	}
	return c, err
}

func orNothing(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, " and ")
}

// need reads a mapping whose fields are exactly the given ones.
func need(r strict.Reader, n *yaml.Node, where string, fields ...string) (map[string]*yaml.Node, error) {
	f, err := r.Fields(n, where, fields...)
	if err != nil {
		return nil, err
	}
	if err := r.Require(f, n, where, fields...); err != nil {
		return nil, err
	}
	return f, nil
}

// words reads one id or a list of them.
func words(r strict.Reader, n *yaml.Node, where string) ([]string, error) {
	if n.Kind == yaml.ScalarNode {
		w, err := r.ID(n, where)
		return []string{w}, err
	}
	items, err := r.List(n, where)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, r.Errf(n, "%s: the list is empty", where)
	}
	out := make([]string, len(items))
	named := make(map[string]bool, len(items))
	for i, it := range items {
		if out[i], err = r.ID(it, fmt.Sprintf("%s[%d]", where, i)); err != nil {
			return nil, err
		}
		if named[out[i]] {
			return nil, r.Errf(it, "%s[%d]: %s is named twice; name each once", where, i, out[i])
		}
		named[out[i]] = true
	}
	return out, nil
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
	if w.For, err = words(r, f["for"], where+".for"); err != nil {
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

func readMoves(r strict.Reader, n *yaml.Node, where string) ([]Move, error) {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
		if len(items) == 0 {
			return nil, r.Errf(n, "%s: the list of moves is empty", where)
		}
	}
	var out []Move
	moved := make(map[string]bool, len(items))
	for i, it := range items {
		w := where
		if n.Kind == yaml.SequenceNode {
			w = fmt.Sprintf("%s[%d]", where, i)
		}
		f, err := r.Fields(it, w, "unit", "general", "to", "formation", "facing")
		if err != nil {
			return nil, err
		}
		var m Move
		switch {
		case f["unit"] != nil && f["general"] == nil:
			m.Unit, err = r.ID(f["unit"], w+".unit")
		case f["general"] != nil && f["unit"] == nil:
			m.General, err = r.ID(f["general"], w+".general")
			if err == nil && (f["formation"] != nil || f["facing"] != nil) {
				err = r.Errf(it, "%s: a general has no formation or facing; move him with general and to", w)
			}
		default:
			err = r.Errf(it, "%s: give either unit or general", w)
		}
		if err != nil {
			return nil, err
		}
		if f["to"] == nil {
			return nil, r.Errf(it, "%s: to is missing: where the piece goes, [x, y]", w)
		}
		if m.To, err = battle.Position(r, f["to"], w+".to"); err != nil {
			return nil, err
		}
		if f["formation"] != nil {
			if m.Shape, err = r.Word(f["formation"], w+".formation"); err != nil {
				return nil, err
			}
		}
		if f["facing"] != nil {
			v, err := battle.Number(r, f["facing"], w+".facing")
			if err != nil {
				return nil, err
			}
			if v < 0 || v >= 360 {
				return nil, r.Errf(f["facing"], "%s.facing: %v is out of range; allowed: 0 up to 360 degrees", w, v)
			}
			m.Facing = &v
		}
		if moved[m.ID()] {
			return nil, r.Errf(it, "%s: %s is moved twice in one command; give each piece one move", w, m.ID())
		}
		moved[m.ID()] = true
		out = append(out, m)
	}
	return out, nil
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
