package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scripts lists the example scripts (files with a scenario: field).
func scripts(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../examples/*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "\nscenario:") {
			out = append(out, f)
		}
	}
	if len(out) < 16 {
		t.Fatalf("found %d example scripts, want one per NB rule and the worked example", len(out))
	}
	return out
}

// runArgs are the arguments that run example script f: LOB's with the
// example tables, which LOB needs from the user, and a script played under
// house rules with the files its header's own run command names
// ("#   orderly run examples/bp/x.yaml --rules examples/rules/y.yaml").
func runArgs(f string) []string {
	if filepath.Base(filepath.Dir(f)) == "lob" {
		return []string{"run", f, "--rules", "../../examples/lob/example-tables.yaml"}
	}
	data, err := os.ReadFile(f)
	if err != nil {
		return []string{"run", f}
	}
	self := "orderly run " + filepath.ToSlash(strings.TrimPrefix(f, "../../")) + " --rules "
	for line := range strings.Lines(string(data)) {
		if !strings.HasPrefix(line, "#") {
			break
		}
		if _, rest, ok := strings.Cut(line, self); ok {
			args := []string{"run", f}
			for i, w := range strings.Fields("--rules " + rest) {
				if i%2 == 1 {
					w = "../../" + w
				}
				args = append(args, w)
			}
			return args
		}
	}
	return []string{"run", f}
}

// TestRunExamples plays every example script: each must meet its own
// expectations, and its timeline must match the golden file.
func TestRunExamples(t *testing.T) {
	for _, f := range scripts(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			out, errs, status := cli(t, runArgs(f)...)
			if status != 0 {
				t.Fatalf("orderly run %s: status %d: %s", f, status, errs)
			}
			golden(t, "run/"+name, out)
		})
	}
}

// TestSeedExampleJSON is the acceptance check: the worked example of
// NB-5 reads the order on turn 6 and acts on it on turn 8.
func TestSeedExampleJSON(t *testing.T) {
	out, errs, status := cli(t, "run", "../../examples/nb/seed-example.yaml", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errs)
	}
	var events []map[string]any
	if err := json.Unmarshal([]byte(out), &events); err != nil {
		t.Fatal(err)
	}
	var read, active map[string]any
	for _, e := range events {
		for _, k := range []string{"turn", "phase", "type", "side"} {
			if _, ok := e[k]; !ok {
				t.Fatalf("event %v has no %s", e, k)
			}
		}
		d, _ := e["data"].(map[string]any)
		if d == nil || d["formation"] != "I" {
			continue
		}
		switch e["type"] {
		case "order-read":
			read = e
		case "order-active":
			if d["how"] == "read" {
				active = e
			}
		}
	}
	if read == nil || active == nil {
		t.Fatalf("no order-read or order-active for I in %s", out)
	}
	roll := read["rolls"].([]any)[0].(map[string]any)
	if read["turn"] != 6.0 || roll["natural"] != 3.0 || roll["total"] != 6.0 || roll["result"] != "delay-2" || read["data"].(map[string]any)["acts"] != 8.0 {
		t.Errorf("order-read: %v", read)
	}
	if active["turn"] != 8.0 || active["phase"] != "maneuver" {
		t.Errorf("order-active: %v", active)
	}
	golden(t, "run/seed-example.json", out)
}

// TestRunFailedExpectation checks that a script whose expectation fails
// exits 1 and says which one.
func TestRunFailedExpectation(t *testing.T) {
	data, err := os.ReadFile("../../examples/nb/seed-example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(data), `result: delay-2, acts: "8"`, `result: delay-1, acts: "7"`, 1)
	path := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, status := cli(t, "run", path)
	if status != 1 || !strings.Contains(errs, "the timeline has no entry with turn=6 phase=communications type=order-read formation=I result=delay-1") {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
}

func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	demo, err := filepath.Abs("../../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ file, want string }{
		{write("a.yaml", "scenario: nowhere.yaml\n"), "a.yaml:1: scenario: open"},
		{write("b.yaml", "scenario: "+demo+"\nturns:\n  - turn: 2\n    command:\n      - {side: french, end: true}\n"), "the command phase takes no commands"},
		{write("c.yaml", "scenario: x\nrolls: 3\n"), "c.yaml:1: scenario"},
	}
	for _, c := range cases {
		_, errs, status := cli(t, "run", c.file)
		if status != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("run %s: status %d, stderr %q; want 2 and %q", c.file, status, errs, c.want)
		}
	}
}

// TestRunAsSide: a side's timeline leaves out the other side's orders,
// what its messengers carry and its secret rolls, and keeps the messenger
// models and moves that both sides see on the table.
func TestRunAsSide(t *testing.T) {
	out, errs, status := cli(t, "run", "../../examples/nb/nb-10-off-board-reserve.yaml", "--as", "british", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errs)
	}
	var events []map[string]any
	if err := json.Unmarshal([]byte(out), &events); err != nil {
		t.Fatal(err)
	}
	types := map[string]bool{}
	for _, e := range events {
		types[e["type"].(string)] = true
		if e["see"] != "all" && e["see"] != "british" {
			t.Errorf("british timeline has %v", e)
		}
		if e["side"] == "french" && (e["order"] != nil || e["order-id"] != nil) {
			t.Errorf("british timeline shows a french order: %v", e)
		}
	}
	for _, want := range []string{"messenger-sent", "general-placed", "reserve-arrival-roll", "reserve-entered"} {
		if !types[want] {
			t.Errorf("british timeline has no %s", want)
		}
	}
	if types["reserve-scheduled"] {
		t.Error("british timeline shows the secret entry roll of the french reserve")
	}
	if strings.Contains(out, "fall on their flank") {
		t.Error("british timeline shows the note of a french order")
	}
	_, errs, status = cli(t, "run", "../../examples/nb/seed-example.yaml", "--as", "prussian")
	if status != 2 || !strings.Contains(errs, "--as prussian: not a side of this scenario; allowed: french, british, umpire") {
		t.Errorf("status %d, %q", status, errs)
	}
}
