package nb

// SeePlacements has the rule set bring engagement (NB-6) up to date for
// the units the umpire places, for tests that place pieces (Rules.placed).
func SeePlacements(r *Rules) { r.placed = true }
