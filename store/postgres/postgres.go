// Package postgres is a store.Store on PostgreSQL, for hosts that run
// several orderly instances on one database (issue 16). It keeps the same
// promises as the SQLite store: an append is committed (and so durable,
// with PostgreSQL's default synchronous_commit) before it is acknowledged;
// a stale version is refused with store.ErrConflict and changes nothing;
// events are kept as the exact bytes given, which the hash chain binds.
//
// Every change to a game's log is announced on the channel Channel in the
// same transaction (NOTIFY, delivered only if it commits), carrying only
// the game's id and new version: Listen hears them, so that an instance
// learns of commands accepted on another.
package postgres

import (
	"context"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"orderly/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Channel is the NOTIFY channel a game's new versions are announced on.
const Channel = "orderly_games"

// ErrClosed is what every method returns once the store has been closed.
var ErrClosed = errors.New("the postgres store is closed")

var _ store.Store = (*DB)(nil)

// DB is a store.Store in a PostgreSQL database. Its methods are safe for
// concurrent use.
type DB struct {
	pool   *pgxpool.Pool
	url    string
	now    func() time.Time // the clock of Game.Created and Game.Played
	closed atomic.Bool
}

// Option configures Open.
type Option func(*DB)

// WithClock sets the clock by which a game's Created (when not given)
// and Played are stamped; time.Now by default.
func WithClock(now func() time.Time) Option {
	return func(d *DB) { d.now = now }
}

// IsURL reports whether s names a PostgreSQL database (postgres:// or
// postgresql://) rather than a file.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// defaultConns is the most connections one DB opens unless the URL says
// (pool_max_conns).
const defaultConns = 32

// Open connects to the database at url (postgres://...) and brings its
// schema up to date. Several instances may open one database at once: the
// migrations run under an advisory lock, one instance at a time.
func Open(ctx context.Context, url string, opts ...Option) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", Redact(url), err)
	}
	if !strings.Contains(url, "pool_max_conns") {
		// pgx's default (four, or the number of CPUs) holds a server's
		// commits to as many at a time; the database groups the commits
		// of more connections into one flush.
		cfg.MaxConns = defaultConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", Redact(url), err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open %s: %w", Redact(url), err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open %s: %w", Redact(url), err)
	}
	d := &DB{pool: pool, url: url, now: time.Now}
	for _, o := range opts {
		o(d)
	}
	return d, nil
}

// Redact is url with its password, if any, replaced by xxxxx: for
// messages and logs.
func Redact(url string) string {
	cfg, err := pgconn.ParseConfig(url)
	if err != nil || cfg.Password == "" {
		return url
	}
	return strings.Replace(url, ":"+cfg.Password+"@", ":xxxxx@", 1)
}

// migrate applies the embedded migrations, under a session advisory lock
// so that instances started together do not race.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 120))
	if err != nil {
		return err
	}
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys,
		goose.WithDisableGlobalRegistry(true),
		goose.WithSessionLocker(locker),
		goose.WithLogger(goose.NopLogger()))
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// URL is the address the store was opened with.
func (d *DB) URL() string { return d.url }

// Pool is the store's connection pool, for Listen and health checks.
func (d *DB) Pool() *pgxpool.Pool { return d.pool }

// Slots is store.Paced: four commands at once from each instance. On a
// database that shares its cores with the instances, more only queue in
// its backends, slowing every commit and the reads that carry one
// instance's events to another's streams; the rest of the pool is left
// to those reads. A host whose database has cores to spare raises it
// (orderly serve --max-commands).
func (d *DB) Slots() int { return 4 }

// Close releases the store's connections. Later calls do nothing.
func (d *DB) Close() error {
	if d.closed.CompareAndSwap(false, true) {
		d.pool.Close()
	}
	return nil
}

// check fails at once on a closed store, so that no call waits on a closed
// pool.
func (d *DB) check() error {
	if d.closed.Load() {
		return ErrClosed
	}
	return nil
}

// inTx runs f in a transaction and commits it if f returns nil; an error
// rolls everything back.
func (d *DB) inTx(ctx context.Context, f func(tx pgx.Tx) error) error {
	if err := d.check(); err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, d.pool, f)
}

// notify announces game's new version, within tx: heard only if tx
// commits.
func notify(ctx context.Context, tx pgx.Tx, game string, version int) error {
	return announce(ctx, tx, store.Notice{Game: game, Version: version})
}

// announce sends n, within tx: heard only if tx commits.
func announce(ctx context.Context, tx pgx.Tx, n store.Notice) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, Channel, payload(n))
	return err
}

// insertEvents adds events to game's log as seq from+1, from+2, ...; a
// key already taken is a conflict.
func insertEvents(ctx context.Context, tx pgx.Tx, game string, from int, events []json.RawMessage) error {
	if len(events) == 0 {
		return nil
	}
	seqs, data := rows(from, events)
	_, err := tx.Exec(ctx, `INSERT INTO events (game, seq, data) SELECT $1, s, d FROM unnest($2::integer[], $3::bytea[]) AS t(s, d)`, game, seqs, data)
	if isUnique(err) {
		return fmt.Errorf("events %d to %d: %w (%v)", from+1, from+len(events), store.ErrConflict, err)
	}
	return err
}

// rows is events as the columns of the events table: their numbers from
// from+1 on, and their bytes.
func rows(from int, events []json.RawMessage) ([]int32, [][]byte) {
	seqs := make([]int32, len(events))
	data := make([][]byte, len(events))
	for i, e := range events {
		seqs[i], data[i] = int32(from+1+i), e
	}
	return seqs, data
}

// isUnique reports whether err is a unique or primary key violation.
func isUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// Append adds events to a game's log if its version is still version. See
// store.Store. It is one statement, and so one transaction and one round
// trip (appendSQL): the version's UPDATE locks the game's row until it
// commits, so two instances appending to one game at once are put in
// order and the second finds the version moved on; the events are
// inserted and the new version announced only if the UPDATE matched.
func (d *DB) Append(ctx context.Context, game string, version int, events []json.RawMessage) (int, error) {
	if err := store.CheckEvents(events); err != nil {
		return 0, fmt.Errorf("append to game %s: %w", game, fault(err))
	}
	if err := d.check(); err != nil {
		return 0, fmt.Errorf("append to game %s: %w", game, fault(err))
	}
	next := version + len(events)
	seqs, data := rows(version, events)
	var moved, added int
	err := d.pool.QueryRow(ctx, appendSQL, next, game, version, seqs, data,
		Channel, payload(store.Notice{Game: game, Version: next}), d.now().UnixNano()).Scan(&moved, &added, nil)
	switch {
	case isUnique(err):
		err = fmt.Errorf("events %d to %d: %w (%v)", version+1, next, store.ErrConflict, err)
	case err == nil && moved == 0:
		err = d.refusal(ctx, game, version)
	case err == nil && added != len(events):
		err = fmt.Errorf("%d of %d events were added", added, len(events))
	}
	if err != nil {
		return 0, fmt.Errorf("append to game %s: %w", game, fault(err))
	}
	return next, nil
}

// appendSQL moves a game from version $3 to $1 (played at $8), adds the
// events ($4 their numbers, $5 their bytes) and notifies channel $6 of
// payload $7, all only if the game was at $3; it returns how many games moved (0 or 1)
// and how many events were added. CASE evaluates pg_notify only when
// events were added.
const appendSQL = `WITH moved AS (
	UPDATE games SET version = $1, played = $8 WHERE id = $2 AND version = $3 RETURNING id
), added AS (
	INSERT INTO events (game, seq, data)
	SELECT moved.id, t.s, t.d FROM moved, unnest($4::integer[], $5::bytea[]) AS t(s, d)
	RETURNING 1
)
SELECT m.n, a.n, CASE WHEN a.n > 0 THEN pg_notify($6, $7)::text END
FROM (SELECT count(*) AS n FROM moved) AS m, (SELECT count(*) AS n FROM added) AS a`

// refusal says why game is not at version: it does not exist, or it has
// moved on.
func (d *DB) refusal(ctx context.Context, game string, version int) error {
	var cur int
	err := d.pool.QueryRow(ctx, `SELECT version FROM games WHERE id = $1`, game).Scan(&cur)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.ErrNotFound
	case err != nil:
		return err
	}
	return fmt.Errorf("version %d is stale, the game is at %d: %w", version, cur, store.ErrConflict)
}

// nonNil is b, or an empty slice for nil, which would be NULL.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// Create records a new game, its seats (in the order given), its seeds and
// its first events, all or nothing; its version is len(events). The Game
// fields of the seats and seeds may be left empty; g.Version is ignored,
// a zero g.Created or g.Played means now (a game copied from another
// store keeps its own).
func (d *DB) Create(ctx context.Context, g store.Game, seats []store.Seat, seeds []store.Seed, events []json.RawMessage) error {
	if err := store.CheckCreate(g, seats, seeds, events); err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, fault(err))
	}
	now := d.now()
	if g.Created.IsZero() {
		g.Created = now
	}
	if g.Played.IsZero() {
		g.Played = now
	}
	err := d.inTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO games (id, title, rules, file, scenario, created, played, version, origin, tables, tables_file, fog, dice, genesis)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
			g.ID, g.Title, g.Rules, g.File, nonNil(g.Scenario), g.Created.UnixNano(), g.Played.UnixNano(), len(events), g.Origin, nonNil(g.Tables), g.TablesFile, g.Fog, g.Dice, g.Genesis)
		if isUnique(err) {
			return store.ErrExists
		}
		if err != nil {
			return err
		}
		for i, s := range seats {
			_, err := tx.Exec(ctx, `INSERT INTO seats (hash, game, role, side, formation, label, n) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
				s.Hash, g.ID, s.Role, s.Side, s.Formation, s.Label, i)
			if isUnique(err) {
				return fmt.Errorf("seat %d (%s): its hash is taken: %w", i+1, s.Label, store.ErrExists)
			}
			if err != nil {
				return err
			}
		}
		for _, s := range seeds {
			if err := insertSeed(ctx, tx, g.ID, s); err != nil {
				if isUnique(err) {
					return fmt.Errorf("the seed from event %d: %w", s.From, err)
				}
				return err
			}
		}
		if err := insertEvents(ctx, tx, g.ID, 0, events); err != nil {
			return err
		}
		return notify(ctx, tx, g.ID, len(events))
	})
	if err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, fault(err))
	}
	return nil
}

func insertSeed(ctx context.Context, tx pgx.Tx, game string, s store.Seed) error {
	_, err := tx.Exec(ctx, `INSERT INTO seeds (game, from_seq, secret, commitment, revealed) VALUES ($1, $2, $3, $4, $5)`,
		game, s.From, nonNil(s.Key), s.Commitment, s.Revealed)
	return err
}

// Reveal marks every secret seed of the game revealed at version and adds
// next, all or nothing. It is store.ErrConflict if the game is not at
// version, if next.From is not version+1, or if a seed from next.From
// already exists (someone else revealed at this version first).
func (d *DB) Reveal(ctx context.Context, game string, version int, next store.Seed) error {
	if next.Game != "" && next.Game != game {
		return fmt.Errorf("reveal seeds of game %s: the next seed is for game %s", game, next.Game)
	}
	err := d.inTx(ctx, func(tx pgx.Tx) error {
		// The game's row locked, as an append locks it: no event can come
		// between the check and the reveal.
		var cur int
		err := tx.QueryRow(ctx, `SELECT version FROM games WHERE id = $1 FOR UPDATE`, game).Scan(&cur)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return store.ErrNotFound
		case err != nil:
			return err
		case cur != version:
			return fmt.Errorf("version %d is stale, the game is at %d: %w", version, cur, store.ErrConflict)
		case next.From != version+1:
			return fmt.Errorf("the next seed must start at event %d, not %d: %w", version+1, next.From, store.ErrConflict)
		}
		if _, err := tx.Exec(ctx, `UPDATE seeds SET revealed = $1 WHERE game = $2 AND revealed = 0`, version, game); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET played = $1 WHERE id = $2`, d.now().UnixNano(), game); err != nil {
			return err
		}
		if err := insertSeed(ctx, tx, game, next); err != nil {
			if isUnique(err) {
				return fmt.Errorf("a seed from event %d already exists: %w", next.From, store.ErrConflict)
			}
			return err
		}
		return announce(ctx, tx, store.Notice{Game: game, Version: version, Seeds: true})
	})
	if err != nil {
		return fmt.Errorf("reveal seeds of game %s at version %d: %w", game, version, fault(err))
	}
	return nil
}

// Events returns a game's events after the first since, in order, at most
// limit of them (0: all).
func (d *DB) Events(ctx context.Context, game string, since, limit int) ([]json.RawMessage, error) {
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("events of game %s: %w", game, fault(err))
	}
	var lim any
	if limit > 0 {
		lim = limit
	}
	rows, err := d.pool.Query(ctx, `SELECT data FROM events WHERE game = $1 AND seq > $2
		AND seq <= (SELECT version FROM games WHERE id = $1) ORDER BY seq LIMIT $3`, game, max(since, 0), lim)
	if err != nil {
		return nil, fmt.Errorf("events of game %s: %w", game, fault(err))
	}
	events, err := collect(rows)
	if err == nil && len(events) == 0 {
		events, err = nil, d.exists(ctx, game)
	}
	if err != nil {
		return nil, fmt.Errorf("events of game %s: %w", game, fault(err))
	}
	return events, nil
}

// collect reads rows of one bytea column.
func collect(rows pgx.Rows) ([]json.RawMessage, error) {
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (json.RawMessage, error) {
		var b []byte
		err := r.Scan(&b)
		return b, err
	})
}

// exists is nil if the game exists, store.ErrNotFound if not.
func (d *DB) exists(ctx context.Context, game string) error {
	var one int
	err := d.pool.QueryRow(ctx, `SELECT 1 FROM games WHERE id = $1`, game).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}

const gameColumns = `SELECT id, title, rules, file, scenario, created, played, version, origin, tables, tables_file, fog, dice, genesis FROM games`

func scanGame(r pgx.Row) (store.Game, error) {
	var (
		g               store.Game
		created, played int64
	)
	if err := r.Scan(&g.ID, &g.Title, &g.Rules, &g.File, &g.Scenario, &created, &played, &g.Version, &g.Origin, &g.Tables, &g.TablesFile, &g.Fog, &g.Dice, &g.Genesis); err != nil {
		return store.Game{}, err
	}
	g.Created, g.Played = time.Unix(0, created), time.Unix(0, played)
	return g, nil
}

// Game returns one game's record.
func (d *DB) Game(ctx context.Context, id string) (store.Game, error) {
	if err := d.check(); err != nil {
		return store.Game{}, fmt.Errorf("game %s: %w", id, fault(err))
	}
	g, err := scanGame(d.pool.QueryRow(ctx, gameColumns+` WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.Game{}, fmt.Errorf("game %s: %w", id, fault(err))
	}
	return g, nil
}

// Games returns every game's record, oldest first (in the order they were
// created, for games created at the same instant).
func (d *DB) Games(ctx context.Context) ([]store.Game, error) {
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("games: %w", fault(err))
	}
	rows, err := d.pool.Query(ctx, gameColumns+` ORDER BY created, n`)
	if err != nil {
		return nil, fmt.Errorf("games: %w", fault(err))
	}
	games, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Game, error) { return scanGame(r) })
	if err != nil {
		return nil, fmt.Errorf("games: %w", fault(err))
	}
	return games, nil
}

// Count is the number of games.
func (d *DB) Count(ctx context.Context) (int, error) {
	if err := d.check(); err != nil {
		return 0, fmt.Errorf("count games: %w", fault(err))
	}
	var n int
	if err := d.pool.QueryRow(ctx, `SELECT count(*) FROM games`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count games: %w", fault(err))
	}
	return n, nil
}

// Reissue gives a seat a new token hash. See store.Store.
func (d *DB) Reissue(ctx context.Context, game string, old, new []byte) error {
	if len(new) == 0 {
		return fmt.Errorf("reissue a seat of game %s: no new hash", game)
	}
	if err := d.check(); err != nil {
		return fmt.Errorf("reissue a seat of game %s: %w", game, fault(err))
	}
	err := pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE seats SET hash = $1 WHERE game = $2 AND hash = $3`, new, game, old)
		switch {
		case isUnique(err):
			return fmt.Errorf("the new hash is taken: %w", store.ErrExists)
		case err != nil:
			return err
		case tag.RowsAffected() == 0:
			return fmt.Errorf("no such seat: %w", store.ErrNotFound)
		}
		// Every process serving the game drops the old token at once.
		return announce(ctx, tx, store.Notice{Game: game, Revoked: string(old)})
	})
	if err != nil {
		return fmt.Errorf("reissue a seat of game %s: %w", game, fault(err))
	}
	return nil
}

// Delete removes a game with its log, seats and seeds in one transaction,
// and announces it (store.Notice.Deleted) so that every instance drops
// the game and its seats; ErrNotFound if there is none. The game's row is
// locked first, as an append or a hold locks it: an append waiting on it
// then finds no game.
func (d *DB) Delete(ctx context.Context, game string) error {
	err := d.inTx(ctx, func(tx pgx.Tx) error {
		var one int
		err := tx.QueryRow(ctx, `SELECT 1 FROM games WHERE id = $1 FOR UPDATE`, game).Scan(&one)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return fmt.Errorf("no such game: %w", store.ErrNotFound)
		case err != nil:
			return err
		}
		// The game's row is named by the others, so it goes last.
		for _, q := range []string{
			`DELETE FROM events WHERE game = $1`,
			`DELETE FROM seats WHERE game = $1`,
			`DELETE FROM seeds WHERE game = $1`,
			`DELETE FROM games WHERE id = $1`,
		} {
			if _, err := tx.Exec(ctx, q, game); err != nil {
				return err
			}
		}
		return announce(ctx, tx, store.Notice{Game: game, Deleted: true})
	})
	if err != nil {
		return fmt.Errorf("delete game %s: %w", game, fault(err))
	}
	return nil
}

const seatColumns = `SELECT hash, game, role, side, formation, label FROM seats`

func scanSeat(r pgx.Row) (store.Seat, error) {
	var s store.Seat
	err := r.Scan(&s.Hash, &s.Game, &s.Role, &s.Side, &s.Formation, &s.Label)
	return s, err
}

// Seat returns the seat whose token hashes to hash.
func (d *DB) Seat(ctx context.Context, hash []byte) (store.Seat, error) {
	if err := d.check(); err != nil {
		return store.Seat{}, fmt.Errorf("seat %x: %w", hash, fault(err))
	}
	s, err := scanSeat(d.pool.QueryRow(ctx, seatColumns+` WHERE hash = $1`, hash))
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.Seat{}, fmt.Errorf("seat %x: %w", hash, fault(err))
	}
	return s, nil
}

// Seats returns a game's seats, in the order they were given to Create.
func (d *DB) Seats(ctx context.Context, game string) ([]store.Seat, error) {
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("seats of game %s: %w", game, fault(err))
	}
	rows, err := d.pool.Query(ctx, seatColumns+` WHERE game = $1 ORDER BY n`, game)
	if err != nil {
		return nil, fmt.Errorf("seats of game %s: %w", game, fault(err))
	}
	seats, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Seat, error) { return scanSeat(r) })
	if err == nil && len(seats) == 0 {
		seats, err = nil, d.exists(ctx, game)
	}
	if err != nil {
		return nil, fmt.Errorf("seats of game %s: %w", game, fault(err))
	}
	return seats, nil
}

// Seeds returns a game's seeds, oldest first.
func (d *DB) Seeds(ctx context.Context, game string) ([]store.Seed, error) {
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("seeds of game %s: %w", game, fault(err))
	}
	rows, err := d.pool.Query(ctx, `SELECT game, from_seq, secret, commitment, revealed FROM seeds WHERE game = $1 ORDER BY from_seq`, game)
	if err != nil {
		return nil, fmt.Errorf("seeds of game %s: %w", game, fault(err))
	}
	seeds, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Seed, error) {
		var s store.Seed
		err := r.Scan(&s.Game, &s.From, &s.Key, &s.Commitment, &s.Revealed)
		return s, err
	})
	if err == nil && len(seeds) == 0 {
		seeds, err = nil, d.exists(ctx, game)
	}
	if err != nil {
		return nil, fmt.Errorf("seeds of game %s: %w", game, fault(err))
	}
	return seeds, nil
}

// payload is a notice as it is sent: VERSION SPACE GAME; seeds SPACE
// VERSION SPACE GAME; revoked SPACE HEX-HASH SPACE GAME; or deleted SPACE
// GAME.
func payload(n store.Notice) string {
	switch {
	case n.Deleted:
		return "deleted " + n.Game
	case n.Revoked != "":
		return "revoked " + hex.EncodeToString([]byte(n.Revoked)) + " " + n.Game
	case n.Seeds:
		return "seeds " + strconv.Itoa(n.Version) + " " + n.Game
	}
	return strconv.Itoa(n.Version) + " " + n.Game
}

// parseNotice reads a notice's payload.
func parseNotice(s string) (store.Notice, bool) {
	v, game, ok := strings.Cut(s, " ")
	if v == "deleted" {
		if !ok || game == "" {
			return store.Notice{}, false
		}
		return store.Notice{Game: game, Deleted: true}, true
	}
	if v == "revoked" {
		h, g, ok := strings.Cut(game, " ")
		b, err := hex.DecodeString(h)
		if !ok || err != nil || len(b) == 0 || g == "" {
			return store.Notice{}, false
		}
		return store.Notice{Game: g, Revoked: string(b)}, true
	}
	seeds := v == "seeds"
	if seeds {
		v, game, ok = strings.Cut(game, " ")
	}
	n, err := strconv.Atoi(v)
	if !ok || err != nil || game == "" || strconv.Itoa(n) != v {
		return store.Notice{}, false
	}
	return store.Notice{Game: game, Version: n, Seeds: seeds}, true
}

// Listen hears the notices on Channel (store.Watcher), on a connection of
// its own, until ctx ends. Notices sent while nobody listens are lost, so
// each time it starts listening it calls l.Listening, from which the
// caller reads from the database what it may have missed.
func (d *DB) Listen(ctx context.Context, pause time.Duration, l store.Listener) error {
	wait := 50 * time.Millisecond
	for {
		err := d.listen(ctx, l, func() { wait = 50 * time.Millisecond })
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if l.Lost != nil {
			l.Lost(err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, max(pause, 50*time.Millisecond))
	}
}

// listen is one connection's listening: LISTEN, then l.Listening, then
// each notice until the connection fails or ctx ends.
func (d *DB) listen(ctx context.Context, l store.Listener, connected func()) error {
	if err := d.check(); err != nil {
		return err
	}
	conn, err := d.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// The connection is not given back to the pool: it may still be
	// listening, or broken.
	c := conn.Hijack()
	defer c.Close(context.Background())
	if _, err := c.Exec(ctx, "LISTEN "+pgx.Identifier{Channel}.Sanitize()); err != nil {
		return err
	}
	connected()
	if l.Listening != nil {
		l.Listening()
	}
	for {
		n, err := c.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if no, ok := parseNotice(n.Payload); ok && l.Heard != nil {
			l.Heard(no)
		}
	}
}
