package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"orderly/load"
	"orderly/store/postgres"
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
rate of single-insert SQLite commits on the same disk.

With --db postgres://... it serves from that PostgreSQL database instead
(an empty one: the games it makes are left in it), on --instances servers
that hear each other's changes, with the clients spread over them. With
--streams it also holds every game's umpire stream on every instance and
prints how long after a command's answer its event reaches a stream on
another instance.`,
		Example: `  orderly load
  orderly load --rate 2000
  orderly load --clients 50 --games 10 --duration 5s
  orderly load --db postgres://orderly@/scratch?host=/run/postgresql --instances 2 --streams --rate 2000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Clients < 1 || o.Games < 1 || o.Duration <= 0 || o.Warmup < 0 || o.Rate < 0 || o.Instances < 1 {
				return badf("load: --clients, --games, --duration and --instances must be positive, --rate and --warmup 0 or more")
			}
			if o.DB != "" && !postgres.IsURL(o.DB) {
				return badf("load: --db %q is not a postgres:// URL; without --db the load runs on a scratch SQLite file", o.DB)
			}
			if o.Instances > 1 && o.DB == "" {
				return badf("load: --instances %d needs --db postgres://...: an SQLite file serves one instance", o.Instances)
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
	c.Flags().DurationVar(&o.Duration, "duration", o.Duration, "how long they send, after the warm-up")
	c.Flags().DurationVar(&o.Warmup, "warmup", o.Warmup, "how long they send first, uncounted (connections and caches open)")
	c.Flags().Float64Var(&o.Rate, "rate", 0, "commands per second offered by all clients together (0: as fast as answered)")
	c.Flags().StringVar(&o.Dir, "dir", "", "`DIR` for the scratch database (default: a new temporary directory)")
	c.Flags().StringVar(&o.DB, "db", "", "an empty PostgreSQL database's `URL` to serve from instead of a scratch SQLite file")
	c.Flags().IntVar(&o.Instances, "instances", 1, "servers sharing the database (more than one needs --db)")
	c.Flags().BoolVar(&o.Streams, "streams", false, "hold every game's umpire stream on every instance and time the events' arrival")
	return c
}
