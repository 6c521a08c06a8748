package strict

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"pgregory.net/rapid"
)

func TestCheckJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":1}`, ""},
		{`{"a":{"b":[1,{"c":2,"d":[]}]},"e":"x"}`, ""},
		{`[{"a":1},{"a":2}]`, ""},
		{`{"a":1,"a":2}`, `the key "a" is given twice`},
		{`{"a":{"b":1,"c":{"b":2,"b":3}}}`, `the key "b" is given twice`},
		{`[{"k":1,"k":1}]`, `twice`},
		{`{"a":1} {"b":2}`, "more than one JSON value"},
		{``, "empty"},
		{`{"a":`, "ends too soon"},
		{strings.Repeat("[", 65) + strings.Repeat("]", 65), "nest more than 64 deep"},
		{strings.Repeat("[", 64) + strings.Repeat("]", 64), ""},
	} {
		err := CheckJSON([]byte(c.in))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckJSON(%.40s) = %v, want nil", c.in, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("CheckJSON(%.40s) = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestDecodeJSONStrict(t *testing.T) {
	var v struct {
		A int    `json:"a"`
		B string `json:"b"`
	}
	if err := DecodeJSON([]byte(`{"a":1,"b":"x"}`), &v, "body"); err != nil || v.A != 1 || v.B != "x" {
		t.Fatalf("DecodeJSON = %v, %+v", err, v)
	}
	for in, want := range map[string]string{
		`{"a":1,"a":2}`:  `body: the key "a" is given twice in one object`,
		`{"a":1,"c":2}`:  `body: unknown field "c"`,
		`{"a":"x"}`:      "body: a must be a whole number, not string",
		`[1]`:            "body: the value must be an object, not array",
		`{"a":1}{"a":1}`: "body: more than one JSON value",
	} {
		if err := DecodeJSON([]byte(in), &v, "body"); err == nil || err.Error() != want {
			t.Errorf("DecodeJSON(%s) = %v, want %q", in, err, want)
		}
	}
}

// A duplicate is found however keys nest, and a document without one is
// never refused for it.
func TestCheckJSONDuplicates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfN(rapid.StringMatching(`[a-c]{1,2}`), 1, 6).Draw(t, "keys")
		var b strings.Builder
		b.WriteString("{")
		seen, dup := map[string]bool{}, false
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			dup = dup || seen[k]
			seen[k] = true
			b.WriteString(`"` + k + `":{"x":[1,{"y":2}]}`)
		}
		b.WriteString("}")
		err := CheckJSON([]byte(b.String()))
		if dup != (err != nil) {
			t.Fatalf("%s: duplicate %v, error %v", b.String(), dup, err)
		}
	})
}

func TestQuoteAndLine(t *testing.T) {
	if got := Quote("a\nb", 10); got != `"a\nb"` {
		t.Errorf("Quote = %s", got)
	}
	if got := Quote(strings.Repeat("x", 100), 10); got != `"xxxxxxx..."` {
		t.Errorf("Quote long = %s", got)
	}
	if got := Line("tables\u202Elmth.yaml\u2066", 100); got != "tableslmth.yaml" {
		t.Errorf("Line keeps bidi controls: %q", got)
	}
	if got := Line("one\ntwo\r\n  three\x00", 100); got != "one two three" {
		t.Errorf("Line = %q", got)
	}
	if got := Line(strings.Repeat("é", 500), 300); len([]rune(got)) != 300 || !strings.HasSuffix(got, "...") {
		t.Errorf("Line long = %d runes", len([]rune(got)))
	}
}

// FuzzCheckJSON: CheckJSON never panics, accepts only valid JSON, and
// refuses valid JSON only for a repeated key or deep nesting.
func FuzzCheckJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"a":2}`, `[[[]]]`, `{"a":{"b":[1,{"c":null}]}}`, `"x"`, `1e9`, `{"a":1}{}`, `{"\u0061":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := CheckJSON(data)
		if err == nil && !json.Valid(data) {
			t.Fatalf("%q: accepted, but it is not valid JSON", data)
		}
		if err != nil && json.Valid(data) {
			msg := err.Error()
			if !strings.Contains(msg, "twice") && !strings.Contains(msg, "nest more than") {
				t.Fatalf("%q: valid JSON refused: %v", data, err)
			}
		}
	})
}

// FuzzJSONNode: JSONNode refuses exactly what CheckJSON refuses, and where
// YAML reads the same text, gives the tree YAML gives: the same kinds,
// tags and values, so a Reader checks a JSON command as it would the
// same command parsed as YAML.
func FuzzJSONNode(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"a":2}`, `[[[]]]`, `{"side":"french","move":[{"unit":"I-1-a","to":[12.5,30]}]}`,
		`"x"`, `1e9`, `-0`, `123456789012345678901234567890`, `{"a":1}{}`, `{"a":true,"b":null,"c":"true"}`, ` [1, 2.0, "3"] `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := JSONNode(data)
		if check := CheckJSON(data); (err == nil) != (check == nil) {
			t.Fatalf("%q: JSONNode error %v, CheckJSON error %v", data, err, check)
		}
		if err != nil {
			return
		}
		y, yerr := (Reader{File: "x"}).Parse(data)
		if yerr != nil {
			return // YAML refuses some valid JSON (control characters, for one)
		}
		if d := sameTree(n, y, "$"); d != "" {
			t.Fatalf("%q: %s", data, d)
		}
	})
}

// sameTree says where two node trees differ, or "" if they do not.
func sameTree(a, b *yaml.Node, at string) string {
	if a.Kind != b.Kind || a.Tag != b.Tag || (a.Kind == yaml.ScalarNode && a.Value != b.Value) {
		return fmt.Sprintf("%s: JSON gives %v %s %q, YAML %v %s %q", at, a.Kind, a.Tag, a.Value, b.Kind, b.Tag, b.Value)
	}
	if len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: %d children, YAML %d", at, len(a.Content), len(b.Content))
	}
	for i := range a.Content {
		if d := sameTree(a.Content[i], b.Content[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
			return d
		}
	}
	return ""
}
