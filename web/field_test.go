package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"orderly/geom/hex"
	"orderly/rules/nes"
	"orderly/terrain"
	"orderly/web"
)

// fieldHost is a page of the test's own that holds the editor's field
// alone: the field's SVG, its tool bar, and what the hooks were told.
const fieldHost = `<!doctype html>
<html><head><meta charset="utf-8"><title>field</title></head>
<body>
<div id="tools"></div>
<svg id="field" xmlns="http://www.w3.org/2000/svg" width="900" height="560"></svg>
<script type="module">
import { FieldEditor } from '/js/editor/field.js';
window.changes = [];
window.picked = [];
// The hooks do what the editor's page does: it draws the field again after
// a change or a pick, with its own selection, which knows the pieces of the
// tree but not a table's features.
window.sel = '';
const known = (path) => /^sides\[/.test(path || '');
const fe = new FieldEditor(document.getElementById('field'), {
  changed: (doc, path) => { window.changes.push(path); if (known(path)) window.sel = path; fe.show(doc, window.info, window.sel); },
  select: (path) => { window.picked.push(path); window.sel = known(path) ? path : ''; fe.show(window.doc, window.info, window.sel); },
});
document.getElementById('tools').append(fe.tools());
window.fe = fe;
// a picture of w by h pixels, as a data URL
window.picture = (w, h) => { const c = document.createElement('canvas'); c.width = w; c.height = h;
  const g = c.getContext('2d'); g.fillStyle = '#cdb'; g.fillRect(0, 0, w, h); return c.toDataURL('image/png'); };
// drops the piece at path on the field at client point (x, y), as the tree's drag does
window.dropAt = (path, x, y) => { const dt = new DataTransfer(); dt.setData('application/x-orderly-path', path);
  const svg = document.getElementById('field');
  svg.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, clientX: x, clientY: y, bubbles: true, cancelable: true }));
  svg.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, clientX: x, clientY: y, bubbles: true, cancelable: true })); };
window.ready = true;
</script>
</body></html>`

// fieldPage opens the field's host page, served with the page's files.
func fieldPage(t *testing.T) *page {
	t.Helper()
	needBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServerFS(web.FS()))
	mux.HandleFunc("/field-host.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, fieldHost)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	p := newPage(t, browser(t, ctx, 1100, 800), "field", artifacts(t))
	p.do("open the field's host page", chromedp.Navigate(ts.URL+"/field-host.html"))
	p.until("the field", `window.ready`)
	return p
}

// screenHex is where the centre of a hex is in the window.
func (p *page) screenHex(label string) [2]float64 {
	p.t.Helper()
	return eval[[2]float64](p, fmt.Sprintf(`(() => { const q = fe.hexScreen(%q); return [q.x, q.y]; })()`, label))
}

// screenField is where a point of the field (inches on a table) is in the window.
func (p *page) screenField(x, y float64) [2]float64 {
	p.t.Helper()
	return eval[[2]float64](p, fmt.Sprintf(`(() => { const q = fe.toScreen(%g, %g); return [q.x, q.y]; })()`, x, y))
}

func (p *page) clickAt(what string, at [2]float64) {
	p.t.Helper()
	p.do(what, chromedp.MouseClickXY(at[0], at[1]))
}

func (p *page) key(what, key string) {
	p.t.Helper()
	p.do(what, chromedp.KeyEvent(key))
}

// docJSON is a part of the document the field edits, as JSON.
func docJSON[T any](p *page, expr string) T {
	p.t.Helper()
	return eval[T](p, `JSON.parse(JSON.stringify(`+expr+` ?? null))`)
}

// TestBrowserFieldHex paints a hex map in the editor's field: woods in one
// stroke over two hexes, a level, a stream on a hexside, a road of three
// hexes; drops a unit from the tree and drags it a hex on; then lines a
// backdrop image up by two hexes' centres. The terrain the field writes is
// read by the loader's own parser.
func TestBrowserFieldHex(t *testing.T) {
	t.Parallel()
	p := fieldPage(t)
	eval[bool](p, `(() => { window.doc = {name: 'x', rules: 'nes', map: {columns: 6, rows: 5, layout: 'odd-q'},
		sides: [{id: 'fr', edge: 'west', army: {id: 'nap', at: '0101'}, corps: [{id: 'c1', general: {id: 'g1'}, divisions: [{id: 'd1', general: {id: 'g2'}, units: [{id: 'u1', type: 'infantry'}]}]}]},
		        {id: 'ru', edge: 'east', army: {id: 'kut', at: '0603'}}]};
		window.info = {rules: 'nes', terrain: {hexes: [{letter: '.', name: 'clear'}, {letter: 'w', name: 'woods'}], hexsides: ['brook', 'stream'], roads: ['minor-road', 'major-road']}, features: []};
		fe.show(doc, info, ''); return true; })()`)
	p.until("the hexes", `document.querySelectorAll('#field polygon[data-hex]').length === 30`)
	if got := eval[[]string](p, `[...document.querySelectorAll('#field [data-piece]')].map(e => e.dataset.piece)`); !slices.Equal(got, []string{"sides[0].army", "sides[1].army"}) {
		p.fail("pieces drawn: %v, want the two armies' commanders (the unit has no at)", got)
	}

	// One stroke of woods over 0202 and 0302.
	p.do("choose woods", chromedp.Click(chromedp.CSS(`[data-tool="terrain:w"]`)))
	a, b := p.screenHex("0202"), p.screenHex("0302")
	p.do("paint 0202 to 0302", chromedp.DragAndDropXY(a[0], a[1], b[0], b[1], 6))
	p.until("the stroke to be told", `changes.includes('map.terrain')`)
	// A level 2 at 0101.
	p.do("choose level 2", chromedp.Click(chromedp.CSS(`[data-tool="elevation:2"]`)))
	p.clickAt("paint 0101", p.screenHex("0101"))
	p.until("the level to be told", `changes.includes('map.elevation')`)
	// A stream between 0405 and 0404: a click near the middle of their side.
	p.do("choose the stream", chromedp.Click(chromedp.CSS(`[data-tool="hexside:stream"]`)))
	c, d := p.screenHex("0404"), p.screenHex("0405")
	side := [2]float64{(2*c[0] + 3*d[0]) / 5, (2*c[1] + 3*d[1]) / 5}
	p.clickAt("click the hexside", side)
	p.until("the stream", `doc.map.hexsides && doc.map.hexsides.stream === '0404/0405'`)
	p.clickAt("click the hexside again", side)
	p.until("the stream taken away", `!doc.map.hexsides`)
	p.clickAt("click the hexside a third time", side)
	// A road 0101 0201 0301, and a click on a hex that is no neighbour,
	// which starts another chain and so adds nothing.
	p.do("choose the major road", chromedp.Click(chromedp.CSS(`[data-tool="road:major-road"]`)))
	for _, l := range []string{"0101", "0201", "0301", "0305"} {
		p.clickAt("lay the road at "+l, p.screenHex(l))
	}
	p.key("end the road", "\r")
	p.until("the road to be told", `changes.some(c => c.startsWith('map.roads.major-road'))`)

	var m struct {
		Terrain, Elevation string
		Hexsides           map[string]string
		Roads              map[string][]string
	}
	raw := docJSON[json.RawMessage](p, `doc.map`)
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if want := "......\n.ww...\n......\n......\n......\n"; m.Terrain != want {
		p.fail("terrain after the stroke:\n%s\nwant\n%s", m.Terrain, want)
	}
	if want := "200000\n000000\n000000\n000000\n000000\n"; m.Elevation != want {
		p.fail("elevation after the brush:\n%s\nwant\n%s", m.Elevation, want)
	}
	if got := m.Hexsides["stream"]; got != "0404/0405" {
		p.fail("hexsides.stream = %q, want 0404/0405", got)
	}
	if got := m.Roads["major-road"]; !slices.Equal(got, []string{"0101 0201 0301"}) {
		p.fail("roads.major-road = %q, want the chain 0101 0201 0301", got)
	}
	// The loader's parser reads what the field wrote.
	grid, err := hex.NewMap(6, 5, hex.Layout{Offset: hex.OddQ, First: 1, Digits: 2})
	if err != nil {
		t.Fatal(err)
	}
	tm, err := terrain.Parse(grid, nes.Kinds(), terrain.Text{Terrain: m.Terrain, Elevation: m.Elevation, Sides: m.Hexsides, Roads: m.Roads})
	if err != nil {
		p.fail("the loader's parser refuses the field's terrain: %v", err)
	}
	h0202, _ := grid.Parse("0202")
	if i, _ := tm.At(h0202); tm.TerrainName(i) != "woods" {
		p.fail("0202 reads as %s, want woods", tm.TerrainName(i))
	}

	// A unit dropped from the tree on 0404, then dragged to 0504.
	p.do("choose the select tool", chromedp.Click(chromedp.CSS(`[data-tool="select"]`)))
	at := p.screenHex("0404")
	eval[bool](p, fmt.Sprintf(`(dropAt('sides[0].corps[0].divisions[0].units[0]', %g, %g), true)`, at[0], at[1]))
	if got := docJSON[string](p, `doc.sides[0].corps[0].divisions[0].units[0].at`); got != "0404" {
		p.fail("the dropped unit is at %q, want 0404", got)
	}
	at, to := p.screenHex("0404"), p.screenHex("0504")
	p.do("drag the unit a hex on", chromedp.DragAndDropXY(at[0], at[1], to[0], to[1], 6))
	p.until("the unit in 0504", `doc.sides[0].corps[0].divisions[0].units[0].at === '0504'`)
	p.clickAt("select the unit", to)
	p.until("the unit to be picked", `picked.at(-1) === 'sides[0].corps[0].divisions[0].units[0]' && document.querySelector('[data-piece="sides[0].corps[0].divisions[0].units[0]"].selected')`)

	// A backdrop whose grid is x0 40, y0 38, dx 56, dy 64 pixels: two hex
	// centres clicked on it, 0202 and 0403, line it up.
	// set as the page sets it: spread over the map's columns and rows
	eval[bool](p, `(doc.map.image = {data: picture(420, 360), x0: 35, y0: 36, dx: 70, dy: 72}, fe.show(doc, info, ''), true)`)
	p.until("the backdrop", `document.querySelector('#field image')`)
	pixel := func(x, y float64) [2]float64 {
		return eval[[2]float64](p, fmt.Sprintf(`(() => { const pl = fe.imagePlace(); const q = fe.toScreen(pl.x + %g * pl.kx, pl.y + %g * pl.ky); return [q.x, q.y]; })()`, x, y))
	}
	// odd-q: the second column is half a hex lower
	p1, p2 := [2]float64{40 + 56, 38 + 64*1.5}, [2]float64{40 + 56*3, 38 + 64*2.5}
	p.do("choose calibrate", chromedp.Click(chromedp.CSS(`[data-tool="calibrate"]`)))
	p.clickAt("click the first hex's centre", pixel(p1[0], p1[1]))
	p.until("the first label's field", `document.querySelector('[data-cal="label1"]')`)
	eval[bool](p, `(() => { const i = document.querySelector('[data-cal="label1"]'); i.value = '0202'; i.dispatchEvent(new Event('input')); return true; })()`)
	p.do("go on", chromedp.Click(chromedp.CSS(`[data-action="cal-next"]`)))
	p.clickAt("click the second hex's centre", pixel(p2[0], p2[1]))
	p.until("the second label's field", `document.querySelector('[data-cal="label2"]')`)
	eval[bool](p, `(() => { const i = document.querySelector('[data-cal="label2"]'); i.value = '0403'; i.dispatchEvent(new Event('input')); return true; })()`)
	p.do("line it up", chromedp.Click(chromedp.CSS(`[data-action="cal-apply"]`)))
	p.until("the calibration to be told", `changes.at(-1) === 'map.image' && !document.querySelector('[data-cal]')`)
	var im struct{ X0, Y0, DX, DY float64 }
	if err := json.Unmarshal(docJSON[json.RawMessage](p, `doc.map.image`), &im); err != nil {
		t.Fatal(err)
	}
	// a click lands on a whole pixel of the screen: a pixel of the image
	// is about half of one
	for _, v := range [][3]float64{{im.X0, 40, 1}, {im.Y0, 38, 1}, {im.DX, 56, 0.6}, {im.DY, 64, 0.6}} {
		if math.Abs(v[0]-v[1]) > v[2] {
			p.fail("the calibrated grid is %+v, want x0 40, y0 38, dx 56, dy 64", im)
		}
	}
	// The hexes drawn lie on the image's: 0605's centre on its pixel.
	if got, want := p.screenHex("0605"), pixel(40+56*5, 38+64*4.5); !near(got, want, 1.5) {
		p.fail("0605 is drawn at %v, its centre on the image at %v", got, want)
	}
	p.shot("field-hex")
	p.checkConsole()
}

// TestBrowserFieldTable draws on a table: a wood by its corners, a road
// by its points, the entry grid and base edges; drops a unit (it faces
// away from its base edge), turns it by its handle; calibrates a backdrop
// by two points 20 inches apart, then places it by a third click.
func TestBrowserFieldTable(t *testing.T) {
	t.Parallel()
	p := fieldPage(t)
	eval[bool](p, `(() => { window.doc = {name: 'x', rules: 'nb', field: {width: 72, depth: 48, grid: {columns: 6, rows: 4}},
		sides: [{id: 'fr', name: 'French', edge: 'south', army: {id: 'nap', at: [36, 46]}, corps: [{id: 'c1', general: {id: 'g1'}, divisions: [{id: 'd1', general: {id: 'g2'}, units: [{id: 'u1', type: 'infantry'}]}]}]},
		        {id: 'al', name: 'Allies', edge: 'north', army: {id: 'wel', at: [36, 2]}}]};
		window.info = {rules: 'nb', terrain: null, features: ['light-woods', 'heavy-woods', 'town', 'road', 'river']};
		fe.show(doc, info, ''); return true; })()`)
	p.until("the table", `document.querySelector('#field .fe-table') && document.querySelector('#field [data-square="F4"]')`)
	if got := eval[[]string](p, `[...document.querySelectorAll('#field [data-edge]')].map(e => e.textContent)`); !slices.Equal(got, []string{"French — base edge", "Allies — base edge"}) {
		p.fail("base edges named %q", got)
	}
	if got := eval[[]string](p, `[...document.querySelectorAll('[data-group="lines"] [data-tool]')].map(e => e.dataset.tool)`); !slices.Equal(got, []string{"line:road", "line:river"}) {
		p.fail("line tools %v, want road and river", got)
	}

	p.do("choose light woods", chromedp.Click(chromedp.CSS(`[data-tool="area:light-woods"]`)))
	for _, c := range [][2]float64{{10, 10}, {20, 10}, {20, 20}} {
		p.clickAt(fmt.Sprintf("corner (%g, %g)", c[0], c[1]), p.screenField(c[0], c[1]))
	}
	p.key("close the area", "\r")
	p.until("the wood", `changes.at(-1) === 'field.features[0]'`)
	p.do("choose road", chromedp.Click(chromedp.CSS(`[data-tool="line:road"]`)))
	p.clickAt("road start", p.screenField(30, 5))
	q := p.screenField(30, 40)
	p.do("road end, double-clicked", chromedp.MouseClickXY(q[0], q[1], chromedp.ClickCount(2)))
	p.until("the road", `changes.at(-1) === 'field.features[1]'`)
	type feature struct {
		ID, Type   string
		Area, Line [][2]float64
	}
	var fs []feature
	if err := json.Unmarshal(docJSON[json.RawMessage](p, `doc.field.features`), &fs); err != nil {
		t.Fatal(err)
	}
	want := []feature{{ID: "light-woods-1", Type: "light-woods", Area: [][2]float64{{10, 10}, {20, 10}, {20, 20}}}, {ID: "road-1", Type: "road", Line: [][2]float64{{30, 5}, {30, 40}}}}
	if fmt.Sprint(fs) != fmt.Sprint(want) {
		p.fail("features %+v, want %+v", fs, want)
	}
	// The wood selected and deleted.
	p.do("choose the select tool", chromedp.Click(chromedp.CSS(`[data-tool="select"]`)))
	p.clickAt("select the wood", p.screenField(18, 12))
	p.until("the wood to be picked", `picked.at(-1) === 'field.features[0]'`)
	p.do("delete it", chromedp.Click(chromedp.CSS(`[data-action="delete-feature"]`)))
	if got := docJSON[[]string](p, `doc.field.features.map(f => f.id)`); !slices.Equal(got, []string{"road-1"}) {
		p.fail("features after the delete: %v, want road-1 alone", got)
	}

	// The road's end dragged by its handle from (30, 40) to (40, 40).
	p.clickAt("select the road", p.screenField(30, 20))
	p.until("the road's handles", `document.querySelector('#field [data-handle="point:0:1"]')`)
	from, to := p.screenField(30, 40), p.screenField(40, 40)
	p.do("drag the road's end", chromedp.DragAndDropXY(from[0], from[1], to[0], to[1], 6))
	p.until("the road's end moved", `JSON.stringify(doc.field.features[0].line) === '[[30,5],[40,40]]' && changes.at(-1) === 'field.features[0]'`)
	// Selected, the whole road dragged 2 inches east.
	from, to = p.screenField(35, 22.5), p.screenField(37, 22.5)
	p.do("drag the road", chromedp.DragAndDropXY(from[0], from[1], to[0], to[1], 6))
	p.until("the road moved", `JSON.stringify(doc.field.features[0].line) === '[[32,5],[42,40]]'`)

	// A unit dropped at (40.1, 30.4): on the half inch, facing north.
	const unit = "sides[0].corps[0].divisions[0].units[0]"
	at := p.screenField(40.1, 30.4)
	eval[bool](p, fmt.Sprintf(`(dropAt(%q, %g, %g), true)`, unit, at[0], at[1]))
	var u struct {
		At     [2]float64
		Facing *float64
	}
	if err := json.Unmarshal(docJSON[json.RawMessage](p, `doc.`+unit), &u); err != nil {
		t.Fatal(err)
	}
	if u.At != [2]float64{40, 30.5} || u.Facing == nil || *u.Facing != 0 {
		p.fail("the dropped unit is at %v facing %v, want (40, 30.5) facing 0", u.At, u.Facing)
	}
	// Its corps selected in the tree, the corps' pieces are marked on the field.
	eval[bool](p, `(fe.show(doc, info, 'sides[0].corps[0]'), true)`)
	if got := eval[[]string](p, `[...document.querySelectorAll('#field .fe-piece.within')].map(e => e.dataset.piece)`); !slices.Equal(got, []string{unit}) {
		p.fail("pieces marked with the corps selected: %v, want %s alone (the others have no at)", got, unit)
	}
	// Selected, it turns by its handle: dragged due east of it, it faces 90.
	p.clickAt("select the unit", p.screenField(40, 31))
	p.until("the rotate handle", `document.querySelector('#field [data-handle="rotate"]')`)
	h := eval[[2]float64](p, `(() => { const r = document.querySelector('#field [data-handle="rotate"]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	east := p.screenField(46, 30.5)
	p.do("turn the unit", chromedp.DragAndDropXY(h[0], h[1], east[0], east[1], 6))
	p.until("the unit to face east", `doc.sides[0].corps[0].divisions[0].units[0].facing === 90 && changes.at(-1) === '`+unit+`'`)

	// A backdrop of 720 by 480 pixels covers the table (10 pixels an
	// inch); two points 300 pixels apart said to be 20 inches apart make
	// it 15 an inch, the first point keeping its place; a third click
	// puts that point at (20, 20).
	eval[bool](p, `(doc.field.image = {data: picture(720, 480), scale: 10, at: [0, 0]}, fe.show(doc, info, ''), true)`)
	p.until("the backdrop", `document.querySelector('#field image')`)
	p.do("choose calibrate", chromedp.Click(chromedp.CSS(`[data-tool="calibrate"]`)))
	p.clickAt("the first point", p.screenField(10, 10))
	p.clickAt("the second point", p.screenField(40, 10))
	p.until("the distance's field", `document.querySelector('[data-cal="inches"]')`)
	p.do("say 20 inches", chromedp.SendKeys(chromedp.CSS(`[data-cal="inches"]`), "20"), chromedp.Click(chromedp.CSS(`[data-action="cal-apply"]`)))
	p.until("the scale", `Math.abs(doc.field.image.scale - 15) < 0.15`)
	if got := docJSON[[2]float64](p, `doc.field.image.at`); !near(got, [2]float64{10 - 100.0/15, 10 - 100.0/15}, 0.15) {
		p.fail("the image's corner is at %v after the scale, want (3.33, 3.33): the first point keeps its place", got)
	}
	p.clickAt("put the first point at (20, 20)", p.screenField(20, 20))
	p.until("the image placed", `Math.abs(doc.field.image.at[0] - (20 - 100 / doc.field.image.scale)) < 0.1`)
	p.do("done", chromedp.Click(chromedp.CSS(`[data-action="cal-done"]`)))
	p.shot("field-table")
	p.checkConsole()
}

// TestBrowserFieldTouch: on a touch screen one finger paints a stroke
// with a brush, two fingers zoom, and one finger pans with the select tool.
func TestBrowserFieldTouch(t *testing.T) {
	t.Parallel()
	p := fieldPage(t)
	p.do("touch screen", chromedp.EmulateViewport(1100, 800, chromedp.EmulateTouch))
	eval[bool](p, `(() => { window.doc = {map: {columns: 20, rows: 15}, sides: []};
		window.info = {terrain: {hexes: [{letter: '.', name: 'clear'}, {letter: 'w', name: 'woods'}], hexsides: [], roads: []}, features: []};
		fe.show(doc, info, ''); return true; })()`)
	p.until("the hexes", `document.querySelectorAll('#field polygon[data-hex]').length === 300`)
	touch := func(typ input.DispatchTouchEventType, pts ...[2]float64) {
		t.Helper()
		tps := []*input.TouchPoint{}
		for i, q := range pts {
			id := float64(i + 1)
			tps = append(tps, &input.TouchPoint{X: q[0], Y: q[1], ID: &id})
		}
		if _, err := chromedp.Call(p.ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: tps}); err != nil {
			t.Fatal(err)
		}
	}
	p.do("choose woods", chromedp.Click(chromedp.CSS(`[data-tool="terrain:w"]`)))
	a, b := p.screenHex("0505"), p.screenHex("0805")
	touch(input.DispatchTouchEventTypeTouchStart, a)
	for i := 1; i <= 6; i++ {
		k := float64(i) / 6
		touch(input.DispatchTouchEventTypeTouchMove, [2]float64{a[0] + (b[0]-a[0])*k, a[1] + (b[1]-a[1])*k})
	}
	touch(input.DispatchTouchEventTypeTouchEnd)
	p.until("the stroke", `changes.includes('map.terrain')`)
	if got := docJSON[string](p, `doc.map.terrain.split('\n')[4]`); got != "....wwww............" {
		p.fail("row 05 after a finger's stroke from 0505 to 0805: %q, want woods in columns 5 to 8", got)
	}
	viewBox := func() []float64 {
		return eval[[]float64](p, `document.getElementById('field').getAttribute('viewBox').split(' ').map(Number)`)
	}
	before := viewBox()
	c := p.screenHex("1008")
	touch(input.DispatchTouchEventTypeTouchStart, [2]float64{c[0] - 40, c[1]}, [2]float64{c[0] + 40, c[1]})
	for i := 1; i <= 6; i++ {
		d := 40 + float64(i)*20
		touch(input.DispatchTouchEventTypeTouchMove, [2]float64{c[0] - d, c[1]}, [2]float64{c[0] + d, c[1]})
	}
	touch(input.DispatchTouchEventTypeTouchEnd)
	pinched := viewBox()
	if k := before[2] / pinched[2]; k < 3.5 || k > 4.5 {
		p.fail("pinching 80px apart to 320px zoomed %.2f times, want about 4 (viewBox %v -> %v)", k, before, pinched)
	}
	if got := docJSON[string](p, `doc.map.terrain.split('\n')[7]`); got != "...................." {
		p.fail("row 08 after the pinch: %q, want it unpainted", got)
	}
	if got := eval[[]string](p, `[...document.querySelectorAll('#field polygon[data-hex$="08"]')].filter(e => e.dataset.terrain !== '.').map(e => e.dataset.hex)`); len(got) > 0 {
		p.fail("hexes %v of row 08 drawn painted after the pinch undid the stroke", got)
	}
	p.do("choose the select tool", chromedp.Click(chromedp.CSS(`[data-tool="select"]`)))
	touch(input.DispatchTouchEventTypeTouchStart, c)
	for i := 1; i <= 5; i++ {
		touch(input.DispatchTouchEventTypeTouchMove, [2]float64{c[0] + float64(i)*20, c[1]})
	}
	touch(input.DispatchTouchEventTypeTouchEnd)
	if panned := viewBox(); panned[0] >= pinched[0] || panned[2] != pinched[2] {
		p.fail("a one-finger drag to the right did not pan west: viewBox %v -> %v", pinched, panned)
	}
	// A brush of the hex map is put down when the field becomes a table.
	p.do("choose woods again", chromedp.Click(chromedp.CSS(`[data-tool="terrain:w"]`)))
	eval[bool](p, `(fe.show({field: {width: 24, depth: 12}, sides: []}, {terrain: null, features: ['road']}, ''), true)`)
	if got := eval[string](p, `fe.tool.kind + ' ' + document.querySelector('[data-tool="select"]').getAttribute('aria-pressed')`); got != "select true" {
		p.fail("the tool on the table is %q, want select, pressed", got)
	}
	p.checkConsole()
}

// TestFieldHalfWritten: the field draws what it can of a document half
// written, as the editor holds it while someone types, and throws nothing.
func TestFieldHalfWritten(t *testing.T) {
	t.Parallel()
	p := fieldPage(t)
	got := eval[[]string](p, `[null, {}, {field: {width: 'x', features: {}, grid: {columns: 40}}, sides: {}},
		{field: {width: 24, depth: 12, features: [null, {type: 'town', area: [[1, 1], [5, 1]], blocks: [[1]]}, {line: 'a'}]}, sides: [null, {army: {at: [1]}}]},
		{map: {columns: 0, rows: -2, layout: 'x', terrain: 7, hexsides: {stream: ['a']}, roads: {road: 'b'}}, sides: [{army: {at: 5}, units: [{at: '9999'}]}]},
		{map: {columns: 3, rows: 2, terrain: 'ww\nw', elevation: '9', image: {data: 'data:,', dx: 0}}}]
		.map((d) => { try { fe.show(d, {terrain: {hexes: ['.', {letter: 'w'}]}, features: [{type: 'river', shape: 'line'}]}, 'sides[0]'); return ''; } catch (e) { return String(e); } })
		.filter(Boolean)`)
	if len(got) > 0 {
		p.fail("the field threw on a half-written document: %v", got)
	}
	p.checkConsole()
}

// TestFieldGeometry checks the field's hex geometry against the hex
// package's for every layout: the labels of a map's hexes and which of
// them are neighbours, and the hex a centre is in.
func TestFieldGeometry(t *testing.T) {
	t.Parallel()
	p := fieldPage(t)
	for _, layout := range []string{"odd-q", "even-q", "odd-r", "even-r"} {
		off, err := hex.ParseOffset(layout)
		if err != nil {
			t.Fatal(err)
		}
		l := hex.Layout{Offset: off, First: 0, Digits: 2}
		var want []string
		for c := range 5 {
			for r := range 4 {
				a := l.FromOffset(c, r)
				la, _ := l.Label(a)
				for c2 := range 5 {
					for r2 := range 4 {
						if b := l.FromOffset(c2, r2); hex.Adjacent(a, b) {
							lb, _ := l.Label(b)
							want = append(want, la+"/"+lb)
						}
					}
				}
			}
		}
		got, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`import('/js/editor/field-geom.js').then(({hexGrid}) => {
			const g = hexGrid({columns: 5, rows: 4, layout: %q, first: 0});
			const out = [];
			for (let c = 0; c < 5; c++) for (let r = 0; r < 4; r++) for (let c2 = 0; c2 < 5; c2++) for (let r2 = 0; r2 < 4; r2++)
				if (g.adjacent([c, r], [c2, r2])) out.push(g.label(c, r) + '/' + g.label(c2, r2));
			for (let c = 0; c < 5; c++) for (let r = 0; r < 4; r++) { const p = g.centre(c, r), h = g.at(p.x + 0.3, p.y - 0.4);
				if (!h || h[0] !== c || h[1] !== r || g.parse(g.label(c, r)).join() !== [c, r].join()) out.push('lost ' + g.label(c, r)); }
			return out; })`, layout), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", layout, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the field's neighbours differ from the hex package's:\n got %s\nwant %s", layout, strings.Join(got, " "), strings.Join(want, " "))
		}

		// An image's grid (contract §2): x0, y0 the first hex's centre;
		// dx between neighbouring columns' centres (q) or neighbours in
		// a row (r); dy between neighbours in a column (q) or
		// neighbouring rows' centres (r). Two hexes' centres on it give
		// the grid back, and every hex drawn lies on its centre.
		const x0, y0, dx, dy = 40.5, 38.0, 56.0, 64.0
		shifted := func(i int) float64 { // half a hex down (q) or east (r)
			if strings.HasPrefix(layout, "odd") {
				return float64(i & 1)
			}
			return float64(1 - i&1)
		}
		centre := func(c, r int) [2]float64 {
			if strings.HasSuffix(layout, "-q") {
				return [2]float64{x0 + float64(c)*dx, y0 + (float64(r)+0.5*(shifted(c)-shifted(0)))*dy}
			}
			return [2]float64{x0 + (float64(c)+0.5*(shifted(r)-shifted(0)))*dx, y0 + float64(r)*dy}
		}
		var pixels [][2]float64
		for c := range 5 {
			for r := range 4 {
				pixels = append(pixels, centre(c, r))
			}
		}
		a, b := centre(1, 1), centre(3, 2)
		res, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`import('/js/editor/field-geom.js').then(({hexGrid, hexCalibration, hexImagePlace}) => {
			const g = hexGrid({columns: 5, rows: 4, layout: %q, first: 0});
			const cal = hexCalibration(g, {x: %g, y: %g}, '0101', {x: %g, y: %g}, '0302');
			if (cal.error) return [cal.error];
			const pl = hexImagePlace(g, cal), px = %s;
			let worst = 0, i = 0;
			for (let c = 0; c < 5; c++) for (let r = 0; r < 4; r++, i++) { const q = g.centre(c, r);
				worst = Math.max(worst, Math.hypot(pl.x + px[i][0] * pl.kx - q.x, pl.y + px[i][1] * pl.ky - q.y)); }
			return [cal.x0, cal.y0, cal.dx, cal.dy, worst]; })`, layout, a[0], a[1], b[0], b[1], mustJSON(t, pixels)), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", layout, err)
		}
		if len(res) != 5 || math.Abs(res[0]-x0) > 1e-9 || math.Abs(res[1]-y0) > 1e-9 || math.Abs(res[2]-dx) > 1e-9 || math.Abs(res[3]-dy) > 1e-9 || res[4] > 1e-9 {
			t.Errorf("%s: calibrated from 0101 at %v and 0302 at %v: %v, want x0 %g, y0 %g, dx %g, dy %g and every hex on its centre", layout, a, b, res, x0, y0, dx, dy)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBrowserFieldMarks drags a side's headquarters and formations'
// order objectives on a table (by half inches, the grab kept) and on a
// hex map (to the hex under the pointer), and checks the document; a
// side without hq gets none, a general without at draws no line.
func TestBrowserFieldMarks(t *testing.T) {
	t.Parallel()
	p := fieldPage(t)
	centreOf := func(sel string) [2]float64 {
		t.Helper()
		return eval[[2]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, sel))
	}
	drag := func(what, sel string, to [2]float64) {
		t.Helper()
		from := centreOf(sel)
		p.do(what, chromedp.DragAndDropXY(from[0], from[1], to[0], to[1], 6))
	}
	plus := func(a, b, c [2]float64) [2]float64 { return [2]float64{a[0] + b[0] - c[0], a[1] + b[1] - c[1]} }
	marked := func() []string {
		return eval[[]string](p, `[...document.querySelectorAll('#field [data-mark], #field [data-aim]')].map(e => (e.dataset.aim ? 'aim ' : '') + (e.dataset.aim || e.dataset.mark))`)
	}

	eval[bool](p, `(() => { window.doc = {name: 'x', rules: 'lob', field: {width: 72, depth: 48},
		sides: [{id: 'fr', edge: 'south', hq: [30, 40], army: {id: 'nap', at: [36, 46]}, corps: [
			{id: 'c1', general: {id: 'g1', at: [20, 40]}, order: {kind: 'attack', objective: [20, 20]}},
			{id: 'c2', general: {id: 'g2'}, order: {kind: 'reserve', entry: 'C4', then: {kind: 'attack', objective: [50, 10]}}}]},
		        {id: 'al', edge: 'north', army: {id: 'wel', at: [36, 2]}, corps: [{id: 'a1', general: {id: 'g3', at: [10, 5]}, order: 'defend'}]}]};
		window.info = {rules: 'lob', terrain: null, features: []};
		fe.show(doc, info, ''); return true; })()`)
	p.until("the table's marks", `document.querySelector('#field [data-mark="sides[0].hq"]')`)
	if got, want := marked(), []string{"aim sides[0].corps[0].order.objective", "sides[0].hq", "sides[0].corps[0].order.objective", "sides[0].corps[1].order.then.objective"}; !slices.Equal(got, want) {
		p.fail("marks drawn on the table: %q, want %q", got, want)
	}
	// The HQ dragged 5 inches east and 3 south by its flag.
	drag("drag the HQ", `[data-mark="sides[0].hq"] .fe-flag`, plus(centreOf(`[data-mark="sides[0].hq"] .fe-flag`), p.screenField(35, 43), p.screenField(30, 40)))
	p.until("the HQ at (35, 43)", `JSON.stringify(doc.sides[0].hq) === '[35,43]' && changes.at(-1) === 'sides[0].hq'`)
	// c1's objective dragged to (24.2, 15.9): on the half inch.
	drag("drag c1's objective", `[data-mark="sides[0].corps[0].order.objective"] .fe-target`, p.screenField(24.2, 15.9))
	p.until("the objective at (24, 16)", `JSON.stringify(doc.sides[0].corps[0].order.objective) === '[24,16]' && changes.at(-1) === 'sides[0].corps[0].order.objective'`)
	drag("drag c2's later objective", `[data-mark="sides[0].corps[1].order.then.objective"] .fe-target`, p.screenField(44.6, 12.1))
	p.until("the later objective at (44.5, 12)", `JSON.stringify(doc.sides[0].corps[1].order.then.objective) === '[44.5,12]' && changes.at(-1) === 'sides[0].corps[1].order.then.objective'`)
	if got := eval[[]float64](p, `['x2', 'y2'].map(k => Number(document.querySelector('#field [data-aim="sides[0].corps[0].order.objective"]').getAttribute(k)))`); !slices.Equal(got, []float64{24, 16}) {
		p.fail("c1's line ends at %v, want at its objective (24, 16)", got)
	}
	// A tap on an objective picks its formation.
	p.clickAt("tap c1's objective", centreOf(`[data-mark="sides[0].corps[0].order.objective"] .fe-target`))
	p.until("c1 picked", `picked.at(-1) === 'sides[0].corps[0]'`)
	if got := docJSON[[2]float64](p, `doc.sides[0].corps[0].order.objective`); got != [2]float64{24, 16} {
		p.fail("a tap moved the objective to %v", got)
	}

	eval[bool](p, `(() => { window.doc = {name: 'x', rules: 'lob', map: {columns: 6, rows: 5, layout: 'odd-q'},
		sides: [{id: 'us', edge: 'west', hq: '0101', army: {id: 'pope', at: '0101'},
			divisions: [{id: 'D', general: {id: 'D-g', at: '0202'}, order: {kind: 'attack', objective: '0404'}}]},
		        {id: 'cs', edge: 'east', army: {id: 'lee', at: '0603'}}]};
		window.info = {rules: 'lob', terrain: {hexes: [{letter: '.', name: 'clear'}], hexsides: [], roads: []}, features: []};
		fe.show(doc, info, ''); return true; })()`)
	p.until("the hexes' marks", `document.querySelectorAll('#field polygon[data-hex]').length === 30 && document.querySelector('#field [data-mark="sides[0].hq"]')`)
	if got, want := marked(), []string{"aim sides[0].divisions[0].order.objective", "sides[0].hq", "sides[0].divisions[0].order.objective"}; !slices.Equal(got, want) {
		p.fail("marks drawn on the hex map: %q, want %q", got, want)
	}
	drag("drag the HQ to 0305", `[data-mark="sides[0].hq"] .fe-flag`, p.screenHex("0305"))
	p.until("the HQ in 0305", `doc.sides[0].hq === '0305' && changes.at(-1) === 'sides[0].hq'`)
	drag("drag D's objective to 0504", `[data-mark="sides[0].divisions[0].order.objective"] .fe-target`, p.screenHex("0504"))
	p.until("the objective in 0504", `doc.sides[0].divisions[0].order.objective === '0504' && changes.at(-1) === 'sides[0].divisions[0].order.objective'`)
	if got := docJSON[string](p, `doc.sides[0].army.at`); got != "0101" {
		p.fail("the army commander moved with his HQ to %q", got)
	}
	if got := eval[bool](p, `'hq' in doc.sides[1]`); got {
		p.fail("the field gave the second side an hq")
	}
	p.shot("field-marks")
	p.checkConsole()
}
