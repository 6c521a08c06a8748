// Package sqlite is the embedded default store.Store: one SQLite file in WAL
// mode, written by a single goroutine that commits appends in groups.
//
// Every write (Append, Create, Reveal) is a request to the writer goroutine,
// which owns the only write connection. It takes one request, then whatever
// others are already waiting (up to the batch limit, without waiting for
// more), and runs them all in one BEGIN IMMEDIATE transaction with one
// COMMIT, so many concurrent appends share one fsync. Each request is checked
// on its own against the game's version as it stands inside that
// transaction, so a stale request fails with store.ErrConflict and writes
// nothing while the others in its batch go on. If the transaction itself
// fails, every request in it gets the error and none of it is kept.
//
// Reads go through a separate pool of connections and, thanks to WAL, do not
// wait for writes. The version check happens under SQLite's write lock, so
// optimistic concurrency also holds between two processes (or two DB values)
// using the same file.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"orderly/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// ErrClosed is what every method returns once the store has been closed.
var ErrClosed = errors.New("the sqlite store is closed")

// ErrClaimed is the error of Open with Claim on a file that another DB
// opened with Claim holds, in this process or another.
var ErrClaimed = errors.New("another server holds the file")

var _ store.Store = (*DB)(nil)

// Option configures Open.
type Option func(*config)

type config struct {
	fullSync bool
	maxBatch int
	maxSize  int64
	readers  int
	claim    bool
	now      func() time.Time // the clock of Game.Created and Game.Played
	// beforeCommit, if set, is called by the writer with the number of
	// requests in a batch just before it commits; an error it returns fails
	// the batch as a failed COMMIT would. For tests only.
	beforeCommit func(n int) error
}

// WithSync chooses PRAGMA synchronous=FULL (full true, the default: every
// commit survives a power cut) or NORMAL (the last commits before a power
// cut may be lost, but the file stays consistent).
func WithSync(full bool) Option {
	return func(c *config) { c.fullSync = full }
}

// WithMaxSize caps the file at about size bytes (SQLite's
// max_page_count): a write that would grow it further fails as one on a
// full disk does, with store.ErrUnavailable, and changes nothing. Reads
// go on. 0 (the default) is no cap but the disk's.
func WithMaxSize(size int64) Option {
	return func(c *config) { c.maxSize = size }
}

// WithClock sets the clock by which a game's Created (when not given)
// and Played are stamped; time.Now by default.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.now = now }
}

// WithMaxBatch sets the most requests committed in one transaction (256 by
// default; less than 1 means 1).
func WithMaxBatch(n int) Option {
	return func(c *config) { c.maxBatch = max(n, 1) }
}

// Claim makes Open take the file for this DB alone among those opened
// with Claim, until Close: a server's claim, so that two servers never
// serve one file (each would hold games in memory that the other's
// writes leave stale). It is an advisory lock on the file PATH-lock
// beside the database, which the system releases when its process ends,
// however it ends. A DB opened without Claim (a command that reads or
// adds a game beside the server) neither takes nor heeds it. Open on a
// file another holds fails with ErrClaimed, having opened nothing. Where
// the system has no flock (not Unix), nothing is claimed.
func Claim() Option {
	return func(c *config) { c.claim = true }
}

// lockName is the lock file Claim takes for the database at path: beside
// the file a symbolic link leads to, so that two names of one file share
// it.
func lockName(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	return path + "-lock"
}

// DB is a store.Store kept in one SQLite file. Its methods are safe for
// concurrent use.
type DB struct {
	cfg config

	w     *sql.DB   // the writer handle: exactly one connection
	wconn *sql.Conn // that connection, owned by the writer goroutine
	ws    writeStmts
	r     *sql.DB // the reader pool
	rs    readStmts
	lock  io.Closer // the claim (Claim), released last

	reqs chan *request // unbuffered: a waiting sender is a queued request
	quit chan struct{} // closed by Close
	done chan struct{} // closed when the writer goroutine has ended

	closeOnce sync.Once
	closeErr  error

	// Batching statistics, for tests and curiosity.
	batches atomic.Int64 // transactions attempted
	grouped atomic.Int64 // transactions that held more than one request
	largest atomic.Int64 // the most requests in one transaction
}

type readStmts struct {
	events, gameExists, game, games, count, seat, seats, seeds *sql.Stmt
}

// dsn is the data source name for the file at path: a plain file name (not
// a file: URI, so that '%' and '#' in it mean nothing special) with the
// driver's query parameters.
func dsn(path string, fullSync, writer bool) string {
	sync := "NORMAL"
	if fullSync {
		sync = "FULL"
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous("+sync+")")
	q.Add("_pragma", "foreign_keys(ON)")
	if writer {
		// Transactions begun through database/sql (the migrations') take
		// the write lock at once rather than on their first write, so two
		// processes migrating together wait for each other instead of
		// failing with SQLITE_BUSY.
		q.Set("_txlock", "immediate")
	} else {
		q.Add("_pragma", "query_only(ON)")
	}
	return path + "?" + q.Encode()
}

func checkPath(path string) error {
	switch {
	case path == "":
		return errors.New("no database file given")
	case strings.Contains(path, "?"):
		return fmt.Errorf("database file %q: a '?' in the name is not supported", path)
	case path == ":memory:" || strings.HasPrefix(path, "file:"):
		return fmt.Errorf("database file %q: must be a plain file name", path)
	}
	return nil
}

// Open opens the database file at path, creating it if needed, brings its
// schema up to date and starts the writer. Close releases it. The path is a
// plain file name, not a file: URI, and may not hold a '?'. Several DB, in
// one process or several, may share a file; at most one of them opened
// with Claim.
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
	cfg := config{fullSync: true, maxBatch: 256, readers: max(4, runtime.GOMAXPROCS(0)), now: time.Now}
	for _, o := range opts {
		o(&cfg)
	}
	if err := checkPath(path); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	d := &DB{
		cfg:  cfg,
		reqs: make(chan *request),
		quit: make(chan struct{}),
		done: make(chan struct{}),
	}
	if cfg.claim {
		lock, err := claim(path)
		if err != nil {
			return nil, fmt.Errorf("open store %s: %w", path, err)
		}
		d.lock = lock
	}
	if err := d.open(ctx, path); err != nil {
		d.release()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	go d.write()
	return d, nil
}

func (d *DB) open(ctx context.Context, path string) error {
	var err error
	if d.w, err = sql.Open("sqlite", dsn(path, d.cfg.fullSync, true)); err != nil {
		return err
	}
	d.w.SetMaxOpenConns(1)
	d.w.SetMaxIdleConns(1)
	d.w.SetConnMaxLifetime(0)
	d.w.SetConnMaxIdleTime(0)
	// Fail now on a file that cannot be opened, rather than after retries.
	if err := d.w.PingContext(ctx); err != nil {
		return err
	}
	if err := migrate(ctx, d.w); err != nil {
		return err
	}
	if d.wconn, err = d.w.Conn(ctx); err != nil {
		return err
	}
	if d.cfg.maxSize > 0 {
		var size int64
		if err := d.wconn.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&size); err != nil {
			return err
		}
		// The pragma takes no parameters; the number is ours.
		if _, err := d.wconn.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, max(d.cfg.maxSize/size, 1))); err != nil {
			return err
		}
	}
	if err := d.ws.prepare(ctx, d.wconn); err != nil {
		return err
	}

	if d.r, err = sql.Open("sqlite", dsn(path, d.cfg.fullSync, false)); err != nil {
		return err
	}
	d.r.SetMaxOpenConns(d.cfg.readers)
	d.r.SetMaxIdleConns(d.cfg.readers)
	d.r.SetConnMaxLifetime(0)
	d.r.SetConnMaxIdleTime(0)
	const gameColumns = `SELECT id, title, rules, file, scenario, created, played, version, origin, tables, tables_file, fog, dice, genesis FROM games`
	return prepareAll(ctx, d.r.PrepareContext, []prep{
		// The log is the game's first version events: Events agrees
		// with Game, whatever else might be in the table.
		{&d.rs.events, `SELECT data FROM events WHERE game = ?1 AND seq > ?2
			AND seq <= (SELECT version FROM games WHERE id = ?1) ORDER BY seq LIMIT ?3`},
		{&d.rs.gameExists, `SELECT 1 FROM games WHERE id = ?`},
		{&d.rs.game, gameColumns + ` WHERE id = ?`},
		{&d.rs.games, gameColumns + ` ORDER BY created, rowid`},
		{&d.rs.count, `SELECT count(*) FROM games`},
		{&d.rs.seat, `SELECT hash, game, role, side, formation, label FROM seats WHERE hash = ?`},
		{&d.rs.seats, `SELECT hash, game, role, side, formation, label FROM seats WHERE game = ? ORDER BY n`},
		{&d.rs.seeds, `SELECT game, from_seq, secret, commitment, revealed FROM seeds WHERE game = ? ORDER BY from_seq`},
	})
}

type prep struct {
	stmt  **sql.Stmt
	query string
}

func prepareAll(ctx context.Context, prepare func(context.Context, string) (*sql.Stmt, error), ps []prep) error {
	for _, p := range ps {
		s, err := prepare(ctx, p.query)
		if err != nil {
			return fmt.Errorf("prepare %q: %w", p.query, err)
		}
		*p.stmt = s
	}
	return nil
}

// migrate applies the embedded migrations. Two processes opening a new file
// at once can both see a migration as pending; the loser's attempt fails
// (its tables exist) and is retried, when it finds the work done.
func migrate(ctx context.Context, db *sql.DB) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	var last error
	for attempt := range 5 {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return errors.Join(last, ctx.Err())
			case <-time.After(time.Duration(attempt) * 50 * time.Millisecond):
			}
		}
		p, err := goose.NewProvider(goose.DialectSQLite3, db, fsys,
			goose.WithDisableGlobalRegistry(true),
			goose.WithLogger(goose.NopLogger()))
		if err != nil {
			return fmt.Errorf("migrations: %w", err)
		}
		if _, last = p.Up(ctx); last == nil {
			return nil
		}
	}
	return fmt.Errorf("migrate: %w", last)
}

// release closes whatever open got as far as opening.
func (d *DB) release() error {
	var errs []error
	closeStmts := func(ss ...*sql.Stmt) {
		for _, s := range ss {
			if s != nil {
				errs = append(errs, s.Close())
			}
		}
	}
	closeStmts(d.ws.all()...)
	closeStmts(d.rs.events, d.rs.gameExists, d.rs.game, d.rs.games, d.rs.count, d.rs.seat, d.rs.seats, d.rs.seeds)
	if d.wconn != nil {
		errs = append(errs, d.wconn.Close())
	}
	if d.w != nil {
		errs = append(errs, d.w.Close())
	}
	if d.r != nil {
		errs = append(errs, d.r.Close())
	}
	if d.lock != nil {
		errs = append(errs, d.lock.Close())
	}
	return errors.Join(errs...)
}

// Slots is store.Paced: 64 commands at once. The file has one writer,
// which commits the appends waiting for it in one transaction, so the
// more are ready the more each flush carries; the wait is in memory, not
// in the database.
func (d *DB) Slots() int { return 64 }

// Close finishes the batch being committed, if any, fails the writes still
// waiting with ErrClosed, stops the writer and closes the file. Later calls
// return the first call's result.
func (d *DB) Close() error {
	d.closeOnce.Do(func() {
		close(d.quit)
		<-d.done
		if err := d.release(); err != nil {
			d.closeErr = fmt.Errorf("close store: %w", err)
		}
	})
	return d.closeErr
}

// closedErr turns the database/sql error for a closed handle into
// ErrClosed, and marks those that say the file cannot be used just now
// (fault).
func (d *DB) closedErr(err error) error {
	select {
	case <-d.quit:
		return fault(ErrClosed)
	default:
		return fault(err)
	}
}

// Append adds events to a game's log if its version is still version. See
// store.Store. Once the request has reached the writer, Append waits for its
// outcome even if ctx is cancelled, so that a nil error always means the
// events are committed and an error always means they are not.
func (d *DB) Append(ctx context.Context, game string, version int, events []json.RawMessage) (int, error) {
	if err := store.CheckEvents(events); err != nil {
		return 0, fmt.Errorf("append to game %s: %w", game, err)
	}
	r := &request{op: opAppend, game: game, version: version, events: events, at: d.cfg.now()}
	v, err := d.send(ctx, r)
	if err != nil {
		return 0, fmt.Errorf("append to game %s: %w", game, fault(err))
	}
	return v, nil
}

// Create records a new game, its seats (in the order given), its seeds and
// its first events, all or nothing; its version is len(events). The Game
// fields of the seats and seeds may be left empty; g.Version is ignored,
// a zero g.Created or g.Played means now (a game copied from another
// store keeps its own).
func (d *DB) Create(ctx context.Context, g store.Game, seats []store.Seat, seeds []store.Seed, events []json.RawMessage) error {
	if err := store.CheckCreate(g, seats, seeds, events); err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, err)
	}
	now := d.cfg.now()
	if g.Created.IsZero() {
		g.Created = now
	}
	if g.Played.IsZero() {
		g.Played = now
	}
	r := &request{op: opCreate, game: g.ID, g: g, seats: seats, seeds: seeds, events: events}
	if _, err := d.send(ctx, r); err != nil {
		return fmt.Errorf("create game %s: %w", g.ID, fault(err))
	}
	return nil
}

// Reveal marks every secret seed of the game revealed at version and adds
// next, all or nothing. It is store.ErrConflict if the game is not at
// version, if next.From is not version+1, or if a seed from next.From
// already exists (someone else revealed at this version first).
func (d *DB) Reveal(ctx context.Context, game string, version int, next store.Seed) error {
	if next.Game != "" && next.Game != game {
		return fmt.Errorf("reveal seeds of game %s: the next seed is for game %s", game, next.Game)
	}
	r := &request{op: opReveal, game: game, version: version, seed: next, at: d.cfg.now()}
	if _, err := d.send(ctx, r); err != nil {
		return fmt.Errorf("reveal seeds of game %s at version %d: %w", game, version, fault(err))
	}
	return nil
}

// Delete removes a game with its log, seats and seeds, all or nothing (in
// one transaction); ErrNotFound if there is none. See store.Store.
func (d *DB) Delete(ctx context.Context, game string) error {
	r := &request{op: opDelete, game: game}
	if _, err := d.send(ctx, r); err != nil {
		return fmt.Errorf("delete game %s: %w", game, fault(err))
	}
	return nil
}

// send hands r to the writer and waits for its answer. Until the writer has
// taken r, ctx or Close can call it off and nothing is written; after, the
// answer is awaited whatever happens, as the writer always gives one.
func (d *DB) send(ctx context.Context, r *request) (int, error) {
	r.ctx = ctx
	r.reply = make(chan result, 1)
	select {
	case <-d.quit:
		return 0, ErrClosed
	default:
	}
	select {
	case d.reqs <- r:
	case <-d.quit:
		return 0, ErrClosed
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	res := <-r.reply
	return res.version, res.err
}

// Events returns a game's events after the first since, in order, at most
// limit of them (0: all).
func (d *DB) Events(ctx context.Context, game string, since, limit int) ([]json.RawMessage, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	events, err := d.events(ctx, game, max(since, 0), limit)
	if err != nil {
		return nil, fmt.Errorf("events of game %s: %w", game, d.closedErr(err))
	}
	return events, nil
}

func (d *DB) events(ctx context.Context, game string, since, limit int) ([]json.RawMessage, error) {
	rows, err := d.rs.events.QueryContext(ctx, game, since, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var events []json.RawMessage
	for rows.Next() {
		var e []byte
		if err := rows.Scan(&e); err != nil {
			return nil, err
		}
		events = append(events, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(events) == 0 {
		return nil, d.gameExists(ctx, game)
	}
	return events, nil
}

// gameExists is nil if the game exists, ErrNotFound if not.
func (d *DB) gameExists(ctx context.Context, game string) error {
	var one int
	err := d.rs.gameExists.QueryRowContext(ctx, game).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	}
	return err
}

type scanner interface{ Scan(dest ...any) error }

func scanGame(s scanner) (store.Game, error) {
	var (
		g               store.Game
		created, played int64
	)
	if err := s.Scan(&g.ID, &g.Title, &g.Rules, &g.File, &g.Scenario, &created, &played, &g.Version, &g.Origin, &g.Tables, &g.TablesFile, &g.Fog, &g.Dice, &g.Genesis); err != nil {
		return store.Game{}, err
	}
	g.Created, g.Played = time.Unix(0, created), time.Unix(0, played)
	return g, nil
}

// Game returns one game's record.
func (d *DB) Game(ctx context.Context, id string) (store.Game, error) {
	g, err := scanGame(d.rs.game.QueryRowContext(ctx, id))
	if errors.Is(err, sql.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.Game{}, fmt.Errorf("game %s: %w", id, d.closedErr(err))
	}
	return g, nil
}

// Games returns every game's record, oldest first (in the order they were
// created, for games created at the same instant).
func (d *DB) Games(ctx context.Context) ([]store.Game, error) {
	games, err := d.games(ctx)
	if err != nil {
		return nil, fmt.Errorf("games: %w", d.closedErr(err))
	}
	return games, nil
}

func (d *DB) games(ctx context.Context) ([]store.Game, error) {
	rows, err := d.rs.games.QueryContext(ctx)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var games []store.Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	return games, rows.Err()
}

// Count is the number of games.
func (d *DB) Count(ctx context.Context) (int, error) {
	var n int
	if err := d.rs.count.QueryRowContext(ctx).Scan(&n); err != nil {
		return 0, fmt.Errorf("count games: %w", d.closedErr(err))
	}
	return n, nil
}

// Reissue gives a seat a new token hash. See store.Store.
func (d *DB) Reissue(ctx context.Context, game string, old, new []byte) error {
	if len(new) == 0 {
		return fmt.Errorf("reissue a seat of game %s: no new hash", game)
	}
	r := &request{op: opReissue, game: game, old: old, hash: new}
	if _, err := d.send(ctx, r); err != nil {
		return fmt.Errorf("reissue a seat of game %s: %w", game, fault(err))
	}
	return nil
}

func scanSeat(s scanner) (store.Seat, error) {
	var seat store.Seat
	err := s.Scan(&seat.Hash, &seat.Game, &seat.Role, &seat.Side, &seat.Formation, &seat.Label)
	return seat, err
}

// Seat returns the seat whose token hashes to hash.
func (d *DB) Seat(ctx context.Context, hash []byte) (store.Seat, error) {
	seat, err := scanSeat(d.rs.seat.QueryRowContext(ctx, hash))
	if errors.Is(err, sql.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.Seat{}, fmt.Errorf("seat %x: %w", hash, d.closedErr(err))
	}
	return seat, nil
}

// Seats returns a game's seats, in the order they were given to Create.
func (d *DB) Seats(ctx context.Context, game string) ([]store.Seat, error) {
	seats, err := d.seats(ctx, game)
	if err != nil {
		return nil, fmt.Errorf("seats of game %s: %w", game, d.closedErr(err))
	}
	return seats, nil
}

func (d *DB) seats(ctx context.Context, game string) ([]store.Seat, error) {
	rows, err := d.rs.seats.QueryContext(ctx, game)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var seats []store.Seat
	for rows.Next() {
		s, err := scanSeat(rows)
		if err != nil {
			return nil, err
		}
		seats = append(seats, s)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(seats) == 0 {
		return nil, d.gameExists(ctx, game)
	}
	return seats, nil
}

// Seeds returns a game's seeds, oldest first.
func (d *DB) Seeds(ctx context.Context, game string) ([]store.Seed, error) {
	seeds, err := d.seeds(ctx, game)
	if err != nil {
		return nil, fmt.Errorf("seeds of game %s: %w", game, d.closedErr(err))
	}
	return seeds, nil
}

func (d *DB) seeds(ctx context.Context, game string) ([]store.Seed, error) {
	rows, err := d.rs.seeds.QueryContext(ctx, game)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var seeds []store.Seed
	for rows.Next() {
		var s store.Seed
		if err := rows.Scan(&s.Game, &s.From, &s.Key, &s.Commitment, &s.Revealed); err != nil {
			return nil, err
		}
		seeds = append(seeds, s)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(seeds) == 0 {
		return nil, d.gameExists(ctx, game)
	}
	return seeds, nil
}
