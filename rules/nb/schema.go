package nb

import "orderly/game"

// BoardTypes says the types of NB's part of a seat's board (game.Boarded):
// its state and the words of its orders (Words); it annotates nothing.
// The server's board schema is made from them.
func (r *Rules) BoardTypes() game.BoardTypes {
	return game.BoardTypes{State: &State{}, Words: OrderText{}}
}
