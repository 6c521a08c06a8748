package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orderly/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// cli runs orderly in-process with a fixed seed source.
func cli(t *testing.T, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errb bytes.Buffer
	a := &app{out: &out, err: &errb, seed: func() uint64 { return 42 }}
	status = a.run(context.Background(), args)
	return out.String(), errb.String(), status
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/orderly -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./cmd/orderly -update rewrites it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func fileName(id string) string { return strings.ReplaceAll(id, "/", "_") }

// TestShowGolden prints every table as orderly show does.
func TestShowGolden(t *testing.T) {
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	ids := set.IDs()
	if len(ids) != 35 {
		t.Errorf("%d tables, want 35: the 18 of the catalogue, BP's 7 of example values and its house rules, NES's brook roll and its 4 of example values, CD's passage roll, radii, footprints and values", len(ids))
	}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			out, errs, st := cli(t, "show", id)
			if st != 0 {
				t.Fatalf("status %d: %s", st, errs)
			}
			golden(t, "show/"+fileName(id), out)
		})
	}
}

func TestOutputsGolden(t *testing.T) {
	cases := map[string][]string{
		"tables":               {"tables"},
		"odds-french-average":  {"odds", "nb/order-delay", "nation=french", "quality=average"},
		"odds-french-json":     {"odds", "nb/order-delay", "nation=french", "quality=average", "--json"},
		"odds-vary":            {"odds", "nb/order-delay", "--vary", "nation", "--vary", "quality"},
		"odds-vary-json":       {"odds", "bp/command", "--vary", "rating=7,8", "--json"},
		"odds-variant":         {"odds", "bp/command", "--rules", "../../examples/rules/bp-command-variant.yaml"},
		"odds-shooting":        {"odds", "bp/shooting", "dice=12", "save=5", "enfilade=true"},
		"odds-3d6":             {"odds", "3d6"},
		"roll-delay":           {"roll", "nb/order-delay", "nation=french", "quality=average", "--dice", "3"},
		"roll-delay-json":      {"roll", "nb/order-delay", "nation=french", "--dice", "3", "--json"},
		"roll-command-seed":    {"roll", "bp/command", "--seed", "7"},
		"roll-activation":      {"roll", "cd/activation", "rating=good", "cw=16", "style=ad-hoc", "roll=3", "--dice", "4,5"},
		"roll-shooting":        {"roll", "bp/shooting", "dice=6", "enfilade=true", "--seed", "3"},
		"roll-shooting-json":   {"roll", "bp/shooting", "dice=4", "--dice", "6,1,4,2,3,5", "--json"},
		"roll-loss-extended":   {"roll", "nes/command-unit-loss", "situation=fire-extended"},
		"roll-delivery-brig":   {"roll", "nes/order-delivery", "brigade=true", "--dice", "9"},
		"roll-2d6":             {"roll", "2d6", "--seed", "5"},
		"roll-no-save":         {"roll", "bp/shooting", "dice=3", "save=7", "--dice", "6,2,5"},
		"lookup-movement":      {"lookup", "cd/movement", "type=infantry", "formation=column"},
		"lookup-terrain":       {"lookup", "nes/terrain", "terrain=woods", "unit=infantry"},
		"lookup-style-json":    {"lookup", "cd/command-style", "style=french-model", "roll=5", "--json"},
		"lookup-artillery":     {"lookup", "cd/artillery-movement", "gun=6", "mode=move-unlimber-fire", "--json"},
		"show-variant":         {"show", "bp/command", "--rules", "../../examples/rules/bp-command-variant.yaml"},
		"lookup-options-house": {"lookup", "bp/options", "option=combat-margin", "--rules", "../../examples/rules/bp-combat-margin.yaml"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			out, errs, st := cli(t, args...)
			if st != 0 {
				t.Fatalf("status %d: %s", st, errs)
			}
			golden(t, "out/"+name, out)
		})
	}
}

// TestDoneWhen is the acceptance command.
func TestDoneWhen(t *testing.T) {
	out, _, st := cli(t, "odds", "nb/order-delay", "nation=french", "quality=average", "--json")
	if st != 0 {
		t.Fatal(st)
	}
	var got struct {
		Table    string `json:"table"`
		Dice     string `json:"dice"`
		Modifier int    `json:"modifier"`
		Outcomes []struct {
			Result      string  `json:"result"`
			Probability float64 `json:"probability"`
			Exact       string  `json:"exact"`
		} `json:"outcomes"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Table != "nb/order-delay" || got.Dice != "1d10" || got.Modifier != 3 {
		t.Errorf("header %+v", got)
	}
	want := []struct {
		r string
		e string
	}{{"delay-3", "1/5"}, {"delay-2", "1/5"}, {"delay-1", "1/5"}, {"immediate", "2/5"}}
	if len(got.Outcomes) != len(want) {
		t.Fatalf("outcomes %+v", got.Outcomes)
	}
	sum := new(big.Rat)
	for i, w := range want {
		o := got.Outcomes[i]
		r, ok := new(big.Rat).SetString(o.Exact)
		if !ok || o.Result != w.r || o.Exact != w.e {
			t.Errorf("outcome %d = %+v, want %s %s", i, o, w.r, w.e)
			continue
		}
		if f, _ := r.Float64(); f != o.Probability {
			t.Errorf("%s: probability %v disagrees with exact %s", o.Result, o.Probability, o.Exact)
		}
		sum.Add(sum, r)
	}
	if sum.Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("exact fractions sum to %s", sum)
	}
}

func TestVariantOdds(t *testing.T) {
	out, _, st := cli(t, "odds", "bp/command", "--json", "--rules", "../../examples/rules/bp-command-variant.yaml")
	if st != 0 {
		t.Fatal(st)
	}
	for _, want := range []string{`"result": "moves-2",`, `"exact": "1/4"`, `"exact": "1/6"`} {
		if !strings.Contains(out, want) {
			t.Errorf("variant odds lack %s:\n%s", want, out)
		}
	}
}

// TestBadInput: one clear line on stderr, exit status 2, nothing on stdout.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.yaml")
	os.WriteFile(broken, []byte("tables:\n  - id: bp/command\n    bands:\n      \"<=-3\": moves-3\n      \"-1..0\": moves-1\n      \">=1\": fail\n"), 0o644)
	// The BP guide's scenario refused for a formation its unit's type
	// cannot take (BP-4): bp-04-formations with i1 limbered.
	formations, err := os.ReadFile("../../examples/bp/bp-04-formations.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte(strings.Replace(string(formations), "{id: i1, type: infantry, formation: square", "{id: i1, type: infantry, formation: limbered", 1)), 0o644)
	// The BP guide shows that refusal: its line is the one expected.
	readme, err := os.ReadFile("../../docs/bp.md")
	if err != nil {
		t.Fatal(err)
	}
	_, shown, found := strings.Cut(string(readme), "\n$ orderly run bad.yaml\norderly: ")
	shown, _, _ = strings.Cut(shown, "\n")
	if !found || !strings.Contains(shown, "cannot take formation limbered (BP-4)") {
		t.Fatalf("docs/bp.md shows no refusal of bad.yaml for i1 standing limbered: %q", shown)
	}
	typo := filepath.Join(dir, "typo.yaml")
	os.WriteFile(typo, []byte("tables:\n  - id: bp/command\n    bandz: {}\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"odds", "order-delay"}, `unknown table "order-delay"; did you mean nb/order-delay?`},
		{[]string{"odds", "nb/order-dealy"}, "did you mean nb/order-delay"},
		{[]string{"odds", "nb/order-delay", "nationality=french"}, `unknown parameter "nationality" (did you mean nation?); allowed: nation, quality`},
		{[]string{"roll", "nb/order-delay", "nation=frnech"}, "nation=frnech is not allowed (did you mean french?); allowed: french, british"},
		{[]string{"odds", "cd/activation"}, "cd/activation: parameter rating is required; allowed: superior, excellent, good, average, poor"},
		{[]string{"odds", "bp/shooting", "dice=6", "save=9"}, "bp/shooting: save=9 is out of range; allowed: whole numbers 2..7"},
		{[]string{"odds", "bp/shooting", "dice=-1"}, "dice=-1 is out of range"},
		{[]string{"odds", "bp/shooting", "dice=5000"}, "too many dice; allowed at most 1000"},
		{[]string{"odds", "nb/order-delay", "french"}, `argument "french" is not NAME=VALUE`},
		{[]string{"odds", "bp/command", "--rules", broken}, "broken.yaml:5: table bp/command: bands -3 or less and -1..0 leave a gap at -2; each score must fall in one band"},
		{[]string{"odds", "bp/command", "--rules", typo}, `typo.yaml:3: table bp/command: unknown field "bandz" (did you mean bands?)`},
		{[]string{"run", bad}, shown},
		{[]string{"odds", "bp/command", "--rules", filepath.Join(dir, "none.yaml")}, "house rules: open"},
		{[]string{"odds", "nb/order-delay", "--vary", "colour"}, `nb/order-delay has no parameter "colour"`},
		{[]string{"odds", "bp/command", "--vary", "rating"}, "list the values, e.g. --vary rating=1,2,3"},
		{[]string{"odds", "nb/order-delay", "--plot", "x.gif"}, "the file must end in .svg or .png"},
		{[]string{"roll", "nb/order-delay", "--dice", "3,4"}, "--dice gave 1 more faces than the roll used"},
		{[]string{"roll", "nb/order-delay", "--dice", "11"}, "given roll 11 (number 1) is not a face of this d10; allowed 1..10"},
		{[]string{"roll", "bp/command", "--dice", "6"}, "no natural roll left"},
		{[]string{"roll", "nb/order-delay", "--dice", "x"}, `"x" is not a whole number`},
		{[]string{"lookup", "cd/movement", "type=infantry"}, "cd/movement: parameter formation is required"},
		{[]string{"lookup", "nb/order-delay"}, "nb/order-delay is a dice table"},
		{[]string{"odds", "cd/movement"}, "cd/movement is a lookup table without dice"},
		{[]string{"odds"}, "requires at least 1 arg"},
		{[]string{"odds", "2x6"}, `unknown table "2x6"`},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"odds", "nb/order-delay", "--colour"}, "unknown flag: --colour"},
		{[]string{"roll", "nb/order-delay", "--seed", "x"}, `invalid argument "x"`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errs, st := cli(t, c.args...)
			if st != 2 {
				t.Errorf("status %d, want 2 (stderr %q)", st, errs)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !strings.Contains(errs, c.want) {
				t.Errorf("stderr %q\n lacks %q", errs, c.want)
			}
			if strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "orderly: ") {
				t.Errorf("stderr is not one line starting orderly: %q", errs)
			}
			if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
				t.Errorf("stack trace: %q", errs)
			}
		})
	}
}

func TestPlotFiles(t *testing.T) {
	dir := t.TempDir()
	cases := map[string][]string{
		"single.svg": {"odds", "nb/order-delay", "nation=french"},
		"grid.png":   {"odds", "nb/order-delay", "--vary", "nation", "--vary", "quality"},
		"dice.svg":   {"odds", "2d6"},
		"pool.png":   {"odds", "bp/shooting", "--vary", "dice=4,8,12"},
	}
	for name, args := range cases {
		path := filepath.Join(dir, name)
		_, errs, st := cli(t, append(args, "--plot", path)...)
		if st != 0 {
			t.Fatalf("%s: %s", name, errs)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(name) {
		case ".svg":
			if !bytes.Contains(b[:min(len(b), 200)], []byte("<svg")) {
				t.Errorf("%s is not SVG", name)
			}
		case ".png":
			if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
				t.Errorf("%s is not PNG", name)
			}
		}
	}
}

func TestSeedRepeats(t *testing.T) {
	a, _, _ := cli(t, "roll", "bp/shooting", "dice=20", "--seed", "99", "--json")
	b, _, _ := cli(t, "roll", "bp/shooting", "dice=20", "--seed", "99", "--json")
	c, _, _ := cli(t, "roll", "bp/shooting", "dice=20", "--seed", "100", "--json")
	if a != b {
		t.Error("the same seed gave different rolls")
	}
	if a == c {
		t.Error("different seeds gave the same 20 dice")
	}
	out, _, _ := cli(t, "roll", "nb/order-delay")
	if !strings.Contains(out, "seed    42") {
		t.Errorf("a roll without --seed does not print the seed it used:\n%s", out)
	}
}

func TestCompletion(t *testing.T) {
	out, _, st := cli(t, "__complete", "odds", "nb/or")
	if st != 0 || !strings.Contains(out, "nb/order-delay") || strings.Contains(out, "cd/movement") {
		t.Errorf("table completion:\n%s", out)
	}
	out, _, _ = cli(t, "__complete", "odds", "nb/order-delay", "")
	if !strings.Contains(out, "nation=") || !strings.Contains(out, "quality=") {
		t.Errorf("parameter completion:\n%s", out)
	}
	out, _, _ = cli(t, "__complete", "roll", "nb/order-delay", "quality=")
	if !strings.Contains(out, "quality=excellent") {
		t.Errorf("value completion:\n%s", out)
	}
	out, _, _ = cli(t, "__complete", "lookup", "")
	if !strings.Contains(out, "cd/movement") || strings.Contains(out, "bp/command") {
		t.Errorf("lookup completion:\n%s", out)
	}
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		out, _, st := cli(t, "completion", sh)
		if st != 0 || len(out) < 100 {
			t.Errorf("completion %s: status %d, %d bytes", sh, st, len(out))
		}
	}
}

func TestHelpHasExamples(t *testing.T) {
	for _, cmd := range []string{"tables", "show", "roll", "odds", "lookup"} {
		out, _, st := cli(t, cmd, "--help")
		if st != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "orderly "+cmd) {
			t.Errorf("%s --help lacks an example:\n%s", cmd, out)
		}
	}
}
