package game

import (
	"fmt"
	"slices"

	"orderly/dice"
	"orderly/strict"
	"orderly/table"
)

// Seed is a secret dice key of a game with verifiable dice (dice.Seed):
// the rolls in events numbered From and later are drawn from it, until
// the next seed's From. Its commitment is published when it is made; the
// key itself when the umpire reveals it.
type Seed = dice.Seed

// RollLabel is the label a roll is drawn under (dice.Keyed):
// orderly/roll/v2/{seq}/{index}/{table}/{subject}, with seq the number of
// the event that records the roll, index the number of rolls drawn for
// that event before it, the table's id and the roll's subject (a
// formation or general id, which has no slash). Two rolls of a game never
// share a label, so never their faces by construction.
func RollLabel(seq, index int, table, subject string) string {
	return fmt.Sprintf("orderly/roll/v2/%d/%d/%s/%s", seq, index, table, subject)
}

type committed struct{ seeds []Seed }

func (c committed) Roller(k RollKey) dice.Roller {
	return dice.NewKeyed(seedOf(c.seeds, k.Seq).Key, RollLabel(k.Seq, k.Index, k.Table, k.Subject))
}

// Committed is Dice drawn from seeds (sorted by From, every key given), so
// that each roll can be checked once its seed is revealed.
func Committed(seeds []Seed) Dice { return committed{slices.Clone(seeds)} }

// Mismatch is where a log first fails a check. It says what disagrees and
// never the value that would agree (a forger's next try).
type Mismatch struct {
	Seq  int    // the event; 0 for the seeds
	Type string // the event's type
	What string
}

func (m *Mismatch) Error() string {
	if m.Seq == 0 {
		return m.What
	}
	return fmt.Sprintf("event %d (%s): %s", m.Seq, strict.Line(m.Type, 40), m.What)
}

func mismatch(e *Event, format string, args ...any) *Mismatch {
	return &Mismatch{Seq: e.Seq, Type: e.Type, What: fmt.Sprintf(format, args...)}
}

// checkSeeds checks a game's seeds: the first starts at event 1, each
// later one after the one before, every commitment (revealed or not) is 64
// lowercase hex digits and every key given matches its commitment.
func checkSeeds(seeds []Seed) error {
	if len(seeds) == 0 {
		return &Mismatch{What: "the game has no dice seeds"}
	}
	for i, s := range seeds {
		switch {
		case i == 0 && s.From != 1:
			return &Mismatch{What: fmt.Sprintf("seed 1 starts at event %d, not at event 1", s.From)}
		case i > 0 && s.From <= seeds[i-1].From:
			return &Mismatch{What: fmt.Sprintf("seed %d starts at event %d, not after seed %d (event %d)", i+1, s.From, i, seeds[i-1].From)}
		case !IsHash(s.Commitment):
			return &Mismatch{What: fmt.Sprintf("seed %d: its commitment is not 64 lowercase hex digits", i+1)}
		case s.Key != nil && dice.Commitment(s.Key) != s.Commitment:
			return &Mismatch{What: fmt.Sprintf("seed %d: its key does not match its commitment", i+1)}
		}
	}
	return nil
}

// IsHash reports whether s is 64 lowercase hex digits, as a commitment,
// an event's hash or a head is written.
func IsHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// seedOf is the seed whose events include seq: the last one whose From
// is not after it (seeds sorted by From; the first covers event 1).
func seedOf(seeds []Seed, seq int) Seed {
	s := seeds[0]
	for _, t := range seeds[1:] {
		if t.From <= seq {
			s = t
		}
	}
	return s
}

// Verified counts what VerifyRolls checked.
type Verified struct {
	Rolls  int // rolls drawn again from their revealed seed and matched
	Secret int // rolls under a seed not yet revealed: counted, not checked
	// Table counts the rolls whose dice were thrown at the table
	// (Roll.From): no seed draws them, so only what the table makes of
	// their faces is checked.
	Table int
}

// VerifyRolls checks every roll in events against the seeds and the
// tables (a rule set's Table, with the house rules the game was played
// under). The seeds must be in order, each commitment 64 hex digits and
// each revealed key must match its commitment. A roll under a revealed key
// must be in the order drawn for its event (its index its place among the
// event's rolls), show the faces its
// label (RollLabel) gives, and its natural, modifiers, total and result
// must be what its table gives for those faces and its recorded params.
// Rolls under a seed still secret are counted, not checked. The first
// disagreement is a *Mismatch.
func VerifyRolls(events []Event, seeds []Seed, tables func(id string) (*table.Table, error)) (Verified, error) {
	var v Verified
	if err := checkSeeds(seeds); err != nil {
		return v, err
	}
	for i := range events {
		e := &events[i]
		if len(e.Rolls) == 0 {
			continue
		}
		s := seedOf(seeds, e.Seq)
		for j := range e.Rolls {
			switch r := &e.Rolls[j]; {
			case r.From == FromTable:
				if err := checkRoll(e, j, nil, tables); err != nil {
					return v, err
				}
				v.Table++
			case r.From != "":
				return v, mismatch(e, "its roll on table %s says its dice came from %s; allowed: %s, or nothing for the server's", strict.Quote(r.Table, 40), strict.Quote(r.From, 40), FromTable)
			case s.Key == nil:
				v.Secret++
			default:
				if err := checkRoll(e, j, s.Key, tables); err != nil {
					return v, err
				}
				v.Rolls++
			}
		}
	}
	return v, nil
}

func checkRoll(e *Event, j int, key []byte, tables func(id string) (*table.Table, error)) error {
	r := &e.Rolls[j]
	if r.Index != j {
		return mismatch(e, "a roll is recorded out of the order drawn for it (index %d, not %d)", r.Index, j)
	}
	t, err := tables(r.Table)
	if err != nil {
		return mismatch(e, "its roll is on table %s, which these rules do not have (a game played under house rules is checked with the same ones: --rules FILE)", strict.Quote(r.Table, 80))
	}
	if t.ClassDice && r.Dice != t.Dice.String() {
		// A piece's class dice stood in for the table's (SPEC CD-1).
		d, err := dice.Parse(r.Dice)
		var ct *table.Table
		if err == nil {
			ct, err = t.WithDice(d)
		}
		if err != nil {
			return mismatch(e, "its roll's dice %s cannot stand in for those of table %s", strict.Quote(r.Dice, 40), t.ID)
		}
		t = ct
	}
	a, err := t.Bind(r.Params)
	if err != nil {
		return mismatch(e, "its roll's params do not fit table %s: %v (a game played under house rules is checked with the same ones: --rules FILE)", t.ID, err)
	}
	// The table resolved with the keyed roller draws the faces the label
	// gives and reads them as Resolve with dice.NewScripted(faces...) would.
	// Dice thrown at the table (key nil) are read from the faces recorded.
	var rl dice.Roller
	wantFaces := r.Faces
	if key != nil {
		rl = dice.NewKeyed(key, RollLabel(e.Seq, r.Index, r.Table, r.Subject))
	} else {
		rl = dice.NewScripted(r.Faces...)
	}
	want, err := t.Resolve(a, rl)
	if err != nil {
		return mismatch(e, "its roll on table %s cannot be read again from its dice: %v", t.ID, err)
	}
	if key != nil || t.Pool == nil {
		wantFaces = want.Faces
	}
	switch {
	case r.Dice != want.Dice:
		return mismatch(e, "its roll's dice are not those of table %s", t.ID)
	case key == nil && (!slices.Equal(r.Faces, wantFaces) || r.Natural != want.Natural || !sameStages(r.Stages, want.Stages)):
		return mismatch(e, "its roll's faces are not the ones thrown at the table for it (table %s)", t.ID)
	case !slices.Equal(r.Faces, wantFaces) || r.Natural != want.Natural || !sameStages(r.Stages, want.Stages):
		return mismatch(e, "its roll's faces are not the ones its dice seed gives for it (table %s)", t.ID)
	case !sameMods(r.Mods, want.Mods):
		return mismatch(e, "the roll's modifiers do not follow from its params under table %s", t.ID)
	case r.Total != want.Total:
		return mismatch(e, "the roll's total does not follow from its faces and modifiers under table %s", t.ID)
	case r.Result != want.Result:
		return mismatch(e, "the roll's result does not follow from its total under table %s", t.ID)
	case !slices.Equal(r.Marks, want.Marks):
		return mismatch(e, "the roll's marks do not follow from its faces under table %s", t.ID)
	}
	return nil
}

// sameStages reports whether a pool roll's recorded stages are the ones
// drawn again.
func sameStages(got []Stage, want []table.StageRoll) bool {
	if len(got) != len(want) {
		return false
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.Name || g.Need != w.Need || g.Kept != w.Kept || g.Certain != w.Certain ||
			!slices.Equal(g.Faces, w.Faces) || !slices.Equal(g.Rerolls, w.Rerolls) {
			return false
		}
	}
	return true
}

func sameMods(got []Mod, want []table.Mod) bool {
	if len(got) != len(want) {
		return false
	}
	for i, m := range want {
		if got[i] != (Mod{Name: m.Name, Value: m.Value, Amount: m.Amount}) {
			return false
		}
	}
	return true
}

// Chained counts what VerifyChain checked.
type Chained struct {
	Checked   int // events whose hash follows from the log before them
	Unchecked int // events from the first under a seed still secret on
}

// VerifyChain follows the hash chain of events (see Chain) from what the
// game starts from and its seeds: each event must be numbered in turn
// and its hash must follow from the log before it (the first event's from
// the genesis). From the first event under a seed still secret on, the
// chain cannot be followed: those events are counted as unchecked. The
// first disagreement is a *Mismatch.
func VerifyChain(events []Event, seeds []Seed, b Basis) (Chained, error) {
	var v Chained
	c, err := NewChain(b, seeds)
	if err != nil {
		return v, err
	}
	prev := c.genesis
	for i := range events {
		e := &events[i]
		if e.Seq != i+1 {
			return v, &Mismatch{Seq: i + 1, Type: e.Type, What: fmt.Sprintf("it is numbered %d: an event was removed, added or moved at or before it", e.Seq)}
		}
		s := seedOf(seeds, e.Seq)
		if s.Key == nil {
			v.Unchecked = len(events) - i
			break
		}
		if e.Hash == "" {
			return v, mismatch(e, "it has no hash; every event of an exported game has one")
		}
		d, err := digest(s.Key, e)
		if err != nil {
			return v, err
		}
		switch {
		case link(&prev, &d) == e.Hash:
		case i == 0:
			return v, mismatch(e, "its hash does not follow from the chain's start, which binds %s: one of those, or this event, is not the one the game was played with", b.binds())
		default:
			return v, mismatch(e, "its hash does not follow from the log before it; the log was changed at or before this event")
		}
		if err := decodeHash(prev[:], e.Hash); err != nil {
			return v, mismatch(e, "its hash %v", err)
		}
		v.Checked++
	}
	return v, nil
}
