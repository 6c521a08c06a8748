package main

import "github.com/spf13/cobra"

// reportCmd is orderly report: a game's after-action report from its
// export (issue 36). Not yet written: nil.
func (a *app) reportCmd() *cobra.Command { return nil }
