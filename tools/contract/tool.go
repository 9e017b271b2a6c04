// Package contract is the contract_generator tool: contracts from built-in
// templates (house lease, labour, sale of goods, services, NDA) in Chinese
// and English, with required fields checked, amounts also in Chinese
// capital numerals, and output as .docx, PDF or Markdown.
package contract

import (
	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type generator struct {
	d *tool.Deps
}

// New builds the contract_generator tool.
func New(d *tool.Deps) (tool.Tool, error) {
	g := &generator{d: d}
	typ := tool.Param{Name: "contract_type", Type: tool.String, Description: "Template: house_lease (房屋租赁), labour (劳动合同), sale (买卖合同), services (服务合同), nda (保密协议).", Enum: TypeIDs}
	lang := tool.Param{Name: "language", Type: tool.String, Description: "Default zh when any field is Chinese.", Enum: []string{"zh", "en"}}
	return tool.Tool{
		Name:        "contract_generator",
		Title:       "Contract generator",
		Description: "Generates a contract (house lease, employment, sale of goods, services, NDA) in Chinese or English as .docx, PDF or Markdown, checking required fields. Call list_templates first to see each template's fields.",
		Actions: []tool.Action{
			{Name: "list_templates", Handler: g.list, Description: "templates and their fields", Level: tool.Read, Timeout: tool.Fast, Idempotent: true,
				Params: []tool.Param{{Name: "contract_type", Type: tool.String, Description: "Show only this template.", Enum: TypeIDs}, lang}},
			{Name: "generate", Handler: g.generate, Description: "fill a template, write the contract", Level: tool.Write, Timeout: tool.Slow, Params: []tool.Param{
				func() tool.Param { p := typ; p.Required = true; return p }(),
				{Name: "fields", Type: tool.Object, Required: true, Description: "Values by name (see list_templates): amounts as numbers or strings like \"12000\", dates YYYY-MM-DD, terms whole numbers."},
				lang,
				{Name: "format", Type: tool.String, Enum: []string{"docx", "pdf", "md"}, Default: "docx"},
				{Name: "omit_clauses", Type: tool.Array, Description: "Clause ids (listed in the result) to leave out.", Items: &tool.Param{Name: "id", Type: tool.String}},
				{Name: "extra_clauses", Type: tool.Array, Description: "One article each.", Items: &tool.Param{Name: "text", Type: tool.String}},
				tool.OutputParam("Default outputs/<type>-<party>.<format>."),
				tool.Overwrite,
			}},
		},
		Programs: tool.ProgramsOf(office.Program),
		Examples: []string{
			"Draft a residential lease agreement between John and Mary for 3500 a month",
			"Generate an NDA with Acme Corp as a PDF",
			"Write an employment contract for a software engineer",
			"帮我生成一份房屋租赁合同",
			"生成劳动合同，月薪一万二",
			"起草一份买卖合同并导出PDF",
		},
	}, nil
}
