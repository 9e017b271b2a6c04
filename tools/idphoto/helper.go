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

	"clawbridge/internal/jail"
	"clawbridge/tools/tool"
)

//go:embed helper.py
var helperScript []byte

// pythonBin is Debian's interpreter, the one python3-opencv installs into
// (a python3 earlier on PATH, such as a pyenv one, has no cv2).
const pythonBin = "/usr/bin/python3"

// cascadePath is opencv-data's frontal face cascade; the jail sees /usr.
const cascadePath = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"

// jailWork is where the call's temporary directory is bound in the jail.
const jailWork = "/tmp/work"

const helperTimeout = 2 * time.Minute

// helper runs the embedded script in the jail with the call's work dir
// (host path work) bound writable at jailWork.
type helper struct {
	work      string
	protected []string
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
func newHelper(work string, protected []string) (*helper, error) {
	if err := present(); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(work, "helper.py"), helperScript, 0o644); err != nil {
		return nil, err
	}
	return &helper{work: work, protected: protected}, nil
}

// run runs one helper command and decodes its JSON answer into v.
func (h *helper) run(ctx context.Context, v any, args ...string) error {
	argv := append([]string{pythonBin, "-I", jailWork + "/helper.py"}, args...)
	res, err := jail.Run(ctx, jail.Spec{
		Argv:      argv,
		Env:       []string{"LANG=C.UTF-8", "OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1"},
		Binds:     []jail.Bind{{Source: h.work, Target: jailWork, Writable: true}},
		Protected: h.protected,
		Timeout:   helperTimeout,
		StdoutCap: 1 << 20,
		StderrCap: 8 << 10,
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
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

// detect returns the face boxes found in the PNG at work/name.
func (h *helper) detect(ctx context.Context, name string) ([]image.Rectangle, error) {
	var ans struct {
		Faces [][4]int `json:"faces"`
	}
	if err := h.run(ctx, &ans, "detect", jailWork+"/"+name, cascadePath); err != nil {
		return nil, err
	}
	out := make([]image.Rectangle, len(ans.Faces))
	for i, f := range ans.Faces {
		out[i] = image.Rect(f[0], f[1], f[0]+f[2], f[1]+f[3])
	}
	return out, nil
}

// segment writes work/mask.png for the PNG at work/name: 255 where the
// person is, 0 on the background, soft at the edge. valid is the part of
// the image that came from the photo (the rest is padding).
func (h *helper) segment(ctx context.Context, name string, face, valid image.Rectangle) (string, error) {
	var ans struct {
		Foreground float64 `json:"foreground"`
	}
	args := []string{"segment", jailWork + "/" + name}
	for _, n := range []int{face.Min.X, face.Min.Y, face.Dx(), face.Dy(), valid.Min.X, valid.Min.Y, valid.Max.X, valid.Max.Y} {
		args = append(args, strconv.Itoa(n))
	}
	args = append(args, jailWork+"/mask.png")
	if err := h.run(ctx, &ans, args...); err != nil {
		return "", err
	}
	if ans.Foreground < 0.05 {
		return "", tool.Errorf(tool.CodeFailed, "use a photo with the head and shoulders against a plain background", "the background could not be told from the person (%.0f%% foreground)", ans.Foreground*100)
	}
	return filepath.Join(h.work, "mask.png"), nil
}
