// Package imagegen is the `image_generator` tool: images made by code. QR
// codes (skip2/go-qrcode: error-correction level, size, colours, an
// optional centre logo; each read back with gozxing and, where installed,
// zbarimg in the jail before the call succeeds, a logo shrunk until the
// code reads), text cards and posters with wrapping and CJK line
// breaking (internal/cjkfont) and an optional image layer, placeholders,
// collages, watermarks (text or image), and resize, crop, rotate and
// convert of workspace images (disintegration/imaging). generate asks a
// configured OpenAI-compatible images API for an image from a prompt; with
// none configured it answers unavailable. Inputs go through Deps.LoadImage
// and a pixel limit before decoding; outputs are written atomically.
package imagegen

import (
	"errors"
	"time"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Section is the tool's config section (tools: image_generator: ...).
type Section struct {
	// MaxPixels caps an input image before decoding, and any output.
	MaxPixels int `yaml:"max_pixels"`
	// Font overrides the CJK font file (default: found by internal/cjkfont).
	Font string `yaml:"font"`
	// Generate is the OpenAI-compatible images API behind the generate
	// action; without base_url the action says what to configure.
	Generate Endpoint `yaml:"generate"`
}

// DefaultSection is the section's defaults.
func DefaultSection() Section {
	return Section{MaxPixels: 40_000_000, Generate: Endpoint{Timeout: 3 * time.Minute}}
}

// Validate refuses a pixel limit below one and an incomplete endpoint.
func (s *Section) Validate() error {
	return errors.Join(config.AtLeast("max_pixels", s.MaxPixels, 1), s.Generate.validate())
}

type imageGen struct {
	d   *tool.Deps
	cfg Section
}

// New builds the image_generator tool from the tools.image_generator section.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Section]{Name: "image_generator", Defaults: DefaultSection, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Section) (tool.Tool, error) {
	g := &imageGen{d: d, cfg: cfg}
	return tool.Tool{
		Name:        "image_generator",
		Title:       "Image generator",
		Description: "Images made by code: QR codes, text cards and posters, placeholders, collages, watermarks, and resize, crop, rotate or convert of images; generate from a prompt when an images API is configured.",
		Actions:     g.actions(),
		OpenWorld:   g.cfg.Generate.BaseURL != "", // generate sends the prompt to the configured endpoint
		Programs:    tool.ProgramsOf("zbarimg"),   // optional: the second reader of QR codes
		Examples: []string{
			"generate a qr code for my wifi",
			"make a poster with the event title",
			"resize the photo to 800 pixels wide",
			"crop the image to a square",
			"convert the png to jpeg",
			"生成一张宣传海报",
			"做一个二维码",
			"把图片旋转90度",
			"生成一张配图",
			"add a watermark to the photo",
			"make a collage of these pictures",
			"给图片加水印",
			"把几张照片拼成九宫格",
		},
	}, nil
}

// Parameters several actions share.
var (
	outputParam = tool.OutputParam("Default under outputs/.")
	pathParam   = tool.Param{Name: "path", Type: tool.String, Required: true, Description: "Input image (png, jpeg, gif, bmp, tiff, webp)."}
	sizeParam   = tool.Param{Name: "size", Type: tool.Integer, Default: 512, Min: tool.Ptr(64), Max: tool.Ptr(4096), Description: "Side in pixels."}
)

// actions are the tool's actions and their parameters.
func (g *imageGen) actions() []tool.Action {
	return []tool.Action{
		{Name: "qr", Level: tool.Write, Timeout: tool.Normal, Handler: g.qr, Params: []tool.Param{
			{Name: "text", Type: tool.String, Required: true, Description: "QR content (text, URL, WIFI:T:WPA;S:name;P:pass;;), card body or watermark text."},
			{Name: "level", Type: tool.String, Enum: []string{"L", "M", "Q", "H"}, Default: "M", Description: "Error correction (H with a logo)."},
			sizeParam,
			{Name: "foreground", Type: tool.String, Default: "#000000", Description: "#rrggbb."},
			{Name: "background", Type: tool.String, Default: "#ffffff", Description: "#rrggbb."},
			{Name: "logo", Type: tool.String, Description: "Centred image (needs level Q or H)."},
			outputParam, tool.Overwrite}},
		{Name: "card", Description: "text card or poster", Level: tool.Write, Timeout: tool.Normal, Handler: g.card, Params: []tool.Param{
			{Name: "title", Type: tool.String, Required: true, Description: "Title."},
			{Name: "subtitle", Type: tool.String},
			{Name: "text", Type: tool.String, Description: "Body text."},
			{Name: "width", Type: tool.Integer, Default: 1080, Min: tool.Ptr(200), Max: tool.Ptr(4096)},
			{Name: "height", Type: tool.Integer, Min: tool.Ptr(200), Max: tool.Ptr(8192), Description: "Pixels (card: default fits the text)."},
			{Name: "background", Type: tool.String, Default: "#1e3a5f", Description: "Background colour, or two joined by a comma for a vertical gradient."},
			{Name: "color", Type: tool.String, Default: "#ffffff", Description: "Text colour."},
			{Name: "image", Type: tool.String, Description: "Card image layer, or watermark logo."},
			{Name: "image_mode", Type: tool.String, Enum: []string{"banner", "background"}, Default: "banner", Description: "Card image above the title or under a veil."},
			{Name: "veil", Type: tool.Number, Default: 0.45, Min: tool.Ptr(0), Max: tool.Ptr(1), Description: "Opacity of the veil."},
			outputParam, tool.Overwrite}},
		{Name: "transform", Level: tool.Write, Timeout: tool.Normal, Handler: g.transform, Params: []tool.Param{
			pathParam,
			{Name: "width", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(16384), Description: "Resize to this width (height follows unless given)."},
			{Name: "height", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(16384), Description: "Resize to this height."},
			{Name: "crop", Type: tool.String, Description: "Crop first: x,y,width,height in pixels, or square (centre)."},
			{Name: "rotate", Type: tool.Number, Description: "Degrees counter-clockwise."},
			{Name: "format", Type: tool.String, Enum: []string{"png", "jpeg", "gif", "bmp", "tiff"}, Description: "Default: the input's."},
			{Name: "quality", Type: tool.Integer, Default: 90, Min: tool.Ptr(1), Max: tool.Ptr(100), Description: "JPEG."},
			{Name: "background", Type: tool.String, Default: "#ffffff", Description: "What transparent pixels become in a JPEG or GIF (#rrggbb)."},
			outputParam, tool.Overwrite}},
		{Name: "watermark", Level: tool.Write, Timeout: tool.Normal, Handler: g.watermark, Params: []tool.Param{
			pathParam,
			{Name: "text", Type: tool.String, Description: "Watermark text (give text or image)."},
			{Name: "image", Type: tool.String, Description: "Watermark image in the workspace, e.g. a logo with transparency (give text or image)."},
			{Name: "position", Type: tool.String, Enum: positions, Default: "bottom-right", Description: "Where; tile repeats it."},
			{Name: "opacity", Type: tool.Number, Default: 0.5, Min: tool.Ptr(0.05), Max: tool.Ptr(1)},
			{Name: "font_size", Type: tool.Number, Min: tool.Ptr(6), Max: tool.Ptr(1000)},
			{Name: "color", Type: tool.String, Default: "#ffffff", Description: "Text colour (#rrggbb)."},
			{Name: "scale", Type: tool.Number, Default: 0.2, Min: tool.Ptr(0.01), Max: tool.Ptr(1), Description: "Logo size as a fraction of the width."},
			{Name: "margin", Type: tool.Integer, Min: tool.Ptr(0), Max: tool.Ptr(4096), Description: "From the edges."},
			{Name: "quality", Type: tool.Integer, Default: 90, Min: tool.Ptr(1), Max: tool.Ptr(100), Description: "JPEG."},
			outputParam, tool.Overwrite}},
		{Name: "placeholder", Level: tool.Write, Timeout: tool.Normal, Handler: g.placeholder, Params: []tool.Param{
			{Name: "width", Type: tool.Integer, Default: 800, Min: tool.Ptr(1), Max: tool.Ptr(16384), Description: "Pixels."},
			{Name: "height", Type: tool.Integer, Default: 600, Min: tool.Ptr(1), Max: tool.Ptr(16384), Description: "Height in pixels."},
			{Name: "background", Type: tool.String, Default: "#cccccc", Description: "Background colour (#rrggbb)."},
			{Name: "color", Type: tool.String, Default: "#555555", Description: "Label colour (#rrggbb)."},
			{Name: "label", Type: tool.String, Description: "Default: the size; empty for none."},
			outputParam, tool.Overwrite}},
		{Name: "collage", Level: tool.Write, Timeout: tool.Normal, Handler: g.collage, Params: []tool.Param{
			{Name: "paths", Type: tool.Array, Required: true, Items: &tool.Param{Type: tool.String}, Description: "Images, row by row."},
			{Name: "rows", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(100)},
			{Name: "cols", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(100)},
			{Name: "cell_width", Type: tool.Integer, Default: 400, Min: tool.Ptr(8), Max: tool.Ptr(4096)},
			{Name: "cell_height", Type: tool.Integer, Min: tool.Ptr(8), Max: tool.Ptr(4096), Description: "Default: cell_width."},
			{Name: "gap", Type: tool.Integer, Default: 10, Min: tool.Ptr(0), Max: tool.Ptr(500), Description: "Pixels between cells."},
			{Name: "background", Type: tool.String, Default: "#ffffff", Description: "Colour of the gaps and empty cells (#rrggbb)."},
			{Name: "mode", Type: tool.String, Enum: []string{"fill", "fit"}, Default: "fill", Description: "fill crops to the cell; fit shows it whole."},
			outputParam, tool.Overwrite}},
		{Name: "generate", Level: tool.Write, Timeout: tool.Slow, Handler: g.generate, Params: []tool.Param{
			{Name: "prompt", Type: tool.String, Required: true, Description: "What the image shows."},
			{Name: "width", Type: tool.Integer, Default: 1024, Min: tool.Ptr(64), Max: tool.Ptr(8192), Description: "Width the model supports (e.g. 1024, 1536, 1792)."},
			{Name: "height", Type: tool.Integer, Default: 1024, Min: tool.Ptr(64), Max: tool.Ptr(8192), Description: "Height the model supports (e.g. 1024, 1536, 1792)."},
			{Name: "model_quality", Type: tool.String, Description: "The API's quality (e.g. high, hd)."},
			outputParam, tool.Overwrite}},
	}
}
