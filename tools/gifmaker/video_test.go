package gifmaker

import (
	"encoding/json"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/clawbridge/clawbridge/tools/tool"
	"github.com/clawbridge/clawbridge/tools/tooltest"
)

// fixture copies testdata/name into the workspace.
func fixture(t *testing.T, d *tool.Deps, name string) string {
	t.Helper()
	raw := tooltest.ReadFile(t, filepath.Join("testdata", name))
	tooltest.WriteFile(t, filepath.Join(d.Sandbox.Root(), name), raw)
	return name
}

// derive makes out in the workspace from the public white.mp4 with the
// host's ffmpeg and the arguments given (after the input).
func derive(t *testing.T, d *tool.Deps, out string, args ...string) string {
	t.Helper()
	return deriveFrom(t, d, fixture(t, d, "white.mp4"), out, args...)
}

// deriveFrom makes out from the workspace file in.
func deriveFrom(t *testing.T, d *tool.Deps, in, out string, args ...string) string {
	t.Helper()
	tooltest.NeedProgram(t, "ffmpeg")
	tooltest.NeedProgram(t, "bwrap")
	argv := append([]string{"-nostdin", "-v", "error", "-y", "-i", filepath.Join(d.Sandbox.Root(), in)}, args...)
	if o, err := exec.Command("ffmpeg", append(argv, filepath.Join(d.Sandbox.Root(), out))...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %v: %v %s", args, err, o)
	}
	return out
}

// shown reads a video's coded size, sample aspect ratio and rotation with
// the host's ffprobe, to make sure a derived file says what the test means.
func shown(t *testing.T, d *tool.Deps, name string) (w, h int, sar string, rotation float64) {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height,sample_aspect_ratio:stream_side_data=rotation",
		"-of", "json", filepath.Join(d.Sandbox.Root(), name)).Output()
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Streams []struct {
			Width, Height int
			SAR           string                       `json:"sample_aspect_ratio"`
			SideData      []struct{ Rotation float64 } `json:"side_data_list"`
		}
	}
	if err := json.Unmarshal(out, &p); err != nil || len(p.Streams) != 1 {
		t.Fatalf("ffprobe %s: %v %s", name, err, out)
	}
	s := p.Streams[0]
	for _, sd := range s.SideData {
		rotation += sd.Rotation
	}
	return s.Width, s.Height, s.SAR, rotation
}

// TestGIF_FromVideoCapsOnShownFrames: the frame caps hold for the frames
// as ffmpeg makes them, after rotation and sample aspect ratio, not for
// the coded size. A public video coded 100×60 and rotated is shown 60×100;
// a 9600×480 video rotated a quarter turn is 480×9600 frames at the
// default width, as is one of square 480×480 pixels 1:20 wide.
func TestGIF_FromVideoCapsOnShownFrames(t *testing.T) {
	tl, d := newTool(t, "max_frame_pixels: 5000")
	rotated := fixture(t, d, "video_rotation_90.mp4")
	if w, h, _, rot := shown(t, d, rotated); w != 100 || h != 60 || (rot != 90 && rot != -90) {
		t.Fatalf("fixture is %d×%d rotated %v", w, h, rot)
	}
	// 60 wide: 60×100 = 6000 pixels, over 5000 (coded aspect: 60×36).
	_, err := tooltest.Run(t, tl, map[string]any{"action": "from_video", "path": rotated, "width": 60})
	if e := tooltest.ToolError(t, err, tool.CodeTooLarge); !strings.Contains(e.Message, "max_frame_pixels") {
		t.Errorf("message %q", e.Message)
	}
	// 40 wide fits: 40×66, as ffprobe reads the GIF.
	res := tooltest.OK(t, tl, map[string]any{"action": "from_video", "path": rotated, "width": 40, "output": "rot.gif"})
	if w, h, frames, _ := ffprobeGIF(t, tooltest.OnlyFile(t, res)); w != 40 || h != 66 || frames != 1 {
		t.Errorf("rotated: %d×%d, %d frames; want 40×66, 1", w, h, frames)
	}

	tl, d = newTool(t, "") // the default caps: 2 Mpx a frame
	long := []string{"-t", "0.3", "-r", "10", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"}
	derive(t, d, "wide.mp4", append([]string{"-vf", "scale=9600:480,setsar=1"}, long...)...)
	// ffmpeg 5.1 writes a display matrix for the rotate tag on a stream copy.
	deriveFrom(t, d, "wide.mp4", "rotated.mp4", "-c", "copy", "-metadata:s:v", "rotate=90")
	derive(t, d, "tall.mp4", append([]string{"-vf", "scale=480:9600,setsar=1"}, long...)...)
	derive(t, d, "narrow.mp4", append([]string{"-vf", "scale=480:480,setsar=1/20"}, long...)...)
	for _, tc := range []struct {
		name, sar string
		w, h, rot int
	}{{"rotated.mp4", "1:1", 9600, 480, 90}, {"tall.mp4", "1:1", 480, 9600, 0}, {"narrow.mp4", "1:20", 480, 480, 0}} {
		name := tc.name
		t.Run(name, func(t *testing.T) {
			if w, h, sar, rot := shown(t, d, name); w != tc.w || h != tc.h || sar != tc.sar || int(rot) != tc.rot {
				t.Fatalf("%s: coded %d×%d, SAR %s, rotation %v", name, w, h, sar, rot)
			}
			_, err := tooltest.Run(t, tl, map[string]any{"action": "from_video", "path": name})
			if e := tooltest.ToolError(t, err, tool.CodeTooLarge); !strings.Contains(e.Message, "480×9600") && !strings.Contains(e.Message, "480 wide are 9600 high") {
				t.Errorf("message %q does not name the frames made", e.Message)
			}
		})
	}
	if ents, _ := os.ReadDir(filepath.Join(d.Sandbox.Root(), "outputs")); len(ents) != 0 {
		t.Errorf("refused calls left files: %v", ents)
	}
}

// TestGIF_FromVideoSampleAspect: frames keep the shown aspect of
// anamorphic video, as ffprobe reads the GIF: a public 640×480 video of
// 16:9 pixels (shown 64:27) is 480×202, and 800×640 of 64:45 pixels
// (shown 16:9) is 480×270.
func TestGIF_FromVideoSampleAspect(t *testing.T) {
	tl, d := newTool(t, "")
	anamorphic := derive(t, d, "sar.mp4", "-t", "1", "-vf", "scale=800:640,setsar=64/45", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p")
	if w, h, sar, _ := shown(t, d, anamorphic); w != 800 || h != 640 || sar != "64:45" {
		t.Fatalf("derived %d×%d SAR %s", w, h, sar)
	}
	for _, tc := range []struct {
		path string
		h    int
	}{{fixture(t, d, "h264_white_frame_sar_16_9.mp4"), 202}, {anamorphic, 270}} {
		res := tooltest.OK(t, tl, map[string]any{"action": "from_video", "path": tc.path, "width": 480})
		if w, h, _, _ := ffprobeGIF(t, tooltest.OnlyFile(t, res)); w != 480 || h != tc.h {
			t.Errorf("%s: %d×%d, want 480×%d", tc.path, w, h, tc.h)
		}
	}
}

// TestGIF_FromVideoContainers: FLV, AVI and MPEG-TS clips with one
// keyframe, made from the public white.mp4, give every frame of the clip
// and each of them white (a seek to 0 left AVI frames grey and lost FLV
// frames).
func TestGIF_FromVideoContainers(t *testing.T) {
	tl, d := newTool(t, "")
	sine := []string{"-f", "lavfi", "-i", "sine=duration=4"}
	for name, args := range map[string][]string{
		"clip.flv": {"-c:v", "flv1", "-c:a", "libmp3lame", "-ar", "44100"},
		"clip.avi": {"-c:v", "mpeg4", "-bf", "2", "-c:a", "libmp3lame"},
		"clip.ts":  {"-c:v", "mpeg2video", "-bf", "2", "-c:a", "mp2"},
	} {
		t.Run(name, func(t *testing.T) {
			derive(t, d, name, append(append(sine, "-t", "4", "-g", "300"), args...)...)
			res := tooltest.OK(t, tl, map[string]any{"action": "from_video", "path": name, "width": 160, "fps": 10})
			g := decodeGIF(t, tooltest.OnlyFile(t, res))
			if len(g.Image) < 40 || len(g.Image) > 41 {
				t.Errorf("%d frames, want 40 (4 s at 10 fps; 41 when the container is a little longer)", len(g.Image))
			}
			for i, m := range g.Image {
				c := color.NRGBAModel.Convert(m.At(80, 60)).(color.NRGBA)
				if c.R < 240 || c.G < 240 || c.B < 240 {
					t.Errorf("frame %d is %v at its centre, not white", i, c)
					break
				}
			}
		})
	}
}

// TestGIF_FIFOInputs: a named pipe given as a video or as a frame image is
// refused at once as not a regular file; nothing is written.
func TestGIF_FIFOInputs(t *testing.T) {
	tl, d := newTool(t, "")
	tooltest.NeedProgram(t, "bwrap")
	for _, name := range []string{"pipe.mp4", "pipe.png"} {
		if err := syscall.Mkfifo(filepath.Join(d.Sandbox.Root(), name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range []map[string]any{
		{"action": "from_video", "path": "pipe.mp4"},
		{"action": "from_images", "paths": []any{"pipe.png"}},
	} {
		_, err := tooltest.Run(t, tl, args)
		if e := tooltest.ToolError(t, err, tool.CodeInvalid); !strings.Contains(e.Message, "not a regular file") {
			t.Errorf("%v: %q", args["action"], e.Message)
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(d.Sandbox.Root(), "outputs")); len(ents) != 0 {
		t.Errorf("refused calls left files: %v", ents)
	}
}
