package game

import "encoding/json"

// The engine's event types for things taken back (issue 36): TakenBack
// records that the events of a side's last command are withdrawn (they
// stay in the log; the state is the fold of the log without them).
const TakenBack = "taken-back"

// Taken is the payload of a taken-back event: the seqs of the events
// withdrawn, the verb of the command they came from and the log's words
// for it.
type Taken struct {
	Of   []int  `json:"of"`
	Verb string `json:"verb"`
	Text string `json:"text,omitempty"`
}

// Withdrawn is the set of seqs a log's taken-back events withdraw: every
// reader that describes or counts what happened (a replay's list, a
// report, the luck) skips them. A payload still raw from JSON is read; one
// that does not read withdraws nothing.
func Withdrawn(log []Event) map[int]bool {
	out := map[int]bool{}
	for i := range log {
		e := &log[i]
		if e.Type != TakenBack {
			continue
		}
		var t *Taken
		switch d := e.Data.(type) {
		case *Taken:
			t = d
		case json.RawMessage:
			t = new(Taken)
			if json.Unmarshal(d, t) != nil {
				continue
			}
		default:
			continue
		}
		for _, s := range t.Of {
			out[s] = true
		}
	}
	return out
}
