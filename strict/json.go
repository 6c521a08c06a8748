package strict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// MaxDepth is how deeply objects and arrays may nest in a JSON document
// read by DecodeJSON.
const MaxDepth = 64

// DecodeJSON reads one JSON value from data into v, strictly: every object
// key must be a field of v and given once (a duplicate key is refused, not
// silently overwritten), nothing may follow the value, and objects and
// arrays nest at most MaxDepth deep. where names the document in errors,
// which are one sentence each.
func DecodeJSON(data []byte, v any, where string) error {
	if err := CheckJSON(data); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %s", where, JSONProblem(err))
	}
	if dec.More() {
		return fmt.Errorf("%s: more than one JSON value", where)
	}
	return nil
}

// CheckJSON checks that data is one well-formed JSON value in which no
// object repeats a key and nothing nests deeper than MaxDepth.
func CheckJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		keys   map[string]bool
		object bool
		key    bool // the next token of an object is a key
	}
	var stack []frame
	values := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return errors.New(JSONProblem(err))
		}
		if len(stack) == 0 {
			values++
			if values > 1 {
				return errors.New("more than one JSON value")
			}
		}
		top := len(stack) - 1
		if top >= 0 && stack[top].object && stack[top].key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:top]
				continue
			}
			k, _ := tok.(string)
			if stack[top].keys[k] {
				return fmt.Errorf("the key %s is given twice in one object", Quote(k, 60))
			}
			stack[top].keys[k] = true
			stack[top].key = false
			continue
		}
		if top >= 0 && stack[top].object {
			stack[top].key = true // this token is the key's value
		}
		switch tok {
		case json.Delim('{'):
			if len(stack) >= MaxDepth {
				return fmt.Errorf("objects and arrays nest more than %d deep", MaxDepth)
			}
			stack = append(stack, frame{keys: map[string]bool{}, object: true, key: true})
		case json.Delim('['):
			if len(stack) >= MaxDepth {
				return fmt.Errorf("objects and arrays nest more than %d deep", MaxDepth)
			}
			stack = append(stack, frame{})
		case json.Delim(']'):
			stack = stack[:top]
		}
	}
	if values == 0 {
		return errors.New("it is empty")
	}
	if len(stack) > 0 {
		return errors.New("the JSON ends too soon")
	}
	return nil
}

// JSONProblem turns an error of encoding/json into words for people,
// without the package's prefix.
func JSONProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("not valid JSON at byte %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "the value"
		}
		return fmt.Sprintf("%s must be %s, not %s", field, jsonKind(te.Type), te.Value)
	case errors.Is(err, io.EOF):
		return "it is empty"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends too soon"
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if k, ok := strings.CutPrefix(msg, "unknown field "); ok {
		return "unknown field " + k
	}
	return msg
}

// jsonKind says in JSON's words what a Go type is read from, so that an
// answer never names the program's own types (server.CheckRequest).
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a string"
		}
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another value"
}
