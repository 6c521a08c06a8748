package main

import "github.com/spf13/cobra"

// gamesCmd is orderly games (issue 35; not yet).
func (a *app) gamesCmd() *cobra.Command { return nil }
