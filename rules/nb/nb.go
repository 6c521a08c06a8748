// Package nb holds the Napoleon's Battles optional orders rules (SPEC NB):
// its tables as embedded data.
package nb

import (
	_ "embed"

	"orderly/table"
)

//go:embed tables.yaml
var tables []byte

// Tables returns the rule set's tables file.
func Tables() table.Source { return table.Source{Name: "rules/nb/tables.yaml", Data: tables} }
