package resume

import (
	"strings"
)

// Resume is the subset of JSON Resume (https://jsonresume.org/schema) the
// themes print. Unknown properties are kept out of the output, not refused.
type Resume struct {
	Basics       Basics        `json:"basics"`
	Work         []Work        `json:"work,omitempty"`
	Volunteer    []Work        `json:"volunteer,omitempty"`
	Education    []Education   `json:"education,omitempty"`
	Awards       []Award       `json:"awards,omitempty"`
	Certificates []Certificate `json:"certificates,omitempty"`
	Publications []Publication `json:"publications,omitempty"`
	Skills       []Skill       `json:"skills,omitempty"`
	Languages    []Language    `json:"languages,omitempty"`
	Interests    []Skill       `json:"interests,omitempty"`
	Projects     []Project     `json:"projects,omitempty"`
	References   []Reference   `json:"references,omitempty"`
}

type Basics struct {
	Name     string    `json:"name"`
	Label    string    `json:"label,omitempty"`
	Email    string    `json:"email,omitempty"`
	Phone    string    `json:"phone,omitempty"`
	URL      string    `json:"url,omitempty"`
	Summary  string    `json:"summary,omitempty"`
	Location *Location `json:"location,omitempty"`
	Profiles []Profile `json:"profiles,omitempty"`
}

type Location struct {
	Address     string `json:"address,omitempty"`
	PostalCode  string `json:"postalCode,omitempty"`
	City        string `json:"city,omitempty"`
	CountryCode string `json:"countryCode,omitempty"`
	Region      string `json:"region,omitempty"`
}

type Profile struct {
	Network  string `json:"network,omitempty"`
	Username string `json:"username,omitempty"`
	URL      string `json:"url,omitempty"`
}

// Work is a job (work) or a volunteer role (volunteer uses organization).
type Work struct {
	Name         string   `json:"name,omitempty"`
	Organization string   `json:"organization,omitempty"`
	Position     string   `json:"position,omitempty"`
	Location     string   `json:"location,omitempty"`
	URL          string   `json:"url,omitempty"`
	StartDate    string   `json:"startDate,omitempty"`
	EndDate      string   `json:"endDate,omitempty"`
	Summary      string   `json:"summary,omitempty"`
	Highlights   []string `json:"highlights,omitempty"`
}

func (w Work) Org() string {
	if w.Name != "" {
		return w.Name
	}
	return w.Organization
}

type Education struct {
	Institution string   `json:"institution,omitempty"`
	Area        string   `json:"area,omitempty"`
	StudyType   string   `json:"studyType,omitempty"`
	StartDate   string   `json:"startDate,omitempty"`
	EndDate     string   `json:"endDate,omitempty"`
	Score       string   `json:"score,omitempty"`
	Courses     []string `json:"courses,omitempty"`
}

type Award struct {
	Title   string `json:"title,omitempty"`
	Date    string `json:"date,omitempty"`
	Awarder string `json:"awarder,omitempty"`
	Summary string `json:"summary,omitempty"`
}

type Certificate struct {
	Name   string `json:"name,omitempty"`
	Date   string `json:"date,omitempty"`
	Issuer string `json:"issuer,omitempty"`
}

type Publication struct {
	Name        string `json:"name,omitempty"`
	Publisher   string `json:"publisher,omitempty"`
	ReleaseDate string `json:"releaseDate,omitempty"`
	Summary     string `json:"summary,omitempty"`
}

type Skill struct {
	Name     string   `json:"name,omitempty"`
	Level    string   `json:"level,omitempty"`
	Keywords []string `json:"keywords,omitempty"`
}

type Language struct {
	Language string `json:"language,omitempty"`
	Fluency  string `json:"fluency,omitempty"`
}

type Project struct {
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	Highlights  []string `json:"highlights,omitempty"`
	StartDate   string   `json:"startDate,omitempty"`
	EndDate     string   `json:"endDate,omitempty"`
	URL         string   `json:"url,omitempty"`
}

type Reference struct {
	Name      string `json:"name,omitempty"`
	Reference string `json:"reference,omitempty"`
}

// Simple is the short form for users without a JSON Resume: flat contact
// fields and plain lists, mapped onto JSON Resume.
type Simple struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Email        string          `json:"email"`
	Phone        string          `json:"phone"`
	Website      string          `json:"website"`
	Location     string          `json:"location"`
	Summary      string          `json:"summary"`
	Experience   []SimpleJob     `json:"experience"`
	Education    []SimpleSchool  `json:"education"`
	Skills       []string        `json:"skills"`
	Languages    []string        `json:"languages"`
	Projects     []SimpleProject `json:"projects"`
	Certificates []string        `json:"certificates"`
}

type SimpleJob struct {
	Company    string   `json:"company"`
	Position   string   `json:"position"`
	Start      string   `json:"start"`
	End        string   `json:"end"`
	Summary    string   `json:"summary"`
	Highlights []string `json:"highlights"`
}

type SimpleSchool struct {
	School string `json:"school"`
	Degree string `json:"degree"`
	Field  string `json:"field"`
	Start  string `json:"start"`
	End    string `json:"end"`
}

type SimpleProject struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Highlights  []string `json:"highlights"`
}

// ToJSONResume maps the simple form onto a JSON Resume document (as a
// generic value, so it goes through the same schema validation).
func (s Simple) ToJSONResume() map[string]any {
	basics := map[string]any{"name": s.Name}
	set(basics, "label", s.Title)
	set(basics, "email", s.Email)
	set(basics, "phone", s.Phone)
	set(basics, "url", s.Website)
	set(basics, "summary", s.Summary)
	if s.Location != "" {
		basics["location"] = map[string]any{"city": s.Location}
	}
	out := map[string]any{"basics": basics}
	setList(out, "work", s.Experience, func(e SimpleJob) map[string]any {
		w := map[string]any{}
		set(w, "name", e.Company)
		set(w, "position", e.Position)
		set(w, "startDate", e.Start)
		set(w, "endDate", e.End)
		set(w, "summary", e.Summary)
		if len(e.Highlights) > 0 {
			w["highlights"] = toAny(e.Highlights)
		}
		return w
	})
	setList(out, "education", s.Education, func(e SimpleSchool) map[string]any {
		m := map[string]any{}
		set(m, "institution", e.School)
		set(m, "studyType", e.Degree)
		set(m, "area", e.Field)
		set(m, "startDate", e.Start)
		set(m, "endDate", e.End)
		return m
	})
	if len(s.Skills) > 0 {
		out["skills"] = []any{map[string]any{"keywords": toAny(s.Skills)}}
	}
	setList(out, "languages", s.Languages, func(l string) map[string]any { return map[string]any{"language": l} })
	setList(out, "projects", s.Projects, func(p SimpleProject) map[string]any {
		m := map[string]any{}
		set(m, "name", p.Name)
		set(m, "description", p.Description)
		if len(p.Highlights) > 0 {
			m["highlights"] = toAny(p.Highlights)
		}
		return m
	})
	setList(out, "certificates", s.Certificates, func(c string) map[string]any { return map[string]any{"name": c} })
	return out
}

// set puts v, trimmed, under k; an empty v is left out.
func set(m map[string]any, k, v string) {
	if v = strings.TrimSpace(v); v != "" {
		m[k] = v
	}
}

// setList puts one element per item under k; no items, no key.
func setList[T any](m map[string]any, k string, items []T, element func(T) map[string]any) {
	if len(items) == 0 {
		return
	}
	list := make([]any, len(items))
	for i, it := range items {
		list[i] = element(it)
	}
	m[k] = list
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
