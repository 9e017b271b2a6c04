package exposure

import "testing"

var benchQueries = map[string]string{
	"zh":    "把今天的天气和几张图片组装成一份文档，再发邮件给张经理",
	"en":    "remove duplicate rows from customers.csv, plot revenue by month and email the chart",
	"vague": "嗯...那个...帮我弄一下那个",
	// one-task requests: no connective, no clause work
	"zh1": "帮我把这三个PDF合并成一个",
	"en1": "plot revenue by month from customers.csv as a bar chart",
}

func BenchmarkDetect(b *testing.B) {
	d := liveRouter(b, Config{}).Detector()
	for _, lang := range []string{"zh", "en", "vague", "zh1", "en1"} {
		q := benchQueries[lang]
		b.Run(lang, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = d.Detect(q)
			}
		})
	}
}

func BenchmarkDetectSeed(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = DetectSeed(benchQueries["zh"])
	}
}

func BenchmarkRoute(b *testing.B) {
	r := liveRouter(b, Config{})
	b.ReportAllocs()
	for b.Loop() {
		_ = r.Route(benchQueries["zh"])
	}
}

// BenchmarkView measures a session's tools/list answer: the cached view.
func BenchmarkView(b *testing.B) {
	r := liveRouter(b, Config{})
	s := r.NewSession(ModeTiered)
	s.Route("合并这三个PDF")
	b.ReportAllocs()
	for b.Loop() {
		_ = s.View()
	}
}

// BenchmarkNewRouter_Texts is the router's share of a cold start: the
// embedded tables (loaded once per process) with the registry's texts laid
// over the catalog, as server.newRouter builds it.
func BenchmarkNewRouter_Texts(b *testing.B) {
	tb := DefaultTables()
	var texts []ToolText
	for _, ti := range tb.Catalog {
		texts = append(texts, ToolText{Name: ti.Name, Description: ti.Description + " x", Examples: ti.Examples})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewRouter(Config{Texts: texts}); err != nil {
			b.Fatal(err)
		}
	}
}
