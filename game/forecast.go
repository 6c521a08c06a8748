package game

import "orderly/battle"

// Forecast names the roll that will decide when a formation acts on an
// order not yet written: the table and the parameters it will be rolled
// with, so that its odds can be shown before the order is sent.
type Forecast struct {
	Formation string            `json:"formation"`
	General   string            `json:"general"`
	Table     string            `json:"table,omitempty"` // "" when no roll will be made
	Params    map[string]string `json:"params,omitempty"`
	Note      string            `json:"note,omitempty"` // why no roll, or what follows
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
type Reacher interface {
	// Reach is how close an enemy must come to engage, in the field's units.
	Reach() float64
}
