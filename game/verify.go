package game

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"

	"orderly/dice"
)

// Seed is a secret dice key of a game with verifiable dice: the rolls in
// events numbered From and later are drawn from it, until the next seed's
// From. Its commitment is published when it is made; the key itself when
// the umpire reveals it.
type Seed struct {
	From       int    `json:"from"`
	Commitment string `json:"commitment"`
	Key        []byte `json:"key,omitempty"` // nil while secret
}

// RollLabel is the label a roll is drawn under (dice.Keyed): the sequence
// number of the event that records it and the table rolled.
func RollLabel(seq int, table string) string {
	return fmt.Sprintf("orderly/roll/v1/%d/%s", seq, table)
}

type committed struct{ seeds []Seed }

func (c committed) Roller(k RollKey) dice.Roller {
	s := c.seeds[0]
	for _, t := range c.seeds[1:] {
		if t.From <= k.Seq {
			s = t
		}
	}
	return dice.NewKeyed(s.Key, RollLabel(k.Seq, k.Table))
}

// Committed is Dice drawn from seeds (sorted by From, every key given), so
// that each roll can be checked once its seed is revealed.
func Committed(seeds []Seed) Dice { return committed{slices.Clone(seeds)} }

// Verified counts what VerifyRolls checked.
type Verified struct {
	Rolls  int // rolls whose faces were drawn again and matched
	Secret int // rolls under a seed not yet revealed
}

// VerifyRolls checks every roll in events against the seeds: each revealed
// key must match its commitment, and each roll's faces must be the ones the
// key gives for its event and table. Rolls under a seed still secret are
// counted, not checked.
func VerifyRolls(events []Event, seeds []Seed) (Verified, error) {
	var v Verified
	if len(seeds) == 0 {
		return v, fmt.Errorf("the game has no dice seeds to check against")
	}
	for i, s := range seeds {
		if i == 0 && s.From > 1 || i > 0 && s.From <= seeds[i-1].From {
			return v, fmt.Errorf("seed %d starts at event %d, out of order", i+1, s.From)
		}
		if s.Key == nil {
			continue
		}
		want, err := hex.DecodeString(s.Commitment)
		if err != nil || len(want) != 32 {
			return v, fmt.Errorf("seed %d: commitment %q is not 64 hex digits", i+1, s.Commitment)
		}
		got, _ := hex.DecodeString(dice.Commitment(s.Key))
		if !bytes.Equal(got, want) {
			return v, fmt.Errorf("seed %d: the revealed key does not match its commitment %s", i+1, s.Commitment)
		}
	}
	for i := range events {
		e := &events[i]
		if e.Roll == nil {
			continue
		}
		s := seeds[0]
		for _, t := range seeds[1:] {
			if t.From <= e.Seq {
				s = t
			}
		}
		if s.Key == nil {
			v.Secret++
			continue
		}
		spec, err := dice.Parse(e.Roll.Dice)
		if err != nil {
			return v, fmt.Errorf("event %d (%s): dice %q: %w", e.Seq, e.Type, e.Roll.Dice, err)
		}
		want, err := spec.Roll(dice.NewKeyed(s.Key, RollLabel(e.Seq, e.Roll.Table)))
		if err != nil {
			return v, fmt.Errorf("event %d (%s): %w", e.Seq, e.Type, err)
		}
		if !slices.Equal(want.Faces, e.Roll.Faces) || want.Natural != e.Roll.Natural {
			return v, fmt.Errorf("event %d (%s, %s): the log shows %v (natural %d), the seed gives %v (natural %d)",
				e.Seq, e.Type, e.Roll.Table, e.Roll.Faces, e.Roll.Natural, want.Faces, want.Natural)
		}
		v.Rolls++
	}
	return v, nil
}
