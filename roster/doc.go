package roster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Doc is a mapping of the scenario document (contract §1 of issue 35: the
// scenario file as JSON or YAML, the same keys and nesting) with its keys
// in the order they were set, which is the format's order: it writes as
// JSON for the editor and as YAML for a scenario file in that order.
type Doc struct {
	keys []string
	vals map[string]any
}

// NewDoc returns an empty mapping.
func NewDoc() *Doc { return &Doc{vals: map[string]any{}} }

// Set sets key to v, keeping the key's place if it is already there.
func (d *Doc) Set(key string, v any) {
	if _, ok := d.vals[key]; !ok {
		d.keys = append(d.keys, key)
	}
	d.vals[key] = v
}

// Get returns the value of key, or nil.
func (d *Doc) Get(key string) any { return d.vals[key] }

// Has reports whether key is set.
func (d *Doc) Has(key string) bool {
	_, ok := d.vals[key]
	return ok
}

// Keys lists the keys in order.
func (d *Doc) Keys() []string { return append([]string(nil), d.keys...) }

// MarshalJSON writes the mapping as a JSON object in its order.
func (d *Doc) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range d.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(d.vals[k])
		if err != nil {
			return nil, fmt.Errorf("roster: key %s: %w", k, err)
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// MarshalYAML writes the mapping as a YAML mapping in its order.
func (d *Doc) MarshalYAML() (any, error) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range d.keys {
		var v yaml.Node
		if err := v.Encode(d.vals[k]); err != nil {
			return nil, fmt.Errorf("roster: key %s: %w", k, err)
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, &v)
	}
	return n, nil
}

// Point is a position on a table, [x, y] in inches; it is written in
// flow style in YAML, as scenario files write positions.
type Point [2]float64

// MarshalYAML writes the point as [x, y].
func (p Point) MarshalYAML() (any, error) {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, x := range p {
		tag := "!!float"
		if x == math.Trunc(x) {
			tag = "!!int"
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: num(x)})
	}
	return n, nil
}

// Label is a position on a hex map, the hex's printed label (0412); it is
// always quoted in YAML, where 0412 alone reads as a number.
type Label string

// MarshalYAML writes the label in double quotes.
func (l Label) MarshalYAML() (any, error) {
	return &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.DoubleQuotedStyle, Tag: "!!str", Value: string(l)}, nil
}

// num writes a number as briefly as it reads back.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
