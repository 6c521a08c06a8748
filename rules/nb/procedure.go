package nb

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/game"
	"orderly/strict"
)

//go:embed procedure.yaml
var procedureYAML []byte

// procedure is the data of procedure.yaml.
type procedure struct {
	seq          game.Cycle
	anytime      []string
	orders       []string
	newOrders    []string
	attackShapes []string // the formations an attack order allows until engaged (NB-7)
	engagement   float64
	precision    float64 // a distance this close to a limit meets it (NB-3 a ride, NB-16 a move)
	reserveDepth float64
	entryLead    int
	entryRadius  float64
	entryClear   float64
}

var steps = []string{"arrival", "write", "read", "command", "activate", "messengers", "enter", "move", "end-of-movement"}

// readProcedure reads procedure.yaml (file is its name in errors): NB's
// sequence of play and the numbers its procedures use.
func readProcedure(file string, data []byte) (procedure, error) {
	r := strict.Reader{File: file}
	var p procedure
	n, err := r.Parse(data)
	if err != nil {
		return p, err
	}
	fields := []string{"rules", "sequence", "anytime", "orders", "new-orders", "attack-formations", "engagement", "precision", "reserve-depth", "entry"}
	f, err := r.Fields(n, "procedure", fields...)
	if err != nil {
		return p, err
	}
	for _, k := range fields {
		if f[k] == nil {
			return p, r.Errf(n, "procedure: %s is missing", k)
		}
	}
	if p.seq, err = readSequence(r, f["sequence"]); err != nil {
		return p, err
	}
	if err := p.readWords(r, f); err != nil {
		return p, err
	}
	if err := p.readDistances(r, f); err != nil {
		return p, err
	}
	return p, p.readEntry(r, f["entry"])
}

// readSequence reads the sequence of play: its steps in order.
func readSequence(r strict.Reader, n *yaml.Node) (game.Cycle, error) {
	items, err := r.List(n, "sequence")
	if err != nil {
		return nil, err
	}
	var seq game.Cycle
	for i, it := range items {
		s, err := readStep(r, it, fmt.Sprintf("sequence[%d]", i))
		if err != nil {
			return nil, err
		}
		seq = append(seq, s)
	}
	return seq, nil
}

// readStep reads one step of the sequence, at w: its phase, its name (one
// of NB's steps), whether the players act in it, and their verbs.
func readStep(r strict.Reader, it *yaml.Node, w string) (game.Step, error) {
	var s game.Step
	sf, err := r.Fields(it, w, "phase", "step", "player", "verbs")
	if err != nil {
		return s, err
	}
	if sf["phase"] == nil || sf["step"] == nil {
		return s, r.Errf(it, "%s: give phase and step", w)
	}
	if s.Phase, err = r.Word(sf["phase"], w+".phase"); err != nil {
		return s, err
	}
	if s.Name, err = r.Word(sf["step"], w+".step"); err != nil {
		return s, err
	}
	if !slices.Contains(steps, s.Name) {
		return s, r.Errf(sf["step"], "%s.step: nb has no step %q", w, s.Name)
	}
	if sf["player"] != nil {
		player, err := r.Bool(sf["player"], w+".player")
		if err != nil {
			return s, err
		}
		if player {
			s.Actors = []string{game.All} // NB's steps are simultaneous
		}
	}
	if sf["verbs"] != nil {
		if s.Verbs, err = wordList(r, sf["verbs"], w+".verbs"); err != nil {
			return s, err
		}
	}
	return s, nil
}

// readWords reads the lists of words: the verbs taken at any step, which
// every player step gets, the kinds of order, and the formations an attack
// order allows (NB-7).
func (p *procedure) readWords(r strict.Reader, f map[string]*yaml.Node) error {
	var err error
	for k, dst := range map[string]*[]string{"anytime": &p.anytime, "orders": &p.orders, "new-orders": &p.newOrders, "attack-formations": &p.attackShapes} {
		if *dst, err = wordList(r, f[k], k); err != nil {
			return err
		}
	}
	for i, sh := range p.attackShapes {
		if !slices.Contains(shapes, sh) {
			return r.Errf(f["attack-formations"].Content[i], "attack-formations[%d]: %q is not a formation; allowed: %s", i, sh, strings.Join(shapes, ", "))
		}
	}
	// The verbs of every player step include those taken at any.
	for i := range p.seq {
		if p.seq[i].Player() {
			p.seq[i].Verbs = append(p.seq[i].Verbs, p.anytime...)
		}
	}
	return nil
}

// readDistances reads the engagement reach (NB-6), the depth of a reserve
// and the precision of a distance (NB-3, NB-16).
func (p *procedure) readDistances(r strict.Reader, f map[string]*yaml.Node) error {
	ints := map[string]*float64{"engagement": &p.engagement, "reserve-depth": &p.reserveDepth}
	for k, dst := range ints {
		v, err := r.Int(f[k], k)
		if err != nil {
			return err
		}
		*dst = float64(v)
	}
	var err error
	if p.precision, err = battle.Number(r, f["precision"], "precision"); err != nil {
		return err
	}
	if p.precision < 0 || p.precision > 1 {
		return r.Errf(f["precision"], "precision: %v is out of range; allowed: 0 up to 1 inch", p.precision)
	}
	return nil
}

// readEntry reads the numbers of an off-board reserve's entry (NB-10): its
// lead, radius and clearance.
func (p *procedure) readEntry(r strict.Reader, n *yaml.Node) error {
	ef, err := r.Fields(n, "entry", "lead", "radius", "clearance")
	if err != nil {
		return err
	}
	for _, k := range []string{"lead", "radius", "clearance"} {
		if ef[k] == nil {
			return r.Errf(n, "entry: %s is missing", k)
		}
	}
	if p.entryLead, err = r.Int(ef["lead"], "entry.lead"); err != nil {
		return err
	}
	for k, dst := range map[string]*float64{"radius": &p.entryRadius, "clearance": &p.entryClear} {
		v, err := r.Int(ef[k], "entry."+k)
		if err != nil {
			return err
		}
		*dst = float64(v)
	}
	return nil
}

// wordList reads a list of words at where.
func wordList(r strict.Reader, n *yaml.Node, where string) ([]string, error) {
	items, err := r.List(n, where)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, it := range items {
		if out[i], err = r.Word(it, fmt.Sprintf("%s[%d]", where, i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}
