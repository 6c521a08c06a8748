package battle

// NameOf is the name the scenario gives a formation or general ("" if it
// gives none, or id is neither).
func (sc *Scenario) NameOf(id string) string {
	if f := sc.Formation(id); f != nil {
		return f.Name
	}
	if g := sc.General(id); g != nil {
		return g.Name
	}
	return ""
}
