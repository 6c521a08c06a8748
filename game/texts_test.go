package game

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
	"time"

	"orderly/geom"
)

// A payload of the shapes the rule sets use.
type textsOrder struct {
	ID    string      `json:"id"`
	For   []string    `json:"for"`
	At    *geom.Point `json:"at,omitempty"`
	Turn  int         `json:"turn"`
	quiet string
}

type textsKind string

type textsPayload struct {
	Unit    string      `json:"unit,omitempty"`
	Units   []string    `json:"units,omitempty"`
	Kind    textsKind   `json:"kind,omitempty"`
	Order   *textsOrder `json:"order,omitempty"`
	Orders  []textsOrder
	At      geom.Point  `json:"at"`
	From    *geom.Point `json:"from,omitempty"`
	Arrived bool        `json:"arrived,omitempty"`
	Left    uint8       `json:"left,omitempty"`
	Range   float64     `json:"range,omitempty"`
	Secret  string      `json:"-"`
	Plain   string
	Pts     []*geom.Point `json:"pts"`
}

type textsWithMap struct {
	By map[string]int `json:"by"`
}

type textsWithAny struct {
	V any `json:"v"`
}

type textsEmbedded struct {
	textsOrder
	Unit string `json:"unit"`
}

type textsQuoted struct {
	N int `json:"n,string"`
}

type textsBytes struct {
	B []byte `json:"b"`
}

type textsSelf struct {
	ID   string     `json:"id"`
	Next *textsSelf `json:"next,omitempty"`
}

// jsonTexts is every text of v's JSON, as a decoder reads it.
func jsonTexts(t *testing.T, v any) ([]string, error) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out []string
	texts(b, func(s []byte) { out = append(out, string(s)) })
	return out, nil
}

// TestTexter: the texts the texter finds in a payload without writing it
// are those of its JSON, in order; a payload whose JSON it cannot tell
// from its fields, or that cannot be written, it declines.
func TestTexter(t *testing.T) {
	pt := geom.Pt(3, 4.5)
	walked := []any{
		nil,
		&textsPayload{},
		textsPayload{Unit: "u-1", Units: []string{"a", "b"}, Kind: "attack", At: pt, From: &pt, Arrived: true, Left: 2, Range: 1.5,
			Secret: "s", Plain: "p", Pts: []*geom.Point{nil, &pt},
			Order: &textsOrder{ID: "o-1", For: []string{"x"}, At: &pt, quiet: "q"}, Orders: []textsOrder{{ID: "o-2"}, {For: []string{}}}},
		&textsPayload{Unit: `quote " and <tag> & é`, Units: []string{}, Pts: []*geom.Point{}},
		(*textsPayload)(nil),
		"text",
		[]string{"a", "b"},
		42,
	}
	declined := []any{
		textsWithMap{By: map[string]int{"k": 1}},
		textsWithAny{V: "x"},
		textsEmbedded{Unit: "u"},
		textsQuoted{N: 3},
		textsBytes{B: []byte("hi")},
		time.Time{},         // writes itself (a Marshaler)
		&textsSelf{ID: "a"}, // a type that holds itself
		[1]string{"a"},
	}
	var tx texter
	for _, v := range walked {
		want, err := jsonTexts(t, v)
		if err != nil {
			t.Fatalf("%#v: %v", v, err)
		}
		got, ok := tx.texts(v, nil)
		if !ok || !slices.Equal(got, want) {
			t.Errorf("%#v: texts %q (walked %v); its JSON has %q", v, got, ok, want)
		}
	}
	for _, v := range declined {
		if got, ok := tx.texts(v, nil); ok {
			t.Errorf("%#v: walked to %q; want it declined", v, got)
		}
	}
	// A number JSON cannot write: declined, as json.Marshal refuses it.
	for _, v := range []any{textsPayload{Range: math.NaN()}, textsPayload{At: geom.Pt(math.Inf(1), 0)}} {
		if _, err := json.Marshal(v); err == nil {
			t.Fatalf("json.Marshal wrote %#v", v)
		}
		if got, ok := tx.texts(v, nil); ok {
			t.Errorf("%#v: walked to %q; want it declined", v, got)
		}
	}
}
