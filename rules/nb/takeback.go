package nb

import "orderly/game"

// TakesBack says which of NB's events a side may take back before it is
// ready (issue 36, game.Taker): a move (NB-7), an order written (NB-2)
// with its messenger set out beside the writer, who has not yet ridden
// (NB-3: messengers ride after the write step), a general attached to or
// detached from a formation. A messenger riding, an order delivered or
// read, engagement and every
// report of the end of a step tell something to the other side or the
// umpire and stay; so does anything that rolled (the engine refuses it).
func (r *Rules) TakesBack(e *game.Event) bool {
	switch e.Type {
	case Moved, OrderWritten, MessengerSent, Attached, Detached:
		return true
	}
	return false
}
