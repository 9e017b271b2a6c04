package idphoto

import (
	"context"
	_ "embed"
	"encoding/json"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/jail"
	"github.com/clawbridge/clawbridge/tools/tool"
)

//go:embed helper.py
var helperScript []byte

// pythonBin is Debian's interpreter, the one python3-opencv installs into
// (a python3 earlier on PATH, such as a pyenv one, has no cv2).
const pythonBin = "/usr/bin/python3"

// cascadeDir holds opencv-data's Haar cascades (two face cascades and two
// eye cascades are used); the jail sees /usr.
const cascadeDir = "/usr/share/opencv4/haarcascades"

// cascadePath is the first detector's cascade, checked for presence.
const cascadePath = cascadeDir + "/haarcascade_frontalface_default.xml"

// jailWork is where the call's temporary directory is bound in the jail.
const jailWork = "/tmp/work"

const helperTimeout = 2 * time.Minute

// helper runs the embedded script in the jail with the call's work dir
// (host path work) bound writable at jailWork.
type helper struct {
	work string
	jail jail.Runner // the tool's Deps.Run: the data dir hidden
}

// Available reports whether the helper can run: Debian's python3, the
// cascade file, and (by importing it on the host, for `clawbridge doctor`)
// python3-opencv.
func Available() error {
	if err := present(); err != nil {
		return err
	}
	if exec.Command(pythonBin, "-I", "-c", "import cv2").Run() != nil {
		return tool.Missing("OpenCV for Python (cv2)", "python3-opencv")
	}
	return nil
}

// present checks the files the helper needs; a missing cv2 shows when the
// helper runs.
func present() error {
	if _, err := os.Stat(pythonBin); err != nil {
		return tool.Missing("python3", "python3 python3-opencv")
	}
	if _, err := os.Stat(cascadePath); err != nil {
		return tool.Missing("OpenCV's Haar cascades ("+cascadePath+")", "opencv-data")
	}
	return nil
}

// newHelper writes the script into work after checking the files.
func newHelper(work string, run jail.Runner) (*helper, error) {
	if err := present(); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(work, "helper.py"), helperScript, 0o644); err != nil {
		return nil, err
	}
	return &helper{work: work, jail: run}, nil
}

// run runs one helper command and decodes its JSON answer into v.
func (h *helper) run(ctx context.Context, v any, args ...string) error {
	argv := append([]string{pythonBin, "-I", jailWork + "/helper.py"}, args...)
	res, err := h.jail(ctx, jail.Spec{
		Argv:      argv,
		Env:       []string{"LANG=C.UTF-8", "OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1"},
		Binds:     []jail.Bind{{Source: h.work, Target: jailWork, Writable: true}},
		Timeout:   helperTimeout,
		StdoutCap: 1 << 20,
		StderrCap: 8 << 10,
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if te, ok := tool.AsError(err); ok {
			return te // not installed
		}
		return tool.Errorf(tool.CodeUnavailable, "see clawbridge doctor", "the OpenCV helper cannot run: %v", err)
	}
	if res.TimedOut {
		return tool.Errorf(tool.CodeTimeout, "try a smaller photo", "the OpenCV helper took longer than %s", helperTimeout)
	}
	var answer struct {
		Error  string `json:"error"`
		Detail string `json:"detail"`
	}
	_ = json.Unmarshal([]byte(res.Stdout), &answer)
	if answer.Error == "no_opencv" {
		return tool.Missing("OpenCV for Python (cv2)", "python3-opencv")
	}
	if res.ExitCode != 0 || res.Signal != "" || answer.Error != "" {
		msg := strings.TrimSpace(answer.Detail + " " + res.Stderr)
		if len(msg) > 400 {
			msg = msg[:400]
		}
		return tool.Errorf(tool.CodeFailed, "check that the photo is a readable image", "the OpenCV helper failed (exit %d %s): %s", res.ExitCode, res.Signal, msg)
	}
	if err := json.Unmarshal([]byte(res.Stdout), v); err != nil {
		return tool.Errorf(tool.CodeFailed, "see the server log", "the OpenCV helper answered no JSON: %v", err)
	}
	return nil
}

// detect returns the confirmed face boxes found in the PNG at work/name,
// and how many face-like boxes were not confirmed as faces.
func (h *helper) detect(ctx context.Context, name string) ([]image.Rectangle, int, error) {
	var ans struct {
		Faces       [][4]int `json:"faces"`
		Unconfirmed int      `json:"unconfirmed"`
	}
	if err := h.run(ctx, &ans, "detect", jailWork+"/"+name, cascadeDir); err != nil {
		return nil, 0, err
	}
	out := make([]image.Rectangle, len(ans.Faces))
	for i, f := range ans.Faces {
		out[i] = image.Rect(f[0], f[1], f[0]+f[2], f[1]+f[3])
	}
	return out, ans.Unconfirmed, nil
}

// person is the segmentation of the person around one face.
type person struct {
	Mask       *image.Gray     // 255 = person, covering Region (possibly scaled down)
	Region     image.Rectangle // in photo pixels
	Crown      float64         // the top of the head, photo row
	TouchesTop bool            // the head reaches the photo's top edge
}

// segment runs GrabCut on the PNG at work/name around face.
func (h *helper) segment(ctx context.Context, name string, face image.Rectangle) (*person, error) {
	var ans struct {
		Region     [4]int  `json:"region"`
		Crown      float64 `json:"crown"`
		TouchesTop bool    `json:"touches_top"`
	}
	args := []string{"segment", jailWork + "/" + name}
	for _, n := range []int{face.Min.X, face.Min.Y, face.Dx()} {
		args = append(args, strconv.Itoa(n))
	}
	args = append(args, jailWork+"/mask.png")
	if err := h.run(ctx, &ans, args...); err != nil {
		return nil, err
	}
	region := image.Rect(ans.Region[0], ans.Region[1], ans.Region[2], ans.Region[3])
	mask, err := readGray(filepath.Join(h.work, "mask.png"))
	if err != nil {
		return nil, err
	}
	if region.Empty() || !region.Overlaps(face) {
		return nil, tool.Errorf(tool.CodeFailed, "see the server log", "the OpenCV helper answered a region %v that misses the face", region)
	}
	return &person{Mask: mask, Region: region, Crown: ans.Crown, TouchesTop: ans.TouchesTop}, nil
}
