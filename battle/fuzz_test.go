package battle_test

import (
	"strconv"
	"strings"
	"testing"

	"orderly/battle"
)

// FuzzLoad checks that Load never panics, that every error is one line
// placed in the file (at a line the file has), and that a scenario it
// accepts finishes again and has every on-board piece on the table. Each
// input is read with the NB rule set's spec and with the test rule set's,
// which adds attributes to the pieces.
func FuzzLoad(f *testing.F) {
	f.Add(ldBase)
	f.Add(testBase)
	f.Add(ldReserveBase(f))
	for _, c := range ldBadCases {
		f.Add(c.src(f))
	}
	f.Add("")
	f.Add("scenario: {}")
	f.Add("name: x\nrules: nb\nfield: {width: 1, depth: 1, grid: {columns: 1, rows: 1}}\nsides: [a, b]\n")
	f.Add("a: &x [*x, *x]\n")
	f.Fuzz(func(t *testing.T, src string) {
		for _, spec := range []battle.Spec{ldSpec, testSpec} {
			fuzzLoad(t, src, spec)
		}
	})
}

func fuzzLoad(t *testing.T, src string, spec battle.Spec) {
	sc, err := battle.Load(ldFile, []byte(src), spec)
	if err != nil {
		msg := err.Error()
		if strings.ContainsAny(msg, "\n\r") {
			t.Fatalf("error is more than one line: %q", msg)
		}
		rest, ok := strings.CutPrefix(msg, ldFile)
		if !ok {
			t.Fatalf("error does not start with the file name: %q", msg)
		}
		if !strings.HasPrefix(rest, ":") {
			t.Fatalf("error does not start with %q: %q", ldFile+":", msg)
		}
		if l := rest[1:]; l != "" && l[0] >= '0' && l[0] <= '9' {
			if i := strings.IndexByte(l, ':'); i > 0 {
				n, err := strconv.Atoi(l[:i])
				if err != nil || n < 1 || n > strings.Count(src, "\n")+1 {
					t.Fatalf("error names line %q of a file with %d lines: %q", l[:i], strings.Count(src, "\n")+1, msg)
				}
			}
		}
		return
	}
	if err := sc.Finish(); err != nil {
		t.Fatalf("Load accepted the scenario but Finish fails: %v", err)
	}
	if len(sc.Sides) != 2 {
		t.Fatalf("%d sides", len(sc.Sides))
	}
	for _, u := range sc.Units() {
		if u.OffBoard {
			if !sc.OffBoard(u.Division) {
				t.Errorf("unit %s is off board outside a reserve", u.ID)
			}
			continue
		}
		if !sc.Field.Contains(u.At) {
			t.Errorf("unit %s at %v is off the %vx%v table", u.ID, u.At, sc.Field.Width, sc.Field.Depth)
		}
		if u.Speed <= 0 {
			t.Errorf("unit %s has speed %v", u.ID, u.Speed)
		}
	}
	for _, g := range sc.Generals() {
		if !g.OffBoard && !sc.Field.Contains(g.At) {
			t.Errorf("general %s at %v is off the table", g.ID, g.At)
		}
	}
	for _, fm := range sc.Formations() {
		if fm.Entry != nil {
			r, err := sc.Field.Square(fm.Entry.Square)
			if err != nil {
				t.Errorf("formation %s enters at %q: %v", fm.ID, fm.Entry.Square, err)
				continue
			}
			mid := sc.Field.EdgeMid(r, fm.Entry.Edge)
			if !sc.Field.Contains(mid) {
				t.Errorf("formation %s enters at %v, off the table", fm.ID, mid)
			}
		}
	}
}
