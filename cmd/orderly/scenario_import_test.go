package main

import (
	"archive/zip"
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/roster"
	"orderly/rules"
	"orderly/server"
)

// loads reads a scenario file with the loader and its rule set's checks.
func loads(t *testing.T, file string) *battle.Scenario {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	mk, err := rules.Make()
	if err != nil {
		t.Fatal(err)
	}
	sc, err := battle.Read(file, data, func(id string) (battle.RuleSet, error) {
		return server.RulesOf(mk, rules.Default().Examples(), id)
	})
	if err != nil {
		t.Fatalf("%s does not load: %v\n%s", file, err, data)
	}
	return sc
}

// TestImportEveryRuleSet imports each rule set's roster template as it
// is, and with its positions left out: the written scenarios load, the
// second with every piece deployed along its side's edge.
func TestImportEveryRuleSet(t *testing.T) {
	dir := t.TempDir()
	for _, id := range rules.Procedures() {
		spec, err := rules.Spec(id)
		if err != nil {
			t.Fatal(err)
		}
		sample, err := roster.Sample(rules.Default().Examples(), id)
		if err != nil {
			t.Fatal(err)
		}
		tmpl, err := roster.Template(spec, sample)
		if err != nil {
			t.Fatal(err)
		}
		csv := dropColumn(t, dropColumn(t, string(tmpl), "at"), "side-hq")
		in := filepath.Join(dir, id+".csv")
		if err := os.WriteFile(in, []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, id+".yaml")
		stdout, stderr, status := cli(t, "scenario", "import", in, "--rules", id, "-o", out)
		if status != 0 {
			t.Fatalf("%s: status %d: %s\n%s", id, status, stderr, csv)
		}
		if !strings.HasPrefix(stdout, "wrote "+out+": ") {
			t.Errorf("%s: said %q", id, stdout)
		}
		// The template as it is, positions and all, imports too.
		whole := filepath.Join(dir, id+"-whole.csv")
		if err := os.WriteFile(whole, tmpl, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, stderr, status := cli(t, "scenario", "import", whole, "--rules", id, "-o", filepath.Join(dir, id+"-whole.yaml")); status != 0 {
			t.Errorf("%s: the template as it is: status %d: %s", id, status, stderr)
		} else {
			loads(t, filepath.Join(dir, id+"-whole.yaml"))
		}
		sc := loads(t, out)
		if len(sc.Sides) != 2 || len(sc.Units()) == 0 {
			t.Errorf("%s: %d sides, %d units", id, len(sc.Sides), len(sc.Units()))
		}
		t.Run(id+"/conformance", func(t *testing.T) { conform(t, id, sc) })
		for _, u := range sc.Units() {
			edge := sc.Side(u.Side).Edge
			// How far the unit is from its edge, and half the space's
			// extent across that edge.
			var d, half float64
			if sc.Map == nil {
				d, half = sc.Field.FromEdge(u.At, edge), sc.Field.Depth/2
				if edge == "east" || edge == "west" {
					half = sc.Field.Width / 2
				}
			} else {
				b := sc.Map.Bounds()
				d, half = map[string]float64{"north": u.At.Y - b.Min.Y, "south": b.Max.Y - u.At.Y, "west": u.At.X - b.Min.X, "east": b.Max.X - u.At.X}[edge], (b.Max.Y-b.Min.Y)/2
				if edge == "east" || edge == "west" {
					half = (b.Max.X - b.Min.X) / 2
				}
			}
			if d < 0 || d > half {
				t.Errorf("%s: unit %s at %v is not deployed in the half by its edge %s", id, u.ID, sc.Space().Format(u.At), edge)
			}
		}
	}
}

// dropColumn removes a column from CSV text.
func dropColumn(t *testing.T, text, name string) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(text), "\n")
	head := strings.Split(lines[0], ",")
	i := -1
	for k, h := range head {
		if h == name {
			i = k
		}
	}
	if i < 0 {
		return text
	}
	var out []string
	for _, l := range lines {
		cells := strings.Split(l, ",")
		out = append(out, strings.Join(append(cells[:i:i], cells[i+1:]...), ","))
	}
	return strings.Join(out, "\n") + "\n"
}

// TestImportModuleInto imports a roster and a module's board for NES: the
// map is the board's; then one side of a roster goes --into that
// scenario in its side's place; one side alone makes no scenario, and a
// rule set played on a table refuses a board.
func TestImportModuleInto(t *testing.T) {
	dir := t.TempDir()
	mod := filepath.Join(dir, "b.vmod")
	if err := os.WriteFile(mod, testModule(t, 2400, 1800), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, _ := rules.Spec("nes")
	sample, _ := roster.Sample(rules.Default().Examples(), "nes")
	tmpl, err := roster.Template(spec, sample)
	if err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "r.csv")
	if err := os.WriteFile(csv, []byte(dropColumn(t, dropColumn(t, string(tmpl), "at"), "side-hq")), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "o.yaml")
	if _, stderr, status := cli(t, "scenario", "import", csv, mod, "--rules", "nes", "-o", out); status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	data, _ := os.ReadFile(out)
	for _, want := range []string{"columns: 43\n", "rows: 28\n", "layout: odd-q\n", "data: data:image/png;base64,", "x0: 40\n"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the scenario lacks %q:\n%.600s", want, data)
		}
	}
	loads(t, out)
	// The first side again, a unit renamed, into the scenario just made:
	// it takes its side's place, the other side stays.
	var first []string
	for i, l := range strings.Split(dropColumn(t, dropColumn(t, string(tmpl), "at"), "side-hq"), "\n") {
		if i == 0 || strings.HasPrefix(l, "french,") {
			first = append(first, strings.Replace(l, ",fr-13l,", ",fr-13l-bis,", 1))
		}
	}
	one := filepath.Join(dir, "one.csv")
	if err := os.WriteFile(one, []byte(strings.Join(first, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out2 := filepath.Join(dir, "o2.yaml")
	if _, stderr, status := cli(t, "scenario", "import", one, "--into", out, "-o", out2); status != 0 {
		t.Fatalf("--into: status %d: %s", status, stderr)
	}
	sc := loads(t, out2)
	if len(sc.Sides) != 2 || sc.Unit("fr-13l-bis") == nil || sc.Unit("fr-13l") != nil || sc.Map == nil || sc.Map.Columns != 43 {
		t.Errorf("--into: sides %d, units %v, map %v", len(sc.Sides), sc.Units(), sc.Map)
	}
	if _, stderr, status := cli(t, "scenario", "import", one, "--rules", "nes", "-o", out2); status != 2 || !strings.Contains(stderr, "the scenario would have 1 sides (french); a battle has two") {
		t.Errorf("one side alone: status %d: %s", status, stderr)
	}
	if _, stderr, status := cli(t, "scenario", "import", mod, "--rules", "nb", "-o", out); status != 2 || !strings.Contains(stderr, "rule set nb plays on a table; a VASSAL module's board is a hex map") {
		t.Errorf("nb and a module: status %d: %s", status, stderr)
	}
}

// testModule is a .vmod of one board with a w by h PNG and a hex grid.
func testModule(t *testing.T, w, h int) []byte {
	t.Helper()
	var pic bytes.Buffer
	if err := png.Encode(&pic, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	build := `<VASSAL.build.GameModule><VASSAL.build.module.Map><VASSAL.build.module.map.BoardPicker>
<VASSAL.build.module.map.boardPicker.Board image="b.png" name="Main"><VASSAL.build.module.map.boardPicker.board.HexGrid dx="56" dy="64" x0="40" y0="38"/></VASSAL.build.module.map.boardPicker.Board>
</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map></VASSAL.build.GameModule>`
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for name, data := range map[string][]byte{"buildFile.xml": []byte(build), "images/b.png": pic.Bytes()} {
		fw, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
