package server

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"orderly/geom"
	"orderly/geom/hex"
)

// TestOpenAPIMatchesRoutes checks that the OpenAPI document describes
// exactly the routes the server has, each with its method, and that every
// operation documents its answers.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	t.Parallel()
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openapiDoc, &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Errorf("openapi is %q, want 3.x", doc.OpenAPI)
	}
	var have, documented []string
	for _, r := range (&Server{}).routes() {
		have = append(have, strings.ToLower(r.method)+" "+r.path)
	}
	for p, ops := range doc.Paths {
		for m, op := range ops {
			documented = append(documented, m+" "+p)
			var o struct {
				OperationID string                     `json:"operationId"`
				Summary     string                     `json:"summary"`
				Responses   map[string]json.RawMessage `json:"responses"`
			}
			if err := json.Unmarshal(op, &o); err != nil || o.OperationID == "" || o.Summary == "" || len(o.Responses) == 0 {
				t.Errorf("%s %s: operationId, summary and responses are required (%v)", m, p, err)
			}
		}
	}
	slices.Sort(have)
	slices.Sort(documented)
	if !slices.Equal(have, documented) {
		t.Errorf("routes and document differ:\nroutes:   %v\ndocument: %v", have, documented)
	}
}

// TestSpaceOf: the board describes a table and a hex map as the page
// needs them to draw, in the shape the OpenAPI document promises.
func TestSpaceOf(t *testing.T) {
	t.Parallel()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(openapiDoc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("openapi.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("openapi.json#/components/schemas/Space")
	if err != nil {
		t.Fatal(err)
	}
	m, err := hex.NewMap(30, 20, hex.Layout{Offset: hex.EvenQ, First: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sp   geom.Space
		want string
	}{
		{geom.Table{Width: 72, Depth: 48}, `{"kind":"table","unit":"inches","min":[0,0],"max":[72,48]}`},
		{m, `{"kind":"hex","unit":"hexes","min":[1,1],"max":[30,20],"hex":{"columns":30,"rows":20,"layout":"even-q","first":1,"digits":2}}`},
	} {
		b, err := json.Marshal(spaceOf(c.sp, nil))
		if err != nil || string(b) != c.want {
			t.Errorf("spaceOf(%v) = %s, %v; want %s", c.sp, b, err, c.want)
			continue
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s does not match the Space schema: %v", b, err)
		}
	}
}
