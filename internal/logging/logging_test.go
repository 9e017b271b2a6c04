package logging

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	in := map[string]any{
		"path":     "notes.txt",
		"password": "hunter2",
		"nested":   map[string]any{"api_key": "k", "url": "postgres://bob:pw123@db:5432/x"},
		"list":     []any{"Authorization: Bearer abc.def.ghi", "plain"},
		"long":     strings.Repeat("x", 500),
	}
	out, _ := json.Marshal(Redact(in))
	s := string(out)
	for _, secret := range []string{"hunter2", `"k"`, "pw123", "abc.def.ghi"} {
		if strings.Contains(s, secret) {
			t.Errorf("%s leaked: %s", secret, s)
		}
	}
	if !strings.Contains(s, "notes.txt") || !strings.Contains(s, "plain") {
		t.Errorf("over-redacted: %s", s)
	}
	if strings.Contains(s, strings.Repeat("x", 300)) {
		t.Error("long values are not cut")
	}
}
