package bp

import "orderly/game"

// BoardTypes says the types of BP's part of a seat's board (game.Boarded):
// its state and what Annotate adds (Board). The server's board schema is made from them.
func (r *Rules) BoardTypes() game.BoardTypes {
	return game.BoardTypes{State: &State{}, Notes: Board{}}
}
