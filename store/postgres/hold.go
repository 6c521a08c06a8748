package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"orderly/store"
)

var _ store.Holder = (*DB)(nil)

// Bounds on a hold. holdWait is how long Hold waits for another
// instance's hold to end; holdIdle is how long a hold may sit with no
// statement before the database ends it (an instance that stopped
// answering never keeps a game from the others for long).
const (
	holdWait = "5s"
	holdIdle = "10s"
)

// Hold locks the game's row (SELECT ... FOR UPDATE) in a transaction of
// its own connection, in one round trip, until Append commits or Release
// rolls back. See store.Holder.
func (d *DB) Hold(ctx context.Context, game string) (store.Held, error) {
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("hold game %s: %w", game, fault(err))
	}
	c, err := d.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("hold game %s: %w", game, fault(err))
	}
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	b.Queue(`SET LOCAL lock_timeout = '` + holdWait + `'`)
	b.Queue(`SET LOCAL idle_in_transaction_session_timeout = '` + holdIdle + `'`)
	b.Queue(`SELECT version FROM games WHERE id = $1 FOR UPDATE`, game)
	br := c.SendBatch(ctx, b)
	var version int
	for range 3 {
		if _, err = br.Exec(); err != nil {
			break
		}
	}
	if err == nil {
		err = br.QueryRow().Scan(&version)
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		h := &held{c: c}
		h.Release()
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			err = store.ErrNotFound
		case isLockTimeout(err):
			err = fmt.Errorf("another instance held it for over %s: %w", holdWait, store.ErrConflict)
		}
		return nil, fmt.Errorf("hold game %s: %w", game, fault(err))
	}
	return &held{c: c, game: game, version: version, now: d.now}, nil
}

// isLockTimeout reports whether err is lock_timeout's (55P03).
func isLockTimeout(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "55P03"
}

// held is a game held in the transaction open on c; c is nil once let go.
type held struct {
	c       *pgxpool.Conn
	game    string
	version int
	now     func() time.Time // the store's clock
}

func (h *held) Version() int { return h.version }

func (h *held) Events(ctx context.Context, since, limit int) ([]json.RawMessage, error) {
	if h.c == nil {
		return nil, fmt.Errorf("events of game %s: it is no longer held", h.game)
	}
	var lim any
	if limit > 0 {
		lim = limit
	}
	rows, err := h.c.Query(ctx, `SELECT data FROM events WHERE game = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4`,
		h.game, max(since, 0), h.version, lim)
	if err == nil {
		var events []json.RawMessage
		if events, err = collect(rows); err == nil {
			return events, nil
		}
	}
	return nil, fmt.Errorf("events of game %s: %w", h.game, fault(err))
}

// Append runs appendSQL and COMMIT in one round trip, and lets the game
// go whatever the outcome.
func (h *held) Append(ctx context.Context, events []json.RawMessage) (int, error) {
	if h.c == nil {
		return 0, fmt.Errorf("append to game %s: it is no longer held", h.game)
	}
	defer h.Release()
	if err := store.CheckEvents(events); err != nil {
		return 0, fmt.Errorf("append to game %s: %w", h.game, fault(err))
	}
	version := h.version
	next := version + len(events)
	seqs, data := rows(version, events)
	b := &pgx.Batch{}
	b.Queue(appendSQL, next, h.game, version, seqs, data, Channel, payload(store.Notice{Game: h.game, Version: next}), h.now().UnixNano())
	b.Queue(`COMMIT`)
	br := h.c.SendBatch(ctx, b)
	var moved, added int
	err := br.QueryRow().Scan(&moved, &added, nil)
	if err == nil {
		_, err = br.Exec()
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	switch {
	case isUnique(err):
		err = fmt.Errorf("events %d to %d: %w (%v)", version+1, next, store.ErrConflict, err)
	case err == nil && (moved != 1 || added != len(events)):
		// Cannot happen while the row is locked; the COMMIT has then
		// committed nothing of note, but say so.
		err = fmt.Errorf("the held game was not at version %d: %w", version, store.ErrConflict)
	}
	if err != nil {
		return 0, fmt.Errorf("append to game %s: %w", h.game, fault(err))
	}
	h.version = next
	return next, nil
}

// Release rolls back what is still open and hands the connection back; a
// connection left in a transaction is closed by the pool instead.
func (h *held) Release() {
	if h.c == nil {
		return
	}
	c := h.c
	h.c = nil
	if c.Conn().PgConn().TxStatus() != 'I' {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, _ = c.Exec(ctx, `ROLLBACK`)
		cancel()
	}
	c.Release()
}
