package game

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"orderly/dice"
	"orderly/strict"
	"orderly/table"
)

// Where a game's dice are thrown (issue 15, table dice): by the server
// (the default), at the table for every roll, or at the table for the
// rolls everyone sees while the server keeps drawing the umpire's secret
// ones (mixed).
const (
	DiceServer = "server"
	DiceTable  = "table"
	DiceMixed  = "mixed"
)

// FromTable marks a roll whose dice were thrown at the table (Roll.From).
const FromTable = "table"

// DiceModes lists the dice modes, the default first.
func DiceModes() []string { return []string{DiceServer, DiceTable, DiceMixed} }

// CheckDice checks a dice mode; "" is the server's.
func CheckDice(mode string) error {
	if mode == "" || slices.Contains(DiceModes(), mode) {
		return nil
	}
	return fmt.Errorf("dice %s is not a dice mode; allowed: %s", strict.Quote(mode, 40), strings.Join(DiceModes(), ", "))
}

// TableDice reports whether mode has any roll thrown at the table.
func TableDice(mode string) bool { return mode == DiceTable || mode == DiceMixed }

// WithDice plays the game in a dice mode: DiceTable or DiceMixed have the
// dice of a command's rolls given with the command (Command.Dice);
// DiceServer or "" draws them all. The rolls of the setup, made before
// anyone sits at the table, are always the server's.
func WithDice(mode string) Option { return func(o *options) { o.dice = mode } }

// Most dice a command may carry: rolls, and faces in all.
const (
	MaxGiven      = 64
	MaxGivenFaces = 512
)

// Given is the dice of one roll thrown at the table: the table rolled,
// what for (its subject, as the roll records it), and the faces in the
// order the table reads them (for a pool, each stage's dice in turn, a
// die's reroll right after it).
type Given struct {
	Table   string `json:"table"`
	Subject string `json:"for"`
	Faces   []int  `json:"faces"`
}

// NeedDice refuses a command whose roll is thrown at the table when the
// command did not give its dice: the page asks for them and sends the
// command again with them. Nothing changed, except that a step the
// command ended may have begun to advance (see Game.Do).
type NeedDice struct {
	Table   string `json:"table"`
	Subject string `json:"for"`
	Dice    string `json:"dice"`  // the roll's dice, such as 2d6
	Sides   int    `json:"sides"` // of each die
	Low     int    `json:"low"`   // its lowest face (1, or 0 for a d10 read 0-9)
	Given   int    `json:"given"` // faces already given for this roll
	More    int    `json:"more"`  // at least this many more are needed
}

func (e *NeedDice) Error() string {
	if e.Given > 0 {
		return fmt.Sprintf("the %s roll for %s needs %d more d%d after the %d given", e.Table, e.Subject, e.More, e.Sides, e.Given)
	}
	return fmt.Sprintf("the %s roll for %s is thrown at the table: give the faces of its %s", e.Table, e.Subject, e.Dice)
}

// hand holds the dice given with the command being carried out.
type hand struct {
	mode  string
	on    bool // a command is being carried out
	side  string
	given []Given
	used  []bool
}

// start readies the dice of command c.
func (h *hand) start(c *Command) error {
	h.on, h.side, h.given = TableDice(h.mode), c.Side, c.Dice
	if len(c.Dice) == 0 {
		return nil
	}
	if !h.on {
		return Reject("", "the command gives dice, but this game's dice are drawn by the server")
	}
	if len(c.Dice) > MaxGiven {
		return Reject("", "the command gives the dice of %d rolls; at most %d may be given at once", len(c.Dice), MaxGiven)
	}
	n := 0
	for i, gv := range c.Dice {
		n += len(gv.Faces)
		if len(gv.Faces) == 0 {
			return Reject("", "dice %d (%s for %s) gives no faces", i+1, strict.Quote(gv.Table, 40), strict.Quote(gv.Subject, 40))
		}
	}
	if n > MaxGivenFaces {
		return Reject("", "the command gives %d dice in all; at most %d may be given at once", n, MaxGivenFaces)
	}
	h.used = slices.Grow(h.used[:0], len(c.Dice))[:len(c.Dice)]
	clear(h.used)
	return nil
}

// done checks that every die given was used, and ends the command.
func (h *hand) done() error {
	defer h.stop()
	return h.unused()
}

// unused refuses dice given for a roll the command did not make.
func (h *hand) unused() error {
	for i, gv := range h.given {
		if !h.used[i] {
			return Reject("", "dice were given for a %s roll for %s, which the command did not make", strict.Quote(gv.Table, 40), strict.Quote(gv.Subject, 40))
		}
	}
	return nil
}

func (h *hand) stop() { h.on, h.given, h.side = false, nil, "" }

// roller is the dice given for the next roll of t for subject, or nil
// when the roll is the server's to draw; in DiceTable mode a roll with no
// dice given gets a roller that asks for them.
func (h *hand) roller(t *table.Table, subject string) *thrown {
	if !h.on {
		return nil
	}
	for i, gv := range h.given {
		if !h.used[i] && gv.Table == t.ID && gv.Subject == subject {
			h.used[i] = true
			return &thrown{faces: gv.Faces}
		}
	}
	if h.mode == DiceTable {
		return &thrown{}
	}
	return nil
}

// thrown is a roll's dice thrown at the table: it hands out the given
// faces in order and, when they run short, notes how many the roll needs.
type thrown struct {
	faces []int
	used  int
	want  int // the dice asked for so far, and announced (dice.Expecter)
	sides int
	low   int
}

var errShort = errors.New("the dice given ran short")

// noFace is a die given with a face it does not have.
type noFace struct{ n, face, sides, low int }

func (e *noFace) Error() string {
	return fmt.Sprintf("die %d shows %d, which a d%d does not have; allowed: %d to %d", e.n, e.face, e.sides, e.low, e.low+e.sides-1)
}

// Expect implements dice.Expecter.
func (t *thrown) Expect(n int) { t.want = max(t.want, t.used) + n }

// Face implements dice.Roller.
func (t *thrown) Face(sides, low int) (int, error) {
	t.sides, t.low = sides, low
	if t.used >= len(t.faces) {
		return 0, errShort
	}
	f := t.faces[t.used]
	if f < low || f > low+sides-1 {
		return 0, &noFace{n: t.used + 1, face: f, sides: sides, low: low}
	}
	t.used++
	return f, nil
}

// refusal turns an error drawing t's roll for subject into what the
// command gets: NeedDice for dice that ran short, a refusal for a face
// that does not exist.
func (t *thrown) refusal(tab *table.Table, subject string, err error) error {
	if errors.Is(err, errShort) {
		more := max(1, t.want-len(t.faces))
		d := fmt.Sprintf("%dd%d", more, t.sides)
		if t.low == 0 {
			d += "z"
		}
		return &NeedDice{Table: tab.ID, Subject: subject, Dice: d, Sides: t.sides, Low: t.low, Given: len(t.faces), More: more}
	}
	var nf *noFace
	if errors.As(err, &nf) {
		return Reject("", "the dice given for the %s roll for %s: %v", tab.ID, subject, nf)
	}
	return err
}

// check refuses dice given for a roll that it did not take.
func (t *thrown) check(tab *table.Table, subject string) error {
	if t.used < len(t.faces) {
		return Reject("", "%d dice were given for the %s roll for %s, which took %d", len(t.faces), tab.ID, subject, t.used)
	}
	return nil
}

// audit checks, in DiceMixed mode, that the rolls of e were thrown where
// they belong: at the table if everyone sees e, by the server if not.
func (h *hand) audit(e *Event) error {
	if !h.on || h.mode != DiceMixed {
		return nil
	}
	for i := range e.Rolls {
		r := &e.Rolls[i]
		switch {
		case e.See != All && r.From == FromTable:
			return Reject("", "the %s roll for %s is secret, and the server draws it; give no dice for it", r.Table, r.Subject)
		case e.See == All && r.From != FromTable && r.thrown():
			d, err := dice.Parse(r.Dice)
			if err != nil {
				return fmt.Errorf("the %s roll for %s: its dice %q: %w", r.Table, r.Subject, r.Dice, err)
			}
			return &NeedDice{Table: r.Table, Subject: r.Subject, Dice: d.String(), Sides: d.Sides, Low: d.Low(), More: d.Count}
		}
	}
	return nil
}

// thrown reports whether any die was thrown for r (a roll a table reads
// without dice, such as a stage no face can change, throws none).
func (r *Roll) thrown() bool {
	if len(r.Faces) > 0 {
		return true
	}
	for _, s := range r.Stages {
		if len(s.Faces) > 0 {
			return true
		}
	}
	return false
}
