package deploy

import (
	"bytes"
	"cmp"
	"debug/buildinfo"
	"debug/elf"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"orderly/store/pgtest"
)

// root is the module's root, from this package's directory.
const root = ".."

// checkedFiles are the files the checks read, by path from root.
var checkedFiles = []string{"Dockerfile", "compose.yaml", "deploy/Caddyfile", ".dockerignore", "go.mod"}

// composeEnv is the environment compose.yaml is interpolated with: its
// two secrets; every other variable takes its default.
var composeEnv = map[string]string{
	"POSTGRES_PASSWORD":  "pw4test0123456789abcdef",
	"ORDERLY_HOST_TOKEN": "host-token-for-the-test-0123456789abcdef",
}

// inputs are what the checks look at.
type inputs struct {
	files  map[string]string // by path from root
	serve  flagSet           // the flags orderly serve takes
	needed []string          // the files the image's go build reads, from root
}

// once holds what is made once for all the tests: the binary built as
// the Dockerfile builds it, orderly serve's flags, the files the build
// needs.
var once struct {
	sync.Once
	dir    string
	bin    string   // the binary, built as the Dockerfile does
	build  *goBuild // the Dockerfile's go build
	serve  flagSet
	needed []string
	err    error
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "orderly-deploy-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	once.dir = dir
	code := pgtest.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// prepare makes what once holds, the first time it is called.
func prepare(t *testing.T) {
	t.Helper()
	once.Do(func() { once.err = doPrepare() })
	if once.err != nil {
		t.Fatal(once.err)
	}
}

func doPrepare() error {
	var err error
	if once.bin, once.build, err = buildAsDockerfile(filepath.Join(once.dir, "orderly")); err != nil {
		return err
	}
	helpBin := once.bin
	if runtime.GOOS != "linux" {
		// The image's binary is for Linux; ask one for this system.
		helpBin = filepath.Join(once.dir, "orderly-host")
		if out, err := goCmd(nil, "build", "-o", helpBin, "./cmd/orderly").CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/orderly: %v\n%s", err, out)
		}
	}
	cmd := exec.Command(helpBin, "serve", "--help")
	cmd.Env = []string{"HOME=" + once.dir} // no ORDERLY_DB or other settings of this machine
	help, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("orderly serve --help: %v\n%s", err, help)
	}
	once.serve = parseHelpFlags(string(help))
	for _, f := range []string{"addr", "host", "db", "help"} {
		if _, ok := once.serve.long[f]; !ok {
			return fmt.Errorf("orderly serve --help shows no --%s; the test no longer reads its help:\n%s", f, help)
		}
	}
	once.needed, err = neededFiles()
	return err
}

// goCmd is a go command run in the module's root with env added to this
// process's environment.
func goCmd(env []string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// buildAsDockerfile runs the Dockerfile's go build, with its environment
// and flags, for linux on this machine's architecture (as BuildKit's
// TARGETOS and TARGETARCH give it), writing the binary to out.
func buildAsDockerfile(out string) (string, *goBuild, error) {
	src, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		return "", nil, err
	}
	stages, err := parseDockerfile(string(src))
	if err != nil {
		return "", nil, fmt.Errorf("Dockerfile: %v", err)
	}
	builds, err := findGoBuilds(stages)
	if err != nil {
		return "", nil, fmt.Errorf("Dockerfile: %v", err)
	}
	if len(builds) != 1 {
		return "", nil, fmt.Errorf("Dockerfile: %d go build commands; want one", len(builds))
	}
	b := builds[0]
	vars := map[string]string{
		"TARGETOS": "linux", "TARGETARCH": runtime.GOARCH, "TARGETPLATFORM": "linux/" + runtime.GOARCH,
		"BUILDOS": runtime.GOOS, "BUILDARCH": runtime.GOARCH, "BUILDPLATFORM": runtime.GOOS + "/" + runtime.GOARCH,
	}
	env, err := buildEnv(b, vars)
	if err != nil {
		return "", nil, fmt.Errorf("Dockerfile line %d: %v", b.line, err)
	}
	var kv []string
	for k, v := range env {
		kv = append(kv, k+"="+v)
	}
	// The build context has no .git (.dockerignore), so go build stamps
	// no version control information; here there is one to ignore.
	kv = append(kv, "GOFLAGS=-buildvcs=false")
	args := []string{"build"}
	for i := 0; i < len(b.args); i++ {
		a := b.args[i]
		switch {
		case a == "-o" || a == "--o":
			args = append(args, a, out)
			i++
		case strings.HasPrefix(a, "-o=") || strings.HasPrefix(a, "--o="):
			args = append(args, "-o="+out)
		default:
			args = append(args, a)
		}
	}
	if o, err := goCmd(kv, args...).CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("%s go %s: %v\n%s", strings.Join(kv, " "), strings.Join(args, " "), err, o)
	}
	return out, b, nil
}

// buildEnv is the environment the Dockerfile's go build runs in: the
// build stage's ENV, then the assignments before "go build", with build
// arguments substituted.
func buildEnv(b *goBuild, vars map[string]string) (map[string]string, error) {
	env := map[string]string{}
	vars = maps.Clone(vars)
	for _, in := range b.stage.instrs {
		if in.line >= b.line {
			break
		}
		switch in.cmd {
		case "ARG":
			for _, a := range strings.Fields(in.args) {
				k, v, ok := strings.Cut(a, "=")
				if _, auto := vars[k]; ok && !auto {
					vars[k] = strings.Trim(v, `"'`)
				} else if !auto {
					vars[k] = ""
				}
			}
		case "ENV":
			kv, err := keyValues(in.args)
			if err != nil {
				return nil, err
			}
			for k, v := range kv {
				if env[k], err = expandVars(v, vars); err != nil {
					return nil, err
				}
				vars[k] = env[k]
			}
		}
	}
	for k, v := range b.env {
		var err error
		if env[k], err = expandVars(v, vars); err != nil {
			return nil, err
		}
	}
	return env, nil
}

// neededFiles are the files of this module that go build ./cmd/orderly
// reads for the image (Linux, no cgo): go.mod, go.sum, and each package's
// Go, assembly and embedded files.
func neededFiles() ([]string, error) {
	cmd := goCmd([]string{"GOOS=linux", "CGO_ENABLED=0"}, "list", "-deps",
		"-json=Dir,ImportPath,Module,GoFiles,SFiles,HFiles,SysoFiles,EmbedFiles", "./cmd/orderly")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.Bytes())
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	files := []string{"go.mod", "go.sum"}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			Dir, ImportPath                                string
			Module                                         *struct{ Main bool }
			GoFiles, SFiles, HFiles, SysoFiles, EmbedFiles []string
		}
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		if p.Module == nil || !p.Module.Main {
			continue // the standard library, or a module from go mod download
		}
		for _, f := range slices.Concat(p.GoFiles, p.SFiles, p.HFiles, p.SysoFiles, p.EmbedFiles) {
			rel, err := filepath.Rel(abs, filepath.Join(p.Dir, f))
			if err != nil {
				return nil, err
			}
			files = append(files, filepath.ToSlash(rel))
		}
	}
	if len(files) < 10 {
		return nil, fmt.Errorf("go list found only %v for ./cmd/orderly", files)
	}
	return files, nil
}

// loadInputs reads the checked files and what prepare made.
func loadInputs(t *testing.T) inputs {
	t.Helper()
	prepare(t)
	in := inputs{files: map[string]string{}, serve: once.serve, needed: once.needed}
	for _, f := range checkedFiles {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		in.files[f] = string(b)
	}
	return in
}

// TestDeployment checks the Dockerfile, compose.yaml, the Caddyfile and
// .dockerignore, each and against each other and orderly serve's flags.
func TestDeployment(t *testing.T) {
	in := loadInputs(t)
	for _, p := range checkAll(in) {
		t.Error(p)
	}
}

// TestStaticBinary checks the binary built as the Dockerfile builds it:
// a static Linux executable (no interpreter, no dynamic section, so it
// runs on distroless/static or scratch), stripped, with no local paths,
// and built with the settings the Dockerfile gives.
func TestStaticBinary(t *testing.T) {
	prepare(t)
	f, err := elf.Open(once.bin)
	if err != nil {
		t.Fatalf("%s: %v", once.bin, err)
	}
	defer f.Close()
	if f.Type != elf.ET_EXEC {
		t.Errorf("ELF type %v; want ET_EXEC (a position-independent ET_DYN needs a loader)", f.Type)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("program header %v: the binary is dynamically linked", p.Type)
		}
	}
	for _, name := range []string{".interp", ".dynamic", ".dynsym", ".dynstr"} {
		if f.Section(name) != nil {
			t.Errorf("section %s: the binary is dynamically linked", name)
		}
	}
	if libs, err := f.ImportedLibraries(); err == nil && len(libs) > 0 {
		t.Errorf("the binary needs shared libraries %v", libs)
	}
	// -s: no symbol table; -w: no DWARF.
	for _, s := range f.Sections {
		if s.Name == ".symtab" || strings.HasPrefix(s.Name, ".debug_") || strings.HasPrefix(s.Name, ".zdebug_") {
			t.Errorf("section %s: the binary is not stripped (-ldflags='-s -w')", s.Name)
		}
	}
	// -trimpath: the module's directory is nowhere in the binary.
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(once.bin)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(abs+"/")) {
		t.Errorf("the binary holds the path %s: not built with -trimpath", abs)
	}
	info, err := buildinfo.ReadFile(once.bin)
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	for k, want := range map[string]string{"CGO_ENABLED": "0", "-trimpath": "true", "GOOS": "linux", "GOARCH": runtime.GOARCH} {
		if settings[k] != want {
			t.Errorf("build setting %s = %q; want %q", k, settings[k], want)
		}
	}
	if info.Path != "orderly/cmd/orderly" {
		t.Errorf("the binary is %s; want orderly/cmd/orderly", info.Path)
	}
	t.Logf("%s: static %s/%s, %d bytes, built by go build %s", once.bin, settings["GOOS"], settings["GOARCH"], len(data), strings.Join(once.build.args, " "))
}

// TestChecksCatchBreakage breaks each property in turn, in a copy of the
// files, and requires the checks to name it: the checks must fail when
// the deployment is wrong, not only pass when it is right.
func TestChecksCatchBreakage(t *testing.T) {
	in := loadInputs(t)
	base := checkAll(in)
	for _, m := range []struct {
		name, file, old, new, want string
	}{
		{"instances writable", "compose.yaml", "  read_only: true\n  tmpfs:\n    - /tmp\n  user:", "  read_only: false\n  tmpfs:\n    - /tmp\n  user:", "orderly-a: read_only"},
		{"no tmpfs /tmp", "compose.yaml", "  tmpfs:\n    - /tmp\n  user:", "  user:", "orderly-b: no tmpfs on /tmp"},
		{"instance port published", "compose.yaml", "  networks: [front, back]\n", "  networks: [front, back]\n  ports: [\"8081:8080\"]\n", "orderly-a publishes ports"},
		{"db port published", "compose.yaml", "    networks: [back]\n", "    networks: [back]\n    ports: [\"5432:5432\"]\n", "db publishes ports"},
		{"root user", "compose.yaml", `user: "65532:65532"`, `user: "0:0"`, "runs as root"},
		{"capabilities kept", "compose.yaml", "  cap_drop: [ALL]\n  security_opt", "  cap_drop: [NET_RAW]\n  security_opt", "cap_drop"},
		{"no ORDERLY_DB", "compose.yaml", "    ORDERLY_DB:", "    X_ORDERLY_DB:", "ORDERLY_DB"},
		{"SQLite for two instances", "compose.yaml", `"postgres://orderly:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD to a random password of letters and digits}@db:5432/orderly?sslmode=disable"`, `/data/orderly.db`, "not a postgres:// URL"},
		{"wrong database user", "compose.yaml", "postgres://orderly:", "postgres://postgres:", "user postgres"},
		{"token in the file", "compose.yaml", `"${ORDERLY_HOST_TOKEN:?set it to a long random secret}"`, `"0123456789abcdef0123456789abcdef"`, "the secret belongs in the environment"},
		{"token optional", "compose.yaml", `${ORDERLY_HOST_TOKEN:?set it to a long random secret}`, `${ORDERLY_HOST_TOKEN}`, "starts without ORDERLY_HOST_TOKEN"},
		{"unknown flag", "compose.yaml", "    - --addr\n", "    - --listen\n", "unknown flag --listen"},
		{"public trusted proxy", "compose.yaml", "    - 10.0.0.0/8\n", "    - 0.0.0.0/0\n", "0.0.0.0/0"},
		{"db not awaited", "compose.yaml", "condition: service_healthy", "condition: service_started", "service_healthy"},
		{"no db healthcheck", "compose.yaml", "    healthcheck:\n      test:", "    x-healthcheck:\n      test:", "db: no healthcheck"},
		{"one instance", "compose.yaml", "  orderly-b:\n    <<: *orderly\n", "", "at least two orderly services"},
		{"proxy writable", "compose.yaml", "    image: caddy:2-alpine\n    read_only: true\n", "    image: caddy:2-alpine\n", "proxy: read_only"},
		{"proxy cannot exec", "compose.yaml", "    cap_add: [NET_BIND_SERVICE]\n", "", "NET_BIND_SERVICE"},
		{"Caddyfile not mounted", "compose.yaml", "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro", "./deploy/Caddyfile:/etc/caddy/Caddyfile", "deploy/Caddyfile"},
		{"proxy reaches db", "compose.yaml", "    networks: [front]\n", "    networks: [front, back]\n", "shares network back with db"},
		{"one stage", "Dockerfile", "FROM gcr.io/distroless/static-debian12:nonroot\n", "", "want a build stage and a run stage"},
		{"user by name", "Dockerfile", "USER 65532:65532", "USER nonroot", "numeric"},
		{"no user", "Dockerfile", "USER 65532:65532\n", "", "no USER"},
		{"cgo", "Dockerfile", "CGO_ENABLED=0 go build", "go build", "CGO_ENABLED=0"},
		{"no trimpath", "Dockerfile", "go build -trimpath", "go build", "-trimpath"},
		{"other package", "Dockerfile", "-o /out/orderly ./cmd/orderly", "-o /out/orderly .", "./cmd/orderly"},
		{"download after the source", "Dockerfile", "COPY go.mod go.sum ./\nRUN go mod download && go mod verify\n\nCOPY . .\n", "COPY . .\nRUN go mod download && go mod verify\n", "go mod download"},
		{"older Go", "Dockerfile", "golang:1.26-bookworm AS build", "golang:1.25-bookworm AS build", "older than go.mod"},
		{"shell-form CMD", "Dockerfile", `CMD ["serve", "--addr", "0.0.0.0:8080"]`, `CMD serve --addr 0.0.0.0:8080`, "exec form"},
		{"CMD unknown flag", "Dockerfile", `CMD ["serve", "--addr", "0.0.0.0:8080"]`, `CMD ["serve", "--address", "0.0.0.0:8080"]`, "unknown flag --address"},
		{"data not owned", "Dockerfile", "COPY --from=build --chown=65532:65532 /out/data /data", "COPY --from=build /out/data /data", "--chown"},
		{"secret in the image", "Dockerfile", "ENV ORDERLY_DB=/data/orderly.db\n", "ENV ORDERLY_DB=/data/orderly.db\nENV ORDERLY_HOST_TOKEN=0123456789abcdef0123456789abcdef\n", "secret"},
		{"no labels", "Dockerfile", "LABEL org.opencontainers.image.title=", "LABEL x.title=", "org.opencontainers.image.title"},
		{"buffered streams", "deploy/Caddyfile", "flush_interval -1", "flush_interval 100ms", "flush_interval"},
		{"instance not proxied", "deploy/Caddyfile", "orderly-a:8080 orderly-b:8080", "orderly-a:8080", "orderly-b:8080 is not an upstream"},
		{"liveness only", "deploy/Caddyfile", "health_uri /readyz", "health_uri /healthz", "health_uri"},
		{"sticky sessions", "deploy/Caddyfile", "lb_policy least_conn", "lb_policy cookie", "sticky"},
		{"no passive checks", "deploy/Caddyfile", "fail_duration 10s", "", "fail_duration"},
		{"no retries", "deploy/Caddyfile", "lb_try_duration 5s", "", "lb_try_duration"},
		{"Host rewritten", "deploy/Caddyfile", "flush_interval -1\n", "flush_interval -1\n\t\theader_up Host {upstream_hostport}\n", "Host"},
		{"health check refused", "deploy/Caddyfile", "Host localhost", "Host orderly-a", "does not answer to"},
		{"write timeout", "deploy/Caddyfile", "idle 2m", "idle 2m\n\t\t\twrite 30s", "write timeout"},
		{"wrong port", "deploy/Caddyfile", ":8080 {", ":9090 {", "9090"},
		{"source left out", ".dockerignore", "# Version control and CI.\n", "# Version control and CI.\nserver\n", "server/http.go"},
		{"git sent", ".dockerignore", ".git\n", "", ".git/HEAD"},
		{"databases sent", ".dockerignore", "**/*.db\n", "", "club.db"},
	} {
		t.Run(m.name, func(t *testing.T) {
			if !strings.Contains(in.files[m.file], m.old) {
				t.Fatalf("%s no longer holds %q: update this case", m.file, m.old)
			}
			for _, p := range base {
				if strings.Contains(p, m.want) {
					t.Fatalf("the unbroken files already have a problem that mentions %q: %s", m.want, p)
				}
			}
			broken := inputs{files: maps.Clone(in.files), serve: in.serve, needed: in.needed}
			broken.files[m.file] = strings.Replace(in.files[m.file], m.old, m.new, 1)
			problems := checkAll(broken)
			for _, p := range problems {
				if strings.Contains(p, m.want) {
					t.Logf("caught: %s", p)
					return
				}
			}
			t.Errorf("with %s broken (%q for %q), no problem mentions %q; the problems found:\n  %s",
				m.file, m.new, m.old, m.want, strings.Join(problems, "\n  "))
		})
	}
}

// TestDockerignoreMatching checks the .dockerignore reader against cases
// of github.com/moby/patternmatcher's behaviour.
func TestDockerignoreMatching(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"orderly", "orderly", true},
		{"orderly", "cmd/orderly/main.go", false},
		{"/orderly", "orderly", true},
		{".git", ".git/objects/ab/cdef", true},
		{"**/*.db", "club.db", true},
		{"**/*.db", "a/b/club.db", true},
		{"**/*.db-*", "a/club.db-wal", true},
		{"*.md", "README.md", true},
		{"*.md", "docs/x.md", false},
		{"**/testdata", "cmd/orderly/testdata/run/x.yaml", true},
		{"deploy", "deploy/Caddyfile", true},
		{"cmd/*/orderly", "cmd/orderly/orderly", true},
		{"a?c", "abc", true},
		{"a?c", "a/c", false},
		{"**", "anything/at/all", true},
		{"x/**", "x/y/z", true},
	} {
		pats, err := parseDockerignore(c.pattern + "\n")
		if err != nil {
			t.Fatal(err)
		}
		if got := ignored(pats, c.path); got != c.want {
			t.Errorf("pattern %q, path %q: ignored %v; want %v", c.pattern, c.path, got, c.want)
		}
	}
	pats, err := parseDockerignore("**/*.md\n!README.md\n")
	if err != nil {
		t.Fatal(err)
	}
	if ignored(pats, "README.md") || !ignored(pats, "x/NOTES.md") {
		t.Errorf("an exception (!README.md) is not read as Docker reads it")
	}
}

// TestInterpolate checks the Compose interpolation the checks rely on.
func TestInterpolate(t *testing.T) {
	env := map[string]string{"SET": "v", "EMPTY": ""}
	for _, c := range []struct{ in, want, err string }{
		{"a${SET}b", "avb", ""},
		{"$SET", "v", ""},
		{"$$SET", "$SET", ""},
		{"${UNSET:-d}", "d", ""},
		{"${EMPTY:-d}", "d", ""},
		{"${EMPTY-d}", "", ""},
		{"${SET:?no}", "v", ""},
		{"${UNSET:?say so}", "", "UNSET"},
		{"${EMPTY:?say so}", "", "EMPTY"},
		{"${EMPTY?say so}", "", ""},
		{"${SET:+alt}", "alt", ""},
		{"${UNSET:+alt}", "", ""},
	} {
		got, err := interpolate(c.in, env)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("interpolate(%q): error %v; want one naming %s", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("interpolate(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// report collects the problems found.
type report struct{ list []string }

func (r *report) add(format string, args ...any) {
	r.list = append(r.list, fmt.Sprintf(format, args...))
}

// checkAll checks everything, and returns the problems found.
func checkAll(in inputs) []string {
	r := &report{}
	img := checkDockerfile(in, r)
	dep := checkCompose(in, r, img)
	checkCaddyfile(in, r, dep)
	checkDockerignore(in, r)
	return r.list
}

// image is what the Dockerfile says of the image.
type image struct {
	user string // USER of the run stage
}

var (
	numericUser = regexp.MustCompile(`^(\d+)(?::(\d+))?$`)
	goVersion   = regexp.MustCompile(`(?m)^go (\d+)\.(\d+)`)
	golangTag   = regexp.MustCompile(`^(?:docker\.io/(?:library/)?)?golang:(\d+)\.(\d+)`)
	secretName  = regexp.MustCompile(`(?i)token|password|secret|passwd|credential|private_key`)
)

func checkDockerfile(in inputs, r *report) *image {
	stages, err := parseDockerfile(in.files["Dockerfile"])
	if err != nil {
		r.add("Dockerfile: %v", err)
		return nil
	}
	if len(stages) < 2 {
		r.add("Dockerfile: %d stage; want a build stage and a run stage", len(stages))
	}
	final := stages[len(stages)-1]
	img := &image{}

	builds, err := findGoBuilds(stages)
	if err != nil {
		r.add("Dockerfile: %v", err)
	}
	var b *goBuild
	switch len(builds) {
	case 0:
		r.add("Dockerfile: no RUN ... go build")
	case 1:
		b = builds[0]
	default:
		r.add("Dockerfile: %d go build commands; want one", len(builds))
	}
	if b != nil {
		checkGoBuild(in, r, b, final)
	}

	// The run stage: a base with nothing to run as root, a numeric user.
	switch base := final.base; {
	case strings.HasPrefix(base, "gcr.io/distroless/static") && strings.Contains(base, ":nonroot"):
	case base == "scratch":
		found := false
		for _, c := range final.all("COPY") {
			found = found || strings.Contains(c.args, "ca-certificates")
		}
		if !found {
			r.add("Dockerfile: the run stage is scratch without CA certificates (a PostgreSQL server over TLS could not be checked)")
		}
	default:
		r.add("Dockerfile: the run stage is %s; want gcr.io/distroless/static-debian12:nonroot or scratch", base)
	}
	users := final.all("USER")
	if len(users) == 0 {
		r.add("Dockerfile: the run stage has no USER, so it runs as root")
	} else {
		u := users[len(users)-1]
		m := numericUser.FindStringSubmatch(u.args)
		switch {
		case m == nil:
			r.add("Dockerfile line %d: USER %s is not numeric (UID:GID): a runtime cannot tell it is not root without /etc/passwd", u.line, u.args)
		case m[1] == "0":
			r.add("Dockerfile line %d: USER %s is root", u.line, u.args)
		default:
			img.user = u.args
		}
	}

	// ENTRYPOINT, CMD, EXPOSE.
	var port int
	ep := final.all("ENTRYPOINT")
	var entry []string
	if len(ep) == 0 {
		r.add("Dockerfile: the run stage has no ENTRYPOINT")
	} else if words, ok := execForm(ep[len(ep)-1].args); !ok {
		r.add("Dockerfile line %d: ENTRYPOINT is not in exec form (JSON): the shell form needs a /bin/sh, which the image lacks", ep[len(ep)-1].line)
	} else if len(words) != 1 {
		r.add("Dockerfile line %d: ENTRYPOINT %v; want the binary alone", ep[len(ep)-1].line, words)
	} else {
		entry = words
	}
	cmds := final.all("CMD")
	if len(cmds) == 0 {
		r.add("Dockerfile: the run stage has no CMD")
	} else if words, ok := execForm(cmds[len(cmds)-1].args); !ok {
		r.add("Dockerfile line %d: CMD is not in exec form (JSON): the shell form needs a /bin/sh, which the image lacks", cmds[len(cmds)-1].line)
	} else if p, err := checkServeCommand(in, words); err != nil {
		r.add("Dockerfile line %d: CMD %v: %v", cmds[len(cmds)-1].line, words, err)
	} else {
		port = p
	}
	if port != 0 {
		exposed := false
		for _, e := range final.all("EXPOSE") {
			for _, f := range strings.Fields(e.args) {
				exposed = exposed || strings.TrimSuffix(f, "/tcp") == strconv.Itoa(port)
			}
		}
		if !exposed {
			r.add("Dockerfile: CMD listens on port %d, which no EXPOSE names", port)
		}
	}

	// The binary is the build stage's.
	if b != nil && entry != nil {
		found := false
		for _, c := range final.all("COPY") {
			f := strings.Fields(c.args)
			from := c.flags["from"]
			if len(f) == 2 && f[0] == b.out && f[1] == entry[0] && (from == b.stage.name || from == strconv.Itoa(b.stage.index)) {
				found = true
			}
		}
		if !found {
			r.add("Dockerfile: no COPY --from=%s %s %s puts the built binary where ENTRYPOINT runs it", cmp.Or(b.stage.name, strconv.Itoa(b.stage.index)), b.out, entry[0])
		}
	}

	// /data: a volume the user owns, where the SQLite file goes by default.
	volume := false
	for _, v := range final.all("VOLUME") {
		words, ok := execForm(v.args)
		if !ok {
			words = strings.Fields(v.args)
		}
		volume = volume || slices.Contains(words, "/data")
	}
	if !volume {
		r.add("Dockerfile: no VOLUME /data")
	}
	owned := false
	for _, c := range final.all("COPY") {
		f := strings.Fields(c.args)
		if len(f) >= 2 && strings.TrimSuffix(f[len(f)-1], "/") == "/data" && img.user != "" && c.flags["chown"] == img.user {
			owned = true
		}
	}
	if !owned {
		r.add("Dockerfile: no COPY --chown=%s ... /data makes /data the user's (a run stage without a shell cannot mkdir it)", cmp.Or(img.user, "UID:GID"))
	}
	env := map[string]string{}
	for _, e := range final.all("ENV") {
		kv, err := keyValues(e.args)
		if err != nil {
			r.add("Dockerfile line %d: ENV: %v", e.line, err)
		}
		for k, v := range kv {
			env[k] = v
		}
	}
	if db := env["ORDERLY_DB"]; !strings.HasPrefix(db, "/data/") {
		r.add("Dockerfile: ENV ORDERLY_DB=%q; want a file under /data, the only place the server may write with a read-only root", db)
	}

	// No secrets in the image; labels.
	labels := map[string]string{}
	for _, st := range stages {
		for _, in := range st.instrs {
			switch in.cmd {
			case "ENV", "ARG":
				var names []string
				if in.cmd == "ENV" {
					kv, _ := keyValues(in.args)
					for k := range kv {
						names = append(names, k)
					}
				} else {
					for _, a := range strings.Fields(in.args) {
						k, _, _ := strings.Cut(a, "=")
						names = append(names, k)
					}
				}
				for _, k := range names {
					if secretName.MatchString(k) {
						r.add("Dockerfile line %d: %s %s: a secret does not belong in the image (its layers and history keep it); compose.yaml passes it at run time", in.line, in.cmd, k)
					}
				}
			case "LABEL":
				if st != final {
					continue
				}
				kv, err := keyValues(in.args)
				if err != nil {
					r.add("Dockerfile line %d: LABEL: %v", in.line, err)
				}
				for k, v := range kv {
					labels[k] = v
				}
			}
		}
	}
	for _, k := range []string{"org.opencontainers.image.title", "org.opencontainers.image.description", "org.opencontainers.image.version", "org.opencontainers.image.revision"} {
		if labels[k] == "" {
			r.add("Dockerfile: the image has no label %s", k)
		}
	}
	return img
}

// checkGoBuild checks the Dockerfile's go build and the layers before it.
func checkGoBuild(in inputs, r *report, b *goBuild, final *stage) {
	if b.stage == final {
		r.add("Dockerfile line %d: go build runs in the run stage; it belongs in a build stage", b.line)
	}
	env, err := buildEnv(b, map[string]string{"TARGETOS": "linux", "TARGETARCH": "amd64", "TARGETPLATFORM": "linux/amd64",
		"BUILDOS": "linux", "BUILDARCH": "amd64", "BUILDPLATFORM": "linux/amd64"})
	if err != nil {
		r.add("Dockerfile line %d: %v", b.line, err)
	}
	if env["CGO_ENABLED"] != "0" {
		r.add("Dockerfile line %d: go build without CGO_ENABLED=0: the binary may need libc and a loader, which the run stage lacks", b.line)
	}
	if _, ok := b.flags["trimpath"]; !ok {
		r.add("Dockerfile line %d: go build without -trimpath", b.line)
	}
	ld := strings.Fields(b.flags["ldflags"])
	if !slices.Contains(ld, "-s") || !slices.Contains(ld, "-w") {
		r.add("Dockerfile line %d: go build -ldflags=%q; want -s -w", b.line, b.flags["ldflags"])
	}
	if !slices.Equal(b.pkgs, []string{"./cmd/orderly"}) {
		r.add("Dockerfile line %d: go build builds %v; want ./cmd/orderly", b.line, b.pkgs)
	}
	if b.out == "" {
		r.add("Dockerfile line %d: go build has no -o", b.line)
	}
	// go.mod and go.sum, then go mod download, then the source: the
	// download is redone only when go.mod or go.sum change.
	copyMod, download, copyAll, build := -1, -1, -1, -1
	for i, ins := range b.stage.instrs {
		switch {
		case ins.cmd == "COPY" && copyMod < 0 && slices.Contains(strings.Fields(ins.args), "go.mod") && slices.Contains(strings.Fields(ins.args), "go.sum"):
			copyMod = i
		case ins.cmd == "RUN" && download < 0 && strings.Contains(ins.args, "go mod download"):
			download = i
		case ins.cmd == "COPY" && copyAll < 0 && len(strings.Fields(ins.args)) > 0 && strings.Fields(ins.args)[0] == ".":
			copyAll = i
		case ins.line == b.line:
			build = i
		}
	}
	if copyMod < 0 || download < 0 || copyAll < 0 || !(copyMod < download && download < copyAll && copyAll < build) {
		r.add("Dockerfile: want COPY go.mod go.sum, RUN go mod download, COPY . and go build in that order in the build stage (the download is then a layer cached until go.mod or go.sum change)")
	}
	// The build image's Go is at least go.mod's.
	mod := goVersion.FindStringSubmatch(in.files["go.mod"])
	tag := golangTag.FindStringSubmatch(b.stage.base)
	switch {
	case mod == nil:
		r.add("go.mod has no go line")
	case tag == nil:
		r.add("Dockerfile: the build stage is %s; want golang:MAJOR.MINOR-...", b.stage.base)
	default:
		mv := [2]int{atoi(mod[1]), atoi(mod[2])}
		tv := [2]int{atoi(tag[1]), atoi(tag[2])}
		if tv[0] < mv[0] || (tv[0] == mv[0] && tv[1] < mv[1]) {
			r.add("Dockerfile: %s is older than go.mod's go %s.%s", b.stage.base, mod[1], mod[2])
		}
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// checkServeCommand checks the arguments of the image's entrypoint: orderly
// serve with flags it knows, listening on every address. It returns the
// port.
func checkServeCommand(in inputs, args []string) (int, error) {
	_, port, err := serveArgs(in, args)
	return port, err
}

// serveArgs reads an orderly serve command line.
func serveArgs(in inputs, args []string) ([]flagUse, int, error) {
	if len(args) == 0 || args[0] != "serve" {
		return nil, 0, fmt.Errorf("want orderly serve")
	}
	uses, err := in.serve.parseArgs(args[1:])
	if err != nil {
		return nil, 0, err
	}
	addrs := values(uses, "addr")
	if len(addrs) == 0 {
		return nil, 0, fmt.Errorf("no --addr: orderly serve listens on 127.0.0.1 by default, which is out of reach from another container")
	}
	host, p, err := net.SplitHostPort(addrs[len(addrs)-1])
	if err != nil {
		return nil, 0, fmt.Errorf("--addr %s: %v", addrs[len(addrs)-1], err)
	}
	if host != "0.0.0.0" && host != "" && host != "::" {
		return nil, 0, fmt.Errorf("--addr %s: want every address (0.0.0.0), or the proxy cannot reach it", addrs[len(addrs)-1])
	}
	port, err := strconv.Atoi(p)
	if err != nil || port <= 0 {
		return nil, 0, fmt.Errorf("--addr %s: want a fixed port", addrs[len(addrs)-1])
	}
	return uses, port, nil
}

// deployment is what compose.yaml says, for the Caddyfile's checks.
type deployment struct {
	orderly    []string       // the orderly services
	port       map[string]int // each one's --addr port
	hosts      map[string][]string
	proxyPorts []int // the container ports the proxy publishes
}

func checkCompose(in inputs, r *report, img *image) *deployment {
	src := in.files["compose.yaml"]
	raw, _, err := loadCompose(src, nil)
	if err != nil {
		r.add("compose.yaml: %v", err)
		return nil
	}
	cf, _, err := loadCompose(src, composeEnv)
	if err != nil {
		r.add("compose.yaml with its secrets set: %v", err)
		return nil
	}
	// Without its secrets, Compose must refuse to start.
	for _, v := range []string{"POSTGRES_PASSWORD", "ORDERLY_HOST_TOKEN"} {
		env := maps.Clone(composeEnv)
		delete(env, v)
		if _, _, err := loadCompose(src, env); err == nil || !strings.Contains(err.Error(), v) {
			r.add("compose.yaml starts without %s: write it as ${%s:?message} so that Compose refuses to", v, v)
		}
	}

	var orderly []string
	var proxy, db string
	for _, name := range sortedKeys(cf.Services) {
		s := cf.Services[name]
		switch {
		case localBuild(s.Build):
			orderly = append(orderly, name)
		case strings.HasPrefix(s.Image, "caddy:"):
			if proxy != "" {
				r.add("compose.yaml: two Caddy services, %s and %s", proxy, name)
			}
			proxy = name
		case strings.HasPrefix(s.Image, "postgres:"):
			if db != "" {
				r.add("compose.yaml: two PostgreSQL services, %s and %s", db, name)
			}
			db = name
		default:
			r.add("compose.yaml: service %s is neither orderly (build: .), the proxy (caddy) nor the database (postgres)", name)
		}
		if len(s.Ports) > 0 && !strings.HasPrefix(s.Image, "caddy:") {
			r.add("compose.yaml: %s publishes ports %v; only the proxy may", name, s.Ports)
		}
		if s.Privileged {
			r.add("compose.yaml: %s is privileged", name)
		}
		if s.NetworkMode != "" {
			r.add("compose.yaml: %s has network_mode %s", name, s.NetworkMode)
		}
		if s.EnvFile != nil {
			r.add("compose.yaml: %s has an env_file, which this test does not read", name)
		}
	}
	if len(orderly) < 2 {
		r.add("compose.yaml: %d orderly service(s) %v; want at least two orderly services behind the proxy", len(orderly), orderly)
	}
	if proxy == "" {
		r.add("compose.yaml: no proxy (caddy) service")
	}
	if db == "" {
		r.add("compose.yaml: no database (postgres) service")
	}
	dep := &deployment{orderly: orderly, port: map[string]int{}, hosts: map[string][]string{}}

	if db != "" {
		checkDB(r, cf, raw, db)
	}
	for _, name := range orderly {
		checkInstance(in, r, cf, raw, name, db, proxy, img, dep)
	}
	if proxy != "" {
		checkProxy(r, cf, proxy, db, dep)
	}
	return dep
}

// localBuild reports whether build is this directory (the Dockerfile).
func localBuild(build any) bool {
	switch b := build.(type) {
	case string:
		return cleanPath(b) == "."
	case map[string]any:
		ctx, _ := b["context"].(string)
		df, _ := b["dockerfile"].(string)
		return cleanPath(ctx) == "." && (df == "" || df == "Dockerfile")
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// networks are the networks a service is on.
func networks(s *service) []string {
	if len(s.Networks) == 0 {
		return []string{"default"}
	}
	return s.Networks
}

// shared is a network two services are both on, or "".
func shared(a, b *service) string {
	for _, n := range networks(a) {
		if slices.Contains(networks(b), n) {
			return n
		}
	}
	return ""
}

func hardened(r *report, name string, s *service) {
	if !s.ReadOnly {
		r.add("compose.yaml: %s: read_only is not true: its root filesystem must be read-only", name)
	}
	if !slices.Contains(s.CapDrop, "ALL") {
		r.add("compose.yaml: %s: cap_drop %v does not drop ALL", name, s.CapDrop)
	}
	if !slices.Contains(s.SecurityOpt, "no-new-privileges:true") && !slices.Contains(s.SecurityOpt, "no-new-privileges") {
		r.add("compose.yaml: %s: security_opt %v lacks no-new-privileges:true", name, s.SecurityOpt)
	}
}

func checkInstance(in inputs, r *report, cf, raw *composeFile, name, db, proxy string, img *image, dep *deployment) {
	s, rs := cf.Services[name], raw.Services[name]
	hardened(r, name, s)
	if !slices.ContainsFunc(s.Tmpfs, func(t string) bool { return strings.Split(t, ":")[0] == "/tmp" }) {
		r.add("compose.yaml: %s: no tmpfs on /tmp (the one place besides /data it may write)", name)
	}
	if m := numericUser.FindStringSubmatch(s.User); m == nil {
		r.add("compose.yaml: %s: user %q is not a numeric UID:GID", name, s.User)
	} else if m[1] == "0" {
		r.add("compose.yaml: %s runs as root (user %s)", name, s.User)
	} else if img != nil && img.user != "" && s.User != img.user {
		r.add("compose.yaml: %s: user %s is not the image's USER %s, which owns /data", name, s.User, img.user)
	}

	// The database: PostgreSQL, the db service, its user and password.
	dbURL, ok := s.Environment["ORDERLY_DB"]
	if !ok {
		r.add("compose.yaml: %s: no ORDERLY_DB", name)
	} else if u, err := url.Parse(dbURL); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		r.add("compose.yaml: %s: ORDERLY_DB %q is not a postgres:// URL: instances can share only a PostgreSQL database", name, dbURL)
	} else if db != "" {
		d := cf.Services[db]
		user := cmp.Or(d.Environment["POSTGRES_USER"], "postgres")
		pw, _ := u.User.Password()
		if u.Hostname() != db {
			r.add("compose.yaml: %s: ORDERLY_DB's host is %s; want the database service, %s", name, u.Hostname(), db)
		}
		if p := u.Port(); p != "" && p != "5432" {
			r.add("compose.yaml: %s: ORDERLY_DB's port is %s; PostgreSQL listens on 5432", name, p)
		}
		if u.User.Username() != user {
			r.add("compose.yaml: %s: ORDERLY_DB names user %s; the database's POSTGRES_USER is %s", name, u.User.Username(), user)
		}
		if pw != d.Environment["POSTGRES_PASSWORD"] {
			r.add("compose.yaml: %s: ORDERLY_DB's password is not the database's POSTGRES_PASSWORD", name)
		}
		if want := "/" + cmp.Or(d.Environment["POSTGRES_DB"], user); u.Path != want {
			r.add("compose.yaml: %s: ORDERLY_DB's database is %s; want %s", name, u.Path, want)
		}
	}
	if tok, ok := rs.Environment["ORDERLY_HOST_TOKEN"]; !ok {
		r.add("compose.yaml: %s: no ORDERLY_HOST_TOKEN: each instance would make its own host link", name)
	} else if !requiredVar.MatchString(tok) {
		r.add("compose.yaml: %s: ORDERLY_HOST_TOKEN is %q; want ${ORDERLY_HOST_TOKEN:?...}: the secret belongs in the environment, not in this file", name, tok)
	}

	// The command: orderly serve's own flags; every address; the port.
	if s.Entrypoint.set {
		r.add("compose.yaml: %s overrides the image's entrypoint", name)
	}
	if !s.Command.set {
		r.add("compose.yaml: %s has no command; want orderly serve with its --host", name)
	} else if uses, port, err := serveArgs(in, s.Command.words); err != nil {
		r.add("compose.yaml: %s: command %v: %v", name, s.Command.words, err)
	} else {
		dep.port[name] = port
		dep.hosts[name] = values(uses, "host")
		for _, p := range values(uses, "trusted-proxy") {
			pre, err := netip.ParsePrefix(p)
			if err != nil {
				var a netip.Addr
				if a, err = netip.ParseAddr(p); err == nil {
					pre = netip.PrefixFrom(a, a.BitLen())
				}
			}
			if err != nil || !pre.Addr().IsPrivate() || pre.Bits() < 8 {
				r.add("compose.yaml: %s: --trusted-proxy %s is not a private range: anyone in it could name any client address", name, p)
			}
		}
	}

	if db != "" {
		if cond := s.DependsOn[db]; cond != "service_healthy" {
			r.add("compose.yaml: %s: depends_on %s with condition %q; want service_healthy (PostgreSQL ready, not just started)", name, db, cond)
		}
		if shared(s, cf.Services[db]) == "" {
			r.add("compose.yaml: %s shares no network with %s", name, db)
		}
	}
	if proxy != "" && shared(s, cf.Services[proxy]) == "" {
		r.add("compose.yaml: %s shares no network with %s", name, proxy)
	}
	if s.Restart != "unless-stopped" && s.Restart != "always" && s.Restart != "on-failure" {
		r.add("compose.yaml: %s: restart %q; want unless-stopped", name, s.Restart)
	}
	if s.StopGracePeriod != "" {
		if d, err := time.ParseDuration(s.StopGracePeriod); err != nil || d < 6*time.Second {
			r.add("compose.yaml: %s: stop_grace_period %s; orderly takes up to 5 s to stop", name, s.StopGracePeriod)
		}
	}
}

func checkDB(r *report, cf, raw *composeFile, db string) {
	s := cf.Services[db]
	if s.Healthcheck == nil || s.Healthcheck.Disable {
		r.add("compose.yaml: %s: no healthcheck (the instances wait for it)", db)
	} else if !slices.ContainsFunc(s.Healthcheck.Test.words, func(w string) bool { return strings.Contains(w, "pg_isready") }) {
		r.add("compose.yaml: %s: healthcheck %v does not run pg_isready", db, s.Healthcheck.Test.words)
	}
	if pw := raw.Services[db].Environment["POSTGRES_PASSWORD"]; !requiredVar.MatchString(pw) {
		r.add("compose.yaml: %s: POSTGRES_PASSWORD is %q; want ${POSTGRES_PASSWORD:?...}", db, pw)
	}
	kept := false
	for _, v := range s.Volumes {
		m, err := parseMount(v)
		if err != nil {
			r.add("compose.yaml: %s: %v", db, err)
			continue
		}
		if m.target == "/var/lib/postgresql/data" {
			if _, named := cf.Volumes[m.source]; named {
				kept = true
			}
		}
	}
	if !kept {
		r.add("compose.yaml: %s: no named volume on /var/lib/postgresql/data: the games would go with the container", db)
	}
}

func checkProxy(r *report, cf *composeFile, proxy, db string, dep *deployment) {
	s := cf.Services[proxy]
	hardened(r, proxy, s)
	if !strings.HasPrefix(s.Image, "caddy:2") {
		r.add("compose.yaml: %s: image %s; want caddy:2-alpine", proxy, s.Image)
	}
	// Caddy writes its state to /data and its autosaved config to /config.
	writable := map[string]bool{}
	for _, t := range s.Tmpfs {
		writable[strings.Split(t, ":")[0]] = true
	}
	caddyfile := false
	for _, v := range s.Volumes {
		m, err := parseMount(v)
		if err != nil {
			r.add("compose.yaml: %s: %v", proxy, err)
			continue
		}
		if !m.readOnly {
			writable[m.target] = true
		}
		if cleanPath(m.source) == "deploy/Caddyfile" && m.target == "/etc/caddy/Caddyfile" && m.readOnly {
			caddyfile = true
		}
	}
	for _, d := range []string{"/data", "/config"} {
		if !writable[d] {
			r.add("compose.yaml: %s: %s is not writable (a tmpfs or a volume): Caddy writes there", proxy, d)
		}
	}
	if !caddyfile {
		r.add("compose.yaml: %s: ./deploy/Caddyfile is not mounted read-only (:ro) on /etc/caddy/Caddyfile", proxy)
	}
	if s.Command.set && !slices.Contains(s.Command.words, "/etc/caddy/Caddyfile") {
		r.add("compose.yaml: %s: command %v does not read /etc/caddy/Caddyfile", proxy, s.Command.words)
	}
	// The caddy binary of the image has the file capability
	// cap_net_bind_service=+ep: with that capability dropped, the kernel
	// refuses to run it.
	if slices.Contains(s.CapDrop, "ALL") && !slices.Contains(s.CapAdd, "NET_BIND_SERVICE") {
		r.add("compose.yaml: %s: cap_drop ALL without cap_add NET_BIND_SERVICE: exec /usr/bin/caddy fails with operation not permitted (caddyserver/caddy-docker#396)", proxy)
	}
	if len(s.Ports) == 0 {
		r.add("compose.yaml: %s publishes no port", proxy)
	}
	for _, v := range s.Ports {
		p, err := parsePort(v)
		if err != nil {
			r.add("compose.yaml: %s: %v", proxy, err)
			continue
		}
		dep.proxyPorts = append(dep.proxyPorts, p.target)
	}
	if db != "" {
		if n := shared(s, cf.Services[db]); n != "" {
			r.add("compose.yaml: %s shares network %s with %s: the proxy has no business with the database", proxy, n, db)
		}
	}
}

// stickyPolicies are the lb_policy values that tie a client to one
// upstream.
var stickyPolicies = []string{"cookie", "ip_hash", "client_ip_hash", "header", "uri_hash", "query"}

func checkCaddyfile(in inputs, r *report, dep *deployment) {
	top, err := parseCaddyfile(in.files["deploy/Caddyfile"])
	if err != nil {
		r.add("deploy/Caddyfile: %v", err)
		return
	}
	var sites []*caddyDirective
	for _, d := range top {
		switch {
		case d.name == "": // the global options
			for _, t := range find(d.block, "timeouts") {
				if w := t.sub("write"); w != nil {
					r.add("deploy/Caddyfile line %d: a write timeout (%s) would cut every event stream at that age", w.line, strings.Join(w.args, " "))
				}
			}
		case strings.HasPrefix(d.name, "("):
			r.add("deploy/Caddyfile line %d: snippets are not read by this test", d.line)
		default:
			sites = append(sites, d)
		}
	}
	if imp := find(top, "import"); len(imp) > 0 {
		r.add("deploy/Caddyfile line %d: import is not followed by this test", imp[0].line)
	}
	if len(sites) == 0 {
		r.add("deploy/Caddyfile: no site")
		return
	}
	for _, site := range sites {
		for _, addr := range append([]string{site.name}, site.args...) {
			for _, p := range listenPorts(addr) {
				if dep != nil && !slices.Contains(dep.proxyPorts, p) {
					r.add("deploy/Caddyfile line %d: site %s listens on port %d, which compose.yaml does not publish (the proxy publishes %v)", site.line, addr, p, dep.proxyPorts)
				}
			}
		}
	}
	var rps []*caddyDirective
	for _, site := range sites {
		rps = append(rps, find(site.block, "reverse_proxy")...)
	}
	if len(rps) == 0 {
		r.add("deploy/Caddyfile: no reverse_proxy")
	}
	for _, rp := range rps {
		checkReverseProxy(r, rp, dep)
	}
}

// listenPorts are the ports a Caddy site address listens on.
func listenPorts(addr string) []int {
	def := []int{443, 80} // a name: HTTPS, and HTTP to redirect
	switch {
	case strings.HasPrefix(addr, "http://"):
		addr, def = strings.TrimPrefix(addr, "http://"), []int{80}
	case strings.HasPrefix(addr, "https://"):
		addr, def = strings.TrimPrefix(addr, "https://"), []int{443}
	}
	addr, _, _ = strings.Cut(addr, "/")
	if i := strings.LastIndex(addr, ":"); i >= 0 {
		if p, err := strconv.Atoi(addr[i+1:]); err == nil {
			return []int{p}
		}
	}
	return def
}

func checkReverseProxy(r *report, rp *caddyDirective, dep *deployment) {
	at := func(d *caddyDirective) int {
		if d != nil {
			return d.line
		}
		return rp.line
	}
	// Upstreams: every orderly service, at its --addr port, and nothing
	// else.
	args := rp.args
	if len(args) > 0 && (strings.HasPrefix(args[0], "@") || strings.HasPrefix(args[0], "/") || args[0] == "*") {
		args = args[1:] // a matcher
	}
	if to := rp.sub("to"); to != nil {
		args = append(args, to.args...)
	}
	if rp.sub("dynamic") != nil {
		r.add("deploy/Caddyfile line %d: dynamic upstreams are not checked by this test", rp.line)
	}
	var got []string
	for _, a := range args {
		got = append(got, strings.TrimPrefix(a, "http://"))
	}
	if dep != nil {
		var want []string
		for _, s := range dep.orderly {
			if p, ok := dep.port[s]; ok {
				want = append(want, net.JoinHostPort(s, strconv.Itoa(p)))
			}
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				r.add("deploy/Caddyfile line %d: %s is not an upstream of reverse_proxy (it has %v)", rp.line, w, got)
			}
		}
		for _, g := range got {
			if !slices.Contains(want, g) {
				r.add("deploy/Caddyfile line %d: upstream %s is no orderly service of compose.yaml at its --addr port (%v)", rp.line, g, want)
			}
		}
	}

	// Load balancing without stickiness: any instance serves any game.
	if lb := rp.sub("lb_policy"); lb == nil || len(lb.args) == 0 {
		r.add("deploy/Caddyfile line %d: no lb_policy (want round_robin or least_conn)", rp.line)
	} else if slices.Contains(stickyPolicies, lb.args[0]) {
		r.add("deploy/Caddyfile line %d: lb_policy %s is sticky; any instance serves any game, so spread the load instead (round_robin or least_conn)", lb.line, lb.args[0])
	} else if lb.args[0] != "round_robin" && lb.args[0] != "least_conn" {
		r.add("deploy/Caddyfile line %d: lb_policy %s; want round_robin or least_conn", lb.line, lb.args[0])
	}
	positive := func(name string, max time.Duration) {
		d := rp.sub(name)
		if d == nil || len(d.args) != 1 {
			r.add("deploy/Caddyfile line %d: no %s", at(d), name)
			return
		}
		v, err := caddyDuration(d.args[0])
		if err != nil || v <= 0 || (max > 0 && v > max) {
			r.add("deploy/Caddyfile line %d: %s %s; want a duration above 0 and at most %v", d.line, name, d.args[0], max)
		}
	}
	positive("lb_try_duration", time.Minute)
	positive("fail_duration", 5*time.Minute)
	positive("health_interval", 5*time.Second)

	// Active health checks on /readyz, with a Host orderly answers to.
	if h := rp.sub("health_uri"); h == nil || len(h.args) != 1 || h.args[0] != "/readyz" {
		r.add("deploy/Caddyfile line %d: health_uri is not /readyz: an instance whose database does not answer must leave the pool", at(h))
	}
	if hh := rp.sub("health_headers"); hh != nil {
		if host := hh.sub("Host"); host != nil && len(host.args) == 1 && dep != nil {
			name := host.args[0]
			if h, _, err := net.SplitHostPort(name); err == nil {
				name = h
			}
			_, ipErr := netip.ParseAddr(name)
			for _, s := range dep.orderly {
				if name != "localhost" && ipErr != nil && !slices.Contains(dep.hosts[s], name) {
					r.add("deploy/Caddyfile line %d: health checks carry Host %s, which %s does not answer to (421)", host.line, host.args[0], s)
				}
			}
		}
	}
	if st := rp.sub("health_status"); st != nil && (len(st.args) != 1 || (st.args[0] != "200" && st.args[0] != "2xx")) {
		r.add("deploy/Caddyfile line %d: health_status %v; /readyz answers 200 when ready", st.line, st.args)
	}

	// Event streams flow at once and are not cut.
	if f := rp.sub("flush_interval"); f == nil || len(f.args) != 1 || f.args[0] != "-1" {
		r.add("deploy/Caddyfile line %d: flush_interval is not -1: responses, event streams among them, may be buffered", at(f))
	}
	for _, t := range find(rp.block, "read_timeout") {
		r.add("deploy/Caddyfile line %d: transport read_timeout %v would cut an event stream that is quiet that long", t.line, t.args)
	}

	// The Host header goes through as sent: orderly checks it.
	for _, h := range find(rp.block, "header_up") {
		if len(h.args) > 0 && strings.EqualFold(strings.TrimLeft(h.args[0], "+-"), "Host") {
			r.add("deploy/Caddyfile line %d: header_up %s: the Host header must reach orderly as the browser sent it (orderly checks it against --host)", h.line, strings.Join(h.args, " "))
		}
	}
	// Retries after a request reached an instance: idempotent ones only.
	if m := rp.sub("lb_retry_match"); m != nil {
		all := strings.ToUpper(strings.Join(m.args, " "))
		for _, s := range find(m.block, "method") {
			all += " " + strings.ToUpper(strings.Join(s.args, " "))
		}
		for _, method := range []string{"POST", "PATCH"} {
			if strings.Contains(all, method) {
				r.add("deploy/Caddyfile line %d: lb_retry_match retries %s: a command may have been saved before its answer was lost", m.line, method)
			}
		}
	}
}

func checkDockerignore(in inputs, r *report) {
	pats, err := parseDockerignore(in.files[".dockerignore"])
	if err != nil {
		r.add("%v", err)
		return
	}
	for _, f := range in.needed {
		if ignored(pats, f) {
			r.add(".dockerignore leaves out %s, which the image's go build needs", f)
		}
	}
	for _, f := range []string{".git/HEAD", "orderly", "cmd/orderly/orderly", "club.db", "store/x.db-wal", "terrain.test", "cmd/orderly/testdata/run/x.yaml"} {
		if !ignored(pats, f) {
			r.add(".dockerignore lets %s into the build context", f)
		}
	}
}
