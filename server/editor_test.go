package server

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// editorServer is a server over a fresh database with a host token.
func editorServer(t *testing.T) (*twin, string) {
	t.Helper()
	w := schemaServer(t)
	host, err := w.srv.NewHostToken()
	if err != nil {
		t.Fatal(err)
	}
	return w, host
}

// checkSource posts a scenario's text to the editor's check.
func checkSource(t *testing.T, w *twin, host, file, src string) Checked {
	t.Helper()
	body, _ := json.Marshal(CheckRequest{Source: src, File: file})
	a := w.call(t, "POST", "/api/editor/check", host, body)
	if a.status != 200 {
		t.Fatalf("check %s: %d %s", file, a.status, a.body)
	}
	var out Checked
	if err := json.Unmarshal([]byte(a.body), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEditorCheck: a bundled scenario checks ok, and its canonical YAML
// and its document (as JSON text) check ok too; a wrong quality is one
// problem at its path and line, in the loader's words; the routes need
// the host token.
func TestEditorCheck(t *testing.T) {
	w, host := editorServer(t)
	src, err := os.ReadFile("../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := checkSource(t, w, host, "demo.yaml", string(src))
	if !c.OK || c.Rules != "nb" || len(c.Problems) != 0 || c.YAML == "" || string(c.Doc) == "null" {
		t.Fatalf("demo: ok %v rules %q problems %v yaml %d bytes", c.OK, c.Rules, c.Problems, len(c.YAML))
	}
	again := checkSource(t, w, host, "demo.yaml", c.YAML)
	if !again.OK || again.YAML != c.YAML {
		t.Errorf("the canonical YAML does not check the same: ok %v, problems %v, same %v", again.OK, again.Problems, again.YAML == c.YAML)
	}
	fromDoc := checkSource(t, w, host, "demo.json", string(c.Doc))
	if !fromDoc.OK || fromDoc.YAML != c.YAML {
		t.Errorf("the document does not check as the scenario: ok %v, problems %v", fromDoc.OK, fromDoc.Problems)
	}

	bad := strings.Replace(string(src), "name: Ney, quality: average", "name: Ney, quality: avrage", 1)
	c = checkSource(t, w, host, "demo.yaml", bad)
	want := Problem{Path: "sides[0].wings[0].general.quality", Line: 23,
		Message: `sides[0].wings[0].general.quality: "avrage" is not one of excellent, good, average, poor (did you mean average?)`}
	if c.OK || len(c.Problems) != 1 || c.Problems[0] != want {
		t.Errorf("a wrong quality: ok %v, problems %+v; want %+v", c.OK, c.Problems, want)
	}
	if string(c.Doc) == "null" || c.YAML == "" {
		t.Errorf("a scenario with a problem has no document or YAML")
	}

	bad = strings.Replace(bad, "name: d'Erlon, quality: average, range: 8", "name: d'Erlon, quality: average, range: -8", 1)
	c = checkSource(t, w, host, "demo.yaml", bad)
	if len(c.Problems) != 2 || c.Problems[0] != want || c.Problems[1].Path != "sides[0].wings[0].corps[0].general.range" || c.Problems[1].Line != 27 {
		t.Errorf("two problems: %+v", c.Problems)
	}

	c = checkSource(t, w, host, "x.yaml", "name: [")
	if c.OK || len(c.Problems) != 1 || c.Problems[0].Line != 1 || string(c.Doc) != "null" || c.YAML != "" {
		t.Errorf("text that is not YAML: %+v", c)
	}

	for _, path := range []string{"/api/editor/nb", "/api/schema/scenario/nb", "/api/scenarios/demo/source"} {
		if a := w.call(t, "GET", path, "", nil); a.status != 401 {
			t.Errorf("GET %s without the host token: %d %s", path, a.status, a.body)
		}
	}
	if a := w.call(t, "POST", "/api/editor/check", "", []byte(`{"source": ""}`)); a.status != 401 {
		t.Errorf("POST /api/editor/check without the host token: %d %s", a.status, a.body)
	}
}

// TestEditorInfo: each rule set's information names its spaces, its
// terrain key on hex maps and features on tables, and a blank scenario
// that reads as YAML of the rule set (it need not load: no troops yet).
func TestEditorInfo(t *testing.T) {
	w, host := editorServer(t)
	for _, id := range []string{"nb", "nes", "lob", "bp", "cd"} {
		a := w.call(t, "GET", "/api/editor/"+id, host, nil)
		if a.status != 200 {
			t.Fatalf("GET /api/editor/%s: %d %s", id, a.status, a.body)
		}
		var info EditorInfo
		if err := json.Unmarshal([]byte(a.body), &info); err != nil {
			t.Fatal(err)
		}
		hex := id == "nes" || id == "lob"
		if info.Rules != id || (info.Terrain != nil) != hex || (len(info.Features) > 0) == hex || (info.Spaces[0] == "hex") != hex {
			t.Errorf("%s: %+v", id, info)
		}
		if hex && (len(info.Terrain.Hexes) < 2 || info.Terrain.Hexes[0].Letter == "" || info.Terrain.Hexes[0].Name == "") {
			t.Errorf("%s: terrain key %+v", id, info.Terrain)
		}
		c := checkSource(t, w, host, "new.json", string(info.Blank))
		if c.Rules != id || string(c.Doc) == "null" {
			t.Errorf("%s: the blank scenario does not read: %+v", id, c)
		}
		for _, p := range c.Problems {
			if !strings.HasPrefix(p.Path, "sides[") {
				t.Errorf("%s: the blank scenario has a problem outside its sides' troops: %+v", id, p)
			}
		}
	}
	if a := w.call(t, "GET", "/api/editor/xx", host, nil); a.status != 404 || !strings.Contains(a.body, "no rule set") {
		t.Errorf("an unknown rule set: %d %s", a.status, a.body)
	}
	a := w.call(t, "GET", "/api/schema/scenario/nes", host, nil)
	if a.status != 200 || !strings.Contains(a.body, `"image"`) || !strings.Contains(a.body, "for the rule set nes") {
		t.Errorf("the scenario schema of nes: %d %.200s", a.status, a.body)
	}
}

// TestScenarioSource: a bundled scenario's text is its file's.
func TestScenarioSource(t *testing.T) {
	w, host := editorServer(t)
	a := w.call(t, "GET", "/api/scenarios/demo/source", host, nil)
	var out struct{ File, Source string }
	if err := json.Unmarshal([]byte(a.body), &out); a.status != 200 || err != nil {
		t.Fatalf("%d %s", a.status, a.body)
	}
	src, _ := os.ReadFile("../examples/nb/demo.yaml")
	if out.File != "demo.yaml" || out.Source != string(src) {
		t.Errorf("got file %q and %d bytes of source, want demo.yaml and its %d bytes", out.File, len(out.Source), len(src))
	}
	if a := w.call(t, "GET", "/api/scenarios/nope/source", host, nil); a.status != 404 {
		t.Errorf("an unknown scenario: %d %s", a.status, a.body)
	}
}
