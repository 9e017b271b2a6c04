package weather

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// openMeteo replays testdata as Open-Meteo's geocoding, forecast and
// archive services would answer, and records the requests.
type openMeteo struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []*url.URL
}

func (o *openMeteo) requests(path string) []url.Values {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []url.Values
	for _, u := range o.reqs {
		if u.Path == path {
			out = append(out, u.Query())
		}
	}
	return out
}

func newOpenMeteo(t *testing.T) *openMeteo {
	o := &openMeteo{}
	geo := map[string]string{"北京/zh": "geo_beijing_zh", "杭州/zh": "geo_hangzhou_zh", "旧金山/zh": "geo_sanfrancisco_zh",
		"Chicago/en": "geo_chicago_en", "Chicago/zh": "geo_chicago_en", "Springfield/en": "geo_springfield_en"}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		o.reqs = append(o.reqs, r.URL)
		o.mu.Unlock()
		q := r.URL.Query()
		name := ""
		switch r.URL.Path {
		case "/v1/search":
			name = geo[q.Get("name")+"/"+q.Get("language")]
			if name == "" {
				name = "geo_none"
			}
		case "/v1/get":
			name = "geo_get_" + q.Get("id")
		case "/v1/forecast":
			switch {
			case q.Get("latitude") == "0.0000":
				w.WriteHeader(400)
				name = "forecast_error"
			case q.Get("current") != "" && q.Get("temperature_unit") == "fahrenheit":
				name = "forecast_current_imperial"
			case q.Get("current") != "":
				name = "forecast_current"
			case q.Get("hourly") != "":
				name = "forecast_hourly"
			default:
				name = "forecast_daily"
			}
		case "/v1/archive":
			name = "archive_daily"
		}
		b, err := os.ReadFile("testdata/" + name + ".json")
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(b)
	}))
	t.Cleanup(o.Close)
	return o
}

func build(t *testing.T, o *openMeteo) (tool.Tool, any) {
	t.Helper()
	d := tooltest.Deps(t, "127.0.0.1")
	tooltest.ConfigSection(t, d, "weather", "forecast_url: "+o.URL+"\narchive_url: "+o.URL+"\ngeocoding_url: "+o.URL)
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	return tl, nil
}

func call(t *testing.T, tl tool.Tool, lang string, args map[string]any) (*tool.Result, map[string]any) {
	t.Helper()
	c, err := tl.Prepare(args)
	if err != nil {
		t.Fatal(err)
	}
	c.Lang = lang
	r, err := tl.Handle(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	return r, r.Data.(map[string]any)
}

func TestWeather_ChineseAndEnglishPlaceNames(t *testing.T) {
	o := newOpenMeteo(t)
	tl, _ := build(t, o)
	for _, tc := range []struct{ place, lang, wantName, wantWords string }{
		{"北京", "", "北京市", "多云"},
		{"杭州", "", "杭州市", "多云"},
		{"旧金山", "en", "旧金山", "多云"}, // a Chinese name answers in Chinese
		{"Chicago", "", "Chicago", "partly cloudy"},
		{"Chicago", "zh", "Chicago", "多云"}, // the session's language
	} {
		r, d := call(t, tl, tc.lang, map[string]any{"action": "current", "place": tc.place})
		p := d["place"].(*place)
		cur := d["current"].(map[string]any)
		if p.Name != tc.wantName || cur["weather"] != tc.wantWords || cur["temperature_2m"] != 28.3 {
			t.Errorf("%s/%s: place %v, current %v", tc.place, tc.lang, p, cur)
		}
		if !strings.Contains(r.Summary, tc.wantWords) || !strings.Contains(r.Summary, "28.3°C") {
			t.Errorf("summary %q", r.Summary)
		}
	}
	fc := o.requests("/v1/forecast")
	if got := fc[0]; got.Get("latitude") != "39.9075" || got.Get("longitude") != "116.3972" || got.Get("timezone") != "auto" || !strings.Contains(got.Get("current"), "weather_code") {
		t.Errorf("forecast request %v", got)
	}
}

func TestWeather_ImperialUnits(t *testing.T) {
	tl, _ := build(t, newOpenMeteo(t))
	r, d := call(t, tl, "", map[string]any{"action": "current", "place": "Chicago", "units": "imperial"})
	cur := d["current"].(map[string]any)
	if cur["temperature_2m"] != 68.9 || cur["weather"] != "slight rain" || d["units"] != "imperial" || !strings.Contains(r.Summary, "68.9°F") || !strings.Contains(r.Summary, "mp/h") {
		t.Fatalf("%q %v", r.Summary, cur)
	}
}

func TestWeather_HourlyAndDailyForecast(t *testing.T) {
	o := newOpenMeteo(t)
	tl, _ := build(t, o)
	_, d := call(t, tl, "", map[string]any{"action": "hourly", "place": "杭州", "hours": 24})
	hs := d["hourly"].([]map[string]any)
	if len(hs) != 24 || hs[6]["weather"] != "小阵雨" || hs[6]["precipitation_probability"] != 60.0 || hs[0]["time"] != "2024-05-20T14:00" {
		t.Fatalf("hourly %v", hs[:7])
	}
	if q := o.requests("/v1/forecast")[0]; q.Get("forecast_hours") != "24" || !strings.Contains(q.Get("hourly"), "precipitation_probability") {
		t.Errorf("hourly request %v", q)
	}
	r, d := call(t, tl, "", map[string]any{"action": "daily", "place": "旧金山", "days": 3})
	ds := d["daily"].([]map[string]any)
	if len(ds) != 3 || ds[1]["weather"] != "雾" || ds[2]["temperature_2m_max"] != 21.9 || !strings.Contains(r.Summary, "2024-05-22 晴 11.9–21.9°C") {
		t.Fatalf("%q %v", r.Summary, ds)
	}
}

func TestWeather_PastDateUsesTheArchive(t *testing.T) {
	o := newOpenMeteo(t)
	tl, _ := build(t, o)
	r, d := call(t, tl, "", map[string]any{"action": "past", "place": "北京", "date": "2024-01-15"})
	ds := d["daily"].([]map[string]any)
	if len(ds) != 1 || ds[0]["weather"] != "小雪" || ds[0]["temperature_2m_min"] != -7.9 || !strings.Contains(r.Summary, "小雪") {
		t.Fatalf("%q %v", r.Summary, ds)
	}
	a := o.requests("/v1/archive")
	if len(a) != 1 || a[0].Get("start_date") != "2024-01-15" || a[0].Get("end_date") != "2024-01-15" || strings.Contains(a[0].Get("daily"), "probability") || a[0].Has("_archive") {
		t.Fatalf("archive requests %v", a)
	}
	// Yesterday is not in the archive yet: the forecast API has it.
	y := time.Now().UTC().AddDate(0, 0, -1).Format("2006-01-02")
	call(t, tl, "", map[string]any{"action": "past", "place": "北京", "date": y})
	f := o.requests("/v1/forecast")
	if len(f) != 1 || f[0].Get("start_date") != y {
		t.Fatalf("recent past: forecast requests %v", f)
	}
}

func TestWeather_AmbiguousPlaceListsCandidates(t *testing.T) {
	o := newOpenMeteo(t)
	tl, _ := build(t, o)
	r, d := call(t, tl, "", map[string]any{"action": "daily", "place": "Springfield"})
	cands, _ := d["candidates"].([]place)
	if d["ambiguous"] != true || len(cands) != 3 || !strings.Contains(r.Summary, "4250542: Springfield, Illinois, United States") {
		t.Fatalf("%q %v", r.Summary, d)
	}
	if len(o.requests("/v1/forecast")) != 0 {
		t.Fatal("an ambiguous place must not be guessed")
	}
	_, d = call(t, tl, "", map[string]any{"action": "daily", "place_id": 4250542})
	if p := d["place"].(*place); p.Admin1 != "Illinois" {
		t.Fatalf("place_id: %v", p)
	}
	// A capital, or a city far bigger than the next match, is not ambiguous.
	_, d = call(t, tl, "", map[string]any{"action": "current", "place": "北京"})
	_, d2 := call(t, tl, "", map[string]any{"action": "current", "place": "Chicago"})
	if d["ambiguous"] != nil || d2["ambiguous"] != nil {
		t.Fatal("北京 / Chicago reported ambiguous")
	}
}

func TestWeather_CachedTenMinutesPerPlaceAndKind(t *testing.T) {
	o := newOpenMeteo(t)
	tl, _ := build(t, o)
	call(t, tl, "", map[string]any{"action": "current", "place": "北京"})
	_, d := call(t, tl, "", map[string]any{"action": "current", "place": "北京"})
	if d["cached"] != true {
		t.Fatal("second identical question not cached")
	}
	call(t, tl, "", map[string]any{"action": "daily", "place": "北京"})
	if n := len(o.requests("/v1/forecast")); n != 2 {
		t.Fatalf("forecast requests %d, want 2 (current once, daily once)", n)
	}
	if DefaultConfig().CacheTTL != 10*time.Minute {
		t.Fatal("default cache is not ten minutes")
	}
}

func TestWeather_ErrorsAreClear(t *testing.T) {
	o := newOpenMeteo(t)
	tl, _ := build(t, o)
	for _, tc := range []struct {
		args map[string]any
		code string
		want string
	}{
		{map[string]any{"action": "current", "place": "Atlantis123"}, tool.CodeNotFound, "no place called"},
		{map[string]any{"action": "current"}, tool.CodeInvalid, "no place given"},
		{map[string]any{"action": "current", "latitude": 10.0}, tool.CodeInvalid, "go together"},
		{map[string]any{"action": "past", "place": "北京", "date": "2024-13-01"}, tool.CodeInvalid, "not YYYY-MM-DD"},
		{map[string]any{"action": "past", "place": "北京", "date": "2999-01-01"}, tool.CodeInvalid, "before today"},
		{map[string]any{"action": "past", "place": "北京", "date": "2024-01-01", "end_date": "2024-03-01"}, tool.CodeInvalid, "31 days"},
		{map[string]any{"action": "current", "latitude": 0.0, "longitude": 0.0}, tool.CodeInvalid, "Forecast days is invalid"},
	} {
		_, err := tooltest.Run(t, tl, tc.args)
		te, ok := tool.AsError(err)
		if !ok || te.Code != tc.code || !strings.Contains(te.Message, tc.want) {
			t.Errorf("%v: %v", tc.args, err)
		}
	}
}

func TestWeather_OutboundGuard(t *testing.T) {
	o := newOpenMeteo(t)
	d := tooltest.Deps(t)
	tooltest.ConfigSection(t, d, "weather", "geocoding_url: "+o.URL)
	tl, _ := New(d)
	_, err := tooltest.Run(t, tl, map[string]any{"action": "current", "place": "北京"})
	if te, ok := tool.AsError(err); !ok || te.Code != tool.CodeDenied || len(o.requests("/v1/search")) != 0 {
		t.Fatalf("%v", err)
	}
}

func TestWeather_EveryWMOCodeHasWords(t *testing.T) {
	for code, w := range wmoWords {
		if w[0] == "" || w[1] == "" || describe(code, "zh") != w[1] || describe(code, "en") != w[0] {
			t.Errorf("code %d: %v", code, w)
		}
	}
	if describe(42, "zh") != "未知天气代码" {
		t.Error("unknown code")
	}
}
