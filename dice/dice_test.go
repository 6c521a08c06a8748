package dice

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	good := map[string]Spec{
		"1d10":    {Count: 1, Sides: 10},
		"1d10z":   {Count: 1, Sides: 10, Zero: true},
		"2d6":     {Count: 2, Sides: 6},
		"1d6+4":   {Count: 1, Sides: 6, Plus: 4},
		"d6":      {Count: 1, Sides: 6},
		"3D6-2":   {Count: 3, Sides: 6, Plus: -2},
		" 2d6 ":   {Count: 2, Sides: 6},
		"1d10z+1": {Count: 1, Sides: 10, Zero: true, Plus: 1},
	}
	for in, want := range good {
		got, err := Parse(in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got != want {
			t.Errorf("Parse(%q) = %+v, want %+v", in, got, want)
		}
	}
	bad := map[string]string{
		"":                         "no 'd'",
		"6":                        "no 'd'",
		"2x6":                      "no 'd'",
		"d":                        "no number of sides",
		"xd6":                      "not a whole number",
		"-1d6":                     "not a whole number",
		"0d6":                      "count 0 is out of range",
		"1d1":                      "sides 1 is out of range",
		"1d6+":                     "unexpected",
		"1d6*2":                    "unexpected",
		"1d6+x":                    "unexpected",
		"201d6":                    "count 201 is out of range",
		"1d6zz":                    "unexpected",
		"1d6+99999999999999999999": "larger than",
	}
	for in, frag := range bad {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) = nil error, want one containing %q", in, frag)
			continue
		}
		if !strings.Contains(err.Error(), frag) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q) error %q, want one line containing %q", in, err, frag)
		}
	}
}

func TestStringRoundTrip(t *testing.T) {
	for _, in := range []string{"1d10", "1d10z", "2d6", "1d6+4", "3d6-2", "48d6"} {
		s, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if s.String() != in {
			t.Errorf("String() = %q, want %q", s.String(), in)
		}
	}
}

func TestDistKnown(t *testing.T) {
	s, _ := Parse("2d6")
	d, _ := s.Dist()
	if got := d.Prob(7); got.Cmp(big.NewRat(1, 6)) != 0 {
		t.Errorf("P(2d6=7) = %s, want 1/6", got)
	}
	if got := d.Prob(12); got.Cmp(big.NewRat(1, 36)) != 0 {
		t.Errorf("P(2d6=12) = %s, want 1/36", got)
	}
	if got := d.Prob(13); got.Sign() != 0 {
		t.Errorf("P(2d6=13) = %s, want 0", got)
	}
	z, _ := Parse("1d10z")
	dz, _ := z.Dist()
	if dz.Min != 0 || len(dz.Ways) != 10 {
		t.Errorf("1d10z: min %d, %d totals; want 0 and 10", dz.Min, len(dz.Ways))
	}
	three, _ := Parse("3d6")
	d3, _ := three.Dist()
	if got := d3.Prob(10); got.Cmp(big.NewRat(27, 216)) != 0 {
		t.Errorf("P(3d6=10) = %s, want 27/216", got)
	}
}

func TestDistSumsToOne(t *testing.T) {
	for _, in := range []string{"1d10", "2d6", "5d8z", "20d6", "50d100"} {
		s, _ := Parse(in)
		d, err := s.Dist()
		if err != nil {
			t.Fatal(err)
		}
		sum := new(big.Rat)
		for i := range d.Ways {
			sum.Add(sum, d.Prob(d.Min+i))
		}
		if sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("%s: probabilities sum to %s", in, sum)
		}
	}
}

func TestSmallOverflow(t *testing.T) {
	s, _ := Parse("30d6")
	d, _ := s.Dist()
	if _, _, err := d.Small(); err == nil {
		t.Error("30d6 fits in int64, want an error")
	}
	s, _ = Parse("2d6")
	d, _ = s.Dist()
	ways, n, err := d.Small()
	if err != nil || n != 36 || ways[5] != 6 {
		t.Errorf("2d6 small: %v %d %v", ways, n, err)
	}
}

func TestDistTooLarge(t *testing.T) {
	s, _ := Parse("200d1000")
	if _, err := s.Dist(); err == nil || !strings.Contains(err.Error(), "too large to compute exactly") {
		t.Errorf("200d1000: %v", err)
	}
}

func TestSeededReproducibleAndRestorable(t *testing.T) {
	a, b := NewSeeded(42), NewSeeded(42)
	for range 100 {
		x, _ := a.Face(10, 1)
		y, _ := b.Face(10, 1)
		if x != y {
			t.Fatal("same seed gave different rolls")
		}
	}
	state, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var c Seeded
	if err := c.UnmarshalBinary(state); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		x, _ := a.Face(6, 1)
		y, _ := c.Face(6, 1)
		if x != y {
			t.Fatal("restored roller diverged")
		}
	}
}

func TestSeededFacesInRange(t *testing.T) {
	r := NewSeeded(7)
	seen := map[int]bool{}
	for range 1000 {
		f, _ := r.Face(10, 0)
		if f < 0 || f > 9 {
			t.Fatalf("face %d outside 0..9", f)
		}
		seen[f] = true
	}
	if len(seen) != 10 {
		t.Errorf("1000 rolls of a d10z showed %d faces", len(seen))
	}
}

func TestScripted(t *testing.T) {
	r := NewScripted(3, 4)
	s, _ := Parse("2d6+1")
	roll, err := s.Roll(r)
	if err != nil {
		t.Fatal(err)
	}
	if roll.Natural != 7 || roll.Total != 8 {
		t.Errorf("roll %+v, want natural 7 total 8", roll)
	}
	if _, err := s.Roll(r); !errors.Is(err, ErrNoRoll) {
		t.Errorf("exhausted roller: err %v, want ErrNoRoll", err)
	}
	bad := NewScripted(0)
	if _, err := bad.Face(10, 1); err == nil || !strings.Contains(err.Error(), "allowed 1..10") {
		t.Errorf("face 0 on a d10: err %v", err)
	}
	if r := NewScripted(0); r.Left() != 1 {
		t.Error("Left")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"1d10", "1d10z", "2d6", "1d6+4", "d6", "3d6-2", "0d0", "1d", "d", "1d6zz", "999999999999d6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error for %q", in)
			}
			return
		}
		if err := s.Valid(); err != nil {
			t.Errorf("Parse(%q) accepted an invalid spec: %v", in, err)
		}
		again, err := Parse(s.String())
		if err != nil || again != s {
			t.Errorf("round trip %q -> %q -> %+v, %v", in, s, again, err)
		}
	})
}
