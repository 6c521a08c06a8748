package table

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"orderly/dice"

	"go.yaml.in/yaml/v3"
)

// MaxPool is the most dice a pool table rolls at once.
const MaxPool = 1000

// Pool is a table that rolls a number of dice, passes each through stages
// (to hit, then to save) and counts the dice that come through: the shooting
// and combat dice of BP-5 and BP-6.
type Pool struct {
	Count  string // int parameter giving the number of dice
	Result string // prefix of the result keys, e.g. casualties gives casualties-0..N
	Stages []Stage
}

// Stage is one test that every remaining die takes: it passes when its face
// plus the modifier reaches Need, except for faces that always fail or always
// pass. Keep says which dice go on: those that passed or those that failed.
type Stage struct {
	Name      string
	Need      int
	NeedParam string // int parameter giving Need, instead of Need
	Modifier  string // int parameter added to each face
	FailOn    []int
	PassOn    []int
	RerollIf  string // bool parameter: while true, a failed die is rolled once more
	Keep      string // "pass" or "fail"
	Marks     []Mark
}

// Mark is set on the roll when a die of the stage shows Natural, e.g. a
// natural 6 to hit disorders the target.
type Mark struct {
	Natural int
	Name    string
}

// StageRoll records one stage of a pool roll.
type StageRoll struct {
	Name    string
	Need    int
	Faces   []int // first faces, one per die that took the stage
	Rerolls []int // faces of dice rolled again
	Kept    int   // dice that went on
	Certain bool  // no die could change the outcome, so none was rolled
}

func (r reader) pool(n *yaml.Node, where string) (*Pool, error) {
	f, err := r.Fields(n, where, "count", "result", "stages")
	if err != nil {
		return nil, err
	}
	p := &Pool{}
	for _, k := range []string{"count", "result", "stages"} {
		if _, ok := f[k]; !ok {
			return nil, r.Errf(n, "%s: field %s is missing", where, k)
		}
	}
	if p.Count, err = r.Word(f["count"], where+": count"); err != nil {
		return nil, err
	}
	if p.Result, err = r.Word(f["result"], where+": result"); err != nil {
		return nil, err
	}
	items, err := r.List(f["stages"], where+": stages")
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		sf, err := r.Fields(it, where+": stage", "name", "need", "need-param", "modifier", "fail-on", "pass-on", "reroll-if", "keep", "marks")
		if err != nil {
			return nil, err
		}
		var s Stage
		if v, ok := sf["name"]; ok {
			if s.Name, err = r.Word(v, where+": stage name"); err != nil {
				return nil, err
			}
		}
		w := where + ": stage " + s.Name
		if v, ok := sf["need"]; ok {
			if s.Need, err = r.Int(v, w+": need"); err != nil {
				return nil, err
			}
		}
		for k, dst := range map[string]*string{"need-param": &s.NeedParam, "modifier": &s.Modifier, "reroll-if": &s.RerollIf, "keep": &s.Keep} {
			if v, ok := sf[k]; ok {
				if *dst, err = r.Word(v, w+": "+k); err != nil {
					return nil, err
				}
			}
		}
		if v, ok := sf["fail-on"]; ok {
			if s.FailOn, err = r.Ints(v, w+": fail-on"); err != nil {
				return nil, err
			}
		}
		if v, ok := sf["pass-on"]; ok {
			if s.PassOn, err = r.Ints(v, w+": pass-on"); err != nil {
				return nil, err
			}
		}
		if v, ok := sf["marks"]; ok {
			pairs, err := r.Pairs(v, w+": marks")
			if err != nil {
				return nil, err
			}
			for _, kv := range pairs {
				nat, err := r.Int(kv[0], w+": marks")
				if err != nil {
					return nil, err
				}
				name, err := r.Word(kv[1], w+": mark")
				if err != nil {
					return nil, err
				}
				s.Marks = append(s.Marks, Mark{nat, name})
			}
		}
		p.Stages = append(p.Stages, s)
	}
	return p, nil
}

func (t *Table) checkPool() error {
	p := t.Pool
	if t.Dice.Count != 1 || t.Dice.Plus != 0 {
		return fmt.Errorf("a pool names one die (e.g. 1d6), not %s", t.Dice)
	}
	if len(t.Rows) > 0 || len(t.Naturals) > 0 || len(t.Derived) > 0 {
		return fmt.Errorf("a pool table has no bands, rows, naturals or derived modifiers")
	}
	intParam := func(what, name string) error {
		q := t.Param(name)
		if q == nil || q.Kind != Int {
			return fmt.Errorf("pool %s names %q, which is not an int parameter of this table", what, name)
		}
		return nil
	}
	if err := intParam("count", p.Count); err != nil {
		return err
	}
	if q := t.Param(p.Count); q.Min == nil || *q.Min < 0 {
		return fmt.Errorf("pool count parameter %s needs min 0 or more", p.Count)
	}
	if len(p.Stages) == 0 {
		return fmt.Errorf("a pool needs at least one stage")
	}
	lo, hi := t.Dice.Low(), t.Dice.High()
	for _, s := range p.Stages {
		if s.Name == "" {
			return fmt.Errorf("a pool stage needs a name")
		}
		if (s.Need == 0) == (s.NeedParam == "") {
			return fmt.Errorf("stage %s: give need or need-param, one of them", s.Name)
		}
		if s.NeedParam != "" {
			if err := intParam("stage "+s.Name+" need-param", s.NeedParam); err != nil {
				return err
			}
		}
		if s.Modifier != "" {
			if err := intParam("stage "+s.Name+" modifier", s.Modifier); err != nil {
				return err
			}
		}
		if s.RerollIf != "" {
			if q := t.Param(s.RerollIf); q == nil || q.Kind != Bool {
				return fmt.Errorf("stage %s: reroll-if names %q, which is not a bool parameter of this table", s.Name, s.RerollIf)
			}
		}
		if s.Keep != "pass" && s.Keep != "fail" {
			return fmt.Errorf("stage %s: keep %q is not one of pass, fail", s.Name, s.Keep)
		}
		for _, f := range slices.Concat(s.FailOn, s.PassOn) {
			if f < lo || f > hi {
				return fmt.Errorf("stage %s: face %d is not on a %s (faces %d..%d)", s.Name, f, t.Dice, lo, hi)
			}
		}
		for _, m := range s.Marks {
			if m.Natural < lo || m.Natural > hi {
				return fmt.Errorf("stage %s: mark face %d is not on a %s", s.Name, m.Natural, t.Dice)
			}
		}
	}
	return nil
}

// stageSetup holds a stage's need and modifier for bound parameters.
type stageSetup struct {
	need, mod int
	reroll    bool
}

func (t *Table) poolSetup(a Args) (count int, setups []stageSetup, err error) {
	count = a.vals[a.index(t.Pool.Count)]
	if count > MaxPool {
		return 0, nil, fmt.Errorf("%s: %s=%d is too many dice; allowed at most %d", t.ID, t.Pool.Count, count, MaxPool)
	}
	for _, s := range t.Pool.Stages {
		ss := stageSetup{need: s.Need}
		if s.NeedParam != "" {
			i := a.index(s.NeedParam)
			if !a.set[i] {
				return 0, nil, fmt.Errorf("%s: parameter %s is required", t.ID, s.NeedParam)
			}
			ss.need = a.vals[i]
		}
		if s.Modifier != "" {
			if i := a.index(s.Modifier); a.set[i] {
				ss.mod = a.vals[i]
			}
		}
		ss.reroll = a.isTrue(s.RerollIf)
		setups = append(setups, ss)
	}
	return count, setups, nil
}

func (s *Stage) passes(face int, ss stageSetup) bool {
	switch {
	case slices.Contains(s.FailOn, face):
		return false
	case slices.Contains(s.PassOn, face):
		return true
	}
	return face+ss.mod >= ss.need
}

// perDie is the exact chance num/den that one die comes through every stage.
func (t *Table) perDie(setups []stageSetup) (num, den *big.Int) {
	num, den = big.NewInt(1), big.NewInt(1)
	sides := int64(t.Dice.Sides)
	for i, s := range t.Pool.Stages {
		var pass int64
		for f := t.Dice.Low(); f <= t.Dice.High(); f++ {
			if s.passes(f, setups[i]) {
				pass++
			}
		}
		n, d := pass, sides
		if setups[i].reroll {
			n, d = pass*sides+(sides-pass)*pass, sides*sides
		}
		if s.Keep == "fail" {
			n = d - n
		}
		num.Mul(num, big.NewInt(n))
		den.Mul(den, big.NewInt(d))
	}
	g := new(big.Int).GCD(nil, nil, num, den)
	if g.Sign() > 0 {
		num.Quo(num, g)
		den.Quo(den, g)
	}
	return num, den
}

// poolOdds is the N-fold convolution of one die's chance of coming through,
// evaluated as the binomial it equals: term k+1 = term k * (N-k) * a /
// ((k+1) * b), exact in integers, N steps instead of 6^N rolls.
func (t *Table) poolOdds(a Args) (Odds, error) {
	count, setups, err := t.poolSetup(a)
	if err != nil {
		return Odds{}, err
	}
	out := Odds{Table: t.ID, Dice: fmt.Sprintf("%dd%d", count, t.Dice.Sides)}
	if t.Dice.Zero {
		out.Dice += "z"
	}
	if s := t.Pool.Stages[0]; s.Modifier != "" {
		out.Modifier = setups[0].mod
	}
	an, den := t.perDie(setups)
	bn := new(big.Int).Sub(den, an)
	out.Den = new(big.Int).Exp(den, big.NewInt(int64(count)), nil)
	key := func(k int) string { return fmt.Sprintf("%s-%d", t.Pool.Result, k) }
	switch {
	case an.Sign() == 0:
		out.Outcomes = []Chance{{key(0), new(big.Int).Set(out.Den)}}
		return out, nil
	case bn.Sign() == 0:
		out.Outcomes = []Chance{{key(count), new(big.Int).Set(out.Den)}}
		return out, nil
	}
	term := new(big.Int).Exp(bn, big.NewInt(int64(count)), nil)
	out.Outcomes = make([]Chance, 0, count+1)
	out.Outcomes = append(out.Outcomes, Chance{key(0), new(big.Int).Set(term)})
	up, down := new(big.Int), new(big.Int)
	for k := 0; k < count; k++ {
		up.SetInt64(int64(count - k))
		up.Mul(up, an)
		down.SetInt64(int64(k + 1))
		down.Mul(down, bn)
		term.Mul(term, up)
		term.Quo(term, down)
		out.Outcomes = append(out.Outcomes, Chance{key(k + 1), new(big.Int).Set(term)})
	}
	return out, nil
}

func (t *Table) resolvePool(a Args, r dice.Roller) (Roll, error) {
	count, setups, err := t.poolSetup(a)
	if err != nil {
		return Roll{}, err
	}
	out := Roll{Table: t.ID, Dice: fmt.Sprintf("%dd%d", count, t.Dice.Sides)}
	if t.Pool.Stages[0].Modifier != "" {
		out.Modifier = setups[0].mod
		out.Mods = []Mod{{Name: t.Pool.Stages[0].Modifier, Value: fmt.Sprint(setups[0].mod), Amount: setups[0].mod}}
	}
	marks := map[string]bool{}
	face := func() (int, error) {
		f, err := r.Face(t.Dice.Sides, t.Dice.Low())
		if err != nil {
			return 0, fmt.Errorf("%s: %w", t.ID, err)
		}
		return f, nil
	}
	left := count
	for i, s := range t.Pool.Stages {
		sr := StageRoll{Name: s.Name, Need: setups[i].need}
		// A stage whose outcome no face can change is not rolled: a save
		// of 7 saves nothing, and a player should not roll for it.
		if certain, pass := t.certain(&s, setups[i]); certain {
			if pass != (s.Keep == "pass") {
				left = 0
			}
			sr.Kept, sr.Certain = left, true
			out.Stages = append(out.Stages, sr)
			continue
		}
		kept := 0
		dice.Expect(r, left)
		for range left {
			f, err := face()
			if err != nil {
				return Roll{}, err
			}
			sr.Faces = append(sr.Faces, f)
			pass := s.passes(f, setups[i])
			s.mark(f, marks)
			if !pass && setups[i].reroll {
				dice.Expect(r, 1)
				f, err = face()
				if err != nil {
					return Roll{}, err
				}
				sr.Rerolls = append(sr.Rerolls, f)
				pass = s.passes(f, setups[i])
				s.mark(f, marks)
			}
			if pass == (s.Keep == "pass") {
				kept++
			}
		}
		sr.Kept = kept
		out.Stages = append(out.Stages, sr)
		left = kept
	}
	for _, s := range t.Pool.Stages {
		for _, m := range s.Marks {
			if marks[m.Name] && !slices.Contains(out.Marks, m.Name) {
				out.Marks = append(out.Marks, m.Name)
			}
		}
	}
	out.Total = left
	out.Result = fmt.Sprintf("%s-%d", t.Pool.Result, left)
	var parts []string
	for _, sr := range out.Stages {
		parts = append(parts, fmt.Sprintf("%d through %s", sr.Kept, sr.Name))
	}
	out.Reason = strings.Join(parts, ", ")
	return out, nil
}

// certain reports whether every face gives the same outcome in a stage
// (and no mark can be set), and which.
func (t *Table) certain(s *Stage, ss stageSetup) (bool, bool) {
	if len(s.Marks) > 0 {
		return false, false
	}
	first := s.passes(t.Dice.Low(), ss)
	for f := t.Dice.Low() + 1; f <= t.Dice.High(); f++ {
		if s.passes(f, ss) != first {
			return false, false
		}
	}
	return true, first
}

func (s *Stage) mark(face int, marks map[string]bool) {
	for _, m := range s.Marks {
		if m.Natural == face {
			marks[m.Name] = true
		}
	}
}
