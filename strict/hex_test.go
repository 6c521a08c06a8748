package strict

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Route reads to, path or both, and refuses what does not agree, each
// with its place.
func TestRoute(t *testing.T) {
	r := Reader{File: "m.yaml"}
	read := func(src string) (string, []string, error) {
		n, err := r.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		f := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			f[n.Content[i].Value] = n.Content[i+1]
		}
		return r.Route(n, f["to"], f["path"], "move", 3)
	}
	if to, path, err := read(`{to: "0412"}`); err != nil || to != "0412" || path != nil {
		t.Errorf("to alone: %q %v %v", to, path, err)
	}
	if to, path, err := read(`{path: ["0411", 4-12]}`); err != nil || to != "4-12" || len(path) != 2 {
		t.Errorf("path alone: %q %v %v", to, path, err)
	}
	for src, want := range map[string]string{
		`{to: "0413", path: ["0412"]}`:     "m.yaml:1: move.path: the path ends at 0412, not at 0413",
		`{path: ["01", "02", "03", "04"]}`: "a path has 1..3 hexes, got 4",
		`{path: []}`:                       "a path has 1..3 hexes, got 0",
		`{to: "04a2"}`:                     `move.to: "04a2" is not the label of a hex`,
		`{path: ["0412", {x: 1}]}`:         "move.path[1]: want the label of a hex",
		`{unit: u}`:                        "move: to is missing",
	} {
		if _, _, err := read(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", src, err, want)
		}
	}
}
