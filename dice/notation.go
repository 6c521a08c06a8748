// Package dice reads dice notation, computes the exact distribution of a dice
// total and rolls dice from an injected source of randomness.
package dice

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits on notation, so that an exact distribution stays cheap to compute.
const (
	MaxCount = 200  // most dice in one roll
	MaxSides = 1000 // most faces on one die
	MaxPlus  = 1_000_000
)

// Spec is a roll of Count dice with Sides faces each, plus a constant Plus.
// Faces read 1..Sides, or 0..Sides-1 when Zero is set (the "z" suffix of the
// hex-game tables, e.g. 1d10z).
type Spec struct {
	Count int
	Sides int
	Zero  bool
	Plus  int
}

// Parse reads notation of the forms NdS, NdSz and NdS+K (or NdS-K); N may be
// left out for one die ("d6").
func Parse(s string) (Spec, error) {
	in := strings.ToLower(strings.TrimSpace(s))
	bad := func(why string) (Spec, error) {
		return Spec{}, fmt.Errorf("dice %q: %s; write NdS, NdSz or NdS+K, e.g. 2d6, 1d10z, 1d6+4", s, why)
	}
	d := strings.IndexByte(in, 'd')
	if d < 0 {
		return bad("no 'd' between the count and the sides")
	}
	var sp Spec
	sp.Count = 1
	if d > 0 {
		n, err := strconv.Atoi(in[:d])
		if err != nil || !digits(in[:d]) {
			return bad(fmt.Sprintf("count %q is not a whole number", in[:d]))
		}
		sp.Count = n
	}
	rest := in[d+1:]
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	if end == 0 {
		return bad("no number of sides after 'd'")
	}
	sides, err := strconv.Atoi(rest[:end])
	if err != nil {
		return bad(fmt.Sprintf("sides %q is too large", rest[:end]))
	}
	sp.Sides = sides
	rest = rest[end:]
	if strings.HasPrefix(rest, "z") {
		sp.Zero = true
		rest = rest[1:]
	}
	if rest != "" {
		sign := rest[0]
		if (sign != '+' && sign != '-') || !digits(rest[1:]) || len(rest) == 1 {
			return bad(fmt.Sprintf("unexpected %q after the sides", rest))
		}
		k, err := strconv.Atoi(rest[1:])
		if err != nil || k > MaxPlus {
			return bad(fmt.Sprintf("constant %q is larger than %d", rest[1:], MaxPlus))
		}
		if sign == '-' {
			k = -k
		}
		sp.Plus = k
	}
	if err := sp.Valid(); err != nil {
		return Spec{}, fmt.Errorf("dice %q: %w", s, err)
	}
	return sp, nil
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Valid reports whether the spec is within the supported limits.
func (s Spec) Valid() error {
	switch {
	case s.Count < 1 || s.Count > MaxCount:
		return fmt.Errorf("count %d is out of range; allowed 1..%d", s.Count, MaxCount)
	case s.Sides < 2 || s.Sides > MaxSides:
		return fmt.Errorf("sides %d is out of range; allowed 2..%d", s.Sides, MaxSides)
	case s.Plus < -MaxPlus || s.Plus > MaxPlus:
		return fmt.Errorf("constant %d is out of range; allowed -%d..%d", s.Plus, MaxPlus, MaxPlus)
	}
	return nil
}

// String gives the canonical notation, e.g. "1d10z" or "1d6+4".
func (s Spec) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%dd%d", s.Count, s.Sides)
	if s.Zero {
		b.WriteByte('z')
	}
	if s.Plus > 0 {
		fmt.Fprintf(&b, "+%d", s.Plus)
	} else if s.Plus < 0 {
		fmt.Fprintf(&b, "%d", s.Plus)
	}
	return b.String()
}

// Low and High are the lowest and highest face of one die.
func (s Spec) Low() int {
	if s.Zero {
		return 0
	}
	return 1
}

// High is the highest face of one die.
func (s Spec) High() int { return s.Low() + s.Sides - 1 }

// Min is the lowest natural total (the dice alone, without Plus).
func (s Spec) Min() int { return s.Count * s.Low() }

// Max is the highest natural total.
func (s Spec) Max() int { return s.Count * s.High() }
