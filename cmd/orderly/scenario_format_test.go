package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
)

// unlined zeroes every Line of a value (and the scenario's File), through
// pointers, slices, maps and structs, so that two loads of one scenario
// from differently laid-out text compare equal.
func unlined(v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		unlined(v.Elem(), seen)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			unlined(v.Index(i), seen)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if e := v.MapIndex(k); e.Kind() == reflect.Pointer {
				unlined(e, seen)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			switch name := v.Type().Field(i).Name; {
			case (name == "Line" && f.Kind() == reflect.Int || name == "File" && f.Kind() == reflect.String) && f.CanSet():
				f.SetZero()
			case f.CanSet() || f.Kind() == reflect.Map || f.Kind() == reflect.Pointer:
				unlined(f, seen)
			}
		}
	}
}

// sameScenario reports whether two loaded scenarios are the same but for
// their lines.
func sameScenario(a, b *battle.Scenario) bool {
	unlined(reflect.ValueOf(a), map[uintptr]bool{})
	unlined(reflect.ValueOf(b), map[uintptr]bool{})
	return reflect.DeepEqual(a, b)
}

// scenarioNodes are the scenarios among the bundled examples and the
// example scripts: each scenario file's mapping and each script's inline
// scenario, by file.
func scenarioNodes(t *testing.T) map[string]*yaml.Node {
	files, err := filepath.Glob("../../examples/*/*.yaml")
	if err != nil || len(files) < 50 {
		t.Fatalf("the examples: %d files, %v", len(files), err)
	}
	out := map[string]*yaml.Node{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) != 1 {
			continue
		}
		root := doc.Content[0]
		if n := child(root, "scenario"); n != nil && n.Kind == yaml.MappingNode {
			out[f+"#scenario"] = n
		} else if child(root, "sides") != nil {
			out[f] = root
		}
	}
	return out
}

func child(n *yaml.Node, key string) *yaml.Node {
	for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// TestScenarioRoundTrip: every scenario among the examples, in canonical
// form, loads to the same scenario (or fails with the same problems, but
// for their lines), and formatting the canonical form again changes no
// byte.
func TestScenarioRoundTrip(t *testing.T) {
	a := &app{}
	find, err := a.scenarioRules()
	if err != nil {
		t.Fatal(err)
	}
	rs := func(id string) (battle.RuleSet, error) { return find(id) }
	nodes := scenarioNodes(t)
	loaded := 0
	for name, n := range nodes {
		spec := battle.Spec{}
		if r, err := find(child(n, "rules").Value); err == nil {
			spec = battle.SpecOf(r)
		}
		canon, err := battle.Canonical(n, spec)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		again, err := battle.Format("canon.yaml", canon, rs)
		if err != nil || string(again) != string(canon) {
			t.Errorf("%s: formatting the canonical form again changes it (%v):\n%s\n---\n%s", name, err, canon, again)
		}
		want, werr := battle.ReadNode("x.yaml", n, rs)
		got, gerr := battle.Read("x.yaml", canon, rs)
		switch {
		case werr != nil:
			if gerr == nil || unplaced(gerr) != unplaced(werr) {
				t.Errorf("%s: fails with %v, its canonical form with %v", name, werr, gerr)
			}
		case gerr != nil:
			t.Errorf("%s: loads, its canonical form does not: %v", name, gerr)
		default:
			loaded++
			if !sameScenario(want, got) {
				t.Errorf("%s: its canonical form loads to another scenario", name)
			}
		}
	}
	t.Logf("loaded %d of %d", loaded, len(nodes))
	if loaded < 40 {
		t.Errorf("only %d of %d scenarios loaded", loaded, len(nodes))
	}
}

// unplaced is a loader's problems without their file and line.
func unplaced(err error) string {
	var out []string
	for _, e := range battle.List(err) {
		s := e.Error()
		if _, rest, ok := strings.Cut(s, ": "); ok && strings.HasPrefix(s, "x.yaml:") {
			s = rest
		}
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

// TestScenarioCheck: orderly scenario check prints every problem of a
// file, one a line at its line, and ok for a good file; the status is 1.
func TestScenarioCheck(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), "name: Ney, quality: average", "name: Ney, quality: avrage", 1)
	bad = strings.Replace(bad, "name: d'Erlon, quality: average, range: 8", "name: d'Erlon, quality: average, range: -8", 1)
	badFile := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(badFile, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, st := cli(t, "scenario", "check", "../../examples/nb/demo.yaml", badFile)
	out = strings.ReplaceAll(out, dir, "DIR")
	if st != 1 || errOut != "orderly: scenario check: 2 problems in 1 of 2 files\n" {
		t.Errorf("status %d, stderr %q", st, errOut)
	}
	golden(t, "out/scenario-check", out)

	if _, _, st := cli(t, "scenario", "check", "../../examples/nb/demo.yaml"); st != 0 {
		t.Errorf("a good file: status %d", st)
	}
	if _, errOut, st := cli(t, "scenario", "check", filepath.Join(dir, "none.yaml")); st != 2 || !strings.Contains(errOut, "none.yaml: no such file") {
		t.Errorf("a missing file: status %d, %q", st, errOut)
	}
}

// TestScenarioFormat: orderly scenario format writes the canonical form
// to the standard output, to --output or back into the file, and refuses
// both at once.
func TestScenarioFormat(t *testing.T) {
	dir := t.TempDir()
	src := "rules: nb\nname: x   # a comment\nturns: 0x0C\nsides: []\nfield: {depth: 48, width: 72.0}\n"
	file := filepath.Join(dir, "x.yaml")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "name: x\nrules: nb\nturns: 12\nfield:\n  width: 72\n  depth: 48\nsides: []\n"
	out, errOut, st := cli(t, "scenario", "format", file)
	if st != 0 || out != want {
		t.Errorf("status %d, %s; got\n%s\nwant\n%s", st, errOut, out, want)
	}
	to := filepath.Join(dir, "y.yaml")
	if _, errOut, st := cli(t, "scenario", "format", file, "-o", to); st != 0 {
		t.Errorf("-o: status %d, %s", st, errOut)
	} else if got, _ := os.ReadFile(to); string(got) != want {
		t.Errorf("-o wrote\n%s", got)
	}
	if _, errOut, st := cli(t, "scenario", "format", "-w", file); st != 0 {
		t.Errorf("-w: status %d, %s", st, errOut)
	} else if got, _ := os.ReadFile(file); string(got) != want {
		t.Errorf("-w wrote\n%s", got)
	}
	if _, errOut, st := cli(t, "scenario", "format", "-w", "-o", to, file); st != 2 || !strings.Contains(errOut, "not both") {
		t.Errorf("-w and -o: status %d, %s", st, errOut)
	}
	if _, errOut, st := cli(t, "scenario", "format", filepath.Join(dir, "none.yaml")); st != 2 {
		t.Errorf("a missing file: status %d, %s", st, errOut)
	}
	for _, sub := range []string{"check", "format"} {
		if out, _, _ := cli(t, "scenario", sub, "--help"); !strings.Contains(out, "Examples:") || !strings.Contains(out, "orderly scenario "+sub) {
			t.Errorf("scenario %s --help lacks an example:\n%s", sub, out)
		}
	}
}
