package game

import (
	"orderly/battle"
	"orderly/geom"
)

// Forecast names the roll that will decide when a formation acts on an
// order not yet written: the table and the parameters it will be rolled
// with, so that its odds can be shown before the order is sent.
type Forecast struct {
	Formation string            `json:"formation"`
	General   string            `json:"general"`
	Table     string            `json:"table,omitempty"` // "" when no roll will be made
	Params    map[string]string `json:"params,omitempty"`
	// Dice are a piece's class dice that stand in for the table's (SPEC
	// CD-1), or "" for the table's own.
	Dice string `json:"dice,omitempty"`
	Note string `json:"note,omitempty"` // why no roll, or what follows
	// Messenger is when the messenger that would carry the order should
	// bring it, for a rule set whose orders ride (SPEC NB-3, NB-4); nil
	// when none would ride or the rule set cannot say.
	Messenger *Delivery `json:"messenger,omitempty"`
	// Path is the way a move would go, or the line a shot or a look
	// would follow, for a page to draw: positions of the scenario's
	// space, the start first; nil when there is none.
	Path []geom.Point `json:"path,omitempty"`
}

// Delivery is when a messenger sent now should bring an order: it leaves
// general From, rides Distance to general To at Speed a turn (both in the
// field's units), and should reach him on turn Delivered, were he to stay
// where he is. The order is then read on turn Read; Read is 0 when it is
// acted on at delivery, with no reading (SPEC NB-9).
type Delivery struct {
	From      string  `json:"from"`
	To        string  `json:"to"`
	Distance  float64 `json:"distance"`
	Speed     float64 `json:"speed"`
	Delivered int     `json:"delivered"`
	Read      int     `json:"read,omitempty"`
}

// Forecaster is a rule set that can forecast the rolls an order will meet.
type Forecaster interface {
	// Forecast returns one forecast per formation the order of side in
	// game sc is for (args: the arguments of the rule set's verb that
	// writes orders, as Decode gives them), or an *Error if the order
	// could not be written as it stands.
	Forecast(sc *battle.Scenario, s *State, side string, args any) ([]Forecast, error)
	// Kinds lists the kinds of order a player may write.
	Kinds() []string
	// Writes is the verb that writes an order.
	Writes() string
}

// Reacher is a rule set with an engagement range, for drawing it on a map.
// Optional: only a rule set with one range for every piece (NB) has it.
type Reacher interface {
	// Reach is how close an enemy must come to engage, in the field's units.
	Reach() float64
	// Reaching lists the pieces of the view s that engage an enemy who
	// comes within Reach of them, so that a page draws their reach
	// without knowing which pieces count.
	Reaching(s *State) []string
}
