package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"orderly/store"
	"orderly/store/postgres"
	"orderly/store/sqlite"
)

// dbEnv is the environment variable that names the store when --db is not
// given.
const dbEnv = "ORDERLY_DB"

// dbFlag adds --db to c: an SQLite file, or a postgres:// URL (issue 16),
// by default $ORDERLY_DB, else orderly.db.
func (a *app) dbFlag(c *cobra.Command, db *string, what string) {
	def := "orderly.db"
	if v := a.getenv(dbEnv); v != "" {
		def = v
	}
	c.Flags().StringVar(db, "db", def, what+": an SQLite `FILE`, or a PostgreSQL URL postgres://USER:PASSWORD@HOST/DATABASE (default $"+dbEnv+", else orderly.db)")
}

// getenv is the environment variable name, from the app's environment
// (tests give their own).
func (a *app) getenv(name string) string {
	if a.env == nil {
		return ""
	}
	return a.env(name)
}

// openStore opens the store db names: a PostgreSQL database for a
// postgres:// URL, else an SQLite file, which must exist unless create,
// opened with opts.
func openStore(ctx context.Context, db string, create bool, opts ...sqlite.Option) (store.Store, error) {
	return openStoreFlag(ctx, "--db", db, create, opts...)
}

// openStoreFlag is openStore for the store given by flag (--db, or
// migrate's --from and --to), which its errors name.
func openStoreFlag(ctx context.Context, flag, db string, create bool, opts ...sqlite.Option) (store.Store, error) {
	if postgres.IsURL(db) {
		st, err := postgres.Open(ctx, db)
		if err != nil {
			return nil, bad(fmt.Errorf("%s: %w", flag, err))
		}
		return st, nil
	}
	if !create {
		if _, err := os.Stat(db); err != nil {
			return nil, badf("%s %s: %v", flag, db, errors.Unwrap(err))
		}
	}
	st, err := sqlite.Open(ctx, db, opts...)
	if errors.Is(err, sqlite.ErrClaimed) {
		return nil, badf("%s %s: another orderly serve is serving this file, and an SQLite file has one server at a time; to run several instances, keep the games in PostgreSQL (--db postgres://...)", flag, db)
	}
	if err != nil {
		return nil, bad(fmt.Errorf("%s %s: %w", flag, db, err))
	}
	return st, nil
}

// dbName is db as it may be printed: a URL without its password.
func dbName(db string) string {
	if postgres.IsURL(db) {
		return postgres.Redact(db)
	}
	return db
}
