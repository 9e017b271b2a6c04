package exposure

import (
	"reflect"
	"slices"
	"testing"
)

func TestDetectTable(t *testing.T) {
	cases := []struct {
		name, q, primary, tool string
		also                   string // a further intent that must be detected
		minConf                float64
	}{
		// Chinese
		{"zh pdf merge", "帮我把这几份PDF合成一个文件", "document_processing", "pdf_tool", "", 0.8},
		{"zh weather", "周六杭州会不会下雨", "daily_assistant", "weather", "", 0.8},
		{"zh contract", "拟一份劳动合同，试用期三个月", "professional_docs", "contract_generator", "", 0.8},
		{"zh chart", "用饼图展示各渠道的占比", "data_analysis", "data_visualization", "", 0.8},
		{"zh db", "数据库里今天有多少新订单", "data_analysis", "db_query", "", 0.8},
		{"zh reminder", "下午三点提醒我开会", "daily_assistant", "cron", "", 0.8},
		{"zh email", "帮我给人事写封邮件请假", "email_task", "email", "", 0.8},
		// English
		{"en slides", "put together a slide deck on our roadmap", "document_processing", "ppt_generator", "", 0.8},
		{"en resume", "update my CV with the new job", "professional_docs", "resume_builder", "", 0.8},
		{"en journal", "write in my diary that I finished the marathon", "life_management", "diary", "", 0.8},
		{"en ocr", "recognize the text in this scanned image", "multimedia", "ocr", "", 0.8},
		{"en papers", "find peer-reviewed papers about protein folding", "research", "literature_search", "", 0.8},
		{"en system", "which process is eating all the memory", "system_admin", "system", "", 0.8},
		// Mixed
		{"mixed pdf", "把 report.pdf 加密 with password 1234", "document_processing", "pdf_tool", "", 0.8},
		{"mixed chart", "用 matplotlib 风格画一个 bar chart", "data_analysis", "data_visualization", "", 0.8},
		{"mixed slack", "在 Slack 的 #dev 频道发个消息", "email_task", "notify", "", 0.8},
		// Traditional Chinese
		{"zh-Hant pdf", "把這兩個PDF檔案合併", "document_processing", "pdf_tool", "", 0.8},
		{"zh-Hant slides", "幫我做一份產品簡報", "document_processing", "ppt_generator", "", 0.8},
		{"zh-Hant db", "查詢資料庫裡的用戶數", "data_analysis", "db_query", "", 0.8},
		{"zh-Hant calendar", "把明天的會議加到行事曆", "daily_assistant", "calendar", "", 0.8},
		{"zh-Hant resume", "幫我寫一份履歷", "professional_docs", "resume_builder", "", 0.8},
		// Vocabulary families: chart types, database names, Taiwan terms,
		// relative times, writing genres
		{"zh chart type", "把销量做成柱形图", "data_analysis", "data_visualization", "", 0.8},
		{"zh prod db", "去生产库查一下失败的订单", "data_analysis", "db_query", "", 0.8},
		{"zh-Hant code", "幫我把這段程式碼排版一下", "development", "coding_assistant", "", 0.8},
		{"zh-Hant id photo", "用相片做一張大頭照", "creative_content", "id_photo", "", 0.8},
		{"zh-Hant weather", "明天的氣象如何", "daily_assistant", "weather", "", 0.8},
		{"zh-Hant study plan", "幫我排一個讀書計畫", "education", "education_tool", "", 0.8},
		{"zh timer", "10分钟后叫我", "daily_assistant", "cron", "", 0.8},
		{"zh draft", "帮我写个初稿", "creative_content", "ai_writer", "", 0.8},
		{"en timer", "set a timer for 25 minutes", "daily_assistant", "cron", "", 0.8},
		{"en 1:1", "book a one-on-one with my manager next Tuesday", "daily_assistant", "calendar", "", 0.8},
		// Several intents in one request
		{"multi weather+notify", "看看明天上海天气，再用钉钉通知团队", "daily_assistant", "weather", "email_task", 0.8},
		{"multi ocr+doc", "识别扫描件里的文字，整理成Word文档", "", "ocr", "document_assembly", 0.8},
		{"multi chart+email", "plot the sales by month and email the chart to my boss", "", "data_visualization", "email_task", 0.8},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := liveDetect(t, c.q)
			if c.primary != "" && d.Primary != c.primary {
				t.Errorf("primary = %q, want %q (%+v)", d.Primary, c.primary, d)
			}
			if !slices.Contains(d.Tools, c.tool) {
				t.Errorf("tools = %v, want %s among them (%+v)", d.Tools, c.tool, d.Matched)
			}
			if c.also != "" && !slices.Contains(d.Intents, c.also) {
				t.Errorf("intents = %v, want %s too (%+v)", d.Intents, c.also, d.Matched)
			}
			if d.Confidence < c.minConf {
				t.Errorf("confidence = %.2f, want >= %.2f (%+v)", d.Confidence, c.minConf, d.Matched)
			}
		})
	}
}

func TestDetectVague(t *testing.T) {
	for _, q := range []string{"", "   ", "帮个忙", "help", "Help!", "你好", "您好啊", "do something", "嗯...那个...帮我弄一下那个",
		"hi", "hello there", "在吗", "謝謝", "can you help me with something?", "ok", "？？？", "帮我弄一下",
		"你好，叫我小李就行", "很高兴见面", "ok sounds good"} {
		d := liveDetect(t, q)
		if d.Confidence != 0 || len(d.Intents) != 0 || d.Primary != "" {
			t.Errorf("Detect(%q) = %+v, want confidence 0 and no intents", q, d)
		}
		r := liveRouter(t, Config{})
		if dec := r.Route(q); dec.Tier != TierFull || len(dec.Tools) != len(catalogNames) {
			t.Errorf("Route(%q): tier %s with %d tools, want full with all", q, dec.Tier, len(dec.Tools))
		}
	}
}

func TestDetectSpecificOverGeneric(t *testing.T) {
	// "数据库" is a database, not generic "数据"; words in file names and
	// URLs are not topic words.
	d := liveDetect(t, "数据库")
	if !slices.Equal(d.Tools, []string{"db_query"}) {
		t.Errorf("数据库: tools %v", d.Tools)
	}
	d = liveDetect(t, "rename report_final_v2.docx to report.docx")
	if d.Primary != "file_operation" {
		t.Errorf("file-name words counted: %+v", d)
	}
	// "rag" inside "storage" is no match; "exam" inside "example" neither.
	if d := liveDetect(t, "storage example"); len(d.Intents) != 0 {
		t.Errorf("substring of a word matched: %+v", d)
	}
	// Plural and -ing forms match the keyword.
	if d := liveDetect(t, "merging pdfs"); d.Primary != "document_processing" {
		t.Errorf("inflection: %+v", d)
	}
	// English endings: a silent e dropped before -ing ("merge" ->
	// "merging"), a doubled final consonant ("run" -> "running"), and a
	// prefix keyword's plural that is also a keyword of its own ("file*" in
	// "files" next to "index+files") still count for every keyword using
	// them; "word" in "words" is not MS Word.
	for _, c := range []struct{ q, intent, kw string }{
		{"merging the two pdfs", "document_processing", "merge+pdf*"},
		{"running the command twice", "system_admin", "run+command"},
		{"list all files", "file_operation", "list+file*"},
		{"scheduling a meeting with Bob", "daily_assistant", "schedule+meeting"},
	} {
		d := liveDetect(t, c.q)
		if !slices.Contains(d.Matched[c.intent], c.kw) {
			t.Errorf("Detect(%q): %s matched %v, want %q", c.q, c.intent, d.Matched[c.intent], c.kw)
		}
	}
	if d := liveDetect(t, "count the words in notes.txt"); slices.Contains(d.Intents, "document_assembly") {
		t.Errorf("\"words\" matched \"word\": %+v", d.Matched)
	}
	// The -ing stem only matches before -ing: "merg" alone is nothing.
	if d := liveDetect(t, "merg pdf"); slices.Contains(d.Matched["document_processing"], "merge+pdf*") {
		t.Errorf("stem without -ing matched: %+v", d.Matched)
	}
}

func TestDetectDeterministic(t *testing.T) {
	q := "把 sales_data.xlsx 转成 PDF 并加个柱状图，然后发邮件给老板"
	first := liveDetect(t, q)
	for range 50 {
		if d := liveDetect(t, q); !reflect.DeepEqual(d, first) {
			t.Fatalf("nondeterministic: %+v vs %+v", d, first)
		}
	}
}

func TestLanguage(t *testing.T) {
	for q, want := range map[string]string{
		"合并这三个PDF": "zh",
		"把 sales_data.xlsx 转成 PDF 并加个柱状图": "zh",
		"OCR this scanned receipt":        "en",
		"run `git status`":                "en",
		"":                                "en",
		"幫我做簡報":                           "zh",
	} {
		if got := Language(q); got != want {
			t.Errorf("Language(%q) = %s, want %s", q, got, want)
		}
	}
}

func FuzzDetect(f *testing.F) {
	for _, s := range []string{"合并这三个PDF", "open https://example.com", "帮个忙", "", "merge+pdf*", "\xff\xfe", "ＰＤＦ　轉換", "a.b.c.docx", "https://", "数据库数据库数据库"} {
		f.Add(s)
	}
	r := liveRouter(f, Config{})
	f.Fuzz(func(t *testing.T, s string) {
		d := r.Detector().Detect(s)
		if d.Confidence < 0 || d.Confidence > 1 {
			t.Fatalf("confidence %v out of range for %q", d.Confidence, s)
		}
		if (len(d.Intents) == 0) != (d.Primary == "") || (d.Primary != "" && d.Intents[0] != d.Primary) {
			t.Fatalf("primary %q vs intents %v", d.Primary, d.Intents)
		}
		if len(d.Intents) == 0 && d.Confidence != 0 {
			t.Fatalf("confidence %v without intents", d.Confidence)
		}
		for _, v := range d.Scores {
			if v < 0 || v > 1 {
				t.Fatalf("score %v out of range", v)
			}
		}
		dec := r.Route(s)
		seen := map[string]bool{}
		for _, v := range dec.Tools {
			if seen[v.Name] {
				t.Fatalf("duplicate %s in view", v.Name)
			}
			seen[v.Name] = true
		}
		for _, c := range []string{"file", "shell", "search", "web_fetch"} {
			if !seen[c] {
				t.Fatalf("core tool %s missing", c)
			}
		}
	})
}

func TestDetectLongText(t *testing.T) {
	long := ""
	for len(long) < 200000 {
		long += "合并这三个PDF，然后 convert report.docx to PDF 并画一个柱状图。"
	}
	d := liveDetect(t, long)
	if d.Primary == "" || d.Confidence <= 0 || d.Confidence > 1 {
		t.Fatalf("long text: %+v", d)
	}
}

// TestDetectVocabulary_TrendMeansChart: a request whose only chart cue is a
// trend word (either language, traditional too) reaches the chart tool; a
// drawing request without data does not.
func TestDetectVocabulary_TrendMeansChart(t *testing.T) {
	d := liveRouter(t, Config{}).Detector()
	for _, q := range []string{
		"把近半年的用户增长画出来，看看走势",
		"畫出來看看走勢",
		"看看销量的走向",
		"画一下温度曲线",
		"show me how signups changed over time",
		"what is the trajectory of our churn",
		"add a trend line to the revenue numbers",
	} {
		det := d.Detect(q)
		if len(det.Tools) == 0 || !slices.Contains(det.Tools, "data_visualization") {
			t.Errorf("%q: tools %v, want data_visualization", q, det.Tools)
		}
	}
	if det := d.Detect("把这只猫画出来"); slices.Contains(det.Tools, "data_visualization") {
		t.Errorf("a drawing of a cat is not a chart: %v", det.Tools)
	}
}

// A generic word that a specific phrase of another tool is made of is
// explained by that phrase: "画" in a chart's "画+分布" is not a drawing,
// "文字" in OCR's "图片+文字" not a text to write.
func TestExplainedWord_NotEvidenceForAnotherTool(t *testing.T) {
	r := liveRouter(t, Config{})
	for q, c := range map[string]struct{ first, not string }{
		"用柱状图画出今年各季度的销量变化": {"data_visualization", "image_generator"},
		"画出各城市的人口分布":       {"data_visualization", "image_generator"},
		"帮我画一下近五年房价的走势":    {"data_visualization", "image_generator"},
		"提取发票图片上的文字":       {"ocr", "ai_writer"},
	} {
		d := r.Route(q)
		rec := d.Recommended()
		if len(rec) == 0 || rec[0] != c.first || slices.Contains(rec, c.not) || slices.Contains(d.Detection.Tools, c.not) {
			t.Errorf("%q: recommended %v, detected tools %v; want %s first, %s neither recommended nor named", q, rec, d.Detection.Tools, c.first, c.not)
		}
	}
	// The word on its own still counts.
	if rec := r.Route("画一张海报").Recommended(); !slices.Contains(rec, "image_generator") {
		t.Errorf("画一张海报: recommended %v, want image_generator", rec)
	}
}
