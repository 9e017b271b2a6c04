package exposure

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// Family groups intents that share one guide: the seed's decision trees,
// one per family.
type Family struct {
	Name    string   `json:"name" yaml:"name"`
	Title   string   `json:"title" yaml:"title"`
	Intents []string `json:"intents" yaml:"intents"`
}

// parseGuidance reads data/guidance.md: sections "## name | title | intent, intent".
func parseGuidance(b []byte) ([]Family, map[string]string, error) {
	var fams []Family
	guides := map[string]string{}
	var cur *Family
	var body strings.Builder
	flush := func() {
		if cur != nil {
			guides[cur.Name] = strings.TrimSpace(body.String())
		}
		body.Reset()
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			flush()
			parts := strings.Split(strings.TrimPrefix(line, "## "), "|")
			if len(parts) != 3 {
				return nil, nil, fmt.Errorf("guidance: bad section header %q", line)
			}
			f := Family{Name: strings.TrimSpace(parts[0]), Title: strings.TrimSpace(parts[1])}
			for _, in := range strings.Split(parts[2], ",") {
				f.Intents = append(f.Intents, strings.TrimSpace(in))
			}
			fams = append(fams, f)
			cur = &fams[len(fams)-1]
		case strings.HasPrefix(line, "#") && cur == nil:
			// file comment
		default:
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	flush()
	return fams, guides, sc.Err()
}

// Families returns the intent families of the default tables, for one
// guide prompt per family.
func Families() []Family { return slices.Clone(sharedDefaultTables().Families) }

// FamilyOf returns the family an intent belongs to ("" when none).
func (t *Tables) FamilyOf(intent string) string {
	for _, f := range t.Families {
		if slices.Contains(f.Intents, intent) {
			return f.Name
		}
	}
	return ""
}

// Guidance returns the guidance text for the families of the given intents,
// in the order first met, each family once. With no intents it returns every
// family's guidance (the request was vague).
func (t *Tables) Guidance(intents []string) string {
	var names []string
	for _, in := range intents {
		if f := t.FamilyOf(in); f != "" && !slices.Contains(names, f) {
			names = append(names, f)
		}
	}
	if len(names) == 0 {
		for _, f := range t.Families {
			names = append(names, f.Name)
		}
	}
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString("\n\n")
		}
		title := n
		for _, f := range t.Families {
			if f.Name == n {
				title = f.Title
			}
		}
		fmt.Fprintf(&b, "## %s\n%s", title, t.Guides[n])
	}
	return b.String()
}

// Guidance is Tables.Guidance on the default tables.
func Guidance(intents []string) string { return sharedDefaultTables().Guidance(intents) }

// FamilyGuide returns one family's guidance text ("" for an unknown name).
func FamilyGuide(name string) string { return sharedDefaultTables().Guides[name] }
