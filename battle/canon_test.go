package battle_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/geom"
)

// canonical formats a scenario's text for spec s.
func canonical(t testing.TB, src string, s battle.Spec) (string, error) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil || len(doc.Content) == 0 {
		return "", err
	}
	out, err := battle.Canonical(doc.Content[0], s)
	return string(out), err
}

// TestCanonical: keys in the format's order (a rule set's attributes
// after the common ones, unknown keys last), positions and lists of
// numbers in flow style, labels quoted, numbers as the document writes
// them, the grids as literal blocks, comments left out.
func TestCanonical(t *testing.T) {
	src := `# a comment
sides:
  - army: {at: "0412", range: 3.0, id: a, quality: steady}
    edge: south
    id: blue
    divisions:
      - units: [{at: 0413, type: infantry, id: u, facing: 1e2}]
        id: d
        general: {id: g, at: 4-12}
map:
  terrain: "..\n..\n"
  rows: 2
  columns: 2
  roads: {road: ["0101 0102"]}
evening: [3, 4]
rules: hx
name: x
colour: red
`
	want := `name: x
rules: hx
map:
  columns: 2
  rows: 2
  terrain: |
    ..
    ..
  roads:
    road:
      - 0101 0102
evening: [3, 4]
sides:
  - id: blue
    edge: south
    army:
      id: a
      quality: steady
      range: 3
      at: "0412"
    divisions:
      - id: d
        general:
          id: g
          at: 4-12
        units:
          - id: u
            type: infantry
            at: "0413"
            facing: 100
colour: red
`
	got, err := canonical(t, src, hexSpec)
	if err != nil || got != want {
		t.Fatalf("got (%v)\n%s\nwant\n%s", err, got, want)
	}
	if again, _ := canonical(t, got, hexSpec); again != got {
		t.Errorf("formatting again changes it:\n%s", again)
	}
	if _, err := canonical(t, "a: &x [1]\nb: *x\n", hexSpec); err == nil || !strings.Contains(err.Error(), "aliases") {
		t.Errorf("an alias: %v", err)
	}
}

// pngURL is a data URL of a w by h PNG.
func pngURL(t testing.TB, w, h int) string {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

// TestImage: a table's and a hex map's backdrop load with their type,
// size and placing; the other space's keys, a missing placing, data that
// is not an image and an image over the bounds are refused, each in one
// sentence naming the key and what is allowed.
func TestImage(t *testing.T) {
	url := pngURL(t, 40, 30)
	table := ldEdit(t, ldBase, "  grid: {columns: 8, rows: 6}\n", "  grid: {columns: 8, rows: 6}\n  image: {data: \""+url+"\", scale: 12.5, at: [1, 2]}\n")
	sc, err := battle.Load(ldFile, []byte(table), ldSpec)
	if err != nil {
		t.Fatal(err)
	}
	if im := sc.Image; im == nil || im.Type != "image/png" || im.Width != 40 || im.Height != 30 || im.Scale != 12.5 || im.At != geom.Pt(1, 2) || len(im.Data) == 0 {
		t.Errorf("the table's image: %+v", sc.Image)
	}
	hexSrc := strings.Replace(hexBase, "map: {columns: 30, rows: 20}", "map: {columns: 30, rows: 20, image: {data: \""+url+"\", x0: 40.5, y0: 38, dx: 56, dy: 64}}", 1)
	sc, err = battle.Load(ldFile, []byte(hexSrc), hexSpec)
	if err != nil {
		t.Fatal(err)
	}
	if im := sc.Image; im == nil || im.X0 != 40.5 || im.Y0 != 38 || im.DX != 56 || im.DY != 64 {
		t.Errorf("the hex map's image: %+v", sc.Image)
	}
	if c, _ := canonical(t, hexSrc, hexSpec); !strings.Contains(c, "\n    data: "+url+"\n") {
		t.Errorf("the canonical form does not keep the image's data on one line:\n%.300s", c)
	}

	big := pngURL(t, battle.MaxImageSide+1, 1)
	over := base64.StdEncoding.EncodeToString(make([]byte, battle.MaxImage+1))
	for _, c := range []struct{ image, want string }{
		{`{data: "` + url + `", scale: 10, dx: 5}`, `field.image.dx: an image under a table is placed by scale and at; x0, y0, dx and dy place one under a hex map (map.image)`},
		{`{data: "` + url + `", at: [0, 0]}`, `field.image: scale is missing; an image under a table is placed by scale and at`},
		{`{data: "` + big + `", scale: 10}`, `field.image.data: the image is 8193 by 1 pixels; at most 8192 pixels a side are allowed`},
		{`{data: "data:image/png;base64,` + over + `", scale: 10}`, `field.image.data: the image is over 4 MiB; at most 4 MiB (4194304 bytes) are allowed`},
		{`{data: "data:image/png;base64,aGVsbG8=", scale: 10}`, `field.image.data: the data is not a PNG, JPEG or GIF image (it reads as text/plain; charset=utf-8); give one of those`},
		{`{data: "data:image/png;base64,%%%", scale: 10}`, `field.image.data: the text after base64, is not valid base64`},
		{`{data: "http://example.com/a.png", scale: 10}`, `field.image.data: want a data URL such as data:image/png;base64,iVBOR..., of a PNG, JPEG or GIF image, got "http://example.com/a.png"`},
		{`{data: "data:image/png;base64,iVBORw0KGgo=", scale: 10}`, `field.image.data: the png image could not be read; give a whole PNG, JPEG or GIF file`},
	} {
		src := ldEdit(t, ldBase, "  grid: {columns: 8, rows: 6}\n", "  grid: {columns: 8, rows: 6}\n  image: "+c.image+"\n")
		_, err := battle.Load(ldFile, []byte(src), ldSpec)
		want := ldFile + ":9: " + c.want
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%.60s:\n got %v\nwant %s", c.image, err, want)
		}
	}
	noGrid := strings.Replace(hexSrc, "x0: 40.5, ", "scale: 3, ", 1)
	if _, err := battle.Load(ldFile, []byte(noGrid), hexSpec); err == nil || !strings.Contains(err.Error(), "map.image.scale: an image under a hex map is placed by x0, y0, dx and dy; scale and at place one under a table (field.image)") {
		t.Errorf("a table's key on a hex map: %v", err)
	}
}

// unlined zeroes every Line of a value (and File) through pointers,
// slices, maps and structs.
func unlined(v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		unlined(v.Elem(), seen)
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			unlined(v.Index(i), seen)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if e := v.MapIndex(k); e.Kind() == reflect.Pointer {
				unlined(e, seen)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			switch name := v.Type().Field(i).Name; {
			case (name == "Line" && f.Kind() == reflect.Int || name == "File" && f.Kind() == reflect.String) && f.CanSet():
				f.SetZero()
			case f.CanSet() || f.Kind() == reflect.Map || f.Kind() == reflect.Pointer:
				unlined(f, seen)
			}
		}
	}
}

// FuzzCanonical checks that the canonical form never panics, that
// formatting it again changes nothing, and that when the text loads its
// canonical form loads to the same scenario.
func FuzzCanonical(f *testing.F) {
	f.Add(ldBase)
	f.Add(testBase)
	f.Add(ldReserveBase(f))
	f.Add(hexBase)
	f.Add("a: &x [*x, *x]\n")
	f.Add("name: x\nrules: nb\nfield: {width: 1, depth: 1}\nsides: [a, b]\nturns: 0x10\n")
	f.Fuzz(func(t *testing.T, src string) {
		for _, spec := range []battle.Spec{ldSpec, testSpec, hexSpec} {
			out, err := canonical(t, src, spec)
			if err != nil || out == "" {
				continue
			}
			if again, err := canonical(t, out, spec); err != nil || again != out {
				t.Fatalf("formatting again changes it (%v):\n%s\n---\n%s", err, out, again)
			}
			want, err := battle.Load(ldFile, []byte(src), spec)
			if err != nil {
				continue
			}
			got, err := battle.Load(ldFile, []byte(out), spec)
			if err != nil {
				t.Fatalf("the text loads, its canonical form does not: %v\n%s", err, out)
			}
			unlined(reflect.ValueOf(want), map[uintptr]bool{})
			unlined(reflect.ValueOf(got), map[uintptr]bool{})
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("the canonical form loads to another scenario:\n%s", out)
			}
		}
	})
}
