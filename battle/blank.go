package battle

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/geom"
)

// SpaceKinds lists the kinds of space the rule set of s plays on
// (geom.KindTable, geom.KindHex), in the order of geom.Kinds.
func (s Spec) SpaceKinds() []string { return s.spaces() }

// Uses reports whether the rule set of s uses an optional part of the
// format (Parts).
func (s Spec) Uses(part string) bool { return s.uses(part) }

// Blank is a new scenario's document for the rule set of s, for the
// editor to start from: a name and title, the last turn, a 6' by 4'
// table (or a 30 by 20 hex map, if the rule set plays on no table), and
// two sides, each with its army commander at its base edge. It need not
// load: a side has no troops yet.
func Blank(s Spec) (Document, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "name: new-battle\ntitle: A new battle\nrules: %s\nturns: 12\n", s.ID)
	hexMap := !s.plays(geom.KindTable)
	if hexMap {
		b.WriteString("map: {columns: 30, rows: 20}\n")
	} else {
		b.WriteString("field: {width: 72, depth: 48}\n")
	}
	b.WriteString("sides:\n")
	for i, side := range []struct{ id, name, edge, at string }{
		{"blue", "Blue army", "north", "[36, 4]"}, {"red", "Red army", "south", "[36, 44]"},
	} {
		if hexMap {
			side.at = []string{`"1502"`, `"1519"`}[i]
		}
		fmt.Fprintf(&b, "  - id: %s\n    name: %s\n", side.id, side.name)
		if len(s.Nations) > 0 {
			fmt.Fprintf(&b, "    nation: %s\n", s.Nations[min(i, len(s.Nations)-1)])
		}
		fmt.Fprintf(&b, "    edge: %s\n    army:\n      id: %s-general\n      name: %s commander\n", side.edge, side.id, side.name)
		if s.uses(PartQuality) && len(s.Qualities) > 0 {
			fmt.Fprintf(&b, "      quality: %s\n", s.Qualities[len(s.Qualities)/2])
		}
		if s.uses(PartRange) {
			fmt.Fprintf(&b, "      range: %d\n", map[bool]int{false: 12, true: 4}[hexMap])
		}
		fmt.Fprintf(&b, "      at: %s\n", side.at)
		for _, a := range s.attrs(OnGeneral) {
			if a.Required {
				fmt.Fprintf(&b, "      %s: %s\n", a.Name, blankValue(a))
			}
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(b.String()), &doc); err != nil {
		return nil, fmt.Errorf("battle: the blank scenario of %s: %w", s.ID, err)
	}
	return ToDocument(doc.Content[0], s)
}

// blankValue is a required attribute's value in a blank scenario: its
// least allowed value, or its first word.
func blankValue(a Attr) string {
	switch a.Type {
	case AttrInteger, AttrNumber:
		if a.Min != nil {
			return fmt.Sprint(*a.Min)
		}
		return "0"
	case AttrBool:
		return "false"
	case AttrWord:
		if len(a.Values) > 0 {
			return slices.Clone(a.Values)[0]
		}
		return "x"
	}
	return `""`
}
