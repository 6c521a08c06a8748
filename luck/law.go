package luck

import (
	"math/big"
)

// law is the exact distribution of a whole-number measure X: X = Min+i
// with probability Ways[i]/Den. Every sum is kept exact (math/big), so a
// percentile read from a law is exact until it is printed.
type law struct {
	min  int
	ways []*big.Int
	den  *big.Int
}

// certain is the law of a measure that is always 0: the start of a sum.
func certain() law { return law{ways: []*big.Int{big.NewInt(1)}, den: big.NewInt(1)} }

// plus is the law of X+Y for X of a and Y of b, independent: the
// convolution of the two. While the product of the denominators fits in
// 62 bits, so does every sum of ways, and the work is done in machine
// integers.
func (a law) plus(b law) law {
	n := len(a.ways) + len(b.ways) - 1
	den := new(big.Int).Mul(a.den, b.den)
	out := make([]*big.Int, n)
	if den.BitLen() <= 62 {
		small := make([]int64, n)
		for i, x := range a.ways {
			xv := x.Int64()
			for j, y := range b.ways {
				small[i+j] += xv * y.Int64()
			}
		}
		for i, v := range small {
			out[i] = big.NewInt(v)
		}
		return law{min: a.min + b.min, ways: out, den: den}
	}
	for i := range out {
		out[i] = new(big.Int)
	}
	t := new(big.Int)
	for i, x := range a.ways {
		if x.Sign() == 0 {
			continue
		}
		for j, y := range b.ways {
			if y.Sign() == 0 {
				continue
			}
			out[i+j].Add(out[i+j], t.Mul(x, y))
		}
	}
	return law{min: a.min + b.min, ways: out, den: den}
}

// single reports whether the law has one value only: a measure no die can
// change, which tells nothing of luck.
func (a law) single() bool {
	n := 0
	for _, w := range a.ways {
		if w.Sign() != 0 {
			n++
		}
	}
	return n <= 1
}

// mid is the mid-percentile of x under the law, in [0, 1], for a measure
// where high is lucky: P(X < x) + P(X = x)/2; with high false, where low
// is lucky: P(X > x) + P(X = x)/2. Its expected value over X is exactly
// one half, whatever the law, which makes 50 "as expected".
func (a law) mid(x int, high bool) *big.Rat {
	below, at := new(big.Int), new(big.Int)
	for i, w := range a.ways {
		v := a.min + i
		switch {
		case v == x:
			at.Set(w)
		case v < x == high:
			below.Add(below, w)
		}
	}
	num := new(big.Int).Lsh(below, 1)
	num.Add(num, at)
	return new(big.Rat).SetFrac(num, new(big.Int).Lsh(a.den, 1))
}

// mean is the expected value of the measure.
func (a law) mean() *big.Rat {
	sum := new(big.Int)
	t := new(big.Int)
	for i, w := range a.ways {
		sum.Add(sum, t.Mul(w, big.NewInt(int64(a.min+i))))
	}
	return new(big.Rat).SetFrac(sum, a.den)
}

// Deciles is how many parts a roll's own distribution is cut into for a
// side's overall luck: each roll scores the part its mid-percentile falls
// in, 0 to Deciles-1.
const Deciles = 10

// decile is the part (0 to Deciles-1) that a mid-percentile u falls in.
func decile(u *big.Rat) int {
	n := new(big.Int).Mul(u.Num(), big.NewInt(Deciles))
	n.Quo(n, u.Denom())
	return min(int(n.Int64()), Deciles-1)
}

// deciles is the law of the decile a roll of law a scores (its
// mid-percentile in the lucky direction, cut into Deciles parts), in one
// pass over the values from the least lucky up.
func (a law) deciles(high bool) law {
	out := law{ways: make([]*big.Int, Deciles), den: new(big.Int).Set(a.den)}
	for i := range out.ways {
		out.ways[i] = new(big.Int)
	}
	den2 := new(big.Int).Lsh(a.den, 1)
	below, num, q := new(big.Int), new(big.Int), new(big.Int)
	for k := range a.ways {
		i := k
		if !high {
			i = len(a.ways) - 1 - k
		}
		w := a.ways[i]
		if w.Sign() == 0 {
			continue
		}
		// Deciles × (2 below + w) / (2 den), rounded down.
		num.Lsh(below, 1)
		num.Add(num, w)
		num.Mul(num, big.NewInt(Deciles))
		q.Quo(num, den2)
		d := min(int(q.Int64()), Deciles-1)
		out.ways[d].Add(out.ways[d], w)
		below.Add(below, w)
	}
	return out
}

// percent is an exact fraction of one as a percentage rounded to two
// places.
func percent(r *big.Rat) float64 {
	f, _ := new(big.Rat).Mul(r, big.NewRat(100, 1)).Float64()
	return round2(f)
}
