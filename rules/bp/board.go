package bp

// Bounds is a range of whole numbers, both ends included.
type Bounds struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// Declared bounds the modifier a player declares on an order or a volley
// (BP-1, BP-5): the reading of the situational modifiers the sources
// leave to the players, kept to -3..3; the command decoder refuses any
// other (modifier).
var Declared = Bounds{Min: -3, Max: 3}
