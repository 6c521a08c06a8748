package web_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// updateDocs saves the editor's screenshot for the docs (docs/editor.png,
// by TestAcceptance).
var updateDocs = flag.Bool("update", false, "save the editor's screenshot to docs/editor.png")

// editorCase is what a test types into the forms of one rule set's
// battle: the attributes its generals and units need beyond what a new
// one gets (its required words and defaults), and the list of a side that
// holds its formations.
type editorCase struct {
	rules     string
	hex       bool
	formation string // the side's list the test adds formations to
	examples  bool   // the game is played on the rule set's example tables (no tables file)
	sides     [2]map[string]string
	group     map[string]string // the formations'
	army      map[string]string // the army commanders', besides general's
	general   map[string]string
	unit      map[string]string
}

var editorCases = []editorCase{
	{rules: "nb", formation: "divisions", group: map[string]string{"order.kind": "attack"}, general: map[string]string{"range": "12"}, unit: map[string]string{"speed": "6"}},
	{rules: "lob", hex: true, examples: true, formation: "divisions", sides: nations("union", "confederate"), general: map[string]string{"range": "4", "value": "2"}, unit: map[string]string{"strength": "4"}},
	{rules: "bp", formation: "brigades", sides: nations("french", "british"), unit: map[string]string{"combat": "5", "morale": "4", "stamina": "3"}},
	{rules: "cd", formation: "divisions", sides: nations("french", "austrian"), army: map[string]string{"style": "established"}},
}

// nesCase is NES's battle, built from an empty editor over a scanned map
// and played from its pages by TestAcceptance (so not in editorCases).
var nesCase = editorCase{rules: "nes", hex: true, formation: "divisions", sides: nations("french", "austrian", "command-points", "3"), general: map[string]string{"range": "4", "rating": "3"}, unit: map[string]string{"strength": "6"}}

// nations is what the test types into the two sides' forms: a nation each,
// and then pairs of keys and values that both take.
func nations(a, b string, more ...string) [2]map[string]string {
	out := [2]map[string]string{{"nation": a}, {"nation": b}}
	for i := 0; i+1 < len(more); i += 2 {
		out[0][more[i]], out[1][more[i]] = more[i+1], more[i+1]
	}
	return out
}

// TestEditorBattles builds, for each rule set (NES: TestAcceptance), a small battle from an
// empty editor (New scenario on the front page): two formations a side
// added in the tree, their units by the bulk add, every general's and
// unit's attributes and position typed in the forms (one unit dropped on
// a table), "Start a game" disabled until the server's check says the
// scenario loads; then it starts the game, whose join links the page
// shows, and plays its first turn through the API with the umpire's link.
// On NB, a problem's link selects the node it concerns.
func TestEditorBattles(t *testing.T) {
	t.Parallel()
	for _, c := range editorCases {
		t.Run(c.rules, func(t *testing.T) {
			t.Parallel()
			ctx, s, dir := session(t)
			p := newPage(t, browser(t, ctx, 1400, 900), "editor-"+c.rules, dir)
			p.openEditor(s, "")
			p.until("the rule sets", `document.querySelector('#new-rules option[value="`+c.rules+`"]')`)
			p.do("New scenario", chromedp.SetValue(chromedp.ID("new-rules"), c.rules), chromedp.Click(chromedp.ID("new-scenario-btn")))
			p.landed("/edit")
			p.until("the editor with a blank scenario", `location.pathname === '/edit' && !document.querySelector('#editor').hidden && document.querySelector('#tree li[data-path="sides[1].army"]')`)
			p.until("the first check", `document.querySelector('#check-status').textContent !== 'not checked' && document.querySelector('#check-status').textContent !== 'checking…'`)

			p.buildSides(c)
			if c.rules == "nb" {
				// A division copied from one side and pasted on the other
				// gets ids of its own, and moves up its list.
				p.selectNode("sides[0].divisions[0]")
				p.do("copy it", chromedp.Click(chromedp.CSS(`#node-actions [data-act="copy"]`)))
				p.selectNode("sides[1]")
				p.do("paste it", chromedp.Click(chromedp.CSS(`#node-actions [data-act="paste"]`)))
				p.until("the pasted division", `document.querySelector('#tree li[data-path="sides[1].divisions[2]"] > .ed-node.selected')`)
				ids := eval[[]string](p, `(() => { const out = []; const walk = (v) => { if (Array.isArray(v)) v.forEach(walk); else if (v && typeof v === 'object') { if (typeof v.id === 'string') out.push(v.id); Object.values(v).forEach(walk); } };
					walk(JSON.parse(sessionStorage.getItem('orderly.editor')).doc); return out; })()`)
				seen := map[string]bool{}
				for _, id := range ids {
					if seen[id] {
						p.fail("the id %s is used twice after the paste: %v", id, ids)
					}
					seen[id] = true
				}
				pasted := p.docAt("sides[1].divisions[2].id")
				p.do("move it up", chromedp.Click(chromedp.CSS(`#node-actions [data-act="up"]`)))
				p.until("it to be second", `document.querySelector('#tree li[data-path="sides[1].divisions[1]"] > .ed-node.selected')`)
				if got := p.docAt("sides[1].divisions[1].id"); got != pasted {
					p.fail("after moving up, the second division is %s, want the pasted %s", got, pasted)
				}
				// A new division's general has no command range yet: the
				// problem's link selects him and focuses the field.
				p.until("a problem with a link", `[...document.querySelectorAll('#problems a[data-node]')].some((a) => a.dataset.node.endsWith('.general'))`)
				if !eval[bool](p, `document.querySelector('#start-open').disabled`) {
					p.fail("Start a game is enabled while the scenario has problems")
				}
				link := eval[[2]string](p, `(() => { const a = [...document.querySelectorAll('#problems a[data-node]')].find((a) => a.dataset.node.endsWith('.general')); a.click(); return [a.dataset.node, a.dataset.path]; })()`)
				node, path := link[0], link[1]
				p.until("the problem's node selected and a field of its form focused", fmt.Sprintf(`document.querySelector('#tree .ed-node.selected') && document.querySelector('#tree .ed-node.selected').dataset.path === %q && document.querySelector('#form').contains(document.activeElement)`, node))
				// A problem of one of the general's fields focuses that field.
				if rest := strings.TrimPrefix(path, node+"."); rest != path {
					if got := eval[string](p, `document.activeElement.dataset.key || ''`); got != rest {
						p.fail("the problem at %s focused the field %q, want %q", path, got, rest)
					}
				}
			}

			// Every general and unit: attributes and a position.
			pieces := eval[[][2]string](p, `[...document.querySelectorAll('#tree .ed-node.piece')].map((b) => [b.dataset.path, b.dataset.def])`)
			if len(pieces) < 2+2*2*(1+2) {
				p.fail("the tree has %d pieces after the adds: %v", len(pieces), pieces)
			}
			for i, pc := range pieces {
				path, def := pc[0], pc[1]
				p.selectNode(path)
				vals := []map[string]string{c.unit}
				if def == "general" {
					vals = []map[string]string{c.general}
					if strings.HasSuffix(path, ".army") {
						vals = append(vals, c.army)
					}
				}
				for _, m := range vals {
					for k, v := range m {
						p.setField(`#form [data-key="`+k+`"]`, v)
					}
				}
				side := 0
				if strings.HasPrefix(path, "sides[1]") {
					side = 1
				}
				last := i == len(pieces)-1 // dropped on the field from the tree
				if c.hex {
					label := p.hexLabel(i, side)
					if !last {
						p.setField(`#form [data-key="at"]`, label)
						continue
					}
					p.dropOnField(path, p.hexScreen(label))
					p.until("the form to show the hex it was dropped on", fmt.Sprintf(`document.querySelector('#form [data-key="at"]').value === %q`, label))
					if got := p.docAt(path + ".at"); got != `"`+label+`"` {
						p.fail("%s dropped on %s is at %s", path, label, got)
					}
					continue
				}
				x, y := p.tablePoint(i, side)
				if last {
					p.dropOnField(path, p.fieldScreen(x, y))
					p.until("the form to show where it was dropped", fmt.Sprintf(`document.querySelector('#form [data-key="at.0"]').value === '%g' && document.querySelector('#form [data-key="at.1"]').value === '%g'`, x, y))
					continue
				}
				p.setField(`#form [data-key="at.0"]`, fmt.Sprint(x))
				p.setField(`#form [data-key="at.1"]`, fmt.Sprint(y))
			}
			if c.hex {
				// Some terrain: a stroke of the rule set's second terrain
				// along the middle row, where no piece stands.
				tool := eval[string](p, `document.querySelectorAll('[data-tool^="terrain:"]')[1].dataset.tool`)
				p.do("choose the brush "+tool, chromedp.Click(chromedp.CSS(`[data-tool="`+tool+`"]`)))
				row := eval[[2]string](p, `(() => { const m = JSON.parse(sessionStorage.getItem('orderly.editor')).doc.map;
					const digits = m.digits ?? 2, first = m.first ?? 1, pad = (n) => String(n).padStart(digits, '0'), r = pad(first + Math.floor(Number(m.rows) / 2));
					return [pad(first + 1) + r, pad(first + 7) + r]; })()`)
				a, b := p.hexScreen(row[0]), p.hexScreen(row[1])
				p.do("paint "+row[0]+" to "+row[1], chromedp.DragAndDropXY(a[0], a[1], b[0], b[1], 12))
				letter := strings.TrimPrefix(tool, "terrain:")
				p.until("the terrain painted", fmt.Sprintf(`(JSON.parse(sessionStorage.getItem('orderly.editor')).doc.map.terrain || '').split(%q).length > 4`, letter))
				p.do("back to selecting", chromedp.Click(chromedp.CSS(`[data-tool="select"]`)))
			}
			p.untilLoads()

			p.do("open Start a game", chromedp.Click(chromedp.ID("start-open")))
			p.do("title it", chromedp.SetValue(chromedp.ID("title"), "Editor "+c.rules))
			// A rule set whose tables are the user's offers its example
			// tables, ticked, and the game starts on them; the others do
			// not offer them.
			if shown := eval[bool](p, `!document.getElementById('example-tables-row').hidden && document.getElementById('example-tables').checked`); shown != c.examples {
				t.Errorf("example tables offered: %v, want %v", shown, c.examples)
			}
			p.do("start", chromedp.Click(chromedp.ID("start-game")))
			p.until("the join links", `document.querySelectorAll('#links a.join').length >= 3 && !document.querySelector('#created').hidden`)
			id := p.text("#created .created-id")
			umpire := eval[string](p, `document.querySelector('#links a.join[data-role="umpire"]').href.split('#')[1]`)
			playTurn(t, s, id, umpire)
			p.checkConsole()
			conformEditorMade(t, s, id, umpire)
		})
	}
}

// playTurn ends the umpire's steps until the game is in its second turn.
func playTurn(t *testing.T, s *site, id, umpire string) {
	t.Helper()
	for range 30 {
		code, body := s.call(t, "GET", "/api/games/"+id, umpire, "")
		if code != http.StatusOK {
			t.Fatalf("game %s: %d %s", id, code, body)
		}
		var info struct {
			Turn int `json:"turn"`
		}
		if err := json.Unmarshal([]byte(body), &info); err != nil {
			t.Fatal(err)
		}
		if info.Turn >= 2 {
			return
		}
		if code, body := s.call(t, "POST", "/api/games/"+id+"/commands", umpire, `{"end":true}`); code != http.StatusOK {
			t.Fatalf("end the step: %d %s", code, body)
		}
	}
	t.Fatalf("game %s is not in its second turn after 30 steps", id)
}

// TestEditorRoundTrip opens a bundled scenario in the editor (Edit on the
// front page), saves it, and the file saved is the server's canonical
// YAML of the scenario, byte for byte.
func TestEditorRoundTrip(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	p := newPage(t, browser(t, ctx, 1280, 900), "editor-roundtrip", dir)
	p.openEditor(s, "")
	p.until("the Edit links", `document.querySelector('#scenarios a[data-edit="demo"]')`)
	p.do("Edit the demo", chromedp.Click(chromedp.CSS(`#scenarios a[data-edit="demo"]`)))
	p.landed("/edit")
	p.until("the demo in the editor", `!document.querySelector('#editor').hidden && document.querySelector('#tree li[data-path="sides[0].army"]') && !document.querySelector('#save').disabled`)
	downloads := t.TempDir()
	if _, err := chromedp.CallBrowser(p.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, BrowserContextID: chromedp.FromContext(p.ctx).BrowserContextID, DownloadPath: downloads,
	}); err != nil {
		t.Fatal(err)
	}
	p.shot("editor-demo")
	// The format holds two sides: the scenario's form offers no third.
	if eval[bool](p, `!!document.querySelector('#form [data-add="sides"]')`) {
		p.fail("the scenario's form offers to add a third side")
	}
	name := eval[string](p, `JSON.parse(sessionStorage.getItem('orderly.editor')).doc.name + '.yaml'`)
	p.do("save", chromedp.Click(chromedp.ID("save")))
	var saved []byte
	for deadline := time.Now().Add(wait); ; time.Sleep(50 * time.Millisecond) {
		data, err := os.ReadFile(filepath.Join(downloads, name))
		if err == nil && len(data) > 0 {
			saved = data
			break
		}
		if time.Now().After(deadline) {
			p.fail("the saved file %s did not come: %v", name, err)
		}
	}
	code, body := s.call(t, "GET", "/api/scenarios/demo/source", s.host, "")
	if code != http.StatusOK {
		t.Fatalf("the demo's source: %d %s", code, body)
	}
	var src struct{ File, Source string }
	if err := json.Unmarshal([]byte(body), &src); err != nil {
		t.Fatal(err)
	}
	req, _ := json.Marshal(map[string]string{"source": src.Source, "file": src.File})
	code, body = s.call(t, "POST", "/api/editor/check", s.host, string(req))
	if code != http.StatusOK {
		t.Fatalf("check the demo: %d %s", code, body)
	}
	var chk struct {
		OK   bool   `json:"ok"`
		YAML string `json:"yaml"`
	}
	if err := json.Unmarshal([]byte(body), &chk); err != nil {
		t.Fatal(err)
	}
	if !chk.OK || chk.YAML == "" {
		t.Fatalf("the demo does not check: %s", body)
	}
	if string(saved) != chk.YAML {
		p.fail("the saved demo differs from the server's canonical YAML:\n--- saved\n%s\n--- canonical\n%s", saved, chk.YAML)
	}
	// A reload keeps the document.
	p.do("reload", chromedp.Reload())
	p.landed("/edit")
	p.until("the demo after the reload", `!document.querySelector('#editor').hidden && document.querySelector('#tree li[data-path="sides[0].army"]') && !document.querySelector('#save').disabled`)

	// A file opened with a problem: Napoleon's quality is no word of the
	// rule set's. The editor opens it all the same and marks him.
	broken := strings.Replace(chk.YAML, "quality: excellent", "quality: splendid", 1)
	if broken == chk.YAML {
		t.Fatalf("the demo's canonical YAML has no quality: excellent:\n%s", chk.YAML)
	}
	file := filepath.Join(t.TempDir(), "broken.yaml")
	if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	p.do("open the file", chromedp.SetUploadFiles(chromedp.ID("open-file"), []string{file}))
	p.until("Napoleon marked with the problem", `document.querySelector('#tree li[data-path="sides[0].army"] > .ed-node.has-problem') &&
		[...document.querySelectorAll('#problems a')].some((a) => a.textContent.includes('splendid')) && document.querySelector('#start-open').disabled`)
	p.do("follow the problem", chromedp.Click(chromedp.CSS(`#problems a`)))
	p.until("Napoleon's quality focused", `document.activeElement && document.activeElement.dataset.key === 'quality' && document.querySelector('#tree .ed-node.selected').dataset.path === 'sides[0].army'`)
	p.setField(`#form [data-key="quality"]`, "excellent")
	p.untilLoads()

	// A backdrop under the table: spread across its width until the field
	// calibrates it, its corner a position in the field's form.
	pic := filepath.Join(t.TempDir(), "table.png")
	if err := os.WriteFile(pic, pngOf(t, 480, 240), 0o644); err != nil {
		t.Fatal(err)
	}
	p.do("open the imports", chromedp.Click(chromedp.CSS(`#imports > summary`)))
	p.do("choose a backdrop", chromedp.SetUploadFiles(chromedp.ID("image-file"), []string{pic}))
	p.until("the backdrop in the field's form", `document.querySelector('#tree .ed-node.selected').dataset.path === 'field' &&
		document.querySelector('#form [data-key="image.at.0"]') && document.querySelector('#form [data-key="image.at.0"]').value === '0' && document.querySelector('#form [data-key="image.data"] img')`)
	if got, want := p.docAt("field.image.scale"), eval[string](p, `String(480 / JSON.parse(sessionStorage.getItem('orderly.editor')).doc.field.width)`); got != want {
		p.fail("the backdrop's scale is %s, want %s pixels an inch (its width across the table's)", got, want)
	}
	p.untilLoads()
	p.checkConsole()
}

// openEditor keeps the host token in the page's tab, as the host link
// does, and opens the editor at the fragment (none: the choice of rule
// sets or the document kept).
func (p *page) openEditor(s *site, frag string) {
	p.t.Helper()
	p.do("open the host link", chromedp.Navigate(s.ts.URL+"/#host="+s.host))
	p.until("the host's front page", `document.querySelector('#scenarios button[data-scenario]') && !document.querySelector('#new-scenario').hidden`)
	if frag != "" {
		p.do("open the editor", chromedp.Navigate(s.ts.URL+"/edit#"+frag))
		p.until("the editor", `!document.querySelector('#editor').hidden`)
	}
}

// untilLoads waits until the server's check says the scenario loads, and
// Start a game is enabled; else it fails with the problems listed.
func (p *page) untilLoads() {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait+time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('#check-status').classList.contains('ok') && !document.querySelector('#start-open').disabled`,
		chromedp.WithPollingTimeout(wait), chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		p.fail("the scenario does not load: %q", eval[[]string](p, `[...document.querySelectorAll('#problems li')].map((li) => li.textContent)`))
	}
}

// landed waits until a navigation the page made has brought it to path,
// loaded: while it goes, the old page's context is gone and a poll of it
// fails.
func (p *page) landed(path string) {
	p.t.Helper()
	for deadline := time.Now().Add(wait); ; time.Sleep(50 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(p.ctx, time.Second)
		at, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + ' ' + document.readyState`))
		cancel()
		if err == nil && at == path+" complete" {
			return
		}
		if time.Now().After(deadline) {
			p.fail("the page is not at %s: %q %v", path, at, err)
		}
	}
}

// selectNode selects the tree's node at path.
func (p *page) selectNode(path string) {
	p.t.Helper()
	sel := fmt.Sprintf(`#tree li[data-path=%q] > .ed-node`, path)
	p.until("the node "+path, `document.querySelector('`+sel+`')`)
	p.do("select "+path, chromedp.Click(chromedp.CSS(sel)))
	p.until(path+" selected", `document.querySelector('`+sel+`.selected') && document.querySelector('#form-title').textContent !== ''`)
}

// setField types a value into a control of the page, as a person would:
// an input event for a text or a number, a change for a select.
func (p *page) setField(sel, value string) {
	p.t.Helper()
	ok := eval[bool](p, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) return false;
		el.focus(); el.value = %q; el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', {bubbles: true})); return el.value === %q; })()`, sel, value, value))
	if !ok {
		p.fail("could not set %s to %q", sel, value)
	}
}

// tablePoint is where the test puts the i-th piece of a side on the table:
// side 0 across the north half, side 1 across the south.
func (p *page) tablePoint(i, side int) (float64, float64) {
	p.t.Helper()
	wd := eval[[2]float64](p, `(() => { const d = JSON.parse(sessionStorage.getItem('orderly.editor')).doc; return [Number(d.field.width), Number(d.field.depth)]; })()`)
	x := float64(4 + (i*3)%int(wd[0]-8))
	y := math.Round(wd[1] * 0.3)
	if side == 1 {
		y = math.Round(wd[1] * 0.7)
	}
	return x, y
}

// hexLabel is the label of the hex where the test puts the i-th piece of a
// side: side 0 in the map's third row, side 1 three rows from the bottom,
// a column each.
func (p *page) hexLabel(i, side int) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`(() => { const m = JSON.parse(sessionStorage.getItem('orderly.editor')).doc.map;
		const first = m.first ?? 1, digits = m.digits ?? 2, cols = Number(m.columns), rows = Number(m.rows);
		const c = first + 1 + (%d %% (cols - 2)), r = first + (%d ? rows - 3 : 2);
		const pad = (n) => String(n).padStart(digits, '0'); return pad(c) + pad(r); })()`, i, side))
}

// fieldScreen is where a table point (inches) is drawn in the window.
func (p *page) fieldScreen(x, y float64) [2]float64 {
	p.t.Helper()
	return eval[[2]float64](p, fmt.Sprintf(`(() => { const m = document.querySelector('#field .fe-viewport').getScreenCTM();
		const q = new DOMPoint(%g, %g).matrixTransform(m); return [q.x, q.y]; })()`, x, y))
}

// hexScreen is where the centre of a hex of the map is drawn in the window.
func (p *page) hexScreen(label string) [2]float64 {
	p.t.Helper()
	return eval[[2]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector('#field polygon[data-hex=%q]').getBoundingClientRect();
		return [r.x + r.width / 2, r.y + r.height / 2]; })()`, label))
}

// dropOnField drops the tree's piece at path on the field at a point of
// the window, as a drag from the tree does (contract §6).
func (p *page) dropOnField(path string, at [2]float64) {
	p.t.Helper()
	ok := eval[bool](p, fmt.Sprintf(`(() => { const svg = document.getElementById('field'); const dt = new DataTransfer(); dt.setData('application/x-orderly-path', %q);
		for (const type of ['dragenter', 'dragover', 'drop']) svg.dispatchEvent(new DragEvent(type, {dataTransfer: dt, clientX: %g, clientY: %g, bubbles: true, cancelable: true}));
		return true; })()`, path, at[0], at[1]))
	if !ok {
		p.fail("could not drop %s on the field", path)
	}
}

// docAt is the JSON of the value at path in the document the editor keeps.
func (p *page) docAt(path string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`(() => { let v = JSON.parse(sessionStorage.getItem('orderly.editor')).doc;
		for (const m of %q.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) v = v == null ? v : v[m[2] !== undefined ? Number(m[2]) : m[1]];
		return JSON.stringify(v ?? null); })()`, path))
}

// TestEditorImports imports into a new NES scenario: the rule set's roster
// template, downloaded from the editor and read back as a roster file,
// replaces the sides; a roster with a bad row is refused with its row and
// column named; a VASSAL module made by the test (a real PNG and a
// buildFile.xml with a hex grid) becomes the hex map with its image drawn
// under it.
func TestEditorImports(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	p := newPage(t, browser(t, ctx, 1280, 900), "editor-imports", dir)
	p.openEditor(s, "rules=nes")
	p.until("the blank scenario", `document.querySelector('#tree li[data-path="sides[1].army"]')`)
	p.do("open the imports", chromedp.Click(chromedp.CSS(`#imports > summary`)))

	downloads := t.TempDir()
	if _, err := chromedp.CallBrowser(p.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, BrowserContextID: chromedp.FromContext(p.ctx).BrowserContextID, DownloadPath: downloads,
	}); err != nil {
		t.Fatal(err)
	}
	p.do("download the template", chromedp.Click(chromedp.ID("roster-template")))
	tmpl := filepath.Join(downloads, "nes-roster.csv")
	var csv []byte
	for deadline := time.Now().Add(wait); ; time.Sleep(50 * time.Millisecond) {
		data, err := os.ReadFile(tmpl)
		if err == nil && len(data) > 0 {
			csv = data
			break
		}
		if time.Now().After(deadline) {
			p.fail("the template did not come: %v", err)
		}
	}
	before := p.docAt("sides")
	p.do("choose the template as the roster", chromedp.SetUploadFiles(chromedp.ID("roster-file"), []string{tmpl}))
	p.do("replace the sides", chromedp.Click(chromedp.ID("roster-replace")))
	p.until("the roster's sides", `(() => { const d = JSON.parse(sessionStorage.getItem('orderly.editor')).doc; return d.sides.length === 2 && d.sides[0].id !== 'blue'; })()`)
	if after := p.docAt("sides"); after == before || !strings.Contains(string(csv), eval[string](p, `JSON.parse(sessionStorage.getItem('orderly.editor')).doc.sides[0].army.id`)) {
		p.fail("the sides after the import are not the template's: %s", after)
	}
	if n := eval[int](p, `document.querySelectorAll('#roster-problems li').length`); n != 0 {
		p.fail("the template's roster has %d problems", n)
	}

	// A bad row: the file is cleared and rows pasted in its place.
	lines := strings.SplitN(string(csv), "\n", 2)
	bad := lines[0] + "\n" + strings.Repeat("?,", strings.Count(lines[0], ",")) + "?\n"
	p.do("clear the file", chromedp.Evaluate[chromedp.Void](`document.querySelector('#roster-file').value = ''`))
	p.setField("#roster-text", bad)
	p.do("add the bad roster", chromedp.Click(chromedp.ID("roster-add")))
	p.until("its problems named by row and column", `[...document.querySelectorAll('#roster-problems li')].some((li) => li.dataset.row === '2')`)
	if got := p.text("#roster-problems li"); !strings.Contains(got, "row 2") {
		p.fail("the roster's problem reads %q, want its row", got)
	}

	// A module with one board: a 280 by 256 picture under a hex grid.
	vm := filepath.Join(t.TempDir(), "board.vmod")
	if err := os.WriteFile(vm, vassalModule(t, 280, 256), 0o644); err != nil {
		t.Fatal(err)
	}
	p.do("choose the module", chromedp.SetUploadFiles(chromedp.ID("vmod-file"), []string{vm}))
	p.until("the board as the map, its image drawn", `(() => { const m = JSON.parse(sessionStorage.getItem('orderly.editor')).doc.map;
		return m.image && /^data:image\/png;base64,/.test(m.image.data) && m.image.dx === 56 && document.querySelector('#field image'); })()`)
	p.until("the map selected", `document.querySelector('#tree .ed-node.selected').dataset.path === 'map'`)
	p.shot("editor-imports")

	// The board's picture taken away, and a backdrop image of the test's
	// put under the map in its place, spread over the map's hexes until
	// the field calibrates it.
	p.do("remove the image", chromedp.Click(chromedp.ID("image-remove")))
	p.until("the map without its image", `!JSON.parse(sessionStorage.getItem('orderly.editor')).doc.map.image && !document.querySelector('#field image') && document.querySelector('#image-remove').hidden`)
	pic := filepath.Join(t.TempDir(), "scan.png")
	if err := os.WriteFile(pic, pngOf(t, 250, 150), 0o644); err != nil {
		t.Fatal(err)
	}
	// One over the format's 4 MiB is refused in the page, the map unchanged.
	big := filepath.Join(t.TempDir(), "big.png")
	if err := os.WriteFile(big, append(pngOf(t, 8, 8), make([]byte, 4<<20)...), 0o644); err != nil {
		t.Fatal(err)
	}
	p.do("choose a backdrop too big", chromedp.SetUploadFiles(chromedp.ID("image-file"), []string{big}))
	p.until("the refusal", `/big\.png is over 4 MiB/.test(document.querySelector('#banner').textContent) && !document.querySelector('#banner').hidden`)
	if got := p.docAt("map.image"); got != "null" {
		p.fail("the map has an image after a refused one: %.80s", got)
	}
	p.do("choose a backdrop", chromedp.SetUploadFiles(chromedp.ID("image-file"), []string{pic}))
	p.until("the backdrop under the map", `(() => { const m = JSON.parse(sessionStorage.getItem('orderly.editor')).doc.map;
		return m.image && /^data:image\/png;base64,/.test(m.image.data) && m.image.dx === 250 / m.columns && m.image.dy === 150 / m.rows && document.querySelector('#field image'); })()`)
	p.checkConsole()
}

// vassalModule is a VASSAL module (a ZIP) with one board: a w by h PNG and
// a buildFile.xml that lays a hex grid over it.
func vassalModule(t *testing.T, w, h int) []byte {
	t.Helper()
	build := `<?xml version="1.0" encoding="UTF-8"?><VASSAL.build.GameModule><VASSAL.build.module.Map><VASSAL.build.module.map.BoardPicker>` +
		`<VASSAL.build.module.map.boardPicker.Board image="board.png" name="Field">` +
		`<VASSAL.build.module.map.boardPicker.board.HexGrid dx="56" dy="64" x0="40" y0="38" sideways="false" visible="true"/>` +
		`</VASSAL.build.module.map.boardPicker.Board></VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map></VASSAL.build.GameModule>`
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for name, data := range map[string][]byte{"buildFile.xml": []byte(build), "images/board.png": pngOf(t, w, h)} {
		f, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// pngOf is a w by h PNG of stripes.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(200 - x%40), uint8(190 - y%50), 150, 255})
		}
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, img); err != nil {
		t.Fatal(err)
	}
	return pic.Bytes()
}
