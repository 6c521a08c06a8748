package battle_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/geom"
)

// FuzzLoad checks that Load never panics, that every error is one line
// placed in the file (at a line the file has), and that a scenario it
// accepts finishes again and has every on-board piece on its table or hex
// map. Each input is read with the NB rule set's spec (a table), the test
// rule set's, which adds attributes to the pieces and plays on either
// space, and the hex rule set's.
func FuzzLoad(f *testing.F) {
	f.Add(ldBase)
	f.Add(testBase)
	f.Add(ldReserveBase(f))
	f.Add(hexBase)
	for _, c := range ldBadCases {
		f.Add(c.src(f))
	}
	for _, c := range hexBadCases {
		f.Add(c.src(f))
	}
	f.Add("")
	f.Add("scenario: {}")
	f.Add("name: x\nrules: nb\nfield: {width: 1, depth: 1, grid: {columns: 1, rows: 1}}\nsides: [a, b]\n")
	f.Add("a: &x [*x, *x]\n")
	f.Fuzz(func(t *testing.T, src string) {
		for _, spec := range []battle.Spec{ldSpec, testSpec, hexSpec} {
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
				if err != nil || n < 1 || n > yamlLines(src) {
					t.Fatalf("error names line %q of a file with %d lines: %q", l[:i], yamlLines(src), msg)
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
	sp := sc.Space()
	if (sc.Map != nil) != (sp.Kind() == geom.KindHex) || sc.Map != nil && !sc.Field.Empty() {
		t.Fatalf("a %s space from map %v and field %+v", sp.Kind(), sc.Map, sc.Field)
	}
	if !slices.Contains(spec.Spaces, sp.Kind()) && len(spec.Spaces) > 0 {
		t.Fatalf("rule set %s plays on %v, not on a %s", spec.ID, spec.Spaces, sp.Kind())
	}
	for _, u := range sc.Units() {
		if u.OffBoard {
			if !sc.OffBoard(u.Division) {
				t.Errorf("unit %s is off board outside a reserve", u.ID)
			}
			continue
		}
		if !sp.Contains(u.At) {
			t.Errorf("unit %s at %v is off %s", u.ID, u.At, sp.Extent())
		}
		if u.Speed <= 0 {
			t.Errorf("unit %s has speed %v", u.ID, u.Speed)
		}
	}
	for _, g := range sc.Generals() {
		if !g.OffBoard && !sp.Contains(g.At) {
			t.Errorf("general %s at %v is off %s", g.ID, g.At, sp.Extent())
		}
	}
	for _, fm := range sc.Formations() {
		if fm.Entry != nil && sc.Map != nil {
			t.Errorf("formation %s enters at %q on a hex map", fm.ID, fm.Entry.Square)
		}
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

// yamlLines counts the lines of src as the YAML parser does: a line
// break is CR LF, LF, CR, NEL, LS or PS (a lone CR starts a line, as on
// old Macs).
func yamlLines(src string) int {
	n := 1 + strings.Count(src, "\n") + strings.Count(src, "\r") - strings.Count(src, "\r\n")
	return n + strings.Count(src, "\u0085") + strings.Count(src, "\u2028") + strings.Count(src, "\u2029")
}
