package table

import (
	"fmt"
	"math/big"

	"orderly/dice"
)

// Roll records one roll of a table: the dice, each modifier by name, the
// total and the result, and how the result was reached.
type Roll struct {
	Table    string
	Dice     string
	Faces    []int
	Natural  int
	Mods     []Mod
	Modifier int  // sum of the modifiers to the total
	Target   *int // the number the total is read against, for target tables
	Total    int
	Result   string
	Reason   string
	Stages   []StageRoll // pool tables: the dice of each stage
	Marks    []string    // pool tables: marks set by natural faces
}

// Odds is the exact distribution of a table's results for bound parameters.
type Odds struct {
	Table    string
	Dice     string
	Modifier int
	Target   *int
	Outcomes []Chance // in the table's result order, each with a chance above 0
	Den      *big.Int // common denominator of every Chance
}

// Chance is the probability Num/Den of one result.
type Chance struct {
	Result string
	Num    *big.Int
}

// Rat is the exact probability of c, in lowest terms.
func (o Odds) Rat(c Chance) *big.Rat { return new(big.Rat).SetFrac(c.Num, o.Den) }

// Float is the probability of c as a float64.
func (o Odds) Float(c Chance) float64 {
	f, _ := o.Rat(c).Float64()
	return f
}

// P returns the exact probability of a result (zero when it cannot occur).
func (o Odds) P(result string) *big.Rat {
	for _, c := range o.Outcomes {
		if c.Result == result {
			return o.Rat(c)
		}
	}
	return new(big.Rat)
}

// modifiers lists the modifiers that bound parameters bring to the total and
// to the target, including derived ones read from lookup tables.
// They are appended to into[:0] (nil for a new list).
func (t *Table) modifiers(a Args, into []Mod) (mods []Mod, sum, target int, err error) {
	mods = a.mods(into[:0])
	for i, d := range t.Derived {
		in := map[string]string{}
		complete := true
		for _, name := range d.Args {
			v, ok := a.Value(name)
			if !ok {
				complete = false
				break
			}
			in[name] = v
		}
		if !complete {
			continue
		}
		cell, err := t.links[i].Get(in)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("%s: %s: %w", t.ID, d.Name, err)
		}
		n, ok := cell.Int()
		if !ok {
			return nil, 0, 0, fmt.Errorf("%s: %s: lookup %s gave %q, not a whole number", t.ID, d.Name, d.Lookup, cell.Text)
		}
		mods = append(mods, Mod{Name: d.Name, Value: describeArgs(d.Args, in), Amount: n})
	}
	for _, m := range mods {
		if m.Target {
			target += m.Amount
		} else {
			sum += m.Amount
		}
	}
	return mods, sum, target, nil
}

func describeArgs(names []string, in map[string]string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += " "
		}
		s += n + "=" + in[n]
	}
	return s
}

// row picks the row of bands for the bound parameters.
func (t *Table) row(a Args) *Row {
	if t.RowsBy == "" {
		return &t.Rows[0]
	}
	v, _ := a.Value(t.RowsBy)
	for i := range t.Rows {
		if t.Rows[i].Key == v {
			return &t.Rows[i]
		}
	}
	return &t.Rows[0]
}

// Band returns the band holding score.
func (r *Row) Band(score int) *Band {
	for i := range r.Bands {
		if score <= r.Bands[i].Hi {
			return &r.Bands[i]
		}
	}
	return &r.Bands[len(r.Bands)-1]
}

// read turns a natural total and the score into a result; with explain it
// also says why.
func (t *Table) read(a Args, row *Row, natural, score int, explain func() string) (string, string) {
	res, why := "", ""
	for _, n := range t.Naturals {
		if n.Natural == natural {
			res = n.Result
			if explain != nil {
				why = fmt.Sprintf("a natural %d is always %s", natural, res)
			}
		}
	}
	if res == "" {
		b := row.Band(score)
		res = b.Result
		if explain != nil {
			why = fmt.Sprintf("%s, in the band %s", explain(), BandText(b.Lo, b.Hi))
		}
	}
	if !t.renames {
		return res, why
	}
	return t.rename(a, res, why)
}

// rename applies the renames of true bool parameters (e.g. NES-1: for a
// brigade, ignored reads as delay-1).
func (t *Table) rename(a Args, res, why string) (string, string) {
	for i, p := range a.params {
		if p.Kind != Bool || !a.set[i] || a.vals[i] != 1 {
			continue
		}
		for _, rn := range p.Renames {
			if rn.From == res {
				if why != "" {
					why = fmt.Sprintf("%s; %s reads as %s with %s=true", why, res, rn.To, p.Name)
				}
				res = rn.To
				break
			}
		}
	}
	return res, why
}

// Resolve rolls the table with bound parameters.
func (t *Table) Resolve(a Args, r dice.Roller) (Roll, error) { return t.resolve(a, r, true, nil) }

// Draw rolls the table like Resolve, the same dice with the same result,
// but leaves out Reason: for a game, which records the roll and not why.
// The modifiers are appended to mods[:0], which the caller may reuse once
// it has copied them (nil for a new list).
func (t *Table) Draw(a Args, r dice.Roller, mods []Mod) (Roll, error) {
	return t.resolve(a, r, false, mods)
}

func (t *Table) resolve(a Args, r dice.Roller, reason bool, into []Mod) (Roll, error) {
	if t.Pool != nil {
		return t.resolvePool(a, r)
	}
	mods, sum, target, err := t.modifiers(a, into)
	if err != nil {
		return Roll{}, err
	}
	out := Roll{Table: t.ID, Dice: t.diceText(), Mods: mods, Modifier: sum}
	if t.HasTarget() {
		out.Target = &target
	}
	row := t.row(a)
	if row.Fixed != "" {
		out.Result, out.Reason = t.rename(a, row.Fixed, "no roll is needed")
		return out, nil
	}
	roll, err := t.Dice.Roll(r)
	if err != nil {
		return Roll{}, fmt.Errorf("%s: %w", t.ID, err)
	}
	out.Faces, out.Natural = roll.Faces, roll.Natural
	out.Total = roll.Total + sum
	var explain func() string
	if reason {
		explain = func() string {
			if t.HasTarget() {
				return fmt.Sprintf("total %d less target %d is %d", out.Total, target, out.Total-target)
			}
			return fmt.Sprintf("total %d", out.Total)
		}
	}
	out.Result, out.Reason = t.read(a, row, roll.Natural, out.Total-target, explain)
	return out, nil
}

// Odds computes the exact distribution of the results for bound parameters,
// from the same definition that Resolve rolls.
func (t *Table) Odds(a Args) (Odds, error) {
	if t.Pool != nil {
		return t.poolOdds(a)
	}
	_, sum, target, err := t.modifiers(a, nil)
	if err != nil {
		return Odds{}, err
	}
	out := Odds{Table: t.ID, Dice: t.Dice.String(), Modifier: sum}
	if t.HasTarget() {
		out.Target = &target
	}
	row := t.row(a)
	var counts [64]int64
	cnt := counts[:0]
	if len(t.Results) > len(counts) {
		cnt = make([]int64, 0, len(t.Results))
	}
	cnt = cnt[:len(t.Results)]
	if row.Fixed != "" {
		res, _ := t.rename(a, row.Fixed, "")
		cnt[t.resultIndex(res)] = t.outcomes
	} else {
		base := t.Dice.Min()
		for i, w := range t.ways {
			if w == 0 {
				continue
			}
			nat := base + i
			res, _ := t.read(a, row, nat, nat+t.Dice.Plus+sum-target, nil)
			cnt[t.resultIndex(res)] += w
		}
	}
	out.Den = big.NewInt(t.outcomes)
	for i, c := range cnt {
		if c > 0 {
			out.Outcomes = append(out.Outcomes, Chance{Result: t.Results[i].Key, Num: big.NewInt(c)})
		}
	}
	return out, nil
}

func (t *Table) resultIndex(key string) int {
	for i := range t.Results {
		if t.Results[i].Key == key {
			return i
		}
	}
	return 0
}

// Words gives the chance of each result in words for a page: "3/10
// (30.0%)", results that can come more than one way summed.
func (o Odds) Words() map[string]string {
	sum := map[string]*big.Rat{}
	for _, c := range o.Outcomes {
		if sum[c.Result] == nil {
			sum[c.Result] = new(big.Rat)
		}
		sum[c.Result].Add(sum[c.Result], o.Rat(c))
	}
	out := make(map[string]string, len(sum))
	for k, p := range sum {
		out[k] = Percent(p)
	}
	return out
}

// Percent words an exact probability: "3/10 (30.0%)".
func Percent(p *big.Rat) string {
	f, _ := p.Float64()
	return fmt.Sprintf("%s (%.1f%%)", p.RatString(), 100*f)
}
