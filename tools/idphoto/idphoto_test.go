package idphoto

import (
	"encoding/json"
	"image"
	"image/color"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/disintegration/imaging"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// The real photograph: NASA's portrait of astronaut Eileen Collins, public
// domain (fixtures/idphoto/SOURCES.md).
const astronaut = "../../fixtures/idphoto/astronaut.jpg"

func newTool(t *testing.T) (tool.Tool, *tool.Deps) {
	t.Helper()
	needOpenCV(t)
	d := tooltest.Deps(t)
	tl, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	return tl, d
}

func needOpenCV(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(cascadePath); err != nil {
		tooltest.Missing(t, "opencv-data not installed (apt-get install opencv-data, or scripts/install-deps.sh)")
	}
	if exec.Command(pythonBin, "-c", "import cv2").Run() != nil {
		tooltest.Missing(t, "python3-opencv not installed (apt-get install python3-opencv, or scripts/install-deps.sh)")
	}
}

func loadFixture(t *testing.T) image.Image {
	t.Helper()
	img, err := imaging.Open(astronaut)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// put writes img into the workspace as a PNG.
func put(t *testing.T, d *tool.Deps, name string, img image.Image) string {
	t.Helper()
	tooltest.WritePNG(t, filepath.Join(d.Sandbox.Root(), name), img)
	return name
}

// cvFaces finds faces with OpenCV directly, outside the tool's helper.
func cvFaces(t *testing.T, path string) [][4]int {
	t.Helper()
	script := `import cv2, json, sys
g = cv2.cvtColor(cv2.imread(sys.argv[1]), cv2.COLOR_BGR2GRAY)
c = cv2.CascadeClassifier(sys.argv[2])
f = c.detectMultiScale(g, 1.1, 5, minSize=(40, 40))
print(json.dumps([[int(v) for v in r] for r in f] if len(f) else []))`
	out, err := exec.Command(pythonBin, "-c", script, path, strings.Replace(cascadePath, "_default", "_alt2", 1)).Output()
	if err != nil {
		t.Fatalf("opencv on %s: %v", path, err)
	}
	var faces [][4]int
	if err := json.Unmarshal(out, &faces); err != nil {
		t.Fatal(err)
	}
	return faces
}

func near(c color.Color, want color.NRGBA, tol int) bool {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	d := func(a, b uint8) bool { return int(a)-int(b) <= tol && int(b)-int(a) <= tol }
	return d(n.R, want.R) && d(n.G, want.G) && d(n.B, want.B)
}

// TestIDPhoto_Standards makes every size from the real photo, in both
// formats and all three colours: exact pixel size and 300 dpi read back
// from the file, the face found again by OpenCV (another cascade) at the
// standard's position, and the top row and the sides down to the face centre in the
// chosen colour.
func TestIDPhoto_Standards(t *testing.T) {
	tl, d := newTool(t)
	in := put(t, d, "portrait.png", loadFixture(t))
	bgs := []string{"white", "blue", "red"}
	i := 0
	for _, name := range sizeNames() {
		for _, format := range []string{"png", "jpg"} {
			std := standards[name]
			bg := bgs[i%3]
			i++
			t.Run(name+"_"+format+"_"+bg, func(t *testing.T) {
				res := tooltest.OK(t, tl, map[string]any{"action": "create", "path": in, "size": name, "background": bg, "format": format})
				path := res.Files[0].Path
				if filepath.Ext(path) != "."+format || !strings.HasPrefix(d.Sandbox.Rel(path), "outputs/portrait_"+name) {
					t.Fatalf("output %s", d.Sandbox.Rel(path))
				}
				img, _, raw := tooltest.ReadImage(t, path)
				if b := img.Bounds(); b.Dx() != std.W || b.Dy() != std.H {
					t.Fatalf("size %v, want %d×%d", b, std.W, std.H)
				}
				if got := readDPI(raw); math.Abs(got-300) > 0.01 {
					t.Fatalf("dpi %v, want 300", got)
				}
				if format == "jpg" {
					if out, err := exec.Command("file", path).Output(); err == nil && !strings.Contains(string(out), "density 300x300") {
						t.Fatalf("file(1) does not see 300 dpi: %s", out)
					}
				}
				faces := cvFaces(t, path)
				if len(faces) != 1 {
					t.Fatalf("OpenCV finds %d faces in the output, want 1", len(faces))
				}
				// OpenCV's face is where the tool says it put it, centred
				// across, and the crown at the standard's distance from the top.
				f := faces[0]
				cx, cy := float64(f[0])+float64(f[2])/2, float64(f[1])+float64(f[3])/2
				data := res.Data.(map[string]any)
				fo := data["face_in_output"].(map[string]int)
				wx, wy := float64(fo["x"])+float64(fo["width"])/2, float64(fo["y"])+float64(fo["height"])/2
				if math.Abs(cx-wx) > 0.06*float64(std.W) || math.Abs(cy-wy) > 0.06*float64(std.H) || math.Abs(wx-float64(std.W)/2) > 2 {
					t.Fatalf("face centre %.0f,%.0f, tool says %.0f,%.0f, frame centre %d", cx, cy, wx, wy, std.W/2)
				}
				if crown := data["crown_in_output"].(int); math.Abs(float64(crown)-std.Top*float64(std.H)) > 2 {
					t.Fatalf("crown at row %d, want %.0f", crown, std.Top*float64(std.H))
				}
				col := backgrounds[bg]
				tol := 0
				if format == "jpg" {
					tol = 6 // JPEG quantisation
				}
				for x := 0; x < std.W; x++ {
					if !near(img.At(x, 0), col, tol) {
						t.Fatalf("top row pixel %d is %v, want %s %v", x, img.At(x, 0), bg, col)
					}
				}
				// The shoulders may reach the sides below the eyes; in
				// Schengen's tight frame (head 76% of the height) her hair
				// reaches them below the top of the head.
				sides := int(cy)
				if name == "schengen" {
					sides = data["crown_in_output"].(int) + std.H/20
				}
				for y := 0; y < sides; y++ {
					if !near(img.At(0, y), col, tol) || !near(img.At(std.W-1, y), col, tol) {
						t.Fatalf("side pixel at row %d is %v / %v, want %s", y, img.At(0, y), img.At(std.W-1, y), bg)
					}
				}
				if near(img.At(int(cx), int(cy)), col, 30) {
					t.Fatalf("the face centre took the background colour")
				}
			})
		}
	}
}
