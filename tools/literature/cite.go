package literature

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/wording"
)

// Styles are the citation styles `cite` formats. Output is plain text:
// the italics of APA and MLA are not marked. Titles keep the case their
// source gives (no automatic sentence or title case, which breaks proper
// nouns). Chinese names stay whole in every style and are never reduced to
// initials; a Chinese-language work gets "等" instead of "et al." in
// GB/T 7714.
var Styles = []string{"apa", "mla", "gbt7714", "bibtex"}

// Cite formats w in style; accessed (YYYY-MM-DD) is the access date
// GB/T 7714 requires for online-only works.
func Cite(w Work, style, accessed string) string {
	switch style {
	case "apa":
		return apa(w)
	case "mla":
		return mla(w)
	case "gbt7714":
		return gbt(w, accessed)
	default:
		return bibtex(w, bibKey(w))
	}
}

func year(w Work) string {
	if w.Year == 0 {
		return ""
	}
	return strconv.Itoa(w.Year)
}

func endDot(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "。") {
		return s
	}
	return s + "."
}

func doiURL(w Work) string {
	if w.DOI != "" {
		return "https://doi.org/" + w.DOI
	}
	return w.URL
}

func dash(p, d string) string {
	f, l := pageRange(p)
	if l == "" {
		return f
	}
	return f + d + l
}

// --- APA 7 ---

func apaName(a Author) string {
	if a.CJK() || a.Given == "" {
		return a.Full
	}
	return a.Family + ", " + initials(a.Given, ".")
}

func apaAuthors(as []Author) string {
	n := make([]string, len(as))
	for i, a := range as {
		n[i] = apaName(a)
	}
	switch {
	case len(n) == 0:
		return ""
	case len(n) == 1:
		return n[0]
	case len(n) == 2:
		return n[0] + ", & " + n[1]
	case len(n) <= 20:
		return strings.Join(n[:len(n)-1], ", ") + ", & " + n[len(n)-1]
	default: // the first 19, an ellipsis, the last
		return strings.Join(n[:19], ", ") + ", . . . " + n[len(n)-1]
	}
}

func apa(w Work) string {
	y := year(w)
	if y == "" {
		y = "n.d."
	}
	var b strings.Builder
	if a := apaAuthors(w.Authors); a != "" {
		b.WriteString(endDot(a) + " (" + y + "). ") // "Wu, W." or "刘洋."
		b.WriteString(endDot(w.Title))
	} else { // no author: the title moves to the front
		b.WriteString(endDot(w.Title) + " (" + y + ").")
	}
	switch w.Type {
	case "article":
		s := w.Venue
		if w.Volume != "" {
			s += ", " + w.Volume
			if w.Issue != "" {
				s += "(" + w.Issue + ")"
			}
		}
		if w.Pages != "" {
			s += ", " + dash(w.Pages, "–")
		}
		if s != "" {
			b.WriteString(" " + endDot(s))
		}
	case "conference", "chapter":
		if w.Venue != "" {
			s := " In " + w.Venue
			if w.Pages != "" {
				s += " (pp. " + dash(w.Pages, "–") + ")"
			}
			b.WriteString(s + ".")
		}
		if w.Publisher != "" {
			b.WriteString(" " + endDot(w.Publisher))
		}
	case "preprint":
		t := strings.TrimSuffix(b.String(), ".")
		b.Reset()
		b.WriteString(t)
		if w.ArxivID != "" {
			b.WriteString(" (arXiv:" + w.ArxivID + ")")
		}
		b.WriteString(".")
		if v := firstNonEmpty(w.Venue, map[bool]string{true: "arXiv"}[w.ArxivID != ""]); v != "" {
			b.WriteString(" " + endDot(v))
		}
	case "book":
		if w.Publisher != "" {
			b.WriteString(" " + endDot(w.Publisher))
		}
	default:
		if w.Venue != "" {
			b.WriteString(" " + endDot(w.Venue))
		}
	}
	if u := doiURL(w); u != "" {
		b.WriteString(" " + u)
	}
	return b.String()
}

// --- MLA 9 ---

func mlaAuthors(as []Author) string {
	first := func(a Author) string {
		if a.CJK() || a.Given == "" {
			return a.Full
		}
		return a.Family + ", " + a.Given
	}
	switch len(as) {
	case 0:
		return ""
	case 1:
		return endDot(first(as[0]))
	case 2:
		second := as[1].Full
		return endDot(first(as[0]) + ", and " + second)
	default:
		return first(as[0]) + ", et al."
	}
}

func mla(w Work) string {
	var parts []string // the container's elements, joined by commas
	title := strings.TrimSpace(w.Title)
	quoted := "\u201c" + endDot(title) + "\u201d"
	if w.Type == "book" {
		quoted = endDot(title)
	}
	venue := w.Venue
	if w.Type == "preprint" && venue == "" && w.ArxivID != "" {
		venue = "arXiv"
	}
	if venue != "" && w.Type != "book" {
		parts = append(parts, venue)
	}
	if w.Volume != "" {
		parts = append(parts, "vol. "+w.Volume)
	}
	if w.Issue != "" {
		parts = append(parts, "no. "+w.Issue)
	}
	if w.Publisher != "" && w.Type != "article" && w.Type != "preprint" {
		parts = append(parts, w.Publisher)
	}
	if d := mlaDate(w); d != "" {
		parts = append(parts, d)
	}
	if w.Pages != "" {
		f, l := pageRange(w.Pages)
		if l == "" {
			parts = append(parts, "p. "+f)
		} else {
			parts = append(parts, "pp. "+f+"–"+mlaLastPage(f, l))
		}
	}
	if w.DOI != "" {
		parts = append(parts, "https://doi.org/"+w.DOI)
	} else if w.URL != "" { // MLA 9 drops the protocol of a plain URL
		parts = append(parts, strings.TrimPrefix(strings.TrimPrefix(w.URL, "https://"), "http://"))
	}
	s := quoted
	if a := mlaAuthors(w.Authors); a != "" {
		s = a + " " + quoted
	}
	if len(parts) > 0 {
		s += " " + strings.Join(parts, ", ") + "."
	}
	return s
}

// mlaDate is the year, or for a preprint (a posting MLA dates to the day)
// "11 Oct. 2018".
func mlaDate(w Work) string {
	if d, err := time.Parse("2006-01-02", w.Date); err == nil && w.Type == "preprint" {
		months := []string{"Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."}
		return fmt.Sprintf("%d %s %d", d.Day(), months[d.Month()-1], d.Year())
	}
	return year(w)
}

// mlaLastPage shortens the end of a page range as MLA's inclusive numbers
// do: in full through 99, else its last two digits unless more are needed
// (436–44, 2579–605, 103–04, 923–1003).
func mlaLastPage(first, last string) string {
	f, err1 := strconv.Atoi(first)
	l, err2 := strconv.Atoi(last)
	if err1 != nil || err2 != nil || l < 100 || len(first) != len(last) || l <= f {
		return last
	}
	i := 0
	for i < len(last)-2 && first[i] == last[i] {
		i++
	}
	return last[i:]
}

// --- GB/T 7714-2015 (sequential-numbering system, without the number) ---

func gbtAuthors(w Work) string {
	n := make([]string, 0, 3)
	for i, a := range w.Authors {
		if i == 3 {
			break
		}
		if a.CJK() || a.Given == "" {
			n = append(n, a.Full)
		} else {
			n = append(n, strings.ToUpper(a.Family)+" "+gbtInitials(a.Given))
		}
	}
	s := strings.Join(n, ", ")
	if len(w.Authors) > 3 {
		if wording.HasHan(w.Title) {
			s += ", 等"
		} else {
			s += ", et al"
		}
	}
	return s
}

// gbtInitials are the given names as capital initials without points,
// one per name part, spaced as the standard's examples ("DES MARAIS D J"):
// "Aidan N." is "A N", "Ming-Wei" is "M W".
func gbtInitials(given string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(initials(given, ""), "-", " ")), " ")
}

func gbt(w Work, accessed string) string {
	code := map[string]string{"article": "J", "conference": "C", "chapter": "M", "book": "M", "preprint": "EB/OL"}[w.Type]
	if code == "" {
		code = "Z"
	}
	var b strings.Builder
	if a := gbtAuthors(w); a != "" {
		b.WriteString(a + ". ")
	}
	b.WriteString(strings.TrimSuffix(strings.TrimSpace(w.Title), ".") + "[" + code + "]")
	y := year(w)
	pages := dash(w.Pages, "-")
	switch w.Type {
	case "article":
		s := ". " + w.Venue + ", " + y
		if w.Volume != "" {
			s += ", " + w.Volume
		}
		if w.Issue != "" {
			s += "(" + w.Issue + ")"
		}
		if pages != "" {
			s += ": " + pages
		}
		b.WriteString(s + ".")
	case "conference", "chapter":
		s := "//" + w.Venue + ". "
		if w.Publisher != "" {
			s += w.Publisher + ", "
		}
		s += y
		if pages != "" {
			s += ": " + pages
		}
		b.WriteString(s + ".")
	case "book":
		s := ". "
		if w.Publisher != "" {
			s += w.Publisher + ", "
		}
		b.WriteString(s + y + ".")
	case "preprint":
		date := w.Date
		if date == "" {
			date = y
		}
		s := ". (" + date + ")"
		if accessed != "" {
			s += "[" + accessed + "]"
		}
		u := w.URL
		if w.ArxivID != "" {
			u = "https://arxiv.org/abs/" + w.ArxivID
		}
		if u != "" {
			s += ". " + u
		}
		b.WriteString(s + ".")
	default:
		b.WriteString(". " + y + ".")
	}
	if w.DOI != "" {
		b.WriteString(" DOI:" + w.DOI + ".")
	}
	return b.String()
}

// --- BibTeX ---

func bibtex(w Work, key string) string {
	typ := map[string]string{"article": "article", "conference": "inproceedings", "chapter": "incollection", "book": "book"}[w.Type]
	if typ == "" {
		typ = "misc"
	}
	var fields [][2]string
	add := func(k, v string) {
		if v != "" {
			fields = append(fields, [2]string{k, v})
		}
	}
	names := make([]string, len(w.Authors))
	for i, a := range w.Authors {
		if a.CJK() || a.Given == "" {
			names[i] = "{" + bibEscape(a.Full) + "}"
		} else {
			names[i] = bibEscape(a.Family) + ", " + bibEscape(a.Given)
		}
	}
	add("author", strings.Join(names, " and "))
	if w.Title != "" {
		add("title", "{"+bibEscape(w.Title)+"}")
	}
	switch typ {
	case "article":
		add("journal", bibEscape(w.Venue))
	case "inproceedings", "incollection":
		add("booktitle", bibEscape(w.Venue))
	}
	add("year", year(w))
	add("volume", w.Volume)
	add("number", w.Issue)
	add("pages", dash(w.Pages, "--"))
	if typ != "article" {
		add("publisher", bibEscape(w.Publisher))
	}
	add("doi", w.DOI)
	if w.ArxivID != "" {
		add("eprint", w.ArxivID)
		add("archiveprefix", "arXiv")
	}
	if w.DOI == "" {
		add("url", w.URL)
	}
	if wording.HasHan(w.Title) {
		add("language", "Chinese")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "@%s{%s,\n", typ, key)
	for i, f := range fields {
		sep := ","
		if i == len(fields)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "  %s = {%s}%s\n", f[0], f[1], sep)
	}
	b.WriteString("}")
	return b.String()
}

var bibEscaper = strings.NewReplacer(`\`, `\textbackslash{}`, "&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`, "_", `\_`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`)

// bibEscape escapes TeX's special characters. BibTeX counts braces even
// after a backslash, so balanced braces (a protected "{DNA}") are kept and
// unbalanced ones, which would end the field early, are dropped.
func bibEscape(s string) string {
	if !balanced(s) {
		s = strings.NewReplacer("{", "", "}", "").Replace(s)
	}
	return bibEscaper.Replace(s)
}

func balanced(s string) bool {
	depth := 0
	for _, r := range s {
		switch r {
		case '{':
			depth++
		case '}':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// bibKey is the first author's family name in ASCII letters, the year and
// the first significant title word: "vaswani2017attention". Names or
// titles without ASCII letters (Chinese) leave their part out; with no
// author the key starts "anon".
func bibKey(w Work) string {
	ascii := func(s string) string {
		var b strings.Builder
		for _, r := range strings.ToLower(s) {
			if r >= 'a' && r <= 'z' {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	k := ""
	if len(w.Authors) > 0 {
		a := w.Authors[0]
		k = ascii(firstNonEmpty(a.Family, a.Full))
	}
	if k == "" {
		k = "anon"
	}
	k += year(w)
	for _, t := range strings.Fields(w.Title) {
		if t = ascii(t); t != "" && t != "a" && t != "an" && t != "the" && t != "on" && t != "of" {
			k += t
			break
		}
	}
	return k
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
