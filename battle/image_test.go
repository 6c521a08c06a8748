package battle

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestTextSize: a scenario's text is counted without the base64 of its
// images' data URLs (white space folded into it included), and with
// everything else: the data URL's head, a run stopped by a YAML
// indicator, a data URL of no image, or one whose head is too long.
func TestTextSize(t *testing.T) {
	b64 := strings.Repeat("iVBORw0KGgo+/==", 1000)
	for _, c := range []struct {
		text string
		want int
	}{
		{"name: x\n", 8},
		{`image: {data: "data:image/png;base64,` + b64 + `", scale: 1}`, 49},
		{"image:\n  data: \"data:image/gif;base64,AAAA\n    BBBB\n    CCCC\"\n  scale: 1\n", 51},
		{"a: data:image/png;base64,AAAA\n- b: 1\n- c\n", 36},
		{"a: data:text/plain;base64," + b64, 26 + len(b64)},
		{"a: data:image/" + strings.Repeat("x", 30) + ";base64," + b64, 52 + len(b64)},
		{`[{"data": "data:image/jpeg;base64,` + b64 + `"}, {"data": "data:image/png;base64,AA=="}]`, 73},
	} {
		if got := TextSize([]byte(c.text)); got != c.want {
			t.Errorf("TextSize(%.60q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// TestBounded: a scenario of MaxNodes values is read on; one more value
// is refused by the loader before anything else, at the file's first
// line, in one sentence naming the bound.
func TestBounded(t *testing.T) {
	// name: [0, 0, ...]: the mapping, the key, the list and its numbers.
	flood := func(values int) []byte {
		return []byte("name: [" + strings.Repeat("0, ", values-4) + "0]\n")
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(flood(MaxNodes), &doc); err != nil {
		t.Fatal(err)
	}
	if err := Bounded(doc.Content[0]); err != nil {
		t.Errorf("MaxNodes values: %v", err)
	}
	_, err := Load("flood.yaml", flood(MaxNodes+1), Spec{})
	const want = "flood.yaml:1: the scenario has more than 100000 values (keys, numbers, texts, lists and mappings); allowed: at most 100000"
	if err == nil || err.Error() != want {
		t.Errorf("MaxNodes+1 values: %v", err)
	}
}
