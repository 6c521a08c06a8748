package postgres

import (
	"testing"

	"orderly/store"
)

// FuzzNotice: a payload that parses is the payload of what it parses to,
// and every notice survives the trip.
func FuzzNotice(f *testing.F) {
	for _, s := range []string{"3 g1", "0 g", "revoked 0102 g2", "revoked  g", "x g", "-1 g", "revoked zz g", "12", "", "seeds 4 g", "seeds x g", "seeds 4", "deleted g", "deleted ", "deleted"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := parseNotice(s)
		if !ok {
			return
		}
		if n.Game == "" || (n.Revoked != "" && (n.Version != 0 || n.Seeds)) || (n.Deleted && (n.Version != 0 || n.Seeds || n.Revoked != "")) {
			t.Fatalf("%q parsed to %+v", s, n)
		}
		back, ok := parseNotice(payload(n))
		if !ok || back != n {
			t.Fatalf("%+v does not survive its payload %q: %+v", n, payload(n), back)
		}
	})
}

func TestNoticePayload(t *testing.T) {
	for _, n := range []store.Notice{{Game: "abc", Version: 7}, {Game: "abc", Revoked: "\x00\xff"}, {Game: "a b", Version: 1}, {Game: "g", Version: 9, Seeds: true}, {Game: "a b", Deleted: true}} {
		if back, ok := parseNotice(payload(n)); !ok || back != n {
			t.Errorf("%+v comes back as %+v (%v)", n, back, ok)
		}
	}
}
