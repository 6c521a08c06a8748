// Package strict reads YAML documents strictly: every field must be known and
// given once, every value must have the expected kind, and every problem is
// one sentence placed at its file and line, naming the field and what is
// allowed (with a near match for a typo).
package strict

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is a problem in a document, placed at a line.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	case e.File != "":
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return e.Msg
}

// Reader walks a parsed YAML document, turning every problem into an Error
// that names the file, the line and the field.
type Reader struct {
	File string
	Want string // what the document should hold, for the message about an empty file
}

func (r Reader) Errf(n *yaml.Node, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{File: r.File, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// parse reads YAML text into its document node.
func (r Reader) Parse(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		line := 0
		if rest, ok := strings.CutPrefix(msg, "line "); ok {
			if i := strings.IndexByte(rest, ':'); i > 0 {
				if l, err := strconv.Atoi(rest[:i]); err == nil {
					line = l
					msg = strings.TrimSpace(rest[i+1:])
					if parserProblem(msg) {
						line++
					}
					// The end of the input counts as a line of its own.
					last := strings.Count(strings.TrimRight(string(data), "\n"), "\n") + 1
					line = min(line, last)
				}
			}
		}
		msg = strings.ReplaceAll(msg, "\n", "; ")
		return nil, &Error{File: r.File, Line: line, Msg: "not valid YAML: " + msg}
	}
	if len(doc.Content) == 0 {
		msg := "the file is empty"
		if r.Want != "" {
			msg += "; write " + r.Want
		}
		return nil, &Error{File: r.File, Msg: msg}
	}
	return doc.Content[0], nil
}

// parserProblems are the messages of yaml.v3's parser (not its scanner),
// whose line numbers it reports counting from 0.
var parserProblems = []string{
	"did not find expected ',' or ']'", "did not find expected ',' or '}'",
	"did not find expected '-' indicator", "did not find expected <document start>",
	"did not find expected <stream-start>", "did not find expected key",
	"did not find expected node content", "found duplicate %TAG directive",
	"found duplicate %YAML directive", "found incompatible YAML document", "found undefined tag handle",
}

func parserProblem(msg string) bool { return contains(parserProblems, msg) }

// fields checks that n is a mapping whose keys are all allowed and unique,
// and returns the value node of each key.
func (r Reader) Fields(n *yaml.Node, where string, allowed ...string) (map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, r.Errf(n, "%s: want a mapping of %s, got %s", where, strings.Join(allowed, ", "), KindName(n))
	}
	out := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, r.Errf(k, "%s: a key must be a plain word", where)
		}
		if !contains(allowed, k.Value) {
			hint := ""
			if m := Near(k.Value, allowed); len(m) > 0 {
				hint = fmt.Sprintf(" (did you mean %s?)", m[0])
			}
			return nil, r.Errf(k, "%s: unknown field %q%s; allowed: %s", where, k.Value, hint, strings.Join(allowed, ", "))
		}
		if _, dup := out[k.Value]; dup {
			return nil, r.Errf(k, "%s: field %q is given twice", where, k.Value)
		}
		out[k.Value] = v
	}
	return out, nil
}

// pairs returns the key and value nodes of a mapping, in order.
func (r Reader) Pairs(n *yaml.Node, where string) ([][2]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, r.Errf(n, "%s: want a mapping, got %s", where, KindName(n))
	}
	var out [][2]*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode {
			return nil, r.Errf(k, "%s: a key must be a plain value", where)
		}
		if seen[k.Value] {
			return nil, r.Errf(k, "%s: key %q is given twice", where, k.Value)
		}
		seen[k.Value] = true
		out = append(out, [2]*yaml.Node{k, n.Content[i+1]})
	}
	return out, nil
}

func (r Reader) List(n *yaml.Node, where string) ([]*yaml.Node, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, r.Errf(n, "%s: want a list, got %s", where, KindName(n))
	}
	return n.Content, nil
}

func (r Reader) Str(n *yaml.Node, where string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", r.Errf(n, "%s: want a text value, got %s", where, KindName(n))
	}
	return n.Value, nil
}

// word is a text value that must be a key: lower-case letters, digits, dots,
// slashes, plus and minus signs.
func (r Reader) Word(n *yaml.Node, where string) (string, error) {
	s, err := r.Str(n, where)
	if err != nil {
		return "", err
	}
	if err := CheckWord(s); err != nil {
		return "", r.Errf(n, "%s: %v", where, err)
	}
	return s, nil
}

func CheckWord(s string) error {
	if s == "" {
		return errors.New("the name is empty")
	}
	for _, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.ContainsRune("-./+_", c)
		if !ok {
			return fmt.Errorf("%q has the character %q; use lower-case letters, digits and - . / + _", s, c)
		}
	}
	return nil
}

func (r Reader) Int(n *yaml.Node, where string) (int, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, r.Errf(n, "%s: want a whole number, got %s", where, KindName(n))
	}
	v, err := strconv.Atoi(strings.TrimPrefix(n.Value, "+"))
	if err != nil || v > 1_000_000 || v < -1_000_000 {
		return 0, r.Errf(n, "%s: want a whole number between -1000000 and 1000000, got %q", where, n.Value)
	}
	return v, nil
}

func (r Reader) Bool(n *yaml.Node, where string) (bool, error) {
	if n.Kind == yaml.ScalarNode {
		switch n.Value {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, r.Errf(n, "%s: want true or false, got %q", where, n.Value)
}

func (r Reader) Ints(n *yaml.Node, where string) ([]int, error) {
	items, err := r.List(n, where)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(items))
	for i, it := range items {
		if out[i], err = r.Int(it, where); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func KindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	if n.Tag == "!!null" {
		return "nothing"
	}
	return fmt.Sprintf("%q", n.Value)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// ID is a text value naming a thing: letters of either case, digits, and
// - . _ (e.g. I, II-corps, 3rd).
func (r Reader) ID(n *yaml.Node, where string) (string, error) {
	s, err := r.Str(n, where)
	if err != nil {
		return "", err
	}
	if err := CheckID(s); err != nil {
		return "", r.Errf(n, "%s: %v", where, err)
	}
	return s, nil
}

// CheckID checks that s can be an id.
func CheckID(s string) error {
	if s == "" {
		return errors.New("the id is empty")
	}
	if len(s) > 64 {
		return fmt.Errorf("the id %.20q... is longer than 64 characters", s)
	}
	for _, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-._", c)
		if !ok {
			return fmt.Errorf("%q has the character %q; an id uses letters, digits and - . _", s, c)
		}
	}
	return nil
}

// Require checks that every one of keys is among the fields f read from
// mapping n.
func (r Reader) Require(f map[string]*yaml.Node, n *yaml.Node, where string, keys ...string) error {
	for _, k := range keys {
		if f[k] == nil {
			return r.Errf(n, "%s: %s is missing", where, k)
		}
	}
	return nil
}

// Need reads mapping n whose fields are exactly the given ones, every one
// of them given.
func (r Reader) Need(n *yaml.Node, where string, fields ...string) (map[string]*yaml.Node, error) {
	f, err := r.Fields(n, where, fields...)
	if err != nil {
		return nil, err
	}
	if err := r.Require(f, n, where, fields...); err != nil {
		return nil, err
	}
	return f, nil
}

// IDs reads one id, or a list of ids each named once: at most most of
// them, unless most is 0.
func (r Reader) IDs(n *yaml.Node, where string, most int) ([]string, error) {
	if n.Kind == yaml.ScalarNode {
		w, err := r.ID(n, where)
		return []string{w}, err
	}
	items, err := r.List(n, where)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, r.Errf(n, "%s: the list is empty", where)
	}
	if most > 0 && len(items) > most {
		return nil, r.Errf(n, "%s: %d ids; at most %d may be named in one command", where, len(items), most)
	}
	out := make([]string, len(items))
	named := make(map[string]bool, len(items))
	for i, it := range items {
		if out[i], err = r.ID(it, fmt.Sprintf("%s[%d]", where, i)); err != nil {
			return nil, err
		}
		if named[out[i]] {
			return nil, r.Errf(it, "%s[%d]: %s is named twice; name each once", where, i, out[i])
		}
		named[out[i]] = true
	}
	return out, nil
}
