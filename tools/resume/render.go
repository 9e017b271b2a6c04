package resume

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/clawbridge/clawbridge/internal/docx"
)

// Themes are the looks the HTML, PDF and Word outputs share.
var Themes = []string{"classic", "modern", "compact"}

func renderMarkdown(d doc) string {
	var b strings.Builder
	b.WriteString("# " + esc(d.Name) + "\n\n")
	if d.Label != "" {
		b.WriteString("**" + esc(d.Label) + "**\n\n")
	}
	if len(d.Contact) > 0 {
		var cs []string
		for _, c := range d.Contact {
			cs = append(cs, esc(c))
		}
		b.WriteString(strings.Join(cs, " · ") + "\n\n")
	}
	for _, s := range d.Sections {
		b.WriteString("## " + esc(s.Title) + "\n\n")
		for _, e := range s.Entries {
			if e.Heading != "" {
				h := "### " + esc(e.Heading)
				if e.Sub != "" {
					h += " — " + esc(e.Sub)
				}
				b.WriteString(h + "\n\n")
			}
			if e.Dates != "" {
				b.WriteString("*" + esc(e.Dates) + "*\n\n")
			}
			if e.Text != "" {
				b.WriteString(esc(e.Text) + "\n\n")
			}
			for _, x := range e.Bullets {
				b.WriteString("- " + esc(x) + "\n")
			}
			if len(e.Bullets) > 0 {
				b.WriteString("\n")
			}
		}
		for _, l := range s.Lines {
			b.WriteString("- " + esc(l) + "\n")
		}
		if len(s.Lines) > 0 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

func esc(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`, "#", `\#`, "\n", " ")
	return r.Replace(s)
}

// renderText is the applicant-tracking-system version: plain lines, no
// tables or columns, upper-case section names, "-" bullets, one fact per
// line so parsers find names, dates and titles.
func renderText(d doc) string {
	var b strings.Builder
	b.WriteString(d.Name + "\n")
	if d.Label != "" {
		b.WriteString(d.Label + "\n")
	}
	for _, c := range d.Contact {
		b.WriteString(c + "\n")
	}
	for _, s := range d.Sections {
		if !strings.HasSuffix(b.String(), "\n\n") {
			b.WriteString("\n")
		}
		b.WriteString(strings.ToUpper(s.Title) + "\n")
		for _, e := range s.Entries {
			line := joinNonEmpty(", ", e.Heading, e.Sub)
			if line != "" {
				b.WriteString(line + "\n")
			}
			if e.Dates != "" {
				b.WriteString(e.Dates + "\n")
			}
			if e.Text != "" {
				b.WriteString(e.Text + "\n")
			}
			for _, x := range e.Bullets {
				b.WriteString("- " + x + "\n")
			}
			b.WriteString("\n")
		}
		for _, l := range s.Lines {
			b.WriteString("- " + l + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

var themeCSS = map[string]string{
	"classic": `body{font-family:Georgia,"Times New Roman","Noto Serif CJK SC","SimSun",serif;color:#222;margin:0;font-size:11pt;line-height:1.4}
header{text-align:center;border-bottom:2px solid #333;padding-bottom:6pt;margin-bottom:10pt}
h1{font-size:24pt;margin:0;letter-spacing:1px} .label{font-size:13pt;color:#555;margin-top:2pt}
.contact{font-size:9.5pt;color:#444;margin-top:4pt} .contact span+span:before{content:" · "}
h2{font-size:12.5pt;text-transform:uppercase;letter-spacing:1px;border-bottom:1px solid #999;margin:12pt 0 4pt}
.entry{margin-bottom:6pt;page-break-inside:avoid} .head{display:flex;justify-content:space-between;font-weight:bold}
.sub{font-style:italic;color:#444} .dates{color:#555;font-weight:normal;white-space:nowrap} ul{margin:2pt 0 0 16pt;padding:0}`,
	"modern": `body{font-family:"Helvetica Neue",Arial,"Noto Sans CJK SC","Microsoft YaHei",sans-serif;color:#1f2933;margin:0;font-size:10.5pt;line-height:1.45}
header{background:#1f4e79;color:#fff;padding:14pt 16pt;margin-bottom:10pt;border-radius:4pt}
h1{font-size:26pt;margin:0;font-weight:700} .label{font-size:13pt;opacity:.9}
.contact{font-size:9.5pt;margin-top:6pt} .contact span+span:before{content:"  |  "}
h2{font-size:13pt;color:#1f4e79;margin:14pt 0 4pt;padding-bottom:2pt;border-bottom:2px solid #d0dbe7}
.entry{margin-bottom:7pt;page-break-inside:avoid} .head{display:flex;justify-content:space-between;font-weight:600}
.sub{color:#52606d} .dates{color:#7b8794;font-weight:normal;white-space:nowrap} ul{margin:2pt 0 0 16pt;padding:0}`,
	"compact": `body{font-family:Arial,"Noto Sans CJK SC","Microsoft YaHei",sans-serif;color:#111;margin:0;font-size:9.5pt;line-height:1.3}
header{display:flex;justify-content:space-between;align-items:flex-end;border-bottom:1px solid #000;padding-bottom:4pt;margin-bottom:6pt}
h1{font-size:18pt;margin:0} .label{font-size:11pt} .contact{font-size:8.5pt;text-align:right}
.contact span{display:block} h2{font-size:10.5pt;text-transform:uppercase;margin:8pt 0 2pt;color:#333}
.entry{margin-bottom:4pt;page-break-inside:avoid} .head{display:flex;justify-content:space-between;font-weight:bold}
.sub{font-style:italic} .dates{font-weight:normal;white-space:nowrap} ul{margin:1pt 0 0 14pt;padding:0}`,
}

var htmlTmpl = template.Must(template.New("resume").Parse(`<!doctype html>
<html lang="{{if eq .D.Lang "zh"}}zh-CN{{else}}en{{end}}"><head><meta charset="utf-8"><title>{{.D.Name}}</title>
<style>@page{size:A4;margin:14mm} {{.CSS}}</style></head><body>
<header><div><h1>{{.D.Name}}</h1>{{if .D.Label}}<div class="label">{{.D.Label}}</div>{{end}}</div>
{{if .D.Contact}}<div class="contact">{{range .D.Contact}}<span>{{.}}</span>{{end}}</div>{{end}}</header>
{{range .D.Sections}}<section><h2>{{.Title}}</h2>
{{range .Entries}}<div class="entry">{{if or .Heading .Dates}}<div class="head"><span>{{.Heading}}{{if .Sub}} <span class="sub">— {{.Sub}}</span>{{end}}</span><span class="dates">{{.Dates}}</span></div>{{end}}
{{if .Text}}<div class="text">{{.Text}}</div>{{end}}{{if .Bullets}}<ul>{{range .Bullets}}<li>{{.}}</li>{{end}}</ul>{{end}}</div>
{{end}}{{if .Lines}}<ul>{{range .Lines}}<li>{{.}}</li>{{end}}</ul>{{end}}</section>
{{end}}</body></html>
`))

func renderHTML(d doc, theme string) ([]byte, error) {
	var b bytes.Buffer
	err := htmlTmpl.Execute(&b, map[string]any{"D": d, "CSS": template.CSS(themeCSS[theme])})
	return b.Bytes(), err
}

// renderDocx lays the résumé out in Word with the theme's fonts.
func renderDocx(d doc, theme string) ([]byte, error) {
	var blocks []docx.Block
	blocks = append(blocks, docx.Paragraph{Style: "Title", Runs: docx.Text(d.Name)})
	if d.Label != "" {
		blocks = append(blocks, docx.Paragraph{Style: "Subtitle", Runs: docx.Text(d.Label)})
	}
	if len(d.Contact) > 0 {
		blocks = append(blocks, docx.Paragraph{Align: "center", Runs: docx.Text(strings.Join(d.Contact, "  |  "))})
	}
	for _, s := range d.Sections {
		blocks = append(blocks, docx.Heading{Level: 1, Runs: docx.Text(s.Title)})
		for _, e := range s.Entries {
			if e.Heading != "" {
				runs := []docx.Run{{Text: e.Heading, Bold: true}}
				if e.Sub != "" {
					runs = append(runs, docx.Run{Text: " — " + e.Sub, Italic: true})
				}
				if e.Dates != "" {
					runs = append(runs, docx.Run{Text: "\t" + e.Dates})
				}
				blocks = append(blocks, docx.Paragraph{Runs: runs})
			} else if e.Dates != "" {
				blocks = append(blocks, docx.Paragraph{Runs: []docx.Run{{Text: e.Dates, Italic: true}}})
			}
			if e.Text != "" {
				blocks = append(blocks, docx.Paragraph{Runs: docx.Text(e.Text)})
			}
			if len(e.Bullets) > 0 {
				l := docx.List{}
				for _, x := range e.Bullets {
					l.Items = append(l.Items, docx.ListItem{Runs: docx.Text(x)})
				}
				blocks = append(blocks, l)
			}
		}
		if len(s.Lines) > 0 {
			l := docx.List{}
			for _, x := range s.Lines {
				l.Items = append(l.Items, docx.ListItem{Runs: docx.Text(x)})
			}
			blocks = append(blocks, l)
		}
	}
	opts := docx.Options{Title: d.Name, Author: d.Name, MarginMM: 18, Language: "en-US"}
	if d.Lang == "zh" {
		opts.Language = "zh-CN"
	}
	switch theme {
	case "classic":
		opts.Font, opts.EastAsiaFont = "Georgia", "SimSun"
	case "compact":
		opts.Font, opts.FontSizePt, opts.MarginMM = "Arial", 9.5, 14
	default:
		opts.Font = "Calibri"
	}
	return docx.Write(blocks, opts)
}
