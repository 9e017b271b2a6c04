package pdf

import "clawbridge/tools/tool"

// Parameters shared by several actions.
var (
	pPath = func(req bool) tool.Param {
		return tool.Param{Name: "path", Type: tool.String, Required: req, Description: "Input PDF file in the workspace."}
	}
	pPaths = tool.Param{Name: "paths", Type: tool.Array, Required: true, Items: &tool.Param{Name: "item", Type: tool.String, Description: "a file path"},
		Description: "Input files in order."}
	pOutput = tool.Param{Name: "output", Type: tool.String,
		Description: "Output file in the workspace: the PDF for writing actions (default: outputs/<input>_<action>.pdf); for extract_text a .txt file, written only when given."}
	pOutputDir = tool.Param{Name: "output_dir", Type: tool.String,
		Description: "Directory for the produced files (default: outputs/<input>_<action>/)."}
	pPages = func(req bool) tool.Param {
		return tool.Param{Name: "pages", Type: tool.String, Required: req,
			Description: `Page selection in pdfcpu syntax: "1-3,5", "even", "odd", "5-" (5 to end), "-3" (first 3), "l" (last), "!2" (not page 2). Empty means all pages.`}
	}
	pPassword = tool.Param{Name: "password", Type: tool.String,
		Description: "Password to open an encrypted input (user or owner password)."}
	pOverwrite = tool.Param{Name: "overwrite", Type: tool.Boolean, Default: false,
		Description: "Allow replacing an existing output file, including the input itself."}
)

func (p *pdfTool) actions() []tool.Action {
	rd := func(name string, h tool.Handler, desc string, params ...tool.Param) tool.Action {
		return tool.Action{Name: name, Handler: p.guard(h), Description: desc, Level: tool.Read, Timeout: tool.Normal, Params: params, Idempotent: true}
	}
	wr := func(name string, h tool.Handler, desc string, params ...tool.Param) tool.Action {
		return tool.Action{Name: name, Handler: p.guard(h), Description: desc, Level: tool.Write, Timeout: tool.Slow, Params: params}
	}
	out := []tool.Param{pOutput, pOverwrite}
	with := func(ps []tool.Param, more ...tool.Param) []tool.Param {
		return append(append([]tool.Param{}, more...), ps...)
	}
	perms := tool.Param{Name: "permissions", Type: tool.String,
		Description: `Permission set for readers without the owner password: "none", "print", "all", or a comma list of print, modify, copy, annotate, fill_forms, assemble, print_high (default for encrypt: "print").`}
	wmParams := []tool.Param{
		pPath(true),
		{Name: "text", Type: tool.String, Description: "Text to place (Latin text uses a PDF core font; other scripts such as Chinese are drawn as an image with a CJK system font). Give text or image."},
		{Name: "image", Type: tool.String, Description: "Image file (png, jpeg, tiff) to place instead of text."},
		pPages(false),
		{Name: "font_size", Type: tool.Number, Default: 48.0, Min: tool.Ptr(4), Max: tool.Ptr(400), Description: "Text size in points."},
		{Name: "color", Type: tool.String, Default: "#808080", Description: "Text colour as #RRGGBB."},
		{Name: "opacity", Type: tool.Number, Min: tool.Ptr(0), Max: tool.Ptr(1), Description: "Opacity 0..1 (default 0.3 for watermark, 1 for stamp)."},
		{Name: "angle", Type: tool.Number, Min: tool.Ptr(-180), Max: tool.Ptr(180), Description: "Rotation in degrees (default 45 for text watermarks, 0 otherwise)."},
		{Name: "scale", Type: tool.Number, Min: tool.Ptr(0.01), Max: tool.Ptr(1), Description: "Size relative to the page width (default 0.5)."},
		{Name: "position", Type: tool.String, Default: "c", Enum: []string{"c", "tl", "tc", "tr", "l", "r", "bl", "bc", "br"}, Description: "Anchor on the page: c centre, tl top-left, tc top-centre, ... br bottom-right."},
		pPassword,
	}
	return []tool.Action{
		rd("info", p.info, "metadata, page count, page sizes, encryption, form and permissions of a PDF", pPath(true), pPassword),
		rd("page_count", p.pageCount, "number of pages", pPath(true), pPassword),
		wr("merge", p.merge, "join several PDFs (paths) into one, in order", with(out, pPaths)...),
		wr("split", p.split, "split into files of span pages each, or before the pages listed in split_at",
			pPath(true), tool.Param{Name: "span", Type: tool.Integer, Min: tool.Ptr(1), Description: "Pages per output file (default 1)."},
			tool.Param{Name: "split_at", Type: tool.Array, Items: &tool.Param{Name: "item", Type: tool.Integer, Description: "page number"}, Description: "Page numbers where a new file starts, e.g. [4, 10] gives 1-3, 4-9, 10-end. Overrides span."},
			pOutputDir, pPassword, pOverwrite),
		wr("extract_pages", p.extractPages, "a new PDF with only the selected pages, in selection order", with(out, pPath(true), pPages(true), pPassword)...),
		wr("remove_pages", p.removePages, "a new PDF without the selected pages", with(out, pPath(true), pPages(true), pPassword)...),
		wr("rotate", p.rotate, "rotate the selected pages (all by default) clockwise by 90, 180 or 270 degrees", with(out, pPath(true),
			tool.Param{Name: "rotation", Type: tool.Integer, Required: true, Description: "Degrees clockwise: 90, 180, 270 (or -90)."}, pPages(false), pPassword)...),
		wr("encrypt", p.encrypt, "encrypt with AES-256: user password to open, owner password for full rights, permission set", with(out, pPath(true),
			tool.Param{Name: "user_password", Type: tool.String, Description: "Password needed to open the file (may be empty: opens freely but permissions apply)."},
			tool.Param{Name: "owner_password", Type: tool.String, Required: true, Description: "Owner password that grants full rights and allows changing permissions."},
			perms)...),
		wr("decrypt", p.decrypt, "remove encryption (needs the password)", with(out, pPath(true), tool.Param{Name: "password", Type: tool.String, Required: true, Description: "User or owner password."})...),
		rd("permissions", p.permissions, "list the permissions an encrypted PDF grants", pPath(true), pPassword),
		wr("set_permissions", p.setPermissions, "change the permissions of an encrypted PDF (needs the owner password)", with(out, pPath(true),
			tool.Param{Name: "password", Type: tool.String, Required: true, Description: "Owner password."},
			tool.Param{Name: "user_password", Type: tool.String, Description: "The current user (open) password, if the file has one; pdfcpu needs both to re-encrypt."},
			tool.Param{Name: "permissions", Type: tool.String, Required: true, Description: perms.Description})...),
		wr("watermark", p.watermarkAction(false), "text or image behind the page content on the selected pages", with(out, wmParams...)...),
		wr("stamp", p.watermarkAction(true), "text or image on top of the page content on the selected pages", with(out, wmParams...)...),
		wr("optimize", p.optimize, "rewrite the PDF smaller: shared resources, duplicate fonts and images removed", with(out, pPath(true), pPassword)...),
		rd("validate", p.validate, "check the PDF against the specification (relaxed or strict)", pPath(true), pPassword,
			tool.Param{Name: "strict", Type: tool.Boolean, Default: false, Description: "Strict validation instead of relaxed."}),
		wr("images_to_pdf", p.imagesToPDF, "one page per image (png, jpeg, tiff, webp) in order", with(out, pPaths,
			tool.Param{Name: "page_size", Type: tool.String, Default: "A4", Enum: []string{"A3", "A4", "A5", "Letter", "Legal", "image"}, Description: `Page size; "image" makes each page the size of its image.`},
			tool.Param{Name: "landscape", Type: tool.Boolean, Default: false, Description: "Landscape pages."})...),
		wr("extract_images", p.extractImages, "save the images embedded in the selected pages to a directory", pPath(true), pPages(false), pOutputDir, pPassword, pOverwrite),
		rd("list_form_fields", p.listFormFields, "the form fields with their ids, names, types, values and options", pPath(true), pPassword),
		wr("fill_form", p.fillForm, "fill form fields by name or id; a new PDF", with(out, pPath(true),
			tool.Param{Name: "fields", Type: tool.Object, Required: true, Description: `Values by field name or id, e.g. {"name": "Alice", "agree": true, "country": "China"}. Check boxes take true/false, list boxes an array. Text must be Latin-1 for now.`},
			tool.Param{Name: "lock", Type: tool.Boolean, Default: false, Description: "Make the filled fields read-only."}, pPassword)...),
		rd("extract_text", p.extractText, "the text of the selected pages, per page (poppler pdftotext; Chinese works). Scanned pages have no text: use ocr",
			pPath(true), pPages(false), pPassword,
			tool.Param{Name: "layout", Type: tool.Boolean, Default: false, Description: "Keep the physical layout (columns, tables) instead of reading order."},
			pOutput,
			pOverwrite),
	}
}
