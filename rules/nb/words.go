package nb

import "orderly/game"

// OrderText is the orders of a seat's state in the words the log uses
// for an order: kind, objective and quoted note.
type OrderText struct {
	// Orders words each written order (state.orders), by its id.
	Orders map[string]string `json:"orders"`
	// Acting words the order each formation acts on (formation.order), by
	// the formation's id: an id alone does not say, since an attack order
	// completed keeps its id and becomes defend (SPEC NB-8).
	Acting map[string]string `json:"acting"`
	// Then words the order an off-board reserve follows once it enters
	// (formation.then, SPEC NB-10), by the formation's id.
	Then map[string]string `json:"then"`
}

// Words gives every order of a seat's view in the words the log uses
// (game.Worder).
func (r *Rules) Words(gs *game.State) any {
	state := of(gs)
	out := OrderText{Orders: map[string]string{}, Acting: map[string]string{}, Then: map[string]string{}}
	for _, o := range state.Orders {
		out.Orders[o.ID] = o.Order.String()
	}
	for _, f := range state.Formations {
		if f.Order != nil {
			out.Acting[f.ID] = f.Order.String()
		}
		if f.Then != nil {
			out.Then[f.ID] = f.Then.String()
		}
	}
	return out
}
