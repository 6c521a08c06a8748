package dice

import (
	"fmt"
	"math/big"
)

// Dist is the exact distribution of the natural total of a Spec: Ways[i] of
// the Outcomes equally likely rolls give the total Min+i.
type Dist struct {
	Min      int
	Ways     []*big.Int
	Outcomes *big.Int
}

// MaxWork bounds the cost of an exact distribution: the number of dice times
// the number of different totals.
const MaxWork = 250_000

// Dist computes the distribution of the natural total by repeated convolution
// with one die (a sliding window sum), never by listing every roll. It fails
// when the work would exceed MaxWork (e.g. 200d1000).
func (s Spec) Dist() (Dist, error) {
	totals := s.Count*(s.Sides-1) + 1
	if work := s.Count * totals; work > MaxWork {
		return Dist{}, fmt.Errorf("%s is too large to compute exactly: %d dice times %d totals is more than %d; use fewer dice or sides", s, s.Count, totals, MaxWork)
	}
	ways := []*big.Int{big.NewInt(1)}
	for range s.Count {
		next := make([]*big.Int, len(ways)+s.Sides-1)
		window := new(big.Int)
		for i := range next {
			if i < len(ways) {
				window.Add(window, ways[i])
			}
			if j := i - s.Sides; j >= 0 && j < len(ways) {
				window.Sub(window, ways[j])
			}
			next[i] = new(big.Int).Set(window)
		}
		ways = next
	}
	total := new(big.Int).Exp(big.NewInt(int64(s.Sides)), big.NewInt(int64(s.Count)), nil)
	return Dist{Min: s.Min(), Ways: ways, Outcomes: total}, nil
}

// Prob is the exact probability of the natural total t.
func (d Dist) Prob(t int) *big.Rat {
	i := t - d.Min
	if i < 0 || i >= len(d.Ways) {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(d.Ways[i], d.Outcomes)
}

// Small returns the distribution as machine integers, for tables whose dice
// have few enough outcomes; it fails when the outcomes exceed 2^62.
func (d Dist) Small() (ways []int64, outcomes int64, err error) {
	if d.Outcomes.BitLen() > 62 {
		return nil, 0, fmt.Errorf("%s outcomes is too many for a table's dice; allowed at most 2^62", d.Outcomes)
	}
	ways = make([]int64, len(d.Ways))
	for i, w := range d.Ways {
		ways[i] = w.Int64()
	}
	return ways, d.Outcomes.Int64(), nil
}
