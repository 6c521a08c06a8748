package game

import (
	"fmt"
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
	// Dice are the dice of its rolls thrown at the table, in a game
	// played with table dice (WithDice).
	Dice []Given `json:"dice,omitempty"`
	// Quiet is an end given by a script's runner or a Monte Carlo run as
	// its way of going on from every step, not by an umpire cutting a
	// step short: it appends no step-ended event, as no seat is there to
	// be told. Never read from a command's text.
	Quiet bool `json:"-"`
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
	verbs := append(r.Verbs(), Ready, End, Place, Unready, TakeBack)
	f, err := rd.Fields(n, where, append([]string{"side", "dice"}, verbs...)...)
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
	if f["dice"] != nil {
		if c.Dice, err = givenDice(rd, f["dice"], where+".dice"); err != nil {
			return c, err
		}
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
	case Ready, Unready, TakeBack:
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
	case Place:
		c.Args, err = decodePlace(rd, v, w)
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

// givenDice reads the dice of a command's rolls thrown at the table: a
// list of {table, for, faces}.
func givenDice(rd strict.Reader, n *yaml.Node, where string) ([]Given, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil // none, as a page that has none to give sends it
	}
	if n.Kind != yaml.SequenceNode {
		return nil, rd.Errf(n, "%s: want a list of rolls such as [{table: nb/order-delay, for: F-I, faces: [3, 5]}], got %s", where, strict.KindName(n))
	}
	if len(n.Content) > MaxGiven {
		return nil, rd.Errf(n, "%s: %d rolls; at most %d may be given at once", where, len(n.Content), MaxGiven)
	}
	out := make([]Given, 0, len(n.Content))
	total := 0
	for i, it := range n.Content {
		w := fmt.Sprintf("%s[%d]", where, i)
		f, err := rd.Fields(it, w, "table", "for", "faces")
		if err != nil {
			return nil, err
		}
		for _, k := range []string{"table", "for", "faces"} {
			if f[k] == nil {
				return nil, rd.Errf(it, "%s: %s is missing; a roll thrown at the table gives table, for and faces", w, k)
			}
		}
		var g Given
		if g.Table, err = rd.Str(f["table"], w+".table"); err != nil {
			return nil, err
		}
		if g.Subject, err = rd.Str(f["for"], w+".for"); err != nil {
			return nil, err
		}
		if len(g.Table) > 80 || len(g.Subject) > 200 {
			return nil, rd.Errf(it, "%s: the table or subject is too long to be one", w)
		}
		fs := f["faces"]
		if fs.Kind != yaml.SequenceNode || len(fs.Content) == 0 {
			return nil, rd.Errf(fs, "%s.faces: want a list of the faces shown, such as [3, 5], got %s", w, strict.KindName(fs))
		}
		if total += len(fs.Content); total > MaxGivenFaces {
			return nil, rd.Errf(fs, "%s.faces: over %d dice in all; at most %d may be given at once", w, MaxGivenFaces, MaxGivenFaces)
		}
		for j, fn := range fs.Content {
			v, err := rd.Int(fn, fmt.Sprintf("%s.faces[%d]", w, j))
			if err != nil {
				return nil, err
			}
			if v < 0 || v > 100 {
				return nil, rd.Errf(fn, "%s.faces[%d]: %d is no die's face; allowed: 0 to 100", w, j, v)
			}
			g.Faces = append(g.Faces, v)
		}
		out = append(out, g)
	}
	return out, nil
}
