package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestOpenAPIMatchesRoutes checks that the OpenAPI document describes
// exactly the routes the server has, each with its method, and that every
// operation documents its answers.
func TestOpenAPIMatchesRoutes(t *testing.T) {
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
