package literature

import (
	"strings"
)

// ris writes works in the RIS format (one record per work, "ER  - "
// closing each), as reference managers import it.
func ris(ws []Work) string {
	var b strings.Builder
	line := func(tag, v string) {
		if v = strings.TrimSpace(v); v != "" {
			b.WriteString(tag + "  - " + strings.ReplaceAll(v, "\n", " ") + "\r\n")
		}
	}
	for _, w := range ws {
		line("TY", map[string]string{"article": "JOUR", "conference": "CONF", "chapter": "CHAP", "book": "BOOK", "preprint": "UNPB"}[w.Type]+map[bool]string{true: "GEN"}[!isKnownType(w.Type)])
		for _, a := range w.Authors {
			if a.CJK() || a.Given == "" {
				line("AU", a.Full)
			} else {
				line("AU", a.Family+", "+a.Given)
			}
		}
		line("TI", w.Title)
		line("T2", w.Venue)
		line("PY", year(w))
		line("DA", strings.ReplaceAll(w.Date, "-", "/"))
		line("VL", w.Volume)
		line("IS", w.Issue)
		f, l := pageRange(w.Pages)
		line("SP", f)
		line("EP", l)
		line("PB", w.Publisher)
		line("DO", w.DOI)
		line("UR", firstNonEmpty(w.URL, doiURL(w)))
		line("AB", w.Abstract)
		line("LA", w.Language)
		b.WriteString("ER  - \r\n")
	}
	return b.String()
}

func isKnownType(t string) bool {
	switch t {
	case "article", "conference", "chapter", "book", "preprint":
		return true
	}
	return false
}
