package screen

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/clawbridge/clawbridge/internal/wording"
)

// A minimal X11 client: the connection setup (which lists the screens) and
// GetImage on a root window. Enough to capture a display without external
// programs; little-endian only, 24/32-bit TrueColor visuals only.

type xScreen struct {
	Index  int `json:"index"`
	Width  int `json:"width"`
	Height int `json:"height"`
	Depth  int `json:"depth"`
	root   uint32
	visual uint32
	masks  [3]uint32 // red, green, blue
}

type xConn struct {
	c       net.Conn
	r       *bufio.Reader
	screens []xScreen
	formats map[int]int // depth -> bits per pixel
	seq     uint16
}

// displayAddr parses ":1", ":1.0", "unix:1", "localhost:10.0".
func displayAddr(display string) (network, addr string, num, screen int, err error) {
	host, rest, ok := strings.Cut(display, ":")
	if !ok {
		return "", "", 0, 0, fmt.Errorf("invalid display %q (expected :N or host:N)", display)
	}
	numStr, scrStr, _ := strings.Cut(rest, ".")
	num, err = strconv.Atoi(numStr)
	if err != nil || num < 0 {
		return "", "", 0, 0, fmt.Errorf("invalid display number in %q", display)
	}
	if scrStr != "" {
		if screen, err = strconv.Atoi(scrStr); err != nil {
			return "", "", 0, 0, fmt.Errorf("invalid screen number in %q", display)
		}
	}
	if host == "" || host == "unix" {
		return "unix", filepath.Join(socketDir, "X"+strconv.Itoa(num)), num, screen, nil
	}
	if host != "localhost" && host != "127.0.0.1" && host != "::1" {
		return "", "", 0, 0, fmt.Errorf("display %q is on another machine; only local displays can be captured", display)
	}
	return "tcp", net.JoinHostPort(host, strconv.Itoa(6000+num)), num, screen, nil
}

var socketDir = "/tmp/.X11-unix"

// xauthCookie finds the MIT-MAGIC-COOKIE-1 for a display in the Xauthority
// file, if any.
func xauthCookie(num int) (name, data []byte) {
	path := os.Getenv("XAUTHORITY")
	if path == "" {
		home, _ := os.UserHomeDir()
		path = filepath.Join(home, ".Xauthority")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	r := bufio.NewReader(f)
	host, _ := os.Hostname()
	read := func() ([]byte, error) {
		var n uint16
		if err := binary.Read(r, binary.BigEndian, &n); err != nil {
			return nil, err
		}
		b := make([]byte, n)
		_, err := io.ReadFull(r, b)
		return b, err
	}
	for {
		var family uint16
		if err := binary.Read(r, binary.BigEndian, &family); err != nil {
			return nil, nil
		}
		addr, err1 := read()
		disp, err2 := read()
		n, err3 := read()
		d, err4 := read()
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return nil, nil
		}
		local := family == 256 || family == 0xffff
		if (local && (string(addr) == host || family == 0xffff)) || family == 0 {
			if (len(disp) == 0 || string(disp) == strconv.Itoa(num)) && string(n) == "MIT-MAGIC-COOKIE-1" {
				return n, d
			}
		}
	}
}

func pad4(n int) int { return (4 - n%4) % 4 }

// dialX connects to a display. An X server that has just lost its last
// client resets and drops new connections for a moment: retry once.
func dialX(display string, timeout time.Duration) (*xConn, error) {
	x, err := dialXOnce(display, timeout)
	if err != nil && errors.Is(err, io.EOF) {
		time.Sleep(300 * time.Millisecond)
		x, err = dialXOnce(display, timeout)
	}
	return x, err
}

func dialXOnce(display string, timeout time.Duration) (*xConn, error) {
	network, addr, num, _, err := displayAddr(display)
	if err != nil {
		return nil, err
	}
	c, err := net.DialTimeout(network, addr, timeout)
	if err != nil {
		return nil, fmt.Errorf("connect to display %s: %w", display, err)
	}
	_ = c.SetDeadline(time.Now().Add(timeout))
	x := &xConn{c: c, r: bufio.NewReaderSize(c, 1<<16), formats: map[int]int{}}
	if err := x.setup(num); err != nil {
		c.Close()
		return nil, fmt.Errorf("display %s: %w", display, err)
	}
	return x, nil
}

func (x *xConn) Close() { x.c.Close() }

func (x *xConn) setup(num int) error {
	name, data := xauthCookie(num)
	req := []byte{'l', 0}
	req = binary.LittleEndian.AppendUint16(req, 11)
	req = binary.LittleEndian.AppendUint16(req, 0)
	req = binary.LittleEndian.AppendUint16(req, uint16(len(name)))
	req = binary.LittleEndian.AppendUint16(req, uint16(len(data)))
	req = append(req, 0, 0)
	req = append(req, name...)
	req = append(req, make([]byte, pad4(len(name)))...)
	req = append(req, data...)
	req = append(req, make([]byte, pad4(len(data)))...)
	if _, err := x.c.Write(req); err != nil {
		return err
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(x.r, head); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	extra := make([]byte, int(binary.LittleEndian.Uint16(head[6:]))*4)
	if _, err := io.ReadFull(x.r, extra); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	switch head[0] {
	case 1:
	case 0:
		reason := extra[:min(int(head[1]), len(extra))]
		return fmt.Errorf("the X server refused the connection: %s", strings.TrimSpace(string(reason)))
	default:
		return errors.New("the X server asks for authentication that is not available (set XAUTHORITY)")
	}
	if len(extra) < 32 {
		return errors.New("short setup reply")
	}
	le := binary.LittleEndian
	vendorLen := int(le.Uint16(extra[16:]))
	nScreens := int(extra[20])
	nFormats := int(extra[21])
	off := 32 + vendorLen + pad4(vendorLen)
	for i := 0; i < nFormats; i++ {
		if off+8 > len(extra) {
			return errors.New("short setup reply")
		}
		x.formats[int(extra[off])] = int(extra[off+1])
		off += 8
	}
	for i := 0; i < nScreens; i++ {
		if off+40 > len(extra) {
			return errors.New("short setup reply")
		}
		s := xScreen{Index: i, root: le.Uint32(extra[off:]), Width: int(le.Uint16(extra[off+20:])), Height: int(le.Uint16(extra[off+22:])),
			visual: le.Uint32(extra[off+32:]), Depth: int(extra[off+38])}
		nDepths := int(extra[off+39])
		off += 40
		for d := 0; d < nDepths; d++ {
			if off+8 > len(extra) {
				return errors.New("short setup reply")
			}
			nVis := int(le.Uint16(extra[off+2:]))
			off += 8
			for v := 0; v < nVis; v++ {
				if off+24 > len(extra) {
					return errors.New("short setup reply")
				}
				if le.Uint32(extra[off:]) == s.visual {
					s.masks = [3]uint32{le.Uint32(extra[off+8:]), le.Uint32(extra[off+12:]), le.Uint32(extra[off+16:])}
				}
				off += 24
			}
		}
		x.screens = append(x.screens, s)
	}
	return nil
}

// getImage captures a rectangle of a screen's root window.
func (x *xConn) getImage(s xScreen, r image.Rectangle) (*image.RGBA, error) {
	if s.Depth != 24 && s.Depth != 32 || x.formats[s.Depth] != 32 {
		return nil, fmt.Errorf("unsupported screen depth %d (only 24/32-bit TrueColor)", s.Depth)
	}
	le := binary.LittleEndian
	req := []byte{73, 2} // GetImage, ZPixmap
	req = le.AppendUint16(req, 5)
	req = le.AppendUint32(req, s.root)
	req = le.AppendUint16(req, uint16(int16(r.Min.X)))
	req = le.AppendUint16(req, uint16(int16(r.Min.Y)))
	req = le.AppendUint16(req, uint16(r.Dx()))
	req = le.AppendUint16(req, uint16(r.Dy()))
	req = le.AppendUint32(req, 0xffffffff)
	x.seq++
	if _, err := x.c.Write(req); err != nil {
		return nil, err
	}
	head := make([]byte, 32)
	if _, err := io.ReadFull(x.r, head); err != nil {
		return nil, fmt.Errorf("get image: %w", err)
	}
	if head[0] == 0 {
		return nil, fmt.Errorf("get image: X error code %d", head[1])
	}
	n := int(le.Uint32(head[4:])) * 4
	data := make([]byte, n)
	if _, err := io.ReadFull(x.r, data); err != nil {
		return nil, fmt.Errorf("get image: %w", err)
	}
	w, h := r.Dx(), r.Dy()
	if n < w*h*4 {
		return nil, fmt.Errorf("get image: short reply (%s for %dx%d)", wording.Count(n, "byte", "bytes"), w, h)
	}
	shift := func(m uint32) (uint, uint32) {
		if m == 0 {
			return 0, 0
		}
		var sft uint
		for m&1 == 0 {
			m >>= 1
			sft++
		}
		return sft, m
	}
	rs, rm := shift(s.masks[0])
	gs, gm := shift(s.masks[1])
	bs, bm := shift(s.masks[2])
	if rm == 0 {
		rs, rm, gs, gm, bs, bm = 16, 0xff, 8, 0xff, 0, 0xff
	}
	scale := func(v, m uint32) uint8 { return uint8(v * 255 / m) }
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		row := data[y*w*4 : (y+1)*w*4]
		out := img.Pix[y*img.Stride:]
		for i := 0; i < w; i++ {
			p := le.Uint32(row[i*4:])
			out[i*4] = scale(p>>rs&rm, rm)
			out[i*4+1] = scale(p>>gs&gm, gm)
			out[i*4+2] = scale(p>>bs&bm, bm)
			out[i*4+3] = 255
		}
	}
	return img, nil
}

// localDisplays lists the displays with a socket in /tmp/.X11-unix.
func localDisplays() []string {
	entries, _ := os.ReadDir(socketDir)
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutPrefix(e.Name(), "X"); ok {
			if _, err := strconv.Atoi(n); err == nil {
				out = append(out, ":"+n)
			}
		}
	}
	return out
}
