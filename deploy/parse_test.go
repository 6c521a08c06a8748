package deploy

// Readers for the files the tests check: the Dockerfile, shell words, the
// Caddyfile, the Compose file (with its ${VAR} interpolation), the
// .dockerignore patterns and orderly's --help. Each reads as much of its
// format as these files use, and says so when it meets more, rather than
// let a check pass over what it did not read.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// --- Dockerfile ---

// instruction is one Dockerfile instruction, its continuation lines
// joined and its comment lines dropped.
type instruction struct {
	line  int               // where it starts
	cmd   string            // upper case: FROM, RUN, COPY...
	flags map[string]string // its --name=value options
	args  string            // the rest
}

// stage is one FROM and the instructions up to the next.
type stage struct {
	index  int
	base   string // the image, as written
	name   string // after AS
	instrs []instruction
}

// all are the stage's instructions of kind cmd.
func (s *stage) all(cmd string) []instruction {
	var out []instruction
	for _, in := range s.instrs {
		if in.cmd == cmd {
			out = append(out, in)
		}
	}
	return out
}

// parseDockerfile splits a Dockerfile into stages.
func parseDockerfile(src string) ([]*stage, error) {
	var stages []*stage
	var buf strings.Builder
	start := 0
	for i, l := range strings.Split(src, "\n") {
		trim := strings.TrimSpace(l)
		if trim == "" || strings.HasPrefix(trim, "#") {
			// Comments and empty lines, also within a continued
			// instruction, are dropped (the parser directive
			// "# syntax=" among them).
			continue
		}
		if buf.Len() == 0 {
			start = i + 1
		}
		if strings.HasSuffix(trim, `\`) {
			buf.WriteString(strings.TrimSuffix(strings.TrimRight(l, " \t\r"), `\`))
			buf.WriteString(" ")
			continue
		}
		buf.WriteString(l)
		in, err := parseInstruction(start, buf.String())
		buf.Reset()
		if err != nil {
			return nil, err
		}
		if in.cmd == "FROM" {
			f := strings.Fields(in.args)
			st := &stage{index: len(stages)}
			switch {
			case len(f) == 1:
			case len(f) == 3 && strings.EqualFold(f[1], "AS"):
				st.name = f[2]
			default:
				return nil, fmt.Errorf("line %d: FROM %s: expected IMAGE [AS NAME]", in.line, in.args)
			}
			st.base = f[0]
			stages = append(stages, st)
		}
		if len(stages) == 0 {
			if in.cmd == "ARG" {
				continue // an ARG before the first FROM
			}
			return nil, fmt.Errorf("line %d: %s before the first FROM", in.line, in.cmd)
		}
		last := stages[len(stages)-1]
		last.instrs = append(last.instrs, in)
	}
	if buf.Len() > 0 {
		return nil, fmt.Errorf("the Dockerfile ends inside a continued instruction")
	}
	if len(stages) == 0 {
		return nil, fmt.Errorf("no FROM")
	}
	return stages, nil
}

func parseInstruction(line int, text string) (instruction, error) {
	text = strings.TrimSpace(text)
	cmd, rest, _ := strings.Cut(text, " ")
	in := instruction{line: line, cmd: strings.ToUpper(cmd), flags: map[string]string{}}
	rest = strings.TrimSpace(rest)
	if strings.Contains(rest, "<<") && (in.cmd == "RUN" || in.cmd == "COPY") {
		return in, fmt.Errorf("line %d: heredocs are not read by this test", line)
	}
	for strings.HasPrefix(rest, "--") {
		opt, after, _ := strings.Cut(rest, " ")
		name, val, _ := strings.Cut(strings.TrimPrefix(opt, "--"), "=")
		in.flags[name] = val
		rest = strings.TrimSpace(after)
	}
	in.args = rest
	return in, nil
}

// execForm reads a JSON array argument (ENTRYPOINT ["/orderly"]); ok is
// false for the shell form.
func execForm(args string) ([]string, bool) {
	var v []string
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return nil, false
	}
	return v, true
}

// keyValues reads ENV and LABEL arguments: KEY=VALUE pairs (values may be
// quoted), or the old "KEY VALUE" form of ENV.
func keyValues(args string) (map[string]string, error) {
	words, err := shellWords(args)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	if len(words) > 0 && !strings.Contains(words[0], "=") {
		out[words[0]] = strings.Join(words[1:], " ")
		return out, nil
	}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return nil, fmt.Errorf("%q is not KEY=VALUE", w)
		}
		out[k] = v
	}
	return out, nil
}

// --- shell words ---

// shellWords splits a shell command into words, with quotes and
// backslashes removed, and the operators && || ; | as words of their own.
// Variables are left as written.
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	in := false // a word is under way
	flush := func() {
		if in {
			words = append(words, w.String())
			w.Reset()
			in = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			flush()
		case c == '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					w.WriteByte(s[i])
					in = true
				}
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' in %q", s)
			}
			w.WriteString(s[i+1 : i+1+j])
			in = true
			i += j + 1
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				w.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unclosed \" in %q", s)
			}
			in = true
		case c == '&' || c == '|' || c == ';':
			flush()
			op := string(c)
			if c != ';' && i+1 < len(s) && s[i+1] == c {
				op += string(c)
				i++
			}
			words = append(words, op)
		default:
			w.WriteByte(c)
			in = true
		}
	}
	flush()
	return words, nil
}

// commands splits shell words at the operators into simple commands.
func commands(words []string) [][]string {
	var out [][]string
	var cur []string
	for _, w := range words {
		switch w {
		case "&&", "||", ";", "|", "&":
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
		default:
			cur = append(cur, w)
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// expandVars replaces $NAME and ${NAME} from vars; a name vars lacks is
// an error.
func expandVars(s string, vars map[string]string) (string, error) {
	var err error
	out := regexp.MustCompile(`\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))`).ReplaceAllStringFunc(s, func(m string) string {
		name := strings.Trim(m, "${}")
		v, ok := vars[name]
		if !ok && err == nil {
			err = fmt.Errorf("%s: no value for $%s", s, name)
		}
		return v
	})
	return out, err
}

// --- go build ---

// goBuild is a "go build" command found in a RUN instruction.
type goBuild struct {
	stage *stage
	line  int
	env   map[string]string // NAME=VALUE words before "go", as written
	args  []string          // after "go build"
	flags map[string]string // by name, without dashes ("" for a flag without value)
	out   string            // -o
	pkgs  []string
}

// goBuildValueFlags are the go build flags that take a value.
var goBuildValueFlags = map[string]bool{
	"o": true, "ldflags": true, "gcflags": true, "asmflags": true, "tags": true, "mod": true, "modfile": true,
	"p": true, "pgo": true, "buildmode": true, "overlay": true, "toolexec": true, "installsuffix": true,
	"pkgdir": true, "compiler": true, "gccgoflags": true, "coverpkg": true, "covermode": true,
}

// findGoBuilds finds every "go build" in the stages' RUN instructions.
func findGoBuilds(stages []*stage) ([]*goBuild, error) {
	var out []*goBuild
	for _, st := range stages {
		for _, in := range st.all("RUN") {
			if _, ok := execForm(in.args); ok {
				if strings.Contains(in.args, "go") && strings.Contains(in.args, "build") {
					return nil, fmt.Errorf("line %d: RUN in exec form is not read by this test", in.line)
				}
				continue
			}
			words, err := shellWords(in.args)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", in.line, err)
			}
			for _, c := range commands(words) {
				env := map[string]string{}
				i := 0
				for ; i < len(c) && assignment.MatchString(c[i]); i++ {
					k, v, _ := strings.Cut(c[i], "=")
					env[k] = v
				}
				if i+1 >= len(c) || c[i] != "go" || c[i+1] != "build" {
					continue
				}
				b := &goBuild{stage: st, line: in.line, env: env, args: c[i+2:], flags: map[string]string{}}
				for j := 0; j < len(b.args); j++ {
					a := b.args[j]
					if !strings.HasPrefix(a, "-") {
						b.pkgs = append(b.pkgs, a)
						continue
					}
					name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
					if !hasVal && goBuildValueFlags[name] {
						if j+1 >= len(b.args) {
							return nil, fmt.Errorf("line %d: go build %s has no value", in.line, a)
						}
						j++
						val = b.args[j]
					}
					b.flags[name] = val
				}
				b.out = b.flags["o"]
				out = append(out, b)
			}
		}
	}
	return out, nil
}

// --- Caddyfile ---

// caddyDirective is a Caddyfile line (a directive, a subdirective, or a
// site's addresses) with the block it opens.
type caddyDirective struct {
	line  int
	name  string // "" for the global options block
	args  []string
	block []*caddyDirective
}

// find is every directive named name in the block, at any depth.
func find(block []*caddyDirective, name string) []*caddyDirective {
	var out []*caddyDirective
	for _, d := range block {
		if d.name == name {
			out = append(out, d)
		}
		out = append(out, find(d.block, name)...)
	}
	return out
}

// sub is the first subdirective named name directly in d's block.
func (d *caddyDirective) sub(name string) *caddyDirective {
	for _, s := range d.block {
		if s.name == name {
			return s
		}
	}
	return nil
}

type caddyToken struct {
	text   string
	line   int
	quoted bool
}

// parseCaddyfile reads a Caddyfile: comments, quoted tokens, and blocks
// opened by "{" at the end of a line and closed by "}" on a line of its
// own (as caddy fmt writes them).
func parseCaddyfile(src string) ([]*caddyDirective, error) {
	var toks []caddyToken
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"' || c == '`':
			start := line
			var b strings.Builder
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				if c == '"' && src[j] == '\\' && j+1 < len(src) && (src[j+1] == '"' || src[j+1] == '\\') {
					j++
				}
				if src[j] == '\n' {
					line++
				}
				b.WriteByte(src[j])
			}
			if j >= len(src) {
				return nil, fmt.Errorf("line %d: unclosed %c", start, c)
			}
			toks = append(toks, caddyToken{b.String(), start, true})
			i = j + 1
		default:
			j := i
			for j < len(src) && strings.IndexByte(" \t\r\n", src[j]) < 0 {
				j++
			}
			toks = append(toks, caddyToken{src[i:j], line, false})
			i = j
		}
	}
	p := caddyParser{toks: toks}
	return p.block(false)
}

type caddyParser struct {
	toks []caddyToken
	i    int
}

func (p *caddyParser) block(inner bool) ([]*caddyDirective, error) {
	var out []*caddyDirective
	for p.i < len(p.toks) {
		first := p.toks[p.i]
		if first.text == "}" && !first.quoted {
			if !inner {
				return nil, fmt.Errorf("line %d: } closes no block", first.line)
			}
			p.i++
			return out, nil
		}
		d := &caddyDirective{line: first.line}
		var words []string
		for p.i < len(p.toks) && p.toks[p.i].line == first.line {
			t := p.toks[p.i]
			p.i++
			if !t.quoted && t.text == "{" && (p.i == len(p.toks) || p.toks[p.i].line != t.line) {
				sub, err := p.block(true)
				if err != nil {
					return nil, err
				}
				d.block = sub
				break
			}
			if !t.quoted && (t.text == "{" || t.text == "}") {
				return nil, fmt.Errorf("line %d: a brace within a line is not read by this test", t.line)
			}
			words = append(words, t.text)
		}
		if len(words) > 0 {
			d.name, d.args = words[0], words[1:]
		}
		out = append(out, d)
	}
	if inner {
		return nil, fmt.Errorf("a block is not closed")
	}
	return out, nil
}

// caddyDuration reads a Caddy duration: Go's, or a number of days ("1d").
func caddyDuration(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if d, err := strconv.ParseFloat(n, 64); err == nil {
			return time.Duration(d * float64(24*time.Hour)), nil
		}
	}
	return time.ParseDuration(s)
}

// --- Compose ---

type composeFile struct {
	Name     string                     `yaml:"name"`
	Services map[string]*service        `yaml:"services"`
	Networks map[string]*composeNetwork `yaml:"networks"`
	Volumes  map[string]any             `yaml:"volumes"`
}

type composeNetwork struct {
	Internal bool `yaml:"internal"`
	External any  `yaml:"external"`
}

type service struct {
	Image           string       `yaml:"image"`
	Build           any          `yaml:"build"`
	ReadOnly        bool         `yaml:"read_only"`
	Tmpfs           stringList   `yaml:"tmpfs"`
	User            string       `yaml:"user"`
	CapDrop         []string     `yaml:"cap_drop"`
	CapAdd          []string     `yaml:"cap_add"`
	SecurityOpt     []string     `yaml:"security_opt"`
	Privileged      bool         `yaml:"privileged"`
	NetworkMode     string       `yaml:"network_mode"`
	Environment     envMap       `yaml:"environment"`
	EnvFile         any          `yaml:"env_file"`
	Command         command      `yaml:"command"`
	Entrypoint      command      `yaml:"entrypoint"`
	Ports           []any        `yaml:"ports"`
	Networks        networkRefs  `yaml:"networks"`
	DependsOn       dependsOn    `yaml:"depends_on"`
	Healthcheck     *healthcheck `yaml:"healthcheck"`
	Volumes         []any        `yaml:"volumes"`
	Restart         string       `yaml:"restart"`
	StopGracePeriod string       `yaml:"stop_grace_period"`
}

type healthcheck struct {
	Test        command `yaml:"test"`
	Disable     bool    `yaml:"disable"`
	Interval    string  `yaml:"interval"`
	Timeout     string  `yaml:"timeout"`
	Retries     int     `yaml:"retries"`
	StartPeriod string  `yaml:"start_period"`
}

// stringList is a string or a list of them.
type stringList []string

func (l *stringList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*l = stringList{n.Value}
		return nil
	}
	var v []string
	err := n.Decode(&v)
	*l = v
	return err
}

// command is a command as a list of words, or as a string that Compose
// splits as a shell would.
type command struct {
	set   bool
	words []string
}

func (c *command) UnmarshalYAML(n *yaml.Node) error {
	c.set = true
	if n.Kind == yaml.ScalarNode {
		w, err := shellWords(n.Value)
		c.words = w
		return err
	}
	return n.Decode(&c.words)
}

// envMap is environment: a mapping, or a list of NAME=VALUE.
type envMap map[string]string

func (e *envMap) UnmarshalYAML(n *yaml.Node) error {
	out := envMap{}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			out[n.Content[i].Value] = n.Content[i+1].Value
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			k, v, _ := strings.Cut(c.Value, "=")
			out[k] = v
		}
	default:
		return fmt.Errorf("line %d: environment is neither a mapping nor a list", n.Line)
	}
	*e = out
	return nil
}

// networkRefs are a service's networks: a list of names or a mapping.
type networkRefs []string

func (r *networkRefs) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.SequenceNode:
		var v []string
		err := n.Decode(&v)
		*r = v
		return err
	case yaml.MappingNode:
		for i := 0; i < len(n.Content); i += 2 {
			*r = append(*r, n.Content[i].Value)
		}
		return nil
	}
	return fmt.Errorf("line %d: networks is neither a list nor a mapping", n.Line)
}

// dependsOn is depends_on: service names with their conditions.
type dependsOn map[string]string

func (d *dependsOn) UnmarshalYAML(n *yaml.Node) error {
	out := dependsOn{}
	switch n.Kind {
	case yaml.SequenceNode:
		for _, c := range n.Content {
			out[c.Value] = "service_started"
		}
	case yaml.MappingNode:
		var m map[string]struct {
			Condition string `yaml:"condition"`
		}
		if err := n.Decode(&m); err != nil {
			return err
		}
		for k, v := range m {
			out[k] = cmp.Or(v.Condition, "service_started")
		}
	default:
		return fmt.Errorf("line %d: depends_on is neither a list nor a mapping", n.Line)
	}
	*d = out
	return nil
}

// port is one entry of ports.
type port struct {
	hostIP    string
	published string // "" when Docker picks the host's port
	target    int
}

func parsePort(v any) (port, error) {
	switch p := v.(type) {
	case int:
		return port{target: p}, nil
	case string:
		s, _, _ := strings.Cut(p, "/")
		parts := strings.Split(s, ":")
		t, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			return port{}, fmt.Errorf("port %q: the container's port is not one number", p)
		}
		out := port{target: t}
		if len(parts) >= 2 {
			out.published = parts[len(parts)-2]
		}
		if len(parts) >= 3 {
			out.hostIP = strings.Join(parts[:len(parts)-2], ":")
		}
		return out, nil
	case map[string]any:
		t, ok := p["target"].(int)
		if !ok {
			return port{}, fmt.Errorf("port %v has no target", p)
		}
		out := port{target: t}
		out.published = fmt.Sprint(cmpAny(p["published"]))
		out.hostIP = fmt.Sprint(cmpAny(p["host_ip"]))
		return out, nil
	}
	return port{}, fmt.Errorf("port %v: not read by this test", v)
}

func cmpAny(v any) any {
	if v == nil {
		return ""
	}
	return v
}

// mount is one entry of volumes.
type mount struct {
	source, target string
	readOnly       bool
}

func parseMount(v any) (mount, error) {
	switch m := v.(type) {
	case string:
		parts := strings.Split(m, ":")
		switch len(parts) {
		case 1:
			return mount{target: parts[0]}, nil
		case 2:
			return mount{source: parts[0], target: parts[1]}, nil
		case 3:
			opts := strings.Split(parts[2], ",")
			ro := false
			for _, o := range opts {
				ro = ro || o == "ro"
			}
			return mount{source: parts[0], target: parts[1], readOnly: ro}, nil
		}
	case map[string]any:
		src, _ := m["source"].(string)
		dst, _ := m["target"].(string)
		ro, _ := m["read_only"].(bool)
		return mount{source: src, target: dst, readOnly: ro}, nil
	}
	return mount{}, fmt.Errorf("volume %v: not read by this test", v)
}

// interpolation matches what Compose substitutes: $$, $NAME, ${NAME},
// ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error},
// ${NAME:+alt} and ${NAME+alt}.
var interpolation = regexp.MustCompile(`\$(\$|[A-Za-z_][A-Za-z0-9_]*|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\})`)

// interpolate substitutes the variables in s from env, as Compose does.
func interpolate(s string, env map[string]string) (string, error) {
	var err error
	out := interpolation.ReplaceAllStringFunc(s, func(m string) string {
		sm := interpolation.FindStringSubmatch(m)
		if sm[1] == "$" {
			return "$"
		}
		name := sm[2]
		if name == "" {
			name = sm[1]
		}
		v, set := env[name]
		empty := !set || v == ""
		switch op, arg := sm[3], sm[4]; op {
		case "":
			return v
		case ":-":
			if empty {
				return arg
			}
		case "-":
			if !set {
				return arg
			}
		case ":?", "?":
			if (op == ":?" && empty) || (op == "?" && !set) {
				if err == nil {
					err = fmt.Errorf("required variable %s is missing a value: %s", name, arg)
				}
				return ""
			}
		case ":+":
			if !empty {
				return arg
			}
			return ""
		case "+":
			if set {
				return arg
			}
			return ""
		}
		return v
	})
	return out, err
}

// requiredVar matches a value that is exactly one required variable:
// ${NAME:?message} or ${NAME?message}.
var requiredVar = regexp.MustCompile(`^\$\{([A-Za-z_][A-Za-z0-9_]*):?\?[^}]*\}$`)

// interpolateNode interpolates every scalar value (not mapping keys) under
// n, once each (aliases point at nodes interpolated where anchored).
func interpolateNode(n *yaml.Node, env map[string]string) error {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			if err := interpolateNode(c, env); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			if err := interpolateNode(n.Content[i], env); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		v, err := interpolate(n.Value, env)
		if err != nil {
			return fmt.Errorf("line %d: %v", n.Line, err)
		}
		if v != n.Value {
			n.Value = v
			if n.Style == 0 {
				// An unquoted value is typed by what it became
				// (${X:-true} is a boolean), as Compose does.
				n.Tag = ""
			}
		}
	}
	return nil
}

// loadCompose reads a Compose file: raw (env nil: no interpolation) or
// interpolated from env. It also gives the document as plain values, for
// the schema.
func loadCompose(src string, env map[string]string) (*composeFile, any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		return nil, nil, err
	}
	if env != nil {
		if err := interpolateNode(&doc, env); err != nil {
			return nil, nil, err
		}
	}
	var cf composeFile
	if err := doc.Decode(&cf); err != nil {
		return nil, nil, err
	}
	var plain any
	if err := doc.Decode(&plain); err != nil {
		return nil, nil, err
	}
	return &cf, plain, nil
}

// --- .dockerignore ---

// ignorePattern is one .dockerignore line.
type ignorePattern struct {
	text      string
	exclusion bool // a "!" line: put back what an earlier line left out
	re        *regexp.Regexp
}

// parseDockerignore reads .dockerignore as Docker does
// (github.com/moby/patternmatcher): comment lines, "!" exceptions, and
// patterns cleaned and made relative to the context's root, in which "*"
// and "?" do not cross "/" and "**" crosses any number of directories.
func parseDockerignore(src string) ([]ignorePattern, error) {
	var out []ignorePattern
	for _, l := range strings.Split(strings.TrimPrefix(src, "\ufeff"), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		p := ignorePattern{text: l}
		if l[0] == '!' {
			p.exclusion = true
			l = strings.TrimSpace(l[1:])
		}
		l = cleanPath(l)
		var re strings.Builder
		re.WriteString("^")
		for i := 0; i < len(l); i++ {
			switch c := l[i]; {
			case c == '*' && i+1 < len(l) && l[i+1] == '*':
				i++
				if i+1 < len(l) && l[i+1] == '/' {
					i++
				}
				if i+1 == len(l) {
					re.WriteString(".*")
				} else {
					re.WriteString("(.*/)?")
				}
			case c == '*':
				re.WriteString("[^/]*")
			case c == '?':
				re.WriteString("[^/]")
			case c == '[' || c == ']':
				re.WriteByte(c)
			case c == '\\' && i+1 < len(l):
				i++
				re.WriteString(regexp.QuoteMeta(string(l[i])))
			default:
				re.WriteString(regexp.QuoteMeta(string(c)))
			}
		}
		re.WriteString("$")
		var err error
		if p.re, err = regexp.Compile(re.String()); err != nil {
			return nil, fmt.Errorf(".dockerignore %q: %v", p.text, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// cleanPath is filepath.Clean with forward slashes, made relative.
func cleanPath(p string) string {
	var parts []string
	for _, s := range strings.Split(p, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(parts) > 0 {
				parts = parts[:len(parts)-1]
			}
		default:
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

// ignored reports whether the file at path (relative, with "/") is left
// out of the build context: the last pattern that matches it or one of
// its parent directories decides.
func ignored(patterns []ignorePattern, path string) bool {
	path = cleanPath(path)
	parts := strings.Split(path, "/")
	out := false
	for _, p := range patterns {
		if p.exclusion != out {
			continue
		}
		match := false
		for i := range parts {
			if p.re.MatchString(strings.Join(parts[:i+1], "/")) {
				match = true
				break
			}
		}
		if match {
			out = !p.exclusion
		}
	}
	return out
}

// --- orderly serve --help ---

// flagSet is the flags a command takes: by long name, whether it takes a
// value; shorthands map to long names.
type flagSet struct {
	long  map[string]bool
	short map[string]string
}

// helpFlag matches a flag line of cobra's help: "  -v, --verbose   ..."
// or "      --addr HOST:PORT   ..." (a flag that takes a value shows a
// name or type for it).
var helpFlag = regexp.MustCompile(`^\s+(?:-([A-Za-z0-9]), )?--([a-z0-9][a-z0-9-]*)(?: (\S+))?(?:\s{2,}|$)`)

func parseHelpFlags(help string) flagSet {
	fs := flagSet{long: map[string]bool{}, short: map[string]string{}}
	for _, l := range strings.Split(help, "\n") {
		m := helpFlag.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		fs.long[m[2]] = m[3] != ""
		if m[1] != "" {
			fs.short[m[1]] = m[2]
		}
	}
	return fs
}

// flagUse is one flag given on a command line.
type flagUse struct {
	name, value string
}

// parseArgs reads the arguments of a command that takes only flags.
func (fs flagSet) parseArgs(args []string) ([]flagUse, error) {
	var out []flagUse
	for i := 0; i < len(args); i++ {
		a := args[i]
		var name, val string
		var hasVal bool
		switch {
		case strings.HasPrefix(a, "--") && len(a) > 2:
			name, val, hasVal = strings.Cut(a[2:], "=")
		case strings.HasPrefix(a, "-") && len(a) == 2:
			long, ok := fs.short[a[1:]]
			if !ok {
				return nil, fmt.Errorf("unknown shorthand flag %s", a)
			}
			name = long
		default:
			return nil, fmt.Errorf("%q is not a flag (orderly serve takes no arguments)", a)
		}
		takes, ok := fs.long[name]
		if !ok {
			return nil, fmt.Errorf("unknown flag --%s", name)
		}
		if takes && !hasVal {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag --%s needs a value", name)
			}
			i++
			val = args[i]
		}
		if !takes && hasVal && val != "true" && val != "false" {
			return nil, fmt.Errorf("flag --%s takes no value", name)
		}
		out = append(out, flagUse{name, val})
	}
	return out, nil
}

// values are the values given for flag name.
func values(uses []flagUse, name string) []string {
	var out []string
	for _, u := range uses {
		if u.name == name {
			out = append(out, u.value)
		}
	}
	return out
}
