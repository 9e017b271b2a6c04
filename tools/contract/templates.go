package contract

import (
	"embed"
	"fmt"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// The templates are data: one YAML file per contract type holding the
// field list and the clauses in Chinese and English (Go text/template).
//
//go:embed templates/*.yaml
var templateFS embed.FS

type i18n struct {
	ZH string `yaml:"zh"`
	EN string `yaml:"en"`
}

func (s i18n) in(lang string) string {
	if lang == "zh" {
		return s.ZH
	}
	return s.EN
}

type fieldDef struct {
	Name     string   `yaml:"name"`
	ZH       string   `yaml:"zh"`
	EN       string   `yaml:"en"`
	Type     string   `yaml:"type"` // text, amount, date, int, number
	Required bool     `yaml:"required"`
	Min      *float64 `yaml:"min"`
	Max      *float64 `yaml:"max"`
	Default  *i18n    `yaml:"default"`
}

func (f fieldDef) label(lang string) string { return i18n{ZH: f.ZH, EN: f.EN}.in(lang) }

type clauseDef struct {
	ID    string `yaml:"id"`
	Title string `yaml:"title"`
	Text  string `yaml:"text"`
	When  string `yaml:"when"` // included only when this field is given
}

type templateDef struct {
	ID          string `yaml:"id"`
	Title       i18n   `yaml:"title"`
	Description i18n   `yaml:"description"`
	Parties     struct {
		A i18n `yaml:"a"`
		B i18n `yaml:"b"`
	} `yaml:"parties"`
	Fields  []fieldDef `yaml:"fields"`
	Clauses struct {
		ZH []clauseDef `yaml:"zh"`
		EN []clauseDef `yaml:"en"`
	} `yaml:"clauses"`
}

func (t *templateDef) clauses(lang string) []clauseDef {
	if lang == "zh" {
		return t.Clauses.ZH
	}
	return t.Clauses.EN
}

// commonFields apply to every template: the parties and a few settings.
func commonFields(t *templateDef) []fieldDef {
	ptr := func(f float64) *float64 { return &f }
	_ = ptr
	a, b := t.Parties.A, t.Parties.B
	party := func(p string, role i18n, required bool) []fieldDef {
		return []fieldDef{
			{Name: "party_" + p + "_name", ZH: role.ZH + "名称/姓名", EN: role.EN + " name", Type: "text", Required: required},
			{Name: "party_" + p + "_id", ZH: role.ZH + "证件号码/统一社会信用代码", EN: role.EN + " ID or registration number", Type: "text"},
			{Name: "party_" + p + "_address", ZH: role.ZH + "地址", EN: role.EN + " address", Type: "text"},
			{Name: "party_" + p + "_phone", ZH: role.ZH + "联系电话", EN: role.EN + " phone", Type: "text"},
			{Name: "party_" + p + "_representative", ZH: role.ZH + "法定代表人/委托代理人", EN: role.EN + " representative", Type: "text"},
		}
	}
	out := append(party("a", a, true), party("b", b, true)...)
	out = append(out,
		fieldDef{Name: "currency", ZH: "币种", EN: "Currency", Type: "text", Default: &i18n{ZH: "CNY", EN: "CNY"}},
		fieldDef{Name: "governing_law", ZH: "适用法律", EN: "Governing law", Type: "text", Default: &i18n{ZH: "中华人民共和国法律", EN: "the laws of the People's Republic of China"}},
		fieldDef{Name: "contract_number", ZH: "合同编号", EN: "Contract number", Type: "text"},
		fieldDef{Name: "sign_place", ZH: "签订地点", EN: "Place of signing", Type: "text"},
		fieldDef{Name: "sign_date", ZH: "签订日期", EN: "Date of signing", Type: "date"},
	)
	return out
}

// TypeIDs are the contract types in a stable order.
var TypeIDs = []string{"house_lease", "labour", "sale", "services", "nda"}

// templates are parsed on first use, not at start (2 ms of every cold
// start); the list_templates tests parse every one.
var templates = sync.OnceValues(loadTemplates)

func loadTemplates() (map[string]*templateDef, error) {
	entries, err := templateFS.ReadDir("templates")
	if err != nil {
		return nil, err
	}
	out := map[string]*templateDef{}
	for _, e := range entries {
		raw, err := templateFS.ReadFile("templates/" + e.Name())
		if err != nil {
			return nil, err
		}
		var t templateDef
		if err := yaml.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("template %s: %w", e.Name(), err)
		}
		if len(t.Clauses.ZH) == 0 || len(t.Clauses.EN) == 0 {
			return nil, fmt.Errorf("template %s: clauses in zh and en are required", e.Name())
		}
		t.Fields = append(commonFields(&t), t.Fields...)
		out[t.ID] = &t
	}
	var ids []string
	for id := range out {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	want := append([]string(nil), TypeIDs...)
	sort.Strings(want)
	if strings.Join(ids, ",") != strings.Join(want, ",") {
		return nil, fmt.Errorf("templates: have %v, want %v", ids, want)
	}
	return out, nil
}
