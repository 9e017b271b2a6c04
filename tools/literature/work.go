package literature

import (
	"strings"
	"unicode"

	"github.com/clawbridge/clawbridge/internal/wording"
)

// Work is one scholarly record, whatever the source.
type Work struct {
	ID        string   `json:"id"` // OpenAlex W-id, arXiv id or DOI
	DOI       string   `json:"doi,omitempty"`
	ArxivID   string   `json:"arxiv_id,omitempty"`
	Title     string   `json:"title"`
	Authors   []Author `json:"authors"`
	Year      int      `json:"year,omitempty"`
	Date      string   `json:"date,omitempty"` // YYYY-MM-DD when known
	Type      string   `json:"type"`           // article, conference, preprint, chapter, book, other
	Venue     string   `json:"venue,omitempty"`
	Volume    string   `json:"volume,omitempty"`
	Issue     string   `json:"issue,omitempty"`
	Pages     string   `json:"pages,omitempty"` // "12-34"
	Publisher string   `json:"publisher,omitempty"`
	URL       string   `json:"url,omitempty"`
	PDFURL    string   `json:"pdf_url,omitempty"`
	OpenAcc   bool     `json:"open_access"`
	Cited     int      `json:"cited_by,omitempty"`
	Abstract  string   `json:"abstract,omitempty"`
	Language  string   `json:"language,omitempty"`
	Source    string   `json:"source"` // openalex, arxiv, crossref
	Related   []string `json:"-"`      // OpenAlex ids of related works
}

// Author is a name split into family and given parts when the source
// says or the name can be split; a Chinese name keeps its characters whole
// (family first, no initials).
type Author struct {
	Family string `json:"family,omitempty"`
	Given  string `json:"given,omitempty"`
	Full   string `json:"name"`
}

// CJK reports whether the name is written in Han characters.
func (a Author) CJK() bool { return wording.HasHan(a.Full) }

// splitName makes an Author from a display name: "Ashish Vaswani" is
// family Vaswani, given Ashish; "van der Berg" particles go with the
// family; "Vaswani, Ashish" is already inverted; a Han name stays whole.
func splitName(full string) Author {
	full = strings.Join(strings.Fields(full), " ")
	if wording.HasHan(full) {
		return Author{Full: strings.ReplaceAll(full, " ", "")}
	}
	if f, g, ok := strings.Cut(full, ","); ok {
		return Author{Family: strings.TrimSpace(f), Given: strings.TrimSpace(g), Full: strings.TrimSpace(g) + " " + strings.TrimSpace(f)}
	}
	parts := strings.Fields(full)
	if len(parts) < 2 {
		return Author{Family: full, Full: full}
	}
	i := len(parts) - 1
	for i > 1 && isParticle(parts[i-1]) {
		i--
	}
	return Author{Family: strings.Join(parts[i:], " "), Given: strings.Join(parts[:i], " "), Full: full}
}

func isParticle(s string) bool {
	switch strings.ToLower(s) {
	case "van", "von", "der", "den", "de", "del", "da", "di", "la", "le", "du", "des", "dos":
		return true
	}
	return false
}

// fromParts builds an Author from a source's given and family names.
func fromParts(given, family string) Author {
	given, family = strings.TrimSpace(given), strings.TrimSpace(family)
	if wording.HasHan(given + family) {
		return Author{Full: family + given}
	}
	full := strings.TrimSpace(given + " " + family)
	if family == "" {
		return splitName(given)
	}
	return Author{Family: family, Given: given, Full: full}
}

// initials are the given names as initials: "Jean-Paul Marc" is
// "J.-P. M." (sep "." for APA) or "J-P M" (sep "" for GB/T).
func initials(given, dot string) string {
	var out []string
	for _, w := range strings.Fields(given) {
		var hy []string
		for _, h := range strings.Split(w, "-") {
			r := []rune(strings.TrimSuffix(h, "."))
			if len(r) > 0 {
				hy = append(hy, string(unicode.ToUpper(r[0]))+dot)
			}
		}
		out = append(out, strings.Join(hy, "-"))
	}
	return strings.Join(out, " ")
}

// pageRange splits "12-34", "12–34" or "12".
func pageRange(p string) (first, last string) {
	p = strings.NewReplacer("–", "-", "—", "-", "--", "-").Replace(strings.TrimSpace(p))
	first, last, _ = strings.Cut(p, "-")
	return strings.TrimSpace(first), strings.TrimSpace(last)
}
