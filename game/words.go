package game

import (
	"fmt"
	"strings"

	"orderly/battle"
)

// Count is n with its noun in the number n takes: "1 casualty",
// "3 casualties", "0 hits". It is how a log line counts things, in place
// of codes such as "casualty(ies)" or "(1 units)".
func Count(n int, one, many string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Kinded is a name with the kind of thing it names before it ("division
// Foy"), or the name alone if one of its words already says the kind
// ("Division Foy", "the Guard division"), so that no line reads
// "division Division Foy".
func Kinded(kind, name string) string {
	for w := range strings.FieldsSeq(strings.ToLower(name)) {
		if strings.Trim(w, ",.'") == strings.ToLower(kind) {
			return name
		}
	}
	return kind + " " + name
}

// Names is the function that shows an id of sc to people: the name the
// scenario gives the general, unit or formation with that id, or the id
// itself where the scenario gives none (or sc is nil). Sides keep their
// ids, which the log already reads as words ("the french turn").
func Names(sc *battle.Scenario) func(string) string {
	names := map[string]string{}
	if sc != nil {
		for _, g := range sc.Generals() {
			names[g.ID] = g.Name
		}
		for _, u := range sc.Units() {
			names[u.ID] = u.Name
		}
		for _, f := range sc.Formations() {
			names[f.ID] = f.Name
		}
	}
	return func(id string) string {
		if n := names[id]; n != "" {
			return n
		}
		return id
	}
}

// Formed is a formation (a piece's shape) as prose after a verb: "in
// line", "in march column", "in skirmish order"; artillery's "limbered"
// and "unlimbered" say it alone, so no line reads "is in unlimbered".
func Formed(shape string) string {
	switch shape {
	case "limbered", "unlimbered":
		return shape
	case "skirmish":
		return "in skirmish order"
	}
	return "in " + strings.ReplaceAll(shape, "-", " ")
}
