// Package pgtest runs a throwaway PostgreSQL cluster for tests: initdb into
// a temporary folder and pg_ctl on a Unix socket there, from the
// postgresql package's binaries, so that a test needs no server set up by
// hand. Without the binaries a test skips with a message, except in CI
// (the CI environment variable set), where .ci/run installs them and a
// test without them fails.
//
// A test binary starts at most one cluster, the first time a test asks for
// a database, and stops it when the binary's tests are done (Main). Each
// test gets a database of its own.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cluster is a PostgreSQL server of the test binary's own, listening only
// on a Unix socket in its folder.
type Cluster struct {
	dir  string   // the cluster's folder: data/ and the socket
	as   []string // the command prefix that runs a binary as the cluster's owner
	bin  string   // the folder of initdb, pg_ctl and postgres
	user string   // the cluster's superuser
	opts string   // the server's options, for Resume
	n    atomic.Int64
}

var (
	once    sync.Once
	shared  *Cluster
	started error
)

// Main runs a test binary's tests and then stops the cluster if one was
// started: call it from TestMain as os.Exit(pgtest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
		}
	}
	return code
}

// DB starts the cluster if need be and makes a new empty database for t,
// returning its URL (postgres://USER@/NAME?host=SOCKETDIR). Without the
// binaries it skips t, or fails it in CI.
func DB(t testing.TB) string {
	t.Helper()
	once.Do(func() { shared, started = Start() })
	if started != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL is needed in CI: %v", started)
		}
		t.Skipf("no PostgreSQL to test against: %v", started)
	}
	u, err := shared.Database(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// Shared is the cluster DB uses, started if need be: for tests that run
// servers against it (a database of their own from Database).
func Shared(t testing.TB) *Cluster {
	DB(t)
	return shared
}

// bin finds the folder of initdb and pg_ctl: on PATH, or in Debian's
// /usr/lib/postgresql/VERSION/bin, newest first.
func bin() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Dir(real), nil
		}
		return filepath.Dir(p), nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	best, bestV := "", -1
	for _, d := range dirs {
		v, err := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		if err == nil && v > bestV {
			if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
				best, bestV = d, v
			}
		}
	}
	if best == "" {
		return "", errors.New("pg_ctl is neither on PATH nor in /usr/lib/postgresql/*/bin (Debian's postgresql package)")
	}
	return best, nil
}

// Start makes and starts a cluster in a new temporary folder, with fsync
// off, as nothing in it outlives the tests. PostgreSQL will not run as
// root: as root the cluster is run as the postgres user.
func Start() (*Cluster, error) { return start(durability{}) }

// StartDurable is Start with PostgreSQL's durable defaults (fsync,
// synchronous commit, full page writes): for figures of durable commits.
func StartDurable() (*Cluster, error) { return start(durability{fsync: true, commit: true}) }

// StartCrashSafe is Start with synchronous commit: a commit is answered
// once the server has handed it to the operating system (but without
// fsync), so that a server stopped as by a crash (Halt "immediate")
// loses no commit it answered. For tests that stop the database.
func StartCrashSafe() (*Cluster, error) { return start(durability{commit: true}) }

// durability is what of PostgreSQL's durability a cluster keeps: fsync
// (and full page writes), and synchronous commit.
type durability struct{ fsync, commit bool }

func start(d durability) (*Cluster, error) {
	b, err := bin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "orderly-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, bin: b, user: "orderly"}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root, and there is no postgres user to run the cluster as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		c.as = []string{"setpriv", "--reuid=" + u.Uid, "--regid=" + u.Gid, "--init-groups", "--"}
	}
	data := filepath.Join(dir, "data")
	if out, err := c.run("initdb", "-D", data, "-U", c.user, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	// Only the socket in the cluster's folder; room for the instances and
	// clients of a test.
	c.opts = fmt.Sprintf("-c listen_addresses='' -c unix_socket_directories='%s' -c max_connections=300", dir)
	if !d.fsync {
		c.opts += " -c fsync=off -c full_page_writes=off"
	}
	if !d.commit {
		c.opts += " -c synchronous_commit=off"
	}
	if err := c.Resume(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return c, nil
}

// Halt stops the cluster's server, keeping its data: mode is pg_ctl's
// (fast: the clients' connections are ended and the server shuts down
// cleanly; immediate: the server processes quit at once, as in a crash).
// Resume starts it again.
func (c *Cluster) Halt(mode string) error {
	if out, err := c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", mode, "-w", "stop"); err != nil {
		return fmt.Errorf("pg_ctl stop -m %s: %v: %s", mode, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Resume starts the cluster's server, as Start did, and waits until it
// takes connections.
func (c *Cluster) Resume() error {
	if out, err := c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-o", c.opts, "-l", filepath.Join(c.dir, "log"), "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		return fmt.Errorf("pg_ctl start: %v: %s %s", err, out, log)
	}
	return nil
}

func (c *Cluster) run(name string, args ...string) ([]byte, error) {
	argv := append(append(append([]string{}, c.as...), filepath.Join(c.bin, name)), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.dir
	return cmd.CombinedOutput()
}

// URL is the address of database name in the cluster.
func (c *Cluster) URL(name string) string {
	q := url.Values{"host": {c.dir}}
	return (&url.URL{Scheme: "postgres", User: url.User(c.user), Path: "/" + name, RawQuery: q.Encode()}).String()
}

// Database makes a new empty database and returns its URL.
func (c *Cluster) Database(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return "", fmt.Errorf("connect to the test cluster: %w", err)
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("t%d_%d", os.Getpid(), c.n.Add(1))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	return c.URL(name), nil
}

// Stop stops the cluster at once and removes its folder.
func (c *Cluster) Stop() error {
	out, err := c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop")
	if rmErr := os.RemoveAll(c.dir); err == nil && rmErr != nil {
		err = rmErr
	}
	if err != nil {
		return fmt.Errorf("pg_ctl stop: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}
