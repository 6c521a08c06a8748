package battle

// ShapesOf lists the formations a combat unit of type unitType may stand
// in, in the order of Shapes: foot in column, march column, line, square
// or skirmish order; horse in column, march column or line; guns limbered
// or unlimbered. It is nil for a type not in UnitTypes, and a new slice
// each call.
//
// The lists are the vocabulary of the pieces, shared by every rule set
// like UnitTypes and Shapes: the orders rules (SPEC NB) set no limit of
// their own and leave formations to the base game. A move is checked only
// against Shapes (and NB-7); the page offers a unit these.
func ShapesOf(unitType string) []string {
	switch unitType {
	case "infantry":
		return []string{"column", "march-column", "line", "square", "skirmish"}
	case "light-cavalry", "heavy-cavalry":
		return []string{"column", "march-column", "line"}
	case "artillery":
		return []string{"limbered", "unlimbered"}
	}
	return nil
}
