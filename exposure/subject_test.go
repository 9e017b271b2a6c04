package exposure

import (
	"slices"
	"strings"
	"testing"
)

func TestSubject_Spans(t *testing.T) {
	n := &normalizer{t2s: sharedDefaultTables().T2S}
	for q, want := range map[string][]string{
		"write a resume for a junior data analyst with Python and SQL": {"junior data analyst with python and sql"},
		"add a stamp to the lease PDF":                                 {"lease pdf"},
		"send a message to the team on telegram":                       {"team"},
		"a study plan for the GRE and put the sessions in my calendar": {"gre"},
		"write a poem about spring, then email it":                     {"spring"},
		"做一份关于新能源汽车的汇报":                                                {"新能源汽车"},
		"把扫描件里第3到第5页拆出来":                                               {"扫描件里"},
		"给合同PDF加上页码":                                                   {"合同pdf"},
		"再把金额记到账本里":                                                    nil, // a destination, not a container
		"convert it to a pdf":                                          nil, // the output, not the subject
		"the candy handout":                                            nil,
	} {
		norm := n.appendNormal(nil, q)
		var got []string
		for _, sp := range subjectSpans(norm, nil) {
			got = append(got, strings.TrimSpace(string(norm[sp[0]:sp[1]])))
		}
		if !slices.Equal(got, want) {
			t.Errorf("subjectSpans(%q) = %q, want %q", q, got, want)
		}
	}
}

// What an artefact is about, or the existing thing a task works on, does
// not outweigh the words that name the task: variants of the token
// requests' misroutings in both languages, none of them the requests
// themselves.
func TestSubject_TaskOutweighsSubject(t *testing.T) {
	r := liveRouter(t, Config{})
	for q, c := range map[string]struct{ first, not string }{
		"write a cover letter for a senior database administrator": {"ai_writer", "db_query"},
		"draft a resume for a machine learning engineer with SQL":  {"resume_builder", "db_query"},
		"add a stamp to the lease agreement PDF":                   {"pdf_tool", "contract_generator"},
		"给合同PDF加上页码和水印":                                            {"pdf_tool", "contract_generator"},
		"把扫描件里第2页删掉":                                               {"pdf_tool", "ocr"},
		"从这份报表里把第5到第8页拆出来":                                         {"pdf_tool", "financial_report"},
		"write a poem about the database":                          {"ai_writer", "db_query"},
	} {
		d := r.Route(q)
		rec := d.Recommended()
		if d.Tier != TierRecommended || len(rec) == 0 || rec[0] != c.first || slices.Contains(rec, c.not) {
			t.Errorf("%q: tier %s, recommended %v; want %s first and not %s", q, d.Tier, rec, c.first, c.not)
		}
	}
}

// A subject that is the only thing the request names is still its task.
func TestSubject_OnlySubjectStillRoutes(t *testing.T) {
	r := liveRouter(t, Config{})
	for q, want := range map[string]string{
		"tell me about the weather in Paris": "weather",
		"关于数据库的备份":                           "db_query",
	} {
		if rec := r.Route(q).Recommended(); !slices.Contains(rec, want) {
			t.Errorf("%q: recommended %v, want %s", q, rec, want)
		}
	}
}

// A file's extension names an input: it brings the tools that read it,
// not the one that makes that format ("纪要.docx" is not a Word document
// to generate).
func TestSubject_ExtensionIsInput(t *testing.T) {
	r := liveRouter(t, Config{})
	for _, q := range []string{"把周报.docx转成PDF", "convert minutes.docx to pdf and send it to everyone", "rename notes_v2.docx to notes.docx"} {
		d := r.Route(q)
		if slices.Contains(d.Recommended(), "doc_generator") {
			t.Errorf("%q: recommended %v, doc_generator makes .docx but the request reads one", q, d.Recommended())
		}
	}
	// Naming the format as the output still brings its maker.
	if rec := r.Route("generate a word document from these notes").Recommended(); !slices.Contains(rec, "doc_generator") {
		t.Errorf("word as the output: recommended %v, want doc_generator", rec)
	}
}

// A clause inside the subject ("... with python and sql") is not a task of
// its own; one after it is.
func TestSubject_ClauseInsideSubject(t *testing.T) {
	r := liveRouter(t, Config{})
	d := r.Route("write a one-page resume for a junior backend developer with Go and SQL")
	if slices.Contains(d.Recommended(), "db_query") {
		t.Errorf("list item inside the subject recommended: %v", d.Recommended())
	}
	d = r.Route("generate a study plan for the GRE over 6 weeks and put the sessions in my calendar")
	if !slices.Contains(d.Recommended(), "calendar") {
		t.Errorf("a task after the subject lost: %v", d.Recommended())
	}
}
