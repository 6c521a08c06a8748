package lob

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/strict"
)

// verbs are LOB's commands, besides the engine's ready and end.
var verbs = []string{"issue", "release", "initiative", "skedaddle", "condition", "designate", "post", "aware", "futile", "fulfil", "move", "form", "loss", "enter"}

// Verbs lists LOB's commands.
func (r *Rules) Verbs() []string { return slices.Clone(verbs) }

// Bounds of what a command may give.
const (
	MaxPath = 200 // hexes of a path
	MaxWith = 8   // artillery battalions embedded in one order
	MaxNote = 200 // characters of a note or condition
)

// Args are the arguments of an LOB command; the verb says which it uses.
// Hexes are the map's labels, read against the map when the command is
// carried out.
type Args struct {
	From      string   `json:"from,omitempty"` // issue: the issuing leader (the army commander when left out)
	To        string   `json:"to,omitempty"`   // issue: the Command (or hq); move: the hex; enter: the road hex
	Kind      string   `json:"order,omitempty"`
	Objective string   `json:"objective,omitempty"`
	Note      string   `json:"note,omitempty"`
	Condition string   `json:"condition,omitempty"`
	Reserve   string   `json:"reserve,omitempty"`
	With      []string `json:"with,omitempty"`
	Formation string   `json:"formation,omitempty"`
	By        string   `json:"by,omitempty"`
	Leader    string   `json:"leader,omitempty"`
	Purpose   string   `json:"purpose,omitempty"`
	Order     string   `json:"order-id,omitempty"`
	Side      string   `json:"side,omitempty"`
	Unit      string   `json:"unit,omitempty"`
	HQ        string   `json:"hq,omitempty"` // move: a Command's HQ
	Army      bool     `json:"army-hq,omitempty"`
	Path      []string `json:"path,omitempty"`
	Shape     string   `json:"formation-of,omitempty"`
	Points    int      `json:"points,omitempty"`
	verb      string   // the command read, for a forecast
}

// Size is how many ids and hexes the arguments name (game.Sizer).
func (a *Args) Size() int { return len(a.Path) + len(a.With) + 1 }

// Decode reads the arguments of an LOB command from YAML or JSON, e.g.
// issue {to: II-corps, order: attack, objective: "0712"}.
func (r *Rules) Decode(verb string, rd strict.Reader, v *yaml.Node, w string) (any, error) {
	a := &Args{verb: verb}
	var err error
	switch verb {
	case "issue":
		err = readIssue(rd, v, w, a)
	case "release":
		err = readRelease(rd, v, w, a)
	case "initiative":
		err = readInitiative(rd, v, w, a)
	case "skedaddle", "futile", "fulfil":
		err = readID(rd, v, w, "formation", &a.Formation)
	case "condition":
		err = readID(rd, v, w, "order", &a.Order)
	case "designate":
		err = readDesignate(rd, v, w, a)
	case "aware":
		err = readAware(rd, v, w, a)
	case "enter":
		err = readEnter(rd, v, w, a)
	case "move", "post":
		err = readMove(rd, v, w, a, verb == "post")
	case "form":
		err = readForm(rd, v, w, a)
	case "loss":
		err = readLoss(rd, v, w, a)
	default:
		return nil, rd.Errf(v, "%s: lob has no command %s; allowed: %s", w, strict.Quote(verb, 40), strings.Join(verbs, ", "))
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// readID reads a command whose one argument is the id under key, given as
// a mapping or bare (skedaddle: II-corps), into dst.
func readID(rd strict.Reader, v *yaml.Node, w, key string, dst *string) error {
	f, err := fields(rd, v, w, key, key)
	if err != nil {
		return err
	}
	*dst, err = rd.ID(f[key], w+"."+key)
	return err
}

// readRelease reads a release: the formation, and optionally the leader
// who orders it (by).
func readRelease(rd strict.Reader, v *yaml.Node, w string, a *Args) error {
	f, err := fields(rd, v, w, "formation", "formation", "by")
	if err != nil {
		return err
	}
	if a.Formation, err = rd.ID(f["formation"], w+".formation"); err != nil {
		return err
	}
	if f["by"] != nil {
		a.By, err = rd.ID(f["by"], w+".by")
	}
	return err
}

// readInitiative reads an initiative roll: the leader, the purpose, the
// formation, and with, the Command an artillery battalion is associated
// with, which associate-artillery needs.
func readInitiative(rd strict.Reader, v *yaml.Node, w string, a *Args) error {
	f, err := rd.Fields(v, w, "leader", "purpose", "formation", "with")
	if err != nil {
		return err
	}
	if err := rd.Require(f, v, w, "leader", "purpose", "formation"); err != nil {
		return err
	}
	if a.Leader, err = rd.ID(f["leader"], w+".leader"); err != nil {
		return err
	}
	if a.Purpose, err = word(rd, f["purpose"], w+".purpose", Purposes, "a purpose of initiative"); err != nil {
		return err
	}
	if a.Formation, err = rd.ID(f["formation"], w+".formation"); err != nil {
		return err
	}
	if f["with"] != nil {
		a.With = []string{""}
		if a.With[0], err = rd.ID(f["with"], w+".with"); err != nil {
			return err
		}
	}
	if a.Purpose == "associate-artillery" && len(a.With) == 0 {
		return rd.Errf(v, "%s: with is missing: the Command the battalion is associated with", w)
	}
	return nil
}

// readDesignate reads the reserve a corps leader names for an order: the
// order and the formation.
func readDesignate(rd strict.Reader, v *yaml.Node, w string, a *Args) error {
	f, err := rd.Need(v, w, "order", "formation")
	if err != nil {
		return err
	}
	if a.Order, err = rd.ID(f["order"], w+".order"); err != nil {
		return err
	}
	a.Formation, err = rd.ID(f["formation"], w+".formation")
	return err
}

// readAware reads the umpire making an army commander aware: nothing, or
// the side.
func readAware(rd strict.Reader, v *yaml.Node, w string, a *Args) error {
	if v.Kind == yaml.ScalarNode && (v.Tag == "!!null" || v.Value == "") {
		return nil
	}
	f, err := fields(rd, v, w, "side", "side")
	if err == nil && f["side"] != nil {
		a.Side, err = rd.ID(f["side"], w+".side")
	}
	return err
}

// readEnter reads the umpire naming where a reinforcement enters: the
// formation and the hex (at).
func readEnter(rd strict.Reader, v *yaml.Node, w string, a *Args) error {
	f, err := rd.Need(v, w, "formation", "at")
	if err != nil {
		return err
	}
	if a.Formation, err = rd.ID(f["formation"], w+".formation"); err != nil {
		return err
	}
	a.To, err = rd.Hex(f["at"], w+".at")
	return err
}

// readForm reads a change of formation: the unit and its formation.
func readForm(rd strict.Reader, v *yaml.Node, w string, a *Args) error {
	f, err := rd.Need(v, w, "unit", "formation")
	if err != nil {
		return err
	}
	if a.Unit, err = rd.ID(f["unit"], w+".unit"); err != nil {
		return err
	}
	a.Shape, err = word(rd, f["formation"], w+".formation", Shapes, "a formation")
	return err
}

// readLoss reads a loss: the unit and its strength points lost, 1 to 99.
func readLoss(rd strict.Reader, v *yaml.Node, w string, a *Args) error {
	f, err := rd.Need(v, w, "unit", "points")
	if err != nil {
		return err
	}
	if a.Unit, err = rd.ID(f["unit"], w+".unit"); err != nil {
		return err
	}
	if a.Points, err = rd.Int(f["points"], w+".points"); err != nil {
		return err
	}
	if a.Points < 1 || a.Points > 99 {
		return rd.Errf(f["points"], "%s.points: a unit loses 1..99 strength points, not %d", w, a.Points)
	}
	return nil
}

// fields reads a mapping of the allowed keys, or a bare id standing for
// key short (skedaddle: II-corps); want lists the keys it needs.
func fields(rd strict.Reader, v *yaml.Node, w, short string, allowed ...string) (map[string]*yaml.Node, error) {
	if v.Kind == yaml.ScalarNode && short != "" {
		return map[string]*yaml.Node{short: v}, nil
	}
	f, err := rd.Fields(v, w, allowed...)
	if err != nil {
		return nil, err
	}
	if short != "" {
		if err := rd.Require(f, v, w, short); err != nil {
			return nil, err
		}
	}
	return f, nil
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

// text reads free text of at most MaxNote characters.
func text(rd strict.Reader, n *yaml.Node, w string) (string, error) {
	s, err := rd.Str(n, w)
	if err != nil {
		return "", err
	}
	if len(s) > MaxNote {
		return "", rd.Errf(n, "%s: at most %d characters, got %d", w, MaxNote, len(s))
	}
	return s, nil
}

func readIssue(rd strict.Reader, v *yaml.Node, w string, a *Args) error {
	f, err := rd.Fields(v, w, "from", "to", "order", "objective", "note", "condition", "reserve", "with")
	if err != nil {
		return err
	}
	if err := rd.Require(f, v, w, "to"); err != nil {
		return err
	}
	if n := f["from"]; n != nil {
		if a.From, err = rd.ID(n, w+".from"); err != nil {
			return err
		}
	}
	if a.To, err = rd.ID(f["to"], w+".to"); err != nil {
		return err
	}
	if n := f["order"]; n != nil {
		if a.Kind, err = word(rd, n, w+".order", Orders, "a kind of order"); err != nil {
			return err
		}
	} else if a.To != "hq" && a.To != "army-hq" {
		return rd.Errf(v, "%s: order is missing: the kind of order, one of %s", w, strings.Join(Orders, ", "))
	}
	if n := f["objective"]; n != nil {
		if a.Objective, err = rd.Hex(n, w+".objective"); err != nil {
			return err
		}
	}
	for _, k := range []struct {
		key string
		p   *string
	}{{"note", &a.Note}, {"condition", &a.Condition}} {
		if n := f[k.key]; n != nil {
			if *k.p, err = text(rd, n, w+"."+k.key); err != nil {
				return err
			}
		}
	}
	if n := f["reserve"]; n != nil {
		if a.Reserve, err = rd.ID(n, w+".reserve"); err != nil {
			return err
		}
	}
	if n := f["with"]; n != nil {
		if a.With, err = rd.IDs(n, w+".with", MaxWith); err != nil {
			return err
		}
	}
	return nil
}

func readMove(rd strict.Reader, v *yaml.Node, w string, a *Args, post bool) error {
	keys := []string{"unit", "leader", "hq", "army-hq", "to", "path"}
	if post {
		keys = []string{"unit", "to", "path"}
	}
	f, err := rd.Fields(v, w, keys...)
	if err != nil {
		return err
	}
	given := 0
	for _, k := range []string{"unit", "leader", "hq", "army-hq"} {
		if f[k] != nil {
			given++
		}
	}
	switch {
	case given > 1:
		return rd.Errf(v, "%s: give one of unit, leader, hq or army-hq", w)
	case f["army-hq"] != nil:
		if a.Army, err = rd.Bool(f["army-hq"], w+".army-hq"); err == nil && !a.Army {
			err = rd.Errf(f["army-hq"], "%s.army-hq: army-hq: true moves the army HQ; leave it out otherwise", w)
		}
	case f["unit"] != nil:
		a.Unit, err = rd.ID(f["unit"], w+".unit")
	case f["leader"] != nil:
		a.Leader, err = rd.ID(f["leader"], w+".leader")
	case f["hq"] != nil:
		a.HQ, err = rd.ID(f["hq"], w+".hq")
	default:
		if post {
			return rd.Errf(v, "%s: unit is missing: the battery to post", w)
		}
		return rd.Errf(v, "%s: unit is missing: the combat unit that moves (or leader, hq: a Command's HQ, army-hq: true)", w)
	}
	if err != nil {
		return err
	}
	if a.To, a.Path, err = rd.Route(v, f["to"], f["path"], w, MaxPath); err != nil {
		return err
	}
	return nil
}
