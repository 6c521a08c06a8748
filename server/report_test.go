package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"orderly/server"
)

// TestReportRoute: the umpire may read a game's after-action report at
// any time, as JSON or as the printable page; a side is refused in one
// sentence until the game is over, and may read it then; a format not
// known is refused.
func TestReportRoute(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	if code, body := f.call("POST", g+"/commands", tok["french"], `{"write":{"for":["F-I"],"kind":"attack","objective":[30,12]}}`, nil); code != 200 {
		t.Fatalf("write: %d %s", code, body)
	}
	type rep struct {
		Over    bool   `json:"over"`
		Summary string `json:"summary"`
		Orders  []struct {
			Order string `json:"order"`
		} `json:"orders"`
		Turn []struct {
			Number int    `json:"number"`
			Map    string `json:"map"`
		} `json:"turn"`
	}
	var r rep
	if code, body := f.call("GET", g+"/report", tok["umpire"], nil, &r); code != 200 {
		t.Fatalf("the umpire's report: %d %s", code, body)
	}
	if r.Over || r.Summary == "" || len(r.Turn) == 0 || !strings.HasPrefix(r.Turn[len(r.Turn)-1].Map, "<svg") {
		t.Fatalf("the umpire's report mid-game: %+v", r)
	}
	if !strings.Contains(strings.Join(func() []string {
		var s []string
		for _, o := range r.Orders {
			s = append(s, o.Order)
		}
		return s
	}(), " "), "french-5") {
		t.Errorf("the order written on turn 1 is not among the report's: %+v", r.Orders)
	}
	code, page := f.call("GET", g+"/report?format=html", tok["umpire"], nil, nil)
	if code != 200 || !strings.HasPrefix(string(page), "<!doctype html>") || !strings.Contains(string(page), "<svg") || strings.Contains(string(page), "<script") {
		t.Fatalf("the page: %d %.300s", code, page)
	}
	for _, side := range []string{"french", "allies"} {
		code, body := f.call("GET", g+"/report", tok[side], nil, nil)
		if e := apiError(t, body); code != 403 || e.Code != server.Forbidden || !strings.Contains(e.Msg, "once the game is over") {
			t.Fatalf("%s before the end: %d %s", side, code, body)
		}
	}
	code, body := f.call("GET", g+"/report?format=pdf", tok["umpire"], nil, nil)
	if e := apiError(t, body); code != 400 || !strings.Contains(e.Msg, "allowed: json, html") {
		t.Fatalf("format=pdf: %d %s", code, body)
	}
	for n := 0; ; n++ {
		if n == 500 {
			t.Fatal("the game is not over after 500 steps")
		}
		if code, _ := f.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil); code != 200 {
			break
		}
	}
	var end rep
	code, body = f.call("GET", g+"/report", tok["allies"], nil, &end)
	if code != 200 || !end.Over {
		t.Fatalf("allies after the end: %d %.300s", code, body)
	}
	if !json.Valid(body) {
		t.Fatal("not JSON")
	}
}
