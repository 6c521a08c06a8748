package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
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
// sentence; once a place is free the same request is answered.
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
	if a := post(h, "/api/editor/check", host, string(check)); a.Code != http.StatusOK {
		t.Errorf("the check with a place free: %d %s", a.Code, a.Body)
	}
	if n := len(w.srv.work); n != cap(w.srv.work)-1 {
		t.Errorf("the check did not give its place back: %d taken", n)
	}
}
