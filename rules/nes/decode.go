package nes

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/strict"
)

// verbs are NES's commands, besides the engine's ready and end.
// sight is a question a page asks (what a line of sight meets), never
// a command of a step: the engine refuses it as one.
var verbs = []string{"send", "cp", "move", "form", "retire", "loss", "bombard", "charge", "sight"}

// Verbs lists NES's commands.
func (r *Rules) Verbs() []string { return slices.Clone(verbs) }

// Situations are how a hex loses strength (NES-4).
var Situations = []string{"fire-maximum", "fire-medium", "fire-minimum", "fire-extended", "shock"}

// MaxPath bounds the hexes of a path a command may give.
const MaxPath = 200

// Args are the arguments of an NES command; the verb says which it uses.
// Hexes are written as the map's labels (0412) and read against the map
// when the command is carried out.
type Args struct {
	From      string   `json:"from,omitempty"` // send: the sender
	To        string   `json:"to,omitempty"`   // send: the receiver; move: the hex
	Kind      string   `json:"order,omitempty"`
	Objective string   `json:"objective,omitempty"`
	Note      string   `json:"note,omitempty"`
	Urgent    bool     `json:"urgent,omitempty"`
	General   string   `json:"general,omitempty"` // cp; move of a command unit
	Unit      string   `json:"unit,omitempty"`
	Path      []string `json:"path,omitempty"`
	GT        bool     `json:"grand-tactical,omitempty"`
	HQ        bool     `json:"hq,omitempty"`       // move: the side's headquarters
	Disorder  bool     `json:"disorder,omitempty"` // cross streams at +1 and disorder
	Shape     string   `json:"formation,omitempty"`
	Points    int      `json:"points,omitempty"`
	Situation string   `json:"situation,omitempty"`
	Target    string   `json:"target,omitempty"`
	Sight     bool     `json:"sight,omitempty"` // sight: From and To are hexes

	verb string // the verb the arguments were read for, when Decode read them
}

// Size is how many ids and hexes the arguments name (game.Sizer).
func (a *Args) Size() int {
	n := len(a.Path)
	for _, s := range []string{a.From, a.To, a.General, a.Unit, a.Target} {
		if s != "" {
			n++
		}
	}
	return n
}

// Decode reads the arguments of an NES command from YAML or JSON, e.g.
// send {from: davout, to: friant, order: attack, objective: "0412"}.
func (r *Rules) Decode(verb string, rd strict.Reader, v *yaml.Node, w string) (any, error) {
	a := &Args{}
	var err error
	switch verb {
	case "cp", "retire":
		a.General, err = rd.ID(v, w)
	case "send":
		err = readSend(rd, v, w, a)
	case "sight":
		var f map[string]*yaml.Node
		if f, err = rd.Need(v, w, "from", "to"); err == nil {
			a.Sight = true
			if a.From, err = rd.Hex(f["from"], w+".from"); err == nil {
				a.To, err = rd.Hex(f["to"], w+".to")
			}
		}
	case "move":
		err = readMove(rd, v, w, a)
	case "form":
		var f map[string]*yaml.Node
		if f, err = rd.Need(v, w, "unit", "formation"); err == nil {
			if a.Unit, err = rd.ID(f["unit"], w+".unit"); err == nil {
				a.Shape, err = word(rd, f["formation"], w+".formation", Shapes, "a formation")
			}
		}
	case "loss":
		var f map[string]*yaml.Node
		if f, err = rd.Need(v, w, "unit", "points", "situation"); err == nil {
			if a.Unit, err = rd.ID(f["unit"], w+".unit"); err == nil {
				if a.Points, err = rd.Int(f["points"], w+".points"); err == nil && (a.Points < 1 || a.Points > 99) {
					err = rd.Errf(f["points"], "%s.points: a unit loses 1..99 strength points, not %d", w, a.Points)
				}
			}
			if err == nil {
				a.Situation, err = word(rd, f["situation"], w+".situation", Situations, "a combat situation")
			}
		}
	case "bombard", "charge":
		var f map[string]*yaml.Node
		if f, err = rd.Need(v, w, "unit", "target"); err == nil {
			if a.Unit, err = rd.ID(f["unit"], w+".unit"); err == nil {
				a.Target, err = rd.Hex(f["target"], w+".target")
			}
		}
	default:
		return nil, rd.Errf(v, "%s: nes has no command %s; allowed: %s", w, strict.Quote(verb, 40), strings.Join(verbs, ", "))
	}
	if err != nil {
		return nil, err
	}
	a.verb = verb
	return a, nil
}

// word reads one of a list of words.
func word(rd strict.Reader, n *yaml.Node, w string, allowed []string, what string) (string, error) {
	s, err := rd.Word(n, w)
	if err != nil {
		return "", err
	}
	if !slices.Contains(allowed, s) {
		return "", rd.Errf(n, "%s: %s is not %s; allowed: %s", w, strict.Quote(s, 40), what, strings.Join(allowed, ", "))
	}
	return s, nil
}

func readSend(rd strict.Reader, v *yaml.Node, w string, a *Args) error {
	f, err := rd.Fields(v, w, "from", "to", "order", "objective", "note", "urgent")
	if err != nil {
		return err
	}
	if err := rd.Require(f, v, w, "from", "to", "order"); err != nil {
		return err
	}
	if a.From, err = rd.ID(f["from"], w+".from"); err != nil {
		return err
	}
	if a.To, err = rd.ID(f["to"], w+".to"); err != nil {
		return err
	}
	if a.Kind, err = word(rd, f["order"], w+".order", Orders, "a kind of order"); err != nil {
		return err
	}
	if n := f["objective"]; n != nil {
		if a.Objective, err = rd.Hex(n, w+".objective"); err != nil {
			return err
		}
	}
	if n := f["note"]; n != nil {
		if a.Note, err = rd.Str(n, w+".note"); err != nil {
			return err
		}
		if len(a.Note) > 200 {
			return rd.Errf(n, "%s.note: a note has at most 200 characters, got %d", w, len(a.Note))
		}
	}
	if n := f["urgent"]; n != nil {
		if a.Urgent, err = rd.Bool(n, w+".urgent"); err != nil {
			return err
		}
	}
	return nil
}

func readMove(rd strict.Reader, v *yaml.Node, w string, a *Args) error {
	f, err := rd.Fields(v, w, "unit", "general", "hq", "to", "path", "grand-tactical", "disorder")
	if err != nil {
		return err
	}
	given := 0
	for _, k := range []string{"unit", "general", "hq"} {
		if f[k] != nil {
			given++
		}
	}
	switch {
	case given > 1:
		return rd.Errf(v, "%s: give one of unit, general or hq", w)
	case f["hq"] != nil:
		if a.HQ, err = rd.Bool(f["hq"], w+".hq"); err == nil && !a.HQ {
			err = rd.Errf(f["hq"], "%s.hq: hq: true moves the army's headquarters; leave it out otherwise", w)
		}
	case f["unit"] != nil:
		a.Unit, err = rd.ID(f["unit"], w+".unit")
	case f["general"] != nil:
		a.General, err = rd.ID(f["general"], w+".general")
	default:
		return rd.Errf(v, "%s: unit is missing: the combat unit (or general: the command unit, or hq: true, the headquarters) that moves", w)
	}
	if err != nil {
		return err
	}
	if a.To, a.Path, err = rd.Route(v, f["to"], f["path"], w, MaxPath); err != nil {
		return err
	}
	for _, k := range []struct {
		key string
		p   *bool
	}{{"grand-tactical", &a.GT}, {"disorder", &a.Disorder}} {
		if n := f[k.key]; n != nil {
			if *k.p, err = rd.Bool(n, w+"."+k.key); err != nil {
				return err
			}
		}
	}
	return nil
}
