package game

// Warning is a problem the rules will report at the end of the current
// step (an order beyond command range, an attack under its minimum, a
// formation out of coherence), said while the seat can still put it
// right.
type Warning struct {
	// Rule is the SPEC ID of the rule that will report it.
	Rule string `json:"rule"`
	// Piece is the piece or formation it is about, if one.
	Piece string `json:"piece,omitempty"`
	// Text is one sentence in the log's words.
	Text string `json:"text"`
}

// Left is a count of commands a seat has left, such as the orders it may
// still write this turn.
type Left struct {
	// Rule is the SPEC ID of the rule that sets the limit.
	Rule string `json:"rule"`
	// What is what is counted, in words ("orders this turn").
	What string `json:"what"`
	// Left of Of remain.
	Left int `json:"left"`
	Of   int `json:"of"`
}

// Advice is what a seat is told before it declares itself ready: the
// warnings of the rules as things stand, and its commands left.
type Advice struct {
	Warnings []Warning `json:"warnings,omitempty"`
	Left     []Left    `json:"left,omitempty"`
}

// Adviser is a rule set that warns a seat of what its rules will report
// at the end of the step, worked out from that seat's knowledge alone
// (under fog, unseen enemy pieces are treated as absent). Optional: a
// rule set without it gives no advice.
type Adviser interface {
	// Advise is the advice for seat (a side, or Umpire for every side)
	// in s, that seat's view, during step; name shows an id to people as
	// the log does (Names), so that a warning reads as the log will. It
	// returns nil when there is nothing to say.
	Advise(s *State, step Step, seat string, name func(string) string) *Advice
}
