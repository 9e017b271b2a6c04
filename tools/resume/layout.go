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
	d := doc{Name: b.Name, Label: b.Label, Lang: lang}
	loc := ""
	if b.Location != nil {
		loc = joinNonEmpty(", ", b.Location.City, b.Location.Region, b.Location.CountryCode)
	}
	d.Contact = append(d.Contact, b.Email, b.Phone, loc, b.URL)
	for _, p := range b.Profiles {
		d.Contact = append(d.Contact, joinNonEmpty(": ", p.Network, firstNonEmpty(p.URL, p.Username)))
	}
	d.Contact = strings.Split(joinNonEmpty("\x00", d.Contact...), "\x00")
	if len(d.Contact) == 1 && d.Contact[0] == "" {
		d.Contact = nil
	}
	if b.Summary != "" {
		d.Sections = append(d.Sections, section{Title: heading("summary", lang), Entries: []entry{{Text: b.Summary}}})
	}
	works := func(key string, ws []Work) {
		if len(ws) == 0 {
			return
		}
		s := section{Title: heading(key, lang)}
		for _, w := range ws {
			s.Entries = append(s.Entries, entry{Heading: firstNonEmpty(w.Position, w.Org()), Sub: ifDiff(w.Org(), w.Position), Dates: dateRange(w.StartDate, w.EndDate, lang), Text: w.Summary, Bullets: w.Highlights})
		}
		d.Sections = append(d.Sections, s)
	}
	works("work", r.Work)
	if len(r.Projects) > 0 {
		s := section{Title: heading("projects", lang)}
		for _, p := range r.Projects {
			s.Entries = append(s.Entries, entry{Heading: p.Name, Sub: p.URL, Dates: dateRange(p.StartDate, p.EndDate, lang), Text: p.Description, Bullets: p.Highlights})
		}
		d.Sections = append(d.Sections, s)
	}
	if len(r.Education) > 0 {
		s := section{Title: heading("education", lang)}
		for _, e := range r.Education {
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
			s.Entries = append(s.Entries, entry{Heading: firstNonEmpty(deg, e.Institution), Sub: ifDiff(e.Institution, deg), Dates: dateRange(e.StartDate, e.EndDate, lang), Text: text, Bullets: bullets})
		}
		d.Sections = append(d.Sections, s)
	}
	if len(r.Skills) > 0 {
		s := section{Title: heading("skills", lang)}
		for _, k := range r.Skills {
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
			s.Lines = append(s.Lines, line)
		}
		d.Sections = append(d.Sections, s)
	}
	if len(r.Languages) > 0 {
		s := section{Title: heading("languages", lang)}
		for _, l := range r.Languages {
			s.Lines = append(s.Lines, joinNonEmpty(" — ", l.Language, l.Fluency))
		}
		d.Sections = append(d.Sections, s)
	}
	if len(r.Certificates) > 0 {
		s := section{Title: heading("certificates", lang)}
		for _, c := range r.Certificates {
			s.Lines = append(s.Lines, joinNonEmpty(", ", c.Name, c.Issuer, shortDate(c.Date)))
		}
		d.Sections = append(d.Sections, s)
	}
	if len(r.Awards) > 0 {
		s := section{Title: heading("awards", lang)}
		for _, a := range r.Awards {
			s.Entries = append(s.Entries, entry{Heading: a.Title, Sub: a.Awarder, Dates: shortDate(a.Date), Text: a.Summary})
		}
		d.Sections = append(d.Sections, s)
	}
	if len(r.Publications) > 0 {
		s := section{Title: heading("publications", lang)}
		for _, p := range r.Publications {
			s.Entries = append(s.Entries, entry{Heading: p.Name, Sub: p.Publisher, Dates: shortDate(p.ReleaseDate), Text: p.Summary})
		}
		d.Sections = append(d.Sections, s)
	}
	works("volunteer", r.Volunteer)
	if len(r.Interests) > 0 {
		s := section{Title: heading("interests", lang)}
		for _, k := range r.Interests {
			s.Lines = append(s.Lines, joinNonEmpty(": ", k.Name, strings.Join(k.Keywords, ", ")))
		}
		d.Sections = append(d.Sections, s)
	}
	if len(r.References) > 0 {
		s := section{Title: heading("references", lang)}
		for _, x := range r.References {
			s.Entries = append(s.Entries, entry{Heading: x.Name, Text: x.Reference})
		}
		d.Sections = append(d.Sections, s)
	}
	return d
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
