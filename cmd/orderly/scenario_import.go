package main

import "github.com/spf13/cobra"

// scenarioImportCmd is orderly scenario import (issue 35; not yet).
func (a *app) scenarioImportCmd() *cobra.Command { return nil }
