package report_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"orderly/archive"
	"orderly/game"
	"orderly/report"
	"orderly/report/reporttest"
	"orderly/script"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// played plays an example script (its rolls as it gives them) and reports
// on the game as its export would be reported on.
func played(t *testing.T, id, name string) *report.Report {
	t.Helper()
	path := filepath.Join("..", "examples", id, name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	eng := reporttest.Engine(t)
	own := reporttest.Own(t, id)
	r, err := eng.Rules(id, own...)
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Load(path, data, func(string) (game.Rules, error) { return r, nil }, script.Disk)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := s.Run(r)
	if err != nil {
		t.Fatal(err)
	}
	doc := &archive.Game{Rules: id, Scenario: archive.Scenario{File: name, Source: string(data)}, Events: g.Log()}
	if len(own) > 0 {
		doc.Tables = &archive.Scenario{File: own[0].Name, Source: string(own[0].Data)}
	}
	rep, err := report.Build(doc, eng)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// life is the life of the order named name, or fails the test.
func life(t *testing.T, rep *report.Report, name string) report.Order {
	t.Helper()
	for _, o := range rep.Orders {
		if o.Order == name {
			return o
		}
	}
	var names []string
	for _, o := range rep.Orders {
		names = append(names, o.Order)
	}
	t.Fatalf("no order %s; the report has %s", name, strings.Join(names, ", "))
	return report.Order{}
}

// TestLivesNB follows NB's messengers (examples/nb/nb-03-messengers.yaml):
// french-3 is written on turn 1, delivered to d'Erlon on turn 2 and read
// on turn 3 with a natural 5 (+3 french, average: 8, delay-1), to act on
// turn 4; french-4 chases Reille and is delivered on turn 4, read on turn
// 5 with another 5 (+3 french, +1 good: 9, delay-1 again), to act on turn
// 6, after the script ends.
func TestLivesNB(t *testing.T) {
	rep := played(t, "nb", "nb-03-messengers.yaml")
	if !rep.Chronicled {
		t.Fatal("NB tells no orders' lives")
	}
	want := map[string]report.Order{
		"french-3": {Written: 1, Sent: 1, Arrived: 2, Read: 3, Acts: 4, Acted: 4, Delay: 3},
		"french-4": {Written: 1, Sent: 1, Arrived: 4, Read: 5, Acts: 6, Delay: -1},
	}
	for id, w := range want {
		o := life(t, rep, id)
		got := report.Order{Written: o.Written, Sent: o.Sent, Arrived: o.Arrived, Read: o.Read, Acts: o.Acts, Acted: o.Acted, Delay: o.Delay}
		if got != w {
			t.Errorf("%s: %+v, want %+v", id, got, w)
		}
	}
}

// TestLivesLOB follows LOB's delivery chart (examples/lob/lob-04-
// delivery.yaml): union-1, -2 and -3 are issued on turns 1, 2 and 3, all
// arrive on turn 4 and are accepted there; union-4, issued on turn 4,
// arrives on turn 6, after the script ends.
func TestLivesLOB(t *testing.T) {
	rep := played(t, "lob", "lob-04-delivery.yaml")
	for id, w := range map[string][3]int{"union-1": {1, 4, 4}, "union-2": {2, 4, 4}, "union-3": {3, 4, 4}, "union-4": {4, 0, 0}} {
		o := life(t, rep, id)
		if got := [3]int{o.Written, o.Arrived, o.Read}; got != w {
			t.Errorf("%s: written, arrived, accepted on turns %v, want %v", id, got, w)
		}
		if o.Sent != o.Written {
			t.Errorf("%s: sent on turn %d, want the turn it was issued, %d", id, o.Sent, o.Written)
		}
	}
}

// TestLivesNES follows NES's delivery rolls (examples/nes/nes-01-
// delivery-roll.yaml): Morand's order is ignored, Friant's goes on its
// way at delay-1 (and is rolled for again as the French turn 2 begins),
// Gaspard's is received at once.
func TestLivesNES(t *testing.T) {
	rep := played(t, "nes", "nes-01-delivery-roll.yaml")
	by := map[string]report.Order{}
	for _, o := range rep.Orders {
		by[o.For] = o
	}
	if o := by["morand"]; o.Written != 1 || o.Failed != 1 || o.Acted != 0 {
		t.Errorf("Morand's order: %+v, want written and ignored on turn 1", o)
	}
	if o := by["friant"]; o.Written != 1 || o.Sent != 1 || o.Read != 0 || o.Acted == 1 || o.Failed != 0 {
		t.Errorf("Friant's order: %+v, want written and on its way on turn 1", o)
	}
	if o := by["gaspard"]; o.Written != 1 || o.Read != 1 || o.Acted != 1 || o.Delay != 0 {
		t.Errorf("Gaspard's order: %+v, want received and acted on on turn 1", o)
	}
}

// TestLivesBP reads BP's command rolls (examples/bp/bp-01-command-roll.yaml):
// Jamin's four orders of turn 1 are each acted on at once.
func TestLivesBP(t *testing.T) {
	rep := played(t, "bp", "bp-01-command-roll.yaml")
	acted := 0
	for _, o := range rep.Orders {
		if o.Read == 1 && o.Acted == 1 {
			acted++
		}
	}
	if acted < 4 {
		t.Errorf("%d orders read and acted on on turn 1, want Jamin's 4 at least: %+v", acted, rep.Orders)
	}
}

// TestLivesCD reads CD's activation rolls (examples/cd/cd-01-activation.yaml):
// a natural 2 never moves, so at least one activation fails, and the
// others are acted on the turn they are rolled.
func TestLivesCD(t *testing.T) {
	rep := played(t, "cd", "cd-01-activation.yaml")
	failed, acted := 0, 0
	for _, o := range rep.Orders {
		switch {
		case o.Failed > 0:
			failed++
		case o.Acted == o.Read && o.Acted > 0:
			acted++
		}
	}
	if failed == 0 || acted < 6 {
		t.Errorf("%d activations failed and %d acted on, want some of each: %+v", failed, acted, rep.Orders)
	}
	for _, turn := range rep.Turn {
		for _, r := range turn.Rolls {
			if r.Result == "none" && r.Key != "failed" {
				t.Errorf("turn %d: the roll of no movement is not marked decisive: %+v", turn.Number, r)
			}
		}
	}
}

// TestMaps compares the map at the end of the last turn of each demo,
// played three turns, with its golden file (go test ./report -update
// rewrites them).
func TestMaps(t *testing.T) {
	for _, id := range reporttest.IDs {
		t.Run(id, func(t *testing.T) {
			rep, err := report.Build(reporttest.Demo(t, id, 3), reporttest.Engine(t))
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Turn) == 0 {
				t.Fatal("no turn")
			}
			var last report.Turn
			for _, turn := range rep.Turn {
				if turn.Number == 3 {
					last = turn
				}
			}
			if last.Map == "" {
				t.Fatal("no map of turn 3")
			}
			golden(t, filepath.Join("testdata", id+"-turn3.svg"), last.Map)
			if !strings.HasPrefix(last.Map, "<svg") || strings.Count(last.Map, `class="piece"`) < 4 {
				t.Errorf("the map has %d pieces", strings.Count(last.Map, `class="piece"`))
			}
		})
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./report -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test ./report -update rewrites it)", path)
	}
}

// TestWithdrawn checks that events a taken-back withdraws count for
// nothing: an order written and then taken back is in no life and no
// turn of the report, though the log keeps both.
func TestWithdrawn(t *testing.T) {
	doc := reporttest.Demo(t, "nb", 3)
	eng := reporttest.Engine(t)
	r, err := eng.Rules("nb")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.LoadAny(doc.Scenario.File, []byte(doc.Scenario.Source), func(string) (game.Rules, error) { return r, nil }, script.NoFiles)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.Replay(sc, r, doc.Events)
	if err != nil {
		t.Fatal(err)
	}
	c, err := game.DecodeCommand(r, []byte(`{side: allies, write: {for: A-I, kind: defend}}`), "test")
	if err != nil {
		t.Fatal(err)
	}
	written, err := g.Do(c)
	if err != nil {
		t.Fatal(err)
	}
	doc.Events = g.Log()
	var seqs []int
	for _, e := range written {
		seqs = append(seqs, e.Seq)
	}
	has := func(rep *report.Report) bool {
		for _, o := range rep.Orders {
			if o.For == "A-I" && o.Written == 4 {
				return true
			}
		}
		for _, turn := range rep.Turn {
			for _, st := range turn.Stages {
				if slices.Contains(seqs, st.Seq) {
					return true
				}
			}
		}
		return false
	}
	rep, err := report.Build(doc, eng)
	if err != nil {
		t.Fatal(err)
	}
	if !has(rep) {
		t.Fatal("the order written on turn 4 is not in the report")
	}
	last := written[len(written)-1]
	doc.Events = append(doc.Events, game.Event{Seq: last.Seq + 1, Turn: last.Turn, Phase: last.Phase, Step: last.Step,
		Type: game.TakenBack, Side: "allies", See: last.See, Data: &game.Taken{Of: seqs, Verb: "write"}})
	rep, err = report.Build(doc, eng)
	if err != nil && strings.Contains(err.Error(), game.TakenBack) {
		t.Skipf("the engine does not replay a taken-back yet: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if has(rep) {
		t.Error("the order taken back is still in the report")
	}
}

// TestRender writes a report in every format: the page is self-contained
// (no script, inline SVG and CSS with print styles), the text has every
// turn, and a format not known is refused in one sentence.
func TestRender(t *testing.T) {
	rep, err := report.Build(reporttest.Demo(t, "cd", 2), reporttest.Engine(t))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.Write(&b, rep, "html"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<style>", "@media print", "<svg", "Turn 1", "Turn 2", rep.Summary[:20]} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "src=") {
		t.Error("the page loads or runs something: it must stand alone")
	}
	b.Reset()
	if err := report.Write(&b, rep, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\nTurn 2\n") || strings.Contains(b.String(), "<svg") {
		t.Errorf("text:\n%s", b.String())
	}
	if err := report.Write(&b, rep, "pdf"); err == nil || err.Error() != `format "pdf" is not known; allowed: html, json, text` {
		t.Errorf("pdf: %v", err)
	}
}

// TestPageCSS: the page that shows a report in the browser styles it with
// the very CSS the report's own page holds inline.
func TestPageCSS(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "web", "static", "css", "report.css"))
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != report.CSS {
		t.Error("web/static/css/report.css differs from report.CSS: copy report.CSS into it")
	}
}
