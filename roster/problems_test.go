package roster

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"orderly/battle"
)

// nbHead is the header of the nb rosters below.
const nbHead = "side,side-nation,corps,division,role,id,quality,range,type,at\n"

// nbArmy is a whole small nb roster, for the cases to spoil.
const nbArmy = `fr,french,,,general,nap,good,12,,
fr,,I,,general,ney,good,8,,
fr,,I,1,general,q,good,4,,
fr,,I,1,unit,u1,,,infantry,10 10
al,british,,,general,well,good,12,,
al,,,2,general,c,good,4,,
al,,,2,unit,g1,,,infantry,10 30
`

// TestProblems: each mistake is reported once, at its row and column,
// saying what is allowed, and no sides are given.
func TestProblems(t *testing.T) {
	for _, c := range []struct {
		name, rules, text string
		row               int
		col, msg          string
	}{
		{"quality", "nb", nbHead + strings.Replace(nbArmy, "nap,good", "nap,avg", 1),
			2, "quality", `"avg" is not a quality of nb; allowed: excellent, good, average, poor`},
		{"unknown column", "nb", strings.Replace(nbHead, "quality", "qualty", 1) + nbArmy,
			1, "qualty", `"qualty" is not a column of a nb roster (did you mean quality?); allowed: side, side-name,`},
		{"no side column", "nb", "id,role\nx,general\n", 1, "side", "the header has no column side; every row names its side"},
		{"role", "nb", nbHead + strings.Replace(nbArmy, "unit,u1", "colonel,u1", 1),
			5, "role", `"colonel" is not a role; allowed: general, unit (empty is unit)`},
		{"number", "nb", nbHead + strings.Replace(nbArmy, "good,8", "good,eight", 1),
			3, "range", `"eight" is not a number; allowed: a number more than 0 up to 1000`},
		{"range", "nb", nbHead + strings.Replace(nbArmy, "good,8", "good,0", 1),
			3, "range", `0 is out of range; allowed: a number more than 0 up to 1000`},
		{"position", "nb", nbHead + strings.Replace(nbArmy, "10 10", "ten", 1),
			5, "at", `"ten" is not a position; allowed: x y in inches, e.g. 12 30`},
		{"missing type", "nb", nbHead + strings.Replace(nbArmy, "infantry,10 10", ",10 10", 1),
			5, "type", "a unit needs type; allowed: infantry, light-cavalry, heavy-cavalry, artillery"},
		{"unit field on a general", "nb", nbHead + strings.Replace(nbArmy, "good,12,,", "good,12,infantry,", 1),
			2, "type", "a general has no type (a unit has); leave the cell empty"},
		{"id twice", "nb", nbHead + strings.Replace(nbArmy, "g1", "u1", 1),
			8, "id", "the id u1 is used in row 5 already; every id is used once"},
		{"third side", "nb", nbHead + nbArmy + "ru,russian-1809-1814,,,general,k,good,12,,\n",
			9, "side", `"ru" would be a third side (there are fr and al); a battle has two sides`},
		{"no general", "nb", nbHead + strings.Replace(nbArmy, "fr,,I,1,general,q,good,4,,\n", "", 1),
			4, "division", "division 1 has no general; add a row with role general whose deepest formation is division 1"},
		{"no army commander", "nb", nbHead + strings.Replace(nbArmy, "al,british,,,general,well,good,12,,\n", "", 1),
			6, "side", "side al has no army commander; add a row with role general that names side al and no formation"},
		{"unit of the army", "nb", nbHead + strings.Replace(nbArmy, "al,british,,,general,well,good,12,,\n", "al,british,,,,,,,,\n", 1),
			6, "side", "a unit belongs to a division; name it in its column (this row's deepest formation is the army of side al)"},
		{"two places", "nb", nbHead + nbArmy + "fr,,II,1,unit,u3,,,infantry,\n",
			9, "division", "division 1 is under corps I in row 4, not under corps II; a formation has one place"},
		{"no nation", "nb", nbHead + strings.ReplaceAll(nbArmy, "british", ""),
			6, "side-nation", "side al has no nation; give it in column side-nation on one of its rows; allowed: french, british,"},
		{"sides disagree", "nb", nbHead + strings.Replace(nbArmy, "fr,,I,,", "fr,british,I,,", 1),
			3, "side-nation", `side fr has nation "french" in row 2; rows that give it agree`},
		{"brigade without division", "nes", "side,side-nation,corps,brigade,role,id,range\nfr,french,,,general,n,5\nfr,,I,B,general,b,2\n",
			3, "brigade", "in nes a brigade is not under corps I; it stands under a division; name that in its column"},
		{"hex label", "nes", "side,side-nation,role,id,range,at\nfr,french,general,n,5,12 30\n",
			2, "at", `"12 30" is not a position; allowed: a hex label such as 0412`},
		{"cell too long", "nb", nbHead + strings.Replace(nbArmy, "nap", strings.Repeat("n", MaxCell+1), 1),
			2, "id", "the cell has 201 characters; allowed: at most 200"},
		{"csv", "nb", nbHead + "fr,\"french,,\n", 2, "", "the text does not read as CSV"},
		{"empty", "nb", "", 0, "", "the roster is empty; it needs a header line naming its columns"},
		{"header only", "nb", nbHead, 0, "", "the roster has a header but no rows"},
		{"not utf-8", "nb", nbHead + "fr,\xff\n", 0, "", "the roster is not UTF-8 text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ro, err := Read("roster.csv", []byte(c.text), spec(t, c.rules))
			if err != nil {
				t.Fatal(err)
			}
			if len(ro.Problems) == 0 {
				t.Fatalf("no problem; sides %v", ro.Sides)
			}
			p := ro.Problems[0]
			if p.Row != c.row || p.Column != c.col || !strings.HasPrefix(p.Message, c.msg) {
				t.Errorf("got row %d, column %q: %s\nwant row %d, column %q: %s...", p.Row, p.Column, p.Message, c.row, c.col, c.msg)
			}
			if ro.Sides != nil {
				t.Errorf("sides given with problems")
			}
		})
	}
}

// TestErrNamesRowAndColumn: the problems as an error say the file, the
// row and the column, as the issue asks.
func TestErrNamesRowAndColumn(t *testing.T) {
	ro, err := Read("roster.csv", []byte(nbHead+strings.Replace(nbArmy, "q,good", "q,avg", 1)), spec(t, "nb"))
	if err != nil {
		t.Fatal(err)
	}
	want := `roster.csv row 4, column quality: "avg" is not a quality of nb; allowed: excellent, good, average, poor`
	if got := ro.Err(); got == nil || got.Error() != want {
		t.Errorf("got %v\nwant %s", got, want)
	}
}

// TestBounds: rows, columns and size past their bounds are refused in one
// problem; problems stop at MaxProblems.
func TestBounds(t *testing.T) {
	sp := spec(t, "nb")
	many := nbHead + strings.Repeat("fr,french,,,general,,bad,12,,\n", MaxRows+1)
	for _, c := range []struct{ text, want string }{
		{strings.Repeat("x", MaxSize+1), "the roster is 1048577 bytes; allowed: at most 1048576"},
		{strings.Repeat("side,", MaxColumns) + "id\n", "the header has 65 columns; allowed: at most 64"},
	} {
		ro, err := Read("r.csv", []byte(c.text), sp)
		if err != nil {
			t.Fatal(err)
		}
		if len(ro.Problems) != 1 || ro.Problems[0].Message != c.want {
			t.Errorf("got %v, want %s", ro.Problems, c.want)
		}
	}
	ro, err := Read("r.csv", []byte(many), sp)
	if err != nil {
		t.Fatal(err)
	}
	if len(ro.Problems) != MaxProblems {
		t.Errorf("%d problems, want %d", len(ro.Problems), MaxProblems)
	}
	long := nbHead + strings.Repeat("fr,french,,,general,x,good,12,,\n", 0) + strings.Repeat(",,,,,,,,,\n", MaxRows) + "fr,french,,,general,n,good,12,,\n"
	ro, _ = Read("r.csv", []byte(long), sp)
	if len(ro.Problems) != 1 || !strings.HasPrefix(ro.Problems[0].Message, "the roster has more than 5000 rows") {
		t.Errorf("long: %v", ro.Problems)
	}
}

// FuzzRoster: any text is read or refused with problems of one line each,
// never a panic; sides come only without problems, and what is read
// writes back to a roster that reads to the same sides.
func FuzzRoster(f *testing.F) {
	f.Add("nb", nbHead+nbArmy)
	for _, c := range knownRosters {
		f.Add(c.rules, c.csv)
	}
	f.Add("bp", "side\trole\nfr\tgeneral\n")
	specs := map[string]battle.Spec{}
	for _, id := range []string{"nb", "nes", "lob", "bp", "cd"} {
		specs[id] = spec(f, id)
	}
	f.Fuzz(func(t *testing.T, rules, text string) {
		if _, ok := specs[rules]; !ok {
			rules = "nb"
		}
		ro, err := Read("f.csv", []byte(text), specs[rules])
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ro.Problems {
			if strings.Contains(p.Message, "\n") || !utf8.ValidString(p.Message) {
				t.Errorf("problem %q", p.Message)
			}
		}
		if len(ro.Problems) > 0 && ro.Sides != nil || len(ro.Problems) == 0 && len(ro.Sides) == 0 {
			t.Errorf("%d problems and %d sides", len(ro.Problems), len(ro.Sides))
		}
		if len(ro.Sides) == 0 {
			return
		}
		first, err := json.Marshal(ro.Sides)
		if err != nil {
			t.Fatal(err)
		}
		var sides []any
		if err := json.Unmarshal(first, &sides); err != nil {
			t.Fatal(err)
		}
		again, err := Write(specs[rules], sides)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Read("again.csv", again, specs[rules])
		if err != nil || back.Err() != nil {
			t.Fatalf("written back:\n%s\n%v %v", again, err, back.Err())
		}
		second, _ := json.Marshal(back.Sides)
		if string(first) != string(second) {
			t.Errorf("read %s\nwritten and read back %s", first, second)
		}
	})
}

// TestSeparators: the same roster as CSV, as tab-separated text and as
// semicolon-separated CSV with decimal commas reads to the same sides.
func TestSeparators(t *testing.T) {
	sp := spec(t, "nb")
	comma := nbHead + strings.Replace(nbArmy, "good,8,", "good,8.5,", 1)
	tab := strings.ReplaceAll(comma, ",", "\t")
	semi := strings.ReplaceAll(strings.Replace(comma, "8.5", "8#5", 1), ",", ";")
	semi = strings.Replace(semi, "8#5", "8,5", 1)
	var want string
	for i, text := range []string{comma, tab, semi} {
		ro, err := Read("r", []byte(text), sp)
		if err != nil || ro.Err() != nil {
			t.Fatalf("%d: %v %v\n%s", i, err, ro.Err(), text)
		}
		got, _ := json.Marshal(ro.Sides)
		if i == 0 {
			want = string(got)
			if !strings.Contains(want, `"range":8.5`) {
				t.Errorf("range 8.5 not read: %s", want)
			}
		} else if string(got) != want {
			t.Errorf("%d: got %s\nwant %s", i, got, want)
		}
	}
}
