package gametest

import (
	"bytes"
	"encoding/json"
	"testing"

	"orderly/game"
)

// Told is what side is told in g, as JSON: the events it may see, as it
// is shown them (numbered as it numbers them, hashes dropped, each with
// its description), and its board (the step, its view, and the offers,
// annotations and ids the page is given beside it).
func Told(t testing.TB, g *game.Game, side string) (events, board []byte) {
	t.Helper()
	type shown struct {
		E game.Event `json:"e"`
		D string     `json:"d"`
	}
	var evs []shown
	g.Scan(0, func(e *game.Event) {
		if !e.Visible(side) {
			return
		}
		c := e.Shown(side, g.Fog() != game.FogOff)
		c.Seq, c.Hash = len(evs)+1, ""
		evs = append(evs, shown{c, g.Describe(&c, nil)})
	})
	view, step := g.Sees(side), g.Step()
	b := struct {
		Step   game.Step           `json:"step"`
		Acting []string            `json:"acting"`
		View   *game.State         `json:"view"`
		Offers map[string][]string `json:"offers"`
		Extra  any                 `json:"extra"`
		Seen   []string            `json:"seen"`
	}{Step: step, Acting: g.Acting(), View: view}
	r := g.Rules()
	b.Offers, b.Extra, b.Seen = r.Offers(view, step, side), r.Annotate(view, step, side), r.Seen(view)
	var err error
	if events, err = json.Marshal(evs); err != nil {
		t.Fatal(err)
	}
	if board, err = json.Marshal(b); err != nil {
		t.Fatal(err)
	}
	return events, board
}

// SameTold fails t unless side knows the same in a and b (Knows) and is
// told the same in both (Told): the regression tests of a fog review
// play two games that differ only in what enemy pieces the side does not
// spot did.
func SameTold(t testing.TB, a, b *game.Game, side, when string) {
	t.Helper()
	if ka, kb := Knows(a, side), Knows(b, side); !bytes.Equal(ka, kb) {
		t.Fatalf("%s: %s knows %s in one game and %s in the other", when, side, ka, kb)
	}
	ea, ba := Told(t, a, side)
	eb, bb := Told(t, b, side)
	if !bytes.Equal(ea, eb) {
		t.Errorf("%s: %s is shown different events:\n%s", when, side, Around(ea, eb))
	}
	if !bytes.Equal(ba, bb) {
		t.Errorf("%s: %s is given different boards:\n%s", when, side, Around(ba, bb))
	}
}

// Around shows two texts about their first difference.
func Around(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-160)
	return "one:   …" + string(a[lo:min(len(a), i+120)]) + "…\nother: …" + string(b[lo:min(len(b), i+120)]) + "…"
}
