// Package idphoto is the `id_photo` tool: ID photos cut from a portrait to
// a standard size (1-inch, 2-inch, Chinese passport, US visa, Schengen) with
// the standard's head-to-frame proportions, the background replaced with
// white, blue or red, the resolution (300 dpi) written into the file (PNG
// pHYs, JPEG JFIF density), and print sheets of copies for 4×6 in paper
// with cut guides.
//
// Face detection and segmentation run locally with OpenCV: a small Python
// helper (embedded here, written to a temporary directory) is run with
// Debian's /usr/bin/python3 and python3-opencv in internal/jail, using the
// Haar cascades of Debian's opencv-data. A box of the frontal-face cascade
// is a face only if a second face cascade (alt2) or two eyes (the eye and
// eyeglasses cascades) confirm it, and overlapping boxes are one face: a
// chair, a flag or a collar is not a face. The person is then segmented
// with GrabCut on a region around the face, seeded with a body prior (face,
// neck and chest surely the person, whatever their colour; outside the head
// with its hair and the body below the shoulders surely background), and
// only the part joined to the face is kept: clothes are the person, people
// beside and things behind are background. The crown is measured on that
// segmentation. This was chosen over gocv because gocv needs cgo and
// OpenCV's development headers at build time, while the helper keeps the
// binary pure Go and needs only two Debian packages at run time (a missing
// one is a clear error and `clawbridge doctor` reports it). No better
// detector is used because Debian ships no model for OpenCV's DNN face
// detector or facemarks.
//
// Exactly one face must be found (faces under half the size of the largest
// are taken as background people and ignored), at least min_face_pixels
// wide, with the head and the frame below it inside the photo; a head is
// cut off only when the segmented person reaches the photo's top edge. It
// does not check expression, glasses or lighting and does not retouch. The
// chin is estimated from the face box (no landmark model), and a person
// standing against someone in the same colours may keep part of them.
package idphoto

import (
	"errors"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/tools/tool"
)

// Section is the tool's config section (tools: id_photo: ...).
type Section struct {
	// MaxPixels caps the input photo before it is decoded.
	MaxPixels int `yaml:"max_pixels"`
	// MinFacePixels is the smallest face box width accepted: a smaller
	// face would be enlarged too much for print.
	MinFacePixels int `yaml:"min_face_pixels"`
}

// DefaultSection is the section's defaults.
func DefaultSection() Section {
	return Section{MaxPixels: 40_000_000, MinFacePixels: 80}
}

// Validate refuses limits below one.
func (s *Section) Validate() error {
	return errors.Join(config.AtLeast("max_pixels", s.MaxPixels, 1), config.AtLeast("min_face_pixels", s.MinFacePixels, 24))
}

type idPhoto struct {
	d   *tool.Deps
	cfg Section
}

// New builds the id_photo tool from the tools.id_photo section.
func New(d *tool.Deps) (tool.Tool, error) {
	return tool.Configured[Section]{Name: "id_photo", Defaults: DefaultSection, Provision: provision}.New(d)
}

// provision builds the tool from its decoded section.
func provision(d *tool.Deps, cfg Section) (tool.Tool, error) {
	p := &idPhoto{d: d, cfg: cfg}
	return tool.Tool{
		Name:  "id_photo",
		Title: "ID photo",
		Description: "ID photos from a portrait: face-centred crop to a standard size (1-inch, 2-inch, passport, " +
			"US visa, Schengen), background replaced with white, blue or red, and print sheets for 6-inch paper.",
		Actions: []tool.Action{
			{Name: "create", Description: "an ID photo from a portrait with one face", Level: tool.Write, Timeout: tool.Slow, Handler: p.create, Params: []tool.Param{
				{Name: "path", Type: tool.String, Required: true, Description: "Portrait (png, jpeg, gif, bmp, tiff, webp)."},
				{Name: "size", Type: tool.String, Enum: sizeNames(), Default: "two_inch", Description: sizeHelp()},
				{Name: "background", Type: tool.String, Enum: []string{"white", "blue", "red", "keep"}, Default: "white", Description: "keep: the photo's."},
				{Name: "format", Type: tool.String, Enum: []string{"png", "jpg"}, Default: "jpg", Description: "Both carry 300 dpi."},
				tool.OutputParam("Default outputs/<name>_<size>.<format>."),
				tool.Overwrite}},
			{Name: "sheet", Description: "copies of an ID photo on 6-inch (4×6 in) paper with cut guides", Level: tool.Write, Timeout: tool.Slow, Handler: p.sheet, Params: []tool.Param{
				{Name: "path", Type: tool.String, Required: true, Description: "ID photo in the workspace (as made by create; its pixels are taken at 300 dpi)."},
				{Name: "copies", Type: tool.Integer, Min: tool.Ptr(1), Max: tool.Ptr(64), Description: "Default as many as fit."},
				{Name: "format", Type: tool.String, Enum: []string{"png", "jpg"}, Default: "jpg", Description: "Both carry 300 dpi."},
				tool.OutputParam("Default outputs/<name>_sheet.<format>."),
				tool.Overwrite}},
		},
		Programs: tool.ProgramsOf(pythonBin),
		// OpenCV is a Python module and a data file, not a program.
		Checks: []tool.Check{{Name: "opencv", Fix: "apt-get install python3-opencv opencv-data",
			Run: func() (string, error) { return "python3-opencv and opencv-data for id_photo", Available() }}},
		Examples: []string{
			"make a passport photo from my selfie",
			"make a visa photo with white background",
			"crop my picture to one inch id size",
			"turn this portrait into a 2-inch ID photo with a blue background",
			"change the photo background to red",
			"US visa photo 600x600",
			"print sheet of passport photos",
			"做一张一寸证件照",
			"把照片背景换成白色",
			"生成签证照片",
			"两寸蓝底照片",
			"证件照换红底",
			"排版证件照打印六寸相纸",
			"护照照片",
		},
	}, nil
}
