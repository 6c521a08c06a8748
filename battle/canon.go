package battle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"

	"orderly/strict"
)

// The canonical form of a scenario file, and the scenario as a document
// for the editor (JSON with the file's keys and nesting). Both walk the
// parsed file beside the format's types (format.go), so that they know
// which key comes first, which value is a position and which a grid.
//
// The canonical YAML: every mapping's keys in the format's order (the rule
// set's own attributes after the common keys in the rule set's order, and
// keys the format does not know last, as written); positions and lists of
// numbers in flow style ([12, 30]); the terrain and elevation grids as
// literal blocks; everything else in block style, indented by two spaces,
// comments left out; numbers written as the document writes them (26.0
// is 26), a hex's label or other text quoted where it must be to stay
// text ("0412"). Every other value is kept as written, so the canonical
// file loads to the same scenario; formatting it again changes nothing.

// Canonical writes the canonical YAML of a scenario file already parsed
// (its document's mapping), for the format of spec s.
func Canonical(n *yaml.Node, s Spec) ([]byte, error) {
	if err := noAliases(n, 0); err != nil {
		return nil, err
	}
	c := &canon{spec: s, types: types{}}
	out := c.node(n, reflect.TypeFor[scenarioFile](), "")
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("battle: writing the canonical scenario: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("battle: writing the canonical scenario: %w", err)
	}
	return buf.Bytes(), nil
}

// Format reads a scenario file (YAML, or JSON) and writes it in canonical
// form (Canonical), for the rule set it names as find gives it (the
// format's common keys alone when find does not know it). The file need
// not load: only its YAML must be readable.
func Format(file string, data []byte, find func(id string) (RuleSet, error)) ([]byte, error) {
	r := strict.Reader{File: file, Want: want}
	root, err := r.Parse(data)
	if err != nil {
		return nil, err
	}
	out, err := Canonical(root, specFor(root, find))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

// specFor is the spec of the rule set a parsed scenario names, or the
// zero Spec.
func specFor(root *yaml.Node, find func(id string) (RuleSet, error)) Spec {
	if id := value(root, "rules"); id != nil && id.Kind == yaml.ScalarNode && find != nil {
		if rs, err := find(id.Value); err == nil && rs != nil {
			return SpecOf(rs)
		}
	}
	return Spec{}
}

// noAliases refuses a file with aliases (the loader refuses them too):
// reordering keys could put an alias before its anchor.
func noAliases(n *yaml.Node, depth int) error {
	if n.Kind == yaml.AliasNode {
		return fmt.Errorf("line %d: a scenario has no aliases (*name); write the value out", n.Line)
	}
	if depth > 100 {
		return fmt.Errorf("line %d: the file nests deeper than 100 levels", n.Line)
	}
	for _, c := range n.Content {
		if err := noAliases(c, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// canon walks a parsed file beside the format's types.
type canon struct {
	spec  Spec
	types types
}

// node returns a copy of n in canonical form, read as a value of type t
// (nil: a value the format does not know). key is the key n is the value
// of.
func (c *canon) node(n *yaml.Node, t reflect.Type, key string) *yaml.Node {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	out := &yaml.Node{Kind: n.Kind, Tag: n.Tag, Value: n.Value, Line: n.Line, Column: n.Column}
	switch n.Kind {
	case yaml.ScalarNode:
		if t != nil && (t.Kind() == reflect.String || t == pointType) && n.Tag != "!!null" {
			// Text, or a hex's label, as the loader reads it: its
			// value as written, quoted if it must be to stay text
			// (0412).
			out.Tag = "!!str"
		} else if n.Tag == "!!int" || n.Tag == "!!float" {
			out.Tag, out.Value = number(n)
		}
		if t != nil && t.Kind() == reflect.String && (key == "terrain" || key == "elevation") && out.Tag == "!!str" {
			out.Style = yaml.LiteralStyle
		}
		return out
	case yaml.SequenceNode:
		var et reflect.Type
		if t != nil && t.Kind() == reflect.Slice {
			et = t.Elem()
		}
		flow := t == pointType || len(n.Content) > 0
		for _, it := range n.Content {
			ci := c.node(it, et, "")
			if it.Kind != yaml.ScalarNode || it.Tag == "!!str" {
				flow = false
			}
			out.Content = append(out.Content, ci)
		}
		if flow || t == pointType {
			out.Style = yaml.FlowStyle
		}
		return out
	case yaml.MappingNode:
		return c.mapping(n, t, out)
	}
	return out
}

// mapping orders the keys of mapping n: a struct of the format's in its
// fields' order, then its rule set's attributes, then unknown keys.
func (c *canon) mapping(n *yaml.Node, t reflect.Type, out *yaml.Node) *yaml.Node {
	type pair struct{ k, v *yaml.Node }
	var pairs []pair
	for i := 0; i+1 < len(n.Content); i += 2 {
		pairs = append(pairs, pair{n.Content[i], n.Content[i+1]})
	}
	var order []string
	typeOf := map[string]reflect.Type{}
	switch {
	case t != nil && t.Kind() == reflect.Struct && t != pointType:
		ft, err := c.types.of(t)
		if err != nil {
			break
		}
		for _, f := range ft.fields {
			order = append(order, f.key)
			typeOf[f.key] = f.typ
		}
		if ft.attrs != nil {
			for _, a := range c.spec.attrs(ft.piece) {
				order = append(order, a.Name)
				typeOf[a.Name] = attrField(a).typ
			}
		}
	case t != nil && t.Kind() == reflect.Map:
		for _, p := range pairs {
			typeOf[p.k.Value] = t.Elem()
		}
	}
	rank := func(k string) int {
		if i := slices.Index(order, k); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return rank(a.k.Value) - rank(b.k.Value) })
	for _, p := range pairs {
		k := c.node(p.k, reflect.TypeFor[string](), "")
		out.Content = append(out.Content, k, c.node(p.v, typeOf[p.k.Value], p.k.Value))
	}
	return out
}

// Document is a scenario file as the editor works on it: JSON with the
// file's keys and nesting, keys in the canonical order. Positions on a
// hex map stay labels ("0412"), and every text stays text.
type Document = json.RawMessage

// ToDocument converts a parsed scenario file (its document's mapping) to
// its document, for the format of spec s.
func ToDocument(n *yaml.Node, s Spec) (Document, error) {
	if err := noAliases(n, 0); err != nil {
		return nil, err
	}
	c := &canon{spec: s, types: types{}}
	var buf bytes.Buffer
	if err := jsonOf(&buf, c.node(n, reflect.TypeFor[scenarioFile](), "")); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// jsonOf writes a canonical node as JSON: mappings as objects in their
// order, scalars by their YAML tag (text stays text).
func jsonOf(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				buf.WriteByte(',')
			}
			k, _ := json.Marshal(n.Content[i].Value)
			buf.Write(k)
			buf.WriteByte(':')
			if err := jsonOf(buf, n.Content[i+1]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, it := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := jsonOf(buf, it); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		var v any = n.Value
		switch n.Tag {
		case "!!null":
			v = nil
		case "!!bool":
			var b bool
			if n.Decode(&b) == nil {
				v = b
			}
		case "!!int", "!!float":
			var f float64
			if err := n.Decode(&f); err == nil && !isInfNaN(f) {
				if n.Tag == "!!int" {
					if i, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
						v = i
						break
					}
				}
				v = f
			}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		buf.Write(b)
	default:
		return fmt.Errorf("line %d: a scenario has no aliases (*name); write the value out", n.Line)
	}
	return nil
}

// number writes a number as the document does: a whole number without
// a point, any other in decimals (26.0 is 26, 1e3 is 1000); a number Go
// cannot read stays as written.
func number(n *yaml.Node) (tag, value string) {
	var f float64
	if err := n.Decode(&f); err != nil || isInfNaN(f) {
		return n.Tag, n.Value
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return "!!int", strconv.FormatInt(int64(f), 10)
	}
	return "!!float", strconv.FormatFloat(f, 'f', -1, 64)
}

func isInfNaN(f float64) bool { return f != f || f > 1e308 || f < -1e308 }
