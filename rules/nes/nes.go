// Package nes holds the order delivery and miscellaneous tables of the NES hex game (SPEC NES):
// its tables as embedded data.
package nes

import (
	_ "embed"

	"orderly/table"
)

//go:embed tables.yaml
var tables []byte

// Tables returns the rule set's tables file.
func Tables() table.Source { return table.Source{Name: "rules/nes/tables.yaml", Data: tables} }
