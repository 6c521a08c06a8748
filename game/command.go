package game

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/strict"
)

// The engine's own verbs: a side is ready to end the step, or the umpire
// ends it. Every other verb is the rule set's (Rules.Verbs).
const (
	Ready = "ready"
	End   = "end"
)

// Command is one thing a player (or the umpire) asks the engine to do: the
// side that gives it, the verb, and the verb's arguments as the rule set
// decoded them (Rules.Decode).
type Command struct {
	Side string `json:"side"` // the side that gives it, or umpire
	Verb string `json:"verb"`
	Step string `json:"step,omitempty"` // for end: the step or phase being ended
	Args any    `json:"args,omitempty"`
}

// Sizer is a command's arguments that name pieces: Size is how many ids
// they name, for a server's limit per command.
type Sizer interface{ Size() int }

// Size is how many ids c names (Sizer), 0 if its arguments name none.
func (c *Command) Size() int {
	if s, ok := c.Args.(Sizer); ok {
		return s.Size()
	}
	return 0
}

// DecodeCommand reads a command of rule set r from YAML or JSON, such as
// {side: french, end: true}. where names it in messages.
func DecodeCommand(r Rules, data []byte, where string) (Command, error) {
	rd := strict.Reader{File: where, Want: "a command such as {side: french, end: true}"}
	n, err := rd.Parse(data)
	if err != nil {
		return Command{}, err
	}
	return CommandFromNode(r, rd, n, "command")
}

// CommandFromNode reads a command of rule set r from a parsed YAML node.
func CommandFromNode(r Rules, rd strict.Reader, n *yaml.Node, where string) (Command, error) {
	verbs := append(r.Verbs(), Ready, End)
	f, err := rd.Fields(n, where, append([]string{"side"}, verbs...)...)
	if err != nil {
		return Command{}, err
	}
	var c Command
	if f["side"] == nil {
		return c, rd.Errf(n, "%s: side is missing: the side that gives the command, or umpire", where)
	}
	if c.Side, err = rd.ID(f["side"], where+".side"); err != nil {
		return c, err
	}
	var given []string
	for _, v := range verbs {
		if f[v] != nil {
			given = append(given, v)
		}
	}
	if len(given) != 1 {
		return c, rd.Errf(n, "%s: give exactly one of %s; got %s", where, strings.Join(verbs, ", "), orNothing(given))
	}
	c.Verb = given[0]
	v := f[c.Verb]
	w := where + "." + c.Verb
	switch c.Verb {
	case Ready:
		if !isTrue(v) {
			err = rd.Errf(v, "%s: want true, got %s", w, strict.KindName(v))
		}
	case End:
		switch {
		case isTrue(v):
		case v.Kind != yaml.ScalarNode || v.Tag != "!!str":
			err = rd.Errf(v, "%s: want true, or the name of the step or phase being ended, got %s", w, strict.KindName(v))
		default:
			c.Step, err = rd.Word(v, w)
		}
	default:
		c.Args, err = r.Decode(c.Verb, rd, v, w)
	}
	return c, err
}

func isTrue(v *yaml.Node) bool {
	return v.Kind == yaml.ScalarNode && v.Tag == "!!bool" && strings.EqualFold(v.Value, "true")
}

func orNothing(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, " and ")
}
