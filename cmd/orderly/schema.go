package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"orderly/battle"
	"orderly/rules"
	"orderly/server"
	"orderly/strict"
)

// fileFormat is a format whose schema orderly schema prints: its schema
// for rule set id, whose part of the scenario format is spec.
type fileFormat struct {
	name, about string
	doc         func(id string, spec battle.Spec) ([]byte, error)
}

// schemas are the formats that orderly schema prints, by name.
var schemas = []fileFormat{
	{"scenario", "a scenario file: the field, the sides and their orders", func(_ string, spec battle.Spec) ([]byte, error) { return battle.Schema(spec) }},
	{"board", "the board the server sends a seat (GET /api/games/{id}/board)", boardSchema},
}

// boardSchema is the schema of the board of a game of rule set id, as
// the server serves it (GET /api/schema/board/{rules}): the rule set made
// as the server makes it, over the built-in tables or, for one whose
// tables the user supplies, over its bundled example tables.
func boardSchema(id string, _ battle.Spec) ([]byte, error) {
	mk, err := rules.Make()
	if err != nil {
		return nil, err
	}
	r, err := server.RulesOf(mk, rules.Default().Examples(), id)
	if err != nil {
		return nil, err
	}
	return server.BoardSchema(r)
}

func schemaNames() []string {
	var out []string
	for _, s := range schemas {
		out = append(out, s.name)
	}
	return out
}

func (a *app) schemaCmd() *cobra.Command {
	id := rules.Procedures()[0]
	c := &cobra.Command{
		Use:   "schema NAME",
		Short: "Print the JSON Schema of a file format or of the server's board",
		Long: `Print the JSON Schema (draft 2020-12) of one of orderly's file formats,
for editors and other tools that check YAML or JSON as it is written.
It is generated from the types the loader reads with, for the rule set
that --rules names: its qualities, nations and kinds of order, and any
attributes of pieces of its own. Here --rules names a rule set, not a
house-rules file. The loader remains the final word: it also checks what
a schema cannot, such as ids used once and pieces standing on the table.

The schema board is that of the board the server sends a seat of a game
of the rule set (GET /api/games/{id}/board), generated from the server's
types and the rule set's: the same document the server serves at
/api/schema/board/{rules}.

Schemas: ` + strings.Join(schemaNames(), ", ") + `. Rule sets: ` + strings.Join(rules.Procedures(), ", ") + `.`,
		Example: `  orderly schema scenario
  orderly schema scenario --rules nb > scenario.schema.json
  orderly schema board --rules bp`,
		Args: func(_ *cobra.Command, args []string) error {
			allowed := strings.Join(schemaNames(), ", ")
			switch {
			case len(args) == 0:
				return badf("schema: name the schema to print; allowed: %s", allowed)
			case len(args) > 1:
				return badf("schema: give one schema name, got %d; allowed: %s", len(args), allowed)
			}
			return nil
		},
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []string
			for _, s := range schemas {
				out = append(out, s.name+"\t"+s.about)
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(_ *cobra.Command, args []string) error {
			i := slices.IndexFunc(schemas, func(f fileFormat) bool { return f.name == args[0] })
			if i < 0 {
				return badf("unknown schema %q%s; allowed: %s", args[0], nearHint(args[0], schemaNames()), strings.Join(schemaNames(), ", "))
			}
			spec, err := ruleSpec(id)
			if err != nil {
				return err
			}
			doc, err := schemas[i].doc(id, spec)
			if err != nil {
				return err
			}
			_, err = a.out.Write(doc)
			return err
		},
	}
	// This --rules, a rule set's id, shadows the house-rules files of the
	// root's --rules: the schema lists the built-in rule set's words.
	c.Flags().StringVar(&id, "rules", id, "the rule set `ID` whose words and piece attributes the schema lists")
	_ = c.RegisterFlagCompletionFunc("rules", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return rules.Procedures(), cobra.ShellCompDirectiveNoFileComp
	})
	return c
}

// ruleSpec returns what the built-in rule set id contributes to the file
// formats.
func ruleSpec(id string) (battle.Spec, error) {
	set, err := rules.Load()
	if err != nil {
		return battle.Spec{}, err
	}
	ids := rules.Procedures()
	if !slices.Contains(ids, id) {
		allowed := strings.Join(ids, ", ")
		if slices.ContainsFunc(set.IDs(), func(t string) bool { return strings.HasPrefix(t, id+"/") }) {
			return battle.Spec{}, badf("schema: rule set %q has tables but no game procedures yet, so no scenarios; allowed: %s", id, allowed)
		}
		more := ""
		if strings.ContainsAny(id, "/.") {
			more = "; here --rules names a rule set, not a house-rules file"
		}
		return battle.Spec{}, badf("schema: unknown rule set %q%s; allowed: %s%s", id, nearHint(id, ids), allowed, more)
	}
	return rules.Spec(id)
}

// nearHint suggests the nearest of allowed to a mistyped word.
func nearHint(s string, allowed []string) string {
	if m := strict.Near(s, allowed); len(m) > 0 {
		return fmt.Sprintf(" (did you mean %s?)", m[0])
	}
	return ""
}
