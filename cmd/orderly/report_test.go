package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orderly/archive/archivetest"
	"orderly/report/reporttest"
)

// TestReport writes the after-action report of the NB demo, played three
// turns, from its export: the text is golden; the page stands alone; a
// bad export and an unknown format get one sentence each, exit status 2.
func TestReport(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.json")
	if err := os.WriteFile(path, archivetest.JSON(t, reporttest.Demo(t, "nb", 3)), 0o600); err != nil {
		t.Fatal(err)
	}
	o, e, st := cli(t, "report", path)
	if st != 0 {
		t.Fatalf("status %d: %s", st, e)
	}
	golden(t, "out/report-nb", o)

	page := filepath.Join(dir, "report.html")
	if _, e, st := cli(t, "report", path, "-o", page); st != 0 {
		t.Fatalf("-o report.html: status %d: %s", st, e)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(html), "<!doctype html>") || !strings.Contains(string(html), "<svg") || strings.Contains(string(html), "<script") {
		t.Errorf("-o report.html is not a page standing alone: %.200s", html)
	}

	if _, e, st := cli(t, "report", path, "--format", "pdf"); st != 2 || e != "orderly: --format pdf is not known; allowed: html, json, text\n" {
		t.Errorf("--format pdf: %d %q", st, e)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"format": "orderly-game/4", "rules": "nb"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, e, st := cli(t, "report", bad); st != 2 || strings.Count(e, "\n") != 1 || !strings.Contains(e, "bad.json") {
		t.Errorf("a bad export: %d %q", st, e)
	}
}

// TestReportFixture keeps the export docs/report.md reports on
// (testdata/docs/bp-game.json: BP's demo played two turns, with the
// dice reporttest fixes) the game reporttest plays; -update writes it
// anew.
func TestReportFixture(t *testing.T) {
	got := archivetest.JSON(t, reporttest.Demo(t, "bp", 2))
	path := filepath.Join(docFixtures, "bp-game.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s is not the game reporttest plays (go test ./cmd/orderly -run TestReportFixture -update)", path)
	}
}
