package strict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// JSONNode reads one JSON value from data straight into the node tree that
// a Reader checks, as Parse would give for the same text, without a YAML
// parse: objects become mappings, arrays sequences, and strings, numbers,
// booleans and null scalars tagged as YAML would tag them. It is as strict
// as CheckJSON: a key given twice in one object, anything after the value,
// and nesting deeper than MaxDepth are refused. Every node is on line 1.
func JSONNode(data []byte) (*yaml.Node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	root, err := jsonValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, errors.New(JSONProblem(err))
		}
		return nil, errors.New("more than one JSON value")
	}
	return root, nil
}

// jsonValue reads the value that starts at the decoder's next token.
func jsonValue(dec *json.Decoder, depth int) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			if depth == 0 {
				return nil, errors.New("it is empty")
			}
			return nil, errors.New("the JSON ends too soon")
		}
		return nil, errors.New(JSONProblem(err))
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= MaxDepth {
			return nil, fmt.Errorf("objects and arrays nest more than %d deep", MaxDepth)
		}
		if t == '{' {
			return jsonObject(dec, depth)
		}
		return jsonArray(dec, depth)
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t, Style: yaml.DoubleQuotedStyle, Line: 1}, nil
	case json.Number:
		tag := numberTag(string(t))
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(t), Line: 1}, nil
	case bool:
		v := "false"
		if t {
			v = "true"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: v, Line: 1}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null", Line: 1}, nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

func jsonObject(dec *json.Decoder, depth int) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1}
	var seen map[string]bool
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errors.New(JSONProblem(err))
		}
		k, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("an object key must be a string, got %v", tok)
		}
		if seen == nil {
			seen = make(map[string]bool, 4)
		}
		if seen[k] {
			return nil, fmt.Errorf("the key %s is given twice in one object", Quote(k, 60))
		}
		seen[k] = true
		v, err := jsonValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Style: yaml.DoubleQuotedStyle, Line: 1}, v)
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, errors.New(jsonEnd(err))
	}
	return n, nil
}

func jsonArray(dec *json.Decoder, depth int) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: 1}
	for dec.More() {
		v, err := jsonValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, v)
	}
	if _, err := dec.Token(); err != nil { // the closing bracket
		return nil, errors.New(jsonEnd(err))
	}
	return n, nil
}

func jsonEnd(err error) string {
	if errors.Is(err, io.EOF) {
		return "the JSON ends too soon"
	}
	return JSONProblem(err)
}

// numberTag tags a JSON number as YAML does: an integer that fits 64 bits
// (signed or not) is an int, another number that fits a float64 a float,
// and one beyond even that a string.
func numberTag(s string) string {
	if !strings.ContainsAny(s, ".eE") {
		if _, err := strconv.ParseInt(s, 10, 64); err == nil {
			return "!!int"
		}
		if _, err := strconv.ParseUint(s, 10, 64); err == nil {
			return "!!int"
		}
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return "!!float"
	}
	return "!!str"
}
