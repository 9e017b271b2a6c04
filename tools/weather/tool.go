// Package weather is the `weather` tool: current conditions, hourly and
// daily forecasts and past days through Open-Meteo (geocoding, forecast and
// archive APIs; no key). Place names in Chinese or English are geocoded; a
// name with several far-apart matches is answered with the candidates for
// the model to choose from (place_id). Weather codes come back as words in
// zh or en (the language argument, else Chinese for a Chinese place name,
// else the session's language). Answers are cached per place and kind for
// cache_ttl (ten minutes). It gives no alerts, air quality or maps.
package weather

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/webapi"
	"github.com/clawbridge/clawbridge/internal/wording"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type weather struct {
	cfg      Config
	client   *http.Client
	cache    *webapi.Cache[*omBody]
	geoCache *webapi.Cache[[]place]
	today    func() time.Time
}

// New builds the weather tool from the tools.weather section.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Config]{Name: "weather", Defaults: DefaultConfig, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Config) (tool.Tool, error) {
	w := &weather{cfg: cfg, client: d.HTTPClient(cfg.Timeout), cache: webapi.NewCache[*omBody](cfg.CacheTTL, 512),
		geoCache: webapi.NewCache[[]place](cfg.CacheTTL, 512), today: time.Now}
	where := []tool.Param{
		{Name: "place", Type: tool.String, Description: "Any language, e.g. 杭州 or Chicago."},
		{Name: "place_id", Type: tool.Integer, Description: "A listed candidate of an ambiguous place."},
		{Name: "latitude", Type: tool.Number, Description: "Instead of place.", Min: tool.Ptr(-90), Max: tool.Ptr(90)},
		{Name: "longitude", Type: tool.Number, Description: "With latitude.", Min: tool.Ptr(-180), Max: tool.Ptr(180)},
		{Name: "country", Type: tool.String, Description: "Country code narrowing the place, e.g. US."},
		{Name: "units", Type: tool.String, Enum: []string{"metric", "imperial"}, Default: "metric", Description: "°C, km/h, mm or °F, mph, inch."},
		{Name: "language", Type: tool.String, Enum: []string{"zh", "en"}, Description: "Default: the user's."},
	}
	with := func(extra ...tool.Param) []tool.Param { return append(append([]tool.Param{}, where...), extra...) }
	return tool.Tool{
		Name:  "weather",
		Title: "Weather",
		Description: "Weather through Open-Meteo: current conditions, hourly and daily forecast, past dates; " +
			"Chinese and English place names; metric or imperial.",
		Actions: []tool.Action{
			{Name: "current", Description: "conditions now", Level: tool.Read, Timeout: tool.Normal, Idempotent: true, Params: with(), Handler: w.current},
			{Name: "hourly", Description: "forecast", Level: tool.Read, Timeout: tool.Normal, Idempotent: true,
				Params: with(tool.Param{Name: "hours", Type: tool.Integer, Default: 24, Description: "Hours ahead.", Min: tool.Ptr(1), Max: tool.Ptr(384)}), Handler: w.hourly},
			{Name: "daily", Description: "forecast", Level: tool.Read, Timeout: tool.Normal, Idempotent: true,
				Params: with(tool.Param{Name: "days", Type: tool.Integer, Default: 7, Description: "Days ahead, today first.", Min: tool.Ptr(1), Max: tool.Ptr(16)}), Handler: w.daily},
			{Name: "past", Description: "observed, past days", Level: tool.Read, Timeout: tool.Normal, Idempotent: true,
				Params: with(tool.Param{Name: "date", Type: tool.String, Required: true, Description: "YYYY-MM-DD."},
					tool.Param{Name: "end_date", Type: tool.String, Description: "Of a range (at most 31 days)."}), Handler: w.past},
		},
		OpenWorld: true,
		Examples: []string{
			"what's the forecast for London tomorrow",
			"is it going to be hot in Tokyo next week",
			"temperature in Berlin right now",
			"do I need an umbrella today",
			"上海今天气温多少",
			"后天广州会下雨吗",
			"查一下成都的天气预报",
			"这周末深圳天气如何",
		},
	}, nil
}

// lang: the argument, else zh for a Chinese place name, else the session's.
func language(c *tool.Call) string {
	if l := c.Args.String("language"); l != "" {
		return l
	}
	if wording.HasHan(c.Args.String("place")) || strings.HasPrefix(c.Lang, "zh") {
		return "zh"
	}
	return "en"
}

// locate resolves the call's place; a nil place with a result means the
// name was ambiguous and the result lists the candidates.
func (w *weather) locate(ctx context.Context, c *tool.Call, lang string) (*place, *tool.Result, error) {
	a := c.Args
	switch {
	case a.Has("latitude") || a.Has("longitude"):
		if !a.Has("latitude") || !a.Has("longitude") {
			return nil, nil, tool.Invalid("latitude", "latitude and longitude go together", "give both, or a place name")
		}
		p := place{Latitude: a.Float("latitude", 0), Longitude: a.Float("longitude", 0)}
		p.Name = fmt.Sprintf("%.4f, %.4f", p.Latitude, p.Longitude)
		return &p, nil, nil
	case a.Has("place_id"):
		p, err := w.byID(ctx, a.Int("place_id", 0), lang)
		return &p, nil, err
	}
	name := strings.TrimSpace(a.String("place"))
	if name == "" {
		return nil, nil, tool.Invalid("place", "no place given", "give place (a name), place_id, or latitude and longitude")
	}
	country := a.String("country")
	if country != "" && len(country) != 2 {
		return nil, nil, tool.Invalid("country", fmt.Sprintf("country %q is not a two-letter code", country), "for example US, CN, GB")
	}
	ps, err := w.geocode(ctx, name, country, lang)
	if err != nil {
		return nil, nil, err
	}
	if len(ps) == 0 {
		return nil, nil, tool.NotFoundf("place", "check the spelling, drop district words, or give latitude and longitude",
			"no place called %q was found", name)
	}
	if cands := ambiguous(ps, name); cands != nil {
		list := make([]string, len(cands))
		for i, p := range cands {
			list[i] = fmt.Sprintf("%d: %s", p.ID, p.label())
		}
		return nil, &tool.Result{
			Summary: fmt.Sprintf("%q matches %d places; call again with place_id (or country): %s.", name, len(cands), strings.Join(list, "; ")),
			Data:    map[string]any{"ambiguous": true, "place": name, "candidates": cands},
		}, nil
	}
	return &ps[0], nil, nil
}

func (w *weather) current(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	return w.run(ctx, c, "current", w.forecastAPI(), func(v url.Values) { v.Set("current", currentVars) })
}

func (w *weather) hourly(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	return w.run(ctx, c, "hourly", w.forecastAPI(), func(v url.Values) {
		v.Set("hourly", hourlyVars)
		v.Set("forecast_hours", strconv.Itoa(c.Args.Int("hours", 24)))
	})
}

func (w *weather) daily(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	return w.run(ctx, c, "daily", w.forecastAPI(), func(v url.Values) {
		v.Set("daily", dailyVars)
		v.Set("forecast_days", strconv.Itoa(c.Args.Int("days", 7)))
	})
}

// past reads the archive, which lags a few days behind; more recent days
// come from the forecast API's own record of them.
func (w *weather) past(ctx context.Context, c *tool.Call) (*tool.Result, error) {
	start, err := time.Parse("2006-01-02", c.Args.String("date"))
	if err != nil {
		return nil, tool.Invalid("date", fmt.Sprintf("date %q is not YYYY-MM-DD", c.Args.String("date")), "for example 2024-07-01")
	}
	end := start
	if s := c.Args.String("end_date"); s != "" {
		if end, err = time.Parse("2006-01-02", s); err != nil {
			return nil, tool.Invalid("end_date", fmt.Sprintf("end_date %q is not YYYY-MM-DD", s), "for example 2024-07-07")
		}
	}
	today := w.today().UTC().Truncate(24 * time.Hour)
	switch {
	case end.Before(start):
		return nil, tool.Invalid("end_date", "end_date is before date", "swap them")
	case end.Sub(start) > 30*24*time.Hour:
		return nil, tool.Invalid("end_date", "a range of more than 31 days", "ask for at most 31 days at a time")
	case !end.Before(today):
		return nil, tool.Invalid("date", "past covers days before today", "use current, hourly or daily for today and later")
	case start.Year() < 1940:
		return nil, tool.Invalid("date", "the archive starts in 1940", "give a later date")
	}
	archive := end.Before(today.AddDate(0, 0, -5))
	api := w.forecastAPI()
	if archive {
		api = w.archiveAPI()
	}
	return w.run(ctx, c, "past", api, func(v url.Values) {
		vars := pastVars
		if !archive {
			vars = dailyVars
		}
		v.Set("daily", vars)
		v.Set("start_date", start.Format("2006-01-02"))
		v.Set("end_date", end.Format("2006-01-02"))
	})
}

func (w *weather) run(ctx context.Context, c *tool.Call, kind string, api endpoint, set func(url.Values)) (*tool.Result, error) {
	lang := language(c)
	p, amb, err := w.locate(ctx, c, lang)
	if err != nil || amb != nil {
		return amb, err
	}
	imperial := c.Args.StringOr("units", "metric") == "imperial"
	v := unitsParams(imperial)
	set(v)
	b, cached, err := w.fetch(ctx, api, *p, v)
	if err != nil {
		return nil, err
	}
	data := map[string]any{"place": p, "kind": kind, "timezone": b.Timezone, "units": map[bool]string{true: "imperial", false: "metric"}[imperial],
		"language": lang, "cached": cached}
	var sum string
	switch kind {
	case "current":
		cur := current(b, lang)
		data["current"], data["current_units"] = cur, b.CurrentUnits
		sum = fmt.Sprintf("%s now: %s, %s (feels %s), wind %s%s", p.label(), cur["weather"], fmtTemp(cur, "temperature_2m", b.CurrentUnits["temperature_2m"]),
			fmtTemp(cur, "apparent_temperature", b.CurrentUnits["apparent_temperature"]), num(cur, "wind_speed_10m"), b.CurrentUnits["wind_speed_10m"])
	case "hourly":
		rs := rows(b.Hourly, lang)
		data["hourly"], data["hourly_units"] = rs, b.HourlyUnits
		sum = fmt.Sprintf("%s: %d hours of forecast", p.label(), len(rs))
	default:
		rs := rows(b.Daily, lang)
		data["daily"], data["daily_units"] = rs, b.DailyUnits
		u := b.DailyUnits["temperature_2m_max"]
		var days []string
		for _, r := range rs {
			days = append(days, fmt.Sprintf("%v %v %s–%s", r["time"], r["weather"], num(r, "temperature_2m_min"), fmtTemp(r, "temperature_2m_max", u)))
		}
		sum = fmt.Sprintf("%s: %s", p.label(), strings.Join(days, "; "))
	}
	return &tool.Result{Summary: sum + ".", Data: data}, nil
}
