package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"net/http"
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

// makeGame makes a game of a scenario's text and returns its id and its
// umpire's token.
func makeGame(t *testing.T, w *twin, host, src string) (string, string, answer) {
	t.Helper()
	body, _ := json.Marshal(Setup{Source: src, File: "battle.yaml"})
	a := w.call(t, "POST", "/api/games", host, body)
	if a.status != 201 {
		return "", "", a
	}
	var c Created
	if err := json.Unmarshal([]byte(a.body), &c); err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Seats {
		if s.Role == "umpire" {
			return c.Game.ID, s.Token, a
		}
	}
	t.Fatalf("no umpire's seat: %s", a.body)
	return "", "", a
}

// TestBackdrop: the board of a game whose scenario has a backdrop image
// names it in its space, and the image's route serves its bytes to a seat
// of the game (with an ETag), not to a seat of another game; an image
// over the bounds is refused in one sentence naming the key and the
// bound.
func TestBackdrop(t *testing.T) {
	w, host := editorServer(t)
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 96, 48))); err != nil {
		t.Fatal(err)
	}
	url := "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
	src, err := os.ReadFile("../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	withImage := strings.Replace(string(src), "grid: {columns: 8, rows: 4}}", "grid: {columns: 8, rows: 4}, image: {data: \""+url+"\", scale: 1, at: [0, 0]}}", 1)
	id, umpire, a := makeGame(t, w, host, withImage)
	if id == "" {
		t.Fatalf("the game was not made: %d %s", a.status, a.body)
	}
	other, otherUmpire, _ := makeGame(t, w, host, string(src))

	a = w.call(t, "GET", "/api/games/"+id+"/board", umpire, nil)
	var board struct{ Space Space }
	if err := json.Unmarshal([]byte(a.body), &board); err != nil {
		t.Fatal(err)
	}
	im := board.Space.Image
	if im == nil || im.URL != "/api/games/"+id+"/image" || im.Type != "image/png" || im.Width != 96 || im.Height != 48 || im.Scale == nil || *im.Scale != 1 || im.At == nil || im.X0 != nil {
		t.Fatalf("the board's space: %+v", board.Space.Image)
	}
	a = w.call(t, "GET", "/api/games/"+other+"/board", otherUmpire, nil)
	if strings.Contains(a.body, `"image"`) {
		t.Errorf("a game without an image has one on its board")
	}

	req, _ := http.NewRequest("GET", w.ts.URL+im.URL, nil)
	req.Header.Set("Authorization", "Bearer "+umpire)
	resp, err := w.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || !bytes.Equal(got, buf.Bytes()) || resp.Header.Get("Content-Type") != "image/png" || etag == "" || !strings.HasPrefix(resp.Header.Get("Cache-Control"), "private") {
		t.Errorf("the image: %d, %d bytes, %v", resp.StatusCode, len(got), resp.Header)
	}
	req.Header.Set("If-None-Match", etag)
	if resp, err := w.ts.Client().Do(req); err != nil || resp.StatusCode != 304 {
		t.Errorf("the image again with its ETag: %v %v", resp.StatusCode, err)
	} else {
		resp.Body.Close()
	}

	if a := w.call(t, "GET", im.URL, otherUmpire, nil); a.status != 403 {
		t.Errorf("a seat of another game: %d %s", a.status, a.body)
	}
	if a := w.call(t, "GET", "/api/games/"+other+"/image", otherUmpire, nil); a.status != 404 || !strings.Contains(a.body, "no backdrop image") {
		t.Errorf("a game without an image: %d %s", a.status, a.body)
	}

	big := base64.StdEncoding.EncodeToString(make([]byte, 5<<20))
	tooBig := strings.Replace(withImage, url, "data:image/png;base64,"+big, 1)
	_, _, a = makeGame(t, w, host, tooBig)
	if a.status != 400 || !strings.Contains(a.body, "field.image.data: the image is over 4 MiB; at most 4 MiB (4194304 bytes) are allowed") {
		t.Errorf("an image over the bounds: %d %.300s", a.status, a.body)
	}
}

// TestExampleTables: a LOB scenario made in the editor (sent as a
// source, with no tables file) is refused as before unless the game asks
// for the example tables its demo comes with; the editor says which rule
// sets have them; a rule set with tables of its own plays on those
// (example-tables asks nothing of it); tables given too are refused in
// one sentence.
func TestExampleTables(t *testing.T) {
	w, host := editorServer(t)
	lob, err := os.ReadFile("../examples/lob/lob-demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	nb, err := os.ReadFile("../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	setup := func(src []byte, extra map[string]any) []byte {
		m := map[string]any{"source": string(src), "file": "mine.yaml"}
		for k, v := range extra {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return b
	}
	if a := w.call(t, "POST", "/api/games", host, setup(lob, nil)); a.status != 400 {
		t.Errorf("a LOB source without tables: %d %s, want it refused", a.status, a.body)
	}
	a := w.call(t, "POST", "/api/games", host, setup(lob, map[string]any{"example-tables": true}))
	if a.status != 201 {
		t.Fatalf("a LOB source on the example tables: %d %s", a.status, a.body)
	}
	if a := w.call(t, "POST", "/api/games", host, setup(nb, map[string]any{"example-tables": true})); a.status != 201 {
		t.Errorf("an NB source with example-tables: %d %s, want it made on NB's own tables", a.status, a.body)
	}
	want := "give tables (a tables file) or example-tables, not both"
	if a := w.call(t, "POST", "/api/games", host, setup(lob, map[string]any{"example-tables": true, "tables": "tables: []"})); a.status != 400 || !strings.Contains(a.body, want) {
		t.Errorf("tables and example-tables: %d %s, want 400 saying %q", a.status, a.body, want)
	}
	for id, want := range map[string]bool{"lob": true, "nb": false, "nes": false} {
		var info EditorInfo
		a := w.call(t, "GET", "/api/editor/"+id, host, nil)
		if err := json.Unmarshal([]byte(a.body), &info); err != nil {
			t.Fatal(err)
		}
		if info.ExampleTables != want || info.Title == "" || info.Title == id {
			t.Errorf("editor %s: example-tables %v (want %v), title %q", id, info.ExampleTables, want, info.Title)
		}
	}
}
