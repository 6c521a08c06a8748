package luck

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"orderly/battle"
	"orderly/dice"
	"orderly/game"
	"orderly/rules"
	"orderly/table"
)

// d is the law of the natural total of dice spec s.
func d(t *testing.T, s string) law {
	t.Helper()
	sp, err := dice.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	dist, err := sp.Dist()
	if err != nil {
		t.Fatal(err)
	}
	return law{min: dist.Min, ways: dist.Ways, den: dist.Outcomes}
}

// TestMidKnownAnswers: the mid-percentile of a few rolls, worked by hand.
func TestMidKnownAnswers(t *testing.T) {
	d6 := d(t, "1d6")
	cases := []struct {
		name string
		l    law
		x    int
		high bool
		want *big.Rat
	}{
		// A 6 on 1d6, high lucky: 5/6 below, 1/6 at: 5/6 + 1/12.
		{"6 on 1d6", d6, 6, true, big.NewRat(11, 12)},
		{"1 on 1d6", d6, 1, true, big.NewRat(1, 12)},
		{"1 on 1d6, low lucky", d6, 1, false, big.NewRat(11, 12)},
		// Two 6s: 35/36 below 12, 1/36 at it.
		{"6 and 6", d6.plus(d6), 12, true, big.NewRat(71, 72)},
		// 7 on 2d6: 15/36 below, 6/36 at: exactly the middle.
		{"7 on 2d6", d6.plus(d6), 7, true, big.NewRat(1, 2)},
		{"7 on 2d6, low lucky", d6.plus(d6), 7, false, big.NewRat(1, 2)},
		// 10 on 1d10z (0..9) and 0 on it, high lucky.
		{"9 on 1d10z", d(t, "1d10z"), 9, true, big.NewRat(19, 20)},
		{"0 on 1d10z", d(t, "1d10z"), 0, true, big.NewRat(1, 20)},
	}
	for _, c := range cases {
		if got := c.l.mid(c.x, c.high); got.Cmp(c.want) != 0 {
			t.Errorf("%s: mid-percentile %s, want %s", c.name, got.RatString(), c.want.RatString())
		}
	}
	if p := percent(d6.mid(6, true)); p != 91.67 {
		t.Errorf("a 6 on 1d6 is the %v percentile; want 91.67", p)
	}
	// The sum of two d6 laws is the law of 2d6.
	two, want := d6.plus(d6), d(t, "2d6")
	for v := 2; v <= 12; v++ {
		if a, b := two.mid(v, true), want.mid(v, true); a.Cmp(b) != 0 {
			t.Errorf("1d6+1d6 at %d: %s; 2d6: %s", v, a.RatString(), b.RatString())
		}
	}
	if m := two.mean(); m.Cmp(big.NewRat(7, 1)) != 0 {
		t.Errorf("mean of 2d6 %s, want 7", m.RatString())
	}
}

// TestDeciles: a d6's faces score deciles 0, 2, 4, 5, 7, 9 (mid-percentiles
// 1/12, 3/12, ..., 11/12), so its law of deciles gives each one sixth.
func TestDeciles(t *testing.T) {
	l := d(t, "1d6").deciles(true)
	want := []int64{1, 0, 1, 0, 1, 1, 0, 1, 0, 1}
	for i, w := range want {
		if l.ways[i].Int64() != w {
			t.Fatalf("decile law of 1d6 %v; want %v over 6", l.ways, want)
		}
	}
	if l.den.Int64() != 6 {
		t.Errorf("denominator %s; want 6", l.den)
	}
	low := d(t, "1d6").deciles(false)
	if low.ways[9].Int64() != 1 || low.ways[0].Int64() != 1 {
		t.Errorf("low-lucky decile law %v; want a 1 scoring 9 and a 6 scoring 0", low.ways)
	}
}

// pit is one game's randomised probability integral transform of what
// was rolled: P(S < s) + V × P(S = s) with V uniform on [0, 1), in the
// lucky direction. Over games rolled from the dice it is exactly uniform.
func pit(l law, s int, high bool, v float64) float64 {
	below, at := new(big.Int), new(big.Int)
	for i, w := range l.ways {
		x := l.min + i
		switch {
		case x == s:
			at.Set(w)
		case x < s == high:
			below.Add(below, w)
		}
	}
	b, _ := new(big.Rat).SetFrac(below, l.den).Float64()
	a, _ := new(big.Rat).SetFrac(at, l.den).Float64()
	return b + v*a
}

// chi2 is the chi-square statistic of counts against equal bins.
func chi2(counts []int, n int) float64 {
	e := float64(n) / float64(len(counts))
	x := 0.0
	for _, c := range counts {
		x += (float64(c) - e) * (float64(c) - e) / e
	}
	return x
}

// binomial is the law of the number of successes in n trials of chance
// num/den, worked on its own (not through the table's Odds).
func binomial(n int, num, den int64) law {
	l := certain()
	one := law{ways: []*big.Int{big.NewInt(den - num), big.NewInt(num)}, den: big.NewInt(den)}
	for range n {
		l = l.plus(one)
	}
	return l
}

// TestUniformOverGames is the property test: games whose rolls are drawn
// from a table's own dice give luck percentiles that follow their exact
// law. For 2000 games of each case (fixed seeds, so never flaky) it checks
// that (1) every game's group percentile is the mid-percentile of its sum
// in a law worked out independently (NdS for N plain rolls, a binomial for
// a pool), (2) the randomised PIT of that sum under that law is uniform
// (chi-square over 10 bins below 27.88, the 0.1% point for 9 degrees of
// freedom: the dice the tables roll do follow the laws), and (3) the
// side's overall percentile, the mid-percentile of its deciles' sum, has
// a uniform randomised PIT under the package's law of deciles and a mean
// of 50 within 3.
func TestUniformOverGames(t *testing.T) {
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	sc := &battle.Scenario{Sides: []*battle.Side{{ID: "a", Name: "A"}}}
	const games = 2000
	cases := []struct {
		table  string
		params map[string]string
		rolls  int
		// exact is the law of the sum of the rolls' measures, worked out
		// apart from the package.
		exact law
	}{
		{"nb/order-delay", nil, 5, d(t, "5d10")},
		{"bp/command", nil, 3, d(t, "6d6")},
		// 3 dice a volley: each hits on 4..6 (a 1 misses, a 6 hits: 1/2)
		// and is not saved on 1..3 (1/2): 1/4 through; 4 volleys.
		{"bp/shooting", map[string]string{"dice": "3"}, 4, binomial(12, 1, 4)},
		{"nes/order-delivery", map[string]string{"bonus": "1"}, 6, d(t, "6d10z")},
	}
	for ci, c := range cases {
		t.Run(c.table, func(t *testing.T) {
			tb, err := set.Table(c.table)
			if err != nil {
				t.Fatal(err)
			}
			a, err := tb.Bind(c.params)
			if err != nil {
				t.Fatal(err)
			}
			high := tb.Lucky == table.LuckyHigh
			rng := rand.New(rand.NewPCG(uint64(ci), 36))
			var groupPIT, sidePIT [10]int
			sum := 0.0
			for g := range games {
				roller := dice.NewSeeded(uint64(1000*ci + g))
				rd := newReader(set, sc)
				var log []game.Event
				got := 0
				overall, score := certain(), 0
				for i := range c.rolls {
					ro, err := tb.Resolve(a, roller)
					if err != nil {
						t.Fatal(err)
					}
					gr := game.Roll{Table: tb.ID, Params: a.Map(), Dice: ro.Dice, Faces: ro.Faces, Natural: ro.Natural, Total: ro.Total, Result: ro.Result}
					log = append(log, game.Event{Seq: i + 1, Side: "a", Rolls: []game.Roll{gr}})
					m, _, err := rd.measure(&log[i], &gr)
					if err != nil {
						t.Fatal(err)
					}
					got += m.x
					overall = overall.plus(rd.deciles(m))
					score += decile(m.law.mid(m.x, high))
				}
				rep, err := Of(set, sc, log)
				if err != nil {
					t.Fatal(err)
				}
				sd := rep.Sides[0]
				if sd.Rolls != c.rolls || len(sd.Tables) != 1 {
					t.Fatalf("game %d: %d rolls in %d groups; want %d in 1", g, sd.Rolls, len(sd.Tables), c.rolls)
				}
				if want := percent(c.exact.mid(got, high)); sd.Tables[0].Percentile != want {
					t.Fatalf("game %d: sum %d is the %v percentile; the independent law says %v", g, got, sd.Tables[0].Percentile, want)
				}
				groupPIT[min(int(10*pit(c.exact, got, high, rng.Float64())), 9)]++
				sidePIT[min(int(10*pit(overall, score, true, rng.Float64())), 9)]++
				sum += sd.Percentile
			}
			if x := chi2(groupPIT[:], games); x > 27.88 {
				t.Errorf("randomised PIT of the table's sums %v: chi-square %.2f over 27.88", groupPIT, x)
			}
			if x := chi2(sidePIT[:], games); x > 27.88 {
				t.Errorf("randomised PIT of the side's deciles %v: chi-square %.2f over 27.88", sidePIT, x)
			}
			if mean := sum / games; mean < 47 || mean > 53 {
				t.Errorf("mean overall percentile %.2f; want 50 within 3", mean)
			}
		})
	}
}
