package rules

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"orderly/game"
	"orderly/rules/nb"
	"orderly/table"
)

// TestRegistry: the default registry holds the five rule sets in SPEC
// order, makes each by its id, and refuses another id naming those it
// has; With registers one more in a copy, leaving the default as it was.
func TestRegistry(t *testing.T) {
	def := Default()
	if got, want := def.IDs(), []string{"nb", "nes", "lob", "bp", "cd"}; !slices.Equal(got, want) {
		t.Fatalf("Default().IDs() = %v, want %v", got, want)
	}
	data, err := os.ReadFile("../examples/lob/example-tables.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set, err := table.Load(def.Builtin(), table.Source{Name: "example-tables.yaml", Data: data})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range def.IDs() {
		r, err := def.Engine(id, set)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if r.ID() != id {
			t.Errorf("the entry %s makes rule set %s", id, r.ID())
		}
		spec, err := def.Spec(id)
		if err != nil || spec.ID != id {
			t.Errorf("Spec(%s) = %q, %v", id, spec.ID, err)
		}
	}
	_, err = def.Engine("zz", set)
	if err == nil || !strings.Contains(err.Error(), `"zz"`) || !strings.HasSuffix(err.Error(), "allowed: nb, nes, lob, bp, cd") {
		t.Errorf("an unknown id: %v", err)
	}

	// A test's own rule set, in one line: here NB's procedures under
	// another id.
	more := def.With(Entry{ID: "zz", New: Of(nb.New)})
	if r, err := more.Engine("zz", set); err != nil || r == nil {
		t.Errorf("the registered zz: %v, %v", r, err)
	}
	if got := more.IDs(); !slices.Equal(got, []string{"nb", "nes", "lob", "bp", "cd", "zz"}) {
		t.Errorf("With adds zz last: %v", got)
	}
	if _, err := def.Engine("zz", set); err == nil {
		t.Errorf("With changed the registry it was called on")
	}
	if _, err := more.Engine("yy", set); err == nil || !strings.HasSuffix(err.Error(), "allowed: nb, nes, lob, bp, cd, zz") {
		t.Errorf("the allowed ids come from the registry: %v", err)
	}
	// With an id already there replaces its entry.
	failing := errors.New("no tables")
	fails := def.With(Entry{ID: "nb", New: func(*table.Set) (game.Rules, error) { return nil, failing }})
	if _, err := fails.Engine("nb", set); !errors.Is(err, failing) || !slices.Equal(fails.IDs(), def.IDs()) {
		t.Errorf("With nb again: %v, %v", err, fails.IDs())
	}
}

// TestOfNil: a constructor that fails gives a nil game.Rules, not one
// holding a nil pointer.
func TestOfNil(t *testing.T) {
	r, err := Of(nb.New)(&table.Set{})
	if err == nil || r != nil {
		t.Errorf("Of(nb.New) over no tables = %#v, %v; want nil and an error", r, err)
	}
}

// TestPlayableSupplied: a rule set whose tables the user supplies
// (Entry.Supplied) is checked by Playable only when the set holds some of
// them; the rest always.
func TestPlayableSupplied(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if err := Playable(set); err != nil {
		t.Fatalf("the built-in tables: %v", err)
	}
	failing := errors.New("not playable")
	never := func(*table.Set) (game.Rules, error) { return nil, failing }
	for _, c := range []struct {
		name string
		e    Entry
		want error
	}{
		{"none of its tables", Entry{ID: "zz", New: never, Supplied: []string{"zz/a", "zz/b"}}, nil},
		{"one of its tables", Entry{ID: "zz", New: never, Supplied: []string{"zz/a", "nb/order-delay"}}, failing},
		{"built-in tables", Entry{ID: "zz", New: never}, failing},
	} {
		if err := Default().With(c.e).Playable(set); !errors.Is(err, c.want) || (err == nil) != (c.want == nil) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestRegistryExamples: a registry's examples are each rule set's files
// under its id, every YAML file of its directory (embedded by pattern),
// as a valid fs.FS; a registered rule set brings its own.
func TestRegistryExamples(t *testing.T) {
	fsys := Default().Examples()
	var want []string
	for _, id := range Default().IDs() {
		files, err := filepath.Glob(filepath.Join("..", "examples", id, "*.yaml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("examples of %s: %v, %v", id, files, err)
		}
		for _, f := range files {
			want = append(want, id+"/"+filepath.Base(f))
		}
	}
	got, err := fs.Glob(fsys, "*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the registry's examples are\n%v\nwant the files on disk\n%v", got, want)
	}
	disk, err := os.ReadFile("../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if data, err := fs.ReadFile(fsys, "nb/demo.yaml"); err != nil || string(data) != string(disk) {
		t.Errorf("nb/demo.yaml: %d bytes, %v; want the file's %d", len(data), err, len(disk))
	}
	if err := fstest.TestFS(fsys, "nb/demo.yaml", "lob/example-tables.yaml", "cd/cd-demo.yaml"); err != nil {
		t.Error(err)
	}
	mine := fstest.MapFS{"zz-demo.yaml": {Data: []byte("title: mine\n")}}
	more := Default().With(Entry{ID: "zz", New: Of(nb.New), Examples: mine}).Examples()
	if data, err := fs.ReadFile(more, "zz/zz-demo.yaml"); err != nil || string(data) != "title: mine\n" {
		t.Errorf("a registered rule set's example: %q, %v", data, err)
	}
	if err := fstest.TestFS(more, "zz/zz-demo.yaml", "nb/demo.yaml"); err != nil {
		t.Error(err)
	}
}
