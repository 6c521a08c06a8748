package game

import (
	"reflect"

	"orderly/schema"
)

// BoardTypes are the types of what a rule set puts on a seat's board
// beside the engine's: zero values whose types say the JSON a page is
// sent, so that a schema of the board can be made from them and every
// board checked against it.
type BoardTypes struct {
	// State is its part of the state (Rules.Init's Ext, as View leaves
	// it), written beside the core's fields.
	State Ext
	// Notes is what Annotate returns (Annotator); nil for a rule set whose
	// Annotate always returns nil.
	Notes any
	// Words is what Words returns (Worder); nil for a rule set that is no
	// Worder.
	Words any
}

// Boarded is a rule set that says the types of its part of the board, so
// that a schema of every board it sends can be made (part of Rules).
type Boarded interface {
	BoardTypes() BoardTypes
}

// BuildSchema is the schema of the state as MarshalJSON writes it: the
// core's fields, and those of s.Ext beside them (schema.Builder). A state
// with no Ext gives the core's alone.
func (s *State) BuildSchema(g *schema.Generator) (map[string]any, error) {
	type core State
	ts := []reflect.Type{reflect.TypeFor[core]()}
	if s != nil && s.Ext != nil {
		ts = append(ts, reflect.TypeOf(s.Ext))
	}
	return g.Object(ts...)
}
