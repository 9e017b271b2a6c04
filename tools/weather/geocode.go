package weather

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/clawbridge/clawbridge/internal/webapi"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// place is one geocoding match.
type place struct {
	ID         int     `json:"id"`
	Name       string  `json:"name"`
	Admin1     string  `json:"admin1,omitempty"`
	Country    string  `json:"country,omitempty"`
	Code       string  `json:"country_code,omitempty"`
	Latitude   float64 `json:"latitude"`
	Longitude  float64 `json:"longitude"`
	Timezone   string  `json:"timezone,omitempty"`
	Population int     `json:"population,omitempty"`
	Feature    string  `json:"feature_code,omitempty"`
}

type geoBody struct {
	Results []place `json:"results"`
}

// geocode asks Open-Meteo's /v1/search for name (any language; answers in
// lang) and returns the matches.
func (w *weather) geocode(ctx context.Context, name, country, lang string) ([]place, error) {
	key := "geo\x00" + name + "\x00" + country + "\x00" + lang
	if p, ok := w.geoCache.Get(key); ok {
		return p, nil
	}
	v := url.Values{"name": {name}, "count": {"10"}, "language": {lang}, "format": {"json"}}
	if country != "" {
		v.Set("countryCode", strings.ToUpper(country))
	}
	resp, err := webapi.Get(ctx, w.client, webapi.Request{Service: "Open-Meteo geocoding", Field: "place", URL: strings.TrimRight(w.cfg.GeocodingURL, "/") + "/v1/search?" + v.Encode()})
	if err != nil {
		return nil, err
	}
	var b geoBody
	if err := json.Unmarshal(resp.Body, &b); err != nil {
		return nil, tool.Errorf(tool.CodeFailed, "try again later", "Open-Meteo geocoding did not answer JSON: %v", err)
	}
	w.geoCache.Put(key, b.Results)
	return b.Results, nil
}

// byID fetches one place by its geocoding id (/v1/get?id=), as listed
// among the candidates of an ambiguous name.
func (w *weather) byID(ctx context.Context, id int, lang string) (place, error) {
	u := strings.TrimRight(w.cfg.GeocodingURL, "/") + "/v1/get?" + url.Values{"id": {strconv.Itoa(id)}, "language": {lang}}.Encode()
	unknown := tool.NotFoundf("place_id", "use an id from the candidates list", "no place with id %d", id)
	resp, err := webapi.Get(ctx, w.client, webapi.Request{Service: "Open-Meteo geocoding", Field: "place_id", URL: u})
	if te, ok := tool.AsError(err); ok && te.Code == tool.CodeNotFound {
		return place{}, unknown
	}
	if err != nil {
		return place{}, err
	}
	var p place
	if err := json.Unmarshal(resp.Body, &p); err != nil || p.ID == 0 {
		return place{}, unknown
	}
	return p, nil
}

// ambiguous reports whether the matches name several real candidates: more
// than one match carries the asked name itself, they lie far apart, and
// the first is not plainly the one meant (a capital, or ten times the
// population of the next).
func ambiguous(ps []place, asked string) []place {
	var same []place
	for _, p := range ps {
		if sameName(p.Name, asked) {
			same = append(same, p)
		}
	}
	if len(same) < 2 {
		return nil
	}
	first := same[0]
	if first.Feature == "PPLC" {
		return nil
	}
	far := same[:1]
	for _, p := range same[1:] {
		if distanceKM(first, p) > 50 {
			far = append(far, p)
		}
	}
	if len(far) < 2 || (first.Population > 0 && first.Population >= 10*far[1].Population) {
		return nil
	}
	return far
}

// sameName compares names ignoring case and a Chinese administrative
// suffix (北京 matches 北京市).
func sameName(a, b string) bool {
	trim := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		for _, suf := range []string{"市", "县", "区", "省"} {
			s = strings.TrimSuffix(s, suf)
		}
		return s
	}
	return trim(a) == trim(b)
}

func distanceKM(a, b place) float64 {
	const r = 6371
	la1, la2 := a.Latitude*math.Pi/180, b.Latitude*math.Pi/180
	dla, dlo := la2-la1, (b.Longitude-a.Longitude)*math.Pi/180
	h := math.Sin(dla/2)*math.Sin(dla/2) + math.Cos(la1)*math.Cos(la2)*math.Sin(dlo/2)*math.Sin(dlo/2)
	return 2 * r * math.Asin(math.Sqrt(h))
}

func (p place) label() string {
	parts := []string{p.Name}
	if p.Admin1 != "" && p.Admin1 != p.Name {
		parts = append(parts, p.Admin1)
	}
	if p.Country != "" {
		parts = append(parts, p.Country)
	}
	return strings.Join(parts, ", ")
}

func (p place) String() string {
	return fmt.Sprintf("%s (%.4f, %.4f)", p.label(), p.Latitude, p.Longitude)
}
