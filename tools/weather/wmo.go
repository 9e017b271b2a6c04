package weather

// wmoWords are the WMO 4677 present-weather codes Open-Meteo reports in
// weather_code, in English and Chinese (Open-Meteo's documented subset).
var wmoWords = map[int][2]string{
	0:  {"clear sky", "晴"},
	1:  {"mainly clear", "晴间少云"},
	2:  {"partly cloudy", "多云"},
	3:  {"overcast", "阴"},
	45: {"fog", "雾"},
	48: {"depositing rime fog", "雾凇"},
	51: {"light drizzle", "小毛毛雨"},
	53: {"moderate drizzle", "毛毛雨"},
	55: {"dense drizzle", "大毛毛雨"},
	56: {"light freezing drizzle", "小冻毛毛雨"},
	57: {"dense freezing drizzle", "冻毛毛雨"},
	61: {"slight rain", "小雨"},
	63: {"moderate rain", "中雨"},
	65: {"heavy rain", "大雨"},
	66: {"light freezing rain", "小冻雨"},
	67: {"heavy freezing rain", "冻雨"},
	71: {"slight snow fall", "小雪"},
	73: {"moderate snow fall", "中雪"},
	75: {"heavy snow fall", "大雪"},
	77: {"snow grains", "米雪"},
	80: {"slight rain showers", "小阵雨"},
	81: {"moderate rain showers", "阵雨"},
	82: {"violent rain showers", "强阵雨"},
	85: {"slight snow showers", "小阵雪"},
	86: {"heavy snow showers", "强阵雪"},
	95: {"thunderstorm", "雷阵雨"},
	96: {"thunderstorm with slight hail", "雷阵雨伴有小冰雹"},
	99: {"thunderstorm with heavy hail", "雷阵雨伴有大冰雹"},
}

// describe is the words for code in lang ("zh" or "en").
func describe(code int, lang string) string {
	w, ok := wmoWords[code]
	if !ok {
		if lang == "zh" {
			return "未知天气代码"
		}
		return "unknown weather code"
	}
	if lang == "zh" {
		return w[1]
	}
	return w[0]
}
