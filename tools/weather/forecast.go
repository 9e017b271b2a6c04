package weather

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/internal/webapi"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// The variables asked for each kind of answer.
const (
	currentVars = "temperature_2m,relative_humidity_2m,apparent_temperature,precipitation,weather_code,wind_speed_10m,wind_direction_10m,is_day"
	hourlyVars  = "temperature_2m,relative_humidity_2m,precipitation_probability,precipitation,weather_code,wind_speed_10m"
	dailyVars   = "weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max,wind_speed_10m_max,sunrise,sunset"
	// The archive has no precipitation probability.
	pastVars = "weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,wind_speed_10m_max,sunrise,sunset"
)

// omBody is the part of an Open-Meteo forecast or archive answer used here:
// the blocks of each kind, as a map of variable to value (current) or to
// an array of values aligned with "time" (hourly, daily), with their units.
type omBody struct {
	Timezone     string                     `json:"timezone"`
	Current      map[string]json.RawMessage `json:"current"`
	CurrentUnits map[string]string          `json:"current_units"`
	Hourly       map[string][]any           `json:"hourly"`
	HourlyUnits  map[string]string          `json:"hourly_units"`
	Daily        map[string][]any           `json:"daily"`
	DailyUnits   map[string]string          `json:"daily_units"`
}

// endpoint is one Open-Meteo API that answers forecast-shaped JSON: the
// forecast API or the historical archive.
type endpoint struct {
	base    string // configured base URL
	path    string // "/v1/forecast" or "/v1/archive"
	service string // the name used in errors
}

func (w *weather) forecastAPI() endpoint {
	return endpoint{w.cfg.ForecastURL, "/v1/forecast", "Open-Meteo forecast"}
}

func (w *weather) archiveAPI() endpoint {
	return endpoint{w.cfg.ArchiveURL, "/v1/archive", "Open-Meteo archive"}
}

// fetch asks api for one place and kind; the answer is cached per
// endpoint, place, kind and settings.
func (w *weather) fetch(ctx context.Context, api endpoint, p place, v url.Values) (*omBody, bool, error) {
	v.Set("latitude", strconv.FormatFloat(p.Latitude, 'f', 4, 64))
	v.Set("longitude", strconv.FormatFloat(p.Longitude, 'f', 4, 64))
	v.Set("timezone", "auto")
	u := strings.TrimRight(api.base, "/") + api.path + "?" + v.Encode()
	if b, ok := w.cache.Get(u); ok {
		return b, true, nil
	}
	resp, err := webapi.Get(ctx, w.client, webapi.Request{Service: api.service, URL: u})
	if err != nil {
		return nil, false, err
	}
	var b omBody
	if err := json.Unmarshal(resp.Body, &b); err != nil {
		return nil, false, tool.Errorf(tool.CodeFailed, "try again later", "%s did not answer JSON: %v", api.service, err)
	}
	w.cache.Put(u, &b)
	return &b, false, nil
}

// rows turns an hourly or daily block into one map per time step, with the
// weather code also in words.
func rows(block map[string][]any, lang string) []map[string]any {
	times := block["time"]
	out := make([]map[string]any, len(times))
	for i := range times {
		r := map[string]any{}
		for k, vals := range block {
			if i < len(vals) {
				r[k] = vals[i]
			}
		}
		if c, ok := r["weather_code"].(float64); ok {
			r["weather"] = describe(int(c), lang)
		}
		out[i] = r
	}
	return out
}

func current(b *omBody, lang string) map[string]any {
	r := map[string]any{}
	for k, raw := range b.Current {
		var v any
		if json.Unmarshal(raw, &v) == nil {
			r[k] = v
		}
	}
	if c, ok := r["weather_code"].(float64); ok {
		r["weather"] = describe(int(c), lang)
	}
	return r
}

func unitsParams(imperial bool) url.Values {
	v := url.Values{}
	if imperial {
		v.Set("temperature_unit", "fahrenheit")
		v.Set("wind_speed_unit", "mph")
		v.Set("precipitation_unit", "inch")
	}
	return v
}

func num(m map[string]any, k string) string {
	if f, ok := m[k].(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return "?"
}

func fmtTemp(m map[string]any, k, unit string) string { return fmt.Sprintf("%s%s", num(m, k), unit) }
