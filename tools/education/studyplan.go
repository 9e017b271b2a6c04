package education

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/ical"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Study plans: topics, each with the minutes it needs, laid out in the
// order given over study days, no day over its budget. A topic longer than
// what is left of a day continues the next study day (unless split is
// off, when it moves whole to the next day with room). Sessions start at
// start_time on the zone's wall clock, back to back, so a plan across a
// daylight-saving change keeps its local times. The plan is computed, not
// stored; export_ics writes it through the calendar tool's ICS writer.

type planTopic struct {
	Name    string `json:"name"`
	Minutes int    `json:"minutes"`
}

type session struct {
	Topic   string `json:"topic"`
	Minutes int    `json:"minutes"`
	Start   string `json:"start"` // local RFC 3339
	End     string `json:"end"`
	// Part is "2/3" when a topic is spread over days.
	Part  string `json:"part,omitempty"`
	topic int    // index in topics
	start time.Time
	end   time.Time
}

type planDay struct {
	Date     string    `json:"date"`
	Minutes  int       `json:"minutes"`
	Sessions []session `json:"sessions"`
}

var weekdayNames = map[string]time.Weekday{"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday, "thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday}

// plan is a study plan's arguments, checked.
type plan struct {
	topics  []planTopic
	total   int // minutes of all topics
	budget  int // minutes a day
	start   time.Time
	at      time.Time // the time of day study starts
	clock   string    // at as given
	study   map[time.Weekday]bool
	maxDays int
	split   bool
}

// planArgs reads and checks the arguments of study_plan.
func (x *edu) planArgs(a tool.Args) (plan, error) {
	var topics []planTopic
	if err := a.Decode("topics", &topics); err != nil {
		return plan{}, err
	}
	if len(topics) == 0 {
		return plan{}, tool.Invalid("topics", "topics is empty", "give each topic a name and its minutes, e.g. {name: \"Chapter 1\", minutes: 90}")
	}
	total := 0
	for i, t := range topics {
		if strings.TrimSpace(t.Name) == "" {
			return plan{}, tool.Invalid(fmt.Sprintf("topics[%d].name", i), "a topic has no name", "")
		}
		if t.Minutes < 1 || t.Minutes > 100_000 {
			return plan{}, tool.Invalid(fmt.Sprintf("topics[%d].minutes", i), fmt.Sprintf("minutes of %q must be 1–100000, got %d", t.Name, t.Minutes), "")
		}
		total += t.Minutes
	}
	budget := a.Int("daily_minutes", 60)
	if budget < 1 || budget > 24*60 {
		return plan{}, tool.Invalid("daily_minutes", fmt.Sprintf("daily_minutes must be 1–1440, got %d", budget), "")
	}
	startDay := x.now().In(x.loc)
	if s := a.String("start_date"); s != "" {
		d, err := time.ParseInLocation(dayFmt, s, x.loc)
		if err != nil {
			return plan{}, tool.Invalid("start_date", fmt.Sprintf("start_date %q is not YYYY-MM-DD", s), "")
		}
		startDay = d
	}
	clock := a.StringOr("start_time", "19:00")
	at, err := time.Parse("15:04", clock)
	if err != nil {
		return plan{}, tool.Invalid("start_time", fmt.Sprintf("start_time %q is not HH:MM", clock), "e.g. 19:00")
	}
	if at.Hour()*60+at.Minute()+budget > 24*60 {
		return plan{}, tool.Invalid("daily_minutes", fmt.Sprintf("%d minutes from %s run past midnight", budget, clock), "start earlier or study less a day")
	}
	study := map[time.Weekday]bool{}
	for _, w := range a.Strings("weekdays") {
		d, ok := weekdayNames[strings.ToLower(w)]
		if !ok {
			return plan{}, tool.Invalid("weekdays", fmt.Sprintf("unknown weekday %q", w), "use mon, tue, wed, thu, fri, sat, sun")
		}
		study[d] = true
	}
	maxDays := x.cfg.MaxPlanDays
	if a.Has("days") {
		n := a.Int("days", 0)
		if n < 1 || n > maxDays {
			return plan{}, tool.Invalid("days", fmt.Sprintf("days must be 1–%d, got %d", maxDays, n), "raise tools.education_tool.max_plan_days for longer plans")
		}
		maxDays = n
	}
	split := a.Bool("split", true)
	if !split {
		for i, t := range topics {
			if t.Minutes > budget {
				return plan{}, tool.Invalid(fmt.Sprintf("topics[%d].minutes", i), fmt.Sprintf("%q needs %d minutes, more than a day's %d, and split is off", t.Name, t.Minutes, budget), "allow split, or raise daily_minutes")
			}
		}
	}

	return plan{topics: topics, total: total, budget: budget, start: startDay, at: at, clock: clock, study: study, maxDays: maxDays, split: split}, nil
}

// layout lays the topics out over the study days in order, no day over the
// budget, and numbers the sessions of a topic that has several ("2/3").
func (x *edu) layout(p plan) ([]planDay, error) {
	topics, budget, study, split, at, maxDays, total := p.topics, p.budget, p.study, p.split, p.at, p.maxDays, p.total
	parts := make([]int, len(topics)) // sessions so far, for "k/n"
	var days []planDay
	ti, left := 0, topics[0].Minutes
	y, m, d := p.start.Date()
	for off := 0; off < maxDays && ti < len(topics); off++ {
		date := time.Date(y, m, d+off, 0, 0, 0, 0, x.loc)
		if len(study) > 0 && !study[date.Weekday()] {
			continue
		}
		day := planDay{Date: date.Format(dayFmt)}
		free := budget
		cursor := time.Date(y, m, d+off, at.Hour(), at.Minute(), 0, 0, x.loc)
		for ti < len(topics) && free > 0 {
			n := min(left, free)
			if !split && left > free {
				break
			}
			end := cursor.Add(time.Duration(n) * time.Minute)
			parts[ti]++
			day.Sessions = append(day.Sessions, session{Topic: topics[ti].Name, Minutes: n, topic: ti, start: cursor, end: end,
				Start: cursor.Format(time.RFC3339), End: end.Format(time.RFC3339), Part: fmt.Sprint(parts[ti])})
			cursor, free, left, day.Minutes = end, free-n, left-n, day.Minutes+n
			if left == 0 {
				if ti++; ti < len(topics) {
					left = topics[ti].Minutes
				}
			}
		}
		if len(day.Sessions) > 0 {
			days = append(days, day)
		}
	}
	if ti < len(topics) {
		return nil, tool.Invalid("days", fmt.Sprintf("%d minutes of topics do not fit in %d days of %d minutes", total, maxDays, budget),
			"raise daily_minutes or days, add weekdays, or drop topics")
	}
	// "k" becomes "k/n" where a topic has more than one session.
	for i := range days {
		for j := range days[i].Sessions {
			s := &days[i].Sessions[j]
			if n := parts[s.topic]; n > 1 {
				s.Part += fmt.Sprintf("/%d", n)
			} else {
				s.Part = ""
			}
		}
	}

	return days, nil
}

func (x *edu) studyPlan(ctx context.Context, call *tool.Call) (*tool.Result, error) {
	a := call.Args
	p, err := x.planArgs(a)
	if err != nil {
		return nil, err
	}
	days, err := x.layout(p)
	if err != nil {
		return nil, err
	}
	topics, total, budget, clock := p.topics, p.total, p.budget, p.clock
	data := map[string]any{"timezone": x.loc.String(), "daily_minutes": budget, "total_minutes": total, "study_days": len(days),
		"first_day": days[0].Date, "last_day": days[len(days)-1].Date, "days": days}
	sum := fmt.Sprintf("Study plan: %d topics, %d minutes over %d study days (%s to %s), at most %d minutes a day from %s %s.",
		len(topics), total, len(days), days[0].Date, days[len(days)-1].Date, budget, clock, x.loc.String())
	res := &tool.Result{Summary: sum, Data: data}
	if a.Bool("export_ics", false) || a.Has("output") {
		f, err := x.planICS(call, days)
		if err != nil {
			return nil, err
		}
		data["path"] = x.sb.Rel(f.Path)
		res.Summary += " Calendar: " + x.sb.Rel(f.Path) + "."
		res.Files = []tool.File{f}
	}
	return res, nil
}

// planICS writes the sessions as events through the calendar's writer.
func (x *edu) planICS(call *tool.Call, days []planDay) (tool.File, error) {
	out, err := tool.PlanOutput(x.sb, call.Args, tool.Output{Stem: "study_plan", Exts: []string{".ics"}})
	if err != nil {
		return tool.File{}, err
	}
	tz := x.loc.String()
	if tz == "Local" { // no IANA name: write UTC
		tz = ""
	}
	var evs []*ical.Event
	for _, d := range days {
		for _, s := range d.Sessions {
			title := s.Topic
			if s.Part != "" {
				title += " (" + s.Part + ")"
			}
			h := sha256.Sum256([]byte(s.Start + "\x00" + s.Topic + "\x00" + s.Part))
			evs = append(evs, &ical.Event{UID: hex.EncodeToString(h[:12]) + "@study-plan.clawbridge", Title: "Study: " + title,
				Description: fmt.Sprintf("%d minutes", s.Minutes), Start: s.start.UTC(), End: s.end.UTC(), TZ: tz})
		}
	}
	var b bytes.Buffer
	if err := ical.Write(&b, evs, x.now()); err != nil {
		return tool.File{}, err
	}
	return out.Write(".ics", b.Bytes())
}
