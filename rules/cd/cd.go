// Package cd holds the 1992 class dice activation rules (SPEC CD):
// its tables as embedded data.
package cd

import (
	_ "embed"

	"orderly/table"
)

//go:embed tables.yaml
var tables []byte

// Tables returns the rule set's tables file.
func Tables() table.Source { return table.Source{Name: "rules/cd/tables.yaml", Data: tables} }
