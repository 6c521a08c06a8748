package dice

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// Roller gives the face shown by one die with the given number of sides,
// read from low (1, or 0 for the hex-game dice) to low+sides-1.
type Roller interface {
	Face(sides, low int) (int, error)
}

// Seeded is a reproducible roller on a PCG generator. Its state can be saved
// and restored with MarshalBinary and UnmarshalBinary, so a game or a
// simulation can be resumed exactly.
type Seeded struct {
	pcg *rand.PCG
	r   *rand.Rand
}

// NewSeeded returns a roller whose sequence is fixed by seed.
func NewSeeded(seed uint64) *Seeded {
	pcg := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	return &Seeded{pcg: pcg, r: rand.New(pcg)}
}

// Face implements Roller.
func (s *Seeded) Face(sides, low int) (int, error) {
	if sides < 1 {
		return 0, fmt.Errorf("a die needs at least one side, got %d", sides)
	}
	return low + s.r.IntN(sides), nil
}

// MarshalBinary saves the generator state.
func (s *Seeded) MarshalBinary() ([]byte, error) { return s.pcg.MarshalBinary() }

// UnmarshalBinary restores a state saved by MarshalBinary.
func (s *Seeded) UnmarshalBinary(b []byte) error {
	if s.pcg == nil {
		*s = *NewSeeded(0)
	}
	if err := s.pcg.UnmarshalBinary(b); err != nil {
		return fmt.Errorf("restore seeded roller: %w", err)
	}
	return nil
}

// ErrNoRoll is returned by a Scripted roller that has no face left.
var ErrNoRoll = errors.New("no natural roll left")

// Scripted hands out given faces in order: the dice a player rolled at the
// table, or a test's. Running out is an error, never a silent random roll.
type Scripted struct {
	faces []int
	used  int
}

// NewScripted returns a roller that yields faces in order.
func NewScripted(faces ...int) *Scripted { return &Scripted{faces: append([]int(nil), faces...)} }

// Face implements Roller; the face must be one the die can show.
func (s *Scripted) Face(sides, low int) (int, error) {
	if s.used >= len(s.faces) {
		return 0, fmt.Errorf("needed a d%d after %d given rolls: %w", sides, len(s.faces), ErrNoRoll)
	}
	f := s.faces[s.used]
	if f < low || f > low+sides-1 {
		return 0, fmt.Errorf("given roll %d (number %d) is not a face of this d%d; allowed %d..%d", f, s.used+1, sides, low, low+sides-1)
	}
	s.used++
	return f, nil
}

// Left is how many given faces have not been used.
func (s *Scripted) Left() int { return len(s.faces) - s.used }

// Roll is one roll of a Spec: the faces shown, their sum and the total with
// the constant added.
type Roll struct {
	Faces   []int
	Natural int
	Total   int
}

// Expecter is a Roller told, before a throw, how many dice it will be
// asked for: a roller of dice thrown at the table can then say how many
// more it needs when it runs short, rather than one at a time.
type Expecter interface {
	Expect(n int)
}

// Expect tells r, if it is an Expecter, that n dice are about to be asked.
func Expect(r Roller, n int) {
	if e, ok := r.(Expecter); ok {
		e.Expect(n)
	}
}

// Roll rolls the spec's dice.
func (s Spec) Roll(r Roller) (Roll, error) {
	Expect(r, s.Count)
	out := Roll{Faces: make([]int, s.Count)}
	for i := range out.Faces {
		f, err := r.Face(s.Sides, s.Low())
		if err != nil {
			return Roll{}, fmt.Errorf("roll %s: %w", s, err)
		}
		out.Faces[i] = f
		out.Natural += f
	}
	out.Total = out.Natural + s.Plus
	return out, nil
}
