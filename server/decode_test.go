package server

import (
	"reflect"
	"testing"

	"orderly/game"
	"orderly/rules"
)

// commandJSON is a typical command as the page sends it.
const commandJSON = `{"move":[{"unit":"F-I-1-a","to":[31.5,21],"formation":"column","facing":90},{"general":"quiot","to":[30,20]}]}`

// TestDecodeCommandAsYAML: a command read straight from JSON is the one the
// YAML path reads from the same text.
func TestDecodeCommandAsYAML(t *testing.T) {
	t.Parallel()
	eng := demoRules(t)
	for _, src := range []string{commandJSON,
		`{"side":"french","write":{"for":["F-I","F-II"],"kind":"attack","objective":[30,12],"note":"at once"}}`,
		`{"ready":true}`, `{"end":"write"}`, `{"rout":"F-I-1-a"}`,
		`{"replace":{"general":"ney","by":{"id":"x","quality":"good","range":4,"at":[1,1]}}}`} {
		got, err := decodeCommand(eng, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		sided := src
		if got.Side == "" {
			got.Side = "french" // as the seat would fill it in
			sided = `{"side":"french",` + src[1:]
		}
		want, err := game.DecodeCommand(eng, []byte(sided), "body")
		if err != nil {
			t.Fatalf("%s: the YAML path: %v", sided, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: JSON path %+v, YAML path %+v", src, got, want)
		}
	}
}

// BenchmarkDecodeCommand compares the JSON path the server takes with the
// YAML path script files take, on one command.
func BenchmarkDecodeCommand(b *testing.B) {
	eng := demoRules(b)
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeCommand(eng, []byte(commandJSON)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("yaml", func(b *testing.B) {
		b.ReportAllocs()
		src := []byte(`{"side":"french",` + commandJSON[1:])
		for b.Loop() {
			if _, err := game.DecodeCommand(eng, src, "body"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func demoRules(t testing.TB) game.Rules {
	t.Helper()
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := rules.Engine("nb", set)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}
