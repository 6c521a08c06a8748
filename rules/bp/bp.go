// Package bp holds the staff-rating command phase and shooting (SPEC BP):
// its tables as embedded data.
package bp

import (
	_ "embed"

	"orderly/table"
)

//go:embed tables.yaml
var tables []byte

// Tables returns the rule set's tables file.
func Tables() table.Source { return table.Source{Name: "rules/bp/tables.yaml", Data: tables} }
