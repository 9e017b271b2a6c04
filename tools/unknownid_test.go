package tools_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// wellFormed are unknown ids shaped as the tool expects them, where a
// shapeless one would be refused before the lookup (a DOI for literature,
// a geocoding number for weather); every other id parameter gets unknownID.
var wellFormed = map[string]any{
	"literature_search/id":  "10.9999/clawbridge.unknown",
	"literature_search/ids": "10.9999/clawbridge.unknown",
	"weather/place_id":      987654321,
}

const unknownID = "zz-unknown-id-42"

// valid are other arguments an action checks before it looks the id up.
var valid = map[string]map[string]any{
	"weather/past": {"date": "2024-07-01"},
	"diary/update": {"text": "a change"},
}

// idParam says whether p names a thing by id: id, *_id, or a list of ids.
func idParam(p tool.Param) bool {
	if p.Name == "id" || strings.HasSuffix(p.Name, "_id") {
		return true
	}
	return p.Type == tool.Array && p.Items != nil && p.Items.Name == "id"
}

// TestUnknownID_NotFoundNamingTheField: in every action of every tool that
// takes an id, an id that names nothing answers not_found on that id
// parameter, and the message says so in one shape ("no <what> <the id>"). The web services the
// network tools ask are a local server that knows nothing (HTTP 404).
func TestUnknownID_NotFoundNamingTheField(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
	}))
	defer srv.Close()
	d := tooltest.Deps(t, "127.0.0.1")
	d.Config.Tools = map[string]yaml.Node{}
	for name, section := range map[string]string{
		"literature_search": fmt.Sprintf("openalex_url: %[1]s\narxiv_url: %[1]s\ncrossref_url: %[1]s\nmin_interval: 0s", srv.URL),
		"weather":           fmt.Sprintf("forecast_url: %[1]s\narchive_url: %[1]s\ngeocoding_url: %[1]s", srv.URL),
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(section), &n); err != nil {
			t.Fatal(err)
		}
		d.Config.Tools[name] = *n.Content[0]
	}
	seen := eachParam(t, allTools(t, d), idParam, func(t *testing.T, name string, tl tool.Tool, a tool.Action, p tool.Param) {
		args := baseArgs(tl, a)
		for k, v := range valid[tl.Name+"/"+a.Name] {
			args[k] = v
		}
		id, ok := wellFormed[tl.Name+"/"+p.Name]
		if !ok {
			id = unknownID
		}
		setParam(args, p, id)
		_, err := tooltest.Run(t, tl, args)
		te, ok := tool.AsError(err)
		// One shape: "no <what> <the id>".
		if !ok || te.Code != tool.CodeNotFound || te.Field != p.Name || !strings.HasPrefix(te.Message, "no ") || !strings.Contains(te.Message, fmt.Sprint(id)) {
			t.Errorf("%v: got %v (code %v, field %v), want not_found on %s saying no … %v", args, err, code(te), field(te), p.Name, id)
		}
	})
	// The records tools, file's restore, literature and weather at least.
	if seen < 20 {
		t.Fatalf("only %d id parameters found", seen)
	}
}
