package resume

import (
	"strings"
)

// doc is the résumé laid out once, then printed by each format.
type doc struct {
	Name     string
	Label    string
	Contact  []string // email, phone, location, url, profiles
	Sections []section
	Lang     string
}

type section struct {
	Title   string
	Entries []entry
	Lines   []string // simple lines (skills, languages)
}

type entry struct {
	Heading string // position / degree / project name
	Sub     string // organisation / institution
	Dates   string
	Text    string
	Bullets []string
}

var headings = map[string][2]string{
	"summary":      {"Summary", "个人简介"},
	"work":         {"Experience", "工作经历"},
	"projects":     {"Projects", "项目经历"},
	"education":    {"Education", "教育背景"},
	"skills":       {"Skills", "专业技能"},
	"languages":    {"Languages", "语言能力"},
	"certificates": {"Certificates", "证书"},
	"awards":       {"Awards", "获奖情况"},
	"publications": {"Publications", "出版物"},
	"volunteer":    {"Volunteering", "志愿经历"},
	"interests":    {"Interests", "兴趣爱好"},
	"references":   {"References", "推荐人"},
}

func heading(key, lang string) string {
	if lang == "zh" {
		return headings[key][1]
	}
	return headings[key][0]
}

// shortDate turns 2013-12-01 into 2013-12 (years and months are what
// résumés show).
func shortDate(s string) string {
	if len(s) == 10 && s[4] == '-' && s[7] == '-' {
		return s[:7]
	}
	return s
}

func dateRange(start, end, lang string) string {
	start, end = shortDate(start), shortDate(end)
	switch {
	case start == "" && end == "":
		return ""
	case end == "":
		if lang == "zh" {
			return start + " – 至今"
		}
		return start + " – Present"
	case start == "":
		return end
	}
	return start + " – " + end
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, strings.TrimSpace(p))
		}
	}
	return strings.Join(out, sep)
}

func layout(r *Resume, lang string) doc {
	b := r.Basics
	d := doc{Name: b.Name, Label: b.Label, Lang: lang, Contact: contactLines(b)}
	if b.Summary != "" {
		d.Sections = append(d.Sections, section{Title: heading("summary", lang), Entries: []entry{{Text: b.Summary}}})
	}
	// add appends a section under its heading unless it is empty.
	add := func(key string, s section) {
		if len(s.Entries)+len(s.Lines) > 0 {
			s.Title = heading(key, lang)
			d.Sections = append(d.Sections, s)
		}
	}
	add("work", section{Entries: workEntries(r.Work, lang)})
	var projects []entry
	for _, p := range r.Projects {
		projects = append(projects, entry{Heading: p.Name, Sub: p.URL, Dates: dateRange(p.StartDate, p.EndDate, lang), Text: p.Description, Bullets: p.Highlights})
	}
	add("projects", section{Entries: projects})
	add("education", section{Entries: educationEntries(r.Education, lang)})
	add("skills", section{Lines: skillLines(r.Skills)})
	var languages []string
	for _, l := range r.Languages {
		languages = append(languages, joinNonEmpty(" — ", l.Language, l.Fluency))
	}
	add("languages", section{Lines: languages})
	var certificates []string
	for _, c := range r.Certificates {
		certificates = append(certificates, joinNonEmpty(", ", c.Name, c.Issuer, shortDate(c.Date)))
	}
	add("certificates", section{Lines: certificates})
	var awards []entry
	for _, a := range r.Awards {
		awards = append(awards, entry{Heading: a.Title, Sub: a.Awarder, Dates: shortDate(a.Date), Text: a.Summary})
	}
	add("awards", section{Entries: awards})
	var publications []entry
	for _, p := range r.Publications {
		publications = append(publications, entry{Heading: p.Name, Sub: p.Publisher, Dates: shortDate(p.ReleaseDate), Text: p.Summary})
	}
	add("publications", section{Entries: publications})
	add("volunteer", section{Entries: workEntries(r.Volunteer, lang)})
	var interests []string
	for _, k := range r.Interests {
		interests = append(interests, joinNonEmpty(": ", k.Name, strings.Join(k.Keywords, ", ")))
	}
	add("interests", section{Lines: interests})
	var references []entry
	for _, x := range r.References {
		references = append(references, entry{Heading: x.Name, Text: x.Reference})
	}
	add("references", section{Entries: references})
	return d
}

// contactLines are the non-empty contact details: email, phone, place,
// web site and one line per profile.
func contactLines(b Basics) []string {
	loc := ""
	if b.Location != nil {
		loc = joinNonEmpty(", ", b.Location.City, b.Location.Region, b.Location.CountryCode)
	}
	contact := []string{b.Email, b.Phone, loc, b.URL}
	for _, p := range b.Profiles {
		contact = append(contact, joinNonEmpty(": ", p.Network, firstNonEmpty(p.URL, p.Username)))
	}
	contact = strings.Split(joinNonEmpty("\x00", contact...), "\x00")
	if len(contact) == 1 && contact[0] == "" {
		return nil
	}
	return contact
}

// workEntries are the entries of the work and volunteer sections.
func workEntries(ws []Work, lang string) []entry {
	var out []entry
	for _, w := range ws {
		out = append(out, entry{Heading: firstNonEmpty(w.Position, w.Org()), Sub: ifDiff(w.Org(), w.Position), Dates: dateRange(w.StartDate, w.EndDate, lang), Text: w.Summary, Bullets: w.Highlights})
	}
	return out
}

// educationEntries show the degree, the institution, the score and the
// courses of each education.
func educationEntries(es []Education, lang string) []entry {
	var out []entry
	for _, e := range es {
		deg := joinNonEmpty(", ", e.StudyType, e.Area)
		text := ""
		if e.Score != "" {
			text = "GPA/Score: " + e.Score
			if lang == "zh" {
				text = "成绩：" + e.Score
			}
		}
		var bullets []string
		if len(e.Courses) > 0 {
			bullets = append(bullets, strings.Join(e.Courses, ", "))
		}
		out = append(out, entry{Heading: firstNonEmpty(deg, e.Institution), Sub: ifDiff(e.Institution, deg), Dates: dateRange(e.StartDate, e.EndDate, lang), Text: text, Bullets: bullets})
	}
	return out
}

// skillLines show each skill with its level and keywords.
func skillLines(skills []Skill) []string {
	var out []string
	for _, k := range skills {
		line := k.Name
		if k.Level != "" {
			line += " (" + k.Level + ")"
		}
		if len(k.Keywords) > 0 {
			if line != "" {
				line += ": "
			}
			line += strings.Join(k.Keywords, ", ")
		}
		out = append(out, line)
	}
	return out
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

func ifDiff(a, b string) string {
	if a == b {
		return ""
	}
	return a
}
