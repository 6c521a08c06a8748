package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestAcceptance is issue 35's "done when", as a newcomer does it from the
// page alone: a battle of two divisions a side on an NES hex map over a
// scanned map (a picture the test prints: a hex grid at an offset and a
// scale of its own, with woods coloured in), and one on a 72 x 48 inch NB
// table with a wood drawn. Each is built in the editor (the backdrop
// calibrated by two clicks on hex centres, terrain painted over it, every
// piece dragged from the tree onto the field), started with "Start a game"
// and played through its first turn from the play page.
func TestAcceptance(t *testing.T) {
	t.Parallel()
	t.Run("nes-over-a-scan", acceptHex)
	t.Run("nb-table", acceptTable)
}

// scan is the test's printed hex map: a grid of odd-q hexes (flat tops),
// whose first hex's centre is at (x0, y0) pixels, dx between columns'
// centres and dy between a column's, on paper with a margin; the hexes
// listed are coloured as woods.
type scan struct {
	cols, rows     int
	x0, y0, dx, dy float64
	woods          map[[2]int]bool // [column, row], from 0
}

// centre is where the hex at column c, row r (from 0) is printed.
func (sc scan) centre(c, r int) (float64, float64) {
	return sc.x0 + float64(c)*sc.dx, sc.y0 + (float64(r)+0.5*float64(c&1))*sc.dy
}

// png prints the map.
func (sc scan) png(t *testing.T) []byte {
	t.Helper()
	w, h := sc.width(), sc.height()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{240, 232, 210, 255}}, image.Point{}, draw.Src)
	ink := color.RGBA{90, 80, 70, 255}
	wood := color.RGBA{96, 150, 80, 255}
	// a flat-topped hex of width 2a: dx = 1.5a, dy = a√3
	a := sc.dx / 1.5
	for c := range sc.cols {
		for r := range sc.rows {
			cx, cy := sc.centre(c, r)
			if sc.woods[[2]int{c, r}] {
				for y := int(cy - sc.dy/2); y <= int(cy+sc.dy/2); y++ {
					for x := int(cx - a); x <= int(cx+a); x++ {
						if inHex(float64(x)-cx, float64(y)-cy, a) {
							img.Set(x, y, wood)
						}
					}
				}
			}
			for k := range 6 {
				a0, a1 := float64(k)*math.Pi/3, float64(k+1)*math.Pi/3
				x1, y1 := cx+a*math.Cos(a0), cy+a*math.Sin(a0)
				x2, y2 := cx+a*math.Cos(a1), cy+a*math.Sin(a1)
				for i := range 40 {
					f := float64(i) / 40
					img.Set(int(x1+(x2-x1)*f), int(y1+(y2-y1)*f), ink)
				}
			}
			img.Set(int(cx), int(cy), ink) // the printed centre dot
		}
	}
	// a printed stream, wandering down the map: only a picture, here
	stream := color.RGBA{70, 110, 190, 255}
	for y := range h {
		x := sc.x0 + 19.5*sc.dx + 14*math.Sin(float64(y)/37)
		for d := -2; d <= 2; d++ {
			img.Set(int(x)+d, y, stream)
		}
	}
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// inHex is whether (x, y) from a flat-topped hex's centre lies in it.
func inHex(x, y, a float64) bool {
	x, y = math.Abs(x), math.Abs(y)
	return y <= a*math.Sqrt(3)/2 && math.Sqrt(3)*x+y <= math.Sqrt(3)*a
}

// acceptHex builds and plays the NES battle over a scanned map.
func acceptHex(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	p := newPage(t, browser(t, ctx, 1280, 800), "accept-nes", dir)
	p.openEditor(s, "")
	p.until("the rule sets", `document.querySelector('#new-rules option[value="nes"]')`)
	p.do("New scenario", chromedp.SetValue(chromedp.ID("new-rules"), "nes"), chromedp.Click(chromedp.ID("new-scenario-btn")))
	p.landed("/edit")
	p.until("a blank NES scenario", `!document.querySelector('#editor').hidden && document.querySelector('#tree li[data-path="sides[1].army"]') && document.querySelector('#field polygon[data-hex]')`)

	// The scan: the map's columns and rows printed 30 pixels in, hexes
	// 36 pixels apart across and 40 down, two woods of two hexes each.
	m := eval[[2]int](p, `(() => { const m = JSON.parse(sessionStorage.getItem('orderly.editor')).doc.map; return [Number(m.columns), Number(m.rows)]; })()`)
	if layout := p.docAt("map.layout"); layout != "null" && layout != `"odd-q"` {
		t.Fatalf("the blank NES map's layout is %s; the test prints an odd-q grid", layout)
	}
	sc := scan{cols: m[0], rows: m[1], x0: 48, y0: 44, dx: 36, dy: 41.6,
		woods: map[[2]int]bool{{10, 8}: true, {11, 8}: true, {16, 9}: true, {16, 10}: true}}
	pic := filepath.Join(t.TempDir(), "scan.png")
	if err := os.WriteFile(pic, sc.png(t), 0o644); err != nil {
		t.Fatal(err)
	}
	// The field's "Image…" opens the backdrop's chooser (held by the
	// test: a headless browser shows no dialog).
	chooser := make(chan struct{}, 1)
	if err := chromedp.Listen(p.ctx, func(ev any) {
		if _, ok := ev.(*cdppage.EventFileChooserOpened); ok {
			select {
			case chooser <- struct{}{}:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, cdppage.SetInterceptFileChooserDialog, cdppage.SetInterceptFileChooserDialogParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	p.do("Image…", chromedp.Click(chromedp.CSS(`[data-action="choose-image"]`)))
	select {
	case <-chooser:
	case <-time.After(wait):
		p.fail("Image… opened no file chooser")
	}
	p.until("the imports open", `document.querySelector('#imports').open`)
	p.do("choose the scan as the backdrop", chromedp.SetUploadFiles(chromedp.ID("image-file"), []string{pic}))
	p.until("the scan under the map", `document.querySelector('#field image') && JSON.parse(sessionStorage.getItem('orderly.editor')).doc.map.image`)

	// Calibrate: two hexes' printed centres clicked, their labels typed.
	label := func(c, r int) string { return fmt.Sprintf("%02d%02d", c+1, r+1) }
	pixel := func(c, r int) [2]float64 {
		x, y := sc.centre(c, r)
		return eval[[2]float64](p, fmt.Sprintf(`(() => { const b = document.querySelector('#field image').getBoundingClientRect();
			return [b.x + %g * b.width / %d, b.y + %g * b.height / %d]; })()`, x, sc.width(), y, sc.height()))
	}
	// The image's first placing is a guess: the field goes straight to
	// its calibration, and says what to click.
	p.until("the calibration under way", `document.querySelector('[data-tool="calibrate"]').getAttribute('aria-pressed') === 'true' && /click the centre of a hex/i.test(document.querySelector('.fe-hint').textContent)`)
	p.shot("accept-nes-backdrop")
	p.clickAt("click the centre of hex 0202 on the scan", pixel(1, 1))
	p.shot("accept-nes-calibrate")
	p.until("the first label's field", `document.querySelector('[data-cal="label1"]')`)
	p.setField(`[data-cal="label1"]`, label(1, 1))
	p.do("Next", chromedp.Click(chromedp.CSS(`[data-action="cal-next"]`)))
	p.clickAt("click the centre of hex 1006 on the scan", pixel(9, 5))
	p.until("the second label's field", `document.querySelector('[data-cal="label2"]')`)
	p.setField(`[data-cal="label2"]`, label(9, 5))
	p.do("Line up", chromedp.Click(chromedp.CSS(`[data-action="cal-apply"]`)))
	p.until("the grid calibrated, and the field saying so", `!document.querySelector('[data-cal]') && Math.abs(JSON.parse(sessionStorage.getItem('orderly.editor')).doc.map.image.dx - 36) < 1 &&
		/lined up/.test(document.querySelector('.fe-hint').textContent)`)
	var im struct{ X0, Y0, DX, DY float64 }
	if err := json.Unmarshal([]byte(p.docAt("map.image")), &im); err != nil {
		t.Fatal(err)
	}
	if math.Abs(im.X0-sc.x0) > 1.5 || math.Abs(im.Y0-sc.y0) > 1.5 || math.Abs(im.DX-sc.dx) > 0.5 || math.Abs(im.DY-sc.dy) > 0.5 {
		p.fail("calibrated to %+v, want the scan's x0 %g, y0 %g, dx %g, dy %g", im, sc.x0, sc.y0, sc.dx, sc.dy)
	}
	// The hexes drawn now lie on the printed ones.
	for _, h := range [][2]int{{0, 0}, {4, 3}, {m[0] - 1, m[1] - 1}} {
		if got, want := p.hexScreen(label(h[0], h[1])), pixel(h[0], h[1]); !near(got, want, 2) {
			p.fail("hex %s is drawn at %v, printed at %v", label(h[0], h[1]), got, want)
		}
	}

	// Woods painted over the scan's woods, a stroke over each pair.
	code, body := s.call(t, "GET", "/api/editor/nes", s.host, "")
	if code != 200 {
		t.Fatalf("the editor's NES info: %d %s", code, body)
	}
	var info struct {
		Terrain struct {
			Hexes []struct{ Letter, Name string }
		}
	}
	if err := json.Unmarshal([]byte(body), &info); err != nil {
		t.Fatal(err)
	}
	woods := ""
	for _, k := range info.Terrain.Hexes {
		if k.Name == "woods" {
			woods = k.Letter
		}
	}
	if woods == "" {
		t.Fatalf("NES has no woods among %+v", info.Terrain.Hexes)
	}
	p.do("choose the woods brush", chromedp.Click(chromedp.CSS(`[data-tool="terrain:`+woods+`"]`)))
	for _, pair := range [][2][2]int{{{10, 8}, {11, 8}}, {{16, 9}, {16, 10}}} {
		a, b := p.hexScreen(label(pair[0][0], pair[0][1])), p.hexScreen(label(pair[1][0], pair[1][1]))
		p.do("paint "+label(pair[0][0], pair[0][1])+" to "+label(pair[1][0], pair[1][1]), chromedp.DragAndDropXY(a[0], a[1], b[0], b[1], 8))
	}
	p.until("four hexes of woods", fmt.Sprintf(`(JSON.parse(sessionStorage.getItem('orderly.editor')).doc.map.terrain || '').split(%q).length === 5`, woods))
	for h := range sc.woods {
		if got := eval[string](p, fmt.Sprintf(`(() => { const m = JSON.parse(sessionStorage.getItem('orderly.editor')).doc.map; return m.terrain.split('\n')[%d][%d]; })()`, h[1], h[0])); got != woods {
			p.fail("hex %s is %q in the map's terrain, want the woods painted over the scan's", label(h[0], h[1]), got)
		}
	}
	p.do("back to Select", chromedp.Click(chromedp.CSS(`[data-tool="select"]`)))

	// The order of battle: the sides' nations, two divisions each with
	// two units, the attributes a general and a unit need.
	c := nesCase
	p.buildSides(c)
	// Every piece dragged from the tree onto the map: the French in the
	// sixth row, the Austrians in the fourteenth, about the map's middle.
	pieces := p.pieces()
	for i, path := range pieces {
		side := 0
		if strings.HasPrefix(path, "sides[1]") {
			side = 1
		}
		r := 5
		if side == 1 {
			r = 13
		}
		at := label(10+i%7, r)
		p.dragFromTree(path, p.hexScreen(at))
		p.until(path+" on "+at, fmt.Sprintf(`document.querySelector('#tree li[data-path=%q] > .ed-node.placed')`, path))
		if got := p.docAt(path + ".at"); got != `"`+at+`"` {
			p.fail("%s dragged onto %s is at %s", path, at, got)
		}
	}
	p.untilLoads()
	p.selectNode("sides[0].divisions[0]")
	p.do("zoom in", chromedp.Click(chromedp.CSS(`[data-action="zoom-in"]`)))
	p.shot("accept-nes-editor")
	if *updateDocs {
		eval[bool](p, `(document.querySelector('.ed-tree-pane').scrollTop = 0, true)`)
		p.docShot(filepath.Join("..", "docs", "editor.png"))
	}

	links := p.startGame("A battle over a scan")
	// The French play their command segment and move from the play page:
	// an order from the army commander to a division's general, its odds,
	// then a unit moved into a hex its reach offers.
	p.follow(links[strings.Trim(p.sideDoc(0, "id"), `"`)])
	p.until("the hex map", fmt.Sprintf(`document.querySelectorAll('#map .hx-cell').length === %d`, m[0]*m[1]))
	p.until("the scan under the play map", `document.querySelector('#map image')`)
	army, general := strings.Trim(p.sideDoc(0, "army.id"), `"`), strings.Trim(p.sideDoc(0, "divisions[0].general.id"), `"`)
	p.until("the command panel", `document.querySelector('#nes-from')`)
	p.choose("#nes-from", army)
	p.until(general+" offered as receiver", fmt.Sprintf(`document.querySelector('#nes-to option[value=%q]')`, general))
	p.choose("#nes-to", general)
	p.until("the delivery odds", `document.querySelector('#nes-odds tr[data-result="received"]')`)
	p.do("send", chromedp.Click(chromedp.CSS(`#nes-send`)))
	p.until("the order's result", `(document.querySelector('#nes-result') || {}).textContent?.includes('order')`)
	p.do("ready", chromedp.Click(chromedp.CSS(`#ready`)))
	p.until("the movement step", `document.querySelector('#step').textContent === 'move'`)
	unit := strings.Trim(p.sideDoc(0, "divisions[0].units[0].id"), `"`)
	at := eval[[]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector('#map [data-unit=%q] .box').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, unit))
	p.do("tap "+unit, chromedp.MouseClickXY(at[0], at[1]))
	p.until("its reach shaded", `document.querySelector('#map [data-reach]') && document.querySelector('#nes-left')`)
	to := eval[string](p, `[...document.querySelectorAll('#map [data-reach]')].map((e) => e.dataset.reach).sort().pop()`)
	p.do("choose a hex", chromedp.Click(chromedp.CSS(`#nes-pick-move`)))
	p.clickHex(to)
	p.until("the path and its cost", `/MP/.test((document.querySelector('#nes-path') || {}).textContent || '')`)
	p.do("move", chromedp.Click(chromedp.CSS(`#nes-move`)))
	p.until("the move made", fmt.Sprintf(`(document.querySelector('#nes-result') || {}).textContent?.includes('to %s')`, to))
	p.shot("accept-nes-play")
	p.umpireEndsTurn(links["umpire"])
	p.checkConsole()
}

// width and height are the scan's size in pixels.
func (sc scan) width() int  { return int(sc.x0 + float64(sc.cols)*sc.dx + 30) }
func (sc scan) height() int { return int(sc.y0 + (float64(sc.rows)+0.5)*sc.dy + 30) }

// acceptTable builds and plays the NB battle on a 72 x 48 inch table.
func acceptTable(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	// on a tablet: 1024 x 768, a touch screen
	p := newPage(t, browser(t, ctx, 1024, 768), "accept-nb", dir)
	p.do("touch screen", chromedp.EmulateViewport(1024, 768, chromedp.EmulateTouch))
	p.openEditor(s, "")
	p.until("the rule sets", `document.querySelector('#new-rules option[value="nb"]')`)
	p.do("New scenario", chromedp.SetValue(chromedp.ID("new-rules"), "nb"), chromedp.Click(chromedp.ID("new-scenario-btn")))
	p.landed("/edit")
	p.until("a blank NB scenario", `!document.querySelector('#editor').hidden && document.querySelector('#tree li[data-path="sides[1].army"]') && document.querySelector('#field .fe-table')`)
	p.selectNode("field")
	p.until("the first check", `/ok|bad/.test(document.querySelector('#check-status').className)`)
	p.shot("accept-nb-blank")
	p.setField(`#form [data-key="width"]`, "72")
	p.setField(`#form [data-key="depth"]`, "48")
	p.until("a 72 x 48 table", `(() => { const f = JSON.parse(sessionStorage.getItem('orderly.editor')).doc.field; return f.width === 72 && f.depth === 48; })()`)

	// A wood: its corners clicked with the first wood tool.
	tool := eval[string](p, `([...document.querySelectorAll('[data-tool^="area:"]')].find((b) => /wood/.test(b.dataset.tool)) || {dataset: {}}).dataset.tool || ''`)
	if tool == "" {
		p.fail("the table's tools have no wood: %v", eval[[]string](p, `[...document.querySelectorAll('[data-tool]')].map((b) => b.dataset.tool)`))
	}
	p.do("choose "+tool, chromedp.Click(chromedp.CSS(`[data-tool="`+tool+`"]`)))
	for _, c := range [][2]float64{{30, 20}, {42, 20}, {44, 28}, {30, 28}} {
		p.clickAt(fmt.Sprintf("the wood's corner (%g, %g)", c[0], c[1]), p.fieldScreen(c[0], c[1]))
	}
	p.do("close the wood", chromedp.KeyEvent("\r"))
	p.until("the wood in the field's features", `(JSON.parse(sessionStorage.getItem('orderly.editor')).doc.field.features || []).some((f) => f.area && f.area.length === 4)`)
	p.do("back to Select", chromedp.Click(chromedp.CSS(`[data-tool="select"]`)))

	c := editorCases[0]
	p.buildSides(c)
	pieces := p.pieces()
	for i, path := range pieces {
		y := 10.0
		if strings.HasPrefix(path, "sides[1]") {
			y = 38
		}
		x := float64(10 + (i%9)*6) // a place of its own on its side
		if y == 10 || p.docAt(path+".at") != "null" {
			p.dragFromTree(path, p.fieldScreen(x, y))
		} else {
			// the other side's new pieces as on a tablet: selected in the
			// tree, the table tapped where each goes
			p.selectNode(path)
			p.tap(p.fieldScreen(x, y))
		}
		p.until(path+" placed", fmt.Sprintf(`document.querySelector('#tree li[data-path=%q] > .ed-node.placed')`, path))
		// the field puts a piece on the half inch nearest the drop
		var got [2]float64
		if err := json.Unmarshal([]byte(p.docAt(path+".at")), &got); err != nil || !near(got, [2]float64{x, y}, 0.75) {
			p.fail("%s put at (%g, %g) is at %v (%v)", path, x, y, got, err)
		}
	}
	// The last piece dropped is selected, its place readable in its form.
	if got := eval[[]float64](p, `(() => { const x = document.querySelector('#form [data-key="at.0"]'); return [Number(x.value), x.getBoundingClientRect().width]; })()`); math.Abs(got[0]-float64(10+((len(pieces)-1)%9)*6)) > 0.5 || got[1] < 60 {
		p.fail("the form's x of the last piece dropped holds %v in a box %vpx wide, want its x in a box wide enough to read", got[0], got[1])
	}
	p.untilLoads()
	p.shot("accept-nb-editor")

	links := p.startGame("A battle on the table")
	side := strings.Trim(p.sideDoc(0, "id"), `"`)
	unit := strings.Trim(p.sideDoc(0, "divisions[0].units[0].id"), `"`)
	// The umpire ends the command step; the side moves a unit forward
	// three inches on the play page, then the umpire ends the turn.
	p.follow(links["umpire"])
	p.until("the umpire's page", `document.querySelector('#conn').textContent === 'live' && !document.querySelector('#end-step').hidden`)
	for range 10 {
		if eval[string](p, `document.querySelector('#step').textContent`) == "move" {
			break
		}
		p.endStep()
	}
	p.follow(links[side])
	p.until("the table and its movement step", `document.querySelector('#conn').textContent === 'live' && document.querySelector('#step').textContent === 'move' && document.querySelector('#map [data-unit]')`)
	sel := fmt.Sprintf(`#map [data-unit=%q]`, unit)
	from := p.pieceAt(sel)
	dy := -3.0 // towards the enemy, away from the side's base edge
	if p.sideDoc(0, "edge") == `"north"` {
		dy = 3
	}
	a, b := p.screenOf(from[0], from[1]), p.screenOf(from[0], from[1]+dy)
	p.do("drag "+unit+" forward", chromedp.DragAndDropXY(a[0], a[1], b[0], b[1], 12))
	p.until("the move logged", fmt.Sprintf(`[...document.querySelectorAll('#log li[data-type="moved"]')].some((li) => li.textContent.includes(%q))`, unit))
	if got := p.pieceAt(sel); !near(got, [2]float64{from[0], from[1] + dy}, 0.3) {
		p.fail("%s is at %v after the drag, want about (%g, %g)", unit, got, from[0], from[1]+dy)
	}
	p.shot("accept-nb-play")
	p.umpireEndsTurn(links["umpire"])
	p.checkConsole()
}

// buildSides adds to a blank scenario what c says: the sides' words, two
// formations a side with two units each, and every general's and unit's
// attributes, through the tree and the forms.
func (p *page) buildSides(c editorCase) {
	p.t.Helper()
	for side := range 2 {
		p.selectNode(fmt.Sprintf("sides[%d]", side))
		for k, v := range c.sides[side] {
			p.setField(`#form [data-key="`+k+`"]`, v)
		}
		for range 2 {
			p.selectNode(fmt.Sprintf("sides[%d]", side))
			p.do("add a formation", chromedp.Click(chromedp.CSS(`#form [data-add="`+c.formation+`"]`)))
		}
		for f := range 2 {
			p.selectNode(fmt.Sprintf("sides[%d].%s[%d]", side, c.formation, f))
			for k, v := range c.group {
				p.setField(`#form [data-key="`+k+`"]`, v)
			}
			p.setField("#bulk-count", "2")
			p.do("add two units", chromedp.Click(chromedp.ID("bulk-add")))
			p.until("the units", fmt.Sprintf(`document.querySelector('#tree li[data-path="sides[%d].%s[%d].units[1]"]')`, side, c.formation, f))
		}
	}
	for _, path := range p.pieces() {
		p.selectNode(path)
		vals := []map[string]string{c.unit}
		if strings.HasSuffix(path, "general") || strings.HasSuffix(path, ".army") {
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
	}
}

// pieces is the tree's pieces (generals and units), by path.
func (p *page) pieces() []string {
	p.t.Helper()
	return eval[[]string](p, `[...document.querySelectorAll('#tree .ed-node.piece')].map((b) => b.dataset.path)`)
}

// dragFromTree drags the tree's piece at path onto the field at a point
// of the window: the tree's button starts the drag (its dragstart fills
// the data), the field takes the drop.
func (p *page) dragFromTree(path string, at [2]float64) {
	p.t.Helper()
	ok := eval[bool](p, fmt.Sprintf(`(() => { const btn = document.querySelector('#tree li[data-path=%q] > .ed-node'); if (!btn || btn.draggable !== true) return false;
		const dt = new DataTransfer(); btn.dispatchEvent(new DragEvent('dragstart', {dataTransfer: dt, bubbles: true, cancelable: true}));
		const svg = document.getElementById('field');
		for (const type of ['dragenter', 'dragover', 'drop']) svg.dispatchEvent(new DragEvent(type, {dataTransfer: dt, clientX: %g, clientY: %g, bubbles: true, cancelable: true}));
		btn.dispatchEvent(new DragEvent('dragend', {dataTransfer: dt, bubbles: true}));
		return true; })()`, path, at[0], at[1]))
	if !ok {
		p.fail("could not drag %s from the tree", path)
	}
}

// sideDoc is the JSON of a value under a side of the document.
func (p *page) sideDoc(side int, rest string) string {
	p.t.Helper()
	return p.docAt(fmt.Sprintf("sides[%d].%s", side, rest))
}

// startGame starts a game from the editor, and returns its join links by
// side (and "umpire").
func (p *page) startGame(title string) map[string]string {
	p.t.Helper()
	p.do("open Start a game", chromedp.Click(chromedp.ID("start-open")))
	p.do("title it", chromedp.SetValue(chromedp.ID("title"), title))
	p.shot(p.name + "-start")
	p.do("start", chromedp.Click(chromedp.ID("start-game")))
	p.until("the join links", `document.querySelectorAll('#links a.join').length >= 3 && !document.querySelector('#created').hidden`)
	p.shot(p.name + "-created")
	links := eval[map[string]string](p, `Object.fromEntries([...document.querySelectorAll('#links a.join')].map((a) => [a.dataset.role === 'umpire' ? 'umpire' : a.dataset.side, a.href]))`)
	if links["umpire"] == "" {
		p.fail("no umpire's link among %v", links)
	}
	return links
}

// endStep ends the step with the umpire's button.
func (p *page) endStep() {
	p.t.Helper()
	p.until("the end-step button", `!document.querySelector('#end-step').disabled`)
	before := eval[string](p, `document.querySelector('#turn').textContent + ' ' + document.querySelector('#phase').textContent + ' ' + document.querySelector('#step').textContent`)
	p.do("end the step", chromedp.Click(chromedp.ID("end-step")),
		chromedp.WaitVisible(chromedp.ID("end-yes")), chromedp.Click(chromedp.ID("end-yes")))
	p.until("the next step", fmt.Sprintf(`document.querySelector('#turn').textContent + ' ' + document.querySelector('#phase').textContent + ' ' + document.querySelector('#step').textContent !== %q`, before))
}

// umpireEndsTurn opens the umpire's link and ends steps until the game is
// in its second turn.
func (p *page) umpireEndsTurn(link string) {
	p.t.Helper()
	p.follow(link)
	p.until("the umpire's page", `document.querySelector('#conn').textContent === 'live' && !document.querySelector('#end-step').hidden && document.querySelector('#turn').textContent !== '–'`)
	for range 30 {
		if eval[string](p, `document.querySelector('#turn').textContent`) == "2" {
			return
		}
		p.endStep()
	}
	p.fail("the game is not in its second turn after 30 steps")
}

// follow opens a join link in the page, as a new tab would: a link that
// differs from the page's only after its # would not load it again.
func (p *page) follow(link string) {
	p.t.Helper()
	if link == "" {
		p.fail("no join link to follow")
	}
	p.do("follow "+strings.SplitN(link, "#", 2)[0], chromedp.Navigate("about:blank"), chromedp.Navigate(link))
}

// docShot saves a screenshot of the window for the docs, compressed as
// well as PNG goes.
func (p *page) docShot(file string) {
	p.t.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.fail("screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		p.t.Fatal(err)
	}
	// The window's 256 commonest colours: a page is mostly flat colour,
	// and its antialiased edges take the nearest.
	count := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	common := slices.SortedFunc(maps.Keys(count), func(a, b color.RGBA) int {
		if d := count[b] - count[a]; d != 0 {
			return d
		}
		return int(a.R)<<16 + int(a.G)<<8 + int(a.B) - (int(b.R)<<16 + int(b.G)<<8 + int(b.B))
	})
	pal := color.Palette{}
	for _, c := range common[:min(256, len(common))] {
		pal = append(pal, c)
	}
	flat := image.NewPaletted(b, pal)
	draw.Draw(flat, b, img, b.Min, draw.Src)
	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, flat); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// tap touches the screen at a point of the window with one finger.
func (p *page) tap(at [2]float64) {
	p.t.Helper()
	id := 1.0
	for _, typ := range []input.DispatchTouchEventType{input.DispatchTouchEventTypeTouchStart, input.DispatchTouchEventTypeTouchEnd} {
		pts := []*input.TouchPoint{{X: at[0], Y: at[1], ID: &id}}
		if typ == input.DispatchTouchEventTypeTouchEnd {
			pts = []*input.TouchPoint{}
		}
		if _, err := chromedp.Call(p.ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts}); err != nil {
			p.fail("tap at %v: %v", at, err)
		}
	}
}
