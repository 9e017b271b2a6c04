// Package resume is the resume_builder tool: a résumé from JSON Resume data
// (validated against the published schema, embedded) or from simple fields,
// as .docx, PDF (an HTML theme printed by Chromium), HTML, Markdown and a
// plain-text version for applicant tracking systems.
package resume

import (
	"github.com/clawbridge/clawbridge/internal/office"
	"github.com/clawbridge/clawbridge/tools/tool"
)

type builder struct {
	d *tool.Deps
}

// Formats the tool writes.
var Formats = []string{"docx", "pdf", "html", "md", "txt"}

// New builds the resume_builder tool.
func New(d *tool.Deps) (tool.Tool, error) {
	b := &builder{d: d}
	params := []tool.Param{
		{Name: "resume", Type: tool.Object, Description: "JSON Resume document (basics{name,label,email,phone,url,summary,location,profiles}, work[], education[], skills[], projects[]...); or give path or fields."},
		{Name: "path", Type: tool.String, Description: "JSON Resume file."},
		{Name: "fields", Type: tool.Object, Description: "Simple form: name, title, email, phone, website, location, summary, experience[{company,position,start,end,summary,highlights[]}], education[{school,degree,field,start,end}], skills[], languages[], projects[{name,description,highlights[]}], certificates[]."},
		{Name: "formats", Type: tool.Array, Description: "Files to write (default docx and txt, the plain ATS version).", Items: &tool.Param{Name: "format", Type: tool.String, Enum: Formats}},
		{Name: "theme", Type: tool.String, Description: "For HTML, PDF and Word.", Enum: Themes, Default: "modern"},
		{Name: "language", Type: tool.String, Description: "Headings (default from the text).", Enum: []string{"en", "zh"}},
		{Name: "page_size", Type: tool.String, Description: "For PDF.", Enum: []string{"A4", "Letter"}, Default: "A4"},
		tool.OutputParam("Without extension (default outputs/resume-<name>)."),
		tool.Overwrite,
	}
	return tool.Tool{
		Name:        "resume_builder",
		Title:       "Résumé builder",
		Description: "Builds a résumé/CV from JSON Resume data or simple fields as docx, pdf, html, md or plain text, in a classic, modern or compact theme; Chinese résumés work.",
		Actions: []tool.Action{{
			Description: "Write the résumé in the requested formats.",
			Level:       tool.Write, Timeout: tool.Slow, Params: params,
			Handler: b.handle,
		}},
		Programs: tool.ProgramsOf("chromium", office.Program),
		Examples: []string{
			"Build my resume from this resume.json as PDF and Word",
			"Create a CV for a senior backend engineer with these jobs",
			"Make an ATS-friendly plain text version of my résumé",
			"帮我制作一份个人简历",
			"生成求职简历，导出PDF",
			"用现代模板生成简历Word版",
		},
	}, nil
}
