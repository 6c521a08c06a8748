package game

import "orderly/battle"

// Outcome is how a game ended by the result its scenario defines: the
// winner (a side id, or empty for a draw), one sentence, and each side's
// points.
type Outcome struct {
	Winner string         `json:"winner,omitempty"`
	Text   string         `json:"text"`
	Points map[string]int `json:"points,omitempty"`
}

// Result works out the result sc defines from the state s; nil when sc
// defines none. Not yet written (issue 36, part outcome): nil.
func Result(sc *battle.Scenario, s *State) *Outcome { return nil }
