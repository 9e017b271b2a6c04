package contract_test

import (
	"os"
	"strings"
	"testing"

	"github.com/clawbridge/clawbridge/internal/officetest"
	"github.com/clawbridge/clawbridge/tools/contract"
	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

func newTool(t *testing.T) (tool.Tool, *tool.Deps) {
	d := tooltest.Deps(t)
	return tooltest.Build(t, contract.New, d), d
}

// full field sets per template, for rendering every clause.
var samples = map[string]map[string]any{
	"house_lease": {"party_a_name": "张三", "party_b_name": "李四", "party_a_id": "110101199001011234", "property_address": "北京市朝阳区建国路88号1单元101室",
		"property_area": 89.5, "monthly_rent": 12000, "deposit": "24000", "start_date": "2026-03-01", "term_months": 12, "payment_day": 5, "contract_number": "HL-2026-001"},
	"labour": {"party_a_name": "北京某某科技有限公司", "party_b_name": "王五", "position": "软件工程师", "work_location": "北京", "monthly_salary": "25,000.50",
		"start_date": "2026-04-01", "term_months": 36, "probation_months": 6},
	"sale": {"party_a_name": "Acme Ltd", "party_b_name": "Beta LLC", "goods_name": "Laptop", "specification": "X1 14in", "quantity": 20, "unit": "units",
		"unit_price": "6999.99", "delivery_date": "2026-05-20", "delivery_place": "Shanghai warehouse", "warranty_months": 24},
	"services": {"party_a_name": "Acme Ltd", "party_b_name": "Dev Studio", "service_description": "Build a mobile app", "deliverables": "iOS and Android apps",
		"service_fee": 150000, "start_date": "2026-01-10", "end_date": "2026-06-30"},
	"nda": {"party_a_name": "Acme Ltd", "party_b_name": "Beta LLC", "purpose": "evaluating a joint venture", "effective_date": "2026-02-01", "term_years": 3, "penalty": 500000},
}

func TestEveryTemplateRenders(t *testing.T) {
	tl, d := newTool(t)
	res := tooltest.OK(t, tl, map[string]any{"action": "list_templates", "language": "zh"})
	if n := len(res.Data.(map[string]any)["templates"].([]map[string]any)); n != 5 {
		t.Fatalf("%d templates", n)
	}
	for _, typ := range contract.TypeIDs {
		for _, lang := range []string{"zh", "en"} {
			res, err := tooltest.Run(t, tl, map[string]any{"action": "generate", "contract_type": typ, "language": lang, "format": "md", "fields": samples[typ],
				"extra_clauses": []any{"Extra term X."}})
			if err != nil {
				t.Fatalf("%s/%s: %v", typ, lang, err)
			}
			b, _ := os.ReadFile(res.Files[0].Path)
			md := string(b)
			for _, bad := range []string{"<no value>", "{{", "%!"} {
				if strings.Contains(md, bad) {
					t.Errorf("%s/%s: output contains %q:\n%s", typ, lang, bad, md)
				}
			}
			if !strings.Contains(md, "not legal advice") && !strings.Contains(md, "不构成法律意见") {
				t.Errorf("%s/%s: no notice", typ, lang)
			}
			data := res.Data.(map[string]any)
			clauses := data["clauses"].([]map[string]string)
			if len(clauses) < 8 || clauses[len(clauses)-2]["id"] != "extra_1" {
				t.Errorf("%s/%s: clauses %v", typ, lang, clauses)
			}
			if lang == "zh" && !strings.Contains(md, "元整）") && !strings.Contains(md, "分）") && !strings.Contains(md, "角）") {
				t.Errorf("%s/zh: no capital numerals:\n%s", typ, md)
			}
		}
	}
	_ = d
}

func TestChineseLeaseContent(t *testing.T) {
	tl, _ := newTool(t)
	res := tooltest.OK(t, tl, map[string]any{"action": "generate", "contract_type": "house_lease", "format": "md", "fields": samples["house_lease"]})
	b, _ := os.ReadFile(res.Files[0].Path)
	md := string(b)
	for _, want := range []string{"# 房屋租赁合同", "合同编号：HL-2026-001", "第一条 房屋基本情况", "人民币12,000.00元（大写：人民币壹万贰仟元整）",
		"人民币24,000.00元（大写：人民币贰万肆仟元整）", "自2026年3月1日起至2027年2月28日止", "第十一条 其他", "建筑面积89.5平方米"} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in:\n%s", want, md)
		}
	}
	if res.Data.(map[string]any)["language"] != "zh" {
		t.Error("language not detected as zh")
	}
}

func TestValidation(t *testing.T) {
	tl, d := newTool(t)
	with := func(typ string, changes map[string]any) map[string]any {
		m := map[string]any{}
		for k, v := range samples[typ] {
			m[k] = v
		}
		for k, v := range changes {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		return m
	}
	cases := []struct {
		name string
		args map[string]any
		msg  []string
	}{
		{"missing several", map[string]any{"contract_type": "house_lease", "fields": map[string]any{"party_a_name": "A"}},
			[]string{"party_b_name", "property_address", "monthly_rent", "start_date", "term_months"}},
		{"unknown field", map[string]any{"contract_type": "nda", "fields": with("nda", map[string]any{"rent": 5})}, []string{"unknown field(s) for nda: rent"}},
		{"impossible date", map[string]any{"contract_type": "nda", "fields": with("nda", map[string]any{"effective_date": "2026-02-30"})}, []string{"effective_date", "not a valid calendar date"}},
		{"bad amount", map[string]any{"contract_type": "house_lease", "fields": with("house_lease", map[string]any{"monthly_rent": "12k"})}, []string{"monthly_rent", "not a number"}},
		{"three decimals", map[string]any{"contract_type": "house_lease", "fields": with("house_lease", map[string]any{"deposit": "100.005"})}, []string{"deposit", "more than two decimals"}},
		{"zero amount", map[string]any{"contract_type": "services", "fields": with("services", map[string]any{"service_fee": 0})}, []string{"service_fee must be greater than zero"}},
		{"end before start", map[string]any{"contract_type": "services", "fields": with("services", map[string]any{"end_date": "2025-12-31"})}, []string{"end_date 2025-12-31 must be after start_date 2026-01-10"}},
		{"term out of range", map[string]any{"contract_type": "house_lease", "fields": with("house_lease", map[string]any{"term_months": 0})}, []string{"term_months", "allowed range 1 to 240"}},
		{"fractional term", map[string]any{"contract_type": "house_lease", "fields": with("house_lease", map[string]any{"term_months": 1.5})}, []string{"whole number"}},
		{"probation too long", map[string]any{"contract_type": "labour", "fields": with("labour", map[string]any{"term_months": 12, "probation_months": 3})}, []string{"probation_months 3", "limit is 2"}},
		{"probation short contract", map[string]any{"contract_type": "labour", "fields": with("labour", map[string]any{"term_months": 2, "probation_months": 1})}, []string{"limit is 0"}},
		{"omit unknown", map[string]any{"contract_type": "nda", "fields": samples["nda"], "omit_clauses": []any{"nope"}}, []string{"no clause \"nope\""}},
		{"missing type", map[string]any{"fields": samples["nda"]}, []string{"contract_type"}},
		{"bad type", map[string]any{"contract_type": "will", "fields": samples["nda"]}, []string{"not allowed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := map[string]any{"action": "generate", "format": "md"}
			for k, v := range c.args {
				args[k] = v
			}
			te := tooltest.Refused(t, tl, args)
			for _, m := range c.msg {
				if !strings.Contains(te.Message, m) {
					t.Errorf("%q lacks %q", te.Message, m)
				}
			}
		})
	}
	if entries, _ := os.ReadDir(d.Sandbox.Root() + "/outputs"); len(entries) != 0 {
		t.Errorf("failed calls wrote files: %v", entries)
	}
}

func TestDocxAndPDFReadBack(t *testing.T) {
	officetest.Require(t, "soffice", "pdftotext", "pdfinfo")
	tl, _ := newTool(t)
	res := tooltest.OK(t, tl, map[string]any{"action": "generate", "contract_type": "house_lease", "format": "docx", "fields": samples["house_lease"], "output": "lease.docx"})
	res2 := tooltest.OK(t, tl, map[string]any{"action": "generate", "contract_type": "nda", "format": "docx", "fields": samples["nda"], "output": "nda.docx"})
	pdfs := officetest.ToPDF(t, res.Files[0].Path, res2.Files[0].Path)
	officetest.Keep(t, pdfs...)
	text := officetest.Text(t, pdfs[0])
	officetest.InOrder(t, text, "房屋租赁合同", "出租方（甲方）：张三", "承租方（乙方）：李四", "第一条 房屋基本情况", "北京市朝阳区建国路88号1单元101室",
		"第三条 租金及支付方式", "人民币12,000.00元（大写：人民币壹万贰仟元整）", "第十一条 其他", "签署", "张三", "李四", "本合同由模板自动生成，仅供参考，不构成法律意见")
	officetest.Validate(t, pdfs[0])
	text = officetest.Text(t, pdfs[1])
	officetest.InOrder(t, text, "Non-Disclosure Agreement", "Party A: Acme Ltd", "1. Confidential Information", "evaluating a joint venture",
		"5. Term", "February 1, 2026", "January 31, 2029", "CNY 500,000.00", "Signatures", "not legal advice")

	// PDF output directly.
	res3 := tooltest.OK(t, tl, map[string]any{"action": "generate", "contract_type": "labour", "language": "zh", "format": "pdf", "fields": samples["labour"]})
	pdf := res3.Files[0].Path
	if !strings.HasSuffix(pdf, ".pdf") || res3.Files[0].MIME != "application/pdf" {
		t.Fatalf("file %+v", res3.Files[0])
	}
	officetest.Validate(t, pdf)
	text = officetest.Text(t, pdf)
	officetest.InOrder(t, text, "劳动合同", "第一条 合同期限", "自2026年4月1日起至2029年3月31日止", "第二条 试用期", "软件工程师",
		"人民币25,000.50元（大写：人民币贰万伍仟元伍角）")
	if n := officetest.Pages(t, pdf); n < 1 || n > 4 {
		t.Errorf("pages = %d", n)
	}
}
