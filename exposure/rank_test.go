package exposure

import (
	"slices"
	"strings"
	"testing"
)

// geoServer is a map server shaped like the public ones: a tool that
// turns an address into coordinates and tools that take coordinates.
func geoServer() []ExternalTool {
	ll := []ExternalParam{{"latitude", "Latitude of the point"}, {"longitude", "Longitude of the point"}, {"radius", "Search radius in meters"}}
	return []ExternalTool{
		{Name: "geo__geocode_address", Group: "geo", Description: "Convert an address or place name to geographic coordinates (latitude and longitude).", Params: []ExternalParam{{"address", "The address or place name"}}},
		{Name: "geo__find_nearby_places", Group: "geo", Description: "Discover restaurants, cafes and other points of interest near a location.", Params: ll},
		{Name: "geo__find_parking_facilities", Group: "geo", Description: "Locate parking lots and garages near a location.", Params: ll},
		{Name: "geo__get_route_directions", Group: "geo", Description: "Turn-by-turn directions between two points.", Params: []ExternalParam{{"from_latitude", ""}, {"from_longitude", ""}, {"to_latitude", ""}, {"to_longitude", ""}}},
	}
}

// TestRank_ServerWorkflowComesAlong: a request names one step of a
// server's workflow (cafes near a place); the tool that supplies its inputs
// (the place's coordinates) is in the view although no word asks for it.
func TestRank_ServerWorkflowComesAlong(t *testing.T) {
	r := externalRouter(t, geoServer())
	d := r.Route("any good cafes near the Louvre museum?")
	for _, want := range []string{"geo__find_nearby_places", "geo__geocode_address"} {
		if !slices.Contains(d.Names(), want) {
			t.Errorf("%s not in the view %v", want, d.Names())
		}
	}
	m := r.ext.Load().model
	i, j := r.ext.Load().byName["geo__find_nearby_places"], r.ext.Load().byName["geo__geocode_address"]
	if !slices.Contains(m.suppliers[i], j) || slices.Contains(m.suppliers[j], i) {
		t.Errorf("suppliers of find_nearby_places %v, of geocode_address %v", m.suppliers[i], m.suppliers[j])
	}
}

// TestRank_OneCopyOfAToolManyServersPublish: two servers publish the same
// generic tool; one copy leads at its full score and the other counts half,
// unless the request names the other's server.
func TestRank_OneCopyOfAToolManyServersPublish(t *testing.T) {
	read := func(group string) ExternalTool {
		return ExternalTool{Name: group + "__read_multiple_files", Group: group, Description: "Read the contents of multiple files at once.",
			Params: []ExternalParam{{"paths", "Paths of the files"}}}
	}
	r := externalRouter(t, []ExternalTool{read("disk"), read("desk")})
	scores := func(q string) map[string]float64 {
		out := map[string]float64{}
		for _, m := range r.Route(q).Detection.External {
			out[m.Name] = m.Score
		}
		return out
	}
	s := scores("read the contents of these three files at once")
	if a, b := s["disk__read_multiple_files"], s["desk__read_multiple_files"]; a == 0 || b > a/2+0.01 {
		t.Errorf("copies scored %v", s)
	}
	s = scores("desk: read the contents of these files at once")
	if a, b := s["disk__read_multiple_files"], s["desk__read_multiple_files"]; b <= a {
		t.Errorf("the named server's copy does not lead: %v", s)
	}
}

// TestRank_ConfiguredServerTakesASlot: a native tool answers the request
// confidently and a configured server's tool fits it as well: the server's
// tool is in the view (no rule puts native tools first).
func TestRank_ConfiguredServerTakesASlot(t *testing.T) {
	word := []ExternalTool{
		{Name: "word__create_document", Group: "word", Description: "Create a new Word document.", Params: []ExternalParam{{"filename", ""}, {"title", ""}}},
		{Name: "word__add_paragraph", Group: "word", Description: "Add a paragraph to a Word document.", Params: []ExternalParam{{"filename", ""}, {"text", ""}}},
	}
	r := externalRouter(t, word)
	d := r.Route("write the weekly report as a Word document")
	if d.Confidence < 0.5 || !slices.Contains(d.Names(), "word__create_document") {
		t.Errorf("confidence %.2f, view %v", d.Confidence, d.Names())
	}
}

// TestRank_UnsureIsNotRecommended: requests of several tasks matched by
// words alone held all their tools about one time in five on LiveMCPBench
// whatever their scores: such a decision is the extended tier, its matches
// alternatives. Naming the server makes it sure.
func TestRank_UnsureIsNotRecommended(t *testing.T) {
	r := externalRouter(t, geoServer())
	d := r.Route("Find parking near the Forbidden City, then give me directions from the hotel to there.")
	if d.Tier == TierRecommended || len(d.Recommended()) > 0 && slices.ContainsFunc(d.Recommended(), func(n string) bool { return strings.HasPrefix(n, "geo__") }) {
		t.Errorf("tier %s, recommended %v", d.Tier, d.Recommended())
	}
	if !slices.Contains(d.Names(), "geo__find_parking_facilities") || !slices.Contains(d.Names(), "geo__get_route_directions") {
		t.Errorf("each task's tool belongs in the view: %v", d.Names())
	}
	d = r.Route("use geo to find parking near the Forbidden City")
	if !slices.Contains(d.Recommended(), "geo__find_parking_facilities") {
		t.Errorf("named server: recommended %v (tier %s)", d.Recommended(), d.Tier)
	}
}

// TestRank_ViewHasAMaximum: with many matching external tools, a view
// holds at most r.t.Ranking.Weights.ViewMax tools.
func TestRank_ViewHasAMaximum(t *testing.T) {
	var tools []ExternalTool
	for _, g := range []string{"alpha", "beta", "gamma", "delta", "eps", "zeta"} {
		for _, v := range []string{"search", "list", "get", "create", "update", "delete", "export", "import"} {
			tools = append(tools, ExternalTool{Name: g + "__" + v + "_invoices", Group: g, Description: strings.ToUpper(v[:1]) + v[1:] + " invoices and their payment records."})
		}
	}
	r := externalRouter(t, tools)
	for _, q := range []string{"search the invoices and export their payment records", "list invoices, update them, then delete the paid ones"} {
		if d := r.Route(q); d.Tier != TierFull && len(d.Tools) > r.t.Ranking.Weights.ViewMax {
			t.Errorf("%q: %d tools in a %s view", q, len(d.Tools), d.Tier)
		}
	}
}

func TestRank_Tasks(t *testing.T) {
	x := externalRouter(t, geoServer()).ext.Load()
	for q, want := range map[string]int{
		"list my open issues": 0,
		"find the trending repos. for the top one, read its wiki": 2,
		"查一下明天的火车票，然后订一间酒店":                                       2,
		"read the csv; plot it; save the chart to out.png":        3,
	} {
		if got := len(x.tasks([]byte(q))); got != want {
			t.Errorf("%q: %d tasks, want %d", q, got, want)
		}
	}
}

// TestRank_TablesOverride: the ranking's weights and words are a table: a
// config overrides one weight or one glossary word and keeps the rest, and
// a weight out of range is refused with its name.
func TestRank_TablesOverride(t *testing.T) {
	tb := DefaultTables()
	before := tb.Ranking.Weights
	if err := tb.OverrideJSON([]byte(`{"ranking": {"weights": {"view_max": 9}, "glossary_zh": {"停车": "parking"}}}`)); err != nil {
		t.Fatal(err)
	}
	if tb.Ranking.Weights.ViewMax != 9 || tb.Ranking.Weights.Candidate != before.Candidate || tb.Ranking.GlossaryZH["停车"] != "parking" || tb.Ranking.GlossaryZH["列出"] == "" {
		t.Errorf("override: %+v", tb.Ranking.Weights)
	}
	r, err := NewRouter(Config{Tables: tb})
	if err != nil {
		t.Fatal(err)
	}
	r.SetExternal(geoServer())
	if d := r.Route("附近哪里可以停车"); !slices.Contains(d.Names(), "geo__find_parking_facilities") || len(d.Tools) > 9 {
		t.Errorf("the overridden glossary and view_max: %v", d.Names())
	}
	err = DefaultTables().OverrideJSON([]byte(`{"ranking": {"weights": {"candidate": 1.5}}}`))
	if err == nil || !strings.Contains(err.Error(), "candidate") {
		t.Errorf("a share of 1.5 accepted: %v", err)
	}
}
