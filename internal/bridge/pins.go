package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"

	"github.com/clawbridge/clawbridge/internal/atomicfile"
)

// Pins are the approved definitions of a server's tools: a hash of each
// tool's description, schema and annotations, recorded the first time the
// tool is seen. A later manifest whose tool hashes differently (a "rug
// pull") holds that tool until `clawbridge bridge approve SERVER` records
// the new hash.
type Pins map[string]string

func pinsPath(dataDir, server string) string {
	return filepath.Join(cacheDir(dataDir), server+".pins.json")
}

// hashTool is the pin of one definition. The schema is re-encoded so that
// key order and spacing do not count as a change.
func hashTool(d ToolDef) string {
	var schema any
	_ = json.Unmarshal(d.InputSchema, &schema)
	canon, _ := json.Marshal(struct {
		Name, Title, Description string
		Schema                   any
		Annotations              any
	}{d.Name, d.Title, d.Description, schema, d.Annotations})
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:])
}

func loadPins(dataDir, server string) (Pins, error) {
	data, err := os.ReadFile(pinsPath(dataDir, server))
	if errors.Is(err, os.ErrNotExist) {
		return Pins{}, nil
	}
	if err != nil {
		return nil, err
	}
	p := Pins{}
	return p, json.Unmarshal(data, &p)
}

func savePins(dataDir, server string, p Pins) error {
	if err := os.MkdirAll(cacheDir(dataDir), 0o700); err != nil {
		return err
	}
	data, _ := json.MarshalIndent(p, "", " ")
	return atomicfile.WriteFile(pinsPath(dataDir, server), data, 0o600)
}

// reconcile pins tools seen for the first time and returns the names of
// tools whose definition differs from their pin, sorted. It reports whether
// pins gained entries.
func (p Pins) reconcile(tools []ToolDef) (changed []string, added bool) {
	for _, t := range tools {
		h := hashTool(t)
		switch old, ok := p[t.Name]; {
		case !ok:
			p[t.Name] = h
			added = true
		case old != h:
			changed = append(changed, t.Name)
		}
	}
	sort.Strings(changed)
	return changed, added
}
