package rules_test

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"testing"

	"orderly/dice"
	"orderly/rules"
	"orderly/table"
)

// combos lists parameter settings that cover every enum and bool value and a
// spread of int values (including "not given" for optional parameters).
func combos(t *table.Table, limit int) []map[string]string {
	out := []map[string]string{{}}
	for _, p := range t.Params {
		var vals []string
		switch p.Kind {
		case table.Enum:
			vals = p.Names()
		case table.Bool:
			vals = []string{"false", "true"}
		default:
			for _, v := range []int{-3, 0, 1, 2, 4, 7, 9, 12, 16} {
				if (p.Min == nil || v >= *p.Min) && (p.Max == nil || v <= *p.Max) {
					vals = append(vals, strconv.Itoa(v))
				}
			}
			if p.Max != nil {
				vals = append(vals, strconv.Itoa(*p.Max))
			}
		}
		if !p.Required {
			vals = append(vals, "")
		}
		var next []map[string]string
		for _, c := range out {
			for _, v := range vals {
				m := map[string]string{}
				for k, x := range c {
					m[k] = x
				}
				if v != "" {
					m[p.Name] = v
				}
				next = append(next, m)
			}
		}
		out = next
		if len(out) > limit {
			// Keep every value of this parameter, thin the rest evenly.
			step := len(out)/limit + 1
			var thin []map[string]string
			for i := 0; i < len(out); i += step {
				thin = append(thin, out[i])
			}
			out = thin
		}
	}
	return out
}

func TestOddsSumToOneEverywhere(t *testing.T) {
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	one := big.NewRat(1, 1)
	for _, tb := range set.Tables() {
		n := 0
		for _, in := range combos(tb, 50000) {
			if tb.Pool != nil {
				if d, _ := strconv.Atoi(in["dice"]); d > 12 {
					continue
				}
			}
			a, err := tb.Bind(in)
			if err != nil {
				t.Fatalf("%s %v: %v", tb.ID, in, err)
			}
			o, err := tb.Odds(a)
			if err != nil {
				t.Fatalf("%s %v: %v", tb.ID, in, err)
			}
			sum := new(big.Rat)
			for _, c := range o.Outcomes {
				if c.Num.Sign() <= 0 {
					t.Errorf("%s %v: outcome %s listed with chance %s", tb.ID, in, c.Result, o.Rat(c))
				}
				sum.Add(sum, o.Rat(c))
			}
			if sum.Cmp(one) != 0 {
				t.Errorf("%s %v: odds sum to %s", tb.ID, in, sum)
			}
			n++
		}
		if n == 0 {
			t.Errorf("%s: no combination checked", tb.ID)
		}
	}
}

// monteCarloCases are the settings each table is rolled with.
var monteCarloCases = map[string]map[string]string{
	"nb/order-delay":           {"nation": "french", "quality": "poor"},
	"nb/reserve-entry":         {},
	"nb/reserve-arrival":       {"quality": "good"},
	"nes/order-delivery":       {"bonus": "1", "adjacent": "true", "brigade": "true"},
	"nes/command-continuation": {"rating": "5", "evening": "true", "in-corps-radius": "true"},
	"nes/command-unit-loss":    {"situation": "shock"},
	"nes/artillery-deviation":  {"nation": "russian"},
	"nes/brook-charge":         {},
	"nes/extended-fire":        {},
	"nes/charge-morale-check":  {"modifier": "2"},
	"bp/command":               {"rating": "8"},
	"bp/shooting":              {"dice": "12", "save": "5", "enfilade": "true", "modifier": "-1"},
	"bp/blunder":               {},
	"bp/break-test":            {"modifier": "-2", "shaken": "true"},
	"cd/activation":            {"rating": "average", "cw": "16", "style": "french-model", "roll": "5"},
	"cd/disruptive-terrain":    {"rating": "d2"},
	"cd/passage":               {},
}

// TestRollsAgreeWithOdds rolls every table 200,000 times with a seed and
// checks each result's frequency against the exact odds, within five
// standard errors.
func TestRollsAgreeWithOdds(t *testing.T) {
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	const n = 200_000
	for _, tb := range set.Tables() {
		in, ok := monteCarloCases[tb.ID]
		if !ok {
			t.Errorf("%s has no Monte Carlo case", tb.ID)
			continue
		}
		t.Run(tb.ID, func(t *testing.T) {
			a, err := tb.Bind(in)
			if err != nil {
				t.Fatal(err)
			}
			o, err := tb.Odds(a)
			if err != nil {
				t.Fatal(err)
			}
			r := dice.NewSeeded(20261121)
			counts := map[string]int{}
			for range n {
				roll, err := tb.Resolve(a, r)
				if err != nil {
					t.Fatal(err)
				}
				counts[roll.Result]++
			}
			exact := map[string]float64{}
			for _, c := range o.Outcomes {
				exact[c.Result] = o.Float(c)
			}
			for res, c := range counts {
				if _, ok := exact[res]; !ok {
					t.Errorf("rolled %s %d times, but the odds give it no chance", res, c)
				}
			}
			for res, p := range exact {
				freq := float64(counts[res]) / n
				se := math.Sqrt(p * (1 - p) / n)
				if math.Abs(freq-p) > 5*se+1e-9 {
					t.Errorf("%s: rolled %.4f, exact %.4f (5 s.e. = %.4f)", res, freq, p, 5*se)
				}
			}
		})
	}
}

// best is the best result of each table, and whether a higher score is
// better (false: lower is better, as on NES-1).
var best = map[string]struct {
	result string
	higher bool
}{
	"nb/order-delay":           {"immediate", true},
	"nb/reserve-arrival":       {"early-1", true},
	"nes/order-delivery":       {"received", false},
	"nes/command-continuation": {"mobilized", false},
	"bp/command":               {"moves-3", false},
	"cd/activation":            {"x1.5", true},
	"cd/disruptive-terrain":    {"ok", true},
}

// TestImprovingNeverHurts: for tables whose bands are monotone, changing one
// parameter so that the score moves the good way never makes the best result
// less likely.
func TestImprovingNeverHurts(t *testing.T) {
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	for id, b := range best {
		tb, err := set.Table(id)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, base := range combos(tb, 3000) {
			for _, p := range tb.Params {
				type point struct {
					shift int
					pBest *big.Rat
				}
				var pts []point
				vals := p.Names()
				switch p.Kind {
				case table.Bool:
					vals = []string{"false", "true"}
				case table.Int:
					vals = nil
					for v := 0; v <= 20; v++ {
						if (p.Min == nil || v >= *p.Min) && (p.Max == nil || v <= *p.Max) {
							vals = append(vals, strconv.Itoa(v))
						}
					}
				}
				for _, v := range vals {
					in := map[string]string{}
					for k, x := range base {
						in[k] = x
					}
					in[p.Name] = v
					a, err := tb.Bind(in)
					if err != nil {
						t.Fatal(err)
					}
					o, err := tb.Odds(a)
					if err != nil {
						t.Fatal(err)
					}
					shift := o.Modifier
					if o.Target != nil {
						shift -= *o.Target
					}
					if !b.higher {
						shift = -shift
					}
					pts = append(pts, point{shift, o.P(b.result)})
				}
				for _, x := range pts {
					for _, y := range pts {
						if y.shift > x.shift && y.pBest.Cmp(x.pBest) < 0 {
							t.Errorf("%s %v: varying %s, a better score (%d > %d) made %s less likely (%s < %s)",
								id, base, p.Name, y.shift, x.shift, b.result, y.pBest, x.pBest)
						}
						checked++
					}
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: nothing checked", id)
		}
	}
}

// TestShootingDominance: more dice, a better hit modifier, a worse save or
// enfilade never make any number of casualties or more less likely.
func TestShootingDominance(t *testing.T) {
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	tb, err := set.Table("bp/shooting")
	if err != nil {
		t.Fatal(err)
	}
	atLeast := func(in map[string]string) []*big.Rat {
		a, err := tb.Bind(in)
		if err != nil {
			t.Fatal(err)
		}
		o, err := tb.Odds(a)
		if err != nil {
			t.Fatal(err)
		}
		var tail []*big.Rat
		for k := 0; k <= 20; k++ {
			s := new(big.Rat)
			for j := k; j <= 20; j++ {
				s.Add(s, o.P(fmt.Sprintf("casualties-%d", j)))
			}
			tail = append(tail, s)
		}
		return tail
	}
	worse := map[string]string{"dice": "6", "modifier": "0", "save": "4", "enfilade": "false"}
	for _, change := range []map[string]string{
		{"dice": "7"}, {"modifier": "1"}, {"modifier": "3"}, {"save": "5"}, {"save": "7"}, {"enfilade": "true"},
	} {
		better := map[string]string{}
		for k, v := range worse {
			better[k] = v
		}
		for k, v := range change {
			better[k] = v
		}
		lo, hi := atLeast(worse), atLeast(better)
		for k := range lo {
			if hi[k].Cmp(lo[k]) < 0 {
				t.Errorf("%v made %d+ casualties less likely: %s < %s", change, k, hi[k], lo[k])
			}
		}
	}
}

// TestDrawIsResolve checks, for every table, that Draw (what a game rolls)
// gives what Resolve gives from the same dice, but for the reason text.
func TestDrawIsResolve(t *testing.T) {
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range set.Tables() {
		a, err := tb.Bind(monteCarloCases[tb.ID])
		if err != nil {
			t.Fatalf("%s: %v", tb.ID, err)
		}
		for seed := range uint64(50) {
			want, err := tb.Resolve(a, dice.NewSeeded(seed))
			if err != nil {
				t.Fatal(err)
			}
			// A reused list of modifiers, holding an earlier roll's, is
			// overwritten, not added to.
			var buf []table.Mod
			if seed%2 == 1 {
				buf = []table.Mod{{Name: "left over", Amount: 99}}
			}
			got, err := tb.Draw(a, dice.NewSeeded(seed), buf)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Mods) == 0 && len(want.Mods) == 0 {
				got.Mods, want.Mods = nil, nil
			}
			if want.Reason == "" && tb.Pool == nil {
				t.Fatalf("%s: Resolve gave no reason", tb.ID)
			}
			want.Reason, got.Reason = "", ""
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s seed %d: Draw gave %+v, Resolve %+v", tb.ID, seed, got, want)
			}
		}
	}
}
