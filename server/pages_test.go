package server_test

import (
	"io"
	"io/fs"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"orderly/server"
	"orderly/web"
)

// get fetches a page file and returns its status, content type and body.
func get(t *testing.T, base, p string) (int, string, string) {
	t.Helper()
	res, err := http.Get(base + p)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Content-Type"), string(b)
}

// TestPages: the files given with WithPages are served over the page's
// own, a file given winning over the page's of the same name, and every
// other file is the page's; a server without them serves the page's alone.
func TestPages(t *testing.T) {
	t.Parallel()
	const module = "export default { hex: false };\n"
	pages := fstest.MapFS{
		"js/rules/zz-test.js": {Data: []byte(module)},
		"js/dom.js":           {Data: []byte("// replaced\n")},
		"js/rules/sub/a.js":   {Data: []byte("// a\n")},
	}
	with := newFixture(t, server.WithPages(pages))
	if code, typ, body := get(t, with.ts.URL, "/js/rules/zz-test.js"); code != 200 || body != module || !strings.Contains(typ, "javascript") {
		t.Errorf("the module given: %d %q %q", code, typ, body)
	}
	if code, _, body := get(t, with.ts.URL, "/js/dom.js"); code != 200 || body != "// replaced\n" {
		t.Errorf("a page file given anew: %d, %d bytes", code, len(body))
	}
	own, err := fs.ReadFile(web.FS(), "js/app.js")
	if err != nil {
		t.Fatal(err)
	}
	if code, _, body := get(t, with.ts.URL, "/js/app.js"); code != 200 || body != string(own) {
		t.Errorf("the page's own app.js, with pages given: %d, %d bytes", code, len(body))
	}
	// A directory of the pages given is not one of theirs to list; a path
	// that climbs out stays in the site.
	if code, _, body := get(t, with.ts.URL, "/js/rules/sub/"); strings.Contains(body, "a.js") {
		t.Errorf("the pages' directory is listed: %d %q", code, body)
	}
	if code, _, body := get(t, with.ts.URL, "/js/rules/../../js/rules/zz-test.js"); code != 200 || body != module {
		t.Errorf("the module by a path that climbs: %d %q", code, body)
	}

	without := newFixture(t)
	if code, _, _ := get(t, without.ts.URL, "/js/rules/zz-test.js"); code != http.StatusNotFound {
		t.Errorf("a server without pages serves js/rules/zz-test.js: %d", code)
	}
	if code, _, body := get(t, without.ts.URL, "/js/dom.js"); code != 200 || body == "// replaced\n" {
		t.Errorf("a server without pages: js/dom.js %d %q", code, body)
	}
}
