package main

import "github.com/spf13/cobra"

// scenarioCheckCmd is orderly scenario check (issue 35; not yet).
func (a *app) scenarioCheckCmd() *cobra.Command { return nil }

// scenarioFormatCmd is orderly scenario format (issue 35; not yet).
func (a *app) scenarioFormatCmd() *cobra.Command { return nil }
