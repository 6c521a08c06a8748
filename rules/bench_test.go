package rules_test

import (
	"math"
	"testing"

	"orderly/dice"
	"orderly/rules"
)

// fullParams sets every parameter of every dice table (bp/shooting at 12
// dice), for BenchmarkOdds.
var fullParams = map[string]map[string]string{
	"nb/order-delay":     {"nation": "prussian-1813-1815", "quality": "good"},
	"nb/reserve-entry":   {},
	"nb/reserve-arrival": {"quality": "poor"},
	"nes/order-delivery": {"bonus": "2", "french-brigade": "true", "sender-marker": "true", "adjacent": "true",
		"urgent": "true", "from-hq": "true", "turns-at-delay-1": "2", "brigade": "true"},
	"nes/command-continuation": {"rating": "6", "bonus": "1", "divisions-out": "1", "brigades-out": "2", "brigades-far": "1",
		"evening": "true", "corps-cp-or-mobilized": "true", "in-corps-radius": "true", "french-light-cavalry": "true", "attack-order": "true"},
	"nes/command-unit-loss":   {"situation": "fire-medium"},
	"nes/artillery-deviation": {"nation": "french"},
	"bp/command":              {"rating": "8", "modifier": "-1"},
	"bp/shooting":             {"dice": "12", "modifier": "1", "save": "5", "enfilade": "true"},
	"cd/activation": {"rating": "good", "cw": "17", "shaken": "true", "disordered": "true", "vacating-cover": "true",
		"in-smoke": "true", "moved-last-turn": "true", "style": "french-model", "roll": "4"},
	"cd/disruptive-terrain": {"rating": "d3", "modifier": "1"},
}

// BenchmarkOdds times one exact odds query, parameters given as text, for
// every dice table.
func BenchmarkOdds(b *testing.B) {
	set, err := rules.Load()
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range set.Tables() {
		in, ok := fullParams[t.ID]
		if !ok {
			b.Fatalf("%s has no benchmark parameters", t.ID)
		}
		b.Run(t.ID, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a, err := t.Bind(in)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := t.Odds(a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkShooting48 is bp/shooting with 48 dice and enfilade, exact.
func BenchmarkShooting48(b *testing.B) {
	set, err := rules.Load()
	if err != nil {
		b.Fatal(err)
	}
	t, err := set.Table("bp/shooting")
	if err != nil {
		b.Fatal(err)
	}
	in := map[string]string{"dice": "48", "enfilade": "true", "save": "4"}
	b.ReportAllocs()
	for b.Loop() {
		a, err := t.Bind(in)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := t.Odds(a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkShooting48Reduced adds reducing every probability to lowest terms
// (what printing the exact fractions costs).
func BenchmarkShooting48Reduced(b *testing.B) {
	set, err := rules.Load()
	if err != nil {
		b.Fatal(err)
	}
	t, _ := set.Table("bp/shooting")
	a, err := t.Bind(map[string]string{"dice": "48", "enfilade": "true"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		o, err := t.Odds(a)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range o.Outcomes {
			_ = o.Rat(c)
		}
	}
}

// BenchmarkMonteCarlo estimates each table's odds from 1,000,000 seeded
// rolls, to compare with BenchmarkOdds; it reports the worst absolute
// error of the estimate against the exact odds.
func BenchmarkMonteCarlo(b *testing.B) {
	set, err := rules.Load()
	if err != nil {
		b.Fatal(err)
	}
	const n = 1_000_000
	for _, t := range set.Tables() {
		b.Run(t.ID, func(b *testing.B) {
			a, err := t.Bind(fullParams[t.ID])
			if err != nil {
				b.Fatal(err)
			}
			o, err := t.Odds(a)
			if err != nil {
				b.Fatal(err)
			}
			worst := 0.0
			r := dice.NewSeeded(1)
			for b.Loop() {
				counts := map[string]int{}
				for range n {
					roll, err := t.Resolve(a, r)
					if err != nil {
						b.Fatal(err)
					}
					counts[roll.Result]++
				}
				for _, c := range o.Outcomes {
					worst = math.Max(worst, math.Abs(float64(counts[c.Result])/n-o.Float(c)))
				}
			}
			b.ReportMetric(worst, "worst-abs-error")
		})
	}
}

// BenchmarkLoadFor times reading what `orderly odds nb/order-delay` needs
// (NB's tables), against BenchmarkLoad's every rule set.
func BenchmarkLoadFor(b *testing.B) {
	for b.Loop() {
		if _, err := rules.LoadFor("nb/order-delay"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad times reading every rule set's tables.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := rules.Load(); err != nil {
			b.Fatal(err)
		}
	}
}
