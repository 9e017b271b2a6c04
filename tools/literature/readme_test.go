package literature

import (
	"reflect"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// TestDocs_DocumentsEveryConfigKey: every key of the literature_search
// section is shown in docs/configuration.md's example, under that section.
func TestDocs_DocumentsEveryConfigKey(t *testing.T) {
	b := tooltest.ReadFile(t, "../../docs/configuration.md")
	_, rest, ok := strings.Cut(string(b), "\n  literature_search:\n")
	if !ok {
		t.Fatal("docs/configuration.md: the literature_search section of the config example is gone")
	}
	var section []string // the section's lines, up to the next tool's
	for _, line := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(line, "    ") {
			break
		}
		section = append(section, strings.TrimSpace(line))
	}
	typ := reflect.TypeFor[Config]()
	for i := range typ.NumField() {
		key := typ.Field(i).Tag.Get("yaml")
		found := false
		for _, line := range section {
			found = found || strings.HasPrefix(line, key+":")
		}
		if !found {
			t.Errorf("docs/configuration.md: literature_search key %s is not documented", key)
		}
	}
}
