package server_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"orderly/server"
)

// TestRosterRoutes: the template of every rule set reads back through the
// roster route as two sides and no problems; a bad cell is answered with
// its row and column; neither route answers without the host token.
func TestRosterRoutes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, id := range []string{"nb", "bp", "nes", "cd", "lob"} {
		code, csv := f.call("GET", "/api/editor/"+id+"/roster.csv", f.host, nil, nil)
		if code != http.StatusOK {
			t.Fatalf("%s template: %d %s", id, code, csv)
		}
		var got server.RosterAnswer
		code, body := f.call("POST", "/api/editor/roster", f.host, server.RosterRequest{Rules: id, Text: string(csv), File: "t.csv"}, &got)
		if code != http.StatusOK || len(got.Problems) != 0 || len(got.Sides) != 2 {
			t.Errorf("%s: the template does not read back: %d %s\n%s", id, code, body, csv)
		}
	}
	text := "side,side-nation,division,role,id,quality,range,type\nfr,french,,general,nap,avg,12,\n"
	var got struct {
		Sides    []any
		Problems []struct {
			Row     int
			Column  string
			Message string
		}
	}
	code, body := f.call("POST", "/api/editor/roster", f.host, server.RosterRequest{Rules: "nb", Text: text, File: "c:\\x\\roster.csv"}, &got)
	if code != http.StatusOK || len(got.Sides) != 0 || len(got.Problems) == 0 {
		t.Fatalf("bad roster: %d %s", code, body)
	}
	if p := got.Problems[0]; p.Row != 2 || p.Column != "quality" || !strings.Contains(p.Message, `"avg" is not a quality of nb; allowed: excellent, good, average, poor`) {
		t.Errorf("first problem %+v", p)
	}
	for _, c := range []struct{ method, path string }{{"GET", "/api/editor/nb/roster.csv"}, {"POST", "/api/editor/roster"}, {"POST", "/api/editor/vmod"}} {
		if code, body := f.call(c.method, c.path, "", "{}", nil); code != http.StatusUnauthorized {
			t.Errorf("%s %s without the host token: %d %s", c.method, c.path, code, body)
		}
	}
	if code, body := f.call("GET", "/api/editor/zz/roster.csv", f.host, nil, nil); code != http.StatusNotFound || !strings.Contains(string(body), "no rule set") {
		t.Errorf("unknown rule set: %d %s", code, body)
	}
}

// TestVmodRoute: a module made here is read into a hex map with its
// image; one without a hex grid is refused in one sentence.
func TestVmodRoute(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	grid := `<VASSAL.build.module.map.boardPicker.board.HexGrid dx="56" dy="64" x0="40" y0="38" sideways="false"/>`
	mod := module(t, 400, 300, grid)
	var got server.VmodAnswer
	code, body := f.call("POST", "/api/editor/vmod", f.host, server.VmodRequest{Data: base64.StdEncoding.EncodeToString(mod), File: "x.vmod"}, &got)
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	m := got.Map
	if m.Columns != 7 || m.Rows != 4 || m.Layout != "odd-q" || m.Image.X0 != 40 || m.Image.Y0 != 38 || !strings.HasPrefix(m.Image.Data, "data:image/png;base64,") {
		t.Errorf("map %+v", m)
	}
	if len(got.Boards) != 1 || got.Boards[0] != "Main" || got.Board != "Main" {
		t.Errorf("boards %v, board %s", got.Boards, got.Board)
	}
	code, body = f.call("POST", "/api/editor/vmod", f.host, server.VmodRequest{Data: base64.StdEncoding.EncodeToString(module(t, 40, 30, "")), File: "flat.vmod"}, nil)
	if e := apiError(t, body); code != http.StatusBadRequest || e.Msg != `flat.vmod: no board of the module has a hex grid (boards: "Main"); a board with a hex grid is needed` {
		t.Errorf("no grid: %d %s", code, body)
	}
}

// module is a .vmod of one board, Main, with a w by h PNG and grid (an
// element of buildFile.xml, or none).
func module(t *testing.T, w, h int, grid string) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 90, 255})
		}
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, img); err != nil {
		t.Fatal(err)
	}
	build := `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule name="Test" version="1">
  <VASSAL.build.module.Map mapName="Main Map">
    <VASSAL.build.module.map.BoardPicker>
      <VASSAL.build.module.map.boardPicker.Board image="board.png" name="Main">` + grid + `</VASSAL.build.module.map.boardPicker.Board>
    </VASSAL.build.module.map.BoardPicker>
  </VASSAL.build.module.Map>
</VASSAL.build.GameModule>`
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, e := range []struct {
		name string
		data []byte
	}{{"buildFile.xml", []byte(build)}, {"images/board.png", pic.Bytes()}} {
		fw, err := zw.Create(e.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestImportBodyBounds: a module over the server's limit for editor
// imports, and a roster over its limit for uploads, are refused in one
// sentence with 413.
func TestImportBodyBounds(t *testing.T) {
	t.Parallel()
	f := newFixture(t, server.WithLimits(server.Limits{Module: 2000, Upload: 1000}))
	big := strings.Repeat("A", 2000)
	code, body := f.call("POST", "/api/editor/vmod", f.host, server.VmodRequest{Data: big}, nil)
	if e := apiError(t, body); code != http.StatusRequestEntityTooLarge || e.Msg != "the request body is over this server's limit of 2000 bytes for it" {
		t.Errorf("module: %d %s", code, body)
	}
	code, body = f.call("POST", "/api/editor/roster", f.host, server.RosterRequest{Rules: "nb", Text: big[:1000]}, nil)
	if code != http.StatusRequestEntityTooLarge {
		t.Errorf("roster: %d %s", code, body)
	}
	code, body = f.call("POST", "/api/editor/vmod", f.host, server.VmodRequest{Data: "not base64!", File: "../../etc/x.vmod"}, nil)
	if e := apiError(t, body); code != http.StatusBadRequest || e.Msg != "data: x.vmod is not in base64; send the .vmod file's bytes in base64 (or as a data URL)" {
		t.Errorf("not base64: %d %s", code, body)
	}
}
