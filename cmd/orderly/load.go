package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"orderly/load"
)

func (a *app) loadCmd() *cobra.Command {
	o := load.Options{Clients: 200, Games: 100, Duration: 10 * time.Second, ProbeCommits: 1000}
	c := &cobra.Command{
		Use:   "load",
		Short: "Measure the umpire server under load",
		Long: `Start an umpire server in this process on a scratch database, make demo
games, and have many clients send move commands (each accepted and
durably saved before it is answered) for a while; print the accepted
commands per second and the answers' latency, and beside them the raw
rate of single-insert SQLite commits on the same disk.`,
		Example: `  orderly load
  orderly load --rate 2000
  orderly load --clients 50 --games 10 --duration 5s`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Clients < 1 || o.Games < 1 || o.Duration <= 0 || o.Rate < 0 {
				return badf("load: --clients, --games and --duration must be positive, --rate 0 or more")
			}
			eng, err := a.maker()
			if err != nil {
				return err
			}
			o.Engine = eng
			o.Seed = a.seed()
			rep, err := load.Run(cmd.Context(), o)
			if err != nil {
				return err
			}
			fmt.Fprintln(a.out, rep)
			return nil
		},
	}
	c.Flags().IntVar(&o.Clients, "clients", o.Clients, "concurrent clients")
	c.Flags().IntVar(&o.Games, "games", o.Games, "games they share")
	c.Flags().DurationVar(&o.Duration, "duration", o.Duration, "how long they send")
	c.Flags().Float64Var(&o.Rate, "rate", 0, "commands per second offered by all clients together (0: as fast as answered)")
	c.Flags().StringVar(&o.Dir, "dir", "", "`DIR` for the scratch database (default: a new temporary directory)")
	return c
}
