package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"orderly/archive"
)

// post sends a JSON body to the server's handler as the token's holder
// and returns the recorded answer.
func post(h http.Handler, path, token, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	req.Host = "localhost"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// TestEditorBusy: the editor's checks and imports are worked on at most
// Limits.Editor at once (each may take a large board's memory); one more
// waits CommandWait and is refused as busy, 503 with Retry-After, in one
// sentence; a module waits for another's board to be read (one at a
// time: scaling one may take 250 MB); once a place is free the same
// request is answered.
func TestEditorBusy(t *testing.T) {
	w, host := editorServer(t)
	w.srv.lim.CommandWait = time.Millisecond
	h := w.srv.Handler()
	check, _ := json.Marshal(CheckRequest{Source: "name: x\n"})
	for range cap(w.srv.work) {
		w.srv.work <- struct{}{}
	}
	for _, c := range []struct{ path, body string }{
		{"/api/editor/check", string(check)},
		{"/api/editor/roster", `{"rules": "nb", "text": "side\n"}`},
		{"/api/editor/vmod", `{"data": "UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA=="}`},
	} {
		a := post(h, c.path, host, c.body)
		var e errorBody
		_ = json.Unmarshal(a.Body.Bytes(), &e)
		if a.Code != http.StatusServiceUnavailable || e.Error == nil || e.Error.Code != Busy || a.Header().Get("Retry-After") != "1" ||
			!strings.Contains(e.Error.Msg, "checking or importing 2 scenarios, rosters or modules at once") {
			t.Errorf("%s with every place taken: %d %v %s", c.path, a.Code, a.Header(), a.Body)
		}
	}
	<-w.srv.work

	// One module's board at a time, with a place to spare.
	w.srv.boards <- struct{}{}
	a := post(h, "/api/editor/vmod", host, `{"data": "UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA=="}`)
	if a.Code != http.StatusServiceUnavailable || a.Header().Get("Retry-After") != "1" || !strings.Contains(a.Body.String(), "reading another module's board") {
		t.Errorf("a module while another's board is read: %d %s", a.Code, a.Body)
	}
	<-w.srv.boards
	if a := post(h, "/api/editor/check", host, string(check)); a.Code != http.StatusOK {
		t.Errorf("the check with a place free: %d %s", a.Code, a.Body)
	}
	if n := len(w.srv.work); n != cap(w.srv.work)-1 {
		t.Errorf("the check did not give its place back: %d taken", n)
	}
}

// TestScenarioTextBound: a scenario whose YAML is over battle.MaxText
// beside its image (a flow list of two million numbers, which would take
// the parser most of a gigabyte) is refused before it is parsed: by the
// editor's check as its one problem, by a new game and by an imported
// game with 413, in one sentence naming the bound; a scenario that is
// long only by its image's data URL is still read.
func TestScenarioTextBound(t *testing.T) {
	w, host := editorServer(t)
	h := w.srv.Handler()
	flood := "name: [" + strings.Repeat("0,", 2<<20) + "0]\n"
	start := time.Now()
	c := w.srv.check("flood.yaml", []byte(flood))
	const msg = "flood.yaml: the scenario is 4194314 bytes beside its backdrop image; allowed: at most 1048576 bytes (1024 KiB), besides the image's data URL"
	if c.OK || len(c.Problems) != 1 || c.Problems[0].Message != msg {
		t.Errorf("check of a flood: %+v", c.Problems)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the flood took %v to refuse", took)
	}
	body, _ := json.Marshal(Setup{Source: flood, File: "flood.yaml"})
	if a := post(h, "/api/games", host, string(body)); a.Code != http.StatusRequestEntityTooLarge || !strings.Contains(a.Body.String(), msg) {
		t.Errorf("a new game of a flood: %d %.300s", a.Code, a.Body)
	}
	if _, err := w.srv.Import(context.Background(), &archive.Game{Scenario: archive.Scenario{File: "flood.yaml", Source: flood}}, false); err == nil || !strings.Contains(err.Error(), msg) {
		t.Errorf("an imported flood: %v", err)
	}

	// Under the bytes' bound but over the values' (battle.MaxNodes):
	// refused once parsed, before the document, the canonical form and
	// the loader would cost most of a gigabyte between them.
	many := "name: x\nrules: nb\nturns: [" + strings.Repeat("0,", 1<<19-20) + "0]\n"
	start = time.Now()
	c = w.srv.check("many.yaml", []byte(many))
	if c.OK || len(c.Problems) != 1 || c.Problems[0].Line != 1 || c.Problems[0].Message != "the scenario has more than 100000 values (keys, numbers, texts, lists and mappings); allowed: at most 100000" || string(c.Doc) != "null" {
		t.Errorf("check of many values: %+v", c.Problems)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("many values took %v to refuse", took)
	}

	// A 3 MiB image (not a picture: the loader says so, after the bound).
	src, err := os.ReadFile("../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	url := "data:image/png;base64," + base64.StdEncoding.EncodeToString(make([]byte, 3<<20))
	long := strings.Replace(string(src), "grid: {columns: 8, rows: 4}}", "grid: {columns: 8, rows: 4}, image: {data: \""+url+"\", scale: 1}}", 1)
	c = w.srv.check("long.yaml", []byte(long))
	if len(c.Problems) != 1 || !strings.Contains(c.Problems[0].Message, "field.image.data: the data is not a PNG, JPEG or GIF image") {
		t.Errorf("check of a long image: %+v", c.Problems)
	}
}

// TestFileNames: the file named in a check is only a name for its
// messages: one with a directory, a control character or a line
// separator (which would break a problem's one line) is refused in one
// sentence saying what a name may be; a module sent without a name is
// called by a name in its messages, not "the module: the module...".
func TestFileNames(t *testing.T) {
	w, host := editorServer(t)
	h := w.srv.Handler()
	for _, file := range []string{"../etc/passwd", `C:\x.yaml`, "a\rb.yaml", "a\u2028b.yaml", "a\x1b[2Jb.yaml"} {
		body, _ := json.Marshal(CheckRequest{Source: "name: x\n", File: file})
		a := post(h, "/api/editor/check", host, string(body))
		if a.Code != http.StatusBadRequest || !strings.Contains(a.Body.String(), "is not a file's name; give a name such as battle.yaml, without a directory or control characters") {
			t.Errorf("file %q: %d %s", file, a.Code, a.Body)
		}
	}
	// A module sent without its name is called module.vmod.
	a := post(h, "/api/editor/vmod", host, `{"data": "UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA=="}`)
	if want := `"module.vmod: the module has no buildFile.xml (nor buildFile); is it a VASSAL module?"`; a.Code != http.StatusBadRequest || !strings.Contains(a.Body.String(), want) {
		t.Errorf("a module without a name: %d %s", a.Code, a.Body)
	}
}

// TestEditorBodyHoldsPlace: a request of the editor takes its place
// before its body is read, so that bodies sent at once cannot together
// hold more memory than the places allow: one whose body is still coming
// holds a place, and the place is given back when it ends.
func TestEditorBodyHoldsPlace(t *testing.T) {
	w, host := editorServer(t)
	w.srv.lim.CommandWait = time.Millisecond
	w.srv.work <- struct{}{} // one place taken: one left
	pr, pw := io.Pipe()
	defer pw.Close() // on a failure too: the test server waits for the request to end
	req, err := http.NewRequest("POST", w.ts.URL+"/api/editor/vmod", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+host)
	done := make(chan int)
	go func() {
		resp, err := w.ts.Client().Do(req)
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	if _, err := pw.Write([]byte(`{"data": "UEsFBgAAAAAAAA`)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); len(w.srv.work) < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a request whose body is still coming holds no place")
		}
	}
	check, _ := json.Marshal(CheckRequest{Source: "name: x\n"})
	if a := post(w.srv.Handler(), "/api/editor/check", host, string(check)); a.Code != http.StatusServiceUnavailable {
		t.Errorf("a check with both places held: %d %s", a.Code, a.Body)
	}
	pw.Close()
	if code := <-done; code != http.StatusBadRequest {
		t.Errorf("the body cut short: %d", code)
	}
	if n := len(w.srv.work); n != 1 {
		t.Errorf("%d places taken once the request ended, want 1", n)
	}
}
