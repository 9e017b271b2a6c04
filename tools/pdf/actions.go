package pdf

import "github.com/clawbridge/clawbridge/tools/tool"

// Parameters shared by several actions.
var (
	pPath = func(req bool) tool.Param {
		return tool.Param{Name: "path", Type: tool.String, Required: req, Description: "Input PDF."}
	}
	pPaths = tool.Param{Name: "paths", Type: tool.Array, Required: true, Items: &tool.Param{Name: "item", Type: tool.String},
		Description: "Input files in order."}
	pOutput    = tool.OutputParam("Output file (default under outputs/).")
	pOutputDir = tool.Param{Name: "output_dir", Type: tool.String,
		Description: "Output directory (default under outputs/)."}
	pPages = func(req bool) tool.Param {
		return tool.Param{Name: "pages", Type: tool.String, Required: req,
			Description: `e.g. "1-3,5", "even", "5-", "l" (last), "!2" (not 2); empty: all.`}
	}
	pPassword = tool.Param{Name: "password", Type: tool.String,
		Description: "Of an encrypted input."}
	pOverwrite = tool.Param{Name: "overwrite", Type: tool.Boolean, Default: false,
		Description: "Replace an existing output (the input too)."}
)

func (p *pdfTool) actions() []tool.Action {
	rd := func(name string, h tool.Handler, desc string, params ...tool.Param) tool.Action {
		return tool.Action{Name: name, Handler: p.guard(h), Description: desc, Level: tool.Read, Timeout: tool.Normal, Params: params, Idempotent: true}
	}
	wr := func(name string, h tool.Handler, desc string, params ...tool.Param) tool.Action {
		return tool.Action{Name: name, Handler: p.guard(h), Description: desc, Level: tool.Write, Timeout: tool.Slow, Params: params}
	}
	out := []tool.Param{pOutput, pOverwrite}
	// extract_text reads, and writes only the .txt its output names.
	extractText := tool.Action{Name: "extract_text", Handler: p.guard(p.extractText), Description: "text per page (output may be .txt); scanned pages need ocr",
		Level: tool.Write, OptionalOutput: true, Timeout: tool.Normal, Idempotent: true, Params: []tool.Param{
			pPath(true), pPages(false), pPassword,
			{Name: "layout", Type: tool.Boolean, Default: false, Description: "Keep the physical layout."},
			pOutput, pOverwrite}}
	with := func(ps []tool.Param, more ...tool.Param) []tool.Param {
		return append(append([]tool.Param{}, more...), ps...)
	}
	perms := tool.Param{Name: "permissions", Type: tool.String,
		Description: `none, print, all, or a comma list of print, modify, copy, annotate, fill_forms, assemble, print_high.`}
	wmParams := []tool.Param{
		pPath(true),
		{Name: "text", Type: tool.String, Description: "Text, or give image."},
		{Name: "image", Type: tool.String, Description: "Image instead of text."},
		pPages(false),
		{Name: "font_size", Type: tool.Number, Default: 48.0, Min: tool.Ptr(4), Max: tool.Ptr(400)},
		{Name: "color", Type: tool.String, Default: "#808080", Description: "#RRGGBB."},
		{Name: "opacity", Type: tool.Number, Min: tool.Ptr(0), Max: tool.Ptr(1), Description: "Default 0.3 (watermark) or 1 (stamp)."},
		{Name: "angle", Type: tool.Number, Min: tool.Ptr(-180), Max: tool.Ptr(180)},
		{Name: "scale", Type: tool.Number, Min: tool.Ptr(0.01), Max: tool.Ptr(1), Default: 0.5, Description: "Of the page width."},
		{Name: "position", Type: tool.String, Default: "c", Enum: []string{"c", "tl", "tc", "tr", "l", "r", "bl", "bc", "br"}, Description: "Anchor (tl top-left, c centre...)."},
		pPassword,
	}
	return []tool.Action{
		rd("info", p.info, "metadata, pages, encryption", pPath(true), pPassword),
		rd("page_count", p.pageCount, "", pPath(true), pPassword),
		wr("merge", p.merge, "paths in order", with(out, pPaths)...),
		wr("split", p.split, "by span or at split_at",
			pPath(true), tool.Param{Name: "span", Type: tool.Integer, Min: tool.Ptr(1), Default: 1, Description: "Pages per output file."},
			tool.Param{Name: "split_at", Type: tool.Array, Items: &tool.Param{Name: "item", Type: tool.Integer}, Description: "First pages of new files, e.g. [4, 10]; overrides span."},
			pOutputDir, pPassword, pOverwrite),
		wr("extract_pages", p.extractPages, "keep only pages", with(out, pPath(true), pPages(true), pPassword)...),
		wr("remove_pages", p.removePages, "", with(out, pPath(true), pPages(true), pPassword)...),
		wr("rotate", p.rotate, "clockwise", with(out, pPath(true),
			tool.Param{Name: "rotation", Type: tool.Integer, Required: true, Description: "90, 180, 270 or -90."}, pPages(false), pPassword)...),
		wr("encrypt", p.encrypt, "AES-256", with(out, pPath(true),
			tool.Param{Name: "user_password", Type: tool.String, Description: "To open (may be empty)."},
			tool.Param{Name: "owner_password", Type: tool.String, Required: true, Description: "For full rights."},
			perms)...),
		wr("decrypt", p.decrypt, "", with(out, pPath(true), tool.Param{Name: "password", Type: tool.String, Required: true, Description: "User or owner password."})...),
		rd("permissions", p.permissions, "", pPath(true), pPassword),
		wr("set_permissions", p.setPermissions, "", with(out, pPath(true),
			tool.Param{Name: "password", Type: tool.String, Required: true, Description: "Owner password."},
			tool.Param{Name: "user_password", Type: tool.String, Description: "Current open password, if any."},
			tool.Param{Name: "permissions", Type: tool.String, Required: true, Description: perms.Description})...),
		wr("watermark", p.watermarkAction(false), "text/image behind content", with(out, wmParams...)...),
		wr("stamp", p.watermarkAction(true), "text/image on top", with(out, wmParams...)...),
		wr("optimize", p.optimize, "", with(out, pPath(true), pPassword)...),
		rd("validate", p.validate, "", pPath(true), pPassword,
			tool.Param{Name: "strict", Type: tool.Boolean, Default: false, Description: "Strict checks."}),
		wr("images_to_pdf", p.imagesToPDF, "one page per image", with(out, pPaths,
			tool.Param{Name: "page_size", Type: tool.String, Default: "A4", Enum: []string{"A3", "A4", "A5", "Letter", "Legal", "image"}, Description: `"image": each page the size of its image.`},
			tool.Param{Name: "landscape", Type: tool.Boolean, Default: false})...),
		wr("extract_images", p.extractImages, "", pPath(true), pPages(false), pOutputDir, pPassword, pOverwrite),
		rd("list_form_fields", p.listFormFields, "fields with type, value (in fill_form's shape), options", pPath(true), pPassword),
		wr("fill_form", p.fillForm, "", with(out, pPath(true),
			tool.Param{Name: "fields", Type: tool.Object, Required: true, Description: `By name or id, values as list_form_fields shows them, e.g. {"name": "Alice", "agree": true}. Latin-1 text only.`},
			tool.Param{Name: "lock", Type: tool.Boolean, Default: false, Description: "Make them read-only."}, pPassword)...),
		extractText,
	}
}
