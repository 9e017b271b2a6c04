package idphoto

import (
	"fmt"
	"image"
	"maps"
	"math"
	"slices"
	"strings"
)

// dpi is the resolution of every output.
const dpi = 300

// standard is one ID photo size: pixels at 300 dpi, and where the head
// sits: its height (crown to chin) and the space above the crown, as
// fractions of the frame height.
type standard struct {
	W, H      int
	Label     string
	Head, Top float64
}

// standards are the sizes offered. The head fractions are the middle of
// each standard's range: Chinese 1- and 2-inch photos about 60% head, the
// Chinese passport 28–33 mm of 48 mm with 3–5 mm above, US visa 1–1⅜ in of
// 2 in, Schengen (ICAO) 32–36 mm of 45 mm.
var standards = map[string]standard{
	"one_inch": {W: 295, H: 413, Label: "1-inch 25×35 mm", Head: 0.60, Top: 0.10},
	"two_inch": {W: 413, H: 579, Label: "2-inch 35×49 mm", Head: 0.60, Top: 0.10},
	"passport": {W: 390, H: 567, Label: "passport 33×48 mm", Head: 0.64, Top: 0.08},
	"us_visa":  {W: 600, H: 600, Label: "US visa 2×2 in", Head: 0.60, Top: 0.12},
	"schengen": {W: 413, H: 531, Label: "Schengen 35×45 mm", Head: 0.76, Top: 0.06},
}

func sizeNames() []string { return slices.Sorted(maps.Keys(standards)) }

func sizeHelp() string {
	var parts []string
	for _, n := range sizeNames() {
		s := standards[n]
		parts = append(parts, fmt.Sprintf("%s %d×%d (%s)", n, s.W, s.H, s.Label))
	}
	return "Standard size at 300 dpi: " + strings.Join(parts, ", ") + "."
}

// The chin is estimated from the Haar face box, which runs from the
// eyebrows to about the mouth's bottom: the chin lies a little below it.
// The crown is measured on the segmented person (hair included), and kept
// between the least skull and the most hair there can be above the box.
const (
	chinBelow       = 0.05 // of the box height, below the box
	crownAboveLeast = 0.15
	crownAboveMost  = 0.75 // the segmentation looks no higher
)

// frame is where the standard's frame falls in the source photo.
type frame struct {
	Rect        image.Rectangle // in source pixels; may reach past the photo's top or sides
	Crown, Chin float64
	Scale       float64 // output pixels per source pixel
}

// place fits the standard's frame around the head: crown (a photo row) to
// the chin below the face box, centred on the box.
func place(s standard, face image.Rectangle, crown float64) frame {
	fh := float64(face.Dy())
	chin := float64(face.Max.Y) + chinBelow*fh
	headH := chin - crown
	frameH := headH / s.Head
	frameW := frameH * float64(s.W) / float64(s.H)
	top := crown - s.Top*frameH
	cx := float64(face.Min.X) + float64(face.Dx())/2
	left := cx - frameW/2
	r := image.Rect(int(math.Round(left)), int(math.Round(top)), int(math.Round(left+frameW)), int(math.Round(top+frameH)))
	return frame{Rect: r, Crown: crown, Chin: chin, Scale: float64(s.H) / frameH}
}
