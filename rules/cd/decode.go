package cd

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/geom"
	"orderly/strict"
)

// Verbs lists CD's commands.
func (r *Rules) Verbs() []string { return slices.Clone(verbs) }

// maxIDs bounds the ids one command may name.
const maxIDs = 60

// Args are the arguments of a CD command; the verb says which it uses.
type Args struct {
	Unit     string   `json:"unit,omitempty"`
	Units    []string `json:"units,omitempty"`
	Division string   `json:"division,omitempty"`
	General  string   `json:"general,omitempty"`
	// Vacate declares that the activation leaves cover (-2, CD-1).
	Vacate   bool        `json:"vacate,omitempty"`
	To       *geom.Point `json:"to,omitempty"`
	Facing   *float64    `json:"facing,omitempty"`
	Shape    string      `json:"formation,omitempty"`
	Mode     string      `json:"mode,omitempty"`     // an artillery mode (cd/artillery-movement)
	Through  string      `json:"through,omitempty"`  // a passage of lines (CD-7)
	Charge   bool        `json:"charge,omitempty"`   // a cavalry charge: the rate and its charge inches (CD-2)
	Relieved string      `json:"relieved,omitempty"` // the front-line unit (CD-7)

	Shaken     *bool `json:"shaken,omitempty"`
	Disordered *bool `json:"disordered,omitempty"`
	Smoke      *bool `json:"smoke,omitempty"`
	Casualties *int  `json:"casualties,omitempty"`
	CW         *int  `json:"cw,omitempty"`
}

// Size is how many ids the arguments name (game.Sizer).
func (a *Args) Size() int {
	n := len(a.Units)
	for _, s := range []string{a.Unit, a.Division, a.General, a.Through, a.Relieved} {
		if s != "" {
			n++
		}
	}
	return n
}

// Decode reads the arguments of a CD command from YAML or JSON, e.g. for
// activate {units: [u1, u2]} or move {unit: u1, to: [12, 30]}.
func (r *Rules) Decode(verb string, rd strict.Reader, v *yaml.Node, w string) (any, error) {
	a := &Args{}
	var err error
	switch verb {
	case "activate":
		err = readActivate(rd, v, w, a)
	case "move", "retire", "recall":
		err = r.readMove(rd, v, w, a, verb)
	case "relieve":
		var f map[string]*yaml.Node
		if f, err = rd.Need(v, w, "unit", "relieved"); err == nil {
			if a.Unit, err = rd.ID(f["unit"], w+".unit"); err == nil {
				a.Relieved, err = rd.ID(f["relieved"], w+".relieved")
			}
		}
	case "screen":
		var f map[string]*yaml.Node
		if f, err = rd.Need(v, w, "unit"); err == nil {
			a.Unit, err = rd.ID(f["unit"], w+".unit")
		}
	case "lose":
		var f map[string]*yaml.Node
		if f, err = rd.Need(v, w, "general"); err == nil {
			a.General, err = rd.ID(f["general"], w+".general")
		}
	case "mark":
		err = readMark(rd, v, w, a)
	default:
		return nil, rd.Errf(v, "%s: cd has no command %s; allowed: %s", w, strict.Quote(verb, 40), strings.Join(verbs, ", "))
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

func readActivate(rd strict.Reader, n *yaml.Node, w string, a *Args) error {
	f, err := rd.Fields(n, w, "unit", "units", "division", "vacate")
	if err != nil {
		return err
	}
	if f["unit"] != nil {
		if f["units"] != nil || f["division"] != nil {
			return rd.Errf(n, "%s: give unit, units (a brigade group) or division (with units if not all of it)", w)
		}
		if a.Unit, err = rd.ID(f["unit"], w+".unit"); err != nil {
			return err
		}
	}
	if f["units"] != nil {
		if a.Units, err = rd.IDs(f["units"], w+".units", maxIDs); err != nil {
			return err
		}
		if len(a.Units) == 0 {
			return rd.Errf(f["units"], "%s.units: name at least one unit", w)
		}
	}
	if f["division"] != nil {
		if a.Division, err = rd.ID(f["division"], w+".division"); err != nil {
			return err
		}
	}
	if a.Unit == "" && len(a.Units) == 0 && a.Division == "" {
		return rd.Errf(n, "%s: give unit, units (a brigade group) or division: what activates", w)
	}
	if f["vacate"] != nil {
		a.Vacate, err = rd.Bool(f["vacate"], w+".vacate")
	}
	return err
}

func (r *Rules) readMove(rd strict.Reader, n *yaml.Node, w string, a *Args, verb string) error {
	allowed := []string{"unit", "to", "facing", "formation", "mode", "through", "charge"}
	if verb != "move" {
		allowed = []string{"unit", "to", "facing"}
	}
	f, err := rd.Fields(n, w, allowed...)
	if err != nil {
		return err
	}
	if err := rd.Require(f, n, w, "unit"); err != nil {
		return err
	}
	if a.Unit, err = rd.ID(f["unit"], w+".unit"); err != nil {
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
		if all := append(slices.Clone(Foot), Guns...); !slices.Contains(all, a.Shape) {
			return rd.Errf(f["formation"], "%s.formation: %s is not a formation; allowed: %s", w, strict.Quote(a.Shape, 40), strings.Join(all, ", "))
		}
	}
	if f["mode"] != nil {
		if a.Mode, err = rd.Word(f["mode"], w+".mode"); err != nil {
			return err
		}
		if a.Mode != "limber-move-unlimber-fire" && a.Mode != "prolonge" {
			return rd.Errf(f["mode"], "%s.mode: %s is not a mode to name; allowed: prolonge, limber-move-unlimber-fire (the others follow from the formations)", w, strict.Quote(a.Mode, 40))
		}
	}
	if f["through"] != nil {
		if a.Through, err = rd.ID(f["through"], w+".through"); err != nil {
			return err
		}
	}
	if f["charge"] != nil {
		if a.Charge, err = rd.Bool(f["charge"], w+".charge"); err != nil {
			return err
		}
		if a.Charge && a.To == nil {
			return rd.Errf(f["charge"], "%s: a charge goes somewhere: give to", w)
		}
	}
	if verb != "retire" && a.To == nil && (verb == "recall" || a.Facing == nil && a.Shape == "") {
		if verb == "recall" {
			return rd.Errf(n, "%s: to is missing: where at the division's rear the unit comes back, [x, y]", w)
		}
		return rd.Errf(n, "%s: give to, facing or formation: where the unit goes or how it changes", w)
	}
	if verb == "retire" && a.To == nil {
		return rd.Errf(n, "%s: to is missing: where the unit retires to, [x, y]", w)
	}
	return nil
}

func readMark(rd strict.Reader, n *yaml.Node, w string, a *Args) error {
	f, err := rd.Fields(n, w, "unit", "shaken", "disordered", "smoke", "casualties", "cw")
	if err != nil {
		return err
	}
	if err := rd.Require(f, n, w, "unit"); err != nil {
		return err
	}
	if a.Unit, err = rd.ID(f["unit"], w+".unit"); err != nil {
		return err
	}
	for _, kd := range []struct {
		k   string
		dst **bool
	}{{"shaken", &a.Shaken}, {"disordered", &a.Disordered}, {"smoke", &a.Smoke}} {
		k, dst := kd.k, kd.dst
		if f[k] != nil {
			b, err := rd.Bool(f[k], w+"."+k)
			if err != nil {
				return err
			}
			*dst = &b
		}
	}
	for _, kl := range []struct {
		k   string
		lim int
	}{{"casualties", 9999}, {"cw", 30}} {
		k, lim := kl.k, kl.lim
		if f[k] == nil {
			continue
		}
		v, err := rd.Int(f[k], w+"."+k)
		if err != nil {
			return err
		}
		if v < 0 || v > lim {
			return rd.Errf(f[k], "%s.%s: %d is out of range; allowed: 0..%d", w, k, v, lim)
		}
		if k == "cw" {
			a.CW = &v
		} else {
			a.Casualties = &v
		}
	}
	if a.Shaken == nil && a.Disordered == nil && a.Smoke == nil && a.Casualties == nil && a.CW == nil {
		return rd.Errf(n, "%s: give what to mark: shaken, disordered, smoke, casualties or cw", w)
	}
	return nil
}
