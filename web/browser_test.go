package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"orderly/rules"
	"orderly/rules/nb"
	"orderly/server"
	"orderly/store/sqlite"
	"orderly/web"
)

// The browser tests drive the real pages in Debian's Chromium against the
// real server, in-process. They skip when /usr/bin/chromium is missing,
// unless ORDERLY_BROWSER=require. Screenshots go to $ORDERLY_ARTIFACTS, or
// to a temporary directory.

const chromium = "/usr/bin/chromium"

// wait is how long a page may take to show what a test waits for.
const wait = 25 * time.Second

func needBrowser(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests are skipped in -short mode")
	}
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("ORDERLY_BROWSER") == "require" {
			t.Fatalf("ORDERLY_BROWSER=require but %s is missing: install it with apt-get install -y chromium", chromium)
		}
		t.Skipf("%s is missing (apt-get install -y chromium); set ORDERLY_BROWSER=require to fail instead", chromium)
	}
}

// session starts a browser test: it needs the browser, gets two minutes,
// and has a site to test and a place for its screenshots. The site is the
// package's shared server with a demo game of the test's own.
func session(t *testing.T) (context.Context, *site, string) {
	t.Helper()
	needBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	return ctx, newSite(t, ctx), artifacts(t)
}

// privateSession is session with a server of the test's own, for a test
// that changes the whole server: its host token, its connections.
func privateSession(t *testing.T) (context.Context, *site, string) {
	t.Helper()
	needBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	srv, stop, err := startServer(ctx, t.TempDir())
	t.Cleanup(stop)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, withDemo(t, ctx, srv), artifacts(t)
}

// site is a server with one demo game, and its host token (which makes
// and imports games).
type site struct {
	srv  *server.Server
	ts   *httptest.Server
	made *server.Created
	host string
}

// TestMain runs the tests, then ends the browser and the server they
// share. The browser tests spend their time waiting on Chromium and the
// server, not on the test's CPU: unless -parallel is given, four run at
// once, whatever the number of CPUs.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(max(4, runtime.GOMAXPROCS(0)))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	code := m.Run()
	shared.close()
	os.Exit(code)
}

// shared is what the package's tests share: one Chromium, in which each
// page has a browser context of its own, and one server with its bundled
// scenarios, on which each test makes games of its own. Each starts when
// a test first needs it; TestMain ends them.
var shared fixture

type fixture struct {
	browserOnce sync.Once
	browserCtx  context.Context
	browserErr  error
	stopBrowser func()

	siteOnce sync.Once
	site     *site // without a game
	siteErr  error
	stopSite func()
}

// server returns the shared server, starting it on first use.
func (f *fixture) server(t *testing.T) *site {
	t.Helper()
	f.siteOnce.Do(func() {
		dir, err := os.MkdirTemp("", "orderly-web-test-")
		if err != nil {
			f.siteErr = err
			return
		}
		// The tests make their games from one address, more than a
		// client may in an hour; the server package tests the limits.
		lim := server.Limits{GamesPerHour: 1 << 20, FailedTokens: 1 << 20}
		srv, stop, err := startServer(context.Background(), dir, server.WithLimits(lim))
		f.site, f.siteErr = srv, err
		f.stopSite = func() {
			stop()
			os.RemoveAll(dir)
		}
	})
	if f.siteErr != nil {
		t.Fatalf("start the shared server: %v", f.siteErr)
	}
	return f.site
}

// browser returns the shared browser's context, starting Chromium on
// first use.
func (f *fixture) browser(t *testing.T) context.Context {
	t.Helper()
	f.browserOnce.Do(func() {
		dir, err := os.MkdirTemp("", "orderly-web-chromium-")
		if err != nil {
			f.browserErr = err
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(chromium),
			chromedp.NoSandbox,
			chromedp.Headless,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.UserDataDir(dir),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("no-first-run", true),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.Flag("hide-scrollbars", true),
			chromedp.Flag("mute-audio", true),
			chromedp.WindowSize(1280, 1024),
		}
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, cancelBrowser := chromedp.NewContext(actx)
		f.browserCtx = bctx
		f.stopBrowser = func() {
			cancelBrowser()
			cancelAlloc()
			os.RemoveAll(dir)
		}
		if err := chromedp.Do(bctx); err != nil {
			f.browserErr = fmt.Errorf("start %s: %w", chromium, err)
		}
	})
	if f.browserErr != nil {
		t.Fatal(f.browserErr)
	}
	return f.browserCtx
}

// close ends what was started.
func (f *fixture) close() {
	if f.stopBrowser != nil {
		f.stopBrowser()
	}
	if f.stopSite != nil {
		f.stopSite()
	}
}

// startServer starts a server over a store in dir, with its host token
// and no game; stop ends it (call it also when err is not nil).
func startServer(ctx context.Context, dir string, opts ...server.Option) (s *site, stop func(), err error) {
	var stops []func()
	stop = func() {
		for _, f := range slices.Backward(stops) {
			f()
		}
	}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "t.db"))
	if err != nil {
		return nil, stop, err
	}
	stops = append(stops, func() { st.Close() })
	eng, err := rules.Make()
	if err != nil {
		return nil, stop, err
	}
	srv, err := server.New(ctx, st, eng, opts...)
	if err != nil {
		return nil, stop, err
	}
	host, err := srv.NewHostToken()
	if err != nil {
		return nil, stop, err
	}
	ts := httptest.NewServer(srv.Handler())
	stops = append(stops, ts.Close)
	return &site{srv: srv, ts: ts, host: host}, stop, nil
}

// newSite is the shared server with a demo game of the test's own.
func newSite(t *testing.T, ctx context.Context) *site {
	t.Helper()
	return withDemo(t, ctx, shared.server(t))
}

// withDemo makes a demo game on the server of s.
func withDemo(t *testing.T, ctx context.Context, s *site) *site {
	t.Helper()
	made, err := s.srv.Create(ctx, server.Setup{Scenario: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	if len(made.Seats) != 3 {
		t.Fatalf("the demo has %d seats, want 3 (umpire, french, allies)", len(made.Seats))
	}
	return &site{srv: s.srv, ts: s.ts, made: made, host: s.host}
}

// call sends a request to the API with a token and returns the status and
// the body.
func (s *site) call(t *testing.T, method, path, token, body string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(data)
}

// token returns the token of the seat of role and side.
func (s *site) token(t *testing.T, role, side string) string {
	t.Helper()
	for _, seat := range s.made.Seats {
		if seat.Role == role && seat.Side == side {
			return seat.Token
		}
	}
	t.Fatalf("no %s seat for %q", role, side)
	return ""
}

// command sends a command as a seat, through the HTTP API.
func (s *site) command(t *testing.T, token, body string) {
	t.Helper()
	req, err := http.NewRequest("POST", s.ts.URL+"/api/games/"+s.made.Game.ID+"/commands", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		var e struct {
			Error struct{ Message string } `json:"error"`
		}
		_ = json.NewDecoder(res.Body).Decode(&e)
		t.Fatalf("command %s: %s %s", body, res.Status, e.Error.Message)
	}
}

// tablet is the shared browser, the size of its pages' windows, and the
// test's context, which bounds the life of its pages.
type tablet struct {
	ctx  context.Context
	test context.Context
	w, h int
}

// browser gives the test the shared Chromium, whose pages have a window of
// w by h pixels and end with ctx.
func browser(t *testing.T, ctx context.Context, w, h int) tablet {
	t.Helper()
	return tablet{ctx: shared.browser(t), test: ctx, w: w, h: h}
}

// page is one tab, in a browser context of its own (like a player's own
// browser), that remembers the console errors the page makes.
type page struct {
	t    *testing.T
	ctx  context.Context
	name string
	dir  string

	mu     sync.Mutex
	errors []string
}

func newPage(t *testing.T, b tablet, name, dir string) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	// The tab closes when the test's time is up, as the browser of its
	// own did.
	stop := context.AfterFunc(b.test, cancel)
	t.Cleanup(func() { stop() })
	p := &page{t: t, ctx: ctx, name: name, dir: dir}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			// A refused command is a 4xx answer, which Chrome logs as a
			// network error; the page shows it in its banner.
			if m.Source == "network" {
				continue
			}
			if m.IsException() || m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleWarning {
				p.mu.Lock()
				p.errors = append(p.errors, fmt.Sprintf("%s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line+1))
				p.mu.Unlock()
			}
		}
	}()
	// The page gets the whole window, as on a tablet.
	p.do("size the viewport", chromedp.EmulateViewport(int64(b.w), int64(b.h)))
	// No smooth scrolling: a click must not race the page's own scroll.
	reduce := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, reduce); err != nil {
		t.Fatal(err)
	}
	return p
}

// fail saves a screenshot of the page and ends the test.
func (p *page) fail(format string, args ...any) {
	p.t.Helper()
	p.shot("FAIL-" + p.name)
	banner, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`(document.querySelector('#banner') || {}).textContent || ''`))
	p.t.Fatalf("%s: %s [banner: %q]", p.name, fmt.Sprintf(format, args...), strings.TrimSpace(banner))
}

func (p *page) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.fail("%s: %v", what, err)
	}
}

// until waits for the JavaScript expression to be truthy.
func (p *page) until(what, expr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait+time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`!!(`+expr+`)`, chromedp.WithPollingTimeout(wait), chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		p.fail("waiting for %s: %v", what, err)
	}
}

func eval[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.fail("evaluate %s: %v", expr, err)
	}
	return v
}

// open loads the game page with a join link, waits until it is live, and
// shows the whole map (the page opens closer in, on the seat's pieces:
// the tests click by coordinates anywhere on the map).
func (p *page) open(base, token string) {
	p.t.Helper()
	p.openAsIs(base, token)
	p.do("show the whole map", chromedp.Click(chromedp.CSS(`[data-map="fit"]`)))
}

// openAsIs loads the game page with a join link and waits until it is
// live, the map in the view it opens on.
func (p *page) openAsIs(base, token string) {
	p.t.Helper()
	p.do("open the join link", chromedp.Navigate(base+"/play#"+token))
	p.until("the stream to be live", `document.querySelector('#conn').textContent === 'live' && document.querySelector('#turn').textContent !== '–'`)
	p.until("the map to be drawn", `document.querySelector('#map [data-unit]')`)
	if h := eval[string](p, `location.hash`); h != "" {
		p.fail("the token stays in the address bar: %q", h)
	}
}

// shot saves a full-page screenshot as NAME.png.
func (p *page) shot(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, wait)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("%s: screenshot %s: %v", p.name, name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(p.dir, name+".png"), buf, 0o644); err != nil {
		p.t.Errorf("save screenshot: %v", err)
	}
}

// clickMap clicks the map at a point of the table, in inches.
func (p *page) clickMap(x, y float64) {
	p.t.Helper()
	at := p.screenOf(x, y)
	p.do(fmt.Sprintf("click the map at (%g, %g)", x, y), chromedp.MouseClickXY(at[0], at[1]))
}

// screenOf is where a table point is in the window: through the layers
// that turn with the table (a seat sees its own base edge at the bottom).
func (p *page) screenOf(x, y float64) [2]float64 {
	p.t.Helper()
	return eval[[2]float64](p, fmt.Sprintf(`(() => { const m = document.getElementById('viewport').getScreenCTM();
		const q = new DOMPoint(%g, %g).matrixTransform(m); return [q.x, q.y]; })()`, x, y))
}

// pieceAt is where a piece is drawn (its translate), in inches.
func (p *page) pieceAt(sel string) [2]float64 {
	p.t.Helper()
	tr := eval[string](p, fmt.Sprintf(`(document.querySelector(%q) || {getAttribute: () => ''}).getAttribute('transform') || ''`, sel))
	m := regexp.MustCompile(`translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)`).FindStringSubmatch(tr)
	if m == nil {
		p.fail("%s is not on the map (transform %q)", sel, tr)
	}
	x, _ := strconv.ParseFloat(m[1], 64)
	y, _ := strconv.ParseFloat(m[2], 64)
	return [2]float64{x, y}
}

func (p *page) text(sel string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ''`, sel))
}

// logNumbers is the numbers the log shows (its #N labels), in order.
func (p *page) logNumbers() []int {
	p.t.Helper()
	nums := eval[[]int](p, `[...document.querySelectorAll('#log li')].map(li => {
		const label = li.querySelector('.ev-seq').textContent;
		return /^#\d+$/.test(label) && label === '#' + li.dataset.seq ? Number(label.slice(1)) : -1; }).reverse()`)
	if len(nums) == 0 {
		p.fail("the log is empty")
	}
	return nums
}

// denseLog checks that the log shows the seat's events numbered 1..n,
// each once, in order, and returns n.
func (p *page) denseLog() int {
	p.t.Helper()
	nums := p.logNumbers()
	for i, n := range nums {
		if n != i+1 {
			p.fail("the log's numbers are not 1..%d without gaps: %v", len(nums), nums)
		}
	}
	return len(nums)
}

// checkConsole fails the test if the page logged an error.
func (p *page) checkConsole() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.errors {
		p.t.Errorf("%s: console: %s", p.name, e)
	}
}

func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("ORDERLY_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func near(a, b [2]float64, tol float64) bool {
	dx, dy := a[0]-b[0], a[1]-b[1]
	return dx*dx+dy*dy <= tol*tol
}

// TestBrowserOrders plays the scenario with three seats in three
// browsers: the French write an order (objective tapped on the map, odds
// shown before sending), the turns advance, the messenger rides across both
// maps and delivers, and the Allies never see what it carries.
func TestBrowserOrders(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	b := browser(t, ctx, 1024, 768)
	umpire := newPage(t, b, "umpire", dir)
	french := newPage(t, b, "french", dir)
	allies := newPage(t, b, "allies", dir)
	umpire.open(s.ts.URL, s.token(t, "umpire", ""))
	french.open(s.ts.URL, s.token(t, "side", "french"))
	allies.open(s.ts.URL, s.token(t, "side", "allies"))

	for _, p := range []*page{umpire, french, allies} {
		if got := p.text("#turn") + " " + p.text("#phase") + " " + p.text("#step"); got != "1 communications write" {
			p.fail("turn, phase and step are %q, want 1 communications write", got)
		}
	}
	if got := french.text("#seat"); got != "Armée du Nord" {
		french.fail("#seat is %q", got)
	}
	if !eval[bool](umpire, `document.querySelector('#ready').hidden && !document.querySelector('#end-step').hidden`) {
		umpire.fail("the umpire should have End step and no Ready")
	}

	// The French write an order for I Corps.
	const note = "secret-plan-4711"
	french.do("choose I Corps and attack",
		chromedp.Click(chromedp.CSS(`#order-for input[value="F-I"]`)),
		chromedp.SetValue(chromedp.ID("order-kind"), "attack"),
	)
	french.clickMap(30, 20)
	french.until("the objective to be picked", `document.querySelector('#order-x').value === '30' && document.querySelector('#order-y').value === '20' && document.querySelector('#layer-pick .pick')`)
	french.do("write the note", chromedp.SendKeys(chromedp.ID("order-note"), note))
	french.until("the odds of the delay roll", `document.querySelector('#order-odds .fc[data-formation="F-I"]') && /immediate 40%/.test(document.querySelector('#order-odds').textContent)`)
	if odds := french.text("#order-odds"); !strings.Contains(odds, "2/5") || !strings.Contains(odds, "1/5") {
		french.fail("the odds show no exact fractions: %q", odds)
	}
	// The server's messenger estimate: Napoleon at (48, 45) to d'Erlon at
	// (34, 34) is sqrt(317) = 17.8", two rides of 14" (NB-3), read on the
	// turn after delivery (NB-4).
	if odds := french.text("#order-odds"); !strings.Contains(odds, "Messenger: 17.8″ to d'Erlon at 14″ a turn; delivered about turn 2, read turn 3") ||
		!strings.Contains(odds, "read T3") {
		french.fail("the odds do not show the server's messenger estimate: %q", odds)
	}
	french.do("show the odds", chromedp.Evaluate[chromedp.Void](`document.querySelector('#order-send').scrollIntoView({block: 'end'})`))
	french.shot("french-turn1-order")
	french.do("send the order", chromedp.WaitEnabled(chromedp.ID("order-send")), chromedp.Click(chromedp.ID("order-send")))
	french.until("the order to be sent", `/Sent french-5/.test(document.querySelector('#order-result').textContent)`)
	french.until("the log to show the order", `[...document.querySelectorAll('#log li[data-type="order-written"]')].some(li => li.textContent.includes('french-5') && li.textContent.includes('`+note+`'))`)
	french.until("the messenger on the map", `document.querySelector('#map [data-messenger="m-french-1"].own')`)
	// It rides 14" a turn from (48, 45) to d'Erlon at (34, 34), 17.8" away:
	// it arrives on turn 2, its second ride.
	french.until("the messenger's arrival turn", `/d'Erlon · turn 2/.test(document.querySelector('#map [data-messenger="m-french-1"]').textContent)`)
	french.until("the pending order in the order of battle", `document.querySelector('#oob li[data-formation="F-I"] li[data-order="french-5"]')`)
	allies.until("the French messenger on the Allied map", `document.querySelector('#map [data-messenger="m-french-1"].enemy')`)
	msg0 := french.pieceAt(`#map [data-messenger="m-french-1"]`)
	if !near(msg0, [2]float64{48, 45}, 0.01) {
		french.fail("the messenger starts at %v, want the army commander's (48, 45)", msg0)
	}
	secret := func(when string) {
		t.Helper()
		html := eval[string](allies, `document.documentElement.outerHTML`)
		for _, leak := range []string{note, "french-5", "order-written"} {
			if leak == "order-written" {
				if eval[bool](allies, `[...document.querySelectorAll('#log li[data-type="order-written"]')].some(li => li.dataset.side === 'french')`) {
					allies.fail("%s: the Allied log shows a French order-written", when)
				}
				continue
			}
			if strings.Contains(html, leak) {
				allies.fail("%s: the Allied page shows %q", when, leak)
			}
		}
		if got := eval[string](allies, `document.querySelector('#map [data-messenger="m-french-1"]') ? document.querySelector('#map [data-messenger="m-french-1"]').textContent : 'gone'`); strings.Contains(got, "carrying") || strings.Contains(got, "d'Erlon") {
			allies.fail("%s: the Allied map says what the messenger carries: %q", when, got)
		}
	}
	secret("after the order was written")
	for _, p := range []*page{umpire, french, allies} {
		p.shot(p.name + "-turn1")
	}

	// Both sides are ready: the messengers ride, then the move step.
	french.do("ready", chromedp.Click(chromedp.ID("ready")))
	allies.until("the French to be ready", `document.querySelector('#ready-list li[data-side="french"].is-ready')`)
	allies.do("ready", chromedp.Click(chromedp.ID("ready")))
	for _, p := range []*page{french, allies} {
		p.until("the move step", `document.querySelector('#step').textContent === 'move'`)
	}
	french.until("the messenger to ride", `(() => { const e = document.querySelector('#map [data-messenger="m-french-1"]'); return e && !/translate\(48 45\)/.test(e.getAttribute('transform')); })()`)
	msg1 := french.pieceAt(`#map [data-messenger="m-french-1"]`)
	allies.until("the messenger to ride on the Allied map", `(() => { const e = document.querySelector('#map [data-messenger="m-french-1"]'); return e && !/translate\(48 45\)/.test(e.getAttribute('transform')); })()`)
	if got := allies.pieceAt(`#map [data-messenger="m-french-1"]`); !near(got, msg1, 0.01) {
		allies.fail("the Allies see the messenger at %v, the French at %v", got, msg1)
	}
	if d := (msg1[0]-msg0[0])*(msg1[0]-msg0[0]) + (msg1[1]-msg0[1])*(msg1[1]-msg0[1]); d < 13.9*13.9 {
		french.fail("the messenger rode from %v to %v, less than the army commander's 14\"", msg0, msg1)
	}
	french.until("the messenger-moved entry", `document.querySelector('#log li[data-type="messenger-moved"]')`)
	secret("after the messenger rode")
	french.shot("french-turn1-move")
	allies.shot("allies-turn1-move")

	// The umpire ends the steps until the messenger delivers (turn 2).
	endStep := func(want string) {
		t.Helper()
		umpire.do("end the step", chromedp.WaitEnabled(chromedp.ID("end-step")), chromedp.Click(chromedp.ID("end-step")),
			chromedp.WaitVisible(chromedp.ID("end-yes")), chromedp.Click(chromedp.ID("end-yes")))
		umpire.until("the "+want+" step", `document.querySelector('#turn').textContent + ' ' + document.querySelector('#step').textContent === '`+want+`'`)
	}
	endStep("2 write")
	endStep("2 move")
	french.until("the order to be delivered", `[...document.querySelectorAll('#log li[data-type="order-delivered"]')].some(li => li.textContent.includes('french-5'))`)
	french.until("the messenger to be gone", `!document.querySelector('#map [data-messenger="m-french-1"]')`)
	french.until("the order of battle to show the delivery", `/delivered turn 2/.test((document.querySelector('#oob li[data-order="french-5"]') || {}).textContent || '')`)
	allies.until("the messenger to be gone from the Allied map", `!document.querySelector('#map [data-messenger="m-french-1"]') && document.querySelector('#turn').textContent === '2'`)
	secret("after delivery")
	for _, p := range []*page{umpire, french, allies} {
		p.shot(p.name + "-turn2")
	}

	// Turn 3: d'Erlon reads the order and rolls; the log shows the roll.
	endStep("3 write")
	endStep("3 move")
	french.until("the order to be read", `document.querySelector('#log li[data-type="order-read"] dl.roll')`)
	roll := french.text(`#log li[data-type="order-read"]`)
	for _, want := range []string{"french-5", "1d10", "total", "result"} {
		if !strings.Contains(roll, want) {
			french.fail("the order-read entry %q lacks %q", roll, want)
		}
	}
	if eval[bool](allies, `!!document.querySelector('#log li[data-type="order-read"]')`) {
		allies.fail("the Allies see the French roll")
	}
	secret("after the roll")

	// The printable order sheet.
	french.until("turn 3 on the French page", `document.querySelector('#turn').textContent === '3' && document.querySelector('#step').textContent === 'move'`)
	french.do("open the order sheet", chromedp.Click(chromedp.ID("print-orders")))
	french.until("the sheet", `!document.querySelector('#sheet').hidden && document.querySelector('#sheet tr[data-order="french-5"]')`)
	sheet := french.text(`#sheet tr[data-order="french-5"]`)
	for _, want := range []string{"I Corps", "attack", "(30, 20)", note, "F-I: turn"} {
		if !strings.Contains(sheet, want) {
			french.fail("the sheet's row %q lacks %q", sheet, want)
		}
	}
	french.shot("french-sheet")
	french.do("close the sheet", chromedp.Click(chromedp.ID("sheet-close")))

	// Printed, the page is the sheet alone (css/print.css).
	media := func(m string) {
		t.Helper()
		if _, err := chromedp.Call(french.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m}); err != nil {
			t.Fatal(err)
		}
	}
	media("print")
	if !eval[bool](french, `getComputedStyle(document.querySelector('.layout')).display === 'none' && getComputedStyle(document.querySelector('.turnbar')).display === 'none' &&
		getComputedStyle(document.querySelector('#sheet')).display === 'block' && getComputedStyle(document.querySelector('.sheet-bar')).display === 'none'`) {
		french.fail("printed, the page is not the order sheet alone")
	}
	french.shot("french-print")
	media("")

	french.do("open the log", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="log"]`)))
	french.shot("french-turn3-log")
	allies.do("open the Allied sheet", chromedp.Click(chromedp.ID("print-orders")))
	allies.until("the Allied sheet", `document.querySelector('#sheet tr[data-order="allies-1"]')`)
	secret("with the sheet open")

	// The umpire sees everything, and his tools.
	umpire.until("the umpire's log to show the French order", `[...document.querySelectorAll('#log li[data-type="order-written"]')].some(li => li.textContent.includes('french-5'))`)
	umpire.do("open the umpire tab", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="game"]`)))
	umpire.until("the seat list", `document.querySelectorAll('#seats li').length === 3`)
	downloads := t.TempDir()
	if _, err := chromedp.CallBrowser(umpire.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, BrowserContextID: chromedp.FromContext(umpire.ctx).BrowserContextID, DownloadPath: downloads,
	}); err != nil {
		t.Fatal(err)
	}
	umpire.do("export the game", chromedp.Click(chromedp.ID("export")))
	umpire.until("the export link", `/^blob:/.test(document.querySelector('#export-link').href) && !document.querySelector('#export-link').hidden`)
	name := eval[string](umpire, `document.querySelector('#export-link').download`)
	var doc struct {
		ID     string            `json:"id"`
		Events []json.RawMessage `json:"events"`
	}
	for deadline := time.Now().Add(wait); ; time.Sleep(50 * time.Millisecond) {
		data, err := os.ReadFile(filepath.Join(downloads, name))
		if err == nil && json.Unmarshal(data, &doc) == nil {
			break
		}
		if time.Now().After(deadline) {
			umpire.fail("the export %s was not saved: %v", name, err)
		}
	}
	if doc.ID != s.made.Game.ID || len(doc.Events) < 30 {
		umpire.fail("the export is of game %q with %d events", doc.ID, len(doc.Events))
	}
	// Each side numbers its own events 1, 2, 3, ...: fewer than the
	// umpire's, and without gaps where the other side's secrets are.
	umpire.do("show the log", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="log"]`)))
	all := umpire.logNumbers()
	for _, p := range []*page{french, allies} {
		p.do("show the log", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="log"]`)))
		if n := p.denseLog(); n >= all[len(all)-1] {
			p.fail("the side's log has %d events, the umpire's %d: the side sees everything", n, all[len(all)-1])
		}
	}
	umpire.do("open the umpire tab", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="game"]`)))

	// Mid-game, revealing the seed asks to be confirmed first.
	umpire.do("reveal the seed", chromedp.Click(chromedp.ID("reveal")))
	umpire.until("the confirmation", `!document.querySelector('#reveal-confirm').hidden && document.querySelectorAll('#reveal-confirm-details li').length > 0`)
	umpire.do("reveal anyway", chromedp.Click(chromedp.ID("reveal-anyway")))
	umpire.until("the revealed key", `/revealed key/.test(document.querySelector('#seeds').textContent) && document.querySelectorAll('#seeds li').length === 2 && document.querySelector('#reveal-confirm').hidden`)
	french.until("the revealed key on the French page", `/revealed key/.test(document.querySelector('#seeds').textContent)`)
	umpire.shot("umpire-tools")

	for _, p := range []*page{umpire, french, allies} {
		p.checkConsole()
	}
}

// TestBrowserDrag moves French pieces by dragging them in the move step: a
// legal move is made; a move off the table and a line formation under an
// attack order (NB-7) are refused, the piece snaps back and the banner says
// why.
func TestBrowserDrag(t *testing.T) {
	t.Parallel()
	ctx, s, dir := privateSession(t)
	fr, al := s.token(t, "side", "french"), s.token(t, "side", "allies")
	s.command(t, fr, `{"ready":true}`)
	s.command(t, al, `{"ready":true}`)
	b := browser(t, ctx, 1024, 768)
	french := newPage(t, b, "french", dir)
	french.open(s.ts.URL, fr)
	french.until("the move step", `document.querySelector('#step').textContent === 'move'`)

	// A legal move: F-I-1-a three inches north.
	const unit = `#map [data-unit="F-I-1-a"]`
	if got := french.pieceAt(unit); !near(got, [2]float64{26, 32}, 0.01) {
		french.fail("F-I-1-a is at %v, want (26, 32)", got)
	}
	from, to := french.screenOf(26, 32), french.screenOf(26, 29)
	french.do("drag F-I-1-a", chromedp.DragAndDropXY(from[0], from[1], to[0], to[1], 12))
	french.until("the move to be logged", `[...document.querySelectorAll('#log li[data-type="moved"]')].some(li => li.textContent.includes('F-I-1-a'))`)
	french.until("the unit to stay where it was dropped", `!document.querySelector('`+unit+`.pending')`)
	if got := french.pieceAt(unit); !near(got, [2]float64{26, 29}, 0.3) {
		french.fail("F-I-1-a is at %v after the drag, want about (26, 29)", got)
	}
	french.shot("french-drag-moved")

	// A general moves the same way.
	from, to = french.screenOf(24, 38), french.screenOf(22, 36)
	french.do("drag Ney", chromedp.DragAndDropXY(from[0], from[1], to[0], to[1], 8))
	french.until("Ney's move to be logged", `[...document.querySelectorAll('#log li[data-type="moved"]')].some(li => li.textContent.includes('Ney (24, 38) -> '))`)
	french.until("Ney to stay where he was dropped", `!document.querySelector('#map [data-general="ney"].pending')`)
	if got := french.pieceAt(`#map [data-general="ney"]`); !near(got, [2]float64{22, 36}, 0.3) {
		french.fail("Ney is at %v after the drag, want about (22, 36)", got)
	}

	// Off the table: refused, snapped back.
	const other = `#map [data-unit="F-I-1-b"]`
	from, to = french.screenOf(28, 32), french.screenOf(28, 51)
	french.do("drag F-I-1-b off the table", chromedp.DragAndDropXY(from[0], from[1], to[0], to[1], 12))
	french.until("the refusal in the banner", `!document.querySelector("#banner").hidden && /F-I-1-b cannot move to .*off the table/.test(document.querySelector("#banner").textContent)`)
	french.until("the unit to snap back", `/translate\(28 32\)/.test(document.querySelector('`+other+`').getAttribute('transform'))`)
	french.shot("french-drag-refused")

	// Under an attack order, not engaged, the card offers only the
	// formations NB-7 allows, as the board lists them: no line to be
	// refused (issue 36).
	french.do("dismiss the banner", chromedp.Click(chromedp.CSS("#banner .banner-close")))
	at := french.screenOf(31, 32)
	french.do("select F-I-2-a", chromedp.MouseClickXY(at[0], at[1]))
	french.until("the selection card", `!document.querySelector('#selection').hidden && /F-I-2-a/.test(document.querySelector('#selection').textContent)`)
	if got, want := eval[[]string](french, `[...document.querySelectorAll('#selection select[aria-label="Formation"] option')].map(o => o.value)`), []string{"column", "march-column"}; !slices.Equal(got, want) {
		french.fail("the card offers F-I-2-a, under an attack order, the formations %v, want the board's %v (NB-7)", got, want)
	}
	french.shot("french-nb7-offered")

	// The stream drops: the page says so, reconnects, and misses nothing.
	s.ts.CloseClientConnections()
	french.until("the reconnecting state", `document.querySelector('#conn').dataset.state === 'reconnecting'`)
	french.until("the stream to be live again", `document.querySelector('#conn').textContent === 'live'`)
	s.command(t, s.token(t, "umpire", ""), `{"end":true}`)
	french.until("turn 2 after the reconnection", `document.querySelector('#turn').textContent === '2' && document.querySelector('#log li[data-type="step-begun"][data-turn="2"]')`)
	if !eval[bool](french, `(() => { const seqs = [...document.querySelectorAll('#log li')].map(li => Number(li.dataset.seq));
		return new Set(seqs).size === seqs.length && seqs.every((q, i) => i === 0 || q < seqs[i - 1]); })()`) {
		french.fail("the log has repeated or unordered entries after the reconnection")
	}
	french.denseLog()
	french.checkConsole()
}

// TestBrowserOverride has the umpire drag a unit farther than its speed:
// the refusal (NB-16) comes with a field for a reason, and with one the
// move is made and the log records why.
func TestBrowserOverride(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	fr, al := s.token(t, "side", "french"), s.token(t, "side", "allies")
	s.command(t, fr, `{"ready":true}`)
	s.command(t, al, `{"ready":true}`)
	b := browser(t, ctx, 1024, 768)
	ump := newPage(t, b, "umpire", dir)
	ump.open(s.ts.URL, s.token(t, "umpire", ""))
	ump.until("the move step", `document.querySelector('#step').textContent === 'move'`)

	const unit = `#map [data-unit="F-I-1-b"]`
	from, to := ump.screenOf(28, 32), ump.screenOf(28, 16)
	ump.do("drag F-I-1-b sixteen inches", chromedp.DragAndDropXY(from[0], from[1], to[0], to[1], 12))
	ump.until("the NB-16 refusal with a field for a reason", `!document.querySelector('#banner').hidden && /\(NB-16\)/.test(document.querySelector('#banner').textContent) && document.querySelector('#banner input.override-reason')`)
	ump.until("the unit to snap back", `/translate\(28 32\)/.test(document.querySelector('`+unit+`').getAttribute('transform'))`)
	ump.shot("umpire-override-asked")
	ump.do("give a reason",
		chromedp.SendKeys(chromedp.CSS(`#banner input.override-reason`), "forced march, by agreement"),
		chromedp.Click(chromedp.CSS(`#banner .banner-extra button`)),
	)
	ump.until("the move to be logged with the reason", `[...document.querySelectorAll('#log li[data-type="moved"]')].some(li => li.textContent.includes('forced march, by agreement'))`)
	ump.until("the unit drawn at its new place", `/translate\(28 16\)/.test(document.querySelector('`+unit+`').getAttribute('transform'))`)
	if got := ump.pieceAt(unit); !near(got, [2]float64{28, 16}, 0.3) {
		ump.fail("F-I-1-b is at %v after the override, want about (28, 16)", got)
	}
	ump.shot("umpire-override-moved")
	ump.checkConsole()
}

// TestBrowserLanding opens the landing page with the host link, makes a
// game from its demo button and follows one of the join links it shows;
// makes games from an uploaded scenario and an exported game; and, once
// the host link has changed, shows the server's refusal. Opened without
// the host link, the page says how to make games and offers no control
// for it.
func TestBrowserLanding(t *testing.T) {
	t.Parallel()
	ctx, s, dir := privateSession(t)
	b := browser(t, ctx, 1024, 768)
	p := newPage(t, b, "landing", dir)
	p.do("open the host link", chromedp.Navigate(s.ts.URL+"/#host="+s.host))
	p.until("the scenarios", `document.querySelector('#scenarios [data-scenario="demo"]')`)
	if h := eval[string](p, `location.hash`); h != "" {
		p.fail("the host token stays in the address bar: %q", h)
	}
	if got := eval[string](p, `sessionStorage.getItem('orderly.host')`); got != s.host {
		p.fail("the tab keeps the host token %q, want the host link's", got)
	}
	p.until("the answer of /api/host", `document.querySelector('#host-needed').hidden && !document.querySelector('#scenarios [data-scenario="demo"]').disabled`)
	p.do("make a demo game", chromedp.Click(chromedp.CSS(`#scenarios [data-scenario="demo"]`)))
	p.until("three join links", `document.querySelectorAll('#links a.join').length === 3`)
	links := eval[[]map[string]string](p, `[...document.querySelectorAll('#links a.join')].map(a => ({role: a.dataset.role, side: a.dataset.side, href: a.href}))`)
	want := []string{"umpire/", "side/french", "side/allies"}
	for i, l := range links {
		if got := l["role"] + "/" + l["side"]; got != want[i] {
			t.Errorf("link %d is for %s, want %s", i, got, want[i])
		}
		if !strings.HasPrefix(l["href"], s.ts.URL+"/play#") || len(l["href"]) < len(s.ts.URL+"/play#")+40 {
			t.Errorf("link %d is %q, not a join link", i, l["href"])
		}
	}
	if c := p.text("#created-commitment"); !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(c) {
		p.fail("the seed commitment is %q", c)
	}
	if !strings.Contains(p.text("#created"), "shown only once") {
		p.fail("no warning that the links are shown once")
	}
	p.shot("landing")

	// A scenario file uploaded makes a game too.
	file, err := filepath.Abs("../examples/nb/nb-03-messengers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The demo game's id, read before the upload: read after it, it can
	// already be the new game's.
	first := p.text("#created-id")
	p.do("upload a scenario", chromedp.SetUploadFiles(chromedp.ID("scenario-file"), []string{file}),
		chromedp.Click(chromedp.CSS(`#upload-form button[type=submit]`)))
	p.until("the uploaded game's links", `document.querySelector('#created-id').textContent !== '`+first+`' && document.querySelectorAll('#links a.join').length === 3 &&
		[...document.querySelectorAll('#links a.join')].map(a => a.dataset.side).join() === ',french,british'`)
	second := p.text("#created-id")

	// A LOB scenario needs its tables: refused without them (example tables
	// unticked), with the sentence that says which and how; made on its
	// demo's example tables when ticked, and with the tables file chosen.
	lobFile, err := filepath.Abs("../examples/lob/lob-demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tablesFile, err := filepath.Abs("../examples/lob/example-tables.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !eval[bool](p, `document.querySelector('#example-tables').checked`) {
		p.fail("the example tables are not offered ticked")
	}
	p.do("untick the example tables", chromedp.Click(chromedp.ID("example-tables")))
	p.do("upload a LOB scenario alone", chromedp.SetUploadFiles(chromedp.ID("scenario-file"), []string{lobFile}),
		chromedp.Click(chromedp.CSS(`#upload-form button[type=submit]`)))
	p.until("the refusal naming the missing tables", `!document.querySelector('#banner').hidden && /lob\/command-roll/.test(document.querySelector('#banner').textContent)`)
	p.do("tick them and upload again", chromedp.Click(chromedp.ID("example-tables")),
		chromedp.Click(chromedp.CSS(`#upload-form button[type=submit]`)))
	p.until("the LOB game's links", `document.querySelector('#created-id').textContent !== '`+second+`' &&
		[...document.querySelectorAll('#links a.join')].map(a => a.dataset.side).join() === ',union,confederate'`)
	if rec, err := s.srv.Export(ctx, p.text("#created-id"), false); err != nil || rec.Tables == nil || rec.Tables.File != "lob/example-tables.yaml" {
		t.Fatalf("the LOB game made on the example tables keeps tables %+v, %v; want lob/example-tables.yaml", rec, err)
	}
	second = p.text("#created-id")
	p.do("add its tables file", chromedp.SetUploadFiles(chromedp.ID("tables-file"), []string{tablesFile}),
		chromedp.Click(chromedp.CSS(`#upload-form button[type=submit]`)))
	p.until("the LOB game's links", `document.querySelector('#created-id').textContent !== '`+second+`' &&
		[...document.querySelectorAll('#links a.join')].map(a => a.dataset.side).join() === ',union,confederate'`)
	lobID := p.text("#created-id")
	if rec, err := s.srv.Export(ctx, lobID, false); err != nil || rec.Tables == nil || rec.Tables.File != "example-tables.yaml" {
		t.Fatalf("the LOB game made from the page keeps tables %+v, %v; want example-tables.yaml", rec, err)
	}
	eval[string](p, `document.querySelector('#tables-file').value = ''`) // the next games are made without it
	second = lobID

	if !eval[bool](p, `matchMedia('(prefers-reduced-motion: reduce)').matches`) {
		p.fail("the page does not see the reduced motion the tests ask for")
	}

	// And so does a game exported by an umpire.
	doc, err := s.srv.Export(ctx, s.made.Game.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	exported := filepath.Join(t.TempDir(), "game.json")
	if err := os.WriteFile(exported, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p.do("import a game", chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{exported}),
		chromedp.Click(chromedp.CSS(`#import-form button[type=submit]`)))
	p.until("the imported game's links", `/^Demo/.test(document.querySelector('#created-title').textContent) && document.querySelectorAll('#links a.join').length === 3 &&
		!['`+first+`', '`+second+`', '`+s.made.Game.ID+`'].includes(document.querySelector('#created-id').textContent)`)

	// The allies' link opens the new game as the Allies.
	seat := newPage(t, b, "new-allies", dir)
	token := strings.TrimPrefix(links[2]["href"], s.ts.URL+"/play#")
	seat.open(s.ts.URL, token)
	if got := seat.text("#seat"); got != "Anglo-allied army" {
		seat.fail("#seat is %q", got)
	}
	if id := eval[string](seat, `document.querySelector('#game-facts code').textContent`); id == s.made.Game.ID || id == "" {
		seat.fail("the link opened game %q, not the new game", id)
	}

	// The server printed a new host link (it restarted): the old one is
	// refused with the server's sentence, and the page says what to do.
	if _, err := s.srv.NewHostToken(); err != nil {
		t.Fatal(err)
	}
	p.do("make a game with the old host link", chromedp.Click(chromedp.CSS(`#scenarios [data-scenario="demo"]`)))
	p.until("the server's refusal", `!document.querySelector('#banner').hidden && /not the host token/.test(document.querySelector('#banner').textContent)`)
	p.until("the sentence in place of the controls", `!document.querySelector('#host-needed').hidden && document.querySelector('#create-forms').hidden`)
	p.checkConsole()
	seat.checkConsole()

	// Without the host link the page lists the scenarios, says how to
	// make a game, and offers no control that makes one.
	q := newPage(t, b, "landing-guest", dir)
	q.do("portrait", chromedp.EmulateViewport(768, 1024))
	q.do("open the landing page", chromedp.Navigate(s.ts.URL+"/"))
	q.until("the scenarios", `[...document.querySelectorAll('#scenarios .sc-title')].some(e => /Demo/.test(e.textContent))`)
	q.until("the sentence", `!document.querySelector('#host-needed').hidden`)
	if got := q.text("#host-needed"); got != "To make or import games, open the host link that orderly serve printed when it started." {
		q.fail("the sentence is %q", got)
	}
	if shown := eval[[]string](q, `[...document.querySelectorAll('#scenarios button, #create-forms input, #create-forms button, #create-options input')]
		.filter(el => !el.disabled || el.getClientRects().length > 0).map(el => el.id || el.dataset.scenario || el.tagName)`); len(shown) > 0 {
		q.fail("controls that make games are shown or enabled: %v", shown)
	}
	q.shot("landing-guest")
	q.checkConsole()
}

// TestBrowserReveal asks to reveal the dice seed mid-game: the page shows
// what the server says it would expose (the demo's Prussian reserve's
// secret entry turn) and reveals only once confirmed; every seat then
// sees the key; at the end of the game the server reveals the seed by
// itself. The game tab shows the seat's log fingerprint.
func TestBrowserReveal(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	b := browser(t, ctx, 1024, 768)
	um := newPage(t, b, "reveal-umpire", dir)
	fr := newPage(t, b, "reveal-french", dir)
	um.open(s.ts.URL, s.token(t, "umpire", ""))
	fr.open(s.ts.URL, s.token(t, "side", "french"))
	um.do("open the umpire tab", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="game"]`)))
	if got := um.text("#reveal-note"); !strings.Contains(got, "The seed is revealed by itself when the game ends") {
		um.fail("the note by the button is %q", got)
	}

	// Each seat's fingerprint is the head of its own log, as the API says.
	for _, p := range []*page{um, fr} {
		token := s.token(t, "umpire", "")
		if p == fr {
			token = s.token(t, "side", "french")
		}
		code, body := s.call(t, "GET", "/api/seat", token, "")
		var info struct {
			Head string `json:"head"`
		}
		if code != 200 || json.Unmarshal([]byte(body), &info) != nil || !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(info.Head) {
			t.Fatalf("GET /api/seat: %d %s", code, body)
		}
		p.do("open the game tab", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="game"]`)))
		p.until("the fingerprint", `document.querySelector('#fingerprint')`)
		if got := p.text("#fingerprint"); got != info.Head[:16] {
			p.fail("the fingerprint shows %q, want %q", got, info.Head[:16])
		}
		title := eval[string](p, `document.querySelector('#fingerprint').title`)
		if !strings.HasPrefix(title, info.Head) || !strings.Contains(title, "orderly verify --head") {
			p.fail("the fingerprint's title is %q", title)
		}
		if got := eval[string](p, `[...document.querySelectorAll('#game-facts dt')].map(e => e.textContent).join()`); !strings.Contains(got, "Log fingerprint") {
			p.fail("the game facts are %q", got)
		}
	}

	um.do("reveal the seed", chromedp.Click(chromedp.ID("reveal")))
	um.until("the confirmation", `!document.querySelector('#reveal-confirm').hidden`)
	details := eval[[]string](um, `[...document.querySelectorAll('#reveal-confirm-details li')].map(li => li.textContent)`)
	if len(details) == 0 || !strings.Contains(strings.Join(details, "\n"), "P-IV") {
		um.fail("the confirmation lists %q, want the Prussian reserve P-IV's entry turn", details)
	}
	if got := um.text("#reveal-confirm-text"); !strings.Contains(got, "not over") {
		um.fail("the confirmation says %q", got)
	}
	um.shot("reveal-confirm")
	um.do("cancel", chromedp.Click(chromedp.ID("reveal-cancel")))
	um.until("the confirmation to close", `document.querySelector('#reveal-confirm').hidden`)
	if eval[bool](um, `/revealed key/.test(document.querySelector('#seeds').textContent)`) {
		um.fail("the seed was revealed without confirming")
	}
	if _, body := s.call(t, "GET", "/api/games/"+s.made.Game.ID, s.token(t, "umpire", ""), ""); strings.Contains(body, `"key"`) {
		t.Fatalf("after Cancel the game's seeds have a key: %s", body)
	}

	um.do("reveal the seed again", chromedp.Click(chromedp.ID("reveal")))
	um.until("the confirmation", `!document.querySelector('#reveal-confirm').hidden && document.querySelectorAll('#reveal-confirm-details li').length > 0`)
	um.do("reveal anyway", chromedp.Click(chromedp.ID("reveal-anyway")))
	um.until("the revealed key", `/revealed key/.test(document.querySelector('#seeds').textContent) && document.querySelector('#reveal-confirm').hidden`)
	fr.until("the revealed key on the French page", `/revealed key/.test(document.querySelector('#seeds').textContent)`)
	var g struct {
		Seeds []struct {
			Key string `json:"key"`
		} `json:"seeds"`
	}
	if code, body := s.call(t, "GET", "/api/games/"+s.made.Game.ID, s.token(t, "umpire", ""), ""); code != 200 || json.Unmarshal([]byte(body), &g) != nil || len(g.Seeds) != 2 || g.Seeds[0].Key == "" || g.Seeds[1].Key != "" {
		t.Fatalf("after Reveal anyway the game's seeds are %d %s", code, body)
	}
	um.shot("reveal-done")
	fr.shot("reveal-french")

	// At the end of the game the server reveals the seed by itself.
	for i := 0; ; i++ {
		code, body := s.call(t, "POST", "/api/games/"+s.made.Game.ID+"/commands", s.token(t, "umpire", ""), `{"end":true}`)
		if code != http.StatusOK {
			if !strings.Contains(body, "over") || i < 10 {
				t.Fatalf("ending step %d: %d %s", i, code, body)
			}
			break
		}
	}
	um.until("the game over", `document.querySelector('#phase').textContent === 'game over'`)
	um.until("the note that the seed was revealed", `/revealed the seed by itself/.test(document.querySelector('#reveal-note').textContent) && document.querySelector('#reveal').disabled`)
	um.until("the second seed's key", `[...document.querySelectorAll('#seeds li')].slice(0, 2).every(li => /revealed key/.test(li.textContent))`)
	fr.until("the second seed's key on the French page", `document.querySelectorAll('#seeds li').length === 3 && [...document.querySelectorAll('#seeds li')].slice(0, 2).every(li => /revealed key/.test(li.textContent))`)
	um.checkConsole()
	fr.checkConsole()
}

// TestBrowserReissue gives the French a new join link from the umpire's
// seat list (on a tablet held upright): the new link opens the French
// seat in a browser of its own, the old token is refused. The umpire then
// reissues his own link, and the page goes on working with the new one.
func TestBrowserReissue(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	b := browser(t, ctx, 768, 1024)
	um := newPage(t, b, "reissue-umpire", dir)
	oldUmpire, oldFrench := s.token(t, "umpire", ""), s.token(t, "side", "french")
	um.open(s.ts.URL, oldUmpire)
	um.do("open the umpire tab", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="game"]`)))
	um.until("the seat list", `document.querySelectorAll('#seats li button[data-reissue]').length === 3`)
	if got := eval[string](um, `[...document.querySelectorAll('#seats button[data-reissue]')].map(b => b.dataset.reissue).join()`); got != "umpire,french,allies" {
		um.fail("the seats are named %q", got)
	}

	um.do("give the French a new link", chromedp.Click(chromedp.CSS(`#seats button[data-reissue="french"]`)))
	um.until("the new link", `document.querySelector('#seats li[data-name="french"] .reissued:not([hidden]) a.join')`)
	href := eval[string](um, `document.querySelector('#seats li[data-name="french"] .reissued a.join').href`)
	token, ok := strings.CutPrefix(href, s.ts.URL+"/play#")
	if !ok || len(token) < 40 || token == oldFrench {
		um.fail("the new link is %q", href)
	}
	if got := um.text(`#seats li[data-name="french"] .reissued`); !strings.Contains(got, "old one no longer works") {
		um.fail("no warning that the old link is dead: %q", got)
	}
	if !eval[bool](um, `!!document.querySelector('#seats li[data-name="french"] .reissued button')`) {
		um.fail("no Copy button by the new link")
	}
	um.do("show the new link", chromedp.Evaluate[chromedp.Void](`document.querySelector('#seats li[data-name="french"]').scrollIntoView({block: 'center'})`))
	um.shot("reissue-umpire")
	if code, body := s.call(t, "GET", "/api/seat", oldFrench, ""); code != http.StatusUnauthorized {
		t.Errorf("the old French token: GET /api/seat answered %d %s, want 401", code, body)
	}
	fr := newPage(t, b, "reissue-french", dir)
	fr.open(s.ts.URL, token)
	if got := fr.text("#seat"); got != "Armée du Nord" {
		fr.fail("the new link opens seat %q", got)
	}

	// The umpire's own link: the page moves to the new token.
	um.do("give the umpire a new link", chromedp.Click(chromedp.CSS(`#seats button[data-reissue="umpire"]`)))
	um.until("the umpire's new link", `document.querySelector('#seats li[data-name="umpire"] .reissued:not([hidden]) a.join')`)
	href = eval[string](um, `document.querySelector('#seats li[data-name="umpire"] .reissued a.join').href`)
	mine := strings.TrimPrefix(href, s.ts.URL+"/play#")
	if got := eval[string](um, `sessionStorage.getItem('orderly.seat')`); got != mine || mine == oldUmpire {
		um.fail("the tab keeps token %q, want the new one %q", got, mine)
	}
	if code, _ := s.call(t, "GET", "/api/seat", oldUmpire, ""); code != http.StatusUnauthorized {
		t.Errorf("the old umpire token: GET /api/seat answered %d, want 401", code)
	}
	um.do("end the step", chromedp.WaitEnabled(chromedp.ID("end-step")), chromedp.Click(chromedp.ID("end-step")),
		chromedp.WaitVisible(chromedp.ID("end-yes")), chromedp.Click(chromedp.ID("end-yes")))
	um.until("the move step", `document.querySelector('#step').textContent === 'move'`)
	fr.until("the move step on the French page", `document.querySelector('#step').textContent === 'move'`)
	um.do("reload the page", chromedp.Navigate(s.ts.URL+"/play"))
	um.until("the stream to be live again", `document.querySelector('#conn').textContent === 'live' && document.querySelector('#step').textContent === 'move'`)
	um.checkConsole()
	fr.checkConsole()
}

// TestApiClient checks js/api.js against a stubbed fetch: the events are
// read a page at a time from the last one's number until the server has
// no more; every POST sends a JSON body; an error keeps its details.
func TestApiClient(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ts := httptest.NewServer(http.FileServerFS(web.FS()))
	defer ts.Close()
	b := browser(t, ctx, 1024, 768)
	p := newPage(t, b, "api", t.TempDir())
	p.do("open a page of the site", chromedp.Navigate(ts.URL+"/"))
	var got struct {
		Asked   []int    `json:"asked"`
		Last    int      `json:"last"`
		Seen    int      `json:"seen"`
		Dense   bool     `json:"dense"`
		Empty   int      `json:"empty"`
		Posts   []string `json:"posts"`
		Code    string   `json:"code"`
		Details []string `json:"details"`
	}
	const script = `import('/js/api.js').then(async (m) => {
		const asked = [], posts = [];
		const json = (status, v) => new Response(JSON.stringify(v), {status, headers: {'Content-Type': 'application/json'}});
		let total = 2500;
		window.fetch = async (path, init) => {
			const u = new URL(path, location.href);
			if (init.method === 'POST') {
				posts.push(init.headers['Content-Type'] + ' ' + init.body);
				return json(409, {error: {code: 'confirm', message: 'the game is not over', details: ['a roll', 'another']}});
			}
			const since = Number(u.searchParams.get('since'));
			asked.push(since);
			const events = [];
			for (let i = since + 1; i <= Math.min(total, since + 1000); i++) events.push({seq: i});
			return json(200, {version: total, events, more: since + 1000 < total});
		};
		const api = new m.Api('t');
		api.game = 'g';
		const seen = [];
		const last = await api.allEvents(0, (evs) => seen.push(...evs.map((e) => e.seq)));
		total = 0;
		const empty = await api.allEvents(0, () => {});
		let code = '', details = [];
		try { await api.reveal(); } catch (e) { code = e.code; details = e.details; }
		try { await api.reveal(true); } catch { /* the same answer */ }
		try { await api.post('/api/x'); } catch { /* the same answer */ }
		return {asked, last, seen: seen.length, dense: seen.every((q, i) => q === i + 1), empty, posts, code, details};
	})`
	ectx, ecancel := context.WithTimeout(p.ctx, wait)
	defer ecancel()
	v, err := chromedp.Run(ectx, chromedp.Evaluate[json.RawMessage](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(v, &got); err != nil {
		t.Fatalf("%s: %v", v, err)
	}
	if fmt.Sprint(got.Asked) != "[0 1000 2000 0]" || got.Last != 2500 || got.Seen != 2500 || !got.Dense || got.Empty != 0 {
		t.Errorf("paging: asked since %v, last %d, %d events (dense %v), %d with none", got.Asked, got.Last, got.Seen, got.Dense, got.Empty)
	}
	want := []string{`application/json {}`, `application/json {"confirm":true}`, `application/json {}`}
	if fmt.Sprint(got.Posts) != fmt.Sprint(want) {
		t.Errorf("the POSTs sent %q, want %q", got.Posts, want)
	}
	if got.Code != "confirm" || fmt.Sprint(got.Details) != "[a roll another]" {
		t.Errorf("the error is %q with details %q", got.Code, got.Details)
	}
	p.checkConsole()
}

// streamResetScript follows a stubbed stream that sends events 1 to 3,
// then a reset to 2 (the third is not in the game) and event 3 anew, and
// then fails; and drops from a log of events 1 to 3 those past 2. It
// gives what the page was told, what it asked for, and the log's numbers.
const streamResetScript = `Promise.all([import('/js/api.js'), import('/js/log.js')]).then(async ([m, l]) => {
	const asked = [], told = [];
	const ev = (n, x) => 'id: ' + n + '\nevent: event\ndata: {"seq":' + n + ',"x":' + x + '}\n\n';
	let round = 0;
	window.fetch = async (path) => {
		asked.push(String(path));
		round++;
		if (round > 1) return new Response('', {status: 503});
		return new Response(ev(1, 0) + ev(2, 0) + ev(3, 0) + 'id: 2\nevent: reset\ndata: {"version":2}\n\n' + ev(3, 1), {status: 200, headers: {'Content-Type': 'text/event-stream'}});
	};
	const api = new m.Api('t');
	api.game = 'g';
	// Until it has come back once, and been refused.
	let again = 0;
	const stop = await new Promise((resolve) => {
		const s = api.stream(0, {
			onEvent: (e) => told.push('event ' + e.seq + '/' + e.x),
			onSeeds: () => {},
			onReset: (v) => told.push('reset ' + v),
			onFatal: () => {},
			onState: (st) => { if (st === 'reconnecting' && ++again === 2) resolve(() => s()); },
		});
	});
	stop();
	const log = new l.EventLog(document.createElement('ol'), document.createElement('span'));
	const ctx = {colour: () => 'a', side: (id) => id};
	log.add([1, 2, 3].map((seq) => ({seq, turn: 1, phase: 'command', type: 'moved', summary: 'a move'})), ctx);
	log.drop(2);
	const fresh = log.add([{seq: 3, turn: 1, phase: 'command', type: 'moved', summary: 'another'}], ctx);
	const seqs = [...log.ol.children].map((li) => Number(li.dataset.seq));
	return {told, asked, seqs, fresh: fresh.length};
})`

// TestStreamReset checks js/api.js and js/log.js against a stubbed
// stream: a reset message sets the number the stream resumes from and is
// passed on, and the log drops the entries past it, so that the event
// the stream brings again under that number is shown.
func TestStreamReset(t *testing.T) {
	t.Parallel()
	needBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ts := httptest.NewServer(http.FileServerFS(web.FS()))
	defer ts.Close()
	b := browser(t, ctx, 1024, 768)
	p := newPage(t, b, "reset", t.TempDir())
	p.do("open a page of the site", chromedp.Navigate(ts.URL+"/"))
	ectx, ecancel := context.WithTimeout(p.ctx, wait)
	defer ecancel()
	v, err := chromedp.Run(ectx, chromedp.Evaluate[json.RawMessage](streamResetScript, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Told  []string `json:"told"`
		Asked []string `json:"asked"`
		Seqs  []int    `json:"seqs"`
		Fresh int      `json:"fresh"`
	}
	if err := json.Unmarshal(v, &got); err != nil {
		t.Fatalf("%s: %v", v, err)
	}
	if want := "[event 1/0 event 2/0 event 3/0 reset 2 event 3/1]"; fmt.Sprint(got.Told) != want {
		t.Errorf("the page was told %v, want %s", got.Told, want)
	}
	if len(got.Asked) < 2 || !strings.HasSuffix(got.Asked[0], "since=0") || !strings.HasSuffix(got.Asked[1], "since=3") {
		t.Errorf("the stream was asked for %v, want since=0 and then since=3", got.Asked)
	}
	if fmt.Sprint(got.Seqs) != "[3 2 1]" || got.Fresh != 1 {
		t.Errorf("the log after the reset holds %v (%d new), want [3 2 1] with the third new", got.Seqs, got.Fresh)
	}
	p.checkConsole()
}

// TestBrowserPortrait checks the page on a tablet held upright: the panel
// goes below the map, and every button is at least 40px high.
func TestBrowserPortrait(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	b := browser(t, ctx, 768, 1024)
	p := newPage(t, b, "french-portrait", dir)
	p.do("touch screen", chromedp.EmulateViewport(int64(b.w), int64(b.h), chromedp.EmulateTouch))
	p.open(s.ts.URL, s.token(t, "side", "french"))
	if !eval[bool](p, `(() => { const m = document.querySelector('.map-pane').getBoundingClientRect(), q = document.querySelector('.panel').getBoundingClientRect();
		return q.top >= m.bottom - 1 && m.height > 300 && q.height > 200 && m.width > 700; })()`) {
		p.fail("the panel is not below the map")
	}
	// A tap of a finger places the objective; two fingers zoom; one pans.
	at := p.screenOf(60, 24)
	p.do("tap the map", chromedp.TapXY(at[0], at[1]))
	p.until("the objective", `document.querySelector('#order-x').value === '60' && document.querySelector('#order-y').value === '24'`)
	viewBox := func() []float64 {
		return eval[[]float64](p, `document.getElementById('map').getAttribute('viewBox').split(' ').map(Number)`)
	}
	before := viewBox()
	touch := func(typ input.DispatchTouchEventType, pts ...[2]float64) {
		t.Helper()
		tps := []*input.TouchPoint{}
		for i, q := range pts {
			id := float64(i + 1)
			tps = append(tps, &input.TouchPoint{X: q[0], Y: q[1], ID: &id})
		}
		if _, err := chromedp.Call(p.ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: tps}); err != nil {
			t.Fatal(err)
		}
	}
	c := p.screenOf(48, 24)
	touch(input.DispatchTouchEventTypeTouchStart, [2]float64{c[0] - 40, c[1]}, [2]float64{c[0] + 40, c[1]})
	for i := 1; i <= 6; i++ {
		d := 40 + float64(i)*20
		touch(input.DispatchTouchEventTypeTouchMove, [2]float64{c[0] - d, c[1]}, [2]float64{c[0] + d, c[1]})
	}
	touch(input.DispatchTouchEventTypeTouchEnd)
	pinched := viewBox()
	if k := before[2] / pinched[2]; k < 3.5 || k > 4.5 {
		p.fail("pinching 80px apart to 320px zoomed %.2f times, want about 4 (viewBox %v -> %v)", k, before, pinched)
	}
	touch(input.DispatchTouchEventTypeTouchStart, [2]float64{c[0], c[1]})
	for i := 1; i <= 5; i++ {
		touch(input.DispatchTouchEventTypeTouchMove, [2]float64{c[0] + float64(i)*20, c[1]})
	}
	touch(input.DispatchTouchEventTypeTouchEnd)
	if panned := viewBox(); panned[0] >= pinched[0] || panned[2] != pinched[2] {
		p.fail("a one-finger drag to the right did not pan west: viewBox %v -> %v", pinched, panned)
	}
	if got := eval[string](p, `document.querySelector('#order-x').value`); got != "60" {
		p.fail("the pan moved the objective to x=%s", got)
	}
	p.shot("french-portrait-zoomed")
	p.do("show the whole table", chromedp.Click(chromedp.CSS(`[data-map="fit"]`)))

	p.do("open the order of battle", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="army"]`)))
	p.until("the order of battle", `document.querySelector('#oob li[data-formation="F-I"]')`)
	small := eval[[]string](p, `[...document.querySelectorAll('button, .btn, select, input[type=text], input[type=number]')].filter(b => {
		const r = b.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.height < 40; }).map(b => (b.id || b.className || b.tagName) + ' ' + Math.round(b.getBoundingClientRect().height) + 'px')`)
	if len(small) > 0 {
		p.fail("controls under 40px: %v", small)
	}
	p.shot("french-portrait")
	p.checkConsole()
}

// TestStaticFiles checks the page's files against the server's Content
// Security Policy and the no-build rule: no inline scripts, handlers or
// style attributes, no resources from elsewhere, only ES modules.
func TestStaticFiles(t *testing.T) {
	t.Parallel()
	fsys := web.FS()
	for _, name := range []string{"index.html", "play.html", "js/app.js", "js/home.js", "js/api.js", "js/map.js", "css/app.css", "css/print.css"} {
		if _, err := fs.Stat(fsys, name); err != nil {
			t.Errorf("%s is missing: %v", name, err)
		}
	}
	inline := regexp.MustCompile(`(?i)<script(?:\s[^>]*)?>\s*[^<\s]|\son[a-z]+\s*=|\sstyle\s*=|javascript:`)
	module := regexp.MustCompile(`(?i)<script\b[^>]*>`)
	external := regexp.MustCompile(`(?i)(?:src|href)\s*=\s*["']?(?:https?:)?//|@import|url\(\s*["']?(?:https?:)?//`)
	badJS := regexp.MustCompile(`setAttribute\(\s*['"]style['"]|\.innerHTML\s*=|document\.write|eval\(|new Function\(|localStorage`)
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		text := string(data)
		switch filepath.Ext(name) {
		case ".html":
			if m := inline.FindString(text); m != "" {
				t.Errorf("%s: inline script, handler or style: %q", name, m)
			}
			for _, tag := range module.FindAllString(text, -1) {
				if !strings.Contains(tag, `type="module"`) || !strings.Contains(tag, `src="/js/`) {
					t.Errorf("%s: %s is not an ES module from /js/", name, tag)
				}
			}
		case ".js":
			if m := badJS.FindString(text); m != "" {
				t.Errorf("%s: %q is not allowed", name, m)
			}
		}
		if m := external.FindString(text); m != "" && filepath.Ext(name) != ".svg" {
			t.Errorf("%s: a resource from another site: %q", name, m)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
}

// TestBrowserPieces tries the other commands the page gives: an order for
// an on-board reserve (no delay roll, NB-9), one order for two corps of a
// wing (NB-11), a messenger's card, the army commander attaching (NB-13), a
// completed attack order (NB-8), and the umpire routing a unit; the Allies
// tap the French messenger and learn nothing.
func TestBrowserPieces(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	b := browser(t, ctx, 1024, 768)
	fr := newPage(t, b, "pieces-french", dir)
	fr.open(s.ts.URL, s.token(t, "side", "french"))

	fr.do("open the order of battle", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="army"]`)))
	fr.do("order the Guard", chromedp.Click(chromedp.CSS(`#oob [data-order-for="F-G"]`)))
	fr.until("the Guard's forecast", `document.querySelector('#order-odds .fc[data-formation="F-G"]') && !document.querySelector('#tab-orders').hidden`)
	if odds := fr.text("#order-odds"); !strings.Contains(odds, "(NB-9)") || strings.Contains(odds, "rolls") {
		fr.fail("an on-board reserve's forecast is %q, want the NB-9 note and no roll", odds)
	}
	fr.do("order I and II Corps instead",
		chromedp.Click(chromedp.CSS(`#order-for input[value="F-G"]`)),
		chromedp.Click(chromedp.CSS(`#order-for input[value="F-I"]`)),
		chromedp.Click(chromedp.CSS(`#order-for input[value="F-II"]`)))
	fr.until("two forecasts", `document.querySelectorAll('#order-odds .fc').length === 2 && document.querySelector('#order-odds .fc[data-formation="F-II"]')`)
	fr.do("send", chromedp.WaitEnabled(chromedp.ID("order-send")), chromedp.Click(chromedp.ID("order-send")))
	fr.until("the order to be sent", `/Sent french-5: m-french-1 rides to Ney/.test(document.querySelector('#order-result').textContent)`)
	s.command(t, s.token(t, "umpire", ""), `{"end":true}`)
	fr.until("the move step", `document.querySelector('#step').textContent === 'move' && !document.querySelector('#tab-army').hidden`)

	m := fr.pieceAt(`#map [data-messenger="m-french-1"]`)
	at := fr.screenOf(m[0], m[1])
	fr.do("tap the messenger", chromedp.MouseClickXY(at[0], at[1]))
	fr.until("the messenger's card", `/carries french-5 to Ney/.test(document.querySelector('#selection').textContent)`)
	// An order for two corps of a wing goes to the wing's commander
	// alone (NB-11): the server offers no redirect, so the card has none.
	if eval[bool](fr, `!!document.querySelector('#selection select[aria-label="Ride to"]')`) {
		fr.fail("the messenger of an order that only Ney may receive is offered a redirect")
	}
	fr.shot("pieces-french-messenger")

	at = fr.screenOf(48, 45)
	fr.do("tap Napoleon", chromedp.MouseClickXY(at[0], at[1]))
	fr.until("Napoleon's card", `/army commander/.test(document.querySelector('#selection').textContent)`)
	fr.do("attach him", chromedp.Click(chromedp.CSS(`#selection .row button`)))
	fr.until("the attachment", `document.querySelector('#log li[data-type="attached"]') && document.querySelector('#map [data-general="napoleon"].attached')`)
	fr.until("the attachment in his tooltip and the order of battle", `/attached to/.test(document.querySelector('#map [data-general="napoleon"] title').textContent) &&
		[...document.querySelectorAll('#oob .fm-gen .chip')].some((c) => /^attached to /.test(c.textContent))`)
	// He goes with his unit now (NB-13): the map does not let him be dragged.
	if eval[bool](fr, `document.querySelector('#map [data-general="napoleon"]').classList.contains('movable')`) {
		fr.fail("Napoleon, attached, may be dragged")
	}

	fr.do("complete II Corps' attack", chromedp.Click(chromedp.CSS(`#oob li[data-formation="F-II"] > .fm-head .fm-actions button[title*="NB-8"]`)))
	fr.until("II Corps to defend", `document.querySelector('#log li[data-type="order-complete"]') && /defend/.test(document.querySelector('#oob li[data-formation="F-II"] > .fm-order').textContent)`)
	fr.shot("pieces-french-complete")

	um := newPage(t, b, "pieces-umpire", dir)
	um.open(s.ts.URL, s.token(t, "umpire", ""))
	if eval[bool](um, `!document.querySelector('.tab-btn[data-tab="orders"]').hidden`) {
		um.fail("the umpire has an Orders tab")
	}
	at = um.screenOf(12, 13)
	um.do("tap A-I-1-a", chromedp.MouseClickXY(at[0], at[1]))
	um.until("its card", `/A-I-1-a/.test(document.querySelector('#selection').textContent)`)
	um.do("rout it", chromedp.Click(chromedp.CSS(`#selection .row:last-child button:last-child`)))
	um.until("the unit routed", `document.querySelector('#map [data-unit="A-I-1-a"].st-routed rect.rout') && /Rally/.test(document.querySelector('#selection').textContent)`)
	um.do("zoom in", chromedp.Click(chromedp.CSS(`[data-map="zoom-in"]`)), chromedp.Click(chromedp.CSS(`[data-map="zoom-in"]`)))
	um.shot("pieces-umpire-rout")

	al := newPage(t, b, "pieces-allies", dir)
	al.open(s.ts.URL, s.token(t, "side", "allies"))
	m = al.pieceAt(`#map [data-messenger="m-french-1"]`)
	at = al.screenOf(m[0], m[1])
	al.do("tap the French messenger", chromedp.MouseClickXY(at[0], at[1]))
	al.until("its card", `/is hidden/.test(document.querySelector('#selection').textContent)`)
	if html := eval[string](al, `document.documentElement.outerHTML`); strings.Contains(html, "french-5") {
		al.fail("the Allied page shows the French order id")
	}
	for _, p := range []*page{fr, um, al} {
		p.checkConsole()
	}
}

// TestBrowserLogSummary checks that the log shows, for every event, the
// sentence the server sums it up in, and works out none of its own: the
// French play a few steps, and each line of their log is the summary the
// events API gives for that event.
func TestBrowserLogSummary(t *testing.T) {
	t.Parallel()
	ctx, s, dir := session(t)
	fr, um := s.token(t, "side", "french"), s.token(t, "umpire", "")
	s.command(t, fr, `{"write":{"for":["F-I"],"kind":"attack","objective":[30,20],"note":"by the road"}}`)
	for range 5 {
		s.command(t, um, `{"end":true}`)
	}
	code, body := s.call(t, "GET", "/api/games/"+s.made.Game.ID+"/events", fr, "")
	if code != http.StatusOK {
		t.Fatalf("events: %d %s", code, body)
	}
	var page struct {
		Events []struct {
			Seq     int    `json:"seq"`
			Type    string `json:"type"`
			Summary string `json:"summary"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(body), &page); err != nil {
		t.Fatal(err)
	}
	want := map[int]string{}
	types := map[string]bool{}
	for _, e := range page.Events {
		if e.Summary == "" {
			t.Fatalf("event %d (%s) has no summary", e.Seq, e.Type)
		}
		want[e.Seq] = e.Summary
		types[e.Type] = true
	}
	if !types[nb.OrderRead] || !types[nb.MessengerMoved] || !types[nb.OrderWritten] {
		t.Fatalf("the French log lacks a read order, a ride or a written order: %v", types)
	}
	b := browser(t, ctx, 1024, 768)
	p := newPage(t, b, "log", dir)
	p.open(s.ts.URL, fr)
	p.do("open the log", chromedp.Click(chromedp.CSS(`.tab-btn[data-tab="log"]`)))
	p.until("the whole log", fmt.Sprintf(`document.querySelectorAll('#log li').length === %d`, len(want)))
	lines := eval[[][2]string](p, `[...document.querySelectorAll('#log li')].map(li => [li.dataset.seq, li.querySelector('.ev-text').textContent])`)
	for _, l := range lines {
		seq, _ := strconv.Atoi(l[0])
		if w, ok := want[seq]; !ok || l[1] != w {
			p.fail("log line %s shows %q; the server sums the event up as %q", l[0], l[1], w)
		}
	}
	p.shot("log-summary")
	p.checkConsole()
}
