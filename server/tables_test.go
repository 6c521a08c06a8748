package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"orderly/archive"
	"orderly/rules"
	"orderly/server"
)

// readExample reads a file under examples/.
func readExample(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestGameTables: a LOB game is played on tables that come with it. The
// bundled demo comes with the example tables; an uploaded scenario
// without tables is refused with the sentence that names the missing
// tables and how to give them; with the tables file given beside it, the
// game is made, kept with its tables, read back from the store by a new
// server, exported with them and imported from that export. A tables
// file the procedures cannot use is refused with its name and line.
func TestGameTables(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "orderly.db")
	f := openFixture(t, path, 1)
	var lob *server.Info
	if !slices.Contains(f.srv.Bundled(), "lob-demo") {
		t.Fatalf("lob-demo is not bundled: %v", f.srv.Bundled())
	}
	type listed struct {
		ID     string `json:"id"`
		Tables string `json:"tables"`
	}
	var list []listed
	if code, body := f.call("GET", "/api/scenarios", "", nil, &list); code != 200 {
		t.Fatalf("scenarios: %d %s", code, body)
	}
	i := slices.IndexFunc(list, func(s listed) bool { return s.ID == "lob-demo" })
	if i < 0 || list[i].Tables != "lob/example-tables.yaml" {
		t.Fatalf("the list does not say lob-demo comes with its example tables: %+v", list)
	}
	made, err := f.srv.Create(ctx, server.Setup{Scenario: "lob-demo"})
	if err != nil {
		t.Fatalf("the bundled LOB demo: %v", err)
	}
	lob = &made.Game
	if lob.Rules != "lob" {
		t.Fatalf("lob-demo is %s", lob.Rules)
	}

	source := readExample(t, "lob/lob-demo.yaml")
	_, err = f.srv.Create(ctx, server.Setup{Source: source, File: "cedar-run.yaml"})
	if err == nil || !strings.Contains(err.Error(), "lob/command-roll") || !strings.Contains(err.Error(), "on the page") {
		t.Fatalf("a LOB scenario without tables: %v; want the missing tables named and how to give them", err)
	}
	tables := readExample(t, "lob/example-tables.yaml")
	up, err := f.srv.Create(ctx, server.Setup{Source: source, File: "cedar-run.yaml", Tables: tables, TablesFile: "C:\\club\\our-tables.yaml"})
	if err != nil {
		t.Fatalf("a LOB scenario with its tables: %v", err)
	}
	id := up.Game.ID
	tok := map[string]string{}
	for _, s := range up.Seats {
		tok[s.Name] = s.Token
	}
	for n := 0; n < 8; n++ { // through the automatic steps and into play
		if code, body := f.call("POST", "/api/games/"+id+"/commands", tok["umpire"], map[string]any{"end": true}, nil); code != 200 {
			t.Fatalf("end %d: %d %s", n, code, body)
		}
	}
	rec, err := f.db.Game(ctx, id)
	if err != nil || string(rec.Tables) != tables || rec.TablesFile != "our-tables.yaml" {
		t.Fatalf("the stored game keeps tables %q (%d bytes), %v; want the upload as our-tables.yaml", rec.TablesFile, len(rec.Tables), err)
	}

	// A second server on the same file reads the game back with them.
	g := openFixture(t, path, 2)
	var info server.Info
	if code, body := g.call("GET", "/api/games/"+id, tok["union"], nil, &info); code != 200 || info.Rules != "lob" {
		t.Fatalf("the game read back: %d %s", code, body)
	}
	doc, err := g.srv.Export(ctx, id, true)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Tables == nil || doc.Tables.File != "our-tables.yaml" || doc.Tables.Source != tables {
		t.Fatalf("the export holds tables %+v", doc.Tables)
	}
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(doc); err != nil {
		t.Fatal(err)
	}
	back, err := archive.Read(&buf, "the export")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.srv.Import(ctx, back, false); err != nil {
		t.Fatalf("importing the export: %v", err)
	}
	back.Tables = nil
	if _, err := g.srv.Import(ctx, back, false); err == nil {
		t.Error("an export of a LOB game stripped of its tables was imported")
	}

	// An import's tables file name is cleaned as an upload's; an empty one
	// is refused by name.
	back.Tables = &archive.Scenario{File: "../../etc/x\nevil.yaml", Source: tables}
	imp, err := g.srv.Import(ctx, back, false)
	if err != nil {
		t.Fatal(err)
	}
	if rec, err := g.db.Game(ctx, imp.Game.ID); err != nil || rec.TablesFile != "x evil.yaml" {
		t.Errorf("an imported tables file is kept as %q, %v; want its cleaned base name", rec.TablesFile, err)
	}
	back.Tables = &archive.Scenario{File: "t.yaml"}
	if _, err := g.srv.Import(ctx, back, false); err == nil || !strings.Contains(err.Error(), "tables.source is empty") {
		t.Errorf("an import with empty tables: %v", err)
	}
	before, _ := f.srv.Stored(ctx)

	// What a tables file may cost is bounded before it is read.
	var many strings.Builder
	many.WriteString("tables:\n")
	for i := 0; i <= rules.MaxOwnTables; i++ {
		fmt.Fprintf(&many, "  - {id: x/t%d, title: t, dice: 6d1000, results: [{key: a}, {key: b}], bands: {'<=9': a, '>=10': b}}\n", i)
	}
	for name, src := range map[string]string{"many.yaml": many.String(), "big.yaml": "# " + strings.Repeat("x", rules.MaxOwnBytes) + "\n"} {
		_, err := f.srv.Create(ctx, server.Setup{Scenario: "lob-demo", Tables: src, TablesFile: name})
		if err == nil || !strings.Contains(err.Error(), name+": the tables file") || !strings.Contains(err.Error(), "at most") {
			t.Errorf("tables file %s: %v; want it refused by its bounds", name, err)
		}
	}
	if _, err := f.srv.Create(ctx, server.Setup{Scenario: "lob-demo", TablesFile: "mine.yaml"}); err == nil || !strings.Contains(err.Error(), "tables is empty") {
		t.Errorf("a tables file name without its text: %v", err)
	}

	bad := strings.Replace(tables, "issued", "passed", 1)
	_, err = f.srv.Create(ctx, server.Setup{Source: source, File: "cedar-run.yaml", Tables: bad, TablesFile: "bad.yaml"})
	if err == nil || !strings.Contains(err.Error(), "bad.yaml:") {
		t.Fatalf("tables with a result the procedures do not know: %v; want it refused naming bad.yaml and its line", err)
	}
	if n, _ := f.srv.Stored(ctx); n != before {
		t.Errorf("%d games stored, %d before; a refused game must store nothing", n, before)
	}
}
