package nb

import "orderly/game"

// BoardTypes says the types of NB's part of a seat's board (game.Boarded):
// its state, what it annotates the board with (Annotate: the targets of
// attach and redirect) and the words of its orders (Words). The server's
// board schema is made from them.
func (r *Rules) BoardTypes() game.BoardTypes {
	return game.BoardTypes{State: &State{}, Notes: Board{}, Words: OrderText{}}
}
