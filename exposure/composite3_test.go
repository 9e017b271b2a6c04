package exposure

import (
	"slices"
	"testing"
)

// Regression tests for the classes of composite3's blind misses
// (testdata/heldout/README.md), on variant sentences of our own: the
// mechanism is what is tested, not the set's sentences.

// A clause can name two tasks without a connective ("写个 summary 发
// email"): every intent with evidence of its own in the clause gives its
// best tool.
func TestComposite3_ClauseNotSplit(t *testing.T) {
	r := liveRouter(t, Config{})
	assertInView(t, r, map[string][]string{
		"查一下北京这周的空气质量，写个简短的说明发邮件给 team@corp.cn":                                 {"ai_writer", "email"},
		"look up the exchange rate, write a short note email it to ann@corp.io": {"ai_writer", "email"},
	})
}

// A clause whose best tool an earlier clause already gave still gives its
// other task's tool ("搜…论文，挑五篇写个综述": the review is writing).
func TestComposite3_RepeatedToolClauseGivesItsOther(t *testing.T) {
	r := liveRouter(t, Config{})
	assertInView(t, r, map[string][]string{"帮我找几篇联邦学习的论文，挑三篇写个综述": {"literature_search", "ai_writer"}})
	d := r.Route("帮我找几篇联邦学习的论文，挑三篇写个综述")
	if !slices.Contains(d.Recommended(), "ai_writer") {
		t.Errorf("the second clause's task is not recommended: %v (clauses %s)", d.Recommended(), clauseList(d))
	}
}

// An e-mail address says where a result goes: it adds the mail tool, and
// its domain is not a web word ("x@shop.com" is no website).
func TestComposite3_AddressSignal(t *testing.T) {
	r := liveRouter(t, Config{})
	assertInView(t, r, map[string][]string{
		"把这份周报转成 PDF，然後寄到 amy@example.org":                              {"email"},
		"convert notes.md to html and shoot it over to bob@corp.io":     {"email"},
		"mak a collage from the pics in /trip and snd it to li@mail.cn": {"email"},
	})
	d := liveDetect(t, "forward the draft to sales@shop.com")
	if _, ok := d.Matched["browser_automation"]; ok {
		t.Errorf("an address's domain counted as a web word: %v", d.Matched)
	}
	for s, want := range map[string]bool{"to a@b.io": true, "a@b": false, "@team ping": false, "x@y.com.": true} {
		if got := hasAddress([]byte(s)); got != want {
			t.Errorf("hasAddress(%q) = %v, want %v", s, got, want)
		}
	}
}

// A clock time is a schedule ("a push at 7am" runs at 7am): it adds the
// scheduler.
func TestComposite3_ClockTimeSignal(t *testing.T) {
	r := liveRouter(t, Config{})
	assertInView(t, r, map[string][]string{
		"look up the air quality in paris and push it to my phone via ntfy at 6:30": {"cron"},
		"查一下明天的汇率，早上8点推送到钉钉群":                                                       {"cron"},
	})
	for s, want := range map[string]bool{
		"at 7am": true, "at 7 pm": true, "8:30": true, "7点": true, "早上8点半": true, "at 9": true,
		"merge 3 pdfs": false, "16:9 ratio": false, "2026年": false, "at 100 rows": false, "at 5 places": false, "at 3 sites in the report": false, "50点": false, "at 7 tomorrow": true, "amp 7amps": false,
	} {
		if got := hasClockTime([]byte(s)); got != want {
			t.Errorf("hasClockTime(%q) = %v, want %v", s, got, want)
		}
	}
}

// Artefact words: a card, an infographic, a picture point at the image
// tool; a PDF made from something (a poster) can be pdf_tool's as well as
// the converter's.
func TestComposite3_ArtefactWords(t *testing.T) {
	r := liveRouter(t, Config{})
	assertInView(t, r, map[string][]string{
		"把本周的销售数据汇总一下，做成一张信息图":                                                 {"image_generator"},
		"查下广州明天的天气，弄成卡片发群里":                                                    {"weather", "image_generator"},
		"design a flyer for the book club and export it as a pdf for printing": {"image_generator", "pdf_tool"},
	})
}

// Text in quotes is content (a watermark's text, a title), not the task;
// a watermark goes on an image as well as a PDF.
func TestComposite3_QuotesAndWatermark(t *testing.T) {
	r := liveRouter(t, Config{})
	assertInView(t, r, map[string][]string{"截个图，然后加上“机密”两个字的水印": {"screen", "image_generator"}})
	if d := liveDetect(t, `rename the page title to "weather report"`); slices.Contains(d.Intents, "daily_assistant") {
		t.Errorf("quoted words counted: %v", d.Matched)
	}
	if d := liveDetect(t, "给 PDF 每页加个“内部资料”水印"); d.Primary != "document_processing" || d.Tools[0] != "pdf_tool" {
		t.Errorf("a PDF watermark is pdf_tool's: %v %v", d.Primary, d.Tools)
	}
}

// assertInView checks that each request's view holds the tools it maps to.
func assertInView(t *testing.T, r *Router, cases map[string][]string) {
	t.Helper()
	for q, want := range cases {
		d := r.Route(q)
		for _, w := range want {
			if !slices.Contains(d.Names(), w) {
				t.Errorf("%q: %s not in view %v (signals %v, clauses %s)", q, w, d.Names(), d.Detection.Signals, clauseList(d))
			}
		}
	}
}

// A keyword typed with an inner vowel or one of a doubled letter missing,
// or two neighbours swapped, still counts; common real words one letter
// away from a keyword do not ("contact" is not "contract", "order" not
// "orders").
func TestComposite3_Typos(t *testing.T) {
	r := liveRouter(t, Config{})
	for q, want := range map[string][]string{
		"whats the weathr in oslo and remidn me at 9 to call mum": {"weather", "cron"},
		"zip the logs folder and emali it to ops@corp.io":         {"email"},
		"make a scater plot of price vs size":                     {"data_visualization"},
	} {
		assertInView(t, r, map[string][]string{q: want})
		if d := r.Route(q); d.Tier == TierFull {
			t.Errorf("%q: typos left the full tier", q)
		}
	}
	if d := liveDetect(t, "fill out the contact form"); slices.Contains(d.Intents, "professional_docs") {
		t.Errorf("contact counted as contract: %v", d.Matched)
	}
	for _, w := range []string{"contact", "order", "media", "reference"} {
		if ids := liveRouter(t, Config{}).Detector().typo[w]; len(ids) > 0 {
			t.Errorf("the real word %q is a typo of a keyword", w)
		}
	}
	d := liveDetect(t, "emial the report")
	if _, ok := d.Matched["email_task"]; !ok {
		t.Errorf("emial: %v", d.Matched)
	}
}

// The first task's words: recognising a picture's text ("认出来"), a
// service that is down or to restart, filling in a form on a page (填…表),
// the text from a PDF name the first tool, which is recommended.
func TestComposite3_FirstToolVocabulary(t *testing.T) {
	r := liveRouter(t, Config{})
	for q, want := range map[string]string{
		"把 receipt_0812.png 上的字认出来，再记到账本里":                        "ocr",
		"see which services are down on the box and restart them": "system",
		"帮我在 https://signup.example.cn 填一下登记表，然后提醒我周五交材料":         "browser_use",
		"copy the text from handout.pdf turn it into flashcards":  "pdf_tool",
	} {
		if d := r.Route(q); !slices.Contains(d.Recommended(), want) {
			t.Errorf("%q: %s not recommended: %v (clauses %s)", q, want, d.Recommended(), clauseList(d))
		}
	}
}
