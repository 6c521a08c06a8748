package game

// The stages of an order's life, as the after-action report tells them
// (issue 36): written by a commander, sent (a messenger or a marker on its
// way), arrived where it was going, read (or accepted, with its delay),
// acted on, and ended without being acted on (lost, ignored, refused,
// superseded). A rule set whose orders are a roll to act (a command roll,
// activation dice) has only Read and Acted, or Failed.
const (
	OrderWritten = "written"
	OrderSent    = "sent"
	OrderArrived = "arrived"
	OrderRead    = "read"
	OrderActed   = "acted"
	OrderFailed  = "failed"
)

// OrderStages lists the stages in the order of an order's life.
func OrderStages() []string {
	return []string{OrderWritten, OrderSent, OrderArrived, OrderRead, OrderActed, OrderFailed}
}

// Life is one stage of one order's life that an event records.
type Life struct {
	// Stage is one of OrderStages.
	Stage string `json:"stage"`
	// Order names the order, so that the stages of one order's life are
	// told together: its id where the rule set gives orders ids, else the
	// formation or piece it is for.
	Order string `json:"order"`
	// For is the formation or piece the order is for (an id).
	For string `json:"for,omitempty"`
	// Acts is the turn it is to be acted on, when this stage sets it (a
	// read order's delay); 0 when it sets none.
	Acts int `json:"acts,omitempty"`
	// Text is what happened, in the log's words; empty for the event's
	// own description.
	Text string `json:"text,omitempty"`
}

// Chronicler is a rule set that tells the after-action report the lives
// of its orders: which stages of which orders an event records. Optional:
// without it the report lists the events the rule set describes. An
// event that is no order's gives none. name shows an id to people, as
// in Rules.Describe.
type Chronicler interface {
	Chronicle(e *Event, name func(id string) string) []Life
}
