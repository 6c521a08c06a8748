package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/geom"
	"orderly/geom/hex"
	"orderly/roster"
	"orderly/rules"
	"orderly/server"
	"orderly/vmod"
)

// The space a scenario gets when nothing gives one: a 6' by 4' table, or
// a hex map of this size when the rule set's demo has none to copy.
const (
	defaultWidth, defaultDepth  = 72, 48
	defaultColumns, defaultRows = 30, 20
)

// scenarioImportCmd is orderly scenario import: a roster (CSV or
// tab-separated) and/or a VASSAL module's board into a scenario file
// that loads (issue 35).
func (a *app) scenarioImportCmd() *cobra.Command {
	var id, out, into, board string
	c := &cobra.Command{
		Use:   "import FILE...",
		Short: "Make a scenario from a roster (CSV) and a VASSAL module's board (.vmod)",
		Long: `Make a scenario file from a roster of generals and units (a .csv, or a
.tsv or .txt of tab-separated text from a spreadsheet) and/or the board
of a VASSAL module (.vmod): the roster gives the two sides, the module's
board the hex map with its image under it. Without a module the
scenario is played on a 72 x 48 inch table, or, for a rule set played on
hex maps, on a map the size of its bundled demo's. Generals and units
without a position are deployed in lines along their side's base edge.

With --into the imported parts go into an existing scenario: a roster's
sides take the place of its sides of the same id, and a module's board
that of its field or map. The file written is checked with the loader
before it is written. Here --rules names a rule set, not a house-rules
file; with --into it defaults to the scenario's.

The roster's columns for each rule set are in docs/import.md; the
server gives a template at /api/editor/{rules}/roster.csv.`,
		Example: `  orderly scenario import roster.csv --rules nb -o army.yaml
  orderly scenario import roster.csv board.vmod --rules nes -o battle.yaml
  orderly scenario import board.vmod --board "North map" --into battle.yaml -o battle2.yaml`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			text, sum, err := importScenario(args, id, into, board, out)
			var rp rosterProblems
			if errors.As(err, &rp) {
				for _, p := range rp.ro.Problems {
					fmt.Fprintf(a.err, "%s: %s\n", rp.ro.Where(p), p.Message)
				}
				what := "a problem"
				if n := len(rp.ro.Problems); n > 1 {
					what = fmt.Sprintf("%d problems", n)
				}
				return badf("scenario import: %s has %s; nothing was written", rp.file, what)
			}
			if err != nil {
				return err
			}
			if out == "" {
				_, err = a.out.Write(text)
				return err
			}
			if err := os.WriteFile(out, text, 0o644); err != nil {
				return fmt.Errorf("scenario import: %w", err)
			}
			fmt.Fprintf(a.out, "wrote %s: %s\n", out, sum)
			return nil
		},
	}
	// This --rules, a rule set's id, shadows the house-rules files of the
	// root's --rules, as orderly schema's does.
	c.Flags().StringVar(&id, "rules", "", "the rule set `ID` of the scenario (nb, nes, lob, bp, cd); with --into, the scenario's")
	c.Flags().StringVarP(&out, "output", "o", "", "write the scenario to `FILE` (default: the standard output)")
	c.Flags().StringVar(&into, "into", "", "merge the imported parts into the scenario `FILE`")
	c.Flags().StringVar(&board, "board", "", "the module's board to read, by `NAME` (default: the first with a hex grid)")
	_ = c.RegisterFlagCompletionFunc("rules", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return rules.Procedures(), cobra.ShellCompDirectiveNoFileComp
	})
	return c
}

// importScenario makes the scenario's text from the files, and a line
// saying what it holds.
func importScenario(files []string, id, into, board, out string) ([]byte, string, error) {
	var rosterFile, moduleFile string
	for _, f := range files {
		slot := &rosterFile
		switch strings.ToLower(filepath.Ext(f)) {
		case ".vmod", ".zip":
			slot = &moduleFile
		case ".csv", ".tsv", ".txt":
		default:
			return nil, "", badf("scenario import: %s is neither a roster (.csv, .tsv, .txt) nor a VASSAL module (.vmod)", f)
		}
		if *slot != "" {
			return nil, "", badf("scenario import: %s and %s are both of a kind; give at most one roster and one module", *slot, f)
		}
		*slot = f
	}
	if board != "" && moduleFile == "" {
		return nil, "", badf("scenario import: --board names a board of a module; give the .vmod too")
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	if into != "" {
		data, err := readBounded(into, 8<<20)
		if err != nil {
			return nil, "", err
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			return nil, "", badf("scenario import: --into %s does not read as a scenario (a YAML mapping)", into)
		}
		root = doc.Content[0]
		if r := lookup(root, "rules"); id == "" && r != nil {
			id = r.Value
		}
	}
	if id == "" {
		return nil, "", badf("scenario import: name the rule set with --rules; allowed: %s", strings.Join(rules.Procedures(), ", "))
	}
	if !slices.Contains(rules.Procedures(), id) {
		return nil, "", badf("scenario import: unknown rule set %q%s; allowed: %s (here --rules names a rule set, not a house-rules file)", id, nearHint(id, rules.Procedures()), strings.Join(rules.Procedures(), ", "))
	}
	spec, err := rules.Spec(id)
	if err != nil {
		return nil, "", err
	}
	plays := func(kind string) bool { return len(spec.Spaces) == 0 || slices.Contains(spec.Spaces, kind) }
	if into == "" {
		name := "imported"
		if out != "" {
			name = wordOf(strings.TrimSuffix(filepath.Base(out), filepath.Ext(out)))
		}
		set(root, "name", name)
		set(root, "title", "Imported with orderly scenario import")
		set(root, "rules", id)
		set(root, "turns", 20)
		if err := demoSpeeds(root, id); err != nil {
			return nil, "", err
		}
	}
	var sum []string
	switch {
	case moduleFile != "":
		if !plays(geom.KindHex) {
			return nil, "", badf("scenario import: rule set %s plays on a table; a VASSAL module's board is a hex map", id)
		}
		data, err := readBounded(moduleFile, vmod.MaxModule)
		if err != nil {
			return nil, "", err
		}
		m, err := vmod.Read(data, board)
		if err != nil {
			return nil, "", badf("scenario import: %s: %v", moduleFile, err)
		}
		remove(root, "field")
		set(root, "map", m.Map)
		sum = append(sum, fmt.Sprintf("board %q as a %d x %d hex map", m.Board, m.Map.Columns, m.Map.Rows))
	case lookup(root, "field") == nil && lookup(root, "map") == nil:
		if plays(geom.KindTable) {
			field := roster.NewDoc()
			field.Set("width", defaultWidth)
			field.Set("depth", defaultDepth)
			set(root, "field", field)
			sum = append(sum, fmt.Sprintf("a %d x %d inch table", defaultWidth, defaultDepth))
		} else {
			m := demoMap(id)
			set(root, "map", m)
			sum = append(sum, fmt.Sprintf("a %v x %v hex map", m.Get("columns"), m.Get("rows")))
		}
	}
	if rosterFile != "" {
		data, err := readBounded(rosterFile, roster.MaxSize)
		if err != nil {
			return nil, "", err
		}
		ro, err := roster.Read(filepath.Base(rosterFile), data, spec)
		if err != nil {
			return nil, "", err
		}
		if len(ro.Problems) > 0 {
			return nil, "", rosterProblems{filepath.Base(rosterFile), ro}
		}
		sp, err := spaceOf(root)
		if err != nil {
			return nil, "", badf("scenario import: %v", err)
		}
		if err := roster.Deploy(ro.Sides, sp); err != nil {
			return nil, "", badf("scenario import: %s: %v", rosterFile, err)
		}
		if err := mergeSides(root, ro.Sides); err != nil {
			return nil, "", badf("scenario import: %s: %v", rosterFile, err)
		}
		var ids []string
		for _, s := range ro.Sides {
			ids = append(ids, fmt.Sprint(s.Get("id")))
		}
		sum = append(sum, "sides "+strings.Join(ids, " and "))
	}
	if lookup(root, "sides") == nil {
		return nil, "", badf("scenario import: a scenario needs its two sides; give a roster (.csv), or --into a scenario that has them")
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, "", fmt.Errorf("scenario import: writing the scenario: %w", err)
	}
	if err := checkLoads(id, spec, root, buf.Bytes()); err != nil {
		return nil, "", badf("scenario import: the scenario made does not load: %v", err)
	}
	return buf.Bytes(), strings.Join(sum, ", "), nil
}

// checkLoads reads the scenario text with the loader and the rule set's
// checks, as orderly run does. A loader that does not yet know a map's
// image (the format's backdrop) is given the scenario without it.
func checkLoads(id string, spec battle.Spec, root *yaml.Node, text []byte) error {
	schema, err := battle.Schema(spec)
	if err != nil {
		return err
	}
	if !bytes.Contains(schema, []byte(`"image"`)) {
		if m := lookup(root, "map"); m != nil && lookup(m, "image") != nil {
			var doc yaml.Node
			if err := yaml.Unmarshal(text, &doc); err != nil {
				return err
			}
			remove(lookup(doc.Content[0], "map"), "image")
			if text, err = yaml.Marshal(&doc); err != nil {
				return err
			}
		}
	}
	mk, err := rules.Make()
	if err != nil {
		return err
	}
	r, err := server.RulesOf(mk, rules.Default().Examples(), id)
	if err != nil {
		return err
	}
	_, err = battle.Read("the scenario", text, func(string) (battle.RuleSet, error) { return r, nil })
	return err
}

// rosterProblems is a roster that does not read: its problems are
// printed one a line.
type rosterProblems struct {
	file string
	ro   *roster.Roster
}

func (e rosterProblems) Error() string { return e.ro.Err().Error() }

// demoSpeeds gives a new scenario the speeds of its rule set's bundled
// demo (the scenario its roster template is cut from), if it has any: a
// rule set that reads speeds needs one for every unit.
func demoSpeeds(root *yaml.Node, id string) error {
	sample, err := roster.Sample(rules.Default().Examples(), id)
	if err != nil {
		return nil // no demo: no speeds to give
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(sample, &doc); err != nil {
		return fmt.Errorf("scenario import: the demo of %s: %w", id, err)
	}
	if sp := lookup(doc.Content[0], "speeds"); sp != nil {
		set(root, "speeds", sp)
	}
	return nil
}

// demoMap is a new scenario's hex map: the size, layout and numbering of
// its rule set's bundled demo's map (so that the roster template, cut
// from the demo, imports with its positions), without its terrain; or
// defaultColumns by defaultRows hexes when the demo has no map.
func demoMap(id string) *roster.Doc {
	m := roster.NewDoc()
	m.Set("columns", defaultColumns)
	m.Set("rows", defaultRows)
	sample, err := roster.Sample(rules.Default().Examples(), id)
	if err != nil {
		return m
	}
	var doc struct {
		Map map[string]any `yaml:"map"`
	}
	if yaml.Unmarshal(sample, &doc) != nil || doc.Map == nil {
		return m
	}
	for _, k := range []string{"columns", "rows", "layout", "first", "digits"} {
		if v, ok := doc.Map[k]; ok {
			m.Set(k, v)
		}
	}
	return m
}

// readBounded reads a file of at most max bytes.
func readBounded(file string, max int64) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, bad(fmt.Errorf("scenario import: %w", err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("scenario import: %s: %w", file, err)
	}
	if int64(len(data)) > max {
		return nil, badf("scenario import: %s is more than %d bytes; allowed: at most %d", file, max, max)
	}
	return data, nil
}

// wordOf makes a scenario name (a key word) of a file's name.
func wordOf(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', strings.ContainsRune("-./+_", c):
			b.WriteRune(c)
		case c == ' ':
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "imported"
	}
	return b.String()
}

// lookup is the value of key in mapping n, or nil.
func lookup(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// set sets key of mapping n to v, in its place if it is there, else in
// the format's place: before sides.
func set(n *yaml.Node, key string, v any) {
	var val yaml.Node
	if err := val.Encode(v); err != nil {
		panic(err) // only the values made here are set
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content[i+1] = &val
			return
		}
	}
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "sides" {
			n.Content = slices.Insert(n.Content, i, k, &val)
			return
		}
	}
	n.Content = append(n.Content, k, &val)
}

// remove takes key out of mapping n.
func remove(n *yaml.Node, key string) {
	if n == nil {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content = slices.Delete(n.Content, i, i+2)
			return
		}
	}
}

// mergeSides puts the roster's sides in the scenario: each in place of
// the side of its id, else after the others. A scenario has two sides.
func mergeSides(root *yaml.Node, sides []*roster.Doc) error {
	list := lookup(root, "sides")
	if list == nil || list.Kind != yaml.SequenceNode {
		set(root, "sides", []any{})
		list = lookup(root, "sides")
		list.Style = 0 // a block, not the [] an empty list is written as
	}
	for _, s := range sides {
		var n yaml.Node
		if err := n.Encode(s); err != nil {
			return err
		}
		i := slices.IndexFunc(list.Content, func(old *yaml.Node) bool {
			idn := lookup(old, "id")
			return idn != nil && idn.Value == fmt.Sprint(s.Get("id"))
		})
		if i >= 0 {
			list.Content[i] = &n
		} else {
			list.Content = append(list.Content, &n)
		}
	}
	if len(list.Content) != 2 {
		var ids []string
		for _, s := range list.Content {
			if idn := lookup(s, "id"); idn != nil {
				ids = append(ids, idn.Value)
			}
		}
		return fmt.Errorf("the scenario would have %d sides (%s); a battle has two: give both in the roster, or --into a scenario whose other side it keeps", len(list.Content), strings.Join(ids, ", "))
	}
	return nil
}

// spaceOf is the space the scenario's field or map gives.
func spaceOf(root *yaml.Node) (geom.Space, error) {
	if f := lookup(root, "field"); f != nil {
		var t struct {
			Width float64 `yaml:"width"`
			Depth float64 `yaml:"depth"`
		}
		if err := f.Decode(&t); err != nil || t.Width <= 0 || t.Depth <= 0 {
			return nil, fmt.Errorf("the scenario's field has no width and depth to deploy on")
		}
		return geom.Table{Width: t.Width, Depth: t.Depth}, nil
	}
	var m struct {
		Columns int    `yaml:"columns"`
		Rows    int    `yaml:"rows"`
		Layout  string `yaml:"layout"`
		First   *int   `yaml:"first"`
		Digits  int    `yaml:"digits"`
	}
	n := lookup(root, "map")
	if n == nil || n.Decode(&m) != nil {
		return nil, fmt.Errorf("the scenario has no field or map to deploy on")
	}
	l := hex.Layout{First: 1, Digits: m.Digits}
	if m.First != nil {
		l.First = *m.First
	}
	if m.Layout != "" {
		o, err := hex.ParseOffset(m.Layout)
		if err != nil {
			return nil, fmt.Errorf("the scenario's map: %v", err)
		}
		l.Offset = o
	}
	return hex.NewMap(m.Columns, m.Rows, l)
}
