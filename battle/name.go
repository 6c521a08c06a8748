package battle

// NameOf is the name the scenario gives a formation, general or unit (""
// if it gives none, or id is none of these).
func (sc *Scenario) NameOf(id string) string {
	if f := sc.Formation(id); f != nil {
		return f.Name
	}
	if g := sc.General(id); g != nil {
		return g.Name
	}
	if u := sc.Unit(id); u != nil {
		return u.Name
	}
	return ""
}
