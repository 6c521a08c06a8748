package bp

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/geom"
	"orderly/strict"
)

// verbs are BP's commands, besides the engine's ready and end.
var verbs = []string{"initiative", "order", "move", "charge", "respond", "traverse", "shoot", "fight"}

// Verbs lists BP's commands.
func (r *Rules) Verbs() []string { return slices.Clone(verbs) }

// Responses are the replies to a charge (BP-4).
var Responses = []string{"stand", "closing-fire", "evade", "counter-charge", "turn-and-face"}

// maxIDs bounds the ids one command may name.
const maxIDs = 50

// Args are the arguments of a BP command; the verb says which it uses.
type Args struct {
	Unit     string      `json:"unit,omitempty"`
	General  string      `json:"general,omitempty"`
	Brigade  string      `json:"brigade,omitempty"`
	Units    []string    `json:"units,omitempty"`
	Kind     string      `json:"kind,omitempty"`
	Modifier int         `json:"modifier,omitempty"`
	To       *geom.Point `json:"to,omitempty"`
	Facing   *float64    `json:"facing,omitempty"`
	Shape    string      `json:"formation,omitempty"`
	Target   string      `json:"target,omitempty"`
	Response string      `json:"response,omitempty"`
	// Cover lists enemy units the shooter's player declares not clear
	// (in cover, partly hidden): the shooter may pass over them (BP-5).
	Cover []string `json:"cover,omitempty"`
}

// Size is how many ids the arguments name (game.Sizer).
func (a *Args) Size() int {
	n := len(a.Units) + len(a.Cover)
	for _, s := range []string{a.Unit, a.General, a.Brigade, a.Target} {
		if s != "" {
			n++
		}
	}
	return n
}

// Decode reads the arguments of a BP command from YAML or JSON, e.g. for
// order {brigade: b1, units: [u1, u2], kind: advance}.
func (r *Rules) Decode(verb string, rd strict.Reader, v *yaml.Node, w string) (any, error) {
	a := &Args{}
	var err error
	switch verb {
	case "initiative", "fight", "traverse":
		// traverse: the unit that gives traversing fire, or pass.
		a.Unit, err = rd.ID(v, w)
	case "respond":
		a.Response, err = rd.Word(v, w)
		if err == nil && !slices.Contains(Responses, a.Response) {
			err = rd.Errf(v, "%s: %s is not a reply to a charge; allowed: %s", w, strict.Quote(a.Response, 40), strings.Join(Responses, ", "))
		}
	case "order":
		err = r.readOrder(rd, v, w, a)
	case "move":
		err = readMove(rd, v, w, a)
	case "charge":
		var f map[string]*yaml.Node
		if f, err = rd.Need(v, w, "unit", "target"); err == nil {
			if a.Unit, err = rd.ID(f["unit"], w+".unit"); err == nil {
				a.Target, err = rd.ID(f["target"], w+".target")
			}
		}
	case "shoot":
		err = readShoot(rd, v, w, a)
	default:
		return nil, rd.Errf(v, "%s: bp has no command %s; allowed: %s", w, strict.Quote(verb, 40), strings.Join(verbs, ", "))
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// modifier reads a declared modifier, within Declared (-3..3), the
// bounds the board gives the page.
func modifier(r strict.Reader, n *yaml.Node, where string) (int, error) {
	m, err := r.Int(n, where)
	if err == nil && (m < Declared.Min || m > Declared.Max) {
		err = r.Errf(n, "%s: %d is out of range; allowed: %d..%d", where, m, Declared.Min, Declared.Max)
	}
	return m, err
}

func (r *Rules) readOrder(rd strict.Reader, n *yaml.Node, w string, a *Args) error {
	f, err := rd.Fields(n, w, "brigade", "units", "kind", "modifier")
	if err != nil {
		return err
	}
	if err := rd.Require(f, n, w, "brigade", "units", "kind"); err != nil {
		return err
	}
	if a.Brigade, err = rd.ID(f["brigade"], w+".brigade"); err != nil {
		return err
	}
	if a.Units, err = rd.IDs(f["units"], w+".units", maxIDs); err != nil {
		return err
	}
	if a.Kind, err = rd.Word(f["kind"], w+".kind"); err != nil {
		return err
	}
	if !slices.Contains(r.orders, a.Kind) {
		return rd.Errf(f["kind"], "%s.kind: %s is not an order; allowed: %s", w, strict.Quote(a.Kind, 40), strings.Join(r.orders, ", "))
	}
	if f["modifier"] != nil {
		a.Modifier, err = modifier(rd, f["modifier"], w+".modifier")
	}
	return err
}

func readMove(rd strict.Reader, n *yaml.Node, w string, a *Args) error {
	f, err := rd.Fields(n, w, "unit", "general", "to", "facing", "formation")
	if err != nil {
		return err
	}
	switch {
	case f["unit"] != nil && f["general"] == nil:
		a.Unit, err = rd.ID(f["unit"], w+".unit")
	case f["general"] != nil && f["unit"] == nil:
		a.General, err = rd.ID(f["general"], w+".general")
		if err == nil && (f["formation"] != nil || f["facing"] != nil) {
			err = rd.Errf(n, "%s: a commander has no formation or facing; move him with general and to", w)
		}
	default:
		err = rd.Errf(n, "%s: give either unit or general", w)
	}
	if err != nil {
		return err
	}
	if f["to"] != nil {
		p, err := battle.Position(rd, f["to"], w+".to")
		if err != nil {
			return err
		}
		a.To = &p
	}
	if f["facing"] != nil {
		v, err := battle.Facing(rd, f["facing"], w+".facing")
		if err != nil {
			return err
		}
		a.Facing = &v
	}
	if f["formation"] != nil {
		if a.Shape, err = rd.Word(f["formation"], w+".formation"); err != nil {
			return err
		}
	}
	if a.To == nil && a.Facing == nil && a.Shape == "" {
		return rd.Errf(n, "%s: give to, facing or formation: where the piece goes or how it changes", w)
	}
	if a.General != "" && a.To == nil {
		return rd.Errf(n, "%s: to is missing: where the commander goes, [x, y]", w)
	}
	return nil
}

func readShoot(rd strict.Reader, n *yaml.Node, w string, a *Args) error {
	f, err := rd.Fields(n, w, "unit", "target", "cover", "modifier")
	if err != nil {
		return err
	}
	if err := rd.Require(f, n, w, "unit", "target"); err != nil {
		return err
	}
	if a.Unit, err = rd.ID(f["unit"], w+".unit"); err != nil {
		return err
	}
	if a.Target, err = rd.ID(f["target"], w+".target"); err != nil {
		return err
	}
	if f["cover"] != nil {
		if a.Cover, err = rd.IDs(f["cover"], w+".cover", maxIDs); err != nil {
			return err
		}
	}
	if f["modifier"] != nil {
		a.Modifier, err = modifier(rd, f["modifier"], w+".modifier")
	}
	return err
}
