package exposure

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestRouteJSONL(t *testing.T) {
	r := liveRouter(t, Config{})
	in := strings.NewReader(`{"id":"a1","q":"合并这三个PDF"}

{"id":7,"q":"help"}
`)
	var out bytes.Buffer
	calls := 0
	if err := RouteJSONL(in, &out, r, func(names []string) int { calls++; return 10 * len(names) }); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || calls != 2 {
		t.Fatalf("got %d lines, %d token calls:\n%s", len(lines), calls, out.String())
	}
	// Exactly the fields of the CLI contract.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(lines[0]), &raw); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"confidence", "id", "intents", "primary_intent", "q", "recommended", "tier", "tokens", "tools"}
	if !slices.Equal(keys, want) {
		t.Fatalf("fields %v, want %v", keys, want)
	}
	var l1, l2 RouteLine
	json.Unmarshal([]byte(lines[0]), &l1)
	json.Unmarshal([]byte(lines[1]), &l2)
	if l1.ID != "a1" || l1.Tier != TierRecommended || l1.Tools[0] != "pdf_tool" || !slices.Equal(l1.Recommended, []string{"pdf_tool"}) ||
		l1.Tokens != 10*len(l1.Tools) || l1.Primary != "document_processing" {
		t.Fatalf("line 1: %+v", l1)
	}
	if l2.ID != "7" || l2.Tier != TierFull || l2.Confidence != 0 || len(l2.Tools) != 38 || l2.Intents == nil || l2.Recommended == nil {
		t.Fatalf("line 2: %+v", l2)
	}
	if !strings.Contains(lines[1], `"intents":[]`) || !strings.Contains(lines[1], `"primary_intent":""`) {
		t.Fatalf("vague line must carry empty lists: %s", lines[1])
	}
	// Default token estimate.
	out.Reset()
	if err := RouteJSONL(strings.NewReader(`{"id":"x","q":"做个柱状图"}`), &out, r, nil); err != nil {
		t.Fatal(err)
	}
	var l3 RouteLine
	json.Unmarshal(out.Bytes(), &l3)
	if l3.Tokens <= 0 {
		t.Fatalf("no token estimate: %s", out.String())
	}
	// A malformed line is an error naming it.
	err := RouteJSONL(strings.NewReader("{\"id\":\"1\",\"q\":\"x\"}\n{oops\n"), &out, r, nil)
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("malformed line: %v", err)
	}
}
