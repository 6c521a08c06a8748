package battle

import (
	"strings"
	"testing"
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
