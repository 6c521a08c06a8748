package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// Probe measures how many single-insert transactions per second the disk
// under path takes: it makes a new database file at path (with the pragmas
// of Open and synchronous=FULL), commits n transactions of one INSERT of a
// 300-byte blob each into a scratch table, and removes the file again, with
// its -wal and -shm companions. The file must not exist already; Probe
// deletes nothing but what it made.
//
// This is the rate an Append would manage without group commit, and so the
// yardstick for the benefit of batching.
func Probe(ctx context.Context, path string, n int) (float64, error) {
	if n < 1 {
		return 0, fmt.Errorf("probe %s: %d commits is too few", path, n)
	}
	if err := checkPath(path); err != nil {
		return 0, fmt.Errorf("probe: %w", err)
	}
	for _, p := range []string{path + "-wal", path + "-shm"} {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return 0, fmt.Errorf("probe %s: %s is in the way", path, p)
		}
	}
	// Claim the name first, so that an existing file is refused rather
	// than written to, and so that what is removed at the end is ours.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, fmt.Errorf("probe: %w", err)
	}
	if err := f.Close(); err != nil {
		return 0, fmt.Errorf("probe: %w", err)
	}
	rate, err := probe(ctx, path, n)
	for _, p := range []string{path + "-wal", path + "-shm", path} {
		if rerr := os.Remove(p); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("probe %s: %w", path, err)
	}
	return rate, nil
}

func probe(ctx context.Context, path string, n int) (rate float64, err error) {
	db, err := sql.Open("sqlite", dsn(path, true, true))
	if err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, conn.Close()) }()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE scratch (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`); err != nil {
		return 0, err
	}
	// The same statements as the writer's, begun and committed alike.
	var begin, commit, rollback, ins *sql.Stmt
	err = prepareAll(ctx, conn.PrepareContext, []prep{
		{&begin, `BEGIN IMMEDIATE`},
		{&commit, `COMMIT`},
		{&rollback, `ROLLBACK`},
		{&ins, `INSERT INTO scratch (data) VALUES (?)`},
	})
	defer func() {
		for _, s := range []*sql.Stmt{begin, commit, rollback, ins} {
			if s != nil {
				err = errors.Join(err, s.Close())
			}
		}
	}()
	if err != nil {
		return 0, err
	}
	blob := make([]byte, 300)
	for i := range blob {
		blob[i] = byte(i * 7)
	}
	start := time.Now()
	for range n {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if _, err := begin.Exec(); err != nil {
			return 0, err
		}
		if _, err := ins.Exec(blob); err != nil {
			_, rerr := rollback.Exec()
			return 0, errors.Join(err, rerr)
		}
		if _, err := commit.Exec(); err != nil {
			_, rerr := rollback.Exec()
			return 0, errors.Join(err, rerr)
		}
	}
	return float64(n) / time.Since(start).Seconds(), nil
}
