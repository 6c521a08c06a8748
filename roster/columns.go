package roster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"orderly/battle"
)

// The roster's columns are generated from the rule set's JSON Schema of
// the scenario format (battle.Schema), itself generated from the format's
// types and the rule set's Spec: its parts, words and own attributes of
// pieces. A field added to the format or to a rule set's Spec becomes a
// column here with no change to this package.

// kinds of value a column takes.
const (
	kindText     = "text"     // free text
	kindWord     = "word"     // a key word (lower case), or one of enum
	kindID       = "id"       // an id
	kindNumber   = "number"   // a number
	kindInteger  = "integer"  // a whole number
	kindBool     = "boolean"  // true or false
	kindPosition = "position" // [x, y] on a table or a hex's label
	kindOrder    = "order"    // the kind of an order at the start
)

// prop is one property of a definition of the schema that a cell can
// give: a scalar, a position or an order's kind.
type prop struct {
	name     string
	doc      string
	kind     string
	enum     []string
	min, max *float64 // inclusive bounds
	gt, lt   *float64 // exclusive bounds
	required bool
}

// def is a definition of the schema: its scalar properties and the
// definitions its lists hold, by key (corps: corps).
type def struct {
	name  string
	props []prop
	lists []list
	req   []string
}

// list is a property of a definition that holds a list of another.
type list struct{ key, of string }

// schemaDoc is the part of the JSON Schema read here.
type schemaDoc struct {
	Defs json.RawMessage `json:"$defs"`
}

type schemaNode struct {
	Description      string          `json:"description"`
	Ref              string          `json:"$ref"`
	Type             string          `json:"type"`
	Enum             []string        `json:"enum"`
	Minimum          *float64        `json:"minimum"`
	Maximum          *float64        `json:"maximum"`
	ExclusiveMinimum *float64        `json:"exclusiveMinimum"`
	ExclusiveMaximum *float64        `json:"exclusiveMaximum"`
	Items            json.RawMessage `json:"items"`
	OneOf            []schemaNode    `json:"oneOf"`
	Required         []string        `json:"required"`
	Properties       json.RawMessage `json:"properties"`
}

// format is what a rule set's part of the scenario format says of the
// pieces a roster fills: the definitions of sides, generals, formations
// and units, and whether positions are points or labels.
type format struct {
	rules string
	defs  map[string]*def
	order map[string][]string // every key of a definition, in the schema's order
	hex   bool                // positions are hex labels
	table bool                // positions are [x, y]
}

// levels are the formations a roster row may name, top down, as the
// schema names their definitions.
var levels = []string{"wing", "corps", "division", "brigade"}

// readFormat reads the rule set's schema.
func readFormat(spec battle.Spec) (*format, error) {
	raw, err := battle.Schema(spec)
	if err != nil {
		return nil, fmt.Errorf("roster: the schema of rule set %s: %w", spec.ID, err)
	}
	var doc schemaDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("roster: reading the schema of rule set %s: %w", spec.ID, err)
	}
	names, nodes, err := ordered(doc.Defs)
	if err != nil {
		return nil, err
	}
	f := &format{rules: spec.ID, defs: map[string]*def{}, order: map[string][]string{}}
	all := map[string]schemaNode{}
	for i, n := range names {
		all[n] = nodes[i]
	}
	if p, ok := all["position"]; ok {
		f.table = p.Type == "array" || slices.ContainsFunc(p.OneOf, func(s schemaNode) bool { return s.Type == "array" })
		f.hex = p.Type == "string" || slices.ContainsFunc(p.OneOf, func(s schemaNode) bool { return s.Type == "string" })
	}
	for _, name := range append([]string{"side", "general", "unit"}, levels...) {
		n, ok := all[name]
		if !ok {
			continue
		}
		d, err := f.readDef(name, n, all)
		if err != nil {
			return nil, err
		}
		f.defs[name] = d
	}
	for _, need := range []string{"side", "general", "unit"} {
		if f.defs[need] == nil {
			return nil, fmt.Errorf("roster: the schema of rule set %s has no definition %s", spec.ID, need)
		}
	}
	return f, nil
}

// readDef reads one definition's properties in order.
func (f *format) readDef(name string, n schemaNode, all map[string]schemaNode) (*def, error) {
	d := &def{name: name, req: n.Required}
	keys, props, err := ordered(n.Properties)
	if err != nil {
		return nil, fmt.Errorf("roster: the schema's %s: %w", name, err)
	}
	f.order[name] = keys
	for i, k := range keys {
		p := props[i]
		if p.Type == "array" {
			var it schemaNode
			if len(p.Items) > 0 && json.Unmarshal(p.Items, &it) == nil && strings.HasPrefix(it.Ref, "#/$defs/") {
				of := strings.TrimPrefix(it.Ref, "#/$defs/")
				if slices.Contains(levels, of) || of == "unit" {
					d.lists = append(d.lists, list{k, of})
				}
			}
			continue
		}
		pr := prop{name: k, doc: p.Description, required: slices.Contains(n.Required, k),
			min: p.Minimum, max: p.Maximum, gt: p.ExclusiveMinimum, lt: p.ExclusiveMaximum, enum: p.Enum}
		switch ref := strings.TrimPrefix(p.Ref, "#/$defs/"); {
		case ref == "id":
			pr.kind = kindID
		case ref == "word":
			pr.kind = kindWord
		case ref == "position":
			pr.kind = kindPosition
		case ref == "order":
			pr.kind = kindOrder
			for _, o := range all["order"].OneOf {
				if o.Type == "string" {
					pr.enum = o.Enum
				}
			}
		case ref != "":
			continue // a mapping of its own (a general): not a cell
		case p.Type == "string" && len(p.Enum) > 0:
			pr.kind = kindWord
		case p.Type == "string":
			pr.kind = kindText
		case p.Type == "number":
			pr.kind = kindNumber
		case p.Type == "integer":
			pr.kind = kindInteger
		case p.Type == "boolean":
			pr.kind = kindBool
		default:
			continue
		}
		d.props = append(d.props, pr)
	}
	return d, nil
}

// ordered reads a JSON object's keys in order, with their schemas.
func ordered(raw json.RawMessage) ([]string, []schemaNode, error) {
	if len(raw) == 0 {
		return nil, nil, nil
	}
	var m map[string]schemaNode
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	var keys []string
	var nodes []schemaNode
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := t.(string)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, nil, err
		}
		keys = append(keys, k)
		nodes = append(nodes, m[k])
	}
	return keys, nodes, nil
}

// prop returns the property name of the definition, or nil.
func (d *def) prop(name string) *prop {
	if d == nil {
		return nil
	}
	for i := range d.props {
		if d.props[i].name == name {
			return &d.props[i]
		}
	}
	return nil
}

// holds reports whether the definition lists the definition of, and
// under which key.
func (d *def) holds(of string) (string, bool) {
	if d == nil {
		return "", false
	}
	for _, l := range d.lists {
		if l.of == of {
			return l.key, true
		}
	}
	return "", false
}

// Where a column's value goes.
const (
	onSide      = "side"      // the side (given on any of its rows)
	onLevel     = "level"     // names a formation of that level
	onRole      = "role"      // general or unit
	onPiece     = "piece"     // the general or unit of the row
	onFormation = "formation" // the formation the row's general commands
)

// Column is a column of a rule set's roster.
type Column struct {
	Name string // the header, e.g. quality
	// On says what the column describes: side, level (a formation the
	// row belongs to), role, general, unit, "general, unit" or
	// formation (the formation a general row commands).
	On  string
	Doc string // what the column holds, one sentence or two
	// Allowed says what a cell may hold (a list of words, a range), or
	// "" for free text.
	Allowed string
	// Required says the column must be given on every row it applies to.
	Required bool

	to    string           // onSide, onLevel, ...
	key   string           // the property's key in the document
	props map[string]*prop // the property for each kind of row: "general", "unit", "side", "formation"
}

// columns lists the roster's columns for the rule set.
func (f *format) columns() []*Column {
	var cols []*Column
	add := func(c *Column) *Column {
		if i := slices.IndexFunc(cols, func(x *Column) bool { return x.Name == c.Name }); i >= 0 {
			return cols[i]
		}
		cols = append(cols, c)
		return c
	}
	side := f.defs["side"]
	add(&Column{Name: "side", On: "side", Doc: "Id of the side (its army) the row belongs to.", Required: true, to: onSide, key: "id",
		props: map[string]*prop{"side": side.prop("id")}})
	for _, p := range side.props {
		if p.name == "id" {
			continue
		}
		doc := p.doc + " Given on any row of the side; rows that give it agree."
		if p.name == "edge" {
			doc += " Left out: south for the first side, north for the second."
		}
		add(&Column{Name: "side-" + p.name, On: "side", Doc: doc, Required: p.required && p.name != "edge", to: onSide, key: p.name,
			props: map[string]*prop{"side": &p}})
	}
	for _, l := range f.levelsUsed() {
		add(&Column{Name: l, On: "level", Doc: fmt.Sprintf("Id of the %s the row belongs to (a general row commands the deepest formation it names).", l), to: onLevel, key: l})
	}
	add(&Column{Name: "role", On: "role", Doc: "general for a commander, unit (or empty) for a combat unit.", Allowed: "general, unit", to: onRole})
	for _, piece := range []string{"general", "unit"} {
		for _, p := range f.defs[piece].props {
			c := add(&Column{Name: p.name, On: piece, Doc: p.doc, to: onPiece, key: p.name, props: map[string]*prop{}})
			if len(c.props) > 0 {
				c.On = "general, unit"
				c.Doc = "Of a general: " + c.props["general"].doc + " Of a unit: " + p.doc
			}
			c.props[piece] = &p
		}
	}
	for _, l := range f.levelsUsed() {
		for _, p := range f.defs[l].props {
			if p.name == "id" {
				continue
			}
			c := add(&Column{Name: "command-" + p.name, On: "formation", Doc: p.doc + " Of the formation the row's general commands.", to: onFormation, key: p.name, props: map[string]*prop{}})
			if c.props["formation"] == nil || l == "division" {
				// The division's words, where there are divisions: the
				// formation most rows of a roster command.
				c.props["formation"] = &p
				c.Doc = p.doc + " Of the formation the row's general commands."
			}
			c.props[l] = &p
			if p.kind == kindOrder {
				obj := &prop{name: "objective", kind: kindPosition, doc: "The objective of the formation's order at the start, where the kind of order needs one."}
				oc := add(&Column{Name: "command-objective", On: "formation", Doc: obj.doc, to: onFormation, key: "objective", props: map[string]*prop{}})
				oc.props["formation"], oc.props[l] = obj, obj
			}
		}
	}
	for _, c := range cols {
		if c.Allowed == "" {
			for _, p := range c.props {
				c.Allowed = f.allowed(p)
				if c.Allowed != "" {
					break
				}
			}
		}
		if c.to == onPiece {
			c.Required = c.props["unit"] != nil && c.props["unit"].required && c.Name != "id"
			if g := c.props["general"]; g != nil && g.required && c.Name != "id" {
				c.Required = true
			}
		}
	}
	return cols
}

// levelsUsed lists the formation levels the rule set's format has.
func (f *format) levelsUsed() []string {
	var out []string
	for _, l := range levels {
		if f.defs[l] != nil {
			out = append(out, l)
		}
	}
	return out
}

// allowed says what a property's cell may hold.
func (f *format) allowed(p *prop) string {
	if p == nil {
		return ""
	}
	switch p.kind {
	case kindWord, kindOrder:
		if len(p.enum) > 0 {
			return strings.Join(p.enum, ", ")
		}
		return "a word: lower-case letters, digits and - . / + _"
	case kindID:
		return "an id: letters, digits and - . _"
	case kindBool:
		return "true or false (yes, no)"
	case kindPosition:
		return f.positionAllowed()
	case kindNumber, kindInteger:
		return bounds(p)
	}
	return ""
}

// positionAllowed says how a position is written in the rule set.
func (f *format) positionAllowed() string {
	switch {
	case f.table && f.hex:
		return "x y in inches (e.g. 12 30), or a hex label such as 0412"
	case f.hex:
		return "a hex label such as 0412"
	}
	return "x y in inches, e.g. 12 30"
}

// bounds describes the range of a number.
func bounds(p *prop) string {
	var lo, hi string
	switch {
	case p.gt != nil:
		lo = "more than " + num(*p.gt)
	case p.min != nil:
		lo = "from " + num(*p.min)
	}
	switch {
	case p.lt != nil:
		hi = "less than " + num(*p.lt)
	case p.max != nil:
		hi = "up to " + num(*p.max)
	}
	what := "a number"
	if p.kind == kindInteger {
		what = "a whole number"
	}
	return strings.TrimSpace(strings.Join([]string{what, lo, hi}, " "))
}
